/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal interface between the files of the dynamic ftrace core.
 *
 *   ftrace_records.c  call-site records: blocks, lookup, modules, init text
 *   ftrace_hash.c     ip sets (filter/notrace hashes) and the ip->data mapper
 *   ftrace_ops.c      the ops list, the list function, register/unregister
 *   ftrace_update.c   accounting (what each site must call) and patching
 *   ftrace_compat.c   <linux/ftrace_arch.h> on the 6.1 arch interface
 *   ftrace_match.c    names and globs to records
 *   ftrace_filter.c   the filter API and word syntax, boot filters, ftrace_init()
 *   ftrace_fs.c       tracefs files of the core
 *   ftrace_pid.c      set_ftrace_pid / set_ftrace_notrace_pid, top-level files
 *   ftrace_probe.c    function probes, filter commands, :mod: filters
 *   ftrace_profile.c  the function profiler
 *   ftrace_direct.c   direct calls
 *   ftrace_kunit.c    KUnit suites of the logic above
 *
 * Locks, in the order they are taken:
 *
 *   command_lock (ftrace_probe.c)  keeps a filter command while it runs
 *   event_mutex (trace_events.c)   taken by event commands and rmdir
 *   direct_mutex (ftrace_direct.c) direct-call targets
 *   trace_types_lock (trace.c)     the trace arrays, on module load/unload
 *   regex_lock (per ops hashes)    ftrace_set_filter() and friends
 *   ftrace_lock                    records, ops, hashes and the code
 *   text_mutex                     taken by the arch around code writes
 *
 * prof_lock (ftrace_profile.c) is taken before ftrace_lock when the
 * profiler registers.  Readers that run in traced context (the list
 * function, the graph filter) use RCU-sched style protection: preemption
 * is off around them.
 */
#ifndef _KERNEL_TRACE_FTRACE_CORE_H
#define _KERNEL_TRACE_FTRACE_CORE_H

#include <linux/ftrace.h>
#include <linux/ftrace_arch.h>
#include <linux/rcupdate.h>
#include <linux/module.h>

#include "trace.h"
#include "ftrace_internal.h"

struct ftrace_ops_hash;

#ifndef CONFIG_DYNAMIC_FTRACE
/* No code to patch: the one command ftrace_ops.c passes means nothing. */
#define FTRACE_UPDATE_CALLS	0
#endif

extern struct ftrace_ops *function_trace_op;
void ftrace_ops_list_func(unsigned long ip, unsigned long parent_ip,
			  struct ftrace_ops *op, struct ftrace_regs *fregs);
extern bool ftrace_dead;

/* Every registered ops, under ftrace_lock. */
#define for_each_ftrace_ops(op) \
	for (op = rcu_dereference_protected(ftrace_ops_list, \
					    lockdep_is_held(&ftrace_lock)); \
	     op != &ftrace_list_end; \
	     op = rcu_dereference_protected(op->next, \
					    lockdep_is_held(&ftrace_lock)))

/* ftrace_ops.c */
void ftrace_ops_init(struct ftrace_ops *ops);
void ftrace_ops_init_hashes(struct ftrace_ops *ops,
			    struct ftrace_ops_hash *hashes);
bool ftrace_ops_wants(struct ftrace_ops *ops, unsigned long ip);
bool ftrace_ops_wants_all(struct ftrace_ops *ops);
bool ftrace_ops_active(struct ftrace_ops *ops);
void ftrace_update_func(void);
struct ftrace_ops *ftrace_wanted_op(void);
/* In ftrace_update.c; without dynamic ftrace, in ftrace_ops.c. */
int ftrace_run_update(int command);
int ftrace_shutdown_batch(struct ftrace_ops **ops, unsigned int n, int command);
void ftrace_ops_quiesce(struct ftrace_ops *ops);
int ftrace_tramp_update(struct ftrace_ops *ops);
extern struct list_head ftrace_tramp_list;

