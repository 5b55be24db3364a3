// SPDX-License-Identifier: GPL-2.0
/*
 * The graph tracer's entry hook on arm64: a traced function's return goes
 * through return_to_handler.  Built with the graph tracer, with or
 * without dynamic ftrace (the static tracer's _mcount calls it too); the
 * call-site back end is ftrace.c.
 */
#include <linux/ftrace.h>
#include <linux/sched.h>

/**
 * prepare_ftrace_return - route a traced function's return through the
 *	graph tracer
 * @ip: the traced function's call site
 * @parent: where its return address is kept until it returns
 * @frame_pointer: its caller's frame pointer, which names the return
 *	for the unwinder and is checked again on return
 */
void prepare_ftrace_return(unsigned long ip, unsigned long *parent,
			   unsigned long frame_pointer)
{
	int bit;

	if (unlikely(ftrace_graph_is_dead() ||
		     atomic_read(&current->tracing_graph_pause)))
		return;
	bit = ftrace_test_recursion_trylock(ip, *parent);
	if (bit < 0)
		return;
	if (!function_graph_enter(*parent, ip, frame_pointer,
				  (unsigned long *)frame_pointer))
		*parent = (unsigned long)return_to_handler;
	ftrace_test_recursion_unlock(bit);
}

#ifdef CONFIG_DYNAMIC_FTRACE_WITH_REGS
/**
 * ftrace_graph_func - the graph tracer's ops function
 * @ip: the traced function's call site
 * @parent_ip: its caller
 * @op: the graph tracer's ops
 * @fregs: the site's registers: regs[30] is the return address the
 *	function will use, regs[29] its caller's frame pointer
 */
void ftrace_graph_func(unsigned long ip, unsigned long parent_ip,
		       struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct pt_regs *regs = ftrace_fregs_pt(fregs);

	prepare_ftrace_return(ip, (unsigned long *)&regs->regs[30],
			      regs->regs[29]);
}
#endif
