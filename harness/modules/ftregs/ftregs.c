// SPDX-License-Identifier: GPL-2.0
/*
 * What an ftrace callback sees of a traced function (x86_64 or arm64), and
 * what it may change, through each way a call site can lead to it: an ops alone
 * on the function (its trampoline, if the kernel makes one), two ops (the
 * shared caller and the list function), with and without saved registers.
 *
 * Loading the module runs every check and logs "ftregs: ok NAME" or
 * "ftregs: FAIL NAME: why" for each, then "ftregs: done N failed".
 * harness/ftt/caller-regs.tc reads the log.  Nothing in it is specific to
 * one kernel: it runs on 6.1 and on ours.
 */
#include <linux/ftrace.h>
#include <linux/irqflags.h>
#include <linux/module.h>
#ifdef CONFIG_X86
#include <asm/ibt.h>
#include <asm/segment.h>
#else
#include <asm/insn.h>
#include <asm/stack_pointer.h>
#endif

/*
 * From 6.13, and in Debian's 6.12.117 (BASE=6.12), struct ftrace_regs is
 * opaque: its pt_regs is reached through arch_ftrace_regs(), and
 * ftrace_instruction_pointer_set() is ftrace_regs_set_instruction_pointer().
 */
#ifdef arch_ftrace_regs
#define FREGS_PT(fregs)	(&arch_ftrace_regs(fregs)->regs)
#define ftrace_instruction_pointer_set ftrace_regs_set_instruction_pointer
#else
#define FREGS_PT(fregs)	(&(fregs)->regs)
#endif

/* ftregs_target(1, 2, 3, 4, 5, 6), and what ftregs_instead() returns. */
#define SUM	(1 + 2 * 2 + 3 * 3 + 4 * 4 + 5 * 5 + 6 * 6)
#define MOVED	(-(1 + 2 + 3 + 4 + 5 + 6))

static noinline long ftregs_target(long a, long b, long c, long d, long e,
				   long f)
{
	return a + b * 2 + c * 3 + d * 4 + e * 5 + f * 6;
}

static noinline long ftregs_instead(long a, long b, long c, long d, long e,
				    long f)
{
	return -(a + b + c + d + e + f);
}

/* What a callback saw at its last call. */
struct seen {
	unsigned int calls;
	unsigned long ip, parent_ip;
	bool full;		/* ftrace_get_regs() gave a pt_regs */
	struct pt_regs regs;
	unsigned long at_sp;	/* the word regs.sp points at */
	unsigned long below_sp;	/* and the word below it */
};

struct probe {
	struct ftrace_ops ops;
	struct seen seen;
	bool redirect;
};

static void notrace ftregs_func(unsigned long ip, unsigned long parent_ip,
				struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct probe *p = container_of(op, struct probe, ops);
	struct seen *s = &p->seen;

	s->calls++;
	s->ip = ip;
	s->parent_ip = parent_ip;
	s->full = ftrace_get_regs(fregs);
	s->regs = *FREGS_PT(fregs);
#ifdef CONFIG_X86
	s->at_sp = ((unsigned long *)FREGS_PT(fregs)->sp)[0];
	s->below_sp = ((unsigned long *)FREGS_PT(fregs)->sp)[-1];
#endif
	/*
	 * 6.1's ftrace_instruction_pointer_set() does nothing without
	 * DYNAMIC_FTRACE_WITH_ARGS (arm64): there an IPMODIFY ops sets the
	 * pc of its pt_regs.
	 */
	if (p->redirect && IS_ENABLED(CONFIG_HAVE_DYNAMIC_FTRACE_WITH_ARGS))
		ftrace_instruction_pointer_set(fregs,
					       (unsigned long)ftregs_instead);
	else if (p->redirect)
		instruction_pointer_set(FREGS_PT(fregs),
					(unsigned long)ftregs_instead);
}

static struct probe plain = { .ops.func = ftregs_func };
static struct probe full = {
	.ops.func = ftregs_func,
	.ops.flags = FTRACE_OPS_FL_SAVE_REGS,
};

static struct probe mover = {
	.ops.func = ftregs_func,
	.ops.flags = FTRACE_OPS_FL_IPMODIFY,
	.redirect = true,
};

static struct probe full_mover = {
	.ops.func = ftregs_func,
	.ops.flags = FTRACE_OPS_FL_IPMODIFY | FTRACE_OPS_FL_SAVE_REGS,
	.redirect = true,
};

static int failed;

#ifdef CONFIG_ARM64
/* The frame and stack pointers where call_target() calls the function. */
static unsigned long call_fp, call_sp;
#endif

