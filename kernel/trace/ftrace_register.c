// SPDX-License-Identifier: GPL-2.0
/*
 * Registering and unregistering ops.
 *
 * Registering admits an ops (flags the arch can honour, not registered
 * already), puts it on ftrace_ops_list, asks the back end for a trampoline
 * of its own, and runs the planner (ftrace_update.c) so the sites it wants
 * call it.  Unregistering unlinks the ops, parks its trampoline, repatches,
 * then waits until no CPU can still be running code that loaded the ops
 * (see ops_quiesce()).
 *
 * An ops that moves the IP (FTRACE_OPS_FL_IPMODIFY) may share functions
 * with direct ops, whose owners are told before it is registered and after
 * it goes (the protocol is described in ftrace_direct.c); the lock of that
 * protocol, ftrace_direct_mutex, lives here with it.
 *
 * Also the ftrace_enabled sysctl, which turns every call site off and on.
 */
#include <linux/ftrace.h>
#include <linux/kernel.h>
#include <linux/sched/clock.h>
#include <asm/sections.h>
#include <linux/sysctl.h>
#include <linux/wait_bit.h>
#include <linux/workqueue.h>

#include "ftrace_core.h"

static struct ftrace_ops *list_first(void)
{
	return rcu_dereference_protected(ftrace_ops_list,
					 lockdep_is_held(&ftrace_lock));
}

static struct ftrace_ops *list_next(struct ftrace_ops *op)
{
	return rcu_dereference_protected(op->next,
					 lockdep_is_held(&ftrace_lock));
}

static int check_regs_flags(struct ftrace_ops *ops)
{
	if (IS_ENABLED(CONFIG_DYNAMIC_FTRACE_WITH_REGS)) {
		if (ops->flags & FTRACE_OPS_FL_SAVE_REGS_IF_SUPPORTED)
			ops->flags |= FTRACE_OPS_FL_SAVE_REGS;
		return 0;
	}
	if ((ops->flags & FTRACE_OPS_FL_SAVE_REGS) &&
	    !(ops->flags & FTRACE_OPS_FL_SAVE_REGS_IF_SUPPORTED))
		return -EINVAL;
	ops->flags &= ~FTRACE_OPS_FL_SAVE_REGS;
	return 0;
}

/*
 * ops_admit - checks shared by both configurations, then put @ops on the
 * list, marked enabled.  Called with ftrace_lock held.
 */
static int ops_admit(struct ftrace_ops *ops)
{
	int ret;

	lockdep_assert_held(&ftrace_lock);
	if (ftrace_dead)
		return -ENODEV;
	/* Registered, deleted, or still leaving (ftrace_unregister_end()). */
	if (ops->flags & (FTRACE_OPS_FL_ENABLED | FTRACE_OPS_FL_DELETED |
			  FTRACE_OPS_FL_REMOVING))
		return -EBUSY;
	/* A permanent ops must run: refused while ftrace_enabled is off. */
	if ((ops->flags & FTRACE_OPS_FL_PERMANENT) && !ftrace_enabled)
		return -EBUSY;
	ftrace_ops_init(ops);
	/*
	 * An ops that moves the IP, or calls a direct target, must say
	 * where: an empty filter is "all" (-EINVAL, as in 6.1).  Without
	 * dynamic ftrace no ops has a filter, and 6.1 does not ask.
	 */
	if (IS_ENABLED(CONFIG_DYNAMIC_FTRACE) &&
	    (ops->flags & (FTRACE_OPS_FL_IPMODIFY | FTRACE_OPS_FL_DIRECT)) &&
	    ftrace_ops_filter_empty(ops))
		return -EINVAL;
	ret = check_regs_flags(ops);
	if (ret)
		return ret;
	if (!is_kernel_core_data((unsigned long)ops))
		ops->flags |= FTRACE_OPS_FL_DYNAMIC;
	/*
	 * saved_func is the ops' own function while it is registered: the
	 * PID filter wraps ->func, and users test saved_func to recognise
	 * their ops (unregister_fprobe() refuses an ops without it).
	 */
	ops->saved_func = ops->func;
	if (ops->flags & FTRACE_OPS_FL_PID)
		ftrace_pid_ops_update(ops);
	rcu_assign_pointer(ops->next, list_first());
	rcu_assign_pointer(ftrace_ops_list, ops);
	ops->flags |= FTRACE_OPS_FL_ENABLED;
	return 0;
}

