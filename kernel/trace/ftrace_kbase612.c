// SPDX-License-Identifier: GPL-2.0
/*
 * The calls whose form is Linux 6.12's (the core built into 6.12): direct
 * calls registered per ops under the plain names, the kallsyms hook
 * returning a flag, and the sub-ops calls of fgraph.c (which keeps its
 * users as sub-ops of one manager ops; ftrace_subops.c builds the
 * manager's hashes).  Their 6.1 forms are in ftrace_kbase61.c; only one
 * of the two is built.
 */
#include "ftrace_core.h"

#if defined(CONFIG_MODULES) && defined(CONFIG_DYNAMIC_FTRACE)
/**
 * ftrace_mod_address_lookup - kallsyms name of an address kallsyms lost
 * @addr: the address: in a trampoline, or in freed module init text
 * @size: receives the trampoline's or function's size
 * @off: receives the offset of @addr in it
 * @modname: receives the (pseudo-)module name
 * @modbuildid: receives NULL
 * @sym: buffer of KSYM_NAME_LEN for the symbol name
 *
 * Return: 1 with the name in @sym, or 0 if the core cannot name @addr.
 */
int ftrace_mod_address_lookup(unsigned long addr, unsigned long *size,
			      unsigned long *off, char **modname,
			      const unsigned char **modbuildid, char *sym)
{
	return !!ftrace_name_lookup(addr, size, off, modname, modbuildid, sym);
}
#endif

static void nop_ops_func(unsigned long ip, unsigned long parent_ip,
			 struct ftrace_ops *op, struct ftrace_regs *fregs)
{
}

/*
 * Ops a back end may point a site's own ops slot at (6.12's arm64 keeps
 * one before each function): one that does nothing, and one that runs
 * the list function.  Ours do not use them; other back ends may.
 */
const struct ftrace_ops ftrace_nop_ops = {
	.func = nop_ops_func,
	.flags = FTRACE_OPS_FL_STUB,
};

const struct ftrace_ops ftrace_list_ops = {
	.func = ftrace_ops_list_func,
	.flags = FTRACE_OPS_FL_STUB,
};

#ifdef CONFIG_DYNAMIC_FTRACE
/**
 * ftrace_find_unique_ops - the one registered ops that traces a site
 * @rec: the site
 *
 * Called with ftrace_lock held (from a back end's site update).
 *
 * Return: that ops, or NULL if none or more than one traces @rec->ip.
 */
struct ftrace_ops *ftrace_find_unique_ops(struct dyn_ftrace *rec)
{
	struct ftrace_ops *op, *found = NULL;

	for_each_ftrace_ops(op) {
		if (!(op->flags & FTRACE_OPS_FL_ENABLED) ||
		    !ftrace_ops_wants(op, rec->ip))
			continue;
		if (found)
			return NULL;
		found = op;
	}
	return found;
}
#endif

/**
 * ftrace_pids_enabled - does a PID filter decide whom @ops traces?
 * @ops: an ops; only one that follows PID filters (FTRACE_OPS_FL_PID) of
 *	a trace array (@ops->private) can say yes
 *
 * Return: true if that trace array has a PID or no-PID list.
 */
bool ftrace_pids_enabled(struct ftrace_ops *ops)
{
	struct trace_array *tr = ops->private;

	return (ops->flags & FTRACE_OPS_FL_PID) && tr && ftrace_pids_set(tr);
}

#ifdef CONFIG_DYNAMIC_FTRACE
/* Rebuild a registered manager's hashes and update the sites. */
static int subops_rebuild(struct ftrace_ops *mgr, int command)
{
	struct ftrace_hash *f, *nt;
	int ret;

	ret = ftrace_subops_build(mgr, &f, &nt);
	if (ret)
		return ret;
	ftrace_subops_swap(mgr, &f, &nt);
	ret = ftrace_run_update(FTRACE_UPDATE_CALLS | command);
	if (ret) {
		ftrace_subops_swap(mgr, &f, &nt);
		ftrace_run_update(FTRACE_UPDATE_CALLS);
	}
	ftrace_hash_free_rcu(f);
	ftrace_hash_free_rcu(nt);
	return ret;
}

