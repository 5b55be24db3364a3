// SPDX-License-Identifier: GPL-2.0
/*
 * Filter commands, function probes and module filters.
 *
 * Commands ("func:traceoff:5", "func:enable_event:sched:sched_switch")
 * are registered by tracers; the core only finds the command by name and
 * passes the word on.  Most commands attach a function probe: a callback
 * run on entry of the selected functions, with per-function data.
 *
 * A probe is one ftrace_ops per (trace array, probe_ops) pair whose filter
 * hash holds the probed functions; it is registered while that hash is not
 * empty (an empty filter would mean "every function").
 *
 * "func:mod:module" for a module that is not loaded is remembered in the
 * trace array (mod_trace / mod_notrace) and applied when the module loads;
 * until then the filter hash carries FTRACE_HASH_FL_MOD, which keeps it
 * non-empty so that it does not trace everything.
 */
#include <linux/kallsyms.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "ftrace_core.h"

static LIST_HEAD(ftrace_commands);

static struct ftrace_func_command *command_named(const char *name)
{
	struct ftrace_func_command *c;

	lockdep_assert_held(&ftrace_lock);
	list_for_each_entry(c, &ftrace_commands, list)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

/**
 * register_ftrace_command - make a filter command available
 * @cmd: the command; its name must be unique
 *
 * Return: 0, or -EBUSY if a command of that name exists.
 */
int register_ftrace_command(struct ftrace_func_command *cmd)
{
	guard(mutex)(&ftrace_lock);
	if (command_named(cmd->name))
		return -EBUSY;
	list_add(&cmd->list, &ftrace_commands);
	return 0;
}

/**
 * unregister_ftrace_command - withdraw a filter command
 * @cmd: a registered command
 *
 * Return: 0, or -ENODEV if @cmd was not registered.
 */
int unregister_ftrace_command(struct ftrace_func_command *cmd)
{
	guard(mutex)(&ftrace_lock);
	if (command_named(cmd->name) != cmd)
		return -ENODEV;
	list_del_init(&cmd->list);
	return 0;
}

/*
 * Run the command @cmd on the word's function part.  Commands call back
 * into the probe API, which takes ftrace_lock: the caller's lock is
 * dropped around the call.
 */
int ftrace_run_command(struct trace_array *tr, struct ftrace_hash *hash,
		       char *func, char *cmd, char *params, bool enable)
{
	struct ftrace_func_command *c = command_named(cmd);
	int ret;

	if (!c)
		return -EINVAL;
	mutex_unlock(&ftrace_lock);
	ret = c->func(tr, hash, func, cmd, params, enable);
	mutex_lock(&ftrace_lock);
	return ret;
}

/* One probe: the callbacks of one probe_ops in one trace array. */
struct probe_set {
	struct ftrace_ops ops;		/* its filter hash: the probed functions */
	struct ftrace_probe_ops *cbs;
	struct trace_array *tr;
	void *data;			/* shared by all its functions */
	struct list_head node;		/* in tr->func_probes */
};

static void probe_call(unsigned long ip, unsigned long parent_ip,
		       struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct probe_set *p = container_of(op, struct probe_set,
						   ops);

	p->cbs->func(ip, parent_ip, p->tr, p->cbs, p->data);
}

static struct ftrace_hash *probe_hash(struct probe_set *p)
{
	return rcu_dereference_protected(p->ops.func_hash->filter_hash,
					 lockdep_is_held(&ftrace_lock));
}

static struct probe_set *probe_find(struct trace_array *tr,
					    struct ftrace_probe_ops *probe_ops,
					    bool create)
{
	struct probe_set *p;

	list_for_each_entry(p, &tr->func_probes, node)
		if (p->cbs == probe_ops)
			return p;
	if (!create)
		return NULL;
	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return NULL;
	p->cbs = probe_ops;
	p->tr = tr;
	p->ops.func = probe_call;
	p->ops.flags = FTRACE_OPS_FL_RECURSION;
	ftrace_ops_init(&p->ops);
	list_add(&p->node, &tr->func_probes);
	return p;
}

/* Drop a probe whose hash became empty: unregister, free its data. */
static void probe_release(struct probe_set *p)
{
	if (p->ops.flags & FTRACE_OPS_FL_ENABLED)
		ftrace_shutdown(&p->ops, 0);
	list_del(&p->node);
	if (p->cbs->free)
		p->cbs->free(p->cbs, p->tr, 0, p->data);
	ftrace_hash_free(probe_hash(p));
	kfree(p);
}

/* Publish @hash as the probe's function set and (un)register to match. */
static int probe_apply(struct probe_set *p, struct ftrace_hash *hash)
{
	int ret;

	if (!hash->count) {
		probe_release(p);
		return 0;
	}
	ret = ftrace_ops_set_hash(&p->ops, false, hash);
	if (!ret && !(p->ops.flags & FTRACE_OPS_FL_ENABLED))
		ret = ftrace_startup(&p->ops, 0);
	return ret;
}

/* Initialise the data of each function in @add not yet in @cur. */
static int probe_init_new(struct probe_set *p, struct ftrace_hash *add,
			  struct ftrace_hash *cur, void *data)
{
	struct ftrace_func_entry *e;
	unsigned long i;
	int ret;

