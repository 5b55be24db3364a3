/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal interface between the files of the dynamic ftrace core.
 *
 * The files are layers, the top one first; a file calls only files below
 * it (harness/layers.py checks this table against the built objects):
 *
 *   ftrace_kunit.c    KUnit suites of the layers below
 *   ftrace_kbase61.c  the calls whose form is the base's own: one of the
 *   ftrace_kbase612.c two is built (6.12's manages sub-ops)
 *   ftrace_init.c     boot and module life cycle: records made and dropped,
 *                     the top-level tracefs files
 *   ftrace_fs.c       tracefs files of the core
 *   ftrace_profile.c  the function profiler
 *   ftrace_pid.c      set_ftrace_pid / set_ftrace_notrace_pid
 *   ftrace_direct.c   direct calls
 *   ftrace_filter.c   the filter API and word syntax, boot filters
 *   ftrace_mod.c      :mod: words waiting for their module
 *   ftrace_probe.c    function probes, filter commands
 *   ftrace_register.c registering and unregistering ops (calling the
 *                     trampoline steps), IP movers sharing functions
 *                     with direct ops
 *   ftrace_update.c   the update engine: runs a plan, converts fresh
 *                     blocks, publishes an ops' new hash
 *   ftrace_subops.c   6.12 only: a manager ops' hashes from its sub-ops'
 *   ftrace_batch.c    planned sites to the back end in batches, the
 *                     failure report
 *   ftrace_plan.c     the planner: what each site must call; trampoline
 *                     slots, direct-call targets
 *   ftrace_tramp.c    the allocated trampolines: the core's side of their
 *                     life, their list, addresses and kallsyms names
 *   ftrace_compat.c   <linux/ftrace_arch.h> on the 6.1 arch interface
 *   ftrace_nodyn.c    without dynamic ftrace: the update, no trampolines
 *   ftrace_ops.c      the ops list, the list function, pid-aware calls
 *   ftrace_match.c    names and globs to records
 *   ftrace_hash.c     ip sets (filter/notrace hashes) and the ip->data mapper
 *   ftrace_records.c  call-site records
 *   ftrace_base.c     ftrace_lock and ftrace_dead, in every configuration
 *
 * Where a lower layer needs something of a higher one, the higher one
 * passes it down (an ops' callback, the batcher's patch function).
 *
 * Locks, in the order they are taken:
 *
 *   write_lock (ftrace_fs.c)       one writer at a time of an open filter
 *                                  file, its word's command included
 *   command_lock (ftrace_probe.c)  keeps a filter command while it runs
 *   event_mutex (trace_events.c)   taken by event commands and rmdir
 *   ftrace_direct_mutex            direct-call targets, and IP movers
 *                                  sharing functions with them
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
#include <linux/ftrace_kbase.h>
#include <linux/rcupdate.h>
#include <linux/module.h>
#include <linux/sysctl.h>

#include "trace.h"
#include "ftrace_internal.h"

struct ftrace_ops_hash;
struct fgraph_ops;

/*
 * What differs between the two kernels the core builds into
 * (<linux/ftrace_kbase.h>).  The exported calls whose signatures differ
 * are in ftrace_kbase61.c and ftrace_kbase612.c, one of which is built.
 */
#ifdef FTRACE_KBASE_612
/* Sysctl handlers take a const table; tables end without a sentinel. */
# define ftrace_ctl_const	const
# define ftrace_register_sysctl(path, table, n) \
	register_sysctl_sz(path, table, (n) - 1)
/* Graph callbacks are told which fgraph_ops they serve. */
# define ftrace_graph_entry_cb(name) \
	int name(struct ftrace_graph_ent *trace, struct fgraph_ops *gops)
# define ftrace_graph_return_cb(name) \
	void name(struct ftrace_graph_ret *trace, struct fgraph_ops *gops)

/* fgraph.c tests each user's filter itself: nothing to tell it. */
static inline void update_function_graph_func(void) { }

/* An ops may manage sub-ops (ftrace_subops.c). */
static inline void ftrace_ops_init_kbase(struct ftrace_ops *ops)
{
#ifdef CONFIG_DYNAMIC_FTRACE
	INIT_LIST_HEAD(&ops->subop_list);
#endif
}

/* The profiler follows set_ftrace_filter (6.1's traced every function). */
# define ftrace_prof_global_kbase(ops)	ftrace_ops_set_global_filter(ops)
# define ftrace_prof_graph_global_kbase(gops) \
	ftrace_ops_set_global_filter(&(gops)->ops)

/* ftrace_subops.c */
int ftrace_subops_hash_changed(struct ftrace_ops_hash *hashes);
int ftrace_subops_manage(struct ftrace_ops *mgr, bool add);
int ftrace_subops_build(struct ftrace_ops *mgr, struct ftrace_hash **filter,
			struct ftrace_hash **notr);
void ftrace_subops_swap(struct ftrace_ops *mgr, struct ftrace_hash **filter,
			struct ftrace_hash **notr);

/* fgraph.c re-aims its users when a PID filter changes. */
static inline void ftrace_pids_changed_kbase(void)
{
	fgraph_update_pid_func();
}

/* The top-level trace array's function_graph user shares its hashes. */
static __always_inline void ftrace_global_array_kbase(struct trace_array *tr)
{
	init_array_fgraph_ops(tr, tr->ops);
}
#else
# define ftrace_ctl_const
# define ftrace_graph_entry_cb(name) int name(struct ftrace_graph_ent *trace)
# define ftrace_graph_return_cb(name) void name(struct ftrace_graph_ret *trace)

/* 6.1's tables end with an empty entry, so the count is not passed on. */
static inline struct ctl_table_header *
ftrace_register_sysctl(const char *path, struct ctl_table *table, size_t n)
{
	return register_sysctl(path, table);
}

static inline void ftrace_ops_init_kbase(struct ftrace_ops *ops) { }

static inline void ftrace_prof_global_kbase(struct ftrace_ops *ops) { }
static inline void ftrace_prof_graph_global_kbase(struct fgraph_ops *gops) { }

/* No sub-ops on 6.1. */
static inline int ftrace_subops_hash_changed(struct ftrace_ops_hash *hashes)
{
	return 0;
}

static inline void ftrace_pids_changed_kbase(void) { }
static inline void ftrace_global_array_kbase(struct trace_array *tr) { }
#endif

#ifdef CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS
/* A direct target for the caller to continue into: 6.12 takes fregs. */
static __always_inline void ftrace_direct_caller_set(struct ftrace_regs *fregs,
						     struct pt_regs *regs,
						     unsigned long addr)
{
#ifdef FTRACE_KBASE_612
	arch_ftrace_set_direct_caller(fregs, addr);
#else
	arch_ftrace_set_direct_caller(regs, addr);
#endif
}
#endif

/* ftrace_direct.c: direct calls per ops, exported by ftrace_kbase*.c. */
int ftrace_direct_ops_register(struct ftrace_ops *ops, unsigned long addr);
int ftrace_direct_ops_unregister(struct ftrace_ops *ops);
int ftrace_direct_ops_modify_nolock(struct ftrace_ops *ops, unsigned long addr);
int ftrace_direct_ops_modify(struct ftrace_ops *ops, unsigned long addr);

/* A module's text, and its init text (0, 0 once freed). */
static inline void ftrace_module_text(struct module *mod, unsigned long *lo,
				      unsigned long *hi, unsigned long *init_lo,
				      unsigned long *init_hi)
{
#if !defined(CONFIG_MODULES)
	*lo = *hi = *init_lo = *init_hi = 0;
#elif defined(FTRACE_KBASE_612)
	*lo = (unsigned long)mod->mem[MOD_TEXT].base;
	*hi = *lo + mod->mem[MOD_TEXT].size;
	*init_lo = (unsigned long)mod->mem[MOD_INIT_TEXT].base;
	*init_hi = *init_lo ? *init_lo + mod->mem[MOD_INIT_TEXT].size : 0;
#else
	*lo = (unsigned long)mod->core_layout.base;
	*hi = *lo + mod->core_layout.size;
	*init_lo = (unsigned long)mod->init_layout.base;
	*init_hi = *init_lo ? *init_lo + mod->init_layout.size : 0;
#endif
}

#ifndef CONFIG_DYNAMIC_FTRACE
/* <linux/ftrace.h> declares it only with dynamic ftrace. */
extern ftrace_func_t ftrace_trace_function;
/* No code to patch: the command registration passes means nothing. */
#define FTRACE_UPDATE_CALLS	0
/* No dyn_ftrace_total_info to report it in. */
static inline void ftrace_note_register_time(u64 ns) { }
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
void ftrace_pid_ops_update(struct ftrace_ops *ops);
void ftrace_ops_init_hashes(struct ftrace_ops *ops,
			    struct ftrace_ops_hash *hashes);
bool ftrace_ops_wants(struct ftrace_ops *ops, unsigned long ip);
bool ftrace_ops_wants_all(struct ftrace_ops *ops);
/* With dynamic ftrace only (callers test IS_ENABLED()). */
bool ftrace_ops_filter_empty(struct ftrace_ops *ops);
/* Is @ops active (registered, and ftrace_enabled is @enabled or it is permanent)? */
static inline bool ftrace_ops_active_in(struct ftrace_ops *ops, bool enabled)
{
	return (ops->flags & FTRACE_OPS_FL_ENABLED) &&
	       (enabled || (ops->flags & FTRACE_OPS_FL_PERMANENT));
}

void ftrace_update_func(void);
struct ftrace_ops *ftrace_wanted_op(void);
ftrace_func_t ftrace_wanted_func(void);
/* In ftrace_update.c; without dynamic ftrace, in ftrace_nodyn.c. */
int ftrace_run_update(int command);
/* ftrace_register.c */
int ftrace_shutdown_batch(struct ftrace_ops **ops, unsigned int n, int command);
int ftrace_shutdown_text_gone(struct ftrace_ops *ops);
/*
 * An unregistration in two halves, the waits between them unlocked: of
 * one ops (ftrace_unregister_begin() and _end(), which take ftrace_lock)
 * or of several (ftrace_leave_begin(), _wait() and _end(), for callers
 * that hold ftrace_lock around the halves and drop it for the wait).
 * ->ops may point at ->one: the struct stays in place until the end.
 */
struct ftrace_leaving {
	struct ftrace_ops **ops;	/* reordered: the unlinked ones first */
	struct ftrace_ops *one;		/* ->ops of ftrace_unregister_begin() */
	unsigned int unlinked;	/* how many the first half took off the list */
	bool tasks;	/* the wait includes one for preempted tasks */
};

int ftrace_unregister_begin(struct ftrace_leaving *l, struct ftrace_ops *ops);
void ftrace_unregister_end(struct ftrace_leaving *l);
int ftrace_leave_begin(struct ftrace_leaving *l, struct ftrace_ops **ops,
		       unsigned int n);
void ftrace_leave_wait(struct ftrace_leaving *l);
void ftrace_leave_end(struct ftrace_leaving *l);
void ftrace_ops_quiesce(struct ftrace_ops *ops);
void ftrace_tasks_quiesce(void);
/*
 * The core's side of a trampoline's life (ftrace_tramp.c; without dynamic
 * ftrace, ftrace_nodyn.c, where they do nothing).
 */
void ftrace_tramp_prepare(struct ftrace_ops *ops);
int ftrace_tramp_update(struct ftrace_ops *ops);
void ftrace_tramp_refresh(struct ftrace_ops *ops);
void ftrace_tramp_park(struct ftrace_ops *ops);
bool ftrace_tramp_unlist(struct ftrace_ops **ops, unsigned int n, bool bury);
void ftrace_tramp_release(struct ftrace_ops *ops);
/* The ops with a trampoline the back end allocated (ftrace_tramp.c). */
extern struct list_head ftrace_tramp_list;

/* Does @ops make the sites it alone wants call their direct targets? */
static inline bool ftrace_ops_is_direct(struct ftrace_ops *ops)
{
	return IS_ENABLED(CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS) &&
	       (ops->flags & FTRACE_OPS_FL_DIRECT);
}

/* ftrace_register.c: the lock of IP movers and direct ops sharing functions. */
#ifdef CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS
extern struct mutex ftrace_direct_mutex;
struct ftrace_ops *ftrace_ops_on(unsigned long ip, unsigned long flags);
#endif

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

/* ftrace_tramp.c: behind ftrace_mod_address_lookup() (ftrace_kbase*.c). */
const char *ftrace_name_lookup(unsigned long addr, unsigned long *size,
			       unsigned long *off, char **modname,
			       const unsigned char **modbuildid, char *sym);
/* ftrace_records.c */
const char *ftrace_init_name_lookup(unsigned long addr, unsigned long *size,
				    unsigned long *off, char **modname,
				    char *sym);
int ftrace_init_name_symbol(unsigned int symnum, unsigned long *value,
			    char *name, char *module_name);
struct ftrace_rec *ftrace_find_rec(unsigned long ip, struct ftrace_block **bp);
/*
 * Naming a module's records in address order: the module's symbols
 * sorted once (ftrace_mod_walk_name()).  Zeroed before first use.
 */
struct mod_kallsyms;
struct ftrace_mod_walk {
	struct module *mod;
	const struct mod_kallsyms *ks;	/* the table sorted */
	unsigned long gen;		/* ftrace_mod_gen then */
	struct ftrace_mod_sym *syms;	/* by address, one per address */
	unsigned int count;
	unsigned int pos;		/* the last symbol named */
};

const char *ftrace_mod_walk_name(struct ftrace_mod_walk *w,
				 struct module *mod, unsigned long ip,
				 char *buf);
void ftrace_mod_walk_free(struct ftrace_mod_walk *w);
/* For the KUnit suites: */
struct ftrace_rec *ftrace_block_find(struct ftrace_block *b, unsigned long ip);
struct ftrace_block *ftrace_blocks_build(struct module *mod,
					 unsigned long *start,
					 unsigned long *end);
/* For the KUnit suites: */
void ftrace_blocks_free(struct ftrace_block *chain);
void ftrace_blocks_publish(struct ftrace_block *chain);
void ftrace_records_remove(struct module *mod, unsigned long start,
			   unsigned long end);
void ftrace_init_names_save(struct module *mod, unsigned long start,
			    unsigned long end);
void ftrace_init_names_drop(struct module *mod);
unsigned long ftrace_record_bytes_x100(void);
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
void ftrace_hash_keep(struct ftrace_hash *hash, struct ftrace_hash *other,
		      bool in_other);
int ftrace_hash_add_all(struct ftrace_hash *dst, struct ftrace_hash *src);
struct ftrace_hash *ftrace_hash_resized(struct ftrace_hash *src);
struct ftrace_hash *ftrace_hash_take_resized(struct ftrace_hash *src);
/* For the KUnit suites: */
bool ftrace_hash_equal(struct ftrace_hash *a, struct ftrace_hash *b);
void ftrace_hash_drop_range(struct ftrace_hash *hash, unsigned long start,
			    unsigned long end);
extern struct ftrace_hash ftrace_empty_hash;

#define for_each_hash_entry(hash, i, e) \
	for (i = 0; i < (1UL << (hash)->size_bits); i++) \
		hlist_for_each_entry(e, &(hash)->buckets[i], hlist)

/* ftrace_update.c */

/* In ftrace_records.c: what making records NOPs took (boot, modules). */
extern u64 ftrace_update_time;
extern u64 ftrace_total_mod_time;
void ftrace_enable_new_records(struct ftrace_block *b);
void ftrace_convert_block(struct ftrace_block *b);
void ftrace_note_register_time(u64 ns);
int ftrace_ops_set_hash(struct ftrace_ops *ops, bool nt,
			struct ftrace_hash *hash);
int ftrace_ops_take_hash(struct ftrace_ops *ops, bool nt,
			 struct ftrace_hash *hash);

/* ftrace_plan.c */
unsigned long ftrace_site_target(unsigned long ip);
#ifdef CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS
extern struct ftrace_hash __rcu *ftrace_direct_hash;
#endif

/*
 * The set_graph_function hashes (ftrace_filter.c).  trace.h declares them only
 * with the graph tracer; the core keeps them (empty) without it too.
 */
extern struct ftrace_hash __rcu *ftrace_graph_hash;
extern struct ftrace_hash __rcu *ftrace_graph_notrace_hash;

/* ftrace_filter.c */
void ftrace_apply_boot_filters(void);
void ftrace_ops_drop_range(unsigned long start, unsigned long end);

/* ftrace_match.c */
struct ftrace_glob {
	char *search;
	unsigned int len;
	int type;
};

int ftrace_glob_parse(char *str, int len, struct ftrace_glob *g, bool *neg);
void ftrace_mod_glob_parse(char *w, struct ftrace_glob *g, bool *neg);
char *arch_ftrace_match_adjust(char *str, const char *search);
bool ftrace_glob_match(const char *name, const struct ftrace_glob *g);
unsigned long ftrace_word_address(const char *search);
/* For the KUnit suites: */
int ftrace_prefilter_misses(const char *word, unsigned int *matches);
int ftrace_match_to_hash(struct ftrace_hash *hash, const char *func,
			 const char *mod, bool remove);
bool ftrace_module_known(const char *name);
/* A command word, "func:command[:params]", split by ftrace_apply_text(). */
struct ftrace_command_word {
	char *func;
	char *cmd;		/* NULL: no command was left */
	char *params;		/* NULL if the word has none */
};

int ftrace_apply_text(struct ftrace_hash *hash, char *buf, int len,
		      struct ftrace_command_word *cw, struct list_head *mods,
		      bool enable);

/* ftrace_probe.c */
bool ftrace_command_known(const char *name, size_t len);
int ftrace_run_command(struct trace_array *tr, struct ftrace_hash *hash,
		       char *func, char *cmd, char *params, bool enable);
void ftrace_probes_show(struct seq_file *m, struct trace_array *tr);
bool ftrace_ops_is_probe(struct ftrace_ops *ops);
void ftrace_probes_drop_range(unsigned long start, unsigned long end);
void ftrace_tr_probes_drop_range(struct trace_array *tr, unsigned long start,
				 unsigned long end);

/* ftrace_mod.c */
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

/* Is a PID list of @tr set (ftrace_pid.c)? */
static inline bool ftrace_pids_set(struct trace_array *tr)
{
	return rcu_access_pointer(tr->function_pids) ||
	       rcu_access_pointer(tr->function_no_pids);
}

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
