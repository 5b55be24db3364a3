// SPDX-License-Identifier: GPL-2.0
/*
 * The arm64 back end of the dynamic ftrace core (<linux/ftrace_arch.h>);
 * the graph tracer's entry hook is ftrace_graph.c.
 *
 * A call site is one instruction, the second of a function's two
 * patchable entry words: a NOP, or "bl <caller>" (<asm/ftrace.h>).  The
 * core hands over sorted batches of sites, each with what it holds now
 * and what it must hold next.  Every site of a batch is read and checked
 * before any is written; then all are written, and made visible, at once.
 *
 * Why one plain store per site is enough while other CPUs run the code:
 * the Arm ARM (DDI 0487, B2.2.5 "Concurrent modification and execution of
 * instructions") lets software replace, while another PE may be executing
 * it, a B, BL, NOP, BRK, SVC, HVC, SMC or ISB with another instruction of
 * that list, with no synchronisation between the PEs: each executes
 * either the old or the new instruction, never a mix.  A site only ever
 * swaps NOP and BL, and the word before it (written at build time) never
 * changes while the kernel runs.  What the rule still asks of the writer
 * is the cache maintenance that makes the new instruction reach the
 * instruction side (clean the data cache line to the point of
 * unification, invalidate the instruction cache line, each completed by
 * a DSB), and a context synchronisation event on a PE before it is
 * guaranteed to fetch the new instruction.  Here the maintenance is done
 * once per run of nearby sites of a batch rather than per instruction,
 * and the event is an IPI to every other CPU (exception entry and return
 * synchronise context), sent once a batch is stored (see write_words()):
 * when ftrace_arch_patch() returns, no CPU can run an old instruction.
 *
 * Kernel and module text is mapped read-only, so it is written through a
 * window of its own: a range of kernel virtual addresses, reserved at
 * boot with page tables but no pages, where a batch maps each page it
 * writes, once, writable, for the duration of the batch.  The per-ops
 * trampolines are written through it too (ftrace_arch_tramp_make());
 * text_mutex serialises its users.
 *
 * A module's site may be beyond a BL's reach of the shared callers; it
 * then calls them through the module's two ftrace veneers (module.c fills
 * them in when the module is loaded; on 6.1 with ARM64_MODULE_PLTS), and
 * a trampoline in the pool through the pool's veneer (pool_veneer()).
 */
#define pr_fmt(fmt) "ftrace: " fmt

#include <linux/ftrace.h>
#include <linux/ftrace_arch.h>
#include <linux/ftrace_kbase.h>
#include <linux/kallsyms.h>
#include <linux/memory.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleloader.h>
#include <linux/mutex.h>
#include <linux/smp.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include <asm/cacheflush.h>
#include <asm/debug-monitors.h>
#include <asm/ftrace.h>
#include <asm/ftrace_insn.h>
#include <asm/set_memory.h>
#include <asm/tlbflush.h>

#define WORD	AARCH64_INSN_SIZE

/*
 * What differs between the two bases (Documentation/trace/ftrace-core.rst,
 * "Two bases"): where trampolines beyond the pool's come from, and a
 * module's veneers.  6.12 allocates executable memory with execmem, ready
 * after core_initcall, and every module has veneers, a set for its init
 * text too; 6.1 has module_alloc(), whose region KASLR picks at
 * subsys_initcall, and veneers with ARM64_MODULE_PLTS only.
 */
#ifdef FTRACE_KBASE_612
#include <linux/execmem.h>

#define HAVE_VENEERS	IS_ENABLED(CONFIG_MODULES)

static inline void *tramp_alloc(unsigned long size)
{
	return execmem_alloc(EXECMEM_FTRACE, size);
}

static inline void tramp_free(void *p)
{
	execmem_free(p);
}

/*
 * arm64 sets execmem up at core_initcall (ARCH_WANTS_EXECMEM_LATE: the
 * module region is placed with the entropy KASLR has by then), and the
 * tracers' boot self-tests, at core_initcall too, may come first.
 */