/**
 * ftrace_startup_subops - add a user to a manager ops
 * @ops: the manager; registered by this call if @subops is its first user
 * @subops: the user, not registered; its hashes say what it traces
 * @command: extra FTRACE_* commands for the update (fgraph.c passes
 *	FTRACE_START_FUNC_RET with its first user)
 *
 * Called with ftrace_lock held.
 *
 * Return: 0, -ENODEV once ftrace is dead, -EBUSY if @subops is enabled
 * already, -ENOMEM, -ENOSPC for a manager too many, or the error of the
 * update (@subops is then not added).
 */
int ftrace_startup_subops(struct ftrace_ops *ops, struct ftrace_ops *subops,
			  int command)
{
	struct ftrace_hash *f, *nt;
	bool first;
	int ret;

	lockdep_assert_held(&ftrace_lock);
	if (ftrace_dead)
		return -ENODEV;
	ftrace_ops_init(ops);
	ftrace_ops_init(subops);
	if (WARN_ON_ONCE(subops->flags & FTRACE_OPS_FL_ENABLED))
		return -EBUSY;
	/* A manager left registered without users is rebuilt, not started. */
	first = !(ops->flags & FTRACE_OPS_FL_ENABLED);
	if (first && !list_empty(&ops->subop_list))
		return -EBUSY;
	list_add_tail(&subops->list, &ops->subop_list);
	if (!first) {
		ret = subops_rebuild(ops, command);
	} else {
		ret = ftrace_subops_manage(ops, true);
		if (!ret)
			ret = ftrace_subops_build(ops, &f, &nt);
		if (!ret) {
			ftrace_subops_swap(ops, &f, &nt);
			ftrace_hash_free(f);
			ftrace_hash_free(nt);
			ret = ftrace_startup(ops, command);
			/* Not started: the manager goes back to empty hashes. */
			if (ret) {
				f = &ftrace_empty_hash;
				nt = &ftrace_empty_hash;
				ftrace_subops_swap(ops, &f, &nt);
				ftrace_hash_free_rcu(f);
				ftrace_hash_free_rcu(nt);
			}
		}
		if (ret)
			ftrace_subops_manage(ops, false);
	}
	if (ret) {
		list_del_init(&subops->list);
		return ret;
	}
	subops->flags |= FTRACE_OPS_FL_ENABLED | FTRACE_OPS_FL_SUBOP;
	subops->managed = ops;
	return 0;
}

/**
 * ftrace_shutdown_subops - remove a user from a manager ops
 * @ops: the manager; unregistered by this call with its last user
 * @subops: a user added with ftrace_startup_subops()
 * @command: extra FTRACE_* commands (fgraph.c passes FTRACE_STOP_FUNC_RET
 *	with its last user)
 *
 * Called with ftrace_lock held.
 *
 * fgraph.c cannot take a refusal (it frees the user next), so the user
 * goes whatever happens to the update.  A manager whose hashes cannot be
 * rebuilt keeps its old ones, which still cover every user left; one
 * whose last user went but that cannot be unregistered (ftrace is dead)
 * stays registered without users, and its next user finds it so.
 *
 * Return: 0, -EINVAL if @subops is not a user of @ops (nothing changes),
 * or the error of the update (@subops is removed all the same).
 */
