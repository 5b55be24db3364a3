// SPDX-License-Identifier: GPL-2.0
/*
 * ftrace_ops: who wants which functions, and how a call site reaches them.
 *
 * Registered ops sit on ftrace_ops_list, a singly linked RCU list that ends
 * in ftrace_list_end (fgraph walks it with do_for_each_ftrace_op()).  A call
 * site that is enabled calls one of three things (ftrace_update.c decides
 * per site):
 *
 *   - the ops' own trampoline, when one ops alone wants the site and the
 *     arch gave that ops a trampoline;
 *   - otherwise the arch caller, which calls ftrace_trace_function: the
 *     single registered ops directly when there is exactly one, or
 *   - the list function, which tests every ops' hashes.
 *
 * Unregistering unlinks the ops, repatches, then waits until no CPU can
 * still be running code that loaded the ops (see ops_quiesce()).
 *
 * Without CONFIG_DYNAMIC_FTRACE every traced function calls the arch's
 * mcount/fentry handler, which calls ftrace_trace_function whenever it is
 * not the stub; ops have no hashes and see every function.  The same list
 * and list function serve; ftrace_run_update() then only switches
 * ftrace_trace_function (see the end of this file).
 */
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/perf_event.h>
#include <asm/sections.h>
#include <linux/slab.h>
#include <linux/sysctl.h>
#include <linux/trace_recursion.h>
#include <linux/workqueue.h>

#include "ftrace_core.h"

/* The one lock of the core: records, ops, hashes and code updates. */
DEFINE_MUTEX(ftrace_lock);

struct ftrace_ops ftrace_list_end __read_mostly = {
	.func		= ftrace_stub,
	.flags		= FTRACE_OPS_FL_STUB,
};

struct ftrace_ops __rcu *ftrace_ops_list __read_mostly =
	RCU_INITIALIZER(&ftrace_list_end);
struct ftrace_ops *function_trace_op __read_mostly = &ftrace_list_end;
ftrace_func_t ftrace_trace_function __read_mostly = ftrace_stub;
/* Dynamic ftrace turns this on once the call sites are NOPs (ftrace_init()). */
int ftrace_enabled __read_mostly = !IS_ENABLED(CONFIG_DYNAMIC_FTRACE);
bool ftrace_dead;

struct ftrace_ops global_ops = {
	.func		= ftrace_stub,
#ifdef CONFIG_DYNAMIC_FTRACE
	.local_hash.notrace_hash = RCU_INITIALIZER(&ftrace_empty_hash),
	.local_hash.filter_hash = RCU_INITIALIZER(&ftrace_empty_hash),
	.local_hash.regex_lock = __MUTEX_INITIALIZER(global_ops.local_hash.regex_lock),
	.func_hash	= &global_ops.local_hash,
#endif
	.flags		= FTRACE_OPS_FL_INITIALIZED | FTRACE_OPS_FL_PID,
};

#ifdef CONFIG_DYNAMIC_FTRACE
static __always_inline struct ftrace_hash *ops_hash(struct ftrace_ops *ops, bool nt)
{
	struct ftrace_ops_hash *h = ops->func_hash;

	if (!h)
		return NULL;
	return nt ? rcu_dereference_raw(h->notrace_hash) :
			 rcu_dereference_raw(h->filter_hash);
}

/* The hot path of the list function: empty hashes cost no lookup. */
static __always_inline bool ops_match(struct ftrace_ops *ops, unsigned long ip)
{
	struct ftrace_hash *filter = ops_hash(ops, false);
	struct ftrace_hash *skip = ops_hash(ops, true);

	if (!ftrace_hash_empty(filter) && !ftrace_lookup_ip(filter, ip))
		return false;
	return ftrace_hash_empty(skip) || !ftrace_lookup_ip(skip, ip);
}
#else
/* Without dynamic ftrace an ops has no hashes: it wants every function. */
static __always_inline bool ops_match(struct ftrace_ops *ops, unsigned long ip)
{
	return true;
}
#endif

