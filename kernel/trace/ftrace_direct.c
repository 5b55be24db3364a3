// SPDX-License-Identifier: GPL-2.0
/*
 * Direct calls: a call site that calls a custom trampoline instead of the
 * ftrace callers (register_ftrace_direct()).
 *
 * The targets live in ftrace_direct_hash (entry->direct; the planner in
 * ftrace_update.c reads it).  One ops, direct_ops, has every direct site
 * in its filter.  When direct_ops alone wants a site,
 * the site calls the target itself (FTRACE_FL_DIRECT_EN); when other ops
 * share the site, it calls the register-saving caller and direct_call()
 * tells the caller to continue into the target on its way out.
 *
 * Order of updates: a new target is published before the site is patched
 * to call it; an old one is unpublished only after no site calls it.
 */
#include <linux/sched/clock.h>
#include <linux/slab.h>

#include "ftrace_core.h"

#ifndef FTRACE_KBASE_612
/* How many sites have a direct target: 6.1's fgraph.c reads it. */
int ftrace_direct_func_count;
#endif

static void direct_call(unsigned long ip, unsigned long pip,
			struct ftrace_ops *ops, struct ftrace_regs *fregs)
{
	unsigned long addr = ftrace_find_rec_direct(ip);
	struct pt_regs *regs = ftrace_get_regs(fregs);

	if (addr && regs)
		ftrace_direct_caller_set(fregs, regs, addr);
}

#ifndef FTRACE_KBASE_612
/*
 * 6.1's single-site calls (register_ftrace_direct(ip, addr) and friends)
 * put every site in one ops; 6.12 has per-ops calls only (see the
 * kernel-doc of those below).
 */
static struct ftrace_ops direct_ops = {
	.func	= direct_call,
	.flags	= FTRACE_OPS_FL_DIRECT | FTRACE_OPS_FL_SAVE_REGS |
		  FTRACE_OPS_FL_PERMANENT,
	/* Its sites call their targets or the shared caller: no copy of it. */
	.trampoline = FTRACE_REGS_ADDR,
};
#endif

static void direct_publish(struct ftrace_hash *old, struct ftrace_hash *new)
{
	rcu_assign_pointer(ftrace_direct_hash, new);
#ifndef FTRACE_KBASE_612
	ftrace_direct_func_count = new->count;
#endif
	ftrace_hash_free_rcu(old);
}

/*
 * Publish a copy of ftrace_direct_hash in which every address of @ips maps to
 * @addr (0: in which none of them is).
 *
 * The update engine reads ftrace_direct_hash in preemptible code under
 * ftrace_lock, which the rude grace period of the free does not cover:
 * the swap happens under ftrace_lock too.
 */
static int direct_set_many(struct ftrace_hash *ips, unsigned long addr)
{
	struct ftrace_func_entry *e, *d;
	struct ftrace_hash *old, *new;
	unsigned long i;

	lockdep_assert_held(&ftrace_direct_mutex);
	guard(mutex)(&ftrace_lock);
	old = rcu_dereference_protected(ftrace_direct_hash,
					lockdep_is_held(&ftrace_lock));
	new = ftrace_hash_copy(old);
	if (!new)
		return -ENOMEM;
	for_each_hash_entry(ips, i, e) {
		d = ftrace_lookup_ip(new, e->ip);
		if (!addr) {
			if (d)
				ftrace_hash_del(new, d);
			continue;
		}
		if (!d && ftrace_hash_add(new, e->ip)) {
			ftrace_hash_free(new);
			return -ENOMEM;
		}
		ftrace_lookup_ip(new, e->ip)->direct = addr;
	}
	direct_publish(old, new);
	return 0;
}

#ifndef FTRACE_KBASE_612
/* The same for one address. */
static int direct_set(unsigned long ip, unsigned long addr)
{
	struct ftrace_hash *one = ftrace_hash_alloc(0);
	int ret = one ? ftrace_hash_add(one, ip) : -ENOMEM;

	if (!ret)
		ret = direct_set_many(one, addr);
	ftrace_hash_free(one);
	return ret;
}

/**
 * register_ftrace_direct - make the call site of @ip call @addr
 * @ip: a call-site address (or its function's start)
 * @addr: the target trampoline
 *
 * Return: 0, -ENODEV if @ip has no call site, -EBUSY if it has a direct
 * target already, or another negative error.
 */
