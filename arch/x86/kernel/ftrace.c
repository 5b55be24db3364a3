// SPDX-License-Identifier: GPL-2.0
/*
 * The x86 back end of the dynamic ftrace core (<linux/ftrace_arch.h>).
 *
 * Every traceable function starts with a five-byte call site that holds
 * the NOP or a rel32 CALL (<asm/ftrace_insn.h>).  The core hands over
 * sorted batches of sites, each with what it holds now and what it must
 * hold next.  Every site of a batch is checked before any is written;
 * then the batch goes to the kernel's own patcher as one queue
 * (text_poke_queue_decoded(), text_poke_finish()), which changes all of
 * its sites together under INT3s, with one mapping of the batch's pages
 * and three syncs of every CPU, and emulates the new instruction for a CPU
 * that meets an INT3 meanwhile.  A batch of ours (FTRACE_BATCH_MAX) fills
 * the patcher's queue at most, so it is normally one text_poke_bp_batch();
 * jump-label entries still queued when it starts may share it or be
 * flushed first.
 *
 * Fresh sites take a shorter path: the kernel's at boot, or those of a
 * module not yet formed, whose text is still writable and does not run,
 * are written in place.
 *
 * The shared callers (ftrace_caller, ftrace_regs_caller) call the function
 * the core chooses through one CALL each; ftrace_arch_set_func() rewrites
 * those through the same patcher.  On x86_64 an ops may have a trampoline
 * of its own: a copy of a shared caller that loads that ops and calls its
 * function.  The ORC unwinder looks up a trampoline address at the same
 * offset in the caller it was copied from, so a copy keeps the caller's
 * layout byte for byte; only the ops load, the CALL and (in the
 * register-saving caller) the branch to the direct-call exit change.
 */
#define pr_fmt(fmt) "ftrace: " fmt

#include <linux/ftrace.h>
#include <linux/init.h>
#include <linux/memory.h>
#include <linux/mm.h>
#include <linux/mmu_context.h>
#include <linux/module.h>
#include <linux/moduleloader.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include <trace/syscall.h>

#include <asm/ftrace.h>
#include <asm/ftrace_insn.h>
#include <asm/insn.h>
#include <asm/set_memory.h>
#include <asm/text-patching.h>

#include <linux/ftrace_arch.h>

#define SITE	FTRACE_X86_SITE_SIZE

/*
 * Module text, or a trampoline (ftrace_x86_text_alloc()): within the 2 GiB of
 * the kernel's text that the patcher's entries can reach.  Inline, never
 * traced.
 */
static bool in_module_area(unsigned long addr)
{
	return addr >= MODULES_VADDR && addr < MODULES_END;
}

/*
 * Read the @SITE bytes at @ip, which must be kernel or module text;
 * -EFAULT if they are not or cannot be read.  Nothing here calls a
 * function that could be traced: the live path reads every site of a
 * batch, and with the function tracer on each call would cost a trip
 * through it.
 */
static int site_read(unsigned long ip, u8 *buf)
{
	unsigned long end = ip + SITE - 1;

	if (core_kernel_text(ip) && core_kernel_text(end)) {
		memcpy(buf, (void *)ip, SITE);
		return 0;
	}
	if (!in_module_area(ip) || !in_module_area(end))
		return -EFAULT;
	pagefault_disable();
	__get_kernel_nofault(buf, (void *)ip, u32, fault);
	__get_kernel_nofault(buf + 4, (void *)end, u8, fault);
	pagefault_enable();
	return 0;
fault:
	pagefault_enable();
	return -EFAULT;
}

static bool same_bytes(const u8 *a, const u8 *b)
{
	return get_unaligned((const u32 *)a) == get_unaligned((const u32 *)b) &&
	       a[4] == b[4];
}

/* Note site @i of @b as refused: it holds @found instead of @expected. */
static int site_refused(struct ftrace_batch *b, unsigned int i,
			const u8 *expected, const u8 *found, int err)
{
	b->bad = i;
	b->len = found ? SITE : 0;
	if (found) {
		memcpy(b->expected, expected, SITE);
		memcpy(b->found, found, SITE);
	}
	return err;
}

