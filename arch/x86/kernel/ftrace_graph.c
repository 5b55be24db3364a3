// SPDX-License-Identifier: GPL-2.0
/*
 * The graph tracer's entry hook on x86: a traced function's return goes
 * through return_to_handler.  Built with the graph tracer; the call-site
 * back end is ftrace.c (dynamic ftrace only).
 */
#include <linux/ftrace.h>
#include <linux/ptrace.h>
#include <linux/sched.h>

#include <asm/ftrace_insn.h>

/* Whether the graph tracer may take this entry at all. */
static bool graph_entry_allowed(void)
{
	/*
	 * Early in a resume from suspend a CPU can run traced code on a
	 * stack that is not at a kernel address yet (the top bit clear);
	 * no return can be hooked then.
	 */
	if (unlikely((long)__builtin_frame_address(0) >= 0))
		return false;
	return !ftrace_graph_is_dead() &&
	       !atomic_read(&current->tracing_graph_pause);
}

/**
 * prepare_ftrace_return - route a traced function's return through the
 *	graph tracer
 * @ip: the traced function
 * @parent: the stack slot that holds its return address
 * @frame_pointer: the frame pointer the graph tracer checks on return, or 0
 *
 * If the graph tracer takes the entry, the return address in @parent is
 * swapped for return_to_handler, which gives it back after the exit is
 * recorded.
 */
void prepare_ftrace_return(unsigned long ip, unsigned long *parent,
			   unsigned long frame_pointer)
{
	int bit;

	if (!graph_entry_allowed())
		return;
	bit = ftrace_test_recursion_trylock(ip, *parent);
	if (bit < 0)
		return;
	if (function_graph_enter(*parent, ip, frame_pointer, parent) == 0)
		*parent = (unsigned long)return_to_handler;
	ftrace_test_recursion_unlock(bit);
}

#ifdef CONFIG_HAVE_DYNAMIC_FTRACE_WITH_ARGS
/**
 * ftrace_graph_func - the graph tracer's ops function
 * @ip: the traced function
 * @parent_ip: its caller
 * @op: the graph tracer's ops
 * @fregs: the registers the caller saved; their stack pointer is the slot
 *	   of the return address
 */
void ftrace_graph_func(unsigned long ip, unsigned long parent_ip,
		       struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	unsigned long *ret_slot;

	ret_slot = (unsigned long *)kernel_stack_pointer(ftrace_fregs_pt(fregs));
	prepare_ftrace_return(ip, ret_slot, 0);
}
#endif
