// SPDX-License-Identifier: GPL-2.0
/*
 * The core's life cycle: the top layer of the core (only its KUnit
 * suites sit above it).
 *
 *   boot            ftrace_init() makes the records of vmlinux and turns
 *                   every call site into a NOP, then applies the filters
 *                   of the command line; the top-level tracefs files come
 *                   later, when tracefs does.
 *   module load     ftrace_module_init() makes the module's records and
 *                   NOPs its sites; ftrace_module_enable() lets them be
 *                   traced (":mod:" words waiting for the module apply,
 *                   wanted sites are patched) before the module runs.
 *   text freed      ftrace_release_mod(), ftrace_free_mem() and
 *                   ftrace_free_init_mem() drop the records and every
 *                   hash entry of text about to go.
 */
#include <linux/ftrace.h>
#include <linux/init.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/sched/clock.h>
#include <asm/sections.h>

#include "ftrace_core.h"

#ifdef CONFIG_DYNAMIC_FTRACE
/*
 * Cancel the entries of vmlinux's table that are not in its text (or init
 * text).  recordmcount cancels the entries of dead copies of overridden
 * weak functions by zeroing them in the linked vmlinux, but a relocatable
 * kernel's boot relocation (x86_64 with KASLR) adds its offset to those
 * zeros: such an entry is no longer 0, and not text either.  A module's
 * table is relocated entry by entry at load, before ftrace sees it.
 *
 * Return: how many entries were cancelled.
 */
static unsigned long __init drop_foreign(unsigned long *start,
					 unsigned long *end)
{
	unsigned long *p, n = 0;

	for (p = start; p < end; p++) {
		if (*p && !is_kernel_text(*p) && !is_kernel_inittext(*p)) {
			*p = 0;
			n++;
		}
	}
	return n;
}

/*
 * Convert and publish the call sites of one table.
 *
 * The conversion runs under ftrace_lock although nothing can execute the
 * new sites yet: the arch's write primitive is not reentrant against an
 * update in progress (x86 queues batched writes in a shared vector while
 * an update runs), so a module load must not write code while another
 * CPU is in the middle of an update.
 */
static int add_table(struct module *mod, unsigned long *start,
		     unsigned long *end)
{
	struct ftrace_block *chain, *b;
	u64 t;

	guard(mutex)(&ftrace_lock);
	chain = ftrace_blocks_build(mod, start, end);
	if (IS_ERR_OR_NULL(chain))
		return PTR_ERR_OR_ZERO(chain);
	/*
	 * sched_clock(): at boot, local_clock() may still read 0 (x86 with
	 * an unstable TSC, before sched_clock_init()).
	 */
	t = sched_clock();
	for (b = chain; b; b = rcu_dereference_raw(b->next)) {
		ftrace_convert_block(b);
		ftrace_update_tot_cnt += b->count;
	}
	t = sched_clock() - t;
	if (mod)
		ftrace_total_mod_time += t;
	else
		ftrace_update_time = t;
	ftrace_blocks_publish(chain);
	return 0;
}

/*
 * Boot: only the boot CPU runs and interrupts are off, so no call site can
 * execute while it is rewritten; this is the one update that needs neither
 * stop_machine nor breakpoints.
 */
static void __init boot_records(unsigned long *start, unsigned long *end)
{
	unsigned long x100, foreign;
	u64 t0, t1;
	int err;

	pr_info("ftrace: converting %lu call sites\n", (unsigned long)(end - start));
	t0 = local_clock();
	foreign = drop_foreign(start, end);
	if (foreign)
		pr_info("ftrace: %lu table entries outside kernel text ignored\n",
			foreign);
	err = add_table(NULL, start, end);
	t1 = local_clock();
	if (err) {
		pr_err("ftrace: cannot allocate records (%d)\n", err);
		ftrace_dead = true;
		return;
	}
	x100 = ftrace_record_bytes_x100();
	pr_info("ftrace: %lu call sites, %lu.%02lu bytes per record, converted in %llu us\n",
		ftrace_nr_records(), x100 / 100, x100 % 100, div_u64(t1 - t0, 1000));
}

/**
 * ftrace_init - create the records of vmlinux and NOP every call site
 *
 * Runs from start_kernel() on the boot CPU with interrupts off, before any
 * other CPU is up.
 */