/* The new bytes of each site of the batch in hand; text_mutex. */
static u8 next_insn[FTRACE_BATCH_MAX][SITE];

/*
 * Check every site of @b: in text, ascending, holding its old bytes, with
 * new bytes that can be encoded (into next_insn[]).  Nothing is written.
 */
static int check_batch(struct ftrace_batch *b)
{
	unsigned long prev = 0, last = b->patch[b->nr - 1].ip;
	u8 want[SITE], cur[SITE];
	bool kernel;
	unsigned int i;
	int ret;

	/*
	 * Sorted sites whose first and last are in the kernel's text are all
	 * there (records are only ever of text): read them directly.
	 */
	kernel = core_kernel_text(b->patch[0].ip) &&
		 core_kernel_text(last + SITE - 1);
	for (i = 0; i < b->nr; i++) {
		const struct ftrace_patch *p = &b->patch[i];

		/* The INT3 handler's binary search needs ascending addresses. */
		if (WARN_ON_ONCE(p->ip <= prev || p->ip > last))
			return site_refused(b, i, NULL, NULL, -EINVAL);
		prev = p->ip;
		ret = ftrace_x86_encode_site(want, p->ip, p->old);
		if (!ret)
			ret = ftrace_x86_encode_site(next_insn[i], p->ip, p->new);
		if (!ret && kernel)
			memcpy(cur, (void *)p->ip, SITE);
		else if (!ret)
			ret = site_read(p->ip, cur);
		if (ret)
			return site_refused(b, i, NULL, NULL, ret);
		if (!same_bytes(cur, want))
			return site_refused(b, i, want, cur, -EINVAL);
	}
	return 0;
}

/* Queue the @SITE bytes @insn for @ip, as one entry of the next batch. */
static void queue_site(unsigned long ip, const u8 *insn)
{
	s32 disp;
	u8 op = ftrace_x86_emulate_as(insn, &disp);

	text_poke_queue_decoded((void *)ip, insn, SITE, op, disp);
}

/*
 * Is the fresh site at @ip text of @mod (the kernel's, for NULL), which
 * can be read directly?  Anything else is read with a fault handler.
 */
static bool fresh_site_readable(struct module *mod, unsigned long ip)
{
	unsigned long end = ip + SITE - 1;

	if (mod)
		return within_module(ip, mod) && within_module(end, mod);
	return core_kernel_text(ip) && core_kernel_text(end);
}

/*
 * Fresh sites: the kernel at boot, or a module before it is formed, whose
 * text is still writable and not running.  Our recordmcount has written
 * the NOP at every site it recorded, so a site normally holds it already
 * and costs one comparison; a site that still holds the compiler's call
 * (an object the tool did not process) is checked and written.  Each site
 * is checked just before it is written, not all first: the text is not
 * live, and @b->done says how far a refused batch got.
 */
static int write_fresh(struct ftrace_batch *b)
{
	static const u8 nop[SITE] = FTRACE_X86_NOP5;
	u8 want[SITE], next[SITE], cur[SITE];
	unsigned int i;
	int ret;

	for (i = 0; i < b->nr; i++) {
		const struct ftrace_patch *p = &b->patch[i];

		if (fresh_site_readable(b->mod, p->ip))
			memcpy(cur, (void *)p->ip, SITE);
		else if (site_read(p->ip, cur))
			return site_refused(b, i, NULL, NULL, -EFAULT);
		if (!p->new && same_bytes(cur, nop)) {
			b->done = i + 1;
			continue;
		}
		ret = ftrace_x86_encode_site(want, p->ip, p->old);
		if (!ret)
			ret = ftrace_x86_encode_site(next, p->ip, p->new);
		if (ret)
			return site_refused(b, i, NULL, NULL, ret);
		if (!same_bytes(cur, next)) {
			if (!same_bytes(cur, want))
				return site_refused(b, i, want, cur, -EINVAL);
			memcpy((void *)p->ip, next, SITE);
			b->changed++;
		}
		b->done = i + 1;
	}
	sync_core();
	return 0;
}