static bool execmem_up __ro_after_init;

static int __init tramp_memory_up(void)
{
	execmem_up = true;
	return 0;
}
postcore_initcall(tramp_memory_up);

static inline bool tramp_ready(void)
{
	return READ_ONCE(execmem_up);
}

#ifdef CONFIG_MODULES
static inline struct plt_entry *module_veneers(struct module *mod, unsigned long ip)
{
	return within_module_init(ip, mod) ? mod->arch.init_ftrace_trampolines :
					     mod->arch.ftrace_trampolines;
}
#endif
#else
#define HAVE_VENEERS	IS_ENABLED(CONFIG_ARM64_MODULE_PLTS)

static inline void *tramp_alloc(unsigned long size)
{
	return module_alloc(size);
}

static inline void tramp_free(void *p)
{
	module_memfree(p);
}

/*
 * With RANDOMIZE_BASE the module region is chosen at subsys_initcall
 * (kaslr_init()); before that module_alloc_base is 0 and module_alloc()
 * would map pages at the bottom of the address space.
 */
static inline bool tramp_ready(void)
{
	return !IS_ENABLED(CONFIG_RANDOMIZE_BASE) || module_alloc_base;
}

#ifdef CONFIG_ARM64_MODULE_PLTS
static inline struct plt_entry *module_veneers(struct module *mod, unsigned long ip)
{
	return mod->arch.ftrace_trampolines;
}
#endif
#endif

/*
 * One word to write: a site's instruction, or (for a fresh site whose
 * object the build did not process) the "mov x9, x30" before it.
 */
struct text_word {
	unsigned long addr;
	u32 insn;
	unsigned int slot;	/* the window page it is written through */
};

/* A batch writes at most two words per site. */
#define MAX_WORDS	(2 * FTRACE_BATCH_MAX)

/* The words of the write in progress, ascending; under text_mutex. */
static struct text_word words[MAX_WORDS];

/* The window: one page-table entry per page, at win_base. */
static unsigned long win_base;
static pte_t *win_pte[MAX_WORDS];

/* The page frame of a text address: kernel image or module text. */
static unsigned long text_pfn(unsigned long addr)
{
	if (is_kernel_text(addr) || is_kernel_inittext(addr))
		return __phys_to_pfn(__pa_symbol(addr));
	return vmalloc_to_pfn((void *)addr);
}

/* A store the sanitizers do not see: the window has no shadow memory. */
static __always_inline void window_store(unsigned long addr, u32 insn)
{
	__le32 v = cpu_to_le32(insn);

	asm volatile("str %w0, [%1]" : : "r"(v), "r"(addr) : "memory");
}

/* The same for a trampoline's 64-bit word: one aligned store. */
static __always_inline void window_store64(unsigned long addr, u64 val)
{
	asm volatile("str %0, [%1]" : : "r"(val), "r"(addr) : "memory");
}

/*
 * Map the pages of words[0..@nr) into the window, one slot per page
 * (the words are ascending, so a page's words are neighbours).
 */
static void win_map(unsigned int nr)
{
	unsigned long page = 0;
	unsigned int i, slot = 0;

	for (i = 0; i < nr; i++) {
		unsigned long p = words[i].addr & PAGE_MASK;

		if (!i || p != page) {
			if (i)
				slot++;
			page = p;
			WRITE_ONCE(*win_pte[slot],
				   pfn_pte(text_pfn(p), PAGE_KERNEL));
		}
		words[i].slot = slot;
	}
	/* The new entries are visible to the walker before the stores. */
	dsb(ishst);
	isb();
}

/* Unmap the window's slots 0..@last. */
static void win_unmap(unsigned int last)
{
	unsigned int slot;

	for (slot = 0; slot <= last; slot++)
		WRITE_ONCE(*win_pte[slot], __pte(0));
	flush_tlb_kernel_range(win_base, win_base + (last + 1) * PAGE_SIZE);
}