/*
 * Should the list function call @op for @ip?  Stubs never; RCU-only ops
 * not where RCU is not watching; register-saving ops not from a site that
 * saved none; the rest when their hashes select @ip.
 */
static __always_inline bool ops_call_here(struct ftrace_ops *op,
					  unsigned long ip, bool have_regs)
{
	unsigned long f = op->flags;

	if (f & FTRACE_OPS_FL_STUB)
		return false;
	if (!have_regs && (f & FTRACE_OPS_FL_SAVE_REGS))
		return false;
	if (unlikely(f & FTRACE_OPS_FL_RCU) && !rcu_is_watching())
		return false;
	return ops_match(op, ip);
}

/* ops_list_walk - call every registered ops that wants @ip. */
static __always_inline void ops_list_walk(unsigned long ip,
					  unsigned long parent_ip,
					  struct ftrace_regs *fregs)
{
	bool have_regs = ftrace_get_regs(fregs);
	struct ftrace_ops *op;
	int bit;

	/* Also disables preemption: see ops_quiesce(). */
	bit = trace_test_and_set_recursion(ip, parent_ip, TRACE_LIST_START);
	if (bit < 0)
		return;
	for (op = rcu_dereference_raw(ftrace_ops_list); op != &ftrace_list_end;
	     op = rcu_dereference_raw(op->next)) {
		ftrace_func_t func;

		if (!ops_call_here(op, ip, have_regs))
			continue;
		/*
		 * The owner of a BPF trampoline clears ->func of its
		 * registered ops for a moment when ops_func asks it to
		 * rebuild (kernel/bpf/trampoline.c); skip it meanwhile.
		 */
		func = READ_ONCE(op->func);
		if (likely(func))
			func(ip, parent_ip, op, fregs);
	}
	trace_clear_recursion(bit);
}

/*
 * The list function.  The linker script names it ftrace_ops_list_func too;
 * its arguments depend on whether the arch passes the ops and registers.
 */
#if ARCH_SUPPORTS_FTRACE_OPS
void arch_ftrace_ops_list_func(unsigned long ip, unsigned long parent_ip,
			       struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	ops_list_walk(ip, parent_ip, fregs);
}
#else
void arch_ftrace_ops_list_func(unsigned long ip, unsigned long parent_ip)
{
	ops_list_walk(ip, parent_ip, NULL);
}
#endif

/* Wrapper for ops that asked the core for recursion or RCU protection. */
static void ops_assist_func(unsigned long ip, unsigned long parent_ip,
			    struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	int bit = ftrace_test_recursion_trylock(ip, parent_ip);

	if (bit < 0)
		return;
	if (!(op->flags & FTRACE_OPS_FL_RCU) || rcu_is_watching())
		op->func(ip, parent_ip, op, fregs);
	ftrace_test_recursion_unlock(bit);
}

/**
 * ftrace_ops_get_func - the function a trampoline for @ops must call
 * @ops: the ops
 *
 * Return: @ops->func, or a wrapper adding the recursion and RCU checks the
 * ops asked for (FTRACE_OPS_FL_RECURSION, FTRACE_OPS_FL_RCU).
 */
ftrace_func_t ftrace_ops_get_func(struct ftrace_ops *ops)
{
	if (ops->flags & (FTRACE_OPS_FL_RECURSION | FTRACE_OPS_FL_RCU))
		return ops_assist_func;
	return ops->func;
}

#ifdef CONFIG_DYNAMIC_FTRACE
/**
 * ftrace_ops_wants - do @ops' filter and notrace hashes select @ip?
 * @ops: the ops
 * @ip: a call-site address
 *
 * Return: true if @ip passes the filter (empty means all) and is not in
 * the notrace hash.
 */
bool ftrace_ops_wants(struct ftrace_ops *ops, unsigned long ip)
{
	return ops_match(ops, ip);
}

/**
 * ftrace_ops_wants_all - does @ops want every function?
 * @ops: the ops
 *
 * Return: true if both its hashes are empty, so that ftrace_ops_wants()
 * is true for every address.
 */