int ftrace_shutdown_subops(struct ftrace_ops *ops, struct ftrace_ops *subops,
			   int command)
{
	struct ftrace_hash *f = &ftrace_empty_hash, *nt = &ftrace_empty_hash;
	int ret;

	lockdep_assert_held(&ftrace_lock);
	if (WARN_ON_ONCE(!(subops->flags & FTRACE_OPS_FL_SUBOP) ||
			 subops->managed != ops))
		return -EINVAL;
	list_del_init(&subops->list);
	subops->flags &= ~(FTRACE_OPS_FL_ENABLED | FTRACE_OPS_FL_SUBOP);
	subops->managed = NULL;
	if (!list_empty(&ops->subop_list))
		return subops_rebuild(ops, command);
	ret = ftrace_shutdown(ops, command);
	if (!ret) {
		ftrace_subops_manage(ops, false);
		/* Unregistered: nothing reads them any more. */
		ftrace_subops_swap(ops, &f, &nt);
		ftrace_hash_free(f);
		ftrace_hash_free(nt);
	}
	return ret;
}

#endif /* CONFIG_DYNAMIC_FTRACE */

#ifdef CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS
/**
 * register_ftrace_direct - make the functions of @ops call @addr
 * @ops: an unregistered ops whose filter holds the functions
 * @addr: the target trampoline
 *
 * @ops->direct_call reads @addr while the call holds.
 *
 * Return: as ftrace_direct_ops_register().
 */
int register_ftrace_direct(struct ftrace_ops *ops, unsigned long addr)
{
	int ret;

	if (ops->flags & FTRACE_OPS_FL_ENABLED)
		return -EINVAL;
	/* Set before any site calls it, as a back end may read it there. */
	WRITE_ONCE(ops->direct_call, addr);
	ret = ftrace_direct_ops_register(ops, addr);
	if (ret)
		WRITE_ONCE(ops->direct_call, 0);
	return ret;
}
EXPORT_SYMBOL_GPL(register_ftrace_direct);

/**
 * unregister_ftrace_direct - stop the functions of @ops calling @addr
 * @ops: an ops registered with register_ftrace_direct()
 * @addr: its target (not checked)
 * @free_filters: also empty @ops' filter and notrace hashes, once it is
 *	unregistered (whatever the unregistration returned)
 *
 * Return: -EINVAL if @ops is not a registered direct ops (nothing is
 * freed), else as ftrace_direct_ops_unregister().
 */
int unregister_ftrace_direct(struct ftrace_ops *ops, unsigned long addr,
			     bool free_filters)
{
	int ret;

	if (!(ops->flags & FTRACE_OPS_FL_ENABLED) ||
	    !(ops->flags & FTRACE_OPS_FL_DIRECT))
		return -EINVAL;
	ret = ftrace_direct_ops_unregister(ops);
	ops->direct_call = 0;
	if (free_filters)
		ftrace_free_filter(ops);
	return ret;
}
EXPORT_SYMBOL_GPL(unregister_ftrace_direct);

/**
 * modify_ftrace_direct_nolock - move the functions of @ops to @addr
 * @ops: an ops registered with register_ftrace_direct()
 * @addr: the new target
 *
 * Return: as ftrace_direct_ops_modify_nolock().
 */
int modify_ftrace_direct_nolock(struct ftrace_ops *ops, unsigned long addr)
{
	unsigned long old = ops->direct_call;
	int ret;

	/* Set before the sites call it, as in register_ftrace_direct(). */
	WRITE_ONCE(ops->direct_call, addr);
	ret = ftrace_direct_ops_modify_nolock(ops, addr);
	if (ret)
		WRITE_ONCE(ops->direct_call, old);
	return ret;
}
EXPORT_SYMBOL_GPL(modify_ftrace_direct_nolock);

/**
 * modify_ftrace_direct - move the functions of @ops to @addr
 * @ops: an ops registered with register_ftrace_direct()
 * @addr: the new target
 *
 * Return: as ftrace_direct_ops_modify().
 */
int modify_ftrace_direct(struct ftrace_ops *ops, unsigned long addr)
{
	guard(mutex)(&ftrace_direct_mutex);
	return modify_ftrace_direct_nolock(ops, addr);
}
EXPORT_SYMBOL_GPL(modify_ftrace_direct);
#endif /* CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS */
