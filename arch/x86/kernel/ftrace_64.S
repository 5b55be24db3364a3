/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x86_64: where a traced function's call site leads.
 *
 * With dynamic ftrace each traced function begins (after its ENDBR, if
 * any) with a five-byte site holding a NOP or a CALL to one of:
 *
 *   ftrace_caller       the shared caller: keeps the argument registers in
 *                       a partial pt_regs (cs 0: arch_ftrace_get_regs()
 *                       says there is no full set) and calls the function
 *                       the core chose, at ftrace_call;
 *   ftrace_regs_caller  the same with a full pt_regs (flags, every general
 *                       register, segments), for ops that ask for it:
 *                       kprobes, direct calls shared with others;
 *   a trampoline        a copy of one of the two made for a single ops by
 *                       ftrace.c, which changes only the ops load, the
 *                       CALL and the direct-call branch.  The ORC unwinder
 *                       reads a trampoline's unwind data at the same offset
 *                       in the caller it copies, so the bytes up to
 *                       ftrace_caller_end / ftrace_regs_caller_end are laid
 *                       out once, here, for both;
 *   a direct target     (BPF trampolines), called instead.
 *
 * On entry the stack holds, from %rsp up, the return into the traced
 * function (site + 5) and the traced function's own return address, its
 * "parent".  The callback is called as func(ip, parent, op, fregs): ip is
 * the site, fregs->regs.sp the parent's slot (the traced function's %rsp
 * at entry, where the graph tracer hooks the return), fregs->regs.ip the
 * return into the traced function.  A callback that changes regs.ip
 * (livepatch) makes the caller return there instead.  A direct call that
 * shares its function with other ops leaves its address in regs.orig_ax;
 * ftrace_regs_caller then leaves through it, as if the site had called it.
 */

#include <linux/linkage.h>
#include <linux/cfi_types.h>
#include <linux/objtool.h>
#include <asm/ptrace.h>
#include <asm/ftrace.h>
#include <linux/ftrace_kbase.h>
#ifdef FTRACE_KBASE_612
#include <linux/export.h>
#else
#include <asm/export.h>
#endif
#include <asm/nospec-branch.h>
#include <asm/segment.h>
#include <asm/unwind_hints.h>

/*
 * What differs between the two kernels this builds into (6.1, 6.12):
 * 6.12 names the hint for code with no unwind data UNWIND_HINT_UNDEFINED,
 * and describes the graph return hook's frame (UNWIND_HINT_RTH);
 * 6.12 tracks call depth on CPUs that need it (retbleed=stuff), so code
 * entered by a CALL that skipped the callee's accounting thunk counts it
 * (CALL_DEPTH_ACCOUNT), and a RET that pairs with no counted CALL must not
 * be counted either (ret_unpaired).
 */
#ifdef FTRACE_KBASE_612
# define UNWIND_HINT_NONE	UNWIND_HINT_UNDEFINED
# define UNWIND_HINT_RTH	UNWIND_HINT_FUNC
.macro ret_unpaired
	ALTERNATIVE __stringify(RET), \
		    __stringify(ANNOTATE_UNRET_SAFE; ret; int3), \
		    X86_FEATURE_CALL_DEPTH
.endm
#else
# define UNWIND_HINT_NONE	UNWIND_HINT_EMPTY
# define UNWIND_HINT_RTH
.macro CALL_DEPTH_ACCOUNT
.endm
.macro ret_unpaired
	RET
.endm
#endif

	.code64
	.section .text, "ax"

/*
 * With frame pointers, two frame records sit between pt_regs and the two
 * return addresses, so that an unwind from a callback by frame pointers
 * passes through the traced function (the lower record, whose return
 * address is the one into it) and its parent (the upper record, which
 * also keeps the traced function's %rbp).  %rbp points at the lower one
 * while the callback runs, in both callers: unlike 6.1's register-saving
 * caller, ours does not mark %rbp as pointing at a pt_regs, so such an
 * unwind lists the callers rather than a register dump.
 */
#ifdef CONFIG_FRAME_POINTER
# define FP_RECORDS	32
#else
# define FP_RECORDS	0
#endif

/* The return into the traced function, from %rsp once pt_regs is made. */
#define RET_SLOT(pushed)	(FRAME_SIZE + FP_RECORDS + (pushed))

/* One register to its pt_regs slot, and back. */
.macro reg_store reg:req, slot:req
	movq	%\reg, \slot(%rsp)
.endm

.macro reg_load reg:req, slot:req
	movq	\slot(%rsp), %\reg
.endm

/* Apply \op to the registers a callback may read as arguments (and %rax). */
.macro arg_regs op:req
	\op	rdi, RDI
	\op	rsi, RSI
	\op	rdx, RDX
	\op	rcx, RCX
	\op	r8, R8
	\op	r9, R9
	\op	rax, RAX
