// SPDX-License-Identifier: GPL-2.0
/*
 * ":mod:" filter words for modules that are not loaded yet.
 *
 * "func:mod:module" for a module that is not loaded is remembered in the
 * trace array (mod_trace / mod_notrace) and applied when the module loads;
 * until then the filter hash carries FTRACE_HASH_FL_MOD, which keeps it
 * non-empty so that it does not trace everything.
 *
 * A trace array keeps, per filter file, the "func:mod:module" words that
 * wait for their module.  A filter file being written edits a private copy
 * of that list next to its private hash; both are published together.
 */
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "ftrace_core.h"

static struct list_head *mod_list(struct trace_array *tr, bool enable)
{
	return enable ? &tr->mod_trace : &tr->mod_notrace;
}

static struct ftrace_mod_load *mod_entry_new(const char *func,
					     const char *module, bool enable)
{
	struct ftrace_mod_load *ml = kzalloc(sizeof(*ml), GFP_KERNEL);

	if (!ml)
		return NULL;
	ml->func = kstrdup(func, GFP_KERNEL);
	ml->module = kstrdup(module, GFP_KERNEL);
	ml->enable = enable;
	if (ml->func && ml->module)
		return ml;
	kfree(ml->func);
	kfree(ml->module);
	kfree(ml);
	return NULL;
}

static void mod_free(struct ftrace_mod_load *ml)
{
	list_del(&ml->list);
	kfree(ml->func);
	kfree(ml->module);
	kfree(ml);
}

/* "!func:mod:module": forget the waiting word ("!*" all of the module's). */
static int mod_cancel(struct list_head *mods, const char *func,
		      const char *module)
{
	struct ftrace_mod_load *ml, *n;
	int ret = -EINVAL;

	list_for_each_entry_safe(ml, n, mods, list) {
		if (strcmp(ml->module, module) ||
		    (strcmp(func, "*") && strcmp(ml->func, func)))
			continue;
		mod_free(ml);
		ret = 0;
	}
	return ret;
}

/*
 * Remember "func:mod:module".  A filter then selects nothing until the
 * module loads; a notrace hash is left as it is (an empty one still
 * excludes nothing, and its file says so, as in 6.1).  The newest word
 * goes first: the filter files list them in that order, as 6.1 does.
 */
static int mod_defer(struct list_head *mods, struct ftrace_hash *hash,
		     const char *func, const char *module, bool enable)
{
	struct ftrace_mod_load *ml;

	list_for_each_entry(ml, mods, list)
		if (!strcmp(ml->func, func) && !strcmp(ml->module, module))
			goto mark;
	ml = mod_entry_new(func, module, enable);
	if (!ml)
		return -ENOMEM;
	list_add(&ml->list, mods);
mark:
	if (enable)
		hash->flags |= FTRACE_HASH_FL_MOD;
	return 0;
}

/**
 * ftrace_mod_word - apply "func:mod:module" to a hash and its waiting list
 * @mods: the waiting list being edited, NULL where words cannot wait
 * @hash: the hash being edited
 * @func: the function word ('!' removes)
 * @module: the module word ("M", "!M", "" for any module)
 * @enable: true for a filter, false for a notrace list
 *
 * Called with ftrace_lock held.  A word for a module that is not loaded
 * waits for it; "!func:mod:M" then cancels the waiting word.
 *
 * Return: 0, or -EINVAL if the word selects nothing and cannot wait (the
 * module is loaded, or the module word is empty or starts with '!'), or
 * -ENOMEM.  A glob waits too, but as in 6.1 only a module with exactly
 * that name ends its wait.
 */
int ftrace_mod_word(struct list_head *mods, struct ftrace_hash *hash,
		    const char *func, const char *module, bool enable)
{
	int ret = ftrace_match_to_hash(hash, func, module, false);

	if (ret)
		return min(ret, 0);
	if (!mods)
		return -EINVAL;
	if (func[0] == '!')
		return mod_cancel(mods, func + 1, module);
	if (!*module || module[0] == '!' || ftrace_module_known(module))
		return -EINVAL;
	return mod_defer(mods, hash, func, module, enable);
}

/**
 * ftrace_mods_copy - a private copy of a trace array's waiting list
 * @dst: an initialised, empty list
 * @tr: the trace array
 * @enable: the filter (true) or notrace (false) list
 *
 * Return: 0 or -ENOMEM (@dst is then empty).
 */
