/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The code a traced arm64 function reaches: the shared callers of dynamic
 * ftrace, the static tracer's _mcount, and the graph tracer's return path.
 */

#include <linux/linkage.h>
#include <linux/cfi_types.h>
#include <asm/asm-offsets.h>
#include <asm/assembler.h>
#include <asm/ftrace.h>
#include <asm/ftrace_insn.h>
#include <asm/insn.h>
#include <asm/ptrace.h>

#ifdef CONFIG_DYNAMIC_FTRACE_WITH_REGS
/*
 * An enabled site (see <asm/ftrace.h>):
 *
 *	func:	mov	x9, x30		// written at build time
 *		bl	ftrace_caller	// the site: a NOP while not traced
 *		...			// func's own prologue
 *
 * So a caller starts with x30 = func + 8, where func resumes; x9 = func's
 * own return address; sp and x29 as func's caller left them; x0-x7 (and
 * x8, the indirect result pointer) holding func's arguments.  x9-x17 are
 * free: the AAPCS lets any call clobber them, and a module veneer uses
 * x16/x17 on the way here.  x18 may be the shadow call stack; C code
 * leaves it alone.
 *
 * A caller builds a struct pt_regs of the site on the stack, and above it
 * one frame record for func, so that an unwinder started in a tracer walks
 * tracer -> the caller (its record lives in pt_regs->stackframe, with
 * func + 8 as its return address) -> func's caller (x9) -> the rest of
 * the chain, which x29 still heads.
 *
 *	sp + PT_REGS_SIZE + 16	func's caller's sp (pt_regs.sp)
 *	sp + PT_REGS_SIZE	{ x29, x9 }: the record that stands for func
 *	sp			struct pt_regs
 *
 * pt_regs.regs[30] is the return address func must use (x9 on entry) and
 * pt_regs.pc where it resumes (func + 8); an ops may change either: the
 * graph tracer hooks the return through regs[30], and a new pc sends the
 * call elsewhere.
 */
#define CALLER_FRAME	(PT_REGS_SIZE + 16)

	/*
	 * Save what the site's pt_regs needs: the argument registers, or
	 * (@all) every general register and PSTATE, for ops that asked for
	 * the full set.
	 */
	.macro	site_regs_save, all
#ifdef CONFIG_ARM64_BTI_KERNEL
	bti	c			// a veneer arrives by BR
