/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the dynamic ftrace core asks of an architecture.
 *
 * The core decides, for every call site, what the site calls now and what
 * it must call next: the NOP, the shared caller (FTRACE_ADDR, or
 * FTRACE_REGS_ADDR when an ops needs the full register set), one ops'
 * trampoline, or a direct-call target.  The arch owns everything below
 * that decision: the instruction encoding, checking what a site holds
 * before writing it, the way other CPUs are kept safe while code changes,
 * and the code that runs at a call (the callers, trampolines, the graph
 * return path).
 *
 * An arch that selects HAVE_FTRACE_ARCH_BATCH implements every function
 * declared here.  For the others, kernel/trace/ftrace_compat.c implements
 * them on top of the interface those arches already have
 * (ftrace_make_call(), ftrace_modify_all_code(), ... in <linux/ftrace.h>).
 *
 * Context: unless a description says otherwise, the core calls these with
 * ftrace_lock held, in task context that may sleep.  The arch takes
 * text_mutex (or whatever its text writes need) itself.
 *
 * Failure is closed.  A back end that finds a site not holding what the
 * core says it holds writes nothing to that site and reports it; the core
 * then prints one report and never patches code again.
 */
#ifndef _LINUX_FTRACE_ARCH_H
#define _LINUX_FTRACE_ARCH_H

#include <linux/ftrace.h>
#include <linux/types.h>

struct ftrace_ops;
struct module;

/* How many sites one batch holds at most. */
#define FTRACE_BATCH_MAX	256
/* Room for the instruction bytes of one site in a failure report. */
#define FTRACE_SITE_BYTES	16

/**
 * struct ftrace_patch - one call site to change
 * @ip: the address of the site, as recorded in __mcount_loc
 * @old: what the site calls now: 0 for the NOP, MCOUNT_ADDR for the
 *	instruction the compiler emitted (only in a batch with @init set)
 * @new: what the site must call: 0 for the NOP; never equal to @old
 */
struct ftrace_patch {
	unsigned long ip;
	unsigned long old;
	unsigned long new;
};

/**
 * struct ftrace_batch - call sites to change together
 * @patch: the changes, in ascending @ip order, one per site
 * @nr: the number of entries, 1 to FTRACE_BATCH_MAX
 * @live: other CPUs may be executing the sites; when false (sites of the
 *	kernel at boot, or of a module before it runs) the arch may write
 *	each site directly, without any cross-CPU protocol
 * @init: the sites are fresh: each still holds what the compiler emitted
 *	(or a NOP, if the build already wrote one), and @old is MCOUNT_ADDR
 * @mod: the module the sites belong to when @live is false, or NULL
 * @done: set by the arch: how many leading entries it has written; on
 *	success, @nr
 * @changed: set by the arch for an @init batch: how many of the @done
 *	sites it had to change; the others held @new already (the build
 *	wrote it)
 * @bad: set by the arch on failure: the index of the site it refused
 * @len: set by the arch on failure: the number of valid bytes below
 * @expected: set by the arch on failure: the bytes it expected at @bad
 * @found: set by the arch on failure: the bytes it found there
 */
struct ftrace_batch {
	struct ftrace_patch *patch;
	unsigned int nr;
	bool live;
	bool init;
	struct module *mod;
	unsigned int done;
	unsigned int changed;
	unsigned int bad;
	unsigned int len;
	u8 expected[FTRACE_SITE_BYTES];
	u8 found[FTRACE_SITE_BYTES];
};

/**
 * ftrace_arch_init - prepare the back end, once, at boot
 *
 * Called from ftrace_init() in start_kernel(): before any site is
 * touched, before other CPUs are up, with interrupts still disabled;
 * memory allocation works, sleeping does not.
 *
 * Return: 0, or a negative error: dynamic ftrace then stays off.
 */
int ftrace_arch_init(void);

/**
 * ftrace_arch_fresh_idle - does the build leave every site idle?
 *
 * True when the build writes, at every call site it records, the
 * instruction of an idle site (what ftrace_arch_patch() writes for a new
 * of 0).  The core then checks the fresh sites of a block by sample, every
 * FTRACE_FRESH_SAMPLE-th one, and converts the whole block only if a
 * sampled site had to be changed.  A site the sample missed that still
 * holds the compiler's call runs it harmlessly, and the first update that
 * patches it finds it holding something else, refuses it and shuts
 * ftrace off with one report.
 *
 * Return: true or false; the same every time.
 */
bool ftrace_arch_fresh_idle(void);

/* One fresh site in this many is checked when the build idles them all. */
#define FTRACE_FRESH_SAMPLE	16