bool ftrace_ops_wants_all(struct ftrace_ops *ops)
{
	return ftrace_hash_empty(ops_hash(ops, false)) &&
	       ftrace_hash_empty(ops_hash(ops, true));
}

/**
 * ftrace_ops_test - should the list function call @ops for @ip?
 * @ops: the ops
 * @ip: the call-site address
 * @regs: the saved registers, NULL when the site did not save them
 *
 * Return: 1 if @ops wants @ip (and gets the registers it needs), else 0.
 */
int ftrace_ops_test(struct ftrace_ops *ops, unsigned long ip, void *regs)
{
	if (!regs && (ops->flags & FTRACE_OPS_FL_SAVE_REGS))
		return 0;
	return ops_match(ops, ip);
}
#endif

/*
 * An ops is active when it is registered and ftrace_enabled (or the ops is
 * permanent).  A stub ops (fgraph's, on arches where the graph caller is
 * patched separately) is active too: its sites must call the arch caller,
 * even though the list function never calls the stub.
 */
bool ftrace_ops_active(struct ftrace_ops *ops)
{
	return (ops->flags & FTRACE_OPS_FL_ENABLED) &&
	       (ftrace_enabled || (ops->flags & FTRACE_OPS_FL_PERMANENT));
}

/**
 * ftrace_ops_init_hashes - first-use set-up of an ops, with its hashes
 * @ops: the ops; one that is initialised already is left as it is
 * @hashes: where its filter and notrace hashes live (its own, or shared)
 */
#ifdef CONFIG_DYNAMIC_FTRACE
void ftrace_ops_init_hashes(struct ftrace_ops *ops,
			    struct ftrace_ops_hash *hashes)
{
	if (!(ops->flags & FTRACE_OPS_FL_INITIALIZED)) {
		mutex_init(&ops->local_hash.regex_lock);
		ops->func_hash = hashes;
		ops->flags |= FTRACE_OPS_FL_INITIALIZED;
	}
}

/**
 * ftrace_ops_init - first-use set-up of an ops with hashes of its own
 * @ops: the ops; static ops may come initialised already
 */
void ftrace_ops_init(struct ftrace_ops *ops)
{
	ftrace_ops_init_hashes(ops, &ops->local_hash);
}
#else
void ftrace_ops_init(struct ftrace_ops *ops)
{
	ops->flags |= FTRACE_OPS_FL_INITIALIZED;
}
#endif

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

/*
 * ftrace_update_func - choose what the arch caller calls.
 *
 * One active static ops is called directly, with function_trace_op
 * pointing at it, when the arch passes the ops to the callee; anything
 * else goes through the list function.  Only computes the choice; ftrace_run_update()
 * switches the code over in a safe order.
 */
static struct ftrace_ops *wanted_op;
static ftrace_func_t wanted_func = ftrace_stub;

void ftrace_update_func(void)
{
	struct ftrace_ops *op, *only = NULL;
	int n = 0;

	for_each_ftrace_ops(op) {
		if (!ftrace_ops_active(op))
			continue;
		only = op;
		n++;
	}
	/*
	 * Where the graph caller is patched in separately (arm64 -pg), it
	 * runs for every enabled site: fgraph must then test its filter.
	 */
	update_function_graph_func();
	wanted_op = &ftrace_list_end;
	if (!n) {
		wanted_func = ftrace_stub;
	} else if (n == 1 && ARCH_SUPPORTS_FTRACE_OPS &&
		   !(only->flags & (FTRACE_OPS_FL_RCU | FTRACE_OPS_FL_DYNAMIC))) {
		/*
		 * Only a static ops is called directly: function_trace_op
		 * keeps pointing at the last one called so until another is,
		 * and a task preempted in the arch caller may still pass it.
		 */
		wanted_func = ftrace_ops_get_func(only);
		wanted_op = only;
	} else {
		wanted_func = ftrace_ops_list_func;
	}
	/* Dynamic ftrace patches the choice in; see ftrace_run_update(). */
	if (IS_ENABLED(CONFIG_DYNAMIC_FTRACE))
		ftrace_trace_function = wanted_func;
}