/* One call of ftregs_target(1, ..., 6), its arguments in registers. */
static long call_target(void)
{
	long (*fn)(long, long, long, long, long, long) = ftregs_target;

	/* No constant propagation into a clone of the function. */
	OPTIMIZER_HIDE_VAR(fn);
#ifdef CONFIG_ARM64
	call_fp = (unsigned long)__builtin_frame_address(0);
	call_sp = current_stack_pointer;
#endif
	return fn(1, 2, 3, 4, 5, 6);
}

static void report(const char *what, const char *why)
{
	if (why) {
		failed++;
		pr_info("ftregs: FAIL %s: %s\n", what, why);
	} else {
		pr_info("ftregs: ok %s\n", what);
	}
}

#ifdef CONFIG_X86
#define SEEN_PC(s)	((s)->regs.ip)

/* The call site: the function's first instruction, or the one after ENDBR. */
static unsigned long target_site(void)
{
	unsigned long fn = (unsigned long)ftregs_target;

	return fn + (is_endbr(*(u32 *)fn) ? ENDBR_INSN_SIZE : 0);
}

/* What x86_64's pt_regs must hold besides ip: the stack and the arguments. */
static const char *check_arch(const struct seen *s, bool full_wanted,
			      unsigned long site)
{
	/* regs.sp: the parent's slot, just above the return into the site. */
	if (s->at_sp != s->parent_ip || s->below_sp != site + MCOUNT_INSN_SIZE ||
	    s->parent_ip == site + MCOUNT_INSN_SIZE)
		return "regs.sp does not point at the parent's return address";
	if (s->regs.di != 1 || s->regs.si != 2 || s->regs.dx != 3 ||
	    s->regs.cx != 4 || s->regs.r8 != 5 || s->regs.r9 != 6)
		return "argument registers differ from the arguments";
	if (s->full != full_wanted)
		return full_wanted ? "no full pt_regs with SAVE_REGS" :
				     "a full pt_regs without SAVE_REGS";
	if (full_wanted && (s->regs.cs != __KERNEL_CS ||
			    s->regs.ss != __KERNEL_DS ||
			    !(s->regs.flags & X86_EFLAGS_IF) ||
			    !(s->regs.flags & X86_EFLAGS_FIXED)))
		return "full pt_regs without kernel segments or real flags";
	return NULL;
}
#else
#define SEEN_PC(s)	((s)->regs.pc)

/*
 * The call site: the BL after "mov x9, x30" at the function's start (or
 * after its BTI C).
 */
static unsigned long target_site(void)
{
	unsigned long fn = (unsigned long)ftregs_target;

	/* BTI C is HINT #34: the NOP encoding with AARCH64_INSN_HINT_BTIC. */
	if (le32_to_cpu(*(__le32 *)fn) == (0xd503201f | AARCH64_INSN_HINT_BTIC))
		fn += AARCH64_INSN_SIZE;
	return fn + AARCH64_INSN_SIZE;
}

/*
 * What arm64's pt_regs must hold besides pc: the traced function's return
 * address in x30 (what the callback got as parent_ip, a return into
 * call_target()), its caller's frame and stack pointers in x29 and sp (a
 * return hook and an unwinder go by them), the arguments in x0-x5, and a
 * kernel-mode PSTATE, with interrupts on where SAVE_REGS asked for it.
 * On 6.1 arm64 always passes a pt_regs.  6.12 (DYNAMIC_FTRACE_WITH_ARGS)
 * gives ftrace_get_regs() one only when an ops asked for SAVE_REGS, and
 * ours marks the partial set in orig_x0 (FTRACE_A64_PARTIAL).  6.1's
 * arm64 (which has no direct calls: that tells the kernels apart) leaves
 * PSTATE unset, stack garbage; ours sets it, so that check is ours only.
 */
static const char *check_arch(const struct seen *s, bool full_wanted,
			      unsigned long site)
{
	if (s->regs.regs[30] != s->parent_ip ||
	    s->parent_ip == site + MCOUNT_INSN_SIZE)
		return "regs[30] is not the traced function's return address";
	if (s->regs.regs[29] != call_fp)
		return "regs[29] is not the caller's frame pointer";
	if (s->regs.sp != call_sp)
		return "sp is not the caller's stack pointer";
	if (s->regs.regs[0] != 1 || s->regs.regs[1] != 2 ||
	    s->regs.regs[2] != 3 || s->regs.regs[3] != 4 ||
	    s->regs.regs[4] != 5 || s->regs.regs[5] != 6)
		return "argument registers differ from the arguments";
#ifdef CONFIG_HAVE_DYNAMIC_FTRACE_WITH_ARGS
	if (s->full != full_wanted)
		return full_wanted ? "no full pt_regs with SAVE_REGS" :
				     "a full pt_regs without SAVE_REGS";
#ifdef FTRACE_A64_PARTIAL
	if ((s->regs.orig_x0 == FTRACE_A64_PARTIAL) == full_wanted)
		return "orig_x0 does not mark the partial set (and only it)";
#endif
#else
	if (!s->full)
		return "no pt_regs";
#endif
	if (!IS_ENABLED(CONFIG_HAVE_DYNAMIC_FTRACE_WITH_DIRECT_CALLS))
		return NULL;
	if ((s->regs.pstate & PSR_MODE_MASK) != PSR_MODE_EL1h)
		return "PSTATE is not kernel mode (EL1h)";
	if (full_wanted && (s->regs.pstate & PSR_I_BIT))
		return "full pt_regs with interrupts masked";
	return NULL;
}
#endif

