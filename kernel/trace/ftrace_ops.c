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
 * Registering and unregistering are ftrace_register.c's, which run the
 * planner (ftrace_update.c); this file only keeps the list and what the
 * sites call.
 *
 * Without CONFIG_DYNAMIC_FTRACE every traced function calls the arch's
 * mcount/fentry handler, which calls ftrace_trace_function whenever it is
 * not the stub; ops have no hashes and see every function.  The same list
 * and list function serve; ftrace_run_update() then only switches
 * ftrace_trace_function (ftrace_nodyn.c).
 */
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <asm/sections.h>
#include <linux/trace_recursion.h>

#include "ftrace_core.h"

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
 * ftrace_ops_filter_empty - is @ops' filter empty (every function)?
 * @ops: the ops
 *
 * Return: true if its filter hash has no entry.
 */
bool ftrace_ops_filter_empty(struct ftrace_ops *ops)
{
	return ftrace_hash_empty(ops_hash(ops, false));
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
static bool ftrace_ops_active(struct ftrace_ops *ops)
{
	return ftrace_ops_active_in(ops, ftrace_enabled);
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
		ftrace_ops_init_kbase(ops);
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
/* Without dynamic ftrace an ops has no hashes to set up. */
void ftrace_ops_init(struct ftrace_ops *ops)
{
	ops->flags |= FTRACE_OPS_FL_INITIALIZED;
}
#endif

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

/* The function ftrace_update_func() chose for the arch caller. */
ftrace_func_t ftrace_wanted_func(void)
{
	return wanted_func;
}

/*
 * PID filters (ftrace_pid.c) keep, per CPU, whether the task running there is
 * traced; an ops that honours them is called through pid_func() while a
 * list is set.
 */
/*
 * The per-CPU word the sched_switch probe keeps: FTRACE_PID_IGNORE (the
 * task is filtered out), FTRACE_PID_TRACE (no list: trace), or the pid it
 * found allowed, which must still be the current task's.
 */
static void pid_func(unsigned long ip, unsigned long parent_ip,
		     struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct trace_array *tr = op->private;
	int who = tr ? this_cpu_read(tr->array_buffer.data->ftrace_ignore_pid) :
		       FTRACE_PID_TRACE;

	if (who == FTRACE_PID_TRACE ||
	    (who != FTRACE_PID_IGNORE && who == current->pid))
		op->saved_func(ip, parent_ip, op, fregs);
}

/* Point an FTRACE_OPS_FL_PID ops at pid_func() or at its own func. */
void ftrace_pid_ops_update(struct ftrace_ops *ops)
{
	struct trace_array *tr = ops->private;

	if (!(ops->flags & FTRACE_OPS_FL_PID) || !ops->saved_func)
		return;
	ops->func = tr && ftrace_pids_set(tr) ? pid_func : ops->saved_func;
}

/* Trace arrays: each has an ops; the top-level one uses global_ops. */

#ifdef CONFIG_DYNAMIC_FTRACE
/**
 * ftrace_init_trace_array - initialise the core's lists in a trace array
 * @tr: the trace array
 *
 * Its function probes and its ":mod:" words waiting for a module
 * (ftrace_probe.c).
 */
void ftrace_init_trace_array(struct trace_array *tr)
{
	INIT_LIST_HEAD(&tr->func_probes);
	INIT_LIST_HEAD(&tr->mod_trace);
	INIT_LIST_HEAD(&tr->mod_notrace);
}
#endif

/**
 * ftrace_init_global_array_ops - give the top-level trace array global_ops
 * @tr: the top-level trace array
 */
void __init ftrace_init_global_array_ops(struct trace_array *tr)
{
	tr->ops = &global_ops;
	tr->ops->private = tr;
	/* Static and initialised already, but for a 6.12 sub-op list. */
	ftrace_ops_init_kbase(&global_ops);
	ftrace_init_trace_array(tr);
	ftrace_global_array_kbase(tr);
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