/* Our recordmcount writes the NOP at every site it records (x86_64). */
bool ftrace_arch_fresh_idle(void)
{
	return IS_ENABLED(CONFIG_FTRACE_MCOUNT_USE_RECORDMCOUNT);
}

/*
 * Live sites, and those of a module about to run, go through the kernel's
 * own patcher: text_poke_finish() writes the queued sites as one batch
 * under INT3s (see text_poke_bp_batch()).  Every site is checked first,
 * under text_mutex, which every writer of kernel text holds.
 */
int ftrace_arch_patch(struct ftrace_batch *batch)
{
	unsigned int i;
	int ret;

	batch->done = 0;
	batch->changed = 0;
	if (batch->init)
		return write_fresh(batch);
	mutex_lock(&text_mutex);
	ret = check_batch(batch);
	if (!ret) {
		for (i = 0; i < batch->nr; i++)
			queue_site(batch->patch[i].ip, next_insn[i]);
		text_poke_finish();
		batch->done = batch->nr;
	}
	mutex_unlock(&text_mutex);
	return ret;
}

/*
 * Point the CALL or JMP (@op) at each of @ips, live code outside the call
 * sites (the shared callers, trampolines), at @dest.  Each must hold such
 * an instruction, or nothing is written.
 */
static int retarget(const unsigned long *ips, unsigned int n, u8 op,
		    unsigned long dest)
{
	u8 cur[SITE], next[SITE];
	unsigned long now;
	unsigned int i;
	int ret = 0;

	mutex_lock(&text_mutex);
	for (i = 0; i < n && !ret; i++) {
		ret = site_read(ips[i], cur);
		if (!ret && ftrace_x86_decode(cur, ips[i], &now) != op) {
			pr_err("no %s at %pS (%5ph)\n",
			       op == FTRACE_X86_CALL ? "call" : "jmp",
			       (void *)ips[i], cur);
			ret = -EINVAL;
		}
		if (!ret)
			ret = ftrace_x86_encode_rel(next, op, ips[i], dest);
	}
	/* Queued in any order: text_poke_queue() flushes to keep it sorted. */
	for (i = 0; i < n && !ret; i++) {
		site_read(ips[i], cur);
		ftrace_x86_encode_rel(next, op, ips[i], dest);
		if (!same_bytes(cur, next))
			queue_site(ips[i], next);
	}
	text_poke_finish();
	mutex_unlock(&text_mutex);
	return ret;
}

int ftrace_arch_set_func(ftrace_func_t func)
{
	const unsigned long ips[] = {
		(unsigned long)ftrace_call,
		(unsigned long)ftrace_regs_call,
	};

	return retarget(ips, ARRAY_SIZE(ips), FTRACE_X86_CALL,
			(unsigned long)func);
}

#if defined(CONFIG_FUNCTION_GRAPH_TRACER) && \
	!defined(CONFIG_HAVE_DYNAMIC_FTRACE_WITH_ARGS)
/* 32-bit: the callers end with a JMP to the graph entry, or past it. */

int ftrace_arch_set_graph(bool on)
{
	const unsigned long ip = (unsigned long)ftrace_graph_call;

	return retarget(&ip, 1, FTRACE_X86_JMP,
			on ? (unsigned long)ftrace_graph_caller :
			     (unsigned long)ftrace_stub);
}
#else
/* x86_64: the graph tracer is an ops whose function is ftrace_graph_func. */
int ftrace_arch_set_graph(bool on)
{
	return 0;
}
#endif

/* Text is written through poking_mm: poking_init() has run by now. */
int __init ftrace_arch_init(void)
{
	return poking_mm ? 0 : -ENODEV;
}

/* The function the CALL at @ip goes to, or NULL. */
static void *call_dest(unsigned long ip)
{
	unsigned long dest;
	u8 cur[SITE];

	if (site_read(ip, cur) ||
	    ftrace_x86_decode(cur, ip, &dest) != FTRACE_X86_CALL)
		return NULL;
	return (void *)dest;
}

#if defined(CONFIG_X86_64) && defined(CONFIG_MODULES)