/*
 * ops_startup - add @ops to the list and patch the sites it wants
 * @ops: an initialised ops that is not registered
 * @command: extra FTRACE_* commands (fgraph passes FTRACE_START_FUNC_RET)
 *
 * Called with ftrace_lock held.  Without dynamic ftrace there is no site
 * to patch and no trampoline (ftrace_nodyn.c); the rest is the same.
 *
 * Return: 0, -ENODEV once ftrace is dead, -EBUSY if @ops is registered
 * already, -EINVAL for flags the arch cannot honour, or the error of the
 * update (the ops is then not registered).
 */
static int ops_startup(struct ftrace_ops *ops, int command)
{
	int ret = ops_admit(ops);

	if (ret)
		return ret;
	ops->flags |= FTRACE_OPS_FL_ADDING;
	ftrace_tramp_prepare(ops);
	ret = ftrace_run_update(command | FTRACE_UPDATE_CALLS);
	ops->flags &= ~FTRACE_OPS_FL_ADDING;
	/*
	 * Even with ftrace_enabled off: a parked trampoline must leave its
	 * park before a later ftrace_enabled=1 points sites at it.
	 */
	if (!ret)
		ret = ftrace_tramp_update(ops);
	if (ret) {
		/* A graph caller the update turned on goes off again. */
		ftrace_shutdown_batch(&ops, 1, (command & FTRACE_START_FUNC_RET) ?
					       FTRACE_STOP_FUNC_RET : 0);
		return ret;
	}
	return 0;
}

static void list_remove(struct ftrace_ops *ops)
{
	struct ftrace_ops __rcu **link = &ftrace_ops_list;
	struct ftrace_ops *op;

	for_each_ftrace_ops(op) {
		if (op == ops) {
			rcu_assign_pointer(*link, list_next(op));
			return;
		}
		link = &op->next;
	}
}

static void ops_quiesce_nop(struct work_struct *work)
{
}

/*
 * ops_quiesce - after this, no CPU runs code that may still call @ops.
 *
 * Callers of ops funcs run with preemption disabled (the list function,
 * the assist wrapper and the tracers do that), possibly where RCU is not
 * watching: once every CPU has scheduled, those calls are over.  That is
 * what a "rude" RCU grace period waits for; running a no-op work item on
 * every CPU waits for the same, without the grace-period machinery and its
 * sleeps.
 *
 * On a preemptible kernel a task can also be preempted where it has loaded
 * the ops but not yet called it: inside a trampoline, or in the arch
 * caller between loading function_trace_op and the call, when a lone ops
 * is called directly.  RCU-tasks covers those; it is needed for an ops
 * that may be freed (DYNAMIC), whose trampoline is freed with it (but see
 * ops_needs_tasks_rcu() for one whose owner waits itself).  A
 * static ops keeps its trampoline, parked (ftrace_tramp_park()), so a
 * task preempted inside it calls nothing, and the caller switches away
 * from an ops' own function before function_trace_op changes.  One wait
 * of each kind serves any number of ops removed before it
 * (ftrace_shutdown_batch()).
 */
static void ops_quiesce(bool tasks)
{
	/* Before the scheduler runs, nothing can be inside a call. */
	if (!rcu_scheduler_active)
		return;
	if (schedule_on_each_cpu(ops_quiesce_nop))
		synchronize_rcu_tasks_rude();
	if (tasks && IS_ENABLED(CONFIG_PREEMPTION))
		synchronize_rcu_tasks();
}

/*
 * Whether the wait for @ops must include one for tasks.  Of what a task
 * preempted at one of its sites may still be running, the core owns only
 * the ops' own trampoline.  The rest (the ops, its function, a direct
 * call's target and what they use) is the owner's, and an owner that
 * keeps it alive past a wait for tasks of its own
 * (FTRACE_OPS_FL_OWNER_WAITS: BPF trampolines and, on 6.1, kprobe_multi
 * links) spares its unregistration that wait: the core frees the
 * trampoline after one of its own (ftrace_tramp_unlist()), and N such
 * ops share batched grace periods instead of waiting N times.
 */
