// SPDX-License-Identifier: GPL-2.0
/*
 * WORK IN PROGRESS, built only by FLAVOR=wip (patches/wip.series): the
 * interfaces of the core that later files implement (function probes,
 * PID filters, the profiler, direct calls).  Until then they refuse or do
 * nothing.  Nothing here is part of the series.
 */
#include "ftrace_core.h"

static LIST_HEAD(commands);

int register_ftrace_command(struct ftrace_func_command *cmd)
{
	mutex_lock(&ftrace_lock);
	list_add(&cmd->list, &commands);
	mutex_unlock(&ftrace_lock);
	return 0;
}

int unregister_ftrace_command(struct ftrace_func_command *cmd)
{
	mutex_lock(&ftrace_lock);
	list_del_init(&cmd->list);
	mutex_unlock(&ftrace_lock);
	return 0;
}

int ftrace_run_command(struct trace_array *tr, struct ftrace_hash *hash,
		       char *func, char *cmd, char *params, bool enable)
{
	return -EINVAL;
}

void ftrace_probes_show(struct seq_file *m, struct trace_array *tr)
{
}

int register_ftrace_function_probe(char *glob, struct trace_array *tr,
				   struct ftrace_probe_ops *ops, void *data)
{
	return -ENODEV;
}

int unregister_ftrace_function_probe_func(char *glob, struct trace_array *tr,
					  struct ftrace_probe_ops *ops)
{
	return -ENODEV;
}

void clear_ftrace_function_probes(struct trace_array *tr)
{
}

void ftrace_pid_ops_update(struct ftrace_ops *ops)
{
}

void ftrace_clear_pids(struct trace_array *tr)
{
}

void ftrace_pid_follow_fork(struct trace_array *tr, bool enable)
{
}

void ftrace_init_tracefs(struct trace_array *tr, struct dentry *d_tracer)
{
}

void ftrace_profile_tracefs(struct dentry *d_tracer)
{
}

void ftrace_graph_graph_time_control(bool enable)
{
}

#ifdef CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS
int register_ftrace_direct(unsigned long ip, unsigned long addr)
{
	return -ENODEV;
}
EXPORT_SYMBOL_GPL(register_ftrace_direct);

int unregister_ftrace_direct(unsigned long ip, unsigned long addr)
{
	return -ENODEV;
}
EXPORT_SYMBOL_GPL(unregister_ftrace_direct);

int modify_ftrace_direct(unsigned long ip, unsigned long old_addr,
			 unsigned long new_addr)
{
	return -ENODEV;
}
EXPORT_SYMBOL_GPL(modify_ftrace_direct);
#endif