int ftrace_mods_copy(struct list_head *dst, struct trace_array *tr,
		     bool enable)
{
	struct ftrace_mod_load *ml, *copy;

	lockdep_assert_held(&ftrace_lock);
	list_for_each_entry(ml, mod_list(tr, enable), list) {
		copy = mod_entry_new(ml->func, ml->module, enable);
		if (!copy) {
			ftrace_mods_free(dst);
			return -ENOMEM;
		}
		list_add_tail(&copy->list, dst);
	}
	return 0;
}

/**
 * ftrace_mods_free - free a waiting list
 * @mods: the list
 */
void ftrace_mods_free(struct list_head *mods)
{
	struct ftrace_mod_load *ml, *n;

	list_for_each_entry_safe(ml, n, mods, list)
		mod_free(ml);
}

/**
 * ftrace_mods_resolve - apply the waiting words whose module has loaded
 * @mods: a private waiting list
 * @hash: the private hash it goes with
 *
 * A filter file calls it before each word, so that the words apply in the
 * order they were written even when a module loads while it is open.
 */
void ftrace_mods_resolve(struct list_head *mods, struct ftrace_hash *hash)
{
	struct ftrace_mod_load *ml, *n;

	lockdep_assert_held(&ftrace_lock);
	list_for_each_entry_safe(ml, n, mods, list) {
		if (!ftrace_module_known(ml->module))
			continue;
		ftrace_match_to_hash(hash, ml->func, ml->module, false);
		mod_free(ml);
	}
}

/**
 * ftrace_mods_publish - publish a filter file's hash and waiting list
 * @tr: the trace array
 * @ops: its ops
 * @mods: the private waiting list (emptied on success)
 * @hash: the private hash (its entries move into the published one)
 * @enable: filter (true) or notrace (false)
 *
 * Words for modules that loaded since the last word are applied first.
 * Called with ftrace_lock held.
 *
 * Return: 0, or the error of publishing the hash (the ops' hashes and
 * waiting words are then as they were; @hash may have lost its entries).
 */
int ftrace_mods_publish(struct trace_array *tr, struct ftrace_ops *ops,
			struct list_head *mods, struct ftrace_hash *hash,
			bool enable)
{
	bool waiting;
	int ret;

	lockdep_assert_held(&ftrace_lock);
	ftrace_mods_resolve(mods, hash);
	/*
	 * Only a filter is marked by its waiting words (see mod_defer()).
	 * Written only when it changes: @hash may be the shared empty hash
	 * (a truncating open that wrote nothing, so with no waiting words).
	 */
	waiting = enable && !list_empty(mods);
	if (waiting != !!(hash->flags & FTRACE_HASH_FL_MOD))
		hash->flags ^= FTRACE_HASH_FL_MOD;
	ret = ftrace_ops_take_hash(ops, !enable, hash);
	if (ret)
		return ret;
	ftrace_mods_free(mod_list(tr, enable));
	list_splice_init(mods, mod_list(tr, enable));
	return 0;
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

	hash = ftrace_hash_copy(ftrace_ops_hash_locked(tr->ops, !enable));
	if (!hash)
		return;
	list_for_each_entry_safe(ml, n, mod_list(tr, enable), list) {
		if (strcmp(ml->module, name))
			continue;
		ftrace_match_to_hash(hash, ml->func, ml->module, false);
		mod_free(ml);
		hit = true;
	}
	if (list_empty(mod_list(tr, enable)))
		hash->flags &= ~FTRACE_HASH_FL_MOD;
	if (hit)
		ftrace_ops_take_hash(tr->ops, !enable, hash);
	ftrace_hash_free(hash);
}

/* A module is about to run: apply the filters that waited for it. */
void ftrace_mod_loaded(struct module *mod)
{
	struct trace_array *tr;

	/* trace_types_lock keeps the list; instances leave it under it. */
	lockdep_assert_held(&trace_types_lock);
	lockdep_assert_held(&ftrace_lock);
	list_for_each_entry(tr, &ftrace_trace_arrays, list) {
		if (!tr->ops || !tr->ops->func_hash)
			continue;
		mod_apply(tr, module_name(mod), true);
		mod_apply(tr, module_name(mod), false);
	}
}
