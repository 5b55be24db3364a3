// SPDX-License-Identifier: GPL-2.0
/*
 * A skeleton of a dynamic ftrace back end (<linux/ftrace_arch.h>), for an
 * imaginary architecture "foo" that wants the batch contract
 * (HAVE_FTRACE_ARCH_BATCH).  It is a starting point for arch/foo/kernel/
 * ftrace.c, not code that runs: every place where a real port must supply
 * something of its own is marked "FOO:".
 *
 * The foo call site is one instruction word (MCOUNT_INSN_SIZE on a real
 * port).  It holds either the NOP (the site is idle) or a
 * pc-relative call to whatever the core chose: a shared caller
 * (FTRACE_ADDR, FTRACE_REGS_ADDR), an ops' trampoline or a direct-call
 * target.  A fresh site, before the core has seen it, holds the call to
 * MCOUNT_ADDR that the compiler emitted, or the NOP if the build already
 * wrote one.
 *
 * The file follows the stages of the porting guide
 * (Documentation/trace/ftrace-core.rst, "Porting an architecture"):
 *
 *  - the instruction encoding of a site (foo_site_insn() and its helpers);
 *  - the three text primitives the arch has anyway for other text
 *    patching: read a word, write a word, and make written text visible
 *    to every CPU (foo_text_read(), foo_text_write(), foo_text_sync());
 *  - stage 2, the batch contract: ftrace_arch_init(),
 *    ftrace_arch_fresh_idle(), ftrace_arch_patch(), ftrace_arch_set_func()
 *    and ftrace_arch_set_graph();
 *  - stage 3, per-ops trampolines: here the functions that decline them,
 *    so that every site that calls anything calls a shared caller.
 *
 * Stage 4, direct calls, adds nothing to these functions: a direct target
 * is one more address that a batch entry's @new may hold.  The rest of
 * that stage (arch_ftrace_set_direct_caller(), the callers' way out to a
 * target) lives with the callers.
 *
 * What the port needs outside this file: the shared callers in assembly
 * (ftrace_caller and, with DYNAMIC_FTRACE_WITH_REGS, ftrace_regs_caller,
 * each with a patchable call at ftrace_call and ftrace_regs_call);
 * MCOUNT_ADDR and the other <asm/ftrace.h> definitions; recordmcount or
 * the compiler filling __mcount_loc; "select HAVE_FTRACE_ARCH_BATCH" in
 * the arch's Kconfig; and "CFLAGS_REMOVE_ftrace.o = $(CC_FLAGS_FTRACE)"
 * in its Makefile, as a back end must not trace itself.
 *
 * harness/skeleton.sh compiles this file, never links it, against the
 * x86_64 and arm64 kernel trees of make check.  That is why it includes
 * only <linux/...> headers and why the arch's primitives are placeholders.
 */
#define pr_fmt(fmt) "ftrace: " fmt

#include <linux/align.h>
#include <linux/bitops.h>
#include <linux/bits.h>
#include <linux/bug.h>
#include <linux/build_bug.h>
#include <linux/cacheflush.h>
#include <linux/errno.h>
#include <linux/ftrace.h>
#include <linux/ftrace_arch.h>
#include <linux/init.h>
#include <linux/kconfig.h>
#include <linux/memory.h>
#include <linux/mutex.h>
#include <linux/printk.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/uaccess.h>

/*
 * The site encoding, which a port has from stage 1 already: its
 * ftrace_make_call() and ftrace_make_nop() write the same instructions.
 *
 * FOO: the encoding below is invented: a call is a 6-bit opcode and a
 * signed 26-bit offset counted in instruction words from the site.  Put
 * the arch's own NOP and call here; a real port usually has them in an
 * <asm/...> header that its instruction decoder shares.
 */
#define FOO_INSN_SIZE		4		/* FOO: bytes in one site */
#define FOO_INSN_NOP		0x03000000U	/* FOO: the arch's NOP */
#define FOO_INSN_CALL		0xb0000000U	/* FOO: "call pc + imm * 4" */
#define FOO_CALL_IMM_BITS	26
#define FOO_CALL_IMM		GENMASK(FOO_CALL_IMM_BITS - 1, 0)
/* How far a call reaches, either way, in bytes. */
#define FOO_CALL_REACH		(FOO_INSN_SIZE * (1L << (FOO_CALL_IMM_BITS - 1)))

/**
 * foo_encode_call - the call instruction of a site
 * @ip: the address of the site
 * @dest: the function the call must reach
 * @insn: where to put the instruction
 *
 * FOO: the arch's call encoding.  A port whose call cannot reach every
 * target from every site (a module far from the kernel) either routes the
 * call through something in reach (a veneer, a trampoline of its own) or
 * refuses it, as here.
 *
 * Return: 0, or -ERANGE when @dest is out of reach or misaligned.
 */