/* The ops ftrace_trace_function expects as its third argument. */
struct ftrace_ops *ftrace_wanted_op(void)
{
	return wanted_op;
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
	if (ops->flags & (FTRACE_OPS_FL_ENABLED | FTRACE_OPS_FL_DELETED))
		return -EBUSY;
	/* A permanent ops must run: refused while ftrace_enabled is off. */
	if ((ops->flags & FTRACE_OPS_FL_PERMANENT) && !ftrace_enabled)
		return -EBUSY;
	ftrace_ops_init(ops);
#ifdef CONFIG_DYNAMIC_FTRACE
	/* An ops that moves the IP must say where: an empty filter is "all". */
	if ((ops->flags & FTRACE_OPS_FL_IPMODIFY) &&
	    ftrace_hash_empty(ops_hash(ops, false)))
		return -EINVAL;
#endif
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

#ifdef CONFIG_DYNAMIC_FTRACE
/*
 * After the back end was asked for a trampoline: an ops that now has one
 * the back end made joins ftrace_tramp_list, unless it was on it already
 * (@listed: FTRACE_OPS_FL_ALLOC_TRAMP was set before; the back end may
 * have made it a new trampoline, or failed to).  perf learns of a new
 * trampoline as it learns of other out-of-line kernel code: a ksymbol
 * record, then a text poke record with its bytes.
 */
static void tramp_announce(struct ftrace_ops *ops, unsigned long before,
			   bool listed)
{
	if (!ops->trampoline || ops->trampoline == before ||
	    !(ops->flags & FTRACE_OPS_FL_ALLOC_TRAMP))
		return;
	if (!listed)
		list_add_rcu(&ops->list, &ftrace_tramp_list);
	perf_event_ksymbol(PERF_RECORD_KSYMBOL_TYPE_OOL, ops->trampoline,
			   ops->trampoline_size, false, FTRACE_TRAMPOLINE_SYM);
	perf_event_text_poke((void *)ops->trampoline, NULL, 0,
			     (void *)ops->trampoline, ops->trampoline_size);
}

/**
 * ftrace_tramp_update - make or update @ops' own trampoline
 * @ops: the ops
 *
 * Called with ftrace_lock held.
 *
 * Return: 0, or the back end's error when the trampoline @ops has could
 * not be pointed at its function.
 */
int ftrace_tramp_update(struct ftrace_ops *ops)
{
	unsigned long before = ops->trampoline;
	bool listed = ops->flags & FTRACE_OPS_FL_ALLOC_TRAMP;
	int ret = ftrace_arch_tramp_update(ops);

	tramp_announce(ops, before, listed);
	return ret;
}

/*
 * While the update that registers @ops points sites at its trampoline,
 * the trampoline stays parked (calls nothing): see
 * ftrace_arch_tramp_prepare().
 */
static void tramp_prepare(struct ftrace_ops *ops)
{
	unsigned long before = ops->trampoline;
	bool listed = ops->flags & FTRACE_OPS_FL_ALLOC_TRAMP;

	ftrace_arch_tramp_prepare(ops);
	tramp_announce(ops, before, listed);
}

/* Free @ops' trampoline; perf hears of it first. */
static void tramp_free(struct ftrace_ops *ops)
{
	if (ops->trampoline) {
		perf_event_text_poke((void *)ops->trampoline,
				     (void *)ops->trampoline,
				     ops->trampoline_size, NULL, 0);
		perf_event_ksymbol(PERF_RECORD_KSYMBOL_TYPE_OOL,
				   ops->trampoline, ops->trampoline_size, true,
				   FTRACE_TRAMPOLINE_SYM);
	}
	ftrace_arch_tramp_free(ops);
}

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
	int ret = ops_admit(ops);

