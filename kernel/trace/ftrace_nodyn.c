// SPDX-License-Identifier: GPL-2.0
/*
 * The function tracer without dynamic ftrace (CONFIG_DYNAMIC_FTRACE=n):
 * every traceable function calls the arch handler, which calls whatever
 * ftrace_trace_function points at.  There are no records, no sites to
 * patch and no trampolines, so what differs from the dynamic core is
 * small, and nearly all of it is here: the update only switches the
 * handler's function, and an ops has no trampoline.  (Setting
 * up an ops, which ftrace_ops.c below needs, stays there.)  Registration
 * (ftrace_register.c) is the same code in both configurations.
 */
#include "ftrace_core.h"

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
	struct ftrace_ops *op;
	ftrace_func_t func;

	lockdep_assert_held(&ftrace_lock);
	if (ftrace_dead)
		return -ENODEV;
	ftrace_update_func();
	op = ftrace_wanted_op();
	func = ftrace_wanted_func();
	if (op != function_trace_op) {
		if (ftrace_trace_function != ftrace_stub &&
		    ftrace_trace_function != ftrace_ops_list_func) {
			WRITE_ONCE(ftrace_trace_function, ftrace_ops_list_func);
			synchronize_rcu_tasks_rude();
		}
		function_trace_op = op;
		if (func != ftrace_stub && func != ftrace_ops_list_func)
			synchronize_rcu_tasks_rude();
	}
	WRITE_ONCE(ftrace_trace_function, func);
	return 0;
}

/*
 * No ops has a trampoline of its own: the core's trampoline steps of
 * registration (ftrace_tramp.c with dynamic ftrace) have nothing to do.
 */
void ftrace_tramp_prepare(struct ftrace_ops *ops)
{
}

int ftrace_tramp_update(struct ftrace_ops *ops)
{
	return 0;
}

void ftrace_tramp_refresh(struct ftrace_ops *ops)
{
}

void ftrace_tramp_park(struct ftrace_ops *ops)
{
}

bool ftrace_tramp_unlist(struct ftrace_ops **ops, unsigned int n, bool bury)
{
	return false;
}

void ftrace_tramp_release(struct ftrace_ops *ops)
{
}
