// SPDX-License-Identifier: GPL-2.0
/*
 * <linux/ftrace_arch.h> for back ends that still have the 6.1 interface.
 *
 * Those back ends write one site at a time (ftrace_make_call(),
 * ftrace_make_nop(), ftrace_modify_call()), or walk the records
 * themselves (x86 6.1: ftrace_rec_iter_*() with ftrace_test_record() and
 * friends), and they run every code change through
 * arch_ftrace_update_code(), which calls back into
 * ftrace_modify_all_code(): under stop_machine() by default, directly on
 * arches that patch live code safely.
 *
 * Here a batch of the core becomes one such run: the record walk covers
 * the batch's sites only, and each "record" the arch sees is a view made
 * from a batch entry (its address, and flags that say whether it calls
 * the register-saving caller now and next).  The shared caller's function
 * and the graph hook are runs of their own.  Between runs every site is
 * in a consistent state, so the order the core keeps (list function
 * first, sites, then the ops' own function) holds across them.
 *
 * The 6.1 primitives check each site before writing it, but not every
 * site of a batch before writing the first (x86 6.1's own
 * ftrace_replace_code() does): a refused site may follow written ones,
 * and the batch's @done says how many were written.  On arches that use
 * stop_machine() an update takes one run per batch, plus one for each
 * change of the caller's function and of the graph hook.
 *
 * Nothing here runs concurrently with itself: the core calls it under
 * ftrace_lock, and the arch calls back only from inside one run.
 */
#include <linux/ftrace_arch.h>
#include <linux/stop_machine.h>
#include <linux/uaccess.h>

#include "ftrace_core.h"

/* Set by 6.1 back ends before they report a site with ftrace_bug(). */
const void *ftrace_expected;
enum ftrace_bug_type ftrace_bug_type;

/* A batch entry as the 6.1 interface sees it: a dyn_ftrace. */
struct ftrace_rec_iter {
	struct dyn_ftrace dyn;
	unsigned int index;
};

/* The run in progress: its batch, what it asks for, how it went. */
static struct {
	struct ftrace_batch *batch;
	ftrace_func_t func;
	struct ftrace_rec_iter iter;
	int err;
} run;

static unsigned int view_index(struct dyn_ftrace *rec)
{
	return container_of(rec, struct ftrace_rec_iter, dyn)->index;
}

/*
 * Where the arch keeps a site's module in its record (arm with module
 * PLTs, powerpc), the view carries it: the batch's module for a module
 * being loaded, else the module the site is in.  Modules cannot go while
 * ftrace_lock is held (ftrace_release_mod() takes it).
 */
#if defined(CONFIG_PPC) || (defined(CONFIG_ARM) && defined(CONFIG_ARM_MODULE_PLTS))
static void view_set_mod(struct dyn_ftrace *rec)
{
	struct module *mod = run.batch->mod;

	if (!mod) {
		preempt_disable();
		mod = __module_text_address(rec->ip);
		preempt_enable();
	}
	rec->arch.mod = mod;
}
#else
static void view_set_mod(struct dyn_ftrace *rec)
{
}
#endif

static void view_load(struct ftrace_rec_iter *v, unsigned int i)
{
	const struct ftrace_patch *p = &run.batch->patch[i];
	bool two = FTRACE_REGS_ADDR != FTRACE_ADDR;

	memset(&v->dyn, 0, sizeof(v->dyn));
	v->index = i;
	v->dyn.ip = p->ip;
	view_set_mod(&v->dyn);
	if (p->new)
		v->dyn.flags |= 1;	/* one user: what 6.1 counted */
	if (p->old && !run.batch->init)
		v->dyn.flags |= FTRACE_FL_ENABLED;
	if (two && p->old == FTRACE_REGS_ADDR)
		v->dyn.flags |= FTRACE_FL_REGS_EN;
	if (two && p->new == FTRACE_REGS_ADDR)
		v->dyn.flags |= FTRACE_FL_REGS;
}