/* Store words[0..@nr) through the window. */
static void store_words(unsigned int nr)
{
	unsigned int i;

	win_map(nr);
	for (i = 0; i < nr; i++)
		window_store(win_base + words[i].slot * PAGE_SIZE +
			     offset_in_page(words[i].addr), words[i].insn);
	win_unmap(words[nr - 1].slot);
}

/* Cache maintenance of words[0..@nr), by the text's own addresses. */
static void sync_words(unsigned int nr)
{
	unsigned long start = words[0].addr, end = start + WORD;
	unsigned int i;

	/*
	 * A run ends where a page without sites would fall inside it: that
	 * page may not be mapped (a guard page between two modules, say),
	 * and maintenance by address would fault on it.
	 */
	for (i = 1; i < nr; i++) {
		if ((words[i].addr & PAGE_MASK) - ((end - 1) & PAGE_MASK) > PAGE_SIZE) {
			caches_clean_inval_pou(start, end);
			start = words[i].addr;
		}
		end = words[i].addr + WORD;
	}
	caches_clean_inval_pou(start, end);
}

/*
 * Write words[0..@nr) and make them visible: through the window, then
 * cache maintenance run by run; with @live, every other CPU then takes
 * an IPI, whose exception entry and return synchronise its context, so
 * that none of them runs a word of the old text afterwards.
 *
 * One store of each word is what the architecture asks for.  QEMU 7.2's
 * multi-threaded TCG can keep a block it translated from a page while
 * the page was being written, with the old words in it (a vCPU reads
 * guest code before it takes the page's lock: fixed in QEMU 8.1 by
 * "accel/tcg: Always lock pages before translation"); guests on that
 * QEMU run their vCPUs in one thread (harness/qemu.sh).
 */
static void write_words(unsigned int nr, bool live)
{
	if (!nr)
		return;
	store_words(nr);
	sync_words(nr);
	if (live)
		kick_all_cpus_sync();
}

/* Read the instruction at @addr; kernel text directly, else guarded. */
static int text_read(unsigned long addr, u32 *insn)
{
	__le32 v;

	if (core_kernel_text(addr))
		v = READ_ONCE(*(__le32 *)addr);
	else if (copy_from_kernel_nofault(&v, (void *)addr, sizeof(v)))
		return -EFAULT;
	*insn = le32_to_cpu(v);
	return 0;
}

/*
 * @addr's offset in its function, from kallsyms; -1 if it knows of none.
 * Asked only where a kprobe's BRK hides the word that would tell.
 */
static long __kprobes func_offset(unsigned long addr)
{
	unsigned long size, offset;

	if (!kallsyms_lookup_size_offset(addr, &size, &offset))
		return -1;
	return offset;
}

/**
 * ftrace_site_func() - the function an ftrace site belongs to
 * @ip: a site, as an ops is called with it, or a function's own address
 *
 * A site follows "mov x9, x30", and that follows BTI C where the function
 * has a landing pad.  A kprobe on the function's entry replaces the first
 * of them with its BRK; a BRK before a function's own address is a kprobe
 * on the last word of the function before.  The BRK cases ask kallsyms
 * which it is.  BPF's kprobe_multi goes by function addresses (on 6.1,
 * through patch 0017).
 *
 * Return: the address of the function.
 */
unsigned long __kprobes ftrace_site_func(unsigned long ip)
{
	u32 insn;

	if (text_read(ip - AARCH64_INSN_SIZE, &insn))
		return ip;
	if (insn == BRK64_OPCODE_KPROBES ? func_offset(ip) == 0 :
	    insn != FTRACE_A64_MOV_X9_LR)
		return ip;
	ip -= AARCH64_INSN_SIZE;
	if (text_read(ip - AARCH64_INSN_SIZE, &insn))
		return ip;
	if (insn == FTRACE_A64_BTI_C ||
	    (insn == BRK64_OPCODE_KPROBES && func_offset(ip) == AARCH64_INSN_SIZE))
		ip -= AARCH64_INSN_SIZE;
	return ip;
}

/* The trampoline pool's slots in use (see ftrace_arch_tramp_make()). */
static DECLARE_BITMAP(pool_used, FTRACE_A64_POOL_SLOTS);