/*
 * What is wrong with @s after one call_target(), or NULL.
 * @full_wanted: an ops of the run asked for saved registers (they all see
 * the same frame); @moved: an ops of the run moves regs.ip, maybe before
 * this one is called.
 */
static const char *check_seen(const struct seen *s, bool full_wanted,
			      bool moved)
{
	unsigned long site = target_site();

	if (s->calls != 1)
		return "not called exactly once";
	if (s->ip != site)
		return "ip is not the call site";
	if (SEEN_PC(s) != site + MCOUNT_INSN_SIZE &&
	    !(moved && SEEN_PC(s) == (unsigned long)ftregs_instead))
		return "regs.ip is not the return into the traced function";
	return check_arch(s, full_wanted, site);
}

static int arm(struct probe *p)
{
	int ret;

	memset(&p->seen, 0, sizeof(p->seen));
	/*
	 * The filter is set anew each time and freed only at unload: 6.1's
	 * ftrace_free_filter() leaves the ops pointing at the freed hashes.
	 */
	ret = ftrace_set_filter_ip(&p->ops, (unsigned long)ftregs_target, 0, 1);
	return ret ?: register_ftrace_function(&p->ops);
}

static void disarm(struct probe *p)
{
	unregister_ftrace_function(&p->ops);
}

/* One call, each probe of @ps registered; @want is the value it returns. */
static void run(const char *what, struct probe **ps, int n, long want)
{
	bool full_wanted = false, moved = false;
	const char *why = NULL;
	long got;
	int i, armed;

	for (i = 0; i < n; i++) {
		full_wanted |= ps[i]->ops.flags & FTRACE_OPS_FL_SAVE_REGS;
		moved |= ps[i]->redirect;
	}
	for (armed = 0; armed < n; armed++)
		if (arm(ps[armed])) {
			why = "could not register";
			break;
		}
	if (!why) {
		got = call_target();
		if (irqs_disabled())
			why = "interrupts left off (flags not restored)";
		else if (got != want)
			why = got == SUM ? "the traced function ran" :
					   "unexpected return value";
	}
	for (i = 0; !why && i < n; i++)
		why = check_seen(&ps[i]->seen, full_wanted, moved);
	for (i = armed - 1; i >= 0; i--)
		disarm(ps[i]);
	report(what, why);
}

/* The runs: the probes registered together, in order, and the result. */
static const struct {
	const char *what;
	struct probe *probes[2];
	long want;
} runs[] = {
	{ "alone", { &plain }, SUM },
	{ "alone-regs", { &full }, SUM },
	{ "shared", { &plain, &full }, SUM },
	{ "ip-alone", { &mover }, MOVED },
	{ "ip-alone-regs", { &full_mover }, MOVED },
	{ "ip-shared", { &mover, &plain }, MOVED },
};

static int __init ftregs_init(void)
{
	struct probe *ps[2];
	int i, n;

	failed = 0;
	for (i = 0; i < ARRAY_SIZE(runs); i++) {
		for (n = 0; n < 2 && runs[i].probes[n]; n++)
			ps[n] = runs[i].probes[n];
		run(runs[i].what, ps, n, runs[i].want);
	}
	/* Off again: the function runs as compiled. */
	if (call_target() != SUM || plain.seen.calls != 1)
		report("off", "the function does not run as compiled");
	else
		report("off", NULL);
	pr_info("ftregs: done %d failed\n", failed);
	return 0;
}
module_init(ftregs_init);

static void __exit ftregs_exit(void)
{
	ftrace_free_filter(&plain.ops);
	ftrace_free_filter(&full.ops);
	ftrace_free_filter(&mover.ops);
	ftrace_free_filter(&full_mover.ops);
}
module_exit(ftregs_exit);

MODULE_DESCRIPTION("What an ftrace callback sees of registers");
MODULE_LICENSE("GPL");
