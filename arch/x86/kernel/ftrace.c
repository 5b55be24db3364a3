// SPDX-License-Identifier: GPL-2.0
/*
 * The x86 back end of the dynamic ftrace core (<linux/ftrace_arch.h>).
 *
 * Every traceable function starts with a five-byte call site that holds
 * the NOP or a rel32 CALL (<asm/ftrace_insn.h>).  The core hands over
 * sorted batches of sites, each with what it holds now and what it must
 * hold next.  Every site of a batch is checked before any is written;
 * then all of them change together, in three steps:
 *
 *   1. an INT3 over the first byte of every site; sync every CPU;
 *   2. the last four bytes of every site whose last four bytes change;
 *      sync every CPU;
 *   3. the new first byte of every site; sync every CPU.
 *
 * Why a CPU running a site always runs the old or the new instruction,
 * never a mix: a CPU may fetch instruction bytes early and keep them until
 * it serialises, and a sync (an IPI that runs sync_core() everywhere) is
 * what makes it drop them.  After step 1 every CPU fetches INT3 as a
 * site's first byte, so none decodes the tail that step 2 rewrites;
 * nothing branches into the middle of a site, whose only entry is its
 * first byte.  The INT3 traps to ftrace_int3_handler(), which finds the
 * site in the batch and does what the new instruction does.  Step 3 is a
 * one-byte store per site: a CPU sees either the INT3 (and is handled as
 * above) or the new first byte, followed by the new tail that the step-2
 * sync has made visible.  A CPU inside the handler has interrupts off, so
 * it takes the last sync only after it has left the handler: when that
 * sync returns, nothing uses the batch any more.
 *
 * Kernel text is read-only, so it is written through a mapping only the
 * writing CPU has: poking_mm, the address space x86 keeps for text writes
 * (see poking_init()).  One pass of a step enters poking_mm once, maps
 * each page that holds sites of the batch once at poking_addr, writes that
 * page's bytes for the step and leaves.  Interrupts are off for the pass.
 *
 * Code that does not run yet takes shorter paths: a loading module's
 * sites are written in one pass followed by one sync, and fresh sites (at
 * boot, or in a module not yet formed, whose text is still writable) are
 * written in place.
 *
 * The shared callers (ftrace_caller, ftrace_regs_caller) call the function
 * the core chooses through one CALL each; ftrace_arch_set_func() rewrites
 * those with the same three steps.  On x86_64 an ops may have a trampoline
 * of its own: a copy of a shared caller that loads that ops and calls its
 * function.  The ORC unwinder looks up a trampoline address at the same
 * offset in the caller it was copied from, so a copy keeps the caller's
 * layout byte for byte; only the ops load, the CALL and (in the
 * register-saving caller) the branch to the direct-call exit change.
 */
#define pr_fmt(fmt) "ftrace: " fmt

#include <linux/ftrace.h>
#include <linux/init.h>
#include <linux/kasan.h>
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

#include <asm/debugreg.h>
#include <asm/ftrace.h>
#include <asm/ftrace_insn.h>
#include <asm/set_memory.h>
#include <asm/text-patching.h>
#include <asm/tlbflush.h>

#include <linux/ftrace_arch.h>
#include <linux/perf_event.h>

#define SITE	FTRACE_X86_SITE_SIZE
#define TAIL	(SITE - 1)

/* The sites of the write in progress, sorted by address; text_mutex. */
static struct ftrace_x86_site sites[FTRACE_BATCH_MAX];

/* How many of sites[] the INT3 handler must look at. */
static unsigned int int3_nr;

/*
 * 1 while a write has INT3s in the text, plus one for each handler
 * looking at sites[]; 0 between writes.  The writer waits for it to drop
 * to 0 before sites[] changes again.
 */
static atomic_t int3_users;

/**
 * ftrace_int3_handler - resume a CPU that hit an INT3 of a site in change
 * @regs: the registers of the trap
 *
 * Called at the start of the INT3 exception, in any context (NMI
 * included); it calls nothing that could be traced, instrumented or hit
 * another INT3.
 *
 * Return: true if the INT3 is ours: @regs then resume as if the site's
 * new instruction had run.
 */