static bool in_pool(unsigned long addr)
{
	return addr >= (unsigned long)ftrace_tramp_pool &&
	       addr < (unsigned long)ftrace_tramp_pool_end;
}

#ifdef CONFIG_MODULES
/*
 * Pages of module memory for code: BRK in every word, so that what is not
 * written traps rather than run stale code.  NULL if none.
 */
static __le32 *tramp_pages(unsigned int size)
{
	__le32 *p = tramp_alloc(PAGE_ALIGN(size));
	unsigned int n;

	if (p)
		for (n = 0; n < PAGE_ALIGN(size) / WORD; n++)
			p[n] = cpu_to_le32(FTRACE_A64_BRK);
	return p;
}

/*
 * Make tramp_pages()' @p read-only and executable (freeing gives the pages
 * back writable and not executable), or free it: 0 or an error.
 */
static int tramp_seal(void *p, unsigned int size)
{
	unsigned int pages = DIV_ROUND_UP(size, PAGE_SIZE);

	set_vm_flush_reset_perms(p);
	if (set_memory_ro((unsigned long)p, pages) ||
	    set_memory_x((unsigned long)p, pages)) {
		tramp_free(p);
		return -ENOMEM;
	}
	return 0;
}

/*
 * A module's sites are usually beyond a BL's reach of the pool: KASLR
 * places the module region anywhere in 2 GiB around the image.  For them,
 * one page of module memory, made before any module can load and never
 * changed, holds a veneer per slot, "ldr x16, 8f; br x16; 8: .quad slot",
 * which a trampoline's BTI C accepts (x16 is free at a site, as for the
 * module's own veneers).  0 if it could not be made: such sites then call
 * ftrace_regs_caller.
 */
#define POOL_VENEER	16
static unsigned long pool_veneers __ro_after_init;

static int __init pool_veneers_make(void)
{
	__le32 *v;
	unsigned int n;

	BUILD_BUG_ON(FTRACE_A64_POOL_SLOTS * POOL_VENEER > PAGE_SIZE);
	if (!tramp_ready())
		return 0;
	v = tramp_pages(PAGE_SIZE);
	if (!v)
		return 0;
	for (n = 0; n < FTRACE_A64_POOL_SLOTS; n++) {
		__le32 *w = v + n * POOL_VENEER / WORD;

		w[0] = cpu_to_le32(FTRACE_A64_LDR_X16_8);
		w[1] = cpu_to_le32(FTRACE_A64_BR_X16);
		*(u64 *)&w[2] = (unsigned long)ftrace_tramp_pool +
				n * FTRACE_A64_POOL_SLOT;
	}
	if (tramp_seal(v, PAGE_SIZE))
		return 0;
	flush_icache_range((unsigned long)v, (unsigned long)v + PAGE_SIZE);
	pool_veneers = (unsigned long)v;
	return 0;
}

/*
 * After the module region is placed (6.1's kaslr_init() is a subsys
 * initcall, 6.12's execmem is up after core_initcall) and before
 * populate_rootfs() lets modprobe run: a module site's instruction
 * never depends on when it was written.
 */
subsys_initcall_sync(pool_veneers_make);

/* The veneer of the pooled trampoline at @tramp, or 0. */
static unsigned long pool_veneer(unsigned long tramp)
{
	unsigned long off = tramp - (unsigned long)ftrace_tramp_pool;

	if (!pool_veneers || off % FTRACE_A64_POOL_SLOT)
		return 0;
	return pool_veneers + off / FTRACE_A64_POOL_SLOT * POOL_VENEER;
}
#else
static unsigned long pool_veneer(unsigned long tramp)
{
	return 0;
}
#endif

/*
 * Where a site at @ip that must call @dest branches to: @dest, or a
 * veneer that leads there when @dest is out of reach (a pooled
 * trampoline's, or the module's own for the shared callers).  0 when
 * neither reaches.
 */