	if (!p->cbs->init)
		return 0;
	for_each_hash_entry(add, i, e) {
		if (ftrace_lookup_ip(cur, e->ip))
			continue;
		ret = p->cbs->init(p->cbs, p->tr, e->ip, data,
					 &p->data);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/**
 * register_ftrace_function_probe - run @probe_ops on the functions @glob selects
 * @glob: a filter word (name, glob, "func:mod:module" is not allowed)
 * @tr: the trace array the probe belongs to
 * @probe_ops: the probe's callbacks
 * @data: passed to @probe_ops->init for each newly probed function
 *
 * Return: the number of functions selected, or a negative error (-EINVAL
 * if @glob selects nothing).
 */
int register_ftrace_function_probe(char *glob, struct trace_array *tr,
				   struct ftrace_probe_ops *probe_ops,
				   void *data)
{
	struct ftrace_hash *add = NULL, *merged = NULL;
	struct ftrace_func_entry *e;
	struct probe_set *p;
	unsigned long i;
	int ret, count;

	if (WARN_ON(!tr) || !glob)
		return -EINVAL;
	mutex_lock(&ftrace_lock);
	p = probe_find(tr, probe_ops, true);
	add = ftrace_hash_copy(NULL);
	merged = p ? ftrace_hash_copy(probe_hash(p)) : NULL;
	ret = -ENOMEM;
	if (!p || !add || !merged)
		goto out;
	count = ftrace_match_to_hash(add, glob, NULL, false);
	ret = count ?: -EINVAL;
	if (count <= 0)
		goto out;
	ret = probe_init_new(p, add, merged, data);
	for_each_hash_entry(add, i, e)
		if (!ret)
			ret = ftrace_hash_add(merged, e->ip);
	if (!ret)
		ret = probe_apply(p, merged);
	if (!ret)
		ret = count;
out:
	if (p && ftrace_hash_empty(probe_hash(p)))
		probe_release(p);
	mutex_unlock(&ftrace_lock);
	ftrace_hash_free(add);
	ftrace_hash_free(merged);
	return ret;
}

/**
 * unregister_ftrace_function_probe_func - stop @probe_ops on some functions
 * @glob: which probed functions (by name or glob); NULL or "*" for all
 * @tr: the trace array
 * @probe_ops: the probe's callbacks
 *
 * The functions leave the probe's hash first; their data is freed only
 * once no CPU can still be running the probe for them.
 *
 * Return: 0, or -EINVAL if no probed function matches @glob.
 */
int unregister_ftrace_function_probe_func(char *glob, struct trace_array *tr,
					  struct ftrace_probe_ops *probe_ops)
{
	struct ftrace_glob g = { .type = MATCH_MIDDLE_ONLY, .search = "" };
	struct ftrace_hash *left = NULL, *gone = NULL;
	char sym[KSYM_SYMBOL_LEN];
	struct ftrace_func_entry *e;
	struct probe_set *p;
	struct hlist_node *tmp;
	int ret = -EINVAL;
	unsigned long i;
	bool neg;

	if (glob && *glob && strcmp(glob, "*"))
		ftrace_glob_parse(glob, strlen(glob), &g, &neg);
	mutex_lock(&ftrace_lock);
	p = probe_find(tr, probe_ops, false);
	if (!p)
		goto out;
	left = ftrace_hash_copy(probe_hash(p));
	gone = ftrace_hash_copy(NULL);
	ret = -ENOMEM;
	if (!left || !gone)
		goto out;
	for (i = 0; i < (1UL << left->size_bits); i++) {
		hlist_for_each_entry_safe(e, tmp, &left->buckets[i], hlist) {
			kallsyms_lookup(e->ip, NULL, NULL, NULL, sym);
			if (!ftrace_glob_match(sym, &g))
				continue;
			ret = ftrace_hash_add(gone, e->ip);
			if (ret)
				goto out;
			ftrace_hash_del(left, e);
		}
	}
	ret = -EINVAL;
	if (!gone->count)
		goto out;
	if (left->count) {
		ret = ftrace_ops_set_hash(&p->ops, false, left);
		ftrace_ops_quiesce(&p->ops);
	} else {
		ret = ftrace_shutdown(&p->ops, 0);
	}
	if (probe_ops->free)
		for_each_hash_entry(gone, i, e)
			probe_ops->free(probe_ops, tr, e->ip, p->data);
	if (!left->count)
		probe_release(p);
out:
	mutex_unlock(&ftrace_lock);
	ftrace_hash_free(left);
	ftrace_hash_free(gone);
	return ret;
}

/**
 * clear_ftrace_function_probes - remove every probe of a trace array
 * @tr: the trace array (being deleted)
 *
 * All probes go with one code update and one grace period.
 */
void clear_ftrace_function_probes(struct trace_array *tr)
{
	struct probe_set *p, *n;
	struct ftrace_ops **ops;
	unsigned int nr = 0;

	mutex_lock(&ftrace_lock);
	list_for_each_entry(p, &tr->func_probes, node)
		nr++;
	ops = nr ? kcalloc(nr, sizeof(*ops), GFP_KERNEL) : NULL;
	if (ops) {
		nr = 0;
		list_for_each_entry(p, &tr->func_probes, node)
			ops[nr++] = &p->ops;
		ftrace_shutdown_batch(ops, nr, 0);
		kfree(ops);
	}
	list_for_each_entry_safe(p, n, &tr->func_probes, node) {
		struct ftrace_func_entry *e;
		unsigned long i;

		if (p->cbs->free && probe_hash(p))
			for_each_hash_entry(probe_hash(p), i, e)
				p->cbs->free(p->cbs, tr, e->ip,
						   p->data);
		probe_release(p);
	}
	mutex_unlock(&ftrace_lock);
}

/* The probe lines of set_ftrace_filter. */
void ftrace_probes_show(struct seq_file *m, struct trace_array *tr)
{
	struct ftrace_func_entry *e;
	struct probe_set *p;
	struct ftrace_probe_ops *po;
	unsigned long i;

	lockdep_assert_held(&ftrace_lock);
	list_for_each_entry(p, &tr->func_probes, node) {
		po = p->cbs;
		for_each_hash_entry(probe_hash(p), i, e) {
			if (po->print)
				po->print(m, e->ip, po, p->data);
			else
				seq_printf(m, "%ps:%ps\n", (void *)e->ip,
					   (void *)po->func);
		}
	}
}

/* Module filters for modules not loaded yet. */

static struct list_head *mod_list(struct trace_array *tr, bool enable)
{
	return enable ? &tr->mod_trace : &tr->mod_notrace;
}

/* Remember "func:mod:module"; the hash then selects nothing until it loads. */
int ftrace_mod_defer(struct trace_array *tr, struct ftrace_hash *hash,
		     const char *func, const char *module, bool enable)
{
	struct ftrace_mod_load *ml;

	lockdep_assert_held(&ftrace_lock);
	if (!tr)
		return -EINVAL;
	ml = kzalloc(sizeof(*ml), GFP_KERNEL);
	if (!ml)
		return -ENOMEM;
	ml->func = kstrdup(func, GFP_KERNEL);
	ml->module = kstrdup(module, GFP_KERNEL);
	if (!ml->func || !ml->module) {
		kfree(ml->func);
		kfree(ml->module);
		kfree(ml);
		return -ENOMEM;
	}
	ml->enable = enable;
	list_add_tail(&ml->list, mod_list(tr, enable));
	hash->flags |= FTRACE_HASH_FL_MOD;
	return 0;
}

static void mod_free(struct ftrace_mod_load *ml)
{
	list_del(&ml->list);
	kfree(ml->func);
	kfree(ml->module);
	kfree(ml);
}

/* Forget the remembered module filters (a ">" open of the file). */
void ftrace_mod_clear(struct trace_array *tr, bool enable)
{
	struct ftrace_mod_load *ml, *n;

	lockdep_assert_held(&ftrace_lock);
	if (!tr)
		return;
	list_for_each_entry_safe(ml, n, mod_list(tr, enable), list)
		mod_free(ml);
}

/* The remembered module filters, for reading the filter files. */
void ftrace_mod_show(struct seq_file *m, struct trace_array *tr, bool enable)
{
	struct ftrace_mod_load *ml;

	if (!tr)
		return;
	list_for_each_entry(ml, mod_list(tr, enable), list)
		seq_printf(m, "%s:mod:%s\n", ml->func, ml->module);
}

/* Apply @tr's remembered filters for module @name to its ops. */
static void mod_apply(struct trace_array *tr, const char *name, bool enable)
{
	struct ftrace_mod_load *ml, *n;
	struct ftrace_hash *hash;
	bool hit = false;
	char *func, *mod;

	hash = ftrace_hash_copy(enable ? tr->ops->func_hash->filter_hash :
					 tr->ops->func_hash->notrace_hash);
	if (!hash)
		return;
	list_for_each_entry_safe(ml, n, mod_list(tr, enable), list) {
		if (strcmp(ml->module, name))
			continue;
		func = kstrdup(ml->func, GFP_KERNEL);
		mod = kstrdup(ml->module, GFP_KERNEL);
		if (func && mod)
			ftrace_match_to_hash(hash, func, mod, false);
		kfree(func);
		kfree(mod);
		mod_free(ml);
		hit = true;
	}
	if (list_empty(mod_list(tr, enable)))
		hash->flags &= ~FTRACE_HASH_FL_MOD;
	if (hit)
		ftrace_ops_set_hash(tr->ops, !enable, hash);
	ftrace_hash_free(hash);
}

/* A module is about to run: apply the filters that waited for it. */
void ftrace_mod_loaded(struct module *mod)
{
	struct trace_array *tr;

	lockdep_assert_held(&ftrace_lock);
	list_for_each_entry(tr, &ftrace_trace_arrays, list) {
		if (!tr->ops || !tr->ops->func_hash)
			continue;
		mod_apply(tr, mod->name, true);
		mod_apply(tr, mod->name, false);
	}
}
