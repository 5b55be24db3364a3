/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the generic ftrace code and its users need to know of x86: the
 * call site (gcc's -mfentry), the registers a callback sees, and how
 * system call symbols are named.  The back end's own encodings are in
 * <asm/ftrace_insn.h>.
 */
#ifndef _ASM_X86_FTRACE_H
#define _ASM_X86_FTRACE_H

#include <linux/ftrace_kbase.h>

#ifdef CONFIG_FUNCTION_TRACER

#ifndef CC_USING_FENTRY
# error "x86 function tracing needs the compiler's -mfentry"
#endif

/* Every traced function calls __fentry__ with a 5-byte CALL. */
#define MCOUNT_ADDR		((unsigned long)(__fentry__))
#define MCOUNT_INSN_SIZE	5

#ifdef CONFIG_HAVE_FENTRY
# include <asm/ibt.h>
/*
 * The site is the first instruction, or follows the ENDBR of an indirect
 * branch target; a recorded address further in is a dead copy of an
 * overridden weak function.
 */
# define FTRACE_MCOUNT_MAX_OFFSET	ENDBR_INSN_SIZE
#endif

#ifdef CONFIG_DYNAMIC_FTRACE
/* The callers pass the ops as the third argument. */
# define ARCH_SUPPORTS_FTRACE_OPS	1
#endif

/* The graph tracer is told where each hooked return address lives. */
#define HAVE_FUNCTION_GRAPH_RET_ADDR_PTR

#ifndef __ASSEMBLY__
struct ftrace_ops;

void __fentry__(void);

/* recordmcount already records the CALL's own address. */
static inline unsigned long ftrace_call_adjust(unsigned long addr)
{
	return addr;
}

#ifdef CONFIG_HAVE_DYNAMIC_FTRACE_WITH_ARGS
/*
 * What a callback gets: a pt_regs, full when its ops asked for registers,
 * otherwise with the argument registers, ax, orig_ax, ip, sp and bp only
 * and cs 0.  6.12 hides it behind struct ftrace_regs (<linux/ftrace_regs.h>
 * wraps the same pt_regs); 6.1 lets users reach it as fregs->regs.
 */
#ifdef FTRACE_KBASE_612
# include <linux/ftrace_regs.h>
# define ftrace_fregs_pt(fregs)	(&arch_ftrace_regs(fregs)->regs)
#else
struct ftrace_regs {
	struct pt_regs regs;
};

# define ftrace_fregs_pt(fregs)	(&(fregs)->regs)
#endif

static __always_inline struct pt_regs *
arch_ftrace_get_regs(struct ftrace_regs *fregs)
{
	return ftrace_fregs_pt(fregs)->cs ? ftrace_fregs_pt(fregs) : NULL;
}

/* Where the traced function goes on (the caller returns to regs.ip). */
static __always_inline void
ftrace_regs_set_instruction_pointer(struct ftrace_regs *fregs,
				    unsigned long ip)
{
	ftrace_fregs_pt(fregs)->ip = ip;
}

/* 6.1's name for it. */
#define ftrace_instruction_pointer_set ftrace_regs_set_instruction_pointer

#ifdef FTRACE_KBASE_612
/*
 * A pt_regs made from a partial set (kprobes and perf ask for one): the
 * saved registers are there, only cs and the fixed flag bit are not.
 */
static __always_inline void arch_ftrace_partial_regs(struct pt_regs *regs)
{
	regs->flags |= X86_EFLAGS_FIXED;
	regs->cs = __KERNEL_CS;
}

#define arch_ftrace_partial_regs arch_ftrace_partial_regs

/* What perf needs to unwind from the traced function's entry. */
static __always_inline void
arch_ftrace_fill_perf_regs(struct ftrace_regs *fregs, struct pt_regs *regs)
{
	regs->ip = ftrace_fregs_pt(fregs)->ip;
	regs->sp = ftrace_fregs_pt(fregs)->sp;
	regs->cs = __KERNEL_CS;
	regs->flags = 0;
}

#define arch_ftrace_fill_perf_regs arch_ftrace_fill_perf_regs
#endif

/* The graph tracer is an ops like any other (ftrace_graph.c). */
void ftrace_graph_func(unsigned long ip, unsigned long parent_ip,
		       struct ftrace_ops *op, struct ftrace_regs *fregs);
#define ftrace_graph_func ftrace_graph_func
#endif /* CONFIG_HAVE_DYNAMIC_FTRACE_WITH_ARGS */

/*
 * A direct call on a function that other ops trace as well: the callback
 * leaves the target in orig_ax, and ftrace_regs_caller leaves through it.
 * 6.1 hands the callback's pt_regs, 6.12 its ftrace_regs.
 */
static inline void __arch_ftrace_set_direct_caller(struct pt_regs *regs,
						   unsigned long addr)
{
	regs->orig_ax = addr;
}

#ifdef FTRACE_KBASE_612
# define arch_ftrace_set_direct_caller(fregs, addr)	\
	__arch_ftrace_set_direct_caller(ftrace_fregs_pt(fregs), addr)
#else
# define arch_ftrace_set_direct_caller(regs, addr)	\
	__arch_ftrace_set_direct_caller(regs, addr)
#endif

#ifndef CONFIG_HAVE_DYNAMIC_FTRACE_WITH_ARGS
/* 32-bit: the callers jump to ftrace_graph_caller themselves. */
#define FTRACE_GRAPH_TRAMP_ADDR FTRACE_GRAPH_ADDR
#endif

#ifdef CONFIG_DYNAMIC_FTRACE
/* A record needs nothing of x86's own. */
struct dyn_arch_ftrace {
};
#endif

#endif /* !__ASSEMBLY__ */
#endif /* CONFIG_FUNCTION_TRACER */

#ifndef __ASSEMBLY__

#if defined(CONFIG_FUNCTION_TRACER) && defined(CONFIG_DYNAMIC_FTRACE)
void set_ftrace_ops_ro(void);
#else
static inline void set_ftrace_ops_ro(void) { }
#endif

/*
 * A system call's symbol is its name with "sys" replaced by one of the
 * prefixes below: "__x64_sys_read", "__ia32_sys_read" and "__do_sys_read"
 * all name the system call "sys_read".
 */
#define ARCH_HAS_SYSCALL_MATCH_SYM_NAME
static inline bool arch_syscall_match_sym_name(const char *sym,
					       const char *name)
{
	static const char * const prefixes[] = {
		"__x64_sys", "__ia32_sys", "__do_sys", NULL
	};
	const char * const *p;

	/* @name is "sys_..."; any three leading characters match "sys". */
	if (!strcmp(sym + 3, name + 3))
		return true;
	for (p = prefixes; *p; p++)
		if (!strncmp(sym, *p, strlen(*p)) &&
		    !strcmp(sym + strlen(*p), name + 3))
			return true;
	return false;
}

#ifndef COMPILE_OFFSETS
#if defined(CONFIG_FTRACE_SYSCALLS) && defined(CONFIG_IA32_EMULATION)
#include <linux/compat.h>

/*
 * A 32-bit task's system call numbers are not x86_64's: the system call
 * events would name the wrong calls, so they skip such tasks.
 */
#define ARCH_TRACE_IGNORE_COMPAT_SYSCALLS 1
static inline bool arch_trace_is_compat_syscall(struct pt_regs *regs)
{
	return in_32bit_syscall();
}
#endif
#endif /* !COMPILE_OFFSETS */

#endif /* !__ASSEMBLY__ */

#endif /* _ASM_X86_FTRACE_H */