static bool ops_needs_tasks_rcu(struct ftrace_ops *ops)
{
	return (ops->flags & FTRACE_OPS_FL_DYNAMIC) &&
	       !(ops->flags & FTRACE_OPS_FL_OWNER_WAITS);
}

static void ops_detach(struct ftrace_ops *ops)
{
	list_remove(ops);
	ops->flags |= FTRACE_OPS_FL_REMOVING;
	ops->flags &= ~FTRACE_OPS_FL_ENABLED;
}

static void ops_finish(struct ftrace_ops *ops)
{
	ftrace_tramp_release(ops);
	if ((ops->flags & FTRACE_OPS_FL_PID) && ops->saved_func)
		ops->func = ops->saved_func;
	ops->flags &= ~FTRACE_OPS_FL_REMOVING;
	/* A second unregistration waits for this (ftrace_unregister_end()). */
	wake_up_var(&ops->flags);
}

/*
 * shutdown_begin - the first half of a shutdown: unlink those of @ops that
 * are registered, park their trampolines and update the code.  Called
 * with ftrace_lock held.  The ops it unlinked are moved to the front of
 * @ops and counted in *@nr; an ops that is not registered is not touched
 * (not even one whose own unregistration is between its two halves).
 * *@tasks tells whether the wait before shutdown_end() must include one
 * for tasks (RCU-tasks).
 *
 * Return: 0, -EBUSY if one of them was not registered, or the update's
 * error.
 */
static int shutdown_begin(struct ftrace_ops **ops, unsigned int n,
			  int command, unsigned int *nr, bool *tasks)
{
	unsigned int i;
	int ret = 0, err;

	lockdep_assert_held(&ftrace_lock);
	*nr = 0;
	*tasks = false;
	for (i = 0; i < n; i++) {
		if (!(ops[i]->flags & FTRACE_OPS_FL_ENABLED)) {
			ret = -EBUSY;
			continue;
		}
		swap(ops[i], ops[*nr]);
		ops_detach(ops[*nr]);
		*tasks |= ops_needs_tasks_rcu(ops[*nr]);
		/*
		 * Parked before the update, for the same reason as in
		 * ftrace_tramp_prepare(); a kept trampoline stays parked.
		 * Even once ftrace is dead: sites that still call the
		 * trampoline must not reach an ops that its owner may free.
		 */
		ftrace_tramp_park(ops[*nr]);
		(*nr)++;
	}
	if (!*nr)
		return ret;
	err = ftrace_run_update(command | FTRACE_UPDATE_CALLS);
	return err ?: ret;
}

/*
 * shutdown_end - the second half, once ops_quiesce() has waited: the @n
 * ops that shutdown_begin() unlinked give up their trampolines (@bury:
 * the wait did not include tasks).  Called with ftrace_lock held.
 */
static void shutdown_end(struct ftrace_ops **ops, unsigned int n, bool bury)
{
	unsigned int i;

	lockdep_assert_held(&ftrace_lock);
	/*
	 * Trampolines leave ftrace_tramp_list once the waits are over (a
	 * task may be inside one until then; with @bury, not waited for,
	 * they are handed to stand-ins); readers of the list run with
	 * preemption off and may hold an ops they found there, so one more
	 * wait for every CPU to schedule comes before owners may free them.
	 */
	if (ftrace_tramp_unlist(ops, n, bury))
		ops_quiesce(false);
	for (i = 0; i < n; i++)
		ops_finish(ops[i]);
}

/**
 * ftrace_shutdown_batch - unregister several ops with one update and one wait
 * @ops: the ops; those not registered are skipped (the array is reordered)
 * @n: how many
 * @command: extra FTRACE_* commands for the update
 *
 * Called with ftrace_lock held, which it keeps throughout, waits
 * included (between ftrace_leave_begin() and ftrace_leave_end(), and
 * between ftrace_unregister_begin() and _end(), the waits run without
 * it).  The code is updated once and the grace periods are waited for
 * once, however many ops go.  When it returns, no ops of @ops
 * is called any more (but see unregister_ftrace_function() for a static
 * ops with a trampoline).  Even when ftrace is dead (and the code cannot
 * be updated) the ops leave the list.
 *
 * Return: 0, -EBUSY if one of them was not registered, or the update's
 * error.
 */
