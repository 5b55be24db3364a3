// SPDX-License-Identifier: GPL-2.0
/*
 * Return hooks (rethook) on arm64: what kretprobes and fprobe's exit
 * handlers use to run code when a function returns.
 *
 * At a function's entry (a kprobe on its first instruction, or an ftrace
 * site, which comes before any prologue) x30 still holds the function's
 * return address and x29 its caller's frame.  Hooking the return swaps
 * x30 for arch_rethook_trampoline (rethook_trampoline.S); the generic
 * code keeps the real address on the task's list of hooked returns,
 * keyed by that frame, which the function puts back in x29 before it
 * returns.  With pointer authentication the swap happens before the
 * function signs x30, so it signs and checks the trampoline's address.
 * None of this may be probed (__kprobes): a probe here would hook
 * returns from inside the hook.
 */

#include <linux/kprobes.h>
#include <linux/rethook.h>

unsigned long arch_rethook_trampoline_callback(struct pt_regs *regs);

/**
 * arch_rethook_prepare() - make a function return to the trampoline
 * @node: the hook, which keeps the return address and the frame
 * @regs: the registers at the function's entry
 * @mcount: true from an ftrace site, false from a kprobe; the same on
 *	arm64, where both see the function's x30 in regs->regs[30]
 */
void __kprobes arch_rethook_prepare(struct rethook_node *node,
				    struct pt_regs *regs, bool mcount)
{
	node->ret_addr = procedure_link_pointer(regs);
	node->frame = regs->regs[29];
	procedure_link_pointer_set(regs, (unsigned long)arch_rethook_trampoline);
}

/**
 * arch_rethook_fixup_return() - return to the real caller after all
 * @regs: the registers the trampoline saved
 * @correct_ret_addr: the return address the hook replaced
 */
void __kprobes arch_rethook_fixup_return(struct pt_regs *regs,
					 unsigned long correct_ret_addr)
{
	procedure_link_pointer_set(regs, correct_ret_addr);
}

/**
 * arch_rethook_trampoline_callback() - run the hooks of a return
 * @regs: what the trampoline saved: the return value in regs[0], and
 *	x29 back at the frame arch_rethook_prepare() recorded
 *
 * Return: the address the function should have returned to.
 */
unsigned long __kprobes arch_rethook_trampoline_callback(struct pt_regs *regs)
{
	return rethook_trampoline_handler(regs, regs->regs[29]);
}