static struct ftrace_rec_iter *iter_at(unsigned int i)
{
	if (!run.batch || i >= run.batch->nr)
		return NULL;
	run.iter.index = i;
	return &run.iter;
}

/**
 * ftrace_rec_iter_start - begin a walk over the sites of the current run
 *
 * Return: the iterator, or NULL if there is nothing to walk.
 */
struct ftrace_rec_iter *ftrace_rec_iter_start(void)
{
	return iter_at(0);
}

/**
 * ftrace_rec_iter_next - step to the next site
 * @iter: the iterator from ftrace_rec_iter_start()
 *
 * Return: the iterator, or NULL at the end.
 */
struct ftrace_rec_iter *ftrace_rec_iter_next(struct ftrace_rec_iter *iter)
{
	return iter_at(iter->index + 1);
}

/**
 * ftrace_rec_iter_record - the site under the iterator
 * @iter: the iterator
 *
 * Return: a view of the site, valid until the next step.
 */
struct dyn_ftrace *ftrace_rec_iter_record(struct ftrace_rec_iter *iter)
{
	view_load(iter, iter->index);
	return &iter->dyn;
}

static const struct ftrace_patch *view_patch(struct dyn_ftrace *rec)
{
	return &run.batch->patch[view_index(rec)];
}

/**
 * ftrace_test_record - what must be done to the site of @rec
 * @rec: a view from ftrace_rec_iter_record()
 * @enable: ignored: the batch says what each site must become
 *
 * Return: FTRACE_UPDATE_MAKE_CALL, _MODIFY_CALL or _MAKE_NOP.
 */
int ftrace_test_record(struct dyn_ftrace *rec, bool enable)
{
	const struct ftrace_patch *p = view_patch(rec);

	if (!p->new)
		return FTRACE_UPDATE_MAKE_NOP;
	return p->old ? FTRACE_UPDATE_MODIFY_CALL : FTRACE_UPDATE_MAKE_CALL;
}

/**
 * ftrace_update_record - note that the site of @rec has been written
 * @rec: the view the arch just wrote
 * @enable: ignored
 *
 * Return: the action that was due (as ftrace_test_record()).
 */
int ftrace_update_record(struct dyn_ftrace *rec, bool enable)
{
	run.batch->done++;
	return ftrace_test_record(rec, enable);
}

/**
 * ftrace_get_addr_new - what the site of @rec must call
 * @rec: a view of a site that must call something
 *
 * Return: the address.
 */
unsigned long ftrace_get_addr_new(struct dyn_ftrace *rec)
{
	return view_patch(rec)->new;
}

/**
 * ftrace_get_addr_curr - what the site of @rec calls now
 * @rec: a view of a site that calls something
 *
 * Return: the address.
 */
unsigned long ftrace_get_addr_curr(struct dyn_ftrace *rec)
{
	return view_patch(rec)->old;
}

/* Note a refused site in the batch: the core reports it. */
static void note_failure(unsigned int i, int err)
{
	struct ftrace_batch *b = run.batch;
	unsigned int n = min_t(unsigned int, MCOUNT_INSN_SIZE,
			       FTRACE_SITE_BYTES);

	b->bad = i;
	b->len = 0;
	if (ftrace_expected) {
		memcpy(b->expected, ftrace_expected, n);
		if (!copy_from_kernel_nofault(b->found, (void *)b->patch[i].ip,
					      n))
			b->len = n;
	}
	run.err = err;
}

/**
 * ftrace_bug - a 6.1 back end could not write a site
 * @err: -EFAULT (unreadable), -EINVAL (unexpected bytes), -EPERM (write
 *	 failed) or another error
 * @rec: the view of the site; ftrace_expected may hold the bytes the back
 *	 end expected there
 *
 * The site is noted in the batch; the core reports it and shuts ftrace
 * off when the run returns.
 */
void ftrace_bug(int err, struct dyn_ftrace *rec)
{
	if (run.batch && !run.err)
		note_failure(view_index(rec), err);
}