int ftrace_shutdown_batch(struct ftrace_ops **ops, unsigned int n, int command)
{
	unsigned int nr;
	bool tasks;
	int ret;

	ret = shutdown_begin(ops, n, command, &nr, &tasks);
	if (nr) {
		ops_quiesce(tasks);
		shutdown_end(ops, nr, false);
	}
	return ret;
}

/**
 * ftrace_leave_begin - the first half of unregistering several ops
 * @l: receives what ftrace_leave_wait() and ftrace_leave_end() need
 * @ops: the ops; those not registered are skipped (the array is reordered
 *       and must live until ftrace_leave_end())
 * @n: how many
 *
 * Called with ftrace_lock held: unlinks the ops, parks their trampolines
 * and updates the code once.  The caller then drops ftrace_lock, calls
 * ftrace_leave_wait(), takes ftrace_lock again and calls
 * ftrace_leave_end().  Meanwhile the unlinked ops are neither registered
 * nor free to register again (-EBUSY), and other ops come and go.
 *
 * Return: 0, -EBUSY if one of them was not registered, or the update's
 * error (the ops have left the list all the same).
 */
int ftrace_leave_begin(struct ftrace_leaving *l, struct ftrace_ops **ops,
		       unsigned int n)
{
	lockdep_assert_held(&ftrace_lock);
	l->ops = ops;
	return shutdown_begin(ops, n, 0, &l->unlinked, &l->tasks);
}

/**
 * ftrace_leave_wait - wait until no task can be in the ops that left
 * @l: what ftrace_leave_begin() filled in
 *
 * Called without ftrace_lock: a task that stays preempted holds up this
 * unregistration, not every other registration.
 */
void ftrace_leave_wait(struct ftrace_leaving *l)
{
	lockdep_assert_not_held(&ftrace_lock);
	if (l->unlinked)
		ops_quiesce(l->tasks);
}

/**
 * ftrace_leave_end - the second half of unregistering several ops
 * @l: what ftrace_leave_begin() filled in, after ftrace_leave_wait()
 *
 * Called with ftrace_lock held.  The ops that left give up their
 * trampolines, and are free to register again or to be freed.
 */
void ftrace_leave_end(struct ftrace_leaving *l)
{
	lockdep_assert_held(&ftrace_lock);
	if (l->unlinked)
		shutdown_end(l->ops, l->unlinked, false);
}

/**
 * ftrace_unregister_begin - unlink an ops and update the code, without waiting
 * @l: receives what ftrace_unregister_end() needs
 * @ops: a registered ops
 *
 * Takes ftrace_lock.  Until ftrace_unregister_end() returns, @ops is
 * neither registered nor free to register again (-EBUSY) or to free (a
 * second unregistration fails with -EBUSY once the first has ended); other
 * ops register and unregister meanwhile.  The caller may hold
 * ftrace_direct_mutex, but must drop it before ftrace_unregister_end().
 *
 * Return: as ftrace_shutdown(); -EBUSY (and nothing done) if @ops was
 * not registered.
 */
int ftrace_unregister_begin(struct ftrace_leaving *l, struct ftrace_ops *ops)
{
	l->one = ops;
	guard(mutex)(&ftrace_lock);
	return ftrace_leave_begin(l, &l->one, 1);
}

/**
 * ftrace_unregister_end - wait until no task can be in the ops, then finish
 * @l: what ftrace_unregister_begin() filled in
 *
 * The waits (for every CPU to schedule; for an ops that may be freed, for
 * every preempted task to run on) hold no lock of the core.  If
 * ftrace_unregister_begin() did not unlink the ops, only waits until no
 * other call is unregistering it.
 */