noinstr bool ftrace_int3_handler(struct pt_regs *regs)
{
	const struct ftrace_x86_site *s;
	unsigned int nr;

	if (user_mode(regs))
		return false;
	/* Pairs with the release in write_sites(): sites[] is filled in. */
	if (!arch_atomic_inc_not_zero(&int3_users))
		return false;
	nr = READ_ONCE(int3_nr);
	s = ftrace_x86_site_find(sites, nr, regs->ip - INT3_INSN_SIZE);
	if (s)
		ftrace_x86_int3_resume(s, regs);
	arch_atomic_dec(&int3_users);
	return s;
}

/*
 * The window: where text is written.
 *
 * The pages holding the sites of a batch are mapped once per batch into
 * poking_mm, each at a slot of its own in a PMD-sized window next to the
 * two pages text_poke() uses at poking_addr; a site that straddles two
 * pages gets them in consecutive slots.  Each step of the protocol is then
 * one switch into poking_mm, one store per site and one switch back.  Only
 * this file uses the window, under text_mutex, and only holders of
 * text_mutex load poking_mm, so the window's PTEs change while no CPU can
 * be using them.
 */
#define WIN_SLOTS	PTRS_PER_PTE

static unsigned long win_base;		/* the window's address in poking_mm */
static unsigned int win_used;		/* slots mapped for the current batch */
static u8 *win_at[FTRACE_BATCH_MAX];	/* where sites[i] is in the window */
static u8 win_found[SITE];		/* what a refused site held */

/*
 * The kernel's own text first: core_kernel_text() is not traced, while the
 * vmalloc helpers are, and with the function tracer on a call to them
 * costs a trip through the tracer.
 */
static struct page *text_page(unsigned long addr)
{
	if (core_kernel_text(addr))
		return virt_to_page((void *)addr);
	if (is_vmalloc_or_module_addr((void *)addr))
		return vmalloc_to_page((void *)addr);
	return NULL;
}

static void win_unmap(void)
{
	spinlock_t *ptl;	/* poking_mm's lock of the window's PTEs */
	unsigned int i;
	pte_t *ptep;

	if (!win_used)
		return;
	ptep = get_locked_pte(poking_mm, win_base, &ptl);
	/* The page table was allocated at boot and stays. */
	if (WARN_ON_ONCE(!ptep))
		return;
	for (i = 0; i < win_used; i++)
		pte_clear(poking_mm, win_base + i * PAGE_SIZE, ptep + i);
	pte_unmap_unlock(ptep, ptl);
	/*
	 * No CPU has poking_mm loaded.  This moves its TLB generation on, so
	 * the next CPU to load it drops what it may still hold of the window.
	 */
	flush_tlb_mm_range(poking_mm, win_base,
			   win_base + win_used * PAGE_SIZE, PAGE_SHIFT, false);
	win_used = 0;
}

/*
 * The kernel image is physically contiguous: when every site of the batch
 * is kernel text and their pages fit in the window, map the whole range
 * of pages from the first site to the last, in order, so that a site's
 * place in the window is its offset from the first page.  Return false
 * if the batch does not qualify (nothing is mapped then).
 */
static bool win_map_span(unsigned int nr, pte_t *ptep, pgprot_t prot)
{
	unsigned long first = sites[0].ip & PAGE_MASK;
	unsigned long end = sites[nr - 1].ip + SITE - 1;
	unsigned int i, pages;
	unsigned long pfn;

	/* __pa_symbol() is only for addresses of the kernel image. */
	if (!core_kernel_text(sites[0].ip) || !core_kernel_text(end))
		return false;
	pages = ((end & PAGE_MASK) - first) / PAGE_SIZE + 1;
	if (pages > WIN_SLOTS)
		return false;
	pfn = PHYS_PFN(__pa_symbol(first));
	for (i = 0; i < pages; i++)
		set_pte_at(poking_mm, win_base + i * PAGE_SIZE, ptep + i,
			   pfn_pte(pfn + i, prot));
	win_used = pages;
	for (i = 0; i < nr; i++)
		win_at[i] = (u8 *)win_base + (sites[i].ip - first);
	return true;
}

/*
 * Map the pages of sites[0..nr) and fill in win_at[].  Return 0, -ENOMEM,
 * or -EFAULT with *@bad set to a site that is not in kernel or module text.
 */