	if (ret)
		return ret;
	ops->flags |= FTRACE_OPS_FL_ADDING;
	tramp_prepare(ops);
	ret = ftrace_run_update(command | FTRACE_UPDATE_CALLS);
	ops->flags &= ~FTRACE_OPS_FL_ADDING;
	/*
	 * Even with ftrace_enabled off: a parked trampoline must leave its
	 * park before a later ftrace_enabled=1 points sites at it.
	 */
	if (!ret)
		ret = ftrace_tramp_update(ops);
	if (ret) {
		ftrace_shutdown(ops, 0);
		return ret;
	}
	return 0;
}
#endif

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
 * that may be freed (DYNAMIC), whose trampoline is freed with it.  A
 * static ops keeps its trampoline, parked (ftrace_arch_tramp_park()), so a
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

static bool ops_needs_tasks_rcu(struct ftrace_ops *ops)
{
	return ops->flags & FTRACE_OPS_FL_DYNAMIC;
}

#ifdef CONFIG_DYNAMIC_FTRACE
/*
 * A dynamic ops' trampoline goes when the ops does.  While
 * FTRACE_OPS_FL_ALLOC_TRAMP is set, the ops is on ftrace_tramp_list.
 */
static bool ops_frees_tramp(struct ftrace_ops *ops)
{
	return (ops->flags & FTRACE_OPS_FL_ALLOC_TRAMP) &&
	       (ops->flags & FTRACE_OPS_FL_DYNAMIC);
}

/*
 * Take such an ops off ftrace_tramp_list before the wait that comes before
 * its trampoline is freed: no reader of the list is then still on the ops
 * when its owner frees it.
 */
static void tramp_unlist(struct ftrace_ops *ops)
{
	if (ops_frees_tramp(ops))
		list_del_rcu(&ops->list);
}
#endif

static void ops_detach(struct ftrace_ops *ops)
{
	list_remove(ops);
	ops->flags |= FTRACE_OPS_FL_REMOVING;
	ops->flags &= ~FTRACE_OPS_FL_ENABLED;
}

static void ops_finish(struct ftrace_ops *ops)
{
#ifdef CONFIG_DYNAMIC_FTRACE
	if (ops_frees_tramp(ops)) {
		/* After a failed update a site may still call the trampoline. */
		if (!ftrace_dead)
			tramp_free(ops);
		ops->flags &= ~FTRACE_OPS_FL_ALLOC_TRAMP;
	}
#endif
	ops->flags &= ~FTRACE_OPS_FL_REMOVING;
	if ((ops->flags & FTRACE_OPS_FL_PID) && ops->saved_func)
		ops->func = ops->saved_func;
}

#ifdef CONFIG_DYNAMIC_FTRACE
/**
 * ftrace_shutdown_batch - unregister several ops with one update and one wait
 * @ops: the ops; those not registered are skipped
 * @n: how many
 * @command: extra FTRACE_* commands for the update
 *
 * Called with ftrace_lock held.  The code is updated once and the grace
 * periods are waited for once, however many ops go.  When it returns, no
 * ops of @ops is called any more (but see unregister_ftrace_function() for
 * a static ops with a trampoline).  Even when ftrace is dead (and the code
 * cannot be updated) the ops leave the list.
 *
 * Return: 0, -EBUSY if one of them was not registered, or the update's
 * error.
 */
int ftrace_shutdown_batch(struct ftrace_ops **ops, unsigned int n, int command)
{
	bool tasks = false;
	unsigned int i;
	int ret = 0, err;

	lockdep_assert_held(&ftrace_lock);
	for (i = 0; i < n; i++) {
		if (!(ops[i]->flags & FTRACE_OPS_FL_ENABLED)) {
			ret = -EBUSY;
			continue;
		}
		ops_detach(ops[i]);
		tasks |= ops_needs_tasks_rcu(ops[i]);
		/*
		 * Parked before the update, for the same reason as in
		 * tramp_prepare(); a kept trampoline stays parked.  Even once
		 * ftrace is dead: sites that still call the trampoline must
		 * not reach an ops that its owner may free.
		 */
		if (ops[i]->flags & FTRACE_OPS_FL_ALLOC_TRAMP)
			ftrace_arch_tramp_park(ops[i]);
	}
	err = ftrace_run_update(command | FTRACE_UPDATE_CALLS);
	for (i = 0; i < n; i++)
		if (ops[i]->flags & FTRACE_OPS_FL_REMOVING)
			tramp_unlist(ops[i]);
	ops_quiesce(tasks);
	for (i = 0; i < n; i++)
		if (ops[i]->flags & FTRACE_OPS_FL_REMOVING)
			ops_finish(ops[i]);
	return err ?: ret;
}