int register_ftrace_direct(unsigned long ip, unsigned long addr)
{
	int ret;

	ip = ftrace_location(ip);
	if (!ip)
		return -ENODEV;
	guard(mutex)(&ftrace_direct_mutex);
	if (ftrace_find_rec_direct(ip))
		return -EBUSY;
	ret = direct_set(ip, addr);
	if (ret)
		return ret;
	ret = ftrace_set_filter_ip(&direct_ops, ip, 0, 0);
	if (!ret && !(direct_ops.flags & FTRACE_OPS_FL_ENABLED))
		ret = register_ftrace_function(&direct_ops);
	if (ret) {
		ftrace_set_filter_ip(&direct_ops, ip, 1, 0);
		direct_set(ip, 0);
	}
	return ret;
}
EXPORT_SYMBOL_GPL(register_ftrace_direct);

/* Does any site still call @addr?  ftrace_direct_mutex is held. */
static bool direct_target_used(unsigned long addr)
{
	struct ftrace_func_entry *e;
	struct ftrace_hash *h;
	unsigned long i;

	h = rcu_dereference_protected(ftrace_direct_hash,
				      lockdep_is_held(&ftrace_direct_mutex));
	for_each_hash_entry(h, i, e)
		if (e->direct == addr)
			return true;
	return false;
}

/**
 * unregister_ftrace_direct - stop the call site of @ip calling @addr
 * @ip: the call-site address given to register_ftrace_direct()
 * @addr: its target
 *
 * When no other site calls @addr, returns once no task can be inside it,
 * so that its owner may free it (a module's trampoline, at rmmod), as
 * 6.1 does; also after an error, as the site may have moved already.
 *
 * Return: 0, -ENODEV if @ip does not call @addr, or the error of the
 * update.
 */
int unregister_ftrace_direct(unsigned long ip, unsigned long addr)
{
	struct ftrace_hash *filter;
	bool wait = false;
	int ret = -ENODEV;

	ip = ftrace_location(ip);
	ftrace_ops_init(&direct_ops);
	scoped_guard(mutex, &ftrace_direct_mutex) {
		filter = rcu_dereference_protected(direct_ops.func_hash->filter_hash,
						   lockdep_is_held(&ftrace_direct_mutex));
		/* Only what register_ftrace_direct() set (not a multi ops' site). */
		if (!ip || ftrace_find_rec_direct(ip) != addr ||
		    !ftrace_lookup_ip(filter, ip))
			return -ENODEV;
		if (filter->count == 1) {
			ret = unregister_ftrace_function(&direct_ops);
			ftrace_free_filter(&direct_ops);
		} else {
			ret = ftrace_set_filter_ip(&direct_ops, ip, 1, 0);
		}
		if (!ret)
			ret = direct_set(ip, 0);
		wait = ret || !direct_target_used(addr);
	}
	/*
	 * direct_ops is static, so its unregistration waited for the CPUs
	 * only; a task preempted inside the target is waited for here,
	 * without the mutex: other direct calls come and go meanwhile.
	 */
	if (wait)
		ftrace_tasks_quiesce();
	return ret;
}
EXPORT_SYMBOL_GPL(unregister_ftrace_direct);
#endif /* !FTRACE_KBASE_612 */

static void stub_func(unsigned long ip, unsigned long pip,
		      struct ftrace_ops *ops, struct ftrace_regs *fregs)
{
}

/*
 * The ops that shares a direct ops' sites while their targets change, so
 * that they go through the list function, which never calls it (a stub).
 * Static, so that unregistering it waits for no preempted task while
 * ftrace_direct_mutex, which serialises its users, is held.  Like a direct
 * ops it brings its "trampoline" (never used: it is never alone on a
 * site), so the back end makes it none.
 */
static struct ftrace_ops direct_stub = {
	.func = stub_func,
	.flags = FTRACE_OPS_FL_STUB,
	.trampoline = FTRACE_REGS_ADDR,
};

#ifndef FTRACE_KBASE_612

/**
 * modify_ftrace_direct - move the call site of @ip from @old_addr to @new_addr
 * @ip: the call-site address
 * @old_addr: its current target
 * @new_addr: its new target
 *
 * While the target changes, a second (empty) ops shares the site, so the
 * site goes through the list function and never calls a half-updated
 * target directly.
 *
 * Return: 0, -ENODEV if @ip does not call @old_addr, or another error.
 */