static int win_map(unsigned int nr, unsigned int *bad)
{
	/* Not global: the mapping must not outlive poking_mm in any TLB. */
	pgprot_t prot = __pgprot(pgprot_val(PAGE_KERNEL) & ~_PAGE_GLOBAL);
	unsigned long last = 0;
	unsigned int i, k;
	spinlock_t *ptl;	/* poking_mm's lock of the window's PTEs */
	pte_t *ptep;
	int ret = 0;

	ptep = get_locked_pte(poking_mm, win_base, &ptl);
	if (!ptep)
		return -ENOMEM;
	if (win_map_span(nr, ptep, prot)) {
		pte_unmap_unlock(ptep, ptl);
		return 0;
	}
	/* Module text, or sites far apart: page by page. */
	for (i = 0; i < nr && !ret; i++) {
		unsigned long ip = sites[i].ip;
		unsigned long page[2] = { ip & PAGE_MASK,
					  (ip + SITE - 1) & PAGE_MASK };

		/* Most sites share the page of the one before. */
		if (page[0] == last && page[1] == last) {
			win_at[i] = (u8 *)win_base + offset_in_page(ip) +
				    (win_used - 1) * PAGE_SIZE;
			continue;
		}

		for (k = 0; k < 2; k++) {
			struct page *pg;

			if (page[k] == last)
				continue;
			pg = text_page(page[k]);
			if (!pg) {
				*bad = i;
				ret = -EFAULT;
				break;
			}
			set_pte_at(poking_mm, win_base + win_used * PAGE_SIZE,
				   ptep + win_used, mk_pte(pg, prot));
			win_used++;
			last = page[k];
		}
		/* The site's first page: the last slot, or the one before. */
		win_at[i] = (u8 *)win_base + offset_in_page(ip) +
			    (win_used - (page[1] != page[0] ? 2 : 1)) * PAGE_SIZE;
	}
	pte_unmap_unlock(ptep, ptl);
	if (ret)
		win_unmap();
	return ret;
}

/* Being in poking_mm: interrupts off, nothing else of this CPU's there. */
struct mm_visit {
	unsigned long flags;
	struct mm_struct *prev;
};

static void poking_enter(struct mm_visit *v)
{
	local_irq_save(v->flags);
	/* A lazy TLB would leave the old mm half loaded when we switch back. */
	if (this_cpu_read(cpu_tlbstate_shared.is_lazy))
		leave_mm(smp_processor_id());
	v->prev = this_cpu_read(cpu_tlbstate.loaded_mm);
	switch_mm_irqs_off(NULL, poking_mm, current);
	/* User watchpoints could match the window's addresses. */
	if (hw_breakpoint_active())
		hw_breakpoint_disable();
	/* The window is below the kernel half: KASAN has no shadow there. */
	kasan_disable_current();
}

static void poking_leave(struct mm_visit *v)
{
	kasan_enable_current();
	switch_mm_irqs_off(NULL, v->prev, current);
	if (hw_breakpoint_active())
		hw_breakpoint_restore();
	local_irq_restore(v->flags);
}

static bool same_bytes(const u8 *a, const u8 *b)
{
	return get_unaligned((const u32 *)a) == get_unaligned((const u32 *)b) &&
	       a[4] == b[4];
}

static bool tail_changes(const struct ftrace_x86_site *s)
{
	return get_unaligned((const u32 *)(s->old + 1)) !=
	       get_unaligned((const u32 *)(s->new + 1));
}

enum step { STEP_INT3, STEP_TAIL, STEP_HEAD, STEP_WHOLE };

/*
 * Return: the index of the first of sites[0..nr) that does not hold its
 * old bytes (which are then in win_found), or -1.
 */
static int win_check(unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr; i++) {
		if (!same_bytes(win_at[i], sites[i].old)) {
			memcpy(win_found, win_at[i], SITE);
			return i;
		}
	}
	return -1;
}

/* The stores of one step, one loop each: a batch has hundreds of sites. */
static void win_write(unsigned int nr, enum step step)
{
	struct ftrace_x86_site *s = sites;
	unsigned int i;

	switch (step) {
	case STEP_INT3:
		for (i = 0; i < nr; i++)
			*win_at[i] = FTRACE_X86_INT3;
		break;
	case STEP_TAIL:
		for (i = 0; i < nr; i++, s++)
			if (tail_changes(s))
				put_unaligned(get_unaligned((u32 *)(s->new + 1)),
					      (u32 *)(win_at[i] + 1));
		break;
	case STEP_HEAD:
		for (i = 0; i < nr; i++, s++)
			*win_at[i] = s->new[0];
		break;
	case STEP_WHOLE:
		for (i = 0; i < nr; i++, s++)
			memcpy(win_at[i], s->new, SITE);
		break;
	}
}

