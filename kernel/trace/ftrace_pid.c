// SPDX-License-Identifier: GPL-2.0
/*
 * PID filters: set_ftrace_pid and set_ftrace_notrace_pid, with or
 * without dynamic ftrace.
 *
 * Each trace array has two pid lists.  A sched_switch probe works out,
 * per CPU, whether the task switched in is traced and stores the answer in
 * the CPU's trace_array_cpu.ftrace_ignore_pid; the callbacks then test one
 * per-CPU word.  Ops that honour pid filters (FTRACE_OPS_FL_PID) are
 * called through pid_func() (ftrace_ops.c) while a list is set, and
 * directly otherwise.
 */
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <trace/events/sched.h>

#include "ftrace_core.h"

/* Re-aim every registered pid-aware ops after a list changed. */
static void update_pid_ops(void)
{
	struct ftrace_ops *op;

	lockdep_assert_held(&ftrace_lock);
	do_for_each_ftrace_op(op, ftrace_ops_list) {
		if (!(op->flags & FTRACE_OPS_FL_PID) ||
		    !(op->flags & FTRACE_OPS_FL_ENABLED))
			continue;
		ftrace_pid_ops_update(op);
		ftrace_tramp_refresh(op);
	} while_for_each_ftrace_op(op);
	ftrace_pids_changed_kbase();
	ftrace_run_update(0);
}

static void sched_switch_probe(void *data, bool preempt,
			       struct task_struct *prev,
			       struct task_struct *next,
			       unsigned int prev_state)
{
	struct trace_array *tr = data;
	struct trace_pid_list *pids, *no_pids;

	pids = rcu_dereference_sched(tr->function_pids);
	no_pids = rcu_dereference_sched(tr->function_no_pids);
	this_cpu_write(tr->array_buffer.data->ftrace_ignore_pid,
		       trace_ignore_this_task(pids, no_pids, next) ?
		       FTRACE_PID_IGNORE : next->pid);
}

/* Set this CPU's answer for the task running now. */
static void mark_current(void *data)
{
	struct trace_array *tr = data;

	sched_switch_probe(tr, false, NULL, current, 0);
}

static void mark_all_traced(struct trace_array *tr)
{
	int cpu;

	for_each_possible_cpu(cpu)
		per_cpu_ptr(tr->array_buffer.data, cpu)->ftrace_ignore_pid =
			FTRACE_PID_TRACE;
}

static struct trace_pid_list __rcu **pid_slot(struct trace_array *tr, bool no)
{
	return no ? &tr->function_no_pids : &tr->function_pids;
}

/*
 * After a pid list changed (@was_set: some list was set before): the
 * sched_switch probe is registered exactly while a list is set, and each
 * CPU's word is set again for the task it runs, or to "traced" once no
 * list is left.  6.1 left the probe registered when an appending write
 * emptied both lists, so setting a list again registered it twice (a
 * warning), and an instance removed then kept a probe on a freed array.
 */
static void pids_changed(struct trace_array *tr, bool was_set)
{
	bool set = ftrace_pids_set(tr);

	if (set && !was_set)
		register_trace_sched_switch(sched_switch_probe, tr);
	else if (!set && was_set)
		unregister_trace_sched_switch(sched_switch_probe, tr);
	if (set)
		on_each_cpu(mark_current, tr, 1);
	update_pid_ops();
}

/*
 * After the grace period that follows pids_changed(): a probe that was
 * still running on another CPU has finished, so the words it wrote can be
 * set once and for all when no list is left.
 */
static void pids_settled(struct trace_array *tr)
{
	if (!ftrace_pids_set(tr))
		mark_all_traced(tr);
}

/* Empty one list; drop the probe when both are empty. */
static void pid_reset(struct trace_array *tr, bool no)
{
	struct trace_pid_list *old;

	lockdep_assert_held(&ftrace_lock);
	old = rcu_dereference_protected(*pid_slot(tr, no),
					lockdep_is_held(&ftrace_lock));
	if (!old)
		return;
	rcu_assign_pointer(*pid_slot(tr, no), NULL);
	pids_changed(tr, true);
	synchronize_rcu();
	pids_settled(tr);
	trace_pid_list_free(old);
}

/**
 * ftrace_clear_pids - empty both pid lists of a trace array
 * @tr: the trace array
 */
void ftrace_clear_pids(struct trace_array *tr)
{
	guard(mutex)(&ftrace_lock);
	pid_reset(tr, false);
	pid_reset(tr, true);
}

static void fork_probe(void *data, struct task_struct *self,
		       struct task_struct *task)
{
	struct trace_array *tr = data;

	trace_filter_add_remove_task(rcu_dereference_sched(tr->function_pids),
				     self, task);
	trace_filter_add_remove_task(rcu_dereference_sched(tr->function_no_pids),
				     self, task);
}