/* Does @ops make the sites it alone wants call their direct targets? */
static inline bool ftrace_ops_is_direct(struct ftrace_ops *ops)
{
	return IS_ENABLED(CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS) &&
	       (ops->flags & FTRACE_OPS_FL_DIRECT);
}

/* ftrace_direct.c: an IP mover and the direct ops it shares functions with. */
#ifdef CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS
int ftrace_register_ipmodify(struct ftrace_ops *ops);
void ftrace_ipmodify_gone(struct ftrace_ops *ops);
#else
static inline int ftrace_register_ipmodify(struct ftrace_ops *ops)
{
	return -EINVAL;
}

static inline void ftrace_ipmodify_gone(struct ftrace_ops *ops)
{
}
#endif

/* Must registering @ops tell direct ops on its functions (ftrace_direct.c)? */
static inline bool ftrace_ipmodify_shares(struct ftrace_ops *ops)
{
	return IS_ENABLED(CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS) &&
	       (ops->flags & FTRACE_OPS_FL_IPMODIFY);
}

#ifdef CONFIG_DYNAMIC_FTRACE
/* @ops' filter (or, with @nt, notrace) hash, under ftrace_lock. */
static inline struct ftrace_hash *ftrace_ops_hash_locked(struct ftrace_ops *ops,
							 bool nt)
{
	if (nt)
		return rcu_dereference_protected(ops->func_hash->notrace_hash,
						 lockdep_is_held(&ftrace_lock));
	return rcu_dereference_protected(ops->func_hash->filter_hash,
					 lockdep_is_held(&ftrace_lock));
}

/*
 * A call-site record is eight bytes: the site's offset from its block's base
 * address, and the same flag word as dyn_ftrace.flags (a reference count in
 * the low FTRACE_REF_MAX_SHIFT bits, FTRACE_FL_* above it).  The arch code
 * never sees this layout: it gets batches of changes (<linux/ftrace_arch.h>).
 */
struct ftrace_rec {
	u32 off;
	u32 flags;
};

/*
 * A block is one page (or a few) of records, sorted by address, all within
 * 4 GiB of @base and all from the same text (@mod, NULL for vmlinux).
 * Blocks form one RCU-protected list; they are replaced, never edited in
 * place, when records are removed.
 */
struct ftrace_block {
	struct ftrace_block __rcu *next;
	unsigned long base;
	struct module *mod;
	unsigned int count;
	unsigned int order;
	struct rcu_head rcu;
	struct ftrace_rec recs[];
};

/* Flags for ftrace_replace_code(); bit 0 is what the 6.1 arch code tests. */
enum {
	FTRACE_MODIFY_ENABLE_FL		= BIT(0),
	FTRACE_MODIFY_MAY_SLEEP_FL	= BIT(1),
};

extern struct ftrace_block __rcu *ftrace_blocks;

static inline unsigned long ftrace_rec_ip(const struct ftrace_block *b,
					  const struct ftrace_rec *r)
{
	return b->base + r->off;
}

/* Layout of ftrace_rec.flags below FTRACE_FL_*: see ftrace_update.c. */
#define REC_REF_MASK	0x3fffU
/* Sticky: some ops has wanted the site since boot (touched_functions). */
#define REC_TOUCHED	BIT(14)
/* Sticky: an ops that may move the IP, or a direct call, has wanted it. */
#define REC_MODIFIED	BIT(15)
#define REC_SLOT_SHIFT	16
#define REC_SLOT_MASK	(0x7fU << REC_SLOT_SHIFT)
#define REC_SLOTS	128

static inline unsigned int ftrace_rec_refs(const struct ftrace_rec *r)
{
	return r->flags & REC_REF_MASK;
}

#define for_each_ftrace_block(b) \
	for (b = rcu_dereference_check(ftrace_blocks, \
				       lockdep_is_held(&ftrace_lock)); \
	     b; b = rcu_dereference_check(b->next, \
					  lockdep_is_held(&ftrace_lock)))

