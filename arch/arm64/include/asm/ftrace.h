/* SPDX-License-Identifier: GPL-2.0 */
/*
 * arm64 definitions for the function tracer and dynamic ftrace.
 *
 * With dynamic ftrace the kernel is compiled with
 * -fpatchable-function-entry=2: every traceable function starts with two
 * words the compiler leaves as NOPs, and scripts/recordmcount writes
 * "mov x9, x30" over the first of them at build time.  The call site the
 * core records and patches is the second word: a NOP while the function
 * is not traced, "bl <caller>" while it is (see entry-ftrace.S).  Without
 * dynamic ftrace the kernel is compiled with -pg and every function calls
 * _mcount.
 */
#ifndef __ASM_FTRACE_H
#define __ASM_FTRACE_H

#include <asm/insn.h>

/* The graph tracer checks, on return, the frame pointer it saw on entry. */
#define HAVE_FUNCTION_GRAPH_FP_TEST

/*
 * The graph tracer names a hooked return by the caller's frame record,
 * which stays where it is while the traced function runs: see
 * ftrace_graph_ret_addr() in the unwinder.
 */
#define HAVE_FUNCTION_GRAPH_RET_ADDR_PTR

/* A call site is one instruction. */
#define MCOUNT_INSN_SIZE	AARCH64_INSN_SIZE

/*
 * The two per-module veneers module.c sets up (with ARM64_MODULE_PLTS) for
 * sites whose caller is beyond the reach of a BL.
 */
#define FTRACE_PLT_IDX		0
#define FTRACE_REGS_PLT_IDX	1
#define NR_FTRACE_PLTS		2

/*
 * gcc saves the link register above a function's locals, so the stack
 * tracer finds a function's return address after its locals.
 */
#define ARCH_FTRACE_SHIFT_STACK_TRACER 1

#ifdef CONFIG_DYNAMIC_FTRACE_WITH_REGS
/* The callers pass the ops and the registers to the ops' function. */
#define ARCH_SUPPORTS_FTRACE_OPS 1
/*
 * ftrace_caller's mark in orig_x0 on 6.12: the pt_regs it passes holds a
 * part of the registers (see struct ftrace_regs below).  Never a direct call's
 * target, which ftrace_regs_caller's callbacks leave there.
 */
#define FTRACE_A64_PARTIAL	1
/*
 * What a fresh site holds, in the core's terms: the compiler's NOP (and,
 * before it, a NOP or the "mov x9, x30" of the build).  No code lives
 * there; the value only has to differ from every real target.
 */
#define MCOUNT_ADDR		((unsigned long)ftrace_fresh_site)
#else
#define MCOUNT_ADDR		((unsigned long)_mcount)
#endif

#ifndef __ASSEMBLY__
#include <linux/compat.h>

extern void _mcount(unsigned long);
void ftrace_fresh_site(void);
void *return_address(unsigned int level);
#define ftrace_return_address(n) return_address(n)

/* Nothing per record: a site's state is what the core keeps. */
struct dyn_arch_ftrace {
};

extern void return_to_handler(void);
void prepare_ftrace_return(unsigned long ip, unsigned long *parent,
			   unsigned long frame_pointer);

/* __mcount_loc holds the call site itself: no adjustment. */
static inline unsigned long ftrace_call_adjust(unsigned long addr)
{
	return addr;
}

#ifdef CONFIG_DYNAMIC_FTRACE_WITH_REGS
struct ftrace_ops;

/*
 * What a callback gets is a struct pt_regs of the site: every general
 * register when its ops asked for them (ftrace_regs_caller), otherwise
 * x0-x8, fp, lr, sp, pc and PSTATE only (ftrace_caller), and then, on
 * 6.12, orig_x0 says so (FTRACE_A64_PARTIAL).  6.1 lets users reach it as
 * fregs->regs; 6.12 (with DYNAMIC_FTRACE_WITH_ARGS) hides it behind an
 * opaque struct ftrace_regs, and <linux/ftrace_regs.h> wraps the same
 * pt_regs.
 */
#ifdef CONFIG_HAVE_DYNAMIC_FTRACE_WITH_ARGS
# include <asm/ptrace.h>
# include <linux/ftrace_regs.h>
# define ftrace_fregs_pt(fregs)	(&arch_ftrace_regs(fregs)->regs)

/* The whole register set, or NULL where the caller saved a part. */
static __always_inline struct pt_regs *
arch_ftrace_get_regs(struct ftrace_regs *fregs)
{
	struct pt_regs *regs = ftrace_fregs_pt(fregs);

	return regs->orig_x0 == FTRACE_A64_PARTIAL ? NULL : regs;
}