static unsigned long site_branch(unsigned long ip, unsigned long dest)
{
	unsigned long veneer = 0;

	if (ftrace_a64_reaches(ip, dest))
		return dest;
	if (in_pool(dest)) {
		veneer = pool_veneer(dest);
		if (veneer && ftrace_a64_reaches(ip, veneer))
			return veneer;
		veneer = 0;
	}
	/*
	 * An ops' trampoline (or a direct call's target) out of reach: the
	 * register-saving shared caller serves any ops, as it calls the
	 * list function, or the one ops' function when only one is
	 * registered.
	 */
	if (dest != FTRACE_ADDR && dest != FTRACE_REGS_ADDR) {
		dest = FTRACE_REGS_ADDR;
		if (ftrace_a64_reaches(ip, dest))
			return dest;
	}
#if HAVE_VENEERS
	if (dest == FTRACE_ADDR || dest == FTRACE_REGS_ADDR) {
		int idx = dest == FTRACE_ADDR ? FTRACE_PLT_IDX :
						FTRACE_REGS_PLT_IDX;
		struct plt_entry *plts = NULL;
		struct module *mod;

		preempt_disable();
		mod = __module_text_address(ip);
		if (mod)
			plts = module_veneers(mod, ip);
		preempt_enable();
		if (plts)
			veneer = (unsigned long)&plts[idx];
	}
#endif
	return ftrace_a64_via(ip, dest, veneer);
}

#if IS_ENABLED(CONFIG_FTRACE_CORE_KUNIT_TEST)
/* site_branch(), for ftrace_insn_kunit.c. */
unsigned long ftrace_a64_site_branch(unsigned long ip, unsigned long dest)
{
	return site_branch(ip, dest);
}
#endif

/* The instruction a site at @ip holds when it calls @dest (0: NOP). */
static int site_insn(unsigned long ip, unsigned long dest, u32 *insn)
{
	unsigned long to;

	if (!dest)
		return ftrace_a64_site(ip, 0, insn);
	to = site_branch(ip, dest);
	if (!to)
		return -ERANGE;
	return ftrace_a64_site(ip, to, insn);
}

/* Note site @i of @b as refused: it holds @found instead of @expected. */
static int site_refused(struct ftrace_batch *b, unsigned int i, u32 expected,
			u32 found, int err)
{
	__le32 e = cpu_to_le32(expected), f = cpu_to_le32(found);

	b->bad = i;
	b->len = err == -EINVAL ? WORD : 0;
	memcpy(b->expected, &e, WORD);
	memcpy(b->found, &f, WORD);
	return err;
}

/*
 * A fresh site: the word before it must be the build's "mov x9, x30" or
 * still the compiler's NOP (then written here), and the site the NOP.
 * Queue what must be written at @*nr.
 */
static int load_fresh(struct ftrace_batch *b, unsigned int i, unsigned int *nr)
{
	const struct ftrace_patch *p = &b->patch[i];
	u32 head, cur, want;
	int ret;

	if (text_read(p->ip - WORD, &head) || text_read(p->ip, &cur))
		return site_refused(b, i, FTRACE_A64_NOP, 0, -EFAULT);
	if (head != FTRACE_A64_MOV_X9_LR && head != FTRACE_A64_NOP)
		return site_refused(b, i, FTRACE_A64_MOV_X9_LR, head, -EINVAL);
	if (cur != FTRACE_A64_NOP)
		return site_refused(b, i, FTRACE_A64_NOP, cur, -EINVAL);
	ret = site_insn(p->ip, p->new, &want);
	if (ret)
		return site_refused(b, i, 0, 0, ret);
	if (head == FTRACE_A64_NOP)
		words[(*nr)++] = (struct text_word){ p->ip - WORD, FTRACE_A64_MOV_X9_LR };
	if (want != cur)
		words[(*nr)++] = (struct text_word){ p->ip, want };
	if (head == FTRACE_A64_NOP || want != cur)
		b->changed++;
	return 0;
}