void __init ftrace_init(void)
{
	if (ftrace_arch_init()) {
		ftrace_dead = true;
		return;
	}
	if (__stop_mcount_loc - __start_mcount_loc == 0) {
		pr_info("ftrace: no call sites recorded\n");
		ftrace_dead = true;
		return;
	}
	boot_records(__start_mcount_loc, __stop_mcount_loc);
	if (ftrace_dead)
		return;
	ftrace_enabled = 1;
	ftrace_apply_boot_filters();
}

#ifdef CONFIG_MODULES
/**
 * ftrace_module_init - create the records of a module being loaded
 * @mod: the module; its text is laid out but not yet running
 *
 * The call sites become NOPs now; they stay disabled (not patched to
 * calls) until ftrace_module_enable().
 */
void ftrace_module_init(struct module *mod)
{
	if (ftrace_dead || !mod->num_ftrace_callsites)
		return;
	if (add_table(mod, mod->ftrace_callsites,
		      mod->ftrace_callsites + mod->num_ftrace_callsites))
		pr_warn("ftrace: no records for module %s\n", mod->name);
}

/**
 * ftrace_module_enable - let the module's call sites be traced
 * @mod: the module, about to run its init code
 *
 * Sites that registered ops already want are patched before the module
 * runs, so tracing a module's init works.
 */
void ftrace_module_enable(struct module *mod)
{
	struct ftrace_block *b;
	struct ftrace_rec *r;

	/* Lock order: trace_types_lock (trace arrays), then ftrace_lock. */
	guard(mutex)(&trace_types_lock);
	guard(mutex)(&ftrace_lock);
	for_each_ftrace_block(b)
		if (b->mod == mod)
			for (r = b->recs; r < b->recs + b->count; r++)
				r->flags &= ~FTRACE_FL_DISABLED;
	/* The records are listed now: ":mod:" filters waiting for it apply. */
	if (!ftrace_dead)
		ftrace_mod_loaded(mod);
	for_each_ftrace_block(b)
		if (b->mod == mod && !ftrace_dead)
			ftrace_enable_new_records(b);
}

/**
 * ftrace_release_mod - drop every record of a module
 * @mod: the module being unloaded (or whose load failed)
 */
void ftrace_release_mod(struct module *mod)
{
	unsigned long lo, hi, init_lo, init_hi;

	ftrace_module_text(mod, &lo, &hi, &init_lo, &init_hi);
	guard(mutex)(&trace_types_lock);
	guard(mutex)(&ftrace_lock);
	ftrace_records_remove(mod, 0, ULONG_MAX);
	ftrace_ops_drop_range(lo, hi);
	if (init_lo)
		ftrace_ops_drop_range(init_lo, init_hi);
	ftrace_init_names_drop(mod);
}
#endif /* CONFIG_MODULES */

/**
 * ftrace_free_mem - drop the records of text that is being freed
 * @mod: the module the text belongs to, NULL for vmlinux
 * @start: first byte of the freed text
 * @end: one past its last byte
 */
void ftrace_free_mem(struct module *mod, void *start, void *end)
{
	scoped_guard(mutex, &trace_types_lock) {
		guard(mutex)(&ftrace_lock);
		if (mod)
			ftrace_init_names_save(mod, (unsigned long)start,
					       (unsigned long)end);
		ftrace_records_remove(mod, (unsigned long)start,
				      (unsigned long)end);
		ftrace_ops_drop_range((unsigned long)start, (unsigned long)end);
	}
	/* The caller frees the text next; no lookup may still see it. */
	synchronize_rcu();
}

/**
 * ftrace_free_init_mem - drop the records of vmlinux init text
 *
 * Called once, just before the init sections are freed.
 */
void __ref ftrace_free_init_mem(void)
{
	ftrace_boot_snapshot();
	ftrace_free_mem(NULL, __init_begin, __init_end);
}

#endif /* CONFIG_DYNAMIC_FTRACE */

/**
 * ftrace_init_tracefs_toplevel - the top-level-only files of the core
 * @tr: the top-level trace array
 * @d_tracer: the tracefs root
 */
void __init ftrace_init_tracefs_toplevel(struct trace_array *tr,
					 struct dentry *d_tracer)
{
	WARN_ON(!(tr->flags & TRACE_ARRAY_FL_GLOBAL));
	ftrace_dyn_tracefs(d_tracer);
	ftrace_profile_tracefs(d_tracer);
}
