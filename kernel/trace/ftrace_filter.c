// SPDX-License-Identifier: GPL-2.0
/*
 * Setting filters: the in-kernel API (ftrace_set_filter() and friends),
 * the word syntax shared with the tracefs files, the filters of the boot
 * command line (applied by ftrace_init(), ftrace_init.c), and the graph
 * filter hashes.
 *
 * A word is "func", "!func", "func:mod:module" or "func:command[:params]".
 * Every change is made on a copy of the hash and published only when the
 * whole text was accepted.
 */
#include <linux/init.h>
#include <linux/slab.h>

#include "ftrace_core.h"

/**
 * ftrace_apply_text - apply one filter word to a private hash
 * @hash: the hash being edited
 * @buf: the word, modified in place
 * @len: its length
 * @cw: where a command word is left, split, for the caller to run with
 *	ftrace_run_command() once it has dropped ftrace_lock; NULL if
 *	commands are not allowed
 * @mods: the list of ":mod:" words waiting for their module that goes
 *	  with @hash, NULL if words cannot wait
 * @enable: true for a filter hash, false for a notrace hash
 *
 * Called with ftrace_lock held.
 *
 * Return: 0 (with @cw->cmd set for a command word), -EINVAL if the word
 * selects nothing or is a command where none is allowed, or another
 * negative error.
 */
int ftrace_apply_text(struct ftrace_hash *hash, char *buf, int len,
		      struct ftrace_command_word *cw, struct list_head *mods,
		      bool enable)
{
	char *func, *cmd, *next = buf;
	int ret;

	buf[len] = 0;
	func = strsep(&next, ":");
	if (!next) {
		ret = ftrace_match_to_hash(hash, func, NULL, false);
		return ret > 0 ? 0 : ret ?: -EINVAL;
	}
	cmd = strsep(&next, ":");
	if (!strcmp(cmd, "mod"))
		return next ? ftrace_mod_word(mods, hash, func, next, enable) :
			      -EINVAL;
	if (!cw)
		return -EINVAL;
	cw->func = func;
	cw->cmd = cmd;
	cw->params = next;
	return 0;
}

/* set_text() under the ops' regex_lock and ftrace_lock; @text is modified. */
static int set_text_locked(struct ftrace_ops *ops, char *text, bool reset,
			   bool nt)
{
	struct ftrace_hash *hash;
	char *word, *rest;
	int ret = 0;

	guard(mutex)(&ops->func_hash->regex_lock);
	guard(mutex)(&ftrace_lock);
	hash = ftrace_hash_copy(reset ? NULL : ftrace_ops_hash_locked(ops, nt));
	if (!hash)
		return -ENOMEM;
	for (rest = text; rest && !ret; ) {
		word = strsep(&rest, " \t\n");
		if (*word)
			ret = ftrace_apply_text(hash, word, strlen(word), NULL,
						NULL, !nt);
	}
	if (!ret)
		ret = ftrace_ops_take_hash(ops, nt, hash);
	ftrace_hash_free(hash);
	return ret;
}

/* Apply a whole buffer of words to @ops' filter or notrace hash. */
static int set_text(struct ftrace_ops *ops, unsigned char *buf, int len,
		    bool reset, bool nt)
{
	char *text;
	int ret;

	ftrace_ops_init(ops);
	text = buf ? kstrndup(buf, len, GFP_KERNEL) : NULL;
	if (buf && !text)
		return -ENOMEM;
	ret = set_text_locked(ops, text, reset, nt);
	kfree(text);
	return ret;
}

/**
 * ftrace_set_filter - trace only the functions @buf names
 * @ops: the ops
 * @buf: names and globs separated by white space ("!name" removes)
 * @len: length of @buf
 * @reset: start from an empty filter instead of the current one
 *
 * Return: 0, -EINVAL if a word selects nothing (nothing changes), or
 * another negative error.
 */
int ftrace_set_filter(struct ftrace_ops *ops, unsigned char *buf, int len,
		      int reset)
{
	return set_text(ops, buf, len, reset, false);
}
EXPORT_SYMBOL_GPL(ftrace_set_filter);

/**
 * ftrace_set_notrace - never trace the functions @buf names
 * @ops: the ops
 * @buf: names and globs separated by white space
 * @len: length of @buf
 * @reset: start from an empty notrace hash
 *
 * Return: as ftrace_set_filter().
 */
int ftrace_set_notrace(struct ftrace_ops *ops, unsigned char *buf, int len,
		       int reset)
{
	return set_text(ops, buf, len, reset, true);
}
EXPORT_SYMBOL_GPL(ftrace_set_notrace);