/* Where the traced function goes on (the caller returns to regs.pc). */
static __always_inline void
ftrace_regs_set_instruction_pointer(struct ftrace_regs *fregs,
				    unsigned long pc)
{
	ftrace_fregs_pt(fregs)->pc = pc;
}

/* 6.1's name for it. */
#define ftrace_instruction_pointer_set ftrace_regs_set_instruction_pointer

/* What perf needs to unwind from the traced function's entry. */
static __always_inline void
arch_ftrace_fill_perf_regs(struct ftrace_regs *fregs, struct pt_regs *regs)
{
	struct pt_regs *site = ftrace_fregs_pt(fregs);

	regs->pc = site->pc;
	regs->regs[29] = site->regs[29];
	regs->sp = site->sp;
	regs->pstate = PSR_MODE_EL1h;
}

#define arch_ftrace_fill_perf_regs arch_ftrace_fill_perf_regs
#else
struct ftrace_regs;
# define ftrace_fregs_pt(fregs)	(&(fregs)->regs)
#endif

void ftrace_call(void);
void ftrace_regs_call(void);

/* The templates of the per-ops trampolines (entry-ftrace.S). */
extern const u8 ftrace_tramp_template[], ftrace_tramp_template_end[];
extern const u8 ftrace_regs_tramp_template[], ftrace_regs_tramp_template_end[];

void ftrace_graph_func(unsigned long ip, unsigned long parent_ip,
		       struct ftrace_ops *op, struct ftrace_regs *fregs);
#define ftrace_graph_func ftrace_graph_func

/* An ops is called with the site, not the function: see ftrace.c. */
unsigned long ftrace_site_func(unsigned long ip);
#define ftrace_site_func ftrace_site_func

#ifdef CONFIG_HAVE_DYNAMIC_FTRACE_WITH_DIRECT_CALLS
/*
 * A direct call on a site that other ops want as well: the direct ops
 * leaves the target in orig_x0, which ftrace_regs_caller cleared, and
 * ftrace_regs_caller leaves through it.  A target is entered as a site
 * enters a caller: x9 holds the function's return address, x30 the
 * address where the function resumes.
 */
static inline void __arch_ftrace_set_direct_caller(struct pt_regs *regs,
						   unsigned long addr)
{
	regs->orig_x0 = addr;
}

/* 6.1 hands the callback's pt_regs, 6.12 its ftrace_regs. */
#ifdef CONFIG_HAVE_DYNAMIC_FTRACE_WITH_ARGS
# define arch_ftrace_set_direct_caller(fregs, addr)	\
	__arch_ftrace_set_direct_caller(ftrace_fregs_pt(fregs), addr)
#else
# define arch_ftrace_set_direct_caller(regs, addr)	\
	__arch_ftrace_set_direct_caller(regs, addr)
#endif

/* A target that does nothing (entry-ftrace.S), for the boot self test. */
void ftrace_stub_direct_tramp(void);
#endif
#endif

/*
 * System calls, for kernel/trace/trace_syscalls.c.  The handlers' symbols
 * carry an "__arm64_" prefix that the event names lack; and an AArch32
 * task's calls go through a table of their own, so they are not traced as
 * system calls.
 */
#define ARCH_HAS_SYSCALL_MATCH_SYM_NAME

static inline bool arch_syscall_match_sym_name(const char *sym,
					       const char *name)
{
	size_t skip = str_has_prefix(sym, "__arm64_");

	return skip && !strcmp(sym + skip, name);
}

#define ARCH_TRACE_IGNORE_COMPAT_SYSCALLS
static inline bool arch_trace_is_compat_syscall(struct pt_regs *regs)
{
	return is_compat_task();
}
#endif /* __ASSEMBLY__ */

#ifdef __ASSEMBLY__
/*
 * Store (@op stp) or load (@op ldp) x8-x27 in their slots of a struct
 * pt_regs at sp (asm-offsets' S_Xn): the middle of a full register save
 * and restore, which ftrace_regs_caller and (on 6.1) the rethook trampoline
 * share.
 */
	.macro	pt_regs_x8_x27, op
	\op	x8, x9, [sp, #S_X8]
	\op	x10, x11, [sp, #S_X10]
	\op	x12, x13, [sp, #S_X12]
	\op	x14, x15, [sp, #S_X14]
	\op	x16, x17, [sp, #S_X16]
	\op	x18, x19, [sp, #S_X18]
	\op	x20, x21, [sp, #S_X20]
	\op	x22, x23, [sp, #S_X22]
	\op	x24, x25, [sp, #S_X24]
	\op	x26, x27, [sp, #S_X26]
	.endm
#endif

#endif /* __ASM_FTRACE_H */