/*
 * One step over the mapped sites[0..nr).  The first step of a write
 * (STEP_INT3, STEP_WHOLE) first checks that every site holds its old
 * bytes, and writes nothing if one does not.
 *
 * Return: -1, or the index of the first site that does not hold its old
 * bytes (which are then in win_found).
 */
static int win_step(unsigned int nr, enum step step)
{
	struct mm_visit v;
	int bad = -1;

	poking_enter(&v);
	if (step == STEP_INT3 || step == STEP_WHOLE)
		bad = win_check(nr);
	/*
	 * Only now may the handler claim INT3s at these sites: one that was
	 * there before (kgdb's, say) made the check above fail instead.
	 */
	if (bad < 0 && step == STEP_INT3)
		atomic_set_release(&int3_users, 1);
	if (bad < 0)
		win_write(nr, step);
	poking_leave(&v);
	return bad;
}

static void sync_this_cpu(void *unused)
{
	sync_core();
}

/* Every CPU drops the instruction bytes it may hold from before. */
static void sync_all(void)
{
	on_each_cpu(sync_this_cpu, NULL, 1);
}

/*
 * perf's text_poke records of sites[0..nr), for decoders of kernel code;
 * asked for once per batch, as a batch may hold hundreds of sites.
 */
static void poke_events(unsigned int nr)
{
	unsigned int i;

	if (!perf_event_text_poke_wanted())
		return;
	for (i = 0; i < nr; i++)
		perf_event_text_poke((void *)sites[i].ip, sites[i].old, SITE,
				     sites[i].new, SITE);
}

/*
 * Write sites[0..nr), checking each first.  @live: other CPUs may run the
 * sites, so take the three steps (the second only if @tails: the last
 * four bytes of some site change); otherwise write each site whole and
 * sync once.
 *
 * Return: 0; -EINVAL with *@bad set (the site does not hold its old bytes,
 * which are in win_found; nothing written); -EFAULT with *@bad set (not
 * text); -ENOMEM.
 */
static int write_sites(unsigned int nr, bool live, bool tails,
		       unsigned int *bad)
{
	int ret, refused;

	lockdep_assert_held(&text_mutex);
	ret = win_map(nr, bad);
	if (ret)
		return ret;
	if (!live) {
		refused = win_step(nr, STEP_WHOLE);
		if (refused < 0) {
			sync_all();
			poke_events(nr);
		}
		goto out;
	}
	/*
	 * The handler must find the sites before any CPU meets their INT3:
	 * win_step() publishes them (int3_users) once they are checked.
	 */
	WRITE_ONCE(int3_nr, nr);
	refused = win_step(nr, STEP_INT3);
	if (refused >= 0)
		goto out;
	sync_all();
	if (tails) {
		win_step(nr, STEP_TAIL);
		sync_all();
	}
	/*
	 * Since the first sync no CPU runs the old instruction, and until
	 * the head step none runs the new one: the events go out in between,
	 * so that a decoder of a hardware trace (Intel PT) may switch to the
	 * new bytes at an event's timestamp.
	 */
	poke_events(nr);
	win_step(nr, STEP_HEAD);
	sync_all();
	/*
	 * No INT3 of this write is left, but a CPU that trapped on another
	 * one may still be searching sites[]: wait for it.
	 */
	if (!atomic_dec_and_test(&int3_users))
		atomic_cond_read_acquire(&int3_users, !VAL);
out:
	win_unmap();
	if (refused >= 0) {
		*bad = refused;
		return -EINVAL;
	}
	return 0;
}