/* What a trampoline copies from a shared caller, as offsets into it. */
struct caller_shape {
	unsigned long start;
	unsigned int size;	/* the bytes copied, up to the caller's return */
	unsigned int op_load;	/* movq function_trace_op(%rip), %rdx */
	unsigned int call;	/* the CALL of the tracer function */
	unsigned int direct;	/* the jnz to the direct-call exit, or 0 */
};

static void caller_shape(bool regs, struct caller_shape *c)
{
	unsigned long start = regs ? (unsigned long)ftrace_regs_caller :
				     (unsigned long)ftrace_caller;

	c->start = start;
	if (regs) {
		c->size = (unsigned long)ftrace_regs_caller_end - start;
		c->op_load = (unsigned long)ftrace_regs_caller_op_ptr - start;
		c->call = (unsigned long)ftrace_regs_call - start;
		c->direct = (unsigned long)ftrace_regs_caller_jmp - start;
	} else {
		c->size = (unsigned long)ftrace_caller_end - start;
		c->op_load = (unsigned long)ftrace_caller_op_ptr - start;
		c->call = (unsigned long)ftrace_call - start;
		c->direct = 0;
	}
}

/* movq disp32(%rip), %rdx, and the two-byte NOP that replaces a jnz. */
static const u8 load_rdx_rip[] = { 0x48, 0x8b, 0x15 };
#define LOAD_RDX_RIP_SIZE	7
#define JNZ8			0x75
static const u8 nop2[] = { 0x66, 0x90 };

static bool ops_uses_regs(struct ftrace_ops *ops)
{
	return ops->flags & FTRACE_OPS_FL_SAVE_REGS;
}

/*
 * The copy runs at another address: every operand addressed relative to
 * %rip must still reach what the caller's reaches.  The ops load is one
 * (tramp_fill() points it at the slot next); 6.12's call-depth accounting,
 * once alternatives put it in, reaches its per-CPU counter that way too.
 */
static int tramp_rip_fixup(u8 *t, const struct caller_shape *c)
{
	long delta = (long)c->start - (long)t;
	unsigned int off = 0;
	struct insn insn;
	s64 disp;
	u8 *d;

	while (off < c->size) {
		if (insn_decode(&insn, t + off, c->size - off, INSN_MODE_64) < 0)
			return -EINVAL;
		if (insn_rip_relative(&insn)) {
			d = t + off + insn_offset_displacement(&insn);
			disp = (s32)get_unaligned_le32(d) + delta;
			if (disp != (s32)disp)
				return -ERANGE;
			put_unaligned_le32((u32)disp, d);
		}
		off += insn.length;
	}
	return 0;
}

/*
 * Build @ops' trampoline in @t: the caller's code, a return, then (at
 * @slot, pointer-aligned) the address of @ops, which the copied ops load
 * reads instead of function_trace_op; its CALL goes to @dest.
 */
static int tramp_fill(u8 *t, const struct caller_shape *c, unsigned int slot,
		      struct ftrace_ops *ops, unsigned long dest)
{
	unsigned long at = (unsigned long)t;
	int ret;

	memset(t, FTRACE_X86_INT3, slot);
	memcpy(t, (void *)c->start, c->size);
	ret = tramp_rip_fixup(t, c);
	if (ret)
		return ret;
	if (cpu_wants_rethunk_at(t + c->size)) {
		ret = ftrace_x86_encode_rel(t + c->size, FTRACE_X86_JMP,
					    at + c->size,
					    (unsigned long)x86_return_thunk);
		if (ret)
			return ret;
	} else {
		t[c->size] = RET_INSN_OPCODE;
	}
	*(unsigned long *)(t + slot) = (unsigned long)ops;

	if (memcmp(t + c->op_load, load_rdx_rip, sizeof(load_rdx_rip)) ||
	    t[c->call] != FTRACE_X86_CALL ||
	    (c->direct && t[c->direct] != JNZ8))
		return -EINVAL;
	put_unaligned_le32((u32)(slot - (c->op_load + LOAD_RDX_RIP_SIZE)),
			   t + c->op_load + sizeof(load_rdx_rip));
	ret = ftrace_x86_encode_rel(t + c->call, FTRACE_X86_CALL, at + c->call,
				    dest);
	if (ret)
		return ret;
	/* A trampoline serves its ops alone: never a direct call. */
	if (c->direct)
		memcpy(t + c->direct, nop2, sizeof(nop2));
	return 0;
}