/* One site through the 6.1 single-site primitives. */
static int write_one(struct dyn_ftrace *rec)
{
	const struct ftrace_patch *p = view_patch(rec);

	if (run.batch->init) {
		ftrace_bug_type = FTRACE_BUG_INIT;
		return ftrace_init_nop(run.batch->mod, rec);
	}
	switch (ftrace_test_record(rec, true)) {
	case FTRACE_UPDATE_MAKE_CALL:
		ftrace_bug_type = FTRACE_BUG_CALL;
		return ftrace_make_call(rec, p->new);
	case FTRACE_UPDATE_MAKE_NOP:
		ftrace_bug_type = FTRACE_BUG_NOP;
		/*
		 * No module: a module argument tells 6.1 back ends the module
		 * is being loaded, and arm64 then writes without checking.
		 */
		return ftrace_make_nop(NULL, rec, p->old);
	default:
		ftrace_bug_type = FTRACE_BUG_UPDATE;
		return ftrace_modify_call(rec, p->old, p->new);
	}
}

/**
 * ftrace_replace_code - write every site of the current run, one by one
 * @mod_flags: FTRACE_MODIFY_ENABLE_FL (and FTRACE_MODIFY_MAY_SLEEP_FL)
 *
 * The 6.1 default; x86 6.1 has its own.  Stops at the first site the
 * arch refuses.
 */
void __weak ftrace_replace_code(int mod_flags)
{
	struct ftrace_rec_iter *iter;
	struct dyn_ftrace *rec;
	int ret;

	for_ftrace_rec_iter(iter) {
		rec = ftrace_rec_iter_record(iter);
		ret = write_one(rec);
		if (ret) {
			ftrace_bug(ret, rec);
			return;
		}
		ftrace_update_record(rec, true);
	}
}

/**
 * ftrace_modify_all_code - carry out one run
 * @command: FTRACE_UPDATE_CALLS (the batch), FTRACE_UPDATE_TRACE_FUNC
 *	     (the shared caller's function), FTRACE_START_FUNC_RET or
 *	     FTRACE_STOP_FUNC_RET, and FTRACE_MAY_SLEEP
 *
 * Called by the 6.1 back ends' arch_ftrace_update_code().
 */
void ftrace_modify_all_code(int command)
{
	int mod_flags = FTRACE_MODIFY_ENABLE_FL;
	int err = 0;

	if (command & FTRACE_MAY_SLEEP)
		mod_flags |= FTRACE_MODIFY_MAY_SLEEP_FL;
	if (command & FTRACE_UPDATE_TRACE_FUNC)
		err = ftrace_update_ftrace_func(run.func);
	if (command & FTRACE_UPDATE_CALLS)
		ftrace_replace_code(mod_flags);
	if (command & FTRACE_START_FUNC_RET)
		err = ftrace_enable_ftrace_graph_caller();
	else if (command & FTRACE_STOP_FUNC_RET)
		err = ftrace_disable_ftrace_graph_caller();
	if (err && !run.err)
		run.err = err;
}

static int modify_stopped(void *data)
{
	ftrace_modify_all_code(*(int *)data);
	return 0;
}

/**
 * ftrace_run_stop_machine - carry out a run with every other CPU stopped
 * @command: as for ftrace_modify_all_code()
 */
void ftrace_run_stop_machine(int command)
{
	stop_machine(modify_stopped, &command, NULL);
}

/**
 * arch_ftrace_update_code - carry out a run; the generic way
 * @command: as for ftrace_modify_all_code()
 *
 * Arches that can patch live code safely override it.
 */
void __weak arch_ftrace_update_code(int command)
{
	ftrace_run_stop_machine(command);
}

/* Hooks around a run, for arches that need locks or mappings. */
void __weak ftrace_arch_code_modify_prepare(void)
{
}

void __weak ftrace_arch_code_modify_post_process(void)
{
}