/*
 * A site in use: it must hold what @old says; queue @new.  A site about
 * to call must also have "mov x9, x30" before it (the build writes it;
 * the compiler's NOP there would make the caller return to a stale x9),
 * or a BRK: a kprobe on the function's first word, which runs the mov
 * out of line.
 */
static int load_live(struct ftrace_batch *b, unsigned int i, unsigned int *nr)
{
	const struct ftrace_patch *p = &b->patch[i];
	u32 cur, was, want, head;
	int ret;

	ret = site_insn(p->ip, p->old, &was);
	if (!ret)
		ret = site_insn(p->ip, p->new, &want);
	if (ret)
		return site_refused(b, i, 0, 0, ret);
	if (text_read(p->ip, &cur))
		return site_refused(b, i, was, 0, -EFAULT);
	if (cur != was)
		return site_refused(b, i, was, cur, -EINVAL);
	if (p->new && !p->old) {
		if (text_read(p->ip - WORD, &head))
			return site_refused(b, i, FTRACE_A64_MOV_X9_LR, 0, -EFAULT);
		if (head != FTRACE_A64_MOV_X9_LR && !ftrace_a64_is_brk(head))
			return site_refused(b, i, FTRACE_A64_MOV_X9_LR, head, -EINVAL);
	}
	if (want != was)
		words[(*nr)++] = (struct text_word){ p->ip, want };
	return 0;
}

/* Our recordmcount writes "mov x9, x30" before every site it records. */
bool ftrace_arch_fresh_idle(void)
{
	return IS_ENABLED(CONFIG_FTRACE_MCOUNT_USE_RECORDMCOUNT);
}

int ftrace_arch_patch(struct ftrace_batch *batch)
{
	unsigned long prev = 0;
	unsigned int i, nr = 0;
	int ret = 0;

	batch->done = 0;
	batch->changed = 0;
	mutex_lock(&text_mutex);
	for (i = 0; i < batch->nr && !ret; i++) {
		if (WARN_ON_ONCE(batch->patch[i].ip <= prev ||
				 batch->patch[i].ip & (WORD - 1))) {
			ret = site_refused(batch, i, 0, 0, -EINVAL);
			batch->len = 0;
			break;
		}
		prev = batch->patch[i].ip;
		ret = batch->init ? load_fresh(batch, i, &nr) :
				    load_live(batch, i, &nr);
	}
	if (!ret) {
		write_words(nr, batch->live);
		batch->done = batch->nr;
	}
	mutex_unlock(&text_mutex);
	return ret;
}

/*
 * Point the BL at @ip (in a shared caller) at @func, or at the list
 * function if @func is out of reach from there.
 */
static int retarget(unsigned long ip, unsigned long func)
{
	unsigned long now;
	u32 cur, want;
	int ret;

	if (ftrace_a64_bl(ip, func, &want))
		func = (unsigned long)arch_ftrace_ops_list_func;
	ret = ftrace_a64_bl(ip, func, &want);
	if (ret)
		return ret;
	mutex_lock(&text_mutex);
	ret = text_read(ip, &cur);
	if (!ret && !ftrace_a64_bl_dest(ip, cur, &now)) {
		pr_err("no BL at %pS (%08x)\n", (void *)ip, cur);
		ret = -EINVAL;
	}
	if (!ret && cur != want) {
		words[0] = (struct text_word){ ip, want };
		write_words(1, true);
	}
	mutex_unlock(&text_mutex);
	return ret;
}

int ftrace_arch_set_func(ftrace_func_t func)
{
	return retarget((unsigned long)ftrace_call, (unsigned long)func) ?:
	       retarget((unsigned long)ftrace_regs_call, (unsigned long)func);
}

/* The graph tracer is an ops whose function is ftrace_graph_func(). */
int ftrace_arch_set_graph(bool on)
{
	return 0;
}

/* Reserve the window: its addresses and page tables, no pages. */
static int win_pte_note(pte_t *pte, unsigned long addr, void *data)
{
	win_pte[(addr - win_base) >> PAGE_SHIFT] = pte;
	return 0;
}