static int foo_encode_call(unsigned long ip, unsigned long dest, u32 *insn)
{
	long off = (long)(dest - ip);

	if (!IS_ALIGNED(dest, FOO_INSN_SIZE) ||
	    off < -FOO_CALL_REACH || off >= FOO_CALL_REACH)
		return -ERANGE;
	*insn = FOO_INSN_CALL | ((u32)(off / FOO_INSN_SIZE) & FOO_CALL_IMM);
	return 0;
}

/**
 * foo_decode_call - the target of a call instruction
 * @ip: the address @insn was read from
 * @insn: the instruction
 * @dest: where to put the target
 *
 * FOO: the inverse of foo_encode_call().
 *
 * Return: true if @insn is a call, false for anything else.
 */
static bool foo_decode_call(unsigned long ip, u32 insn, unsigned long *dest)
{
	s32 words;

	if ((insn & ~FOO_CALL_IMM) != FOO_INSN_CALL)
		return false;
	words = sign_extend32(insn & FOO_CALL_IMM, FOO_CALL_IMM_BITS - 1);
	*dest = ip + (long)words * FOO_INSN_SIZE;
	return true;
}

/**
 * foo_site_insn - the instruction of a site that calls @dest
 * @ip: the address of the site
 * @dest: what the site calls, as a batch entry says it: 0 for the NOP,
 *	MCOUNT_ADDR for the compiler's call, else any function
 * @insn: where to put the instruction
 *
 * Return: 0, or a negative error from foo_encode_call().
 */
static int foo_site_insn(unsigned long ip, unsigned long dest, u32 *insn)
{
	if (!dest) {
		*insn = FOO_INSN_NOP;
		return 0;
	}
	return foo_encode_call(ip, dest, insn);
}

/*
 * The arch's text primitives.  A port has them already for kprobes, jump
 * labels or static calls; the back end only needs to reach them.
 */

/**
 * foo_text_read - read one instruction word of kernel or module text
 * @ip: the address, aligned to FOO_INSN_SIZE
 * @insn: where to put the word
 *
 * Reads with a fault handler, so an address that is not mapped (a bad
 * entry in __mcount_loc) is reported rather than oopsing.  FOO:
 * where instructions have a fixed byte order of their own (always little
 * endian, say), convert it here and in foo_text_write(), and keep the
 * bytes of a refused site's report in text order.
 *
 * Return: 0, or -EFAULT if @ip cannot be read.
 */
static int foo_text_read(unsigned long ip, u32 *insn)
{
	if (copy_from_kernel_nofault(insn, (const void *)ip, sizeof(*insn)))
		return -EFAULT;
	return 0;
}

/*
 * Get the arch's way of writing text ready.  FOO: whatever foo_text_write()
 * needs before its first write: a fixmap slot, a window of kernel
 * addresses with page tables, a private mm.  It runs early in boot, with
 * interrupts off, where allocating works and sleeping does not.  The
 * placeholder fails, which keeps dynamic ftrace off until the port has a
 * real foo_text_write().
 */
static int __init foo_text_setup(void)
{
	return -EOPNOTSUPP;
}

/**
 * foo_text_write - write one instruction word of kernel or module text
 * @ip: the address, aligned to FOO_INSN_SIZE
 * @insn: the instruction to write
 *
 * Called with text_mutex held, and at boot also with interrupts off
 * before other CPUs run.  Text is normally mapped read-only, so the word
 * goes through the arch's writable alias of it.  FOO: the store must
 * be one single-copy-atomic store of the whole word, and the arch must
 * allow a CPU to execute the word while it changes between the NOP and a
 * call (or between two calls): the batch writer below relies on it.  An
 * arch without that guarantee needs a protocol of several steps (a trap
 * instruction first, as x86 does) inside ftrace_arch_patch().
 *
 * Return: 0, or a negative error if the word could not be written.
 */
static int foo_text_write(unsigned long ip, u32 insn)
{
	return -EOPNOTSUPP;
}

/**
 * foo_sync_cpu - discard instructions this CPU fetched before a write
 * @unused: for on_each_cpu()
 *
 * FOO: the arch's context synchronisation, if taking and returning from
 * the interrupt that runs this is not enough on its own.
 */
static void foo_sync_cpu(void *unused)
{
}

/**
 * foo_text_sync - make written words reach every CPU's instruction side
 * @live: whether other CPUs may be running the text
 *
 * Called after the words are written and their cache lines maintained
 * (flush_icache_range()).  With @live, other CPUs may have fetched the
 * old instructions, so each of them is interrupted once and synchronised;
 * otherwise only this CPU is.
 */