/* Trampoline hooks for arches without per-ops trampolines. */
void __weak arch_ftrace_update_trampoline(struct ftrace_ops *ops)
{
}

void __weak arch_ftrace_trampoline_free(struct ftrace_ops *ops)
{
}

void * __weak arch_ftrace_trampoline_func(struct ftrace_ops *ops,
					  struct dyn_ftrace *rec)
{
	return NULL;
}

int __weak ftrace_dyn_arch_init(void)
{
	return 0;
}

/* One run of arch_ftrace_update_code() for @command. */
static int run_command(int command)
{
	run.err = 0;
	ftrace_arch_code_modify_prepare();
	arch_ftrace_update_code(command);
	ftrace_arch_code_modify_post_process();
	return run.err;
}

/* 6.1 builds leave the compiler's calls in place. */
bool ftrace_arch_fresh_idle(void)
{
	return false;
}

int __init ftrace_arch_init(void)
{
	return ftrace_dyn_arch_init();
}

int ftrace_arch_patch(struct ftrace_batch *batch)
{
	struct ftrace_rec_iter v;
	unsigned int i;
	int ret = 0;

	run.batch = batch;
	batch->done = 0;
	ftrace_expected = NULL;
	if (batch->live) {
		ret = run_command(FTRACE_UPDATE_CALLS);
		run.batch = NULL;
		return ret;
	}
	/*
	 * The code does not run yet: the 6.1 core wrote such sites one by
	 * one, outside any run.  Fresh sites are written before the text is
	 * made read-only; a loading module's are not, and need the arch's
	 * hooks around them (x86 takes text_mutex and queues the writes).
	 */
	run.err = 0;
	if (!batch->init)
		ftrace_arch_code_modify_prepare();
	for (i = 0; i < batch->nr && !ret; i++) {
		view_load(&v, i);
		ret = write_one(&v.dyn);
		if (ret)
			note_failure(i, ret);
		else
			batch->done++;
	}
	if (!batch->init)
		ftrace_arch_code_modify_post_process();
	/* The 6.1 primitives rewrite every fresh site. */
	batch->changed = batch->done;
	run.batch = NULL;
	return ret;
}

int ftrace_arch_set_func(ftrace_func_t func)
{
	run.func = func;
	return run_command(FTRACE_UPDATE_TRACE_FUNC);
}

int ftrace_arch_set_graph(bool on)
{
	return run_command(on ? FTRACE_START_FUNC_RET : FTRACE_STOP_FUNC_RET);
}

/*
 * The 6.1 interface makes a trampoline that calls its ops' function
 * (arch_ftrace_update_trampoline()), and cannot park one: a parked
 * trampoline calls the ops as 6.1's did, and a kept one goes on doing so
 * while its ops is off.  A registering ops (FTRACE_OPS_FL_ENABLED already
 * set) has its kept trampoline brought up to date before its sites move,
 * as 6.1 did; only an ops going off is left alone.
 */
int ftrace_arch_tramp_make(struct ftrace_ops *ops, unsigned long func)
{
	arch_ftrace_update_trampoline(ops);
	return ops->trampoline ? 0 : -EOPNOTSUPP;
}

int ftrace_arch_tramp_point(struct ftrace_ops *ops, unsigned long func)
{
	if (func != (unsigned long)ftrace_stub ||
	    (ops->flags & FTRACE_OPS_FL_ENABLED))
		arch_ftrace_update_trampoline(ops);
	return 0;
}

void ftrace_arch_tramp_free(struct ftrace_ops *ops)
{
	arch_ftrace_trampoline_free(ops);
}

void *ftrace_arch_tramp_callee(struct ftrace_ops *ops, bool regs)
{
	struct dyn_ftrace rec = { };

	if (regs)
		rec.flags = FTRACE_FL_ENABLED | FTRACE_FL_REGS | FTRACE_FL_REGS_EN;
	return arch_ftrace_trampoline_func(ops, &rec);
}