#endif
	sub	sp, sp, #CALLER_FRAME
	stp	x0, x1, [sp, #S_X0]
	stp	x2, x3, [sp, #S_X2]
	stp	x4, x5, [sp, #S_X4]
	stp	x6, x7, [sp, #S_X6]
	.if	\all
	pt_regs_x8_x27 stp
	str	x28, [sp, #S_X28]
	mrs	x10, daif
	mov	x11, #PSR_MODE_EL1h
	orr	x10, x10, x11
	str	x10, [sp, #S_PSTATE]
	/* No direct call yet: see site_regs_restore. */
	str	xzr, [sp, #S_ORIG_X0]
	.else
	/*
	 * PSTATE says only "kernel": user_mode() on these regs is false.
	 * On 6.12 (WITH_ARGS) orig_x0, next to it, says that the set is
	 * partial (<asm/ftrace.h>); 6.1 reads no such mark.
	 */
	str	x8, [sp, #S_X8]
	mov	x10, #PSR_MODE_EL1h
#ifdef CONFIG_HAVE_DYNAMIC_FTRACE_WITH_ARGS
	mov	x11, #FTRACE_A64_PARTIAL
	stp	x10, x11, [sp, #S_PSTATE]
#else
	str	x10, [sp, #S_PSTATE]
#endif
	.endif
	/* regs[29], regs[30]; then sp and pc, which follow them. */
	stp	x29, x9, [sp, #S_FP]
	add	x10, sp, #CALLER_FRAME
	stp	x10, x30, [sp, #S_SP]

	/* The two frame records, func's first. */
	stp	x29, x9, [sp, #PT_REGS_SIZE]
	add	x29, sp, #PT_REGS_SIZE
	stp	x29, x30, [sp, #S_STACKFRAME]
	add	x29, sp, #S_STACKFRAME

	/*
	 * func(ip, parent_ip, op, fregs): ip is the site, the BL.  The
	 * code after the macro loads op into x2.
	 */
	sub	x0, x30, #AARCH64_INSN_SIZE
	mov	x1, x9
	mov	x3, sp
	.endm

	/*
	 * Reload the arguments and the site's fp, return address and pc,
	 * which an ops may have changed, and go on at that pc.
	 *
	 * With @all, a direct call may be due: a direct ops sharing the
	 * site left its target in orig_x0 (arch_ftrace_set_direct_caller()).
	 * The target is entered as a site enters a caller, with x9 the
	 * return address and x30 where the function resumes; BR x17 may
	 * land on a BTI C.
	 */
	.macro	site_regs_restore, all
	ldp	x0, x1, [sp, #S_X0]
	ldp	x2, x3, [sp, #S_X2]
	ldp	x4, x5, [sp, #S_X4]
	ldp	x6, x7, [sp, #S_X6]
	ldr	x8, [sp, #S_X8]
	.if	\all
	ldr	x17, [sp, #S_ORIG_X0]
	cbnz	x17, .Ldirect\@
	.endif
	ldp	x29, x30, [sp, #S_FP]
	ldr	x9, [sp, #S_PC]
	add	sp, sp, #CALLER_FRAME
	ret	x9
	.if	\all
.Ldirect\@:
	ldp	x29, x9, [sp, #S_FP]
	ldr	x30, [sp, #S_PC]
	add	sp, sp, #CALLER_FRAME
	br	x17
	.endif
	.endm

/*
 * The two shared callers.  Each calls the function the core chooses (the
 * one ops' function, or the list function) through its own BL, which
 * ftrace_arch_set_func() rewrites: ftrace_call and ftrace_regs_call.
 */
SYM_CODE_START(ftrace_caller)
	site_regs_save	0
	ldr_l	x2, function_trace_op
SYM_INNER_LABEL(ftrace_call, SYM_L_GLOBAL)
	bl	ftrace_stub
	site_regs_restore 0
SYM_CODE_END(ftrace_caller)

SYM_CODE_START(ftrace_regs_caller)
	site_regs_save	1
	ldr_l	x2, function_trace_op
SYM_INNER_LABEL(ftrace_regs_call, SYM_L_GLOBAL)
	bl	ftrace_stub
	site_regs_restore 1
SYM_CODE_END(ftrace_regs_caller)

/*
 * The two templates of an ops' own trampoline (see ftrace.c), never run
 * in place.  Each is a shared caller that takes its ops and the function
 * it calls from the two words after its code instead of from
 * function_trace_op and a BL, so a copy runs wherever it is put, and the
 * function it calls is changed by one 64-bit store.  A copy lives in the
 * pool below or where modules do; the function may be beyond a BL's
 * reach of the copy, hence BLR.  x17 is free here (see above).
 */
	.macro	tramp_template, all
	site_regs_save	\all
	ldr	x2, 8f
	ldr	x17, 9f
	blr	x17
	site_regs_restore \all
	.balign	8
8:	.quad	0			// the ops
9:	.quad	0			// its function, or ftrace_stub
	.endm

/*
 * A template starts 8-byte aligned, so that in a copy (page aligned) its
 * two words are too: an aligned 64-bit store is single-copy atomic, and a
 * CPU reading the function while it changes gets the old or the new one.
 */
	.balign	8
SYM_CODE_START(ftrace_tramp_template)
	tramp_template	0
SYM_INNER_LABEL(ftrace_tramp_template_end, SYM_L_GLOBAL)
SYM_CODE_END(ftrace_tramp_template)

	.balign	8
SYM_CODE_START(ftrace_regs_tramp_template)
	tramp_template	1
SYM_INNER_LABEL(ftrace_regs_tramp_template_end, SYM_L_GLOBAL)
SYM_CODE_END(ftrace_regs_tramp_template)

/*
 * The trampoline pool: text of the kernel image that ftrace.c copies
 * templates into, so that every site in the image reaches its ops'
 * trampoline with a BL (the image is smaller than a BL's 128 MiB reach),
 * wherever KASLR put the module region.  A slot without a trampoline
 * holds BRK #0, which no code branches to; kprobes stay out.
 */
	.balign	FTRACE_A64_POOL_SLOT
SYM_CODE_START(ftrace_tramp_pool)
	.rept	FTRACE_A64_POOL_SLOTS * FTRACE_A64_POOL_SLOT / AARCH64_INSN_SIZE
	brk	#0
	.endr
SYM_INNER_LABEL(ftrace_tramp_pool_end, SYM_L_GLOBAL)
SYM_CODE_END(ftrace_tramp_pool)
NOKPROBE(ftrace_tramp_pool)

#ifdef CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS
/*
 * A direct-call target that does nothing: it goes on into the function
 * with the function's return address back in x30.  A plain C function
 * cannot be a target here (its RET would go back into the function with
 * x30 still pointing there); the tracers' boot self test uses this one.
 */
SYM_CODE_START(ftrace_stub_direct_tramp)
#ifdef CONFIG_ARM64_BTI_KERNEL
	bti	c			// reached by BR from ftrace_regs_caller
#endif
	mov	x17, x30
	mov	x30, x9
	ret	x17
SYM_CODE_END(ftrace_stub_direct_tramp)
#endif

/*
 * Never run: its address is MCOUNT_ADDR, the core's name for what a
 * fresh site holds.
 */
SYM_CODE_START(ftrace_fresh_site)
	brk	#0x5af0
SYM_CODE_END(ftrace_fresh_site)

#else /* !CONFIG_DYNAMIC_FTRACE_WITH_REGS */

/*
 * The static function tracer.  With -pg every function calls _mcount
 * after its prologue:
 *
 *	func:	stp	x29, x30, [sp, #-N]!
 *		mov	x29, sp
 *		...
 *		mov	x0, x30
 *		bl	_mcount
 *
 * The compiler treats the call as any other: the argument and temporary
 * registers are dead across it.  func's frame record is at x29, and its
 * second word is func's return address, the word the graph tracer swaps.
 */
SYM_FUNC_START(_mcount)
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp

	ldr_l	x2, ftrace_trace_function
	adr_l	x3, ftrace_stub
	cmp	x2, x3
	b.eq	1f
	sub	x0, x30, #AARCH64_INSN_SIZE	// ip: the BL
	ldr	x1, [x29]			// func's frame record
	ldr	x1, [x1, #8]			// parent_ip
	blr	x2
1:
#ifdef CONFIG_FUNCTION_GRAPH_TRACER
	ldr_l	x2, ftrace_graph_return
	adr_l	x3, ftrace_stub_graph
	cmp	x2, x3
	b.ne	2f
	ldr_l	x2, ftrace_graph_entry
	adr_l	x3, ftrace_graph_entry_stub
	cmp	x2, x3
	b.eq	3f
2:	/* prepare_ftrace_return(ip, &func's return address, parent's fp) */
	ldr	x0, [x29, #8]
	sub	x0, x0, #AARCH64_INSN_SIZE
	ldr	x2, [x29]
	add	x1, x2, #8
	ldr	x2, [x2]
	bl	prepare_ftrace_return
3:
#endif
	ldp	x29, x30, [sp], #16
	ret
SYM_FUNC_END(_mcount)
EXPORT_SYMBOL(_mcount)
NOKPROBE(_mcount)

#endif /* CONFIG_DYNAMIC_FTRACE_WITH_REGS */

#ifdef CONFIG_FUNCTION_GRAPH_TRACER
/*
 * A hooked function returns here instead of to its caller, with its
 * results in x0-x7 and x29 back at its caller's frame, the frame pointer
 * the graph tracer saw on entry.  ftrace_return_to_handler() records the
 * exit and gives back the real return address.  6.1 passes it that
 * frame pointer; 6.12 (HAVE_FUNCTION_GRAPH_FREGS) a struct ftrace_regs,
 * here a pt_regs with the results, x29 and PSTATE, from which the graph
 * tracer reads the return value too.
 */
#ifdef CONFIG_HAVE_FUNCTION_GRAPH_FREGS
#define RESULT_REGS	PT_REGS_SIZE	/* x0-x7 are its first words */
#else
#define RESULT_REGS	64
#endif

SYM_CODE_START(return_to_handler)
	stp	x0, x1, [sp, #-RESULT_REGS]!
	stp	x2, x3, [sp, #16]
	stp	x4, x5, [sp, #32]
	stp	x6, x7, [sp, #48]
#ifdef CONFIG_HAVE_FUNCTION_GRAPH_FREGS
	/*
	 * PSTATE says "kernel": regs_return_value() reads x0 whole only
	 * where compat_user_mode() is false.
	 */
	mov	x1, #PSR_MODE_EL1h
	str	x1, [sp, #S_PSTATE]
	str	x29, [sp, #S_FP]
	mov	x0, sp
#else
	mov	x0, x29				// the frame pointer seen on entry
#endif
	bl	ftrace_return_to_handler
	ldp	x2, x3, [sp, #16]
	ldp	x4, x5, [sp, #32]
	ldp	x6, x7, [sp, #48]
	mov	x30, x0				// the real return address
	ldp	x0, x1, [sp], #RESULT_REGS
	ret
SYM_CODE_END(return_to_handler)
#endif /* CONFIG_FUNCTION_GRAPH_TRACER */

/*
 * What the callers call when no tracer is on, and the graph tracer's "no
 * return hook": two functions, as each is called through a pointer of
 * its own type (kCFI) and needs its own landing pad (BTI).
 */
SYM_TYPED_FUNC_START(ftrace_stub)
	ret
SYM_FUNC_END(ftrace_stub)

#ifdef CONFIG_FUNCTION_GRAPH_TRACER
SYM_TYPED_FUNC_START(ftrace_stub_graph)
	ret
SYM_FUNC_END(ftrace_stub_graph)
#endif