/**
 * ftrace_set_filter_ips - add or remove call sites by address
 * @ops: the ops
 * @ips: call-site (or function start) addresses
 * @cnt: number of addresses
 * @remove: remove them instead of adding them
 * @reset: start from an empty filter
 *
 * Return: 0, -EINVAL if an address is not a call site, -ENOENT if one to
 * remove is not in the filter (nothing changes on either), or another
 * negative error.  BPF's kprobe_multi links pass these codes to user space.
 */
int ftrace_set_filter_ips(struct ftrace_ops *ops, unsigned long *ips,
			  unsigned int cnt, int remove, int reset)
{
	struct ftrace_func_entry *e;
	struct ftrace_hash *hash;
	unsigned long ip;
	unsigned int i;
	int ret = 0;

	ftrace_ops_init(ops);
	guard(mutex)(&ops->func_hash->regex_lock);
	guard(mutex)(&ftrace_lock);
	hash = ftrace_hash_copy(reset ? NULL :
				ftrace_ops_hash_locked(ops, false));
	if (!hash)
		return -ENOMEM;
	for (i = 0; i < cnt && !ret; i++) {
		ip = ftrace_location(ips[i]);
		if (!ip) {
			ret = -EINVAL;
		} else if (remove) {
			e = ftrace_lookup_ip(hash, ip);
			if (e)
				ftrace_hash_del(hash, e);
			else
				ret = -ENOENT;
		} else {
			ret = ftrace_hash_add(hash, ip);
		}
	}
	if (!ret)
		ret = ftrace_ops_take_hash(ops, false, hash);
	ftrace_hash_free(hash);
	return ret;
}
EXPORT_SYMBOL_GPL(ftrace_set_filter_ips);

/**
 * ftrace_set_filter_ip - add or remove one call site by address
 * @ops: the ops
 * @ip: call-site (or function start) address
 * @remove: remove it instead of adding it
 * @reset: start from an empty filter
 *
 * Return: as ftrace_set_filter_ips().
 */
int ftrace_set_filter_ip(struct ftrace_ops *ops, unsigned long ip, int remove,
			 int reset)
{
	return ftrace_set_filter_ips(ops, &ip, 1, remove, reset);
}
EXPORT_SYMBOL_GPL(ftrace_set_filter_ip);

/**
 * ftrace_set_global_filter - set the filter of the global function tracer
 * @buf: names and globs
 * @len: length of @buf
 * @reset: start from an empty filter
 */
void ftrace_set_global_filter(unsigned char *buf, int len, int reset)
{
	set_text(&global_ops, buf, len, reset, false);
}
EXPORT_SYMBOL_GPL(ftrace_set_global_filter);

/**
 * ftrace_set_global_notrace - set the notrace hash of the global tracer
 * @buf: names and globs
 * @len: length of @buf
 * @reset: start from an empty hash
 */
void ftrace_set_global_notrace(unsigned char *buf, int len, int reset)
{
	set_text(&global_ops, buf, len, reset, true);
}
EXPORT_SYMBOL_GPL(ftrace_set_global_notrace);

/**
 * ftrace_ops_set_global_filter - make @ops share the global filter
 * @ops: an ops never used before (afterwards its hashes stay its own)
 */
void ftrace_ops_set_global_filter(struct ftrace_ops *ops)
{
	ftrace_ops_init_hashes(ops, &global_ops.local_hash);
}
EXPORT_SYMBOL_GPL(ftrace_ops_set_global_filter);

/**
 * ftrace_free_filter - free the hashes of an unregistered ops
 * @ops: the ops; must not be registered
 */
void ftrace_free_filter(struct ftrace_ops *ops)
{
	struct ftrace_hash *f, *n;

	ftrace_ops_init(ops);
	if (WARN_ON(ops->flags & FTRACE_OPS_FL_ENABLED))
		return;
	scoped_guard(mutex, &ftrace_lock) {
		f = rcu_dereference_protected(ops->func_hash->filter_hash, true);
		n = rcu_dereference_protected(ops->func_hash->notrace_hash, true);
		RCU_INIT_POINTER(ops->func_hash->filter_hash, &ftrace_empty_hash);
		RCU_INIT_POINTER(ops->func_hash->notrace_hash, &ftrace_empty_hash);
	}
	ftrace_hash_free(f);
	ftrace_hash_free(n);
}
EXPORT_SYMBOL_GPL(ftrace_free_filter);

/* The set_graph_function and set_graph_notrace hashes. */
struct ftrace_hash __rcu *ftrace_graph_hash = RCU_INITIALIZER(&ftrace_empty_hash);
struct ftrace_hash __rcu *ftrace_graph_notrace_hash =
	RCU_INITIALIZER(&ftrace_empty_hash);