static void foo_text_sync(bool live)
{
	if (live)
		on_each_cpu(foo_sync_cpu, NULL, 1);
	else
		foo_sync_cpu(NULL);
}

/*
 * Stage 2: the batch contract.
 */

/*
 * What the check pass of a batch decided for each site: the word to
 * write, and whether it needs writing at all (a fresh site the build has
 * already idled does not).  Under text_mutex.
 */
static struct foo_site {
	u32 insn;
	bool write;
} foo_sites[FTRACE_BATCH_MAX];

int __init ftrace_arch_init(void)
{
	BUILD_BUG_ON(FOO_INSN_SIZE > FTRACE_SITE_BYTES);
	return foo_text_setup();
}

/*
 * FOO: return true once the build (recordmcount, or the compiler with
 * -fpatchable-function-entry) writes the NOP at every site it records.
 * The core then checks fresh sites by sample only.
 */
bool ftrace_arch_fresh_idle(void)
{
	return false;
}

/**
 * foo_refuse - note in @batch why site @i is refused
 * @batch: the batch
 * @i: the index of the site
 * @err: the error to return
 * @expected: what the site should hold, or NULL
 * @found: what it holds, or NULL when that is not known
 *
 * Return: @err.
 */
static int foo_refuse(struct ftrace_batch *batch, unsigned int i, int err,
		      const u32 *expected, const u32 *found)
{
	batch->bad = i;
	batch->len = 0;
	if (expected && found) {
		memcpy(batch->expected, expected, FOO_INSN_SIZE);
		memcpy(batch->found, found, FOO_INSN_SIZE);
		batch->len = FOO_INSN_SIZE;
	}
	return err;
}

/**
 * foo_check_site - check one site of a batch, and decide what to write
 * @batch: the batch
 * @i: the index of the site
 *
 * Reads the site and compares it with what the entry's @old encodes.  A
 * fresh site (@batch->init) may also hold the NOP, if the build wrote it.
 * Writes nothing.
 *
 * Return: 0, or the error of foo_refuse() with @batch's report filled in.
 */
static int foo_check_site(struct ftrace_batch *batch, unsigned int i)
{
	const struct ftrace_patch *p = &batch->patch[i];
	struct foo_site *s = &foo_sites[i];
	u32 old, cur;
	int ret;

	/* The core sorts a batch; anything else is a bug there. */
	if (WARN_ON_ONCE(!IS_ALIGNED(p->ip, FOO_INSN_SIZE) ||
			 (i && p->ip <= batch->patch[i - 1].ip)))
		return foo_refuse(batch, i, -EINVAL, NULL, NULL);

	ret = foo_site_insn(p->ip, p->old, &old);
	if (!ret)
		ret = foo_site_insn(p->ip, p->new, &s->insn);
	if (ret)
		return foo_refuse(batch, i, ret, NULL, NULL);

	if (foo_text_read(p->ip, &cur))
		return foo_refuse(batch, i, -EFAULT, &old, NULL);
	if (batch->init && cur == FOO_INSN_NOP)
		old = FOO_INSN_NOP;
	if (cur != old)
		return foo_refuse(batch, i, -EINVAL, &old, &cur);
	s->write = cur != s->insn;
	return 0;
}

/**
 * foo_write_sites - write the sites of a checked batch
 * @batch: the batch, every site of which foo_check_site() accepted
 *
 * Writes each site that needs it, in order, and counts them in
 * @batch->done (and, for fresh sites, @batch->changed).  Whatever was
 * written is made visible before it returns, even after a failed write.
 *
 * Return: 0, or -EPERM if a site could not be written.
 */
static int foo_write_sites(struct ftrace_batch *batch)
{
	unsigned int i;
	int ret = 0;

	for (i = 0; i < batch->nr; i++) {
		unsigned long ip = batch->patch[i].ip;

		if (foo_sites[i].write) {
			if (foo_text_write(ip, foo_sites[i].insn)) {
				ret = foo_refuse(batch, i, -EPERM, NULL, NULL);
				break;
			}
			/*
			 * FOO: an arch whose cache maintenance is costly per
			 * call does it once per run of nearby sites instead.
			 */
			flush_icache_range(ip, ip + FOO_INSN_SIZE);
			if (batch->init)
				batch->changed++;
		}
		batch->done = i + 1;
	}
	if (batch->done)
		foo_text_sync(batch->live);
	return ret;
}