int __init ftrace_arch_init(void)
{
	struct vm_struct *area;

	area = get_vm_area(MAX_WORDS * PAGE_SIZE, VM_ALLOC);
	if (!area)
		return -ENOMEM;
	win_base = (unsigned long)area->addr;
	return apply_to_page_range(&init_mm, win_base, MAX_WORDS * PAGE_SIZE,
				   win_pte_note, NULL);
}

/*
 * An ops' own trampoline: a copy of a template in entry-ftrace.S.  Its
 * last two words are the ops and the function it calls; the function is
 * changed by one aligned 64-bit store through the window, which a CPU
 * sees whole or not at all, so no instruction of a trampoline ever
 * changes.
 *
 * A copy goes to a free slot of the pool in the kernel's own text, which
 * every site of the image reaches with its BL, and a module's sites
 * through the slot's veneer; it is written through the window like a
 * site.  With the pool full, it goes to memory from tramp_alloc(), a page
 * of its own made read-only and executable, which a site of the image
 * reaches only if KASLR put the module region near enough.  A site that
 * reaches neither calls ftrace_regs_caller instead (site_branch()).
 */
#define TRAMP_OPS(size)		((size) - 2 * sizeof(u64))
#define TRAMP_FUNC(size)	((size) - sizeof(u64))

/*
 * Map the text page of @addr into the window's first slot, writable, and
 * return where @addr is seen through it.  Under text_mutex; win_unmap(0)
 * ends it.
 */
static unsigned long win_open(unsigned long addr)
{
	WRITE_ONCE(*win_pte[0], pfn_pte(text_pfn(addr), PAGE_KERNEL));
	dsb(ishst);
	isb();
	return win_base + offset_in_page(addr);
}

/*
 * Write the pool slot at @slot: @size bytes of @tmpl with @ops and @func
 * in its last two words, or (@tmpl NULL) nothing; BRK fills the rest.  No
 * CPU runs the slot meanwhile: it is free, or being freed.  Under
 * text_mutex.
 */
static void pool_write(unsigned long slot, const u8 *tmpl, unsigned int size,
		       struct ftrace_ops *ops, unsigned long func)
{
	unsigned long w = win_open(slot);
	unsigned int i;

	for (i = 0; i < FTRACE_A64_POOL_SLOT; i += WORD) {
		u32 insn = FTRACE_A64_BRK;

		if (tmpl && i < TRAMP_OPS(size))
			insn = le32_to_cpu(*(const __le32 *)(tmpl + i));
		window_store(w + i, insn);
	}
	if (tmpl) {
		window_store64(w + TRAMP_OPS(size), (u64)ops);
		window_store64(w + TRAMP_FUNC(size), func);
	}
	win_unmap(0);
	caches_clean_inval_pou(slot, slot + FTRACE_A64_POOL_SLOT);
}

/* A free slot of the pool with a copy of @tmpl in it, or 0 if none. */
static unsigned long pool_take(const u8 *tmpl, unsigned int size,
			       struct ftrace_ops *ops, unsigned long func)
{
	unsigned long slot = 0;
	unsigned int n;

	if (WARN_ON_ONCE(size > FTRACE_A64_POOL_SLOT) || !win_base)
		return 0;
	mutex_lock(&text_mutex);
	n = find_first_zero_bit(pool_used, FTRACE_A64_POOL_SLOTS);
	if (n < FTRACE_A64_POOL_SLOTS) {
		slot = (unsigned long)ftrace_tramp_pool + n * FTRACE_A64_POOL_SLOT;
		pool_write(slot, tmpl, size, ops, func);
		__set_bit(n, pool_used);
	}
	mutex_unlock(&text_mutex);
	return slot;
}

/* Give the slot at @slot back: BRK again, so a stray branch there traps. */
static void pool_give(unsigned long slot)
{
	mutex_lock(&text_mutex);
	pool_write(slot, NULL, 0, NULL, 0);
	__clear_bit((slot - (unsigned long)ftrace_tramp_pool) /
		    FTRACE_A64_POOL_SLOT, pool_used);
	mutex_unlock(&text_mutex);
}

static const u8 *tramp_template(struct ftrace_ops *ops, unsigned int *size)
{
	if (ops->flags & FTRACE_OPS_FL_SAVE_REGS) {
		*size = ftrace_regs_tramp_template_end - ftrace_regs_tramp_template;
		return ftrace_regs_tramp_template;
	}
	*size = ftrace_tramp_template_end - ftrace_tramp_template;
	return ftrace_tramp_template;
}

/* Does @ops have a trampoline this file made? */
static bool own_tramp(struct ftrace_ops *ops)
{
	return (ops->flags & FTRACE_OPS_FL_ALLOC_TRAMP) && ops->trampoline;
}

#ifdef CONFIG_MODULES
/* A copy of @tmpl in memory of its own, or NULL. */
static u8 *tramp_alloc_copy(const u8 *tmpl, unsigned int size,
			    struct ftrace_ops *ops, unsigned long func)
{
	u8 *t;

	/*
	 * An ops registered before the region is ready (the tracers' boot
	 * self-tests with the pool full: before kaslr_init() on 6.1 with
	 * KASLR, before execmem is set up on 6.12) has its sites call the
	 * shared caller; its next registration gets a trampoline.
	 */
	if (!tramp_ready())
		return NULL;
	t = (u8 *)tramp_pages(size);
	if (!t)
		return NULL;
	memcpy(t, tmpl, size);
	*(u64 *)(t + TRAMP_OPS(size)) = (unsigned long)ops;
	*(u64 *)(t + TRAMP_FUNC(size)) = func;
	return tramp_seal(t, size) ? NULL : t;
}
#else
static u8 *tramp_alloc_copy(const u8 *tmpl, unsigned int size,
			    struct ftrace_ops *ops, unsigned long func)
{
	return NULL;
}
#endif

int ftrace_arch_tramp_make(struct ftrace_ops *ops, unsigned long func)
{
	unsigned int size;
	const u8 *tmpl = tramp_template(ops, &size);
	unsigned long t;

	/* The words must be aligned in the copy (see entry-ftrace.S). */
	if (WARN_ON_ONCE(!IS_ALIGNED(TRAMP_OPS(size), sizeof(u64)) ||
			 !IS_ALIGNED((unsigned long)tmpl, sizeof(u64))))
		return -EINVAL;
	t = pool_take(tmpl, size, ops, func);
	if (!t)
		t = (unsigned long)tramp_alloc_copy(tmpl, size, ops, func);
	if (!t)
		return -ENOMEM;
	/* The address may have held other code: no CPU keeps any of it. */
	flush_icache_range(t, t + size);
	ops->trampoline = t;
	ops->trampoline_size = size;
	return 0;
}

/*
 * Make @ops' trampoline call @func: one aligned store, which a CPU sees
 * whole or not at all.
 */
int ftrace_arch_tramp_point(struct ftrace_ops *ops, unsigned long func)
{
	unsigned long at = ops->trampoline + TRAMP_FUNC(ops->trampoline_size);
	unsigned int size;

	tramp_template(ops, &size);
	if (ops->trampoline_size != size)
		return -ESTALE;

	mutex_lock(&text_mutex);
	window_store64(win_open(at), func);
	win_unmap(0);
	mutex_unlock(&text_mutex);
	return 0;
}

void ftrace_arch_tramp_free(struct ftrace_ops *ops)
{
	if (in_pool(ops->trampoline))
		pool_give(ops->trampoline);
	else if (IS_ENABLED(CONFIG_MODULES))
		tramp_free((void *)ops->trampoline);
}

/*
 * What a trampoline calls.  As 6.1's arm64, enabled_functions names no
 * callee for the shared callers.
 */
void *ftrace_arch_tramp_callee(struct ftrace_ops *ops, bool regs)
{
	if (!ops || !own_tramp(ops))
		return NULL;
	return (void *)READ_ONCE(*(u64 *)(ops->trampoline +
					  TRAMP_FUNC(ops->trampoline_size)));
}