/**
 * ftrace_ops_quiesce - wait until no CPU runs @ops for a function it dropped
 * @ops: a registered ops whose hash just shrank
 */
void ftrace_ops_quiesce(struct ftrace_ops *ops)
{
	ops_quiesce(ops_needs_tasks_rcu(ops));
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
#else
/*
 * Without dynamic ftrace, ftrace_startup() and ftrace_shutdown() are macros
 * of ftrace_internal.h around these two (called with ftrace_lock held).
 */
int __register_ftrace_function(struct ftrace_ops *ops)
{
	int ret = ops_admit(ops);

	if (!ret)
		ftrace_run_update(0);
	return ret;
}

int __unregister_ftrace_function(struct ftrace_ops *ops)
{
	lockdep_assert_held(&ftrace_lock);
	if (!(ops->flags & FTRACE_OPS_FL_ENABLED))
		return -EBUSY;
	ops_detach(ops);
	ftrace_run_update(0);
	ops_quiesce(ops_needs_tasks_rcu(ops));
	ops_finish(ops);
	return 0;
}
#endif

/**
 * register_ftrace_function - start calling @ops for the functions it wants
 * @ops: the ops; its hashes select the functions (empty filter: all)
 *
 * Return: 0, or a negative error (see ftrace_startup()).
 */
int register_ftrace_function(struct ftrace_ops *ops)
{
	ftrace_ops_init(ops);
	/* Direct ops on its functions are told first (ftrace_direct.c). */
	if (ftrace_ipmodify_shares(ops))
		return ftrace_register_ipmodify(ops);
	guard(mutex)(&ftrace_lock);
	return ftrace_startup(ops, 0);
}
EXPORT_SYMBOL_GPL(register_ftrace_function);

/**
 * unregister_ftrace_function - stop calling @ops
 * @ops: a registered ops
 *
 * When this returns, no CPU is about to enter @ops->func, and none is in
 * it with preemption disabled.  A dynamic ops (one that may be freed) is
 * not in use at all.  A static ops that kept its trampoline does not wait
 * for preempted tasks (as 6.1 does not): a task preempted at the very
 * start of @ops->func, before it disables preemption, may still finish
 * that one call.
 *
 * Return: 0, or a negative error (see ftrace_shutdown()).
 */
int unregister_ftrace_function(struct ftrace_ops *ops)
{
	bool was = ops->flags & FTRACE_OPS_FL_ENABLED;
	int ret;

	scoped_guard(mutex, &ftrace_lock)
		ret = ftrace_shutdown(ops, 0);
	/* Even a failed update took it off the list. */
	if (was && ftrace_ipmodify_shares(ops))
		ftrace_ipmodify_gone(ops);
	return ret;
}
EXPORT_SYMBOL_GPL(unregister_ftrace_function);

/* Trace arrays: each has an ops; the top-level one uses global_ops. */

/**
 * ftrace_init_global_array_ops - give the top-level trace array global_ops
 * @tr: the top-level trace array
 */
void __init ftrace_init_global_array_ops(struct trace_array *tr)
{
	tr->ops = &global_ops;
	tr->ops->private = tr;
	ftrace_init_trace_array(tr);
}

/**
 * ftrace_init_array_ops - set the callback of a trace array's ops
 * @tr: the trace array
 * @func: the tracer's callback
 */
void ftrace_init_array_ops(struct trace_array *tr, ftrace_func_t func)
{
	if (WARN_ON(!tr->ops))
		return;
	ftrace_ops_init(tr->ops);
	tr->ops->func = func;
	tr->ops->saved_func = func;
	tr->ops->private = tr;
}

/**
 * ftrace_reset_array_ops - point a trace array's ops back at the stub
 * @tr: the trace array
 */
void ftrace_reset_array_ops(struct trace_array *tr)
{
	tr->ops->func = ftrace_stub;
	tr->ops->saved_func = NULL;
}

/**
 * ftrace_is_dead - has ftrace shut itself off after a patching failure?
 *
 * Return: 1 if it has, else 0.
 */
int ftrace_is_dead(void)
{
	return ftrace_dead;
}

/**
 * ftrace_kill - stop all function tracing at once
 *
 * For panic and fatal-error paths: takes no lock and patches nothing; the
 * arch caller ends up calling the stub.
 */
void ftrace_kill(void)
{
	ftrace_dead = true;
	ftrace_enabled = 0;
	ftrace_trace_function = ftrace_stub;
}

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
 * any other number turns them back on.
 */
static int ftrace_enabled_sysctl(struct ctl_table *table, int write,
				 void *buffer, size_t *lenp, loff_t *ppos)
{
	int want = ftrace_enabled, ret;
	struct ctl_table t = *table;

	t.data = &want;
	ret = proc_dointvec(&t, write, buffer, lenp, ppos);
	if (ret || !write)
		return ret;
	want = !!want;
	guard(mutex)(&ftrace_lock);
	if (want == ftrace_enabled)
		return 0;
	if (ftrace_dead)
		return -ENODEV;
	if (!want && permanent_ops_registered())
		return -EBUSY;
	ftrace_enabled = want;
	ret = ftrace_run_update(FTRACE_UPDATE_CALLS);
	if (ret)
		ftrace_enabled = !want;
	return ret;
}

static struct ctl_table ftrace_sysctls[] = {
	{ .procname = "ftrace_enabled", .data = &ftrace_enabled,
	  .maxlen = sizeof(int), .mode = 0644,
	  .proc_handler = ftrace_enabled_sysctl },
	{ }
};

/* The sysctl exists once the core has its records (or has given up). */
static int __init ftrace_ops_late_init(void)
{
	return register_sysctl("kernel", ftrace_sysctls) ? 0 : -ENOMEM;
}
late_initcall(ftrace_ops_late_init);

#ifndef CONFIG_DYNAMIC_FTRACE
/**
 * ftrace_run_update - point the arch handler at what the ops list needs
 * @command: FTRACE_* commands; without dynamic ftrace there is no code to
 *	     patch, so they are ignored
 *
 * Called with ftrace_lock held.  The handler reads ftrace_trace_function
 * (and, where the arch passes ops, function_trace_op) on every call, so
 * the new choice is live as soon as it is stored.  The two are separate
 * loads, with no barrier between them on the handler's side: when the ops
 * changes, every CPU first moves to the list function (which ignores its
 * ops argument), and every CPU passes a full barrier (the grace period
 * makes each one schedule) between the new ops and the new function.
 *
 * Return: 0, or -ENODEV once ftrace is dead.
 */
int ftrace_run_update(int command)
{
	lockdep_assert_held(&ftrace_lock);
	if (ftrace_dead)
		return -ENODEV;
	ftrace_update_func();
	if (wanted_op != function_trace_op) {
		if (ftrace_trace_function != ftrace_stub &&
		    ftrace_trace_function != ftrace_ops_list_func) {
			WRITE_ONCE(ftrace_trace_function, ftrace_ops_list_func);
			synchronize_rcu_tasks_rude();
		}
		function_trace_op = wanted_op;
		if (wanted_func != ftrace_stub &&
		    wanted_func != ftrace_ops_list_func)
			synchronize_rcu_tasks_rude();
	}
	WRITE_ONCE(ftrace_trace_function, wanted_func);
	return 0;
}
#endif