/* ftrace_records.c */
const char *ftrace_init_name_lookup(unsigned long addr, unsigned long *size,
				    unsigned long *off, char **modname,
				    char *sym);
int ftrace_init_name_symbol(unsigned int symnum, unsigned long *value,
			    char *name, char *module_name);
struct ftrace_rec *ftrace_find_rec(unsigned long ip, struct ftrace_block **bp);
struct ftrace_rec *ftrace_block_find(struct ftrace_block *b, unsigned long ip);
struct ftrace_block *ftrace_blocks_build(struct module *mod,
					 unsigned long *start,
					 unsigned long *end);
void ftrace_blocks_free(struct ftrace_block *chain);
void ftrace_boot_records(unsigned long *start, unsigned long *end);
/* The linker script brackets the __mcount_loc table with these. */
extern unsigned long __start_mcount_loc[];
extern unsigned long __stop_mcount_loc[];
unsigned long ftrace_nr_records(void);

/* ftrace_hash.c */
#define FTRACE_HASH_MAX_BITS	12
struct ftrace_hash *ftrace_hash_alloc(int size_bits);
struct ftrace_hash *ftrace_hash_copy(struct ftrace_hash *src);
void ftrace_hash_free(struct ftrace_hash *hash);
void ftrace_hash_free_rcu(struct ftrace_hash *hash);
int ftrace_hash_add(struct ftrace_hash *hash, unsigned long ip);
void ftrace_hash_del(struct ftrace_hash *hash, struct ftrace_func_entry *e);
void ftrace_hash_clear(struct ftrace_hash *hash);
struct ftrace_hash *ftrace_hash_resized(struct ftrace_hash *src);
bool ftrace_hash_equal(struct ftrace_hash *a, struct ftrace_hash *b);
void ftrace_hash_drop_range(struct ftrace_hash *hash, unsigned long start,
			    unsigned long end);
extern struct ftrace_hash ftrace_empty_hash;

#define for_each_hash_entry(hash, i, e) \
	for (i = 0; i < (1UL << (hash)->size_bits); i++) \
		hlist_for_each_entry(e, &(hash)->buckets[i], hlist)

/* ftrace_update.c */

/* What an update does to one site, and to its record's flag word. */
struct ftrace_site_change {
	u32 flags;		/* the flag word it was worked out for */
	u32 next;		/* the word once the site is written */
	bool act;		/* false: neither site nor record changes */
	unsigned long old;	/* what the site calls now (0: the NOP) */
	unsigned long new;	/* what it must call */
};

/*
 * Sites on their way to the back end (ftrace_arch_patch(), or a test's),
 * FTRACE_BATCH_MAX at a time, with the records to update once written
 * and their flag words then.  @memo is the change worked out for the
 * last record, reused for the next while @memo_ok and the flag word is
 * the same.
 */
struct ftrace_batcher {
	int (*patch)(struct ftrace_batch *batch);
	struct ftrace_batch batch;
	struct ftrace_patch entry[FTRACE_BATCH_MAX];
	struct ftrace_rec *rec[FTRACE_BATCH_MAX];
	u32 next[FTRACE_BATCH_MAX];
	struct ftrace_site_change memo;
	bool memo_ok;
	bool enable;
	unsigned int written;
	unsigned int changed;
	unsigned int batches;
};

extern struct ftrace_ops __rcu **ftrace_plan_ops;
unsigned int ftrace_plan_block(struct ftrace_block *b);
void ftrace_plan_mark(struct ftrace_block *b);
void ftrace_batcher_start(struct ftrace_batcher *bt,
			  int (*patch)(struct ftrace_batch *batch),
			  bool enable, bool live, struct module *mod);
int ftrace_batcher_add_block(struct ftrace_batcher *bt, struct ftrace_block *b);
int ftrace_batcher_init_block(struct ftrace_batcher *bt, struct ftrace_block *b);
int ftrace_batcher_init_sample(struct ftrace_batcher *bt,
			       struct ftrace_block *b, unsigned int step);