/* Where a trampoline keeps its ops pointer, and its whole size. */
static unsigned int tramp_slot_at(const struct caller_shape *c)
{
	return ALIGN(c->size + SITE, sizeof(long));
}

static unsigned int tramp_size(const struct caller_shape *c)
{
	return tramp_slot_at(c) + sizeof(long);
}

int ftrace_arch_tramp_make(struct ftrace_ops *ops, unsigned long func)
{
	struct caller_shape c;
	unsigned int slot, size, pages;
	u8 *t;

	caller_shape(ops_uses_regs(ops), &c);
	slot = tramp_slot_at(&c);
	size = tramp_size(&c);
	t = ftrace_x86_text_alloc(size);
	if (!t)
		return -ENOMEM;
	/*
	 * set_memory_ro() makes the pages' direct mapping read-only too:
	 * freeing the trampoline must give them back writable.
	 */
	set_vm_flush_reset_perms(t);
	if (tramp_fill(t, &c, slot, ops, func)) {
		pr_warn("cannot build a trampoline for %ps\n", ops->func);
		ftrace_x86_text_free(t);
		return -EINVAL;
	}
	pages = DIV_ROUND_UP(size, PAGE_SIZE);
	if (set_memory_ro((unsigned long)t, pages) ||
	    set_memory_x((unsigned long)t, pages)) {
		ftrace_x86_text_free(t);
		return -ENOMEM;
	}
	ops->trampoline = (unsigned long)t;
	ops->trampoline_size = size;
	return 0;
}

/* Does @ops have a trampoline this file made? */
static bool own_tramp(struct ftrace_ops *ops)
{
	return (ops->flags & FTRACE_OPS_FL_ALLOC_TRAMP) && ops->trampoline;
}

/* The CALL of @ops' own trampoline. */
static unsigned long tramp_call(struct ftrace_ops *ops)
{
	struct caller_shape c;

	caller_shape(ops_uses_regs(ops), &c);
	return ops->trampoline + c.call;
}

int ftrace_arch_tramp_point(struct ftrace_ops *ops, unsigned long func)
{
	struct caller_shape c;
	unsigned long ip;

	caller_shape(ops_uses_regs(ops), &c);
	if (ops->trampoline_size != tramp_size(&c))
		return -ESTALE;
	ip = ops->trampoline + c.call;
	return retarget(&ip, 1, FTRACE_X86_CALL, func);
}

void ftrace_arch_tramp_free(struct ftrace_ops *ops)
{
	ftrace_x86_text_free((void *)ops->trampoline);
}

void *ftrace_arch_tramp_callee(struct ftrace_ops *ops, bool regs)
{
	if (!ops)
		return call_dest(regs ? (unsigned long)ftrace_regs_call :
					(unsigned long)ftrace_call);
	return own_tramp(ops) ? call_dest(tramp_call(ops)) : NULL;
}

/**
 * set_ftrace_ops_ro - make every trampoline read-only
 *
 * Called once, when the kernel makes its own text read-only.  Trampolines
 * are read-only from the start; this only asserts it again.
 */
void set_ftrace_ops_ro(void)
{
	struct ftrace_ops *ops;

	do_for_each_ftrace_op(ops, ftrace_ops_list) {
		if (own_tramp(ops))
			set_memory_ro(ops->trampoline,
				      DIV_ROUND_UP(ops->trampoline_size,
						   PAGE_SIZE));
	} while_for_each_ftrace_op(ops);
}

#else /* !(CONFIG_X86_64 && CONFIG_MODULES) */

/* No trampolines: every site calls a shared caller. */
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

void *ftrace_arch_tramp_callee(struct ftrace_ops *ops, bool regs)
{
	if (ops)
		return NULL;
	return call_dest(regs ? (unsigned long)ftrace_regs_call :
				(unsigned long)ftrace_call);
}

#ifdef CONFIG_X86_64
void set_ftrace_ops_ro(void)
{
}
#endif

#endif /* CONFIG_X86_64 && CONFIG_MODULES */