/*
 * Every site of the batch is checked before the first is written: a site
 * that does not hold what the core says it holds leaves the whole batch
 * unwritten, with @bad, @len, @expected and @found saying why.  Only a
 * failed write can leave a batch partly written, and @done then counts
 * the sites before it.
 *
 * Context: under ftrace_lock, from task context, except at boot, where
 * ftrace_init() hands over the kernel's fresh sites on the one CPU with
 * interrupts off (@live is false then, so nothing here sends an IPI).
 */
int ftrace_arch_patch(struct ftrace_batch *batch)
{
	unsigned int i;
	int ret = 0;

	batch->done = 0;
	batch->changed = 0;
	mutex_lock(&text_mutex);
	for (i = 0; i < batch->nr && !ret; i++)
		ret = foo_check_site(batch, i);
	if (!ret)
		ret = foo_write_sites(batch);
	mutex_unlock(&text_mutex);
	return ret;
}

/**
 * foo_retarget - point the call at @ip, in a shared caller, at @func
 * @ip: the address of the call (ftrace_call or ftrace_regs_call)
 * @func: the function it must call
 *
 * Return: 0; -EINVAL if @ip does not hold a call, -ERANGE if @func is out
 * of its reach, or the error of reading or writing @ip.
 */
static int foo_retarget(unsigned long ip, unsigned long func)
{
	unsigned long now;
	u32 cur, want;
	int ret;

	ret = foo_encode_call(ip, func, &want);
	if (ret)
		return ret;
	mutex_lock(&text_mutex);
	ret = foo_text_read(ip, &cur);
	if (!ret && !foo_decode_call(ip, cur, &now)) {
		pr_err("no call at %pS (%08x)\n", (void *)ip, cur);
		ret = -EINVAL;
	}
	if (!ret && now != func) {
		ret = foo_text_write(ip, want);
		if (!ret) {
			flush_icache_range(ip, ip + FOO_INSN_SIZE);
			foo_text_sync(true);
		}
	}
	mutex_unlock(&text_mutex);
	return ret;
}

/*
 * The shared callers call the list function, or the one ops' function,
 * through the call at ftrace_call (and at ftrace_regs_call when the arch
 * has a register-saving caller).  FOO: a port whose callers load the
 * function from memory instead stores @func there with WRITE_ONCE(); one
 * whose call cannot reach every function falls back to a function in
 * reach that calls the list function.
 */
int ftrace_arch_set_func(ftrace_func_t func)
{
	int ret;

	ret = foo_retarget((unsigned long)ftrace_call, (unsigned long)func);
	if (!ret && IS_ENABLED(CONFIG_DYNAMIC_FTRACE_WITH_REGS))
		ret = foo_retarget((unsigned long)ftrace_regs_call,
				   (unsigned long)func);
	return ret;
}

/*
 * FOO: here the graph tracer is an ops like any other, whose function
 * (ftrace_graph_func(), which the port defines for <asm/ftrace.h>) hooks the traced
 * function's return from the registers the caller saved, so the callers
 * have no hook to turn on.  A port whose callers branch to the graph
 * entry code instead retargets that branch here, as foo_retarget() does
 * the call.
 */
int ftrace_arch_set_graph(bool on)
{
	return 0;
}

/*
 * Stage 3: per-ops trampolines, declined.  ftrace_arch_tramp_make() says
 * so, and the core sends every site to a shared caller, which calls the
 * list function or the one registered ops; it never asks to point or
 * free a trampoline this file did not make.  A port that adds
 * trampolines makes a copy of a shared caller whose call goes to @func
 * (with @ops where the caller loads function_trace_op), points that call
 * elsewhere so that a CPU sees the old callee or the new one, and frees
 * the copy; the core decides when each happens.
 */
int ftrace_arch_tramp_make(struct ftrace_ops *ops, unsigned long func)
{
	return -EOPNOTSUPP;
}

int ftrace_arch_tramp_point(struct ftrace_ops *ops, unsigned long func)
{
	return -EOPNOTSUPP;
}

void ftrace_arch_tramp_free(struct ftrace_ops *ops)
{
}

/*
 * No ops has a trampoline of its own; a shared caller calls whatever its
 * call instruction says, which enabled_functions shows.
 */
void *ftrace_arch_tramp_callee(struct ftrace_ops *ops, bool regs)
{
	unsigned long ip = (unsigned long)ftrace_call;
	unsigned long dest;
	u32 insn;

	if (ops)
		return NULL;
	if (regs && IS_ENABLED(CONFIG_DYNAMIC_FTRACE_WITH_REGS))
		ip = (unsigned long)ftrace_regs_call;
	if (foo_text_read(ip, &insn) || !foo_decode_call(ip, insn, &dest))
		return NULL;
	return (void *)dest;
}
