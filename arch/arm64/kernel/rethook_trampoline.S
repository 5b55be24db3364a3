/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where a function whose return is hooked returns to (see rethook.c).
 */

#include <linux/linkage.h>
#include <asm/asm-offsets.h>
#include <asm/assembler.h>
#include <asm/ftrace.h>
#include <asm/ptrace.h>

	.pushsection	".kprobes.text", "ax"
/*
 * Entered by the hooked function's RET: x30 is this trampoline, x0-x8
 * hold what the function returns, sp and x29 are its caller's again.
 * The hooks get a struct pt_regs of that moment, with a frame record in
 * it so that an unwinder walks through here.
 */
SYM_CODE_START(arch_rethook_trampoline)
	sub	sp, sp, #PT_REGS_SIZE
	stp	x0, x1, [sp, #S_X0]
	stp	x2, x3, [sp, #S_X2]
	stp	x4, x5, [sp, #S_X4]
	stp	x6, x7, [sp, #S_X6]
	pt_regs_x8_x27 stp
	stp	x28, x29, [sp, #S_X28]
	/* regs[30] and sp; then pc and a kernel-mode PSTATE. */
	add	x0, sp, #PT_REGS_SIZE
	stp	x30, x0, [sp, #S_LR]
	mrs	x1, daif
	mov	x2, #PSR_MODE_EL1h
	orr	x1, x1, x2
	stp	x30, x1, [sp, #S_PC]
	stp	x29, x30, [sp, #S_STACKFRAME]
	add	x29, sp, #S_STACKFRAME

	mov	x0, sp
	bl	arch_rethook_trampoline_callback

	/*
	 * Back to the caller with every register as the hooks left it in
	 * pt_regs (some assembly callees promise to keep more than the
	 * AAPCS asks), and x30 the real return address, which the callback
	 * put in regs[30].
	 */
	ldp	x0, x1, [sp, #S_X0]
	ldp	x2, x3, [sp, #S_X2]
	ldp	x4, x5, [sp, #S_X4]
	ldp	x6, x7, [sp, #S_X6]
	pt_regs_x8_x27 ldp
	ldr	x28, [sp, #S_X28]
	ldp	x29, x30, [sp, #S_FP]
	add	sp, sp, #PT_REGS_SIZE
	ret
SYM_CODE_END(arch_rethook_trampoline)
	.popsection