int modify_ftrace_direct(unsigned long ip, unsigned long old_addr,
			 unsigned long new_addr)
{
	int ret;

	ip = ftrace_location(ip);
	guard(mutex)(&ftrace_direct_mutex);
	if (!ip || ftrace_find_rec_direct(ip) != old_addr)
		return -ENODEV;
	ret = ftrace_set_filter_ip(&direct_stub, ip, 0, 0);
	if (!ret)
		ret = register_ftrace_function(&direct_stub);
	if (!ret) {
		ret = direct_set(ip, new_addr);
		unregister_ftrace_function(&direct_stub);
	}
	ftrace_free_filter(&direct_stub);
	return ret;
}
EXPORT_SYMBOL_GPL(modify_ftrace_direct);
#endif /* !FTRACE_KBASE_612 */

/*
 * Direct calls for a set of functions at once (BPF trampolines): the
 * caller's ops carries the functions in its filter hash; the targets go
 * into ftrace_direct_hash like single direct calls, and the ops is
 * registered as a direct ops (FTRACE_OPS_FL_DIRECT), so a site it alone
 * wants calls its target itself.
 */
#define DIRECT_MULTI_FLAGS	(FTRACE_OPS_FL_DIRECT | FTRACE_OPS_FL_SAVE_REGS)

static struct ftrace_hash *multi_ips(struct ftrace_ops *ops)
{
	return ops->func_hash ? rcu_dereference_raw(ops->func_hash->filter_hash) :
				NULL;
}

/*
 * A direct ops and one ops that moves the IP (livepatch, a kprobe with a
 * post handler) may share a function.  The register-saving caller then
 * runs the IP mover first and continues into the direct target with the
 * IP it chose as the return address, so a target that calls the function
 * itself (a BPF trampoline with fexit programs) must call through that
 * address rather than the function's own body.  The direct ops' owner is
 * told, through ops->ops_func, and may rebuild its target first:
 *
 *   SELF          a direct ops is registered or moved onto a function an
 *                 IP mover has (-EAGAIN: rebuild the target, try again)
 *   PEER          an IP mover is registered on a function a direct ops has
 *   DISABLE_PEER  that IP mover went (errors are ignored)
 *
 * A direct ops without ops_func (direct_ops) does not share: -EBUSY, and
 * the planner refuses such a site too.  ftrace_direct_mutex is held
 * throughout, so no direct ops comes or goes while an owner is being told.
 * The IP mover's side of this (telling PEER and DISABLE_PEER) is in
 * ftrace_register.c, which registers it.
 */

/* Does a registered IP mover want one of the functions in @ips? */
static bool ipmodify_on_any(struct ftrace_hash *ips)
{
	struct ftrace_func_entry *e;
	unsigned long i;

	if (ftrace_hash_empty(ips))
		return false;
	guard(mutex)(&ftrace_lock);
	for_each_hash_entry(ips, i, e)
		if (ftrace_ops_on(e->ip, FTRACE_OPS_FL_IPMODIFY))
			return true;
	return false;
}

/* SELF: may direct ops @ops go onto the functions of @ips? */
static int share_self(struct ftrace_ops *ops, struct ftrace_hash *ips)
{
	lockdep_assert_held(&ftrace_direct_mutex);
	if (!ipmodify_on_any(ips))
		return 0;
	if (!ops->ops_func)
		return -EBUSY;
	return ops->ops_func(ops, FTRACE_OPS_CMD_ENABLE_SHARE_IPMODIFY_SELF);
}

/*
 * What makes @ops a direct ops.  It is not an IP mover itself (as in 6.1,
 * IPMODIFY is dropped).  The owner of a BPF trampoline clears ->func and
 * ->trampoline before it calls again after -EAGAIN from ops_func, also on
 * a registered ops; each register and modify call sets them again.
 */
static void direct_multi_setup(struct ftrace_ops *ops)
{
	ops->flags &= ~FTRACE_OPS_FL_IPMODIFY;
	ops->flags |= DIRECT_MULTI_FLAGS;
	/* Not 0: the arch must not give it a trampoline of its own. */
	ops->trampoline = FTRACE_REGS_ADDR;
	WRITE_ONCE(ops->func, direct_call);
}

/**
 * ftrace_direct_ops_register - make the functions of @ops call @addr
 * @ops: an unregistered ops whose filter holds the functions
 * @addr: the target trampoline
 *
 * Return: 0, -EINVAL if @ops is registered or its filter is empty, -EBUSY
 * if one of its functions has a direct target already (or an IP mover and
 * @ops has no ops_func), the error of @ops->ops_func (-EAGAIN: rebuild the
 * target and call again), or the error of registering @ops.
 */