/* Boot command line: ftrace_filter=, ftrace_notrace=, graph filters. */
#define BOOT_BUF_SIZE 1024
static char boot_filter[BOOT_BUF_SIZE] __initdata;
static char boot_notrace[BOOT_BUF_SIZE] __initdata;
static char boot_graph[BOOT_BUF_SIZE] __initdata;
static char boot_graph_notrace[BOOT_BUF_SIZE] __initdata;
bool ftrace_filter_param __initdata;

static int __init save_param(char *dst, char *str)
{
	strscpy(dst, str, BOOT_BUF_SIZE);
	ftrace_filter_param = true;
	return 1;
}

static int __init set_boot_filter(char *s) { return save_param(boot_filter, s); }
static int __init set_boot_notrace(char *s) { return save_param(boot_notrace, s); }
static int __init set_boot_graph(char *s) { return save_param(boot_graph, s); }
static int __init set_boot_graph_nt(char *s) { return save_param(boot_graph_notrace, s); }
__setup("ftrace_filter=", set_boot_filter);
__setup("ftrace_notrace=", set_boot_notrace);
__setup("ftrace_graph_filter=", set_boot_graph);
__setup("ftrace_graph_notrace=", set_boot_graph_nt);

/**
 * ftrace_set_early_filter - apply a comma-separated boot-time filter
 * @ops: the ops
 * @buf: "name,name,..." (modified)
 * @enable: 1 for the filter hash, 0 for the notrace hash
 *
 * Each word is applied on its own: a word that selects nothing is
 * reported and skipped, the others still apply.
 */
void __init ftrace_set_early_filter(struct ftrace_ops *ops, char *buf,
				    int enable)
{
	char *word;
	int ret;

	while ((word = strsep(&buf, ",")) != NULL) {
		if (!*word)
			continue;
		ret = set_text(ops, (unsigned char *)word, strlen(word), false,
			       !enable);
		if (ret)
			pr_warn("ftrace: boot %s word '%s' ignored: %d\n",
				enable ? "filter" : "notrace", word, ret);
	}
}

static void __init set_graph_early(char *buf, struct ftrace_hash __rcu **slot)
{
	struct ftrace_hash *hash = ftrace_hash_copy(NULL);
	char *word;

	if (!hash)
		return;
	scoped_guard(mutex, &ftrace_lock) {
		while ((word = strsep(&buf, ",")) != NULL)
			if (*word)
				ftrace_match_to_hash(hash, word, NULL, false);
		rcu_assign_pointer(*slot,
				   ftrace_hash_resized(hash) ?: &ftrace_empty_hash);
	}
	ftrace_hash_free(hash);
}

/* The filters of the boot command line, once the records exist. */
void __init ftrace_apply_boot_filters(void)
{
	if (boot_filter[0])
		ftrace_set_early_filter(&global_ops, boot_filter, 1);
	if (boot_notrace[0])
		ftrace_set_early_filter(&global_ops, boot_notrace, 0);
	if (boot_graph[0])
		set_graph_early(boot_graph, &ftrace_graph_hash);
	if (boot_graph_notrace[0])
		set_graph_early(boot_graph_notrace, &ftrace_graph_notrace_hash);
}

static void drop_ops_range(struct ftrace_ops *ops, unsigned long start,
			   unsigned long end)
{
	if (!ops || !ops->func_hash)
		return;
	ftrace_hash_drop_range(ftrace_ops_hash_locked(ops, false), start, end);
	ftrace_hash_drop_range(ftrace_ops_hash_locked(ops, true), start, end);
}

/*
 * Text [start, end) is going away: no ops hash may keep its addresses.
 * Function probes are the exception: their callbacks free per-function
 * data by address, so the probe layer moves those entries aside itself
 * (ftrace_probes_drop_range()).
 */
void ftrace_ops_drop_range(unsigned long start, unsigned long end)
{
	struct trace_array *tr;
	struct ftrace_ops *op;

	lockdep_assert_held(&ftrace_lock);
	ftrace_probes_drop_range(start, end);
	for_each_ftrace_ops(op)
		if (!ftrace_ops_is_probe(op))
			drop_ops_range(op, start, end);
	lockdep_assert_held(&trace_types_lock);
	list_for_each_entry(tr, &ftrace_trace_arrays, list)
		drop_ops_range(tr->ops, start, end);
	drop_ops_range(&global_ops, start, end);
	ftrace_hash_drop_range(rcu_dereference_raw(ftrace_graph_hash), start, end);
	ftrace_hash_drop_range(rcu_dereference_raw(ftrace_graph_notrace_hash),
			       start, end);
}