static void exit_probe(void *data, struct task_struct *task)
{
	struct trace_array *tr = data;

	trace_filter_add_remove_task(rcu_dereference_sched(tr->function_pids),
				     NULL, task);
	trace_filter_add_remove_task(rcu_dereference_sched(tr->function_no_pids),
				     NULL, task);
}

/**
 * ftrace_pid_follow_fork - make children inherit their parent's pid filter
 * @tr: the trace array
 * @enable: follow forks (the function-fork option) or stop following
 */
void ftrace_pid_follow_fork(struct trace_array *tr, bool enable)
{
	if (enable) {
		register_trace_sched_process_fork(fork_probe, tr);
		register_trace_sched_process_free(exit_probe, tr);
	} else {
		unregister_trace_sched_process_fork(fork_probe, tr);
		unregister_trace_sched_process_free(exit_probe, tr);
	}
}

static bool pid_file_no(const struct file *file)
{
	return (unsigned long)file->f_inode->i_private & 1;
}

static struct trace_array *pid_file_tr(const struct file *file)
{
	return (void *)((unsigned long)file->f_inode->i_private & ~1UL);
}

/* Reading: every pid of the list, or "no pid" when it is empty. */
static int pid_list_show(struct seq_file *m, void *unused)
{
	struct trace_array *tr = m->private;
	struct trace_pid_list *list;
	loff_t pos = 0;
	void *v;

	guard(mutex)(&ftrace_lock);
	/* Writers free an old list only with ftrace_lock held. */
	list = rcu_dereference_protected(*pid_slot(tr, pid_file_no(m->file)),
					 lockdep_is_held(&ftrace_lock));
	if (!list) {
		seq_puts(m, "no pid\n");
		return 0;
	}
	for (v = trace_pid_start(list, &pos); v; v = trace_pid_next(list, v, &pos))
		trace_pid_show(m, v);
	return 0;
}

static int pid_open(struct inode *inode, struct file *file)
{
	struct trace_array *tr = pid_file_tr(file);
	int ret = tracing_check_open_get_tr(tr);

	if (ret)
		return ret;
	if ((file->f_mode & FMODE_WRITE) && (file->f_flags & O_TRUNC)) {
		scoped_guard(mutex, &ftrace_lock)
			pid_reset(tr, pid_file_no(file));
	}
	if (file->f_mode & FMODE_READ)
		ret = single_open(file, pid_list_show, tr);
	if (ret)
		trace_array_put(tr);
	return ret;
}

static ssize_t pid_write(struct file *file, const char __user *ubuf,
			 size_t cnt, loff_t *ppos)
{
	struct trace_array *tr = pid_file_tr(file);
	bool no = pid_file_no(file);
	struct trace_pid_list *old, *list = NULL;
	bool was_set;
	ssize_t ret;

	if (!cnt)
		return 0;
	guard(mutex)(&ftrace_lock);
	old = rcu_dereference_protected(*pid_slot(tr, no),
					lockdep_is_held(&ftrace_lock));
	ret = trace_pid_write(old, &list, ubuf, cnt);
	if (ret < 0)
		return ret;
	was_set = ftrace_pids_set(tr);
	rcu_assign_pointer(*pid_slot(tr, no), list);
	/*
	 * Whatever the write did, the running tasks' answers may have
	 * changed: a CPU that does not switch tasks soon would otherwise
	 * keep the old one.
	 */
	pids_changed(tr, was_set);
	/* Only a write that had a list to replace can leave none. */
	if (old) {
		synchronize_rcu();
		pids_settled(tr);
		trace_pid_list_free(old);
	}
	*ppos += ret;
	return ret;
}

static int pid_release(struct inode *inode, struct file *file)
{
	struct trace_array *tr = pid_file_tr(file);

	trace_array_put(tr);
	return (file->f_mode & FMODE_READ) ? single_release(inode, file) : 0;
}

static const struct file_operations pid_fops = {
	.open = pid_open, .read = seq_read, .write = pid_write,
	.llseek = tracing_lseek, .release = pid_release,
};

/**
 * ftrace_init_tracefs - create the pid filter files of a trace array
 * @tr: the trace array
 * @d_tracer: its directory
 */
void ftrace_init_tracefs(struct trace_array *tr, struct dentry *d_tracer)
{
	static const char *const names[] = {
		"set_ftrace_pid", "set_ftrace_notrace_pid"
	};
	unsigned long no;

	/* One file operations for both: bit 0 of the inode data says which. */
	for (no = 0; no < ARRAY_SIZE(names); no++)
		trace_create_file(names[no], TRACE_MODE_WRITE, d_tracer,
				  (void *)((unsigned long)tr | no), &pid_fops);
}