/**
 * ftrace_arch_patch - change every site of a batch
 * @batch: the sites and what they must call
 *
 * Checks every site against its @old before writing any of them (a
 * back end that cannot check them all first says so in its own
 * documentation, and reports the writes it made in @done).  On a site
 * that does not hold @old, it fills in @bad, @len, @expected and @found
 * and returns -EINVAL.  When it returns, every written site has been made
 * visible to every CPU: a CPU that calls through a site afterwards
 * reaches @new.
 *
 * An @init batch only ever has @new 0: fresh sites become idle.  Their
 * @old, MCOUNT_ADDR, stands for what the build left there: the compiler's
 * call, or whatever idle instruction the compiler or the build wrote
 * instead (patchable function entries are NOPs); the back end knows which
 * it accepts.  @changed means something only for an @init batch.
 *
 * A batch with @live false is text no CPU executes yet: the kernel's at
 * boot, or a module's before it runs.  The back end may skip its
 * cross-CPU protocol.  An @init batch's text is still writable (the
 * kernel's before its text is made read-only, a module's before it is
 * formed) and may be stored to in place; a module's sites enabled just
 * before it runs are read-only by then, and go through the back end's
 * text patching path.
 *
 * When @new is out of reach of a site's call, the back end may make the
 * site call something equivalent it can reach (the register-saving
 * shared caller, which serves every ops, or a veneer that leads to
 * @new); the core reads what a site calls back only through
 * ftrace_arch_tramp_callee().  If nothing equivalent is in reach, it
 * refuses the site like any other.
 *
 * On -EFAULT and -EPERM, @bad is the site that failed; @len may be 0
 * when the back end has no bytes to show.
 *
 * Context: ftrace_lock held (and trace_types_lock when a module's sites
 * are enabled as it goes live); no lock of the module loader.  At boot
 * (ftrace_init(), the kernel's own sites) the only CPU runs with
 * interrupts disabled: the back end must not sleep or send IPIs then,
 * which a batch with @live false needs neither.  The back end takes
 * text_mutex itself where its writes need it.
 *
 * Return: 0; -EINVAL (a site does not hold @old), -EFAULT (a site cannot
 * be read), -EPERM (a site cannot be written), or another negative error.
 */
int ftrace_arch_patch(struct ftrace_batch *batch);

/**
 * ftrace_arch_set_func - choose what the shared caller calls
 * @func: the list function, or the one ops' function
 *
 * The core publishes function_trace_op, and makes it visible on every
 * CPU, before it asks for an ops' own function; it switches to the list
 * function (which does not use function_trace_op) before it changes
 * function_trace_op.  So when this returns, the new call must be what
 * every CPU executes from then on, as for ftrace_arch_patch().  When
 * @func is out of reach of the caller's call, calling the list function
 * instead is correct (it calls every ops that wants the site).
 *
 * Return: 0, or a negative error (ftrace then shuts itself off).
 */
int ftrace_arch_set_func(ftrace_func_t func);

/**
 * ftrace_arch_set_graph - turn the graph tracer's entry hook on or off
 * @on: whether the callers go to the graph entry code after the tracers
 *
 * For an arch whose shared callers jump to a graph hook of their own (the
 * 6.1 scheme).  A back end that makes the graph tracer an ops (it defines
 * ftrace_graph_func(), which the core registers like any ops' function)
 * has nothing to switch and returns 0.
 *
 * Return: 0, or a negative error (ftrace then shuts itself off).
 */
int ftrace_arch_set_graph(bool on);

/*
 * Per-ops trampolines.  The core runs their life (when one is made,
 * pointed, parked on a function that does nothing, listed, freed:
 * kernel/trace/ftrace_tramp.c); the back end gives three steps.  A back
 * end without trampolines declines in ftrace_arch_tramp_make(), and the
 * core never calls the other two: every site then calls a shared caller.
 */

/**
 * ftrace_arch_tramp_make - make @ops a trampoline of its own
 * @ops: an ops with no trampoline
 * @func: what the trampoline calls: ftrace_stub (parked, while the update
 *	that points sites at it runs) or ftrace_ops_get_func(@ops)
 *
 * The trampoline calls @func with @ops, saving registers if @ops asks for
 * FTRACE_OPS_FL_SAVE_REGS.  On success the back end sets @ops->trampoline
 * and @ops->trampoline_size; the core sets FTRACE_OPS_FL_ALLOC_TRAMP and
 * tells perf and kallsyms.
 *
 * Return: 0, or a negative error: -EOPNOTSUPP when the back end has no
 * trampolines, any other when it could not make one now.  Either way the
 * core uses the shared caller for @ops' sites.
 */
int ftrace_arch_tramp_make(struct ftrace_ops *ops, unsigned long func);

/**
 * ftrace_arch_tramp_point - make @ops' trampoline call @func
 * @ops: an ops with a trampoline ftrace_arch_tramp_make() made
 * @func: as for ftrace_arch_tramp_make()
 *
 * Sites may be calling the trampoline, and a task preempted inside it may
 * still reach its call: a CPU must see the old callee or the new one.
 *
 * Return: 0; -ESTALE when the trampoline no longer fits @ops (its
 * FTRACE_OPS_FL_SAVE_REGS changed since it was made: the core leaves the
 * old one to the tasks that may be inside it and makes another); or
 * another negative error, the trampoline still calling what it called.
 */
int ftrace_arch_tramp_point(struct ftrace_ops *ops, unsigned long func);

/**
 * ftrace_arch_tramp_free - free the trampoline the back end made for @ops
 * @ops: an ops no CPU can be running the trampoline of any more
 *
 * The core calls it only for a trampoline ftrace_arch_tramp_make() made,
 * and clears @ops->trampoline and FTRACE_OPS_FL_ALLOC_TRAMP afterwards.
 */
void ftrace_arch_tramp_free(struct ftrace_ops *ops);

/**
 * ftrace_arch_tramp_callee - what a trampoline (or the shared caller) calls
 * @ops: the ops whose trampoline it is, or NULL for the shared caller
 * @regs: the site calls the register-saving variant
 *
 * For the enabled_functions file only, which shows the callee after the
 * site's target ("->" and the function), as 6.1 does for trampolines.
 *
 * Return: the function called, or NULL if the back end cannot tell (the
 * line then shows the target alone).
 */
void *ftrace_arch_tramp_callee(struct ftrace_ops *ops, bool regs);

#endif /* _LINUX_FTRACE_ARCH_H */