/* Read the @SITE bytes at @ip; -EFAULT if they cannot be read. */
static int site_read(unsigned long ip, u8 *buf)
{
	return copy_from_kernel_nofault(buf, (void *)ip, SITE) ? -EFAULT : 0;
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

/*
 * Fill sites[] from @b: addresses, old and new bytes.  *@tails: whether
 * the last four bytes of some site change.
 */
static int load_batch(struct ftrace_batch *b, bool *tails)
{
	unsigned long prev = 0;
	unsigned int i;
	int ret;

	*tails = false;

	for (i = 0; i < b->nr; i++) {
		const struct ftrace_patch *p = &b->patch[i];
		struct ftrace_x86_site *s = &sites[i];

		/* The handler's binary search needs ascending addresses. */
		if (WARN_ON_ONCE(p->ip <= prev))
			return site_refused(b, i, NULL, NULL, -EINVAL);
		prev = p->ip;
		s->ip = p->ip;
		s->dest = p->new;
		s->op = p->new ? FTRACE_X86_CALL : 0;
		ret = ftrace_x86_encode_site(s->old, p->ip, p->old);
		if (!ret)
			ret = ftrace_x86_encode_site(s->new, p->ip, p->new);
		if (ret)
			return site_refused(b, i, NULL, NULL, ret);
		*tails |= tail_changes(s);
	}
	return 0;
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

int ftrace_arch_patch(struct ftrace_batch *batch)
{
	unsigned int bad = 0;
	bool tails;
	int ret;

	batch->done = 0;
	batch->changed = 0;
	if (batch->init)
		return write_fresh(batch);
	mutex_lock(&text_mutex);
	ret = load_batch(batch, &tails);
	if (!ret) {
		ret = write_sites(batch->nr, batch->live, tails, &bad);
		if (!ret)
			batch->done = batch->nr;
		else
			site_refused(batch, bad, sites[bad].old,
				     ret == -EINVAL ? win_found : NULL, ret);
	}
	mutex_unlock(&text_mutex);
	return ret;
}

/*
 * Point the CALL or JMP (@op) at each of @ips, live code outside the call
 * sites (the shared callers, trampolines), at @dest.
 */
static int retarget(const unsigned long *ips, unsigned int n, u8 op,
		    unsigned long dest)
{
	unsigned int i, j, nr = 0;
	bool tails = false;
	unsigned long now;
	u8 cur[SITE];
	int ret = 0;

	mutex_lock(&text_mutex);
	for (i = 0; i < n && !ret; i++) {
		struct ftrace_x86_site s = { .ip = ips[i], .op = op, .dest = dest };

		ret = site_read(s.ip, cur);
		if (ret)
			break;
		if (ftrace_x86_decode(cur, s.ip, &now) != op) {
			pr_err("no %s at %pS (%5ph)\n",
			       op == FTRACE_X86_CALL ? "call" : "jmp",
			       (void *)s.ip, cur);
			ret = -EINVAL;
			break;
		}
		if (now == dest)
			continue;
		ret = ftrace_x86_encode_rel(s.new, op, s.ip, dest);
		memcpy(s.old, cur, SITE);
		tails |= tail_changes(&s);
		/* Keep sites[] sorted for the handler. */
		for (j = nr; j > 0 && sites[j - 1].ip > s.ip; j--)
			sites[j] = sites[j - 1];
		sites[j] = s;
		nr++;
	}
	if (!ret && nr)
		ret = write_sites(nr, true, tails, &j);
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

int __init ftrace_arch_init(void)
{
	spinlock_t *ptl;	/* poking_mm's lock of the window's PTEs */
	pte_t *ptep;

	BUILD_BUG_ON(2 * FTRACE_BATCH_MAX > WIN_SLOTS);
	/* Text is written through poking_mm (poking_init() runs first). */
	if (!poking_mm)
		return -ENODEV;
	/*
	 * The window is the PMD-sized block below the one of poking_addr,
	 * which poking_init() keeps above TASK_UNMAPPED_BASE; its page table
	 * is allocated now, once.
	 */
	win_base = (poking_addr & PMD_MASK) - PMD_SIZE;
	ptep = get_locked_pte(poking_mm, win_base, &ptl);
	if (!ptep)
		return -ENOMEM;
	pte_unmap_unlock(ptep, ptl);
	return 0;
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
	t = module_alloc(size);
	if (!t)
		return -ENOMEM;
	/*
	 * set_memory_ro() makes the pages' direct mapping read-only too:
	 * freeing the trampoline must give them back writable.
	 */
	set_vm_flush_reset_perms(t);
	if (tramp_fill(t, &c, slot, ops, func)) {
		pr_warn("cannot build a trampoline for %ps\n", ops->func);
		module_memfree(t);
		return -EINVAL;
	}
	pages = DIV_ROUND_UP(size, PAGE_SIZE);
	if (set_memory_ro((unsigned long)t, pages) ||
	    set_memory_x((unsigned long)t, pages)) {
		module_memfree(t);
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
	module_memfree((void *)ops->trampoline);
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