void ftrace_unregister_end(struct ftrace_leaving *l)
{
	/*
	 * Another call is unregistering the ops: as when that call held
	 * the lock throughout, this one returns once the ops is quiet.
	 */
	if (!l->unlinked) {
		wait_var_event(&l->one->flags,
			       !(READ_ONCE(l->one->flags) & FTRACE_OPS_FL_REMOVING));
		return;
	}
	ftrace_leave_wait(l);
	guard(mutex)(&ftrace_lock);
	ftrace_leave_end(l);
}

/**
 * ftrace_ops_quiesce - wait until no CPU runs @ops for a function it dropped
 * @ops: an ops whose hash just shrank
 *
 * Takes no lock: called with or without ftrace_lock.
 */
void ftrace_ops_quiesce(struct ftrace_ops *ops)
{
	ops_quiesce(ops_needs_tasks_rcu(ops));
}

/**
 * ftrace_tasks_quiesce - wait until no task can be inside code a site called
 *
 * For code the core does not own and a static ops does not cover: a
 * direct call's target, which its owner may free next (a module's
 * trampoline at rmmod).  A task may be preempted inside it.
 */
void ftrace_tasks_quiesce(void)
{
	ops_quiesce(true);
}

#ifdef CONFIG_DYNAMIC_FTRACE
/**
 * ftrace_startup - add @ops to the list and patch the sites it wants
 * @ops: an initialised ops that is not registered
 * @command: extra FTRACE_* commands (fgraph passes FTRACE_START_FUNC_RET)
 *
 * Called with ftrace_lock held.
 *
 * Return: 0, -ENODEV once ftrace is dead, -EBUSY if @ops is registered
 * already, -EINVAL for flags the arch cannot honour, or the error of the
 * update (the ops is then not registered).
 */
int ftrace_startup(struct ftrace_ops *ops, int command)
{
	return ops_startup(ops, command);
}

/**
 * ftrace_shutdown - remove @ops from the list and unpatch what it alone used
 * @ops: a registered ops
 * @command: extra FTRACE_* commands (fgraph passes FTRACE_STOP_FUNC_RET)
 *
 * Called with ftrace_lock held.  When it returns, @ops is not called any
 * more and, if it is dynamic, may be freed.
 *
 * Return: 0, -EBUSY if @ops is not registered, or the update's error.
 */
int ftrace_shutdown(struct ftrace_ops *ops, int command)
{
	return ftrace_shutdown_batch(&ops, 1, command);
}

/**
 * ftrace_shutdown_text_gone - ftrace_shutdown() for an ops whose text went
 * @ops: a registered ops, every function of which is in text going away
 *
 * As ftrace_shutdown(), without the wait for tasks, for function probes,
 * whose functions leave under ftrace_lock when their text does (a module
 * after its exit, init text after its init).  A task may still be
 * preempted in the ops' trampoline: come from that text (the module
 * loader waits for the module's async work only afterwards), or from a
 * function the probe's owner took out just before, whose own wait for
 * tasks has not ended yet.  The trampoline goes to a stand-in and is
 * freed after a grace period of its own (as for FTRACE_OPS_FL_OWNER_WAITS);
 * the ops stays until that removal's wait is over (probe_lock keeps any
 * other change to the probe out until then).  The wait for every CPU
 * remains, for one in the list function that found the ops.  Called with
 * ftrace_lock held.
 *
 * Return: as ftrace_shutdown().
 */
int ftrace_shutdown_text_gone(struct ftrace_ops *ops)
{
	unsigned int nr;
	bool tasks;
	int ret;

	ret = shutdown_begin(&ops, 1, 0, &nr, &tasks);
	if (nr) {
		ops_quiesce(false);
		shutdown_end(&ops, nr, true);
	}
	return ret;
}
#else
/*
 * Without dynamic ftrace, ftrace_startup() and ftrace_shutdown() are
 * macros of ftrace_internal.h around these two, with the same meaning.
 */
int __register_ftrace_function(struct ftrace_ops *ops)
{
	return ops_startup(ops, 0);
}

int __unregister_ftrace_function(struct ftrace_ops *ops)
{
	return ftrace_shutdown_batch(&ops, 1, 0);
}
#endif

#ifdef CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS
/* Direct-call targets, and who shares a function with a direct ops. */
DEFINE_MUTEX(ftrace_direct_mutex);