.endm

/* ... and to the rest of a full pt_regs, but %rbp. */
.macro other_regs op:req
	\op	rbx, RBX
	\op	r10, R10
	\op	r11, R11
	\op	r12, R12
	\op	r13, R13
	\op	r14, R14
	\op	r15, R15
.endm

/*
 * Make the frame records (frame pointers only) and pt_regs below the
 * \pushed bytes the caller pushed since entry, and fill in what both
 * callers save.  Leaves %rdi = ip, %rsi = parent for the callback.
 */
.macro frame_enter pushed:req
#ifdef CONFIG_FRAME_POINTER
	pushq	\pushed+8(%rsp)			/* parent */
	pushq	%rbp
	movq	%rsp, %rbp			/* upper record */
	pushq	\pushed+16(%rsp)		/* return into the traced function */
	pushq	%rbp
	movq	%rsp, %rbp			/* lower record */
#endif
	subq	$FRAME_SIZE, %rsp
	arg_regs reg_store
#ifdef CONFIG_FRAME_POINTER
	movq	FRAME_SIZE+16(%rsp), %rdx	/* %rbp at entry, in the upper record */
	movq	%rdx, RBP(%rsp)
#else
	movq	%rbp, RBP(%rsp)
#endif
	movq	$0, ORIG_RAX(%rsp)
	leaq	RET_SLOT(\pushed)+8(%rsp), %rsi
	movq	%rsi, RSP(%rsp)
	movq	RET_SLOT(\pushed)(%rsp), %rdi
	movq	%rdi, RIP(%rsp)
	movq	(%rsi), %rsi
	subq	$MCOUNT_INSN_SIZE, %rdi
.endm

/* Undo frame_enter but for the last \keep bytes of the frame. */
.macro frame_leave keep=0
	arg_regs reg_load
	movq	RBP(%rsp), %rbp
	addq	$FRAME_SIZE+FP_RECORDS-\keep, %rsp
.endm

#ifdef CONFIG_FUNCTION_GRAPH_TRACER
/*
 * A traced function whose return the graph tracer hooked returns here.
 * Its return values (%rax, %rdx) are kept while the graph tracer records
 * the exit and gives back the address it was to return to; that address
 * is then reached with a RET after a CALL of our own, so the CPU's
 * return predictions stay paired (and IBT needs no ENDBR there).
 */
SYM_CODE_START(return_to_handler)
	UNWIND_HINT_NONE
	ANNOTATE_NOENDBR
	/*
	 * The slot the traced function's return just left still holds our
	 * address: an unwinder sees a frame of ours there, and the graph
	 * tracer gives it the real return address (6.12's ORC says so).
	 */
	subq	$8, %rsp
	UNWIND_HINT_RTH
	/*
	 * The exit's registers as a partial pt_regs (6.12's graph tracer
	 * reads them as ftrace_regs: ax, dx, bp, sp).
	 */
	subq	$FRAME_SIZE, %rsp
	movq	%rax, RAX(%rsp)
	movq	%rdx, RDX(%rsp)
	movq	%rbp, RBP(%rsp)
	leaq	FRAME_SIZE+8(%rsp), %rdi
	movq	%rdi, RSP(%rsp)
#ifdef FTRACE_KBASE_612
	movq	%rsp, %rdi
#else
	movq	%rbp, %rdi
#endif
	call	ftrace_return_to_handler
	movq	%rax, %rdi
	movq	RDX(%rsp), %rdx
	movq	RAX(%rsp), %rax
	addq	$FRAME_SIZE+8, %rsp
	ANNOTATE_INTRA_FUNCTION_CALL
	call	.Lrth_ret
	int3
.Lrth_ret:
	movq	%rdi, (%rsp)
	ret_unpaired
SYM_CODE_END(return_to_handler)
#endif

#ifdef CONFIG_DYNAMIC_FTRACE

SYM_FUNC_START(ftrace_caller)
	CALL_DEPTH_ACCOUNT
	frame_enter 0
	/* A partial frame: no cs. */
	movq	$0, CS(%rsp)