int ftrace_batcher_flush(struct ftrace_batcher *bt);
void ftrace_patch_failed(const struct ftrace_batch *batch, int err);
extern u64 ftrace_update_time;
extern u64 ftrace_total_mod_time;
void ftrace_enable_new_records(struct ftrace_block *b);
void ftrace_convert_block(struct ftrace_block *b);
void ftrace_slots_gc(void);
unsigned long ftrace_site_target(unsigned long ip);

/*
 * The set_graph_function hashes (ftrace_fs.c).  trace.h declares them only
 * with the graph tracer; the core keeps them (empty) without it too.
 */
extern struct ftrace_hash __rcu *ftrace_graph_hash;
extern struct ftrace_hash __rcu *ftrace_graph_notrace_hash;

/* ftrace_filter.c */
int ftrace_ops_set_hash(struct ftrace_ops *ops, bool nt,
			struct ftrace_hash *hash);
void ftrace_ops_drop_range(unsigned long start, unsigned long end);

/* ftrace_match.c */
struct ftrace_glob {
	char *search;
	unsigned int len;
	int type;
};

int ftrace_glob_parse(char *str, int len, struct ftrace_glob *g, bool *neg);
char *arch_ftrace_match_adjust(char *str, const char *search);
bool ftrace_glob_match(const char *name, const struct ftrace_glob *g);
unsigned long ftrace_word_address(const char *search);
int ftrace_prefilter_misses(const char *word, unsigned int *matches);
int ftrace_match_to_hash(struct ftrace_hash *hash, const char *func,
			 const char *mod, bool remove);
bool ftrace_module_known(const char *name);
int ftrace_apply_text(struct ftrace_hash *hash, char *buf, int len,
		      struct trace_array *tr, struct list_head *mods,
		      bool enable);

/* ftrace_probe.c */
int ftrace_run_command(struct trace_array *tr, struct ftrace_hash *hash,
		       char *func, char *cmd, char *params, bool enable);
void ftrace_probes_show(struct seq_file *m, struct trace_array *tr);
bool ftrace_ops_is_probe(struct ftrace_ops *ops);
void ftrace_probes_drop_range(unsigned long start, unsigned long end);
int ftrace_mod_word(struct list_head *mods, struct ftrace_hash *hash,
		    const char *func, const char *module, bool enable);
int ftrace_mods_copy(struct list_head *dst, struct trace_array *tr,
		     bool enable);
void ftrace_mods_free(struct list_head *mods);
void ftrace_mods_resolve(struct list_head *mods, struct ftrace_hash *hash);
int ftrace_mods_publish(struct trace_array *tr, struct ftrace_ops *ops,
			struct list_head *mods, struct ftrace_hash *hash,
			bool enable);
void ftrace_mod_show(struct seq_file *m, struct trace_array *tr, bool enable);
void ftrace_mod_loaded(struct module *mod);

#endif /* CONFIG_DYNAMIC_FTRACE */

/* ftrace_pid.c */
void ftrace_pid_ops_update(struct ftrace_ops *ops);

/* ftrace_fs.c */
#ifdef CONFIG_DYNAMIC_FTRACE
void ftrace_dyn_tracefs(struct dentry *d_tracer);
#else
static inline void ftrace_dyn_tracefs(struct dentry *d_tracer)
{
}
#endif

/* ftrace_profile.c */
#ifdef CONFIG_FUNCTION_PROFILER
void ftrace_profile_tracefs(struct dentry *d_tracer);
#else
static inline void ftrace_profile_tracefs(struct dentry *d_tracer)
{
}
#endif

#define FTRACE_TRAMPOLINE_MOD	"__builtin__ftrace"
#define FTRACE_TRAMPOLINE_SYM	"ftrace_trampoline"

#endif /* _KERNEL_TRACE_FTRACE_CORE_H */