/**
 * ftrace_ops_on - the first registered ops with one of @flags that wants @ip
 * @ip: a call-site address
 * @flags: FTRACE_OPS_FL_* flags
 *
 * Called with ftrace_lock held.
 *
 * Return: the ops, or NULL.
 */
struct ftrace_ops *ftrace_ops_on(unsigned long ip, unsigned long flags)
{
	struct ftrace_ops *op;

	lockdep_assert_held(&ftrace_lock);
	for_each_ftrace_ops(op)
		if ((op->flags & flags) && (op->flags & FTRACE_OPS_FL_ENABLED) &&
		    ftrace_ops_wants(op, ip))
			return op;
	return NULL;
}

/*
 * Tell the owner of each direct ops on a function of IP mover @ops about
 * it (@cmd: PEER or DISABLE_PEER).  Return: the first error, for PEER.
 */
static int tell_peers(struct ftrace_ops *ops, enum ftrace_ops_cmd cmd)
{
	struct ftrace_ops *op, *last = NULL;
	struct ftrace_func_entry *e;
	struct ftrace_hash *ips;
	unsigned long i;
	int ret;

	lockdep_assert_held(&ftrace_direct_mutex);
	ips = rcu_dereference_raw(ops->func_hash->filter_hash);
	if (ftrace_hash_empty(ips))
		return 0;
	for_each_hash_entry(ips, i, e) {
		scoped_guard(mutex, &ftrace_lock) {
			op = ftrace_ops_on(e->ip, FTRACE_OPS_FL_DIRECT);
			/*
			 * Another IP mover may have come to this function
			 * while @ops waited to leave: the direct ops still
			 * shares it.
			 */
			if (op && cmd == FTRACE_OPS_CMD_DISABLE_SHARE_IPMODIFY_PEER &&
			    ftrace_ops_on(e->ip, FTRACE_OPS_FL_IPMODIFY))
				op = NULL;
		}
		if (!op || op == last)
			continue;
		last = op;
		if (cmd == FTRACE_OPS_CMD_DISABLE_SHARE_IPMODIFY_PEER) {
			if (op->ops_func)
				op->ops_func(op, cmd);
			continue;
		}
		if (!op->ops_func)
			return -EBUSY;
		ret = op->ops_func(op, cmd);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Register IP mover @ops (unregistered, FTRACE_OPS_FL_IPMODIFY), telling
 * direct peers first.  Return: 0, or the error of a peer's ops_func or of
 * registering @ops.
 */
static int register_ipmodify(struct ftrace_ops *ops)
{
	int ret;

	guard(mutex)(&ftrace_direct_mutex);
	ret = tell_peers(ops, FTRACE_OPS_CMD_ENABLE_SHARE_IPMODIFY_PEER);
	if (ret)
		return ret;
	guard(mutex)(&ftrace_lock);
	return ftrace_startup(ops, 0);
}

/* IP mover @ops was unregistered: tell its direct peers. */
static void ipmodify_gone(struct ftrace_ops *ops)
{
	guard(mutex)(&ftrace_direct_mutex);
	tell_peers(ops, FTRACE_OPS_CMD_DISABLE_SHARE_IPMODIFY_PEER);
}
#else
static int register_ipmodify(struct ftrace_ops *ops)
{
	return -EINVAL;
}

static void ipmodify_gone(struct ftrace_ops *ops)
{
}
#endif /* CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS */

/* Must registering @ops tell direct ops on its functions? */
static bool ipmodify_shares(struct ftrace_ops *ops)
{
	return IS_ENABLED(CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS) &&
	       (ops->flags & FTRACE_OPS_FL_IPMODIFY);
}

/**
 * register_ftrace_function - start calling @ops for the functions it wants
 * @ops: the ops; its hashes select the functions (empty filter: all)
 *
 * Return: 0, or a negative error (see ftrace_startup()).
 */
int register_ftrace_function(struct ftrace_ops *ops)
{
	u64 t = local_clock();
	int ret;

	ftrace_ops_init(ops);
	/* Direct ops on its functions are told first (see below). */
	if (ipmodify_shares(ops)) {
		ret = register_ipmodify(ops);
	} else {
		scoped_guard(mutex, &ftrace_lock)
			ret = ftrace_startup(ops, 0);
	}
	ftrace_note_register_time(local_clock() - t);
	return ret;
}
EXPORT_SYMBOL_GPL(register_ftrace_function);

/**
 * unregister_ftrace_function - stop calling @ops
 * @ops: a registered ops
 *
 * When this returns, no CPU is about to enter @ops->func, and none is in
 * it with preemption disabled.  A dynamic ops (one that may be freed) is
 * not in use at all, but for an FTRACE_OPS_FL_OWNER_WAITS ops, whose
 * owner keeps it, its function and a direct call's target alive past a
 * wait for tasks of its own: a task preempted in its trampoline may still
 * call it.  A static ops that kept its trampoline does not wait
 * for preempted tasks (as 6.1 does not): a task preempted at the very
 * start of @ops->func, before it disables preemption, may still finish
 * that one call.
 *
 * Return: 0, or a negative error (see ftrace_shutdown()).
 */
int unregister_ftrace_function(struct ftrace_ops *ops)
{
	struct ftrace_leaving l;
	u64 t = local_clock();
	int ret;

	ret = ftrace_unregister_begin(&l, ops);
	ftrace_unregister_end(&l);
	/* Even a failed update took it off the list. */
	if (l.unlinked && ipmodify_shares(ops))
		ipmodify_gone(ops);
	ftrace_note_register_time(local_clock() - t);
	return ret;
}
EXPORT_SYMBOL_GPL(unregister_ftrace_function);

/* Is a registered ops exempt from ftrace_enabled=0? */
static bool permanent_ops_registered(void)
{
	struct ftrace_ops *op;

	for_each_ftrace_ops(op)
		if (op->flags & FTRACE_OPS_FL_PERMANENT)
			return true;
	return false;
}

/*
 * /proc/sys/kernel/ftrace_enabled: 0 turns every call site off except
 * those of permanent ops (refused while one is registered, as in 6.1);
 * any other number turns them back on.  The number is kept as written
 * (2 reads back 2, as in 6.1); only whether it is 0 matters.  Reading
 * or writing it once ftrace is dead fails with -ENODEV, as in 6.1.
 */
static int ftrace_enabled_sysctl(ftrace_ctl_const struct ctl_table *table,
				 int write, void *buffer, size_t *lenp,
				 loff_t *ppos)
{
	int want, was, ret;
	struct ctl_table t = *table;

	/*
	 * Under ftrace_lock throughout, as in 6.1: a write that
	 * proc_dointvec() ignores (a second write() at an offset) leaves
	 * @want as read, which must still be the current value.  Once
	 * ftrace is dead the file is gone in all but name.
	 */
	guard(mutex)(&ftrace_lock);
	if (ftrace_dead)
		return -ENODEV;
	want = ftrace_enabled;
	t.data = &want;
	ret = proc_dointvec(&t, write, buffer, lenp, ppos);
	if (ret || !write)
		return ret;
	was = ftrace_enabled;
	if (!want == !was) {
		ftrace_enabled = want;
		return 0;
	}
	/* 6.1 reads back 1 after this refusal, whatever number was there. */
	if (!want && permanent_ops_registered()) {
		ftrace_enabled = 1;
		return -EBUSY;
	}
	ftrace_enabled = want;
	ret = ftrace_run_update(FTRACE_UPDATE_CALLS);
	if (ret)
		ftrace_enabled = was;
	return ret;
}

static struct ctl_table ftrace_sysctls[] = {
	{ .procname = "ftrace_enabled", .data = &ftrace_enabled,
	  .maxlen = sizeof(int), .mode = 0644,
	  .proc_handler = ftrace_enabled_sysctl },
	{ }
};

/* The sysctl exists once the core has its records (or has given up). */
static int __init ftrace_sysctl_init(void)
{
	return ftrace_register_sysctl("kernel", ftrace_sysctls,
				      ARRAY_SIZE(ftrace_sysctls)) ? 0 : -ENOMEM;
}
late_initcall(ftrace_sysctl_init);