SYM_INNER_LABEL(ftrace_caller_op_ptr, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	movq	function_trace_op(%rip), %rdx
	movq	%rsp, %rcx
	/* The callback is called past its accounting thunk. */
	CALL_DEPTH_ACCOUNT
SYM_INNER_LABEL(ftrace_call, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	call	ftrace_stub
	/* Return where regs.ip says (livepatch moves it). */
	movq	RIP(%rsp), %rax
	movq	%rax, RET_SLOT(0)(%rsp)
	frame_leave
	/* A trampoline's copy ends here, and adds its own return. */
SYM_INNER_LABEL(ftrace_caller_end, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	RET
SYM_FUNC_END(ftrace_caller)

SYM_FUNC_START(ftrace_regs_caller)
	/* The flags first, before anything below changes them. */
	pushfq
	CALL_DEPTH_ACCOUNT
	frame_enter 8
SYM_INNER_LABEL(ftrace_regs_caller_op_ptr, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	movq	function_trace_op(%rip), %rdx
	other_regs reg_store
	movq	RET_SLOT(0)(%rsp), %rcx
	movq	%rcx, EFLAGS(%rsp)
	movq	$__KERNEL_CS, CS(%rsp)
	movq	$__KERNEL_DS, SS(%rsp)
	movq	%rsp, %rcx
	CALL_DEPTH_ACCOUNT
SYM_INNER_LABEL(ftrace_regs_call, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	call	ftrace_stub
	/* Flags and return address as the callback left them. */
	movq	EFLAGS(%rsp), %rax
	movq	%rax, RET_SLOT(0)(%rsp)
	movq	RIP(%rsp), %rax
	movq	%rax, RET_SLOT(8)(%rsp)
	other_regs reg_load
	movq	ORIG_RAX(%rsp), %rax
	testq	%rax, %rax
SYM_INNER_LABEL(ftrace_regs_caller_jmp, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	jnz	.Lregs_direct
	frame_leave
	popfq
	/* A trampoline's copy ends here, and adds its own return. */
SYM_INNER_LABEL(ftrace_regs_caller_end, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	RET

	/*
	 * A direct call: the flags move one slot down and the direct
	 * target takes their place, so that after popfq the return goes to
	 * the target with the stack as the site's CALL left it.
	 */
.Lregs_direct:
	/* The frame records go now: unwind from here by the entry %rbp. */
	movq	RBP(%rsp), %rbp
	movq	RET_SLOT(0)(%rsp), %rcx
	movq	%rcx, RET_SLOT(0)-8(%rsp)
	movq	%rax, RET_SLOT(0)(%rsp)
	frame_leave 8
	popfq
	UNWIND_HINT_FUNC
	/*
	 * Into the target.  A CALL of our own first, consumed at once, so
	 * that the RET below pops its return-stack entry and the site's own
	 * stays for the target's return; and the RET is not counted, as the
	 * site's CALL was (call-depth tracking).
	 */
	ANNOTATE_INTRA_FUNCTION_CALL
	call	.Lregs_rebalance
	int3
.Lregs_rebalance:
	addq	$8, %rsp
	ret_unpaired
SYM_FUNC_END(ftrace_regs_caller)

/* What the compiler calls; every site is a NOP before it can run. */
SYM_FUNC_START(__fentry__)
	CALL_DEPTH_ACCOUNT
	RET
SYM_FUNC_END(__fentry__)
EXPORT_SYMBOL(__fentry__)

#ifdef CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS
/*
 * A direct-call target that does nothing (6.12's tracer self-test points
 * a direct call at it): back into the traced function.
 */
SYM_FUNC_START(ftrace_stub_direct_tramp)
	CALL_DEPTH_ACCOUNT
	RET
SYM_FUNC_END(ftrace_stub_direct_tramp)
#endif

/* Their frame records do not follow the frame-pointer conventions. */
STACK_FRAME_NON_STANDARD_FP(ftrace_caller)
STACK_FRAME_NON_STANDARD_FP(ftrace_regs_caller)

#else /* !CONFIG_DYNAMIC_FTRACE */

/*
 * Every site calls this: nothing to do unless a tracer is on, and then
 * the core's function (the list function) gets ip and parent.
 */
SYM_FUNC_START(__fentry__)
	CALL_DEPTH_ACCOUNT
	cmpq	$ftrace_stub, ftrace_trace_function(%rip)
	jne	.Lfentry_trace
	RET
.Lfentry_trace:
	frame_enter 0
	movq	$0, CS(%rsp)
	xorl	%edx, %edx
	movq	%rsp, %rcx
	movq	ftrace_trace_function(%rip), %r8
	CALL_NOSPEC r8
	frame_leave
	RET
SYM_FUNC_END(__fentry__)
EXPORT_SYMBOL(__fentry__)
STACK_FRAME_NON_STANDARD_FP(__fentry__)

#endif /* CONFIG_DYNAMIC_FTRACE */

/*
 * Functions that return at once, called through pointers (so typed for
 * kCFI): what the callers call while no tracer is on, and the graph
 * tracer's return hook while none is set.
 */
#ifdef CONFIG_FUNCTION_GRAPH_TRACER
SYM_TYPED_FUNC_START(ftrace_stub_graph)
	CALL_DEPTH_ACCOUNT
	RET
SYM_FUNC_END(ftrace_stub_graph)
#endif

SYM_TYPED_FUNC_START(ftrace_stub)
	CALL_DEPTH_ACCOUNT
	RET
SYM_FUNC_END(ftrace_stub)