int ftrace_direct_ops_register(struct ftrace_ops *ops, unsigned long addr)
{
	struct ftrace_func_entry *e;
	struct ftrace_hash *ips;
	unsigned long i;
	int ret;

	ftrace_ops_init(ops);
	ips = multi_ips(ops);
	if ((ops->flags & FTRACE_OPS_FL_ENABLED) || ftrace_hash_empty(ips))
		return -EINVAL;
	guard(mutex)(&ftrace_direct_mutex);
	for_each_hash_entry(ips, i, e)
		if (ftrace_find_rec_direct(e->ip))
			return -EBUSY;
	ret = share_self(ops, ips);
	if (ret)
		return ret;
	ret = direct_set_many(ips, addr);
	if (ret)
		return ret;
	direct_multi_setup(ops);
	ret = register_ftrace_function(ops);
	if (ret)
		direct_set_many(ips, 0);
	return ret;
}

/**
 * ftrace_direct_ops_unregister - stop the functions of @ops calling their target
 * @ops: an ops registered with ftrace_direct_ops_register()
 *
 * Return: 0, -EINVAL if @ops is not registered, or the error of
 * unregistering it.
 */
int ftrace_direct_ops_unregister(struct ftrace_ops *ops)
{
	struct ftrace_leaving l;
	u64 t = local_clock();
	int ret;

	if (!(ops->flags & FTRACE_OPS_FL_ENABLED) ||
	    !(ops->flags & FTRACE_OPS_FL_DIRECT))
		return -EINVAL;
	/*
	 * The targets go as soon as no site calls them (direct_call()
	 * takes a missing one for "none"), so that a new direct ops may
	 * claim these functions while this one waits for its tasks, which
	 * it does without ftrace_direct_mutex: detaching one BPF trampoline
	 * must not hold up attaching others.
	 */
	scoped_guard(mutex, &ftrace_direct_mutex) {
		ret = ftrace_unregister_begin(&l, ops);
		/* Not if another call is unregistering it. */
		if (l.unlinked)
			direct_set_many(multi_ips(ops), 0);
	}
	ftrace_unregister_end(&l);
	ftrace_note_register_time(local_clock() - t);
	/* Ready for another register call. */
	if (l.unlinked) {
		ops->func = NULL;
		ops->trampoline = 0;
	}
	return ret;
}

/**
 * ftrace_direct_ops_modify_nolock - move the functions of @ops to @addr
 * @ops: an ops registered with ftrace_direct_ops_register()
 * @addr: the new target
 *
 * The caller holds ftrace_direct_mutex (it is called back from ftrace).
 * While the targets change, a stub ops shares @ops' functions, so their
 * sites go through the list function and never call a target half way
 * through.
 *
 * Return: 0, -EINVAL if @ops is not registered, the error of
 * @ops->ops_func (as for ftrace_direct_ops_register()), or another error.
 */
int ftrace_direct_ops_modify_nolock(struct ftrace_ops *ops, unsigned long addr)
{
	int ret;

	lockdep_assert_held(&ftrace_direct_mutex);
	if (!(ops->flags & FTRACE_OPS_FL_ENABLED) ||
	    !(ops->flags & FTRACE_OPS_FL_DIRECT))
		return -EINVAL;
	direct_multi_setup(ops);
	/* A new target must know whether it shares with an IP mover. */
	ret = share_self(ops, multi_ips(ops));
	if (ret)
		return ret;
	/* The stub borrows @ops' hashes while it is registered. */
	ftrace_ops_init(&direct_stub);
	direct_stub.func_hash = ops->func_hash;
	ret = register_ftrace_function(&direct_stub);
	if (!ret) {
		ret = direct_set_many(multi_ips(ops), addr);
		unregister_ftrace_function(&direct_stub);
	}
	direct_stub.func_hash = &direct_stub.local_hash;
	return ret;
}

/**
 * ftrace_direct_ops_modify - move the functions of @ops to @addr
 * @ops: an ops registered with ftrace_direct_ops_register()
 * @addr: the new target
 *
 * Return: as ftrace_direct_ops_modify_nolock().
 */
int ftrace_direct_ops_modify(struct ftrace_ops *ops, unsigned long addr)
{
	guard(mutex)(&ftrace_direct_mutex);
	return ftrace_direct_ops_modify_nolock(ops, addr);
}
