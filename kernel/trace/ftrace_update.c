// SPDX-License-Identifier: GPL-2.0
/*
 * Accounting and the update engine.
 *
 * An update has two steps.
 *
 *  1. Plan (plan_block()): for every record, count the active ops that
 *     want it and derive what its call site must do: nothing (NOP), call
 *     the arch caller (with or without saved registers), or call the one
 *     ops' trampoline.  The wanted state goes into the record's flag word
 *     (reference count, FTRACE_FL_REGS, FTRACE_FL_TRAMP, ...), next to the
 *     state the code is in now (FTRACE_FL_ENABLED, _REGS_EN, _TRAMP_EN).
 *
 *  2. Patch: the sites whose wanted and current state differ are handed to
 *     the arch in one batch (arch_ftrace_update_code(), which the 6.1 back
 *     ends implement with ftrace_modify_all_code()).  The generic batch
 *     runs under stop_machine(); x86 queues int3-based text_poke updates
 *     instead, and arm64 writes single instructions.
 *
 * Record flag word (32 bits):
 *
 *   31..23  FTRACE_FL_* (ENABLED, REGS, REGS_EN, TRAMP, TRAMP_EN, IPMODIFY,
 *           DISABLED, DIRECT, DIRECT_EN) as in <linux/ftrace.h>
 *   22..16  trampoline slot: which trampoline a TRAMP_EN site calls now
 *   15..0   number of active ops that want the site
 *
 * The arch sees the flag word without the slot bits (ftrace_site_load()).
 *
 * Failure is closed: a back end that finds unexpected bytes at a site does
 * not write it and reports it (ftrace_bug()); the core prints one report
 * and never patches again.
 */
#include <linux/kallsyms.h>
#include <linux/stop_machine.h>
#include <linux/uaccess.h>

#include "ftrace_core.h"

#define REC_STATE	(FTRACE_FL_ENABLED | FTRACE_FL_REGS_EN | \
			 FTRACE_FL_TRAMP_EN | FTRACE_FL_DIRECT_EN | \
			 FTRACE_FL_DISABLED | REC_SLOT_MASK)

/* Trampoline addresses that TRAMP_EN sites call, by slot; 0 is unused. */
static unsigned long tramp_slot[REC_SLOTS];

const void *ftrace_expected;
enum ftrace_bug_type ftrace_bug_type;

static unsigned int rec_slot(u32 flags)
{
	return (flags & REC_SLOT_MASK) >> REC_SLOT_SHIFT;
}

static unsigned int slot_for(unsigned long tramp)
{
	unsigned int i, free = 0;

	for (i = 1; i < REC_SLOTS; i++) {
		if (tramp_slot[i] == tramp)
			return i;
		if (!free && !tramp_slot[i])
			free = i;
	}
	if (free)
		tramp_slot[free] = tramp;
	return free;
}

/**
 * ftrace_slots_gc - forget slots of trampolines no site calls any more
 *
 * Called with ftrace_lock held.
 */
void ftrace_slots_gc(void)
{
	DECLARE_BITMAP(used, REC_SLOTS) = { 0 };
	struct ftrace_block *b;
	struct ftrace_rec *r;
	unsigned int i;

	for_each_ftrace_block(b)
		for (r = b->recs; r < b->recs + b->count; r++)
			if (r->flags & FTRACE_FL_TRAMP_EN)
				__set_bit(rec_slot(r->flags), used);
	for (i = 1; i < REC_SLOTS; i++)
		if (!test_bit(i, used))
			tramp_slot[i] = 0;
}

/*
 * The ops list the plan reads: ftrace_ops_list, except while a KUnit test
 * plans its own blocks against its own ops (under ftrace_lock).
 */
struct ftrace_ops __rcu **ftrace_plan_ops = &ftrace_ops_list;

/* What the active ops want of one call site. */
struct want {
	unsigned int n;		/* how many ops want it */
	unsigned int ipmod;	/* how many of them may change the IP */
	bool regs;		/* one of them needs saved registers */
	bool direct;		/* the direct-call ops is one of them */
	bool solo;		/* ... and it cannot share with an IP mover */
	unsigned long tramp;	/* the single ops' trampoline, if any */
};

static void who_wants(unsigned long ip, struct want *w)
{
	struct ftrace_ops *op, *last = NULL;

	memset(w, 0, sizeof(*w));
	do_for_each_ftrace_op(op, *ftrace_plan_ops) {
		if (!ftrace_ops_active(op) || !ftrace_ops_wants(op, ip))
			continue;
		w->n++;
		last = op;
		w->regs |= !!(op->flags & FTRACE_OPS_FL_SAVE_REGS);
		w->ipmod += !!(op->flags & FTRACE_OPS_FL_IPMODIFY);
		w->direct |= ftrace_ops_is_direct(op);
		w->solo |= ftrace_ops_is_direct(op) && !op->ops_func;
	} while_for_each_ftrace_op(op);
	if (w->n == 1 && !w->direct)
		w->tramp = last->trampoline;
}

/*
 * Step 1 for one block: store each record's wanted state.
 *
 * Return: the number of sites two ops want to change the IP of (such an
 * update is refused).
 */
unsigned int ftrace_plan_block(struct ftrace_block *b)
{
	unsigned int conflicts = 0;
	struct ftrace_rec *r;
	struct want w;
	u32 f;

	for (r = b->recs; r < b->recs + b->count; r++) {
		who_wants(ftrace_rec_ip(b, r), &w);
		f = (r->flags & REC_STATE) | min_t(unsigned int, w.n, REC_REF_MASK);
		if (w.regs)
			f |= FTRACE_FL_REGS;
		if (w.ipmod)
			f |= FTRACE_FL_IPMODIFY;
		/*
		 * A site records which trampoline it calls by slot; with
		 * every slot taken it calls the shared arch caller instead.
		 */
		if (w.tramp && slot_for(w.tramp))
			f |= FTRACE_FL_TRAMP;
		if (w.direct)
			f |= FTRACE_FL_DIRECT;
		/*
		 * One ops may move the IP of a function.  A direct ops with
		 * an ops_func shares with it (ftrace_direct.c has told the
		 * owner); one without counts as a second IP mover.
		 */
		conflicts += w.ipmod + w.solo > 1;
		r->flags = f;
	}
	return conflicts;
}

/* The trampoline the site at @ip must call; 0 when it has no slot. */
static unsigned long new_tramp(unsigned long ip)
{
	struct want w;

	who_wants(ip, &w);
	return w.tramp && slot_for(w.tramp) ? w.tramp : 0;
}

/* A direct site calls its target itself only when nothing else wants it. */
static bool want_direct_en(u32 f)
{
	return (f & FTRACE_FL_DIRECT) && (f & REC_REF_MASK) == 1;
}

/* What the site of a record with flag word @f must have done to it. */
static int rec_action(unsigned long ip, u32 f, bool enable)
{
	bool want = enable && (f & REC_REF_MASK) && !(f & FTRACE_FL_DISABLED);

	if (!want)
		return (f & FTRACE_FL_ENABLED) ? FTRACE_UPDATE_MAKE_NOP :
						 FTRACE_UPDATE_IGNORE;
	if (!(f & FTRACE_FL_ENABLED))
		return FTRACE_UPDATE_MAKE_CALL;
	if (!(f & FTRACE_FL_REGS) != !(f & FTRACE_FL_REGS_EN) ||
	    !(f & FTRACE_FL_TRAMP) != !(f & FTRACE_FL_TRAMP_EN) ||
	    want_direct_en(f) != !!(f & FTRACE_FL_DIRECT_EN))
		return FTRACE_UPDATE_MODIFY_CALL;
	if ((f & FTRACE_FL_TRAMP) && tramp_slot[rec_slot(f)] != new_tramp(ip))
		return FTRACE_UPDATE_MODIFY_CALL;
	return FTRACE_UPDATE_IGNORE;
}

static struct ftrace_rec *site_rec(struct dyn_ftrace *rec)
{
	return container_of(rec, struct ftrace_site, dyn)->rec;
}

/**
 * ftrace_test_record - what must be done to the site of @rec
 * @rec: a record view from ftrace_rec_iter_record() (or the core)
 * @enable: false to ask how to turn every site off
 *
 * Return: FTRACE_UPDATE_IGNORE, _MAKE_CALL, _MODIFY_CALL or _MAKE_NOP.
 */
int ftrace_test_record(struct dyn_ftrace *rec, bool enable)
{
	return rec_action(rec->ip, site_rec(rec)->flags, enable);
}

/**
 * ftrace_update_record - note that the site of @rec has been patched
 * @rec: the record view the arch just patched
 * @enable: as passed to ftrace_test_record()
 *
 * Return: the action that was due (as ftrace_test_record()).
 */
int ftrace_update_record(struct dyn_ftrace *rec, bool enable)
{
	struct ftrace_rec *r = site_rec(rec);
	int act = rec_action(rec->ip, r->flags, enable);
	unsigned long tramp;
	u32 f = r->flags;

	switch (act) {
	case FTRACE_UPDATE_MAKE_CALL:
	case FTRACE_UPDATE_MODIFY_CALL:
		f &= ~(FTRACE_FL_REGS_EN | FTRACE_FL_TRAMP_EN |
		       FTRACE_FL_DIRECT_EN | REC_SLOT_MASK);
		f |= FTRACE_FL_ENABLED;
		if (f & FTRACE_FL_REGS)
			f |= FTRACE_FL_REGS_EN;
		if (want_direct_en(f))
			f |= FTRACE_FL_DIRECT_EN;
		tramp = (f & FTRACE_FL_TRAMP) ? new_tramp(rec->ip) : 0;
		if (tramp) {
			f |= FTRACE_FL_TRAMP_EN;
			f |= slot_for(tramp) << REC_SLOT_SHIFT;
		}
		break;
	case FTRACE_UPDATE_MAKE_NOP:
		f &= ~(FTRACE_FL_ENABLED | FTRACE_FL_REGS_EN |
		       FTRACE_FL_TRAMP_EN | FTRACE_FL_DIRECT_EN | REC_SLOT_MASK);
		break;
	}
	r->flags = f;
	rec->flags = f & ~REC_SLOT_MASK;
	return act;
}

static unsigned long caller_addr(bool regs)
{
	return regs ? FTRACE_REGS_ADDR : FTRACE_ADDR;
}

/**
 * ftrace_get_addr_new - the address the site of @rec must call next
 * @rec: a record view
 *
 * Return: the trampoline of the single ops that wants the site, or the
 * arch caller (with or without saved registers).
 */
unsigned long ftrace_get_addr_new(struct dyn_ftrace *rec)
{
	u32 f = site_rec(rec)->flags;
	unsigned long tramp;

	if (want_direct_en(f) && ftrace_find_rec_direct(rec->ip))
		return ftrace_find_rec_direct(rec->ip);
	if (f & FTRACE_FL_TRAMP) {
		tramp = new_tramp(rec->ip);
		if (tramp)
			return tramp;
	}
	return caller_addr(f & FTRACE_FL_REGS);
}

/**
 * ftrace_get_addr_curr - the address the site of @rec calls now
 * @rec: a record view of an enabled site
 *
 * Return: the trampoline or arch caller the site was last patched to call.
 */
unsigned long ftrace_get_addr_curr(struct dyn_ftrace *rec)
{
	u32 f = site_rec(rec)->flags;

	if ((f & FTRACE_FL_DIRECT_EN) && ftrace_find_rec_direct(rec->ip))
		return ftrace_find_rec_direct(rec->ip);
	if (f & FTRACE_FL_TRAMP_EN)
		return tramp_slot[rec_slot(f)];
	return caller_addr(f & FTRACE_FL_REGS_EN);
}

/* The call target of the site at @ip for enabled_functions (0: none). */
unsigned long ftrace_site_target(unsigned long ip)
{
	struct ftrace_site s;
	struct ftrace_block *b;
	struct ftrace_rec *r;

	r = ftrace_find_rec(ip, &b);
	if (!r || !(r->flags & FTRACE_FL_ENABLED))
		return 0;
	ftrace_site_load(&s, b, r);
	return ftrace_get_addr_curr(&s.dyn);
}

static const char *bug_kind(int err)
{
	switch (err) {
	case -EFAULT:
		return "cannot read the call site";
	case -EINVAL:
		return "the call site does not hold the expected instruction";
	case -EPERM:
		return "cannot write the call site";
	default:
		return "patching the call site failed";
	}
}

/**
 * ftrace_bug - a back end could not patch a call site: shut ftrace off
 * @err: -EFAULT (unreadable), -EINVAL (unexpected bytes), -EPERM (write
 *	 failed) or another error from the back end
 * @rec: the record of the site; ftrace_expected may hold the bytes the
 *	 back end expected there
 *
 * Prints one report naming the site and the expected and found bytes;
 * ftrace then never patches code again.
 */
void ftrace_bug(int err, struct dyn_ftrace *rec)
{
	u8 found[MCOUNT_INSN_SIZE];
	unsigned long ip = rec->ip;

	if (ftrace_dead)
		return;
	ftrace_kill();
	pr_err("ftrace: %s at %pS: %d\n", bug_kind(err), (void *)ip, err);
	if (ftrace_expected)
		pr_err("ftrace: expected %*ph\n", MCOUNT_INSN_SIZE,
		       ftrace_expected);
	if (!copy_from_kernel_nofault(found, (void *)ip, sizeof(found)))
		pr_err("ftrace: found    %*ph\n", MCOUNT_INSN_SIZE, found);
	pr_err("ftrace: record flags %#lx; function tracing is now off for good\n",
	       rec->flags);
	WARN(1, "ftrace: call site update failed\n");
}

static int arch_modify_call(struct dyn_ftrace *rec, unsigned long old_addr,
			    unsigned long addr)
{
	return ftrace_modify_call(rec, old_addr, addr);
}

/* The arch's write primitives, as the generic batch uses them. */
static const struct ftrace_patch_ops arch_patch = {
	.make_call	= ftrace_make_call,
	.make_nop	= ftrace_make_nop,
	.modify_call	= arch_modify_call,
};

/* Patch one site to its wanted state; on failure @s describes the site. */
static int patch_site(struct ftrace_block *b, struct ftrace_rec *r,
		      const struct ftrace_patch_ops *p, bool enable,
		      struct ftrace_site *s)
{
	int ret = 0;

	ftrace_site_load(s, b, r);
	switch (ftrace_test_record(&s->dyn, enable)) {
	case FTRACE_UPDATE_IGNORE:
		return 0;
	case FTRACE_UPDATE_MAKE_CALL:
		ftrace_bug_type = FTRACE_BUG_CALL;
		ret = p->make_call(&s->dyn, ftrace_get_addr_new(&s->dyn));
		break;
	case FTRACE_UPDATE_MAKE_NOP:
		ftrace_bug_type = FTRACE_BUG_NOP;
		/*
		 * No module: a module argument tells 6.1 back ends the module
		 * is being loaded, and arm64 then writes without checking.
		 */
		ret = p->make_nop(NULL, &s->dyn, ftrace_get_addr_curr(&s->dyn));
		break;
	case FTRACE_UPDATE_MODIFY_CALL:
		ftrace_bug_type = FTRACE_BUG_UPDATE;
		ret = p->modify_call(&s->dyn, ftrace_get_addr_curr(&s->dyn),
				     ftrace_get_addr_new(&s->dyn));
		break;
	}
	if (!ret)
		ftrace_update_record(&s->dyn, enable);
	return ret;
}

/**
 * ftrace_patch_block - patch every site of @b whose state differs
 * @b: a planned block
 * @p: the write primitives (the arch's, or a test's)
 * @enable: false to turn every site off
 * @failed: receives the site that could not be patched
 *
 * Stops at the first failure; that site is not modified and the caller
 * decides what to do (the core shuts ftrace off).
 *
 * Return: the number of sites patched, or the back end's negative error.
 */
int ftrace_patch_block(struct ftrace_block *b, const struct ftrace_patch_ops *p,
		       bool enable, struct ftrace_site *failed)
{
	struct ftrace_rec *r;
	int ret, n = 0;
	u32 before;

	for (r = b->recs; r < b->recs + b->count; r++) {
		before = r->flags;
		ret = patch_site(b, r, p, enable, failed);
		if (ret)
			return ret;
		n += r->flags != before;
	}
	return n;
}

/**
 * ftrace_replace_code - the generic batch: patch every site that differs
 * @mod_flags: FTRACE_MODIFY_ENABLE_FL (and FTRACE_MODIFY_MAY_SLEEP_FL)
 *
 * Arches with a batched method (x86) override it.  Stops at the first
 * failure; that site is left untouched and ftrace is dead.
 */
void __weak ftrace_replace_code(int mod_flags)
{
	bool enable = mod_flags & FTRACE_MODIFY_ENABLE_FL;
	struct ftrace_site failed;
	struct ftrace_block *b;
	int ret;

	for_each_ftrace_block(b) {
		ret = ftrace_patch_block(b, &arch_patch, enable, &failed);
		if (ret < 0) {
			ftrace_bug(ret, &failed.dyn);
			return;
		}
		if (mod_flags & FTRACE_MODIFY_MAY_SLEEP_FL)
			cond_resched();
	}
}

static void sync_ipi(void *unused)
{
	/* Pairs with the smp_wmb() that publishes function_trace_op. */
	smp_rmb();
}

/*
 * The arch caller could not be patched: what it calls is now unknown, so
 * ftrace shuts itself off like after a failed call-site write.
 */
static bool caller_failed(int err)
{
	if (!err)
		return false;
	if (!ftrace_dead) {
		ftrace_kill();
		pr_err("ftrace: patching the arch caller failed: %d; function tracing is now off for good\n",
		       err);
		WARN(1, "ftrace: arch caller update failed\n");
	}
	return true;
}

/**
 * ftrace_modify_all_code - carry out an update command on the code
 * @command: FTRACE_UPDATE_CALLS, FTRACE_UPDATE_TRACE_FUNC,
 *	     FTRACE_START_FUNC_RET / FTRACE_STOP_FUNC_RET, FTRACE_MAY_SLEEP
 *
 * Order matters when the arch caller switches from one ops to another:
 * while sites change, the caller calls the list function (which ignores
 * function_trace_op); function_trace_op is set and made visible on every
 * CPU before the caller is pointed at the ops' own function.
 */
void ftrace_modify_all_code(int command)
{
	bool func = command & FTRACE_UPDATE_TRACE_FUNC;
	int mod_flags = FTRACE_MODIFY_ENABLE_FL;
	int err;

	if (command & FTRACE_MAY_SLEEP)
		mod_flags |= FTRACE_MODIFY_MAY_SLEEP_FL;
	if (func) {
		err = ftrace_update_ftrace_func(ftrace_ops_list_func);
		if (caller_failed(err))
			return;
	}
	if (command & FTRACE_UPDATE_CALLS)
		ftrace_replace_code(mod_flags);
	if (func && ftrace_trace_function != ftrace_ops_list_func) {
		function_trace_op = ftrace_wanted_op();
		/* The op must be visible before any CPU calls its function. */
		smp_wmb();
		if (!irqs_disabled())
			smp_call_function(sync_ipi, NULL, 1);
		err = ftrace_update_ftrace_func(ftrace_trace_function);
		if (caller_failed(err))
			return;
	}
	if (command & FTRACE_START_FUNC_RET)
		caller_failed(ftrace_enable_ftrace_graph_caller());
	else if (command & FTRACE_STOP_FUNC_RET)
		caller_failed(ftrace_disable_ftrace_graph_caller());
}

static int modify_stopped(void *data)
{
	ftrace_modify_all_code(*(int *)data);
	return 0;
}

/**
 * ftrace_run_stop_machine - run an update with every other CPU stopped
 * @command: as for ftrace_modify_all_code()
 */
void ftrace_run_stop_machine(int command)
{
	stop_machine(modify_stopped, &command, NULL);
}

/**
 * arch_ftrace_update_code - carry out an update; the generic way
 * @command: as for ftrace_modify_all_code()
 *
 * Arches that can patch live code safely (x86 int3, arm64 single
 * instructions) override it.
 */
void __weak arch_ftrace_update_code(int command)
{
	ftrace_run_stop_machine(command);
}

/* Hooks around an update, for arches that need locks or mappings. */
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

static bool sites_differ(void)
{
	struct ftrace_site s;
	struct ftrace_block *b;
	struct ftrace_rec *r;

	for_each_ftrace_block(b) {
		for (r = b->recs; r < b->recs + b->count; r++) {
			ftrace_site_load(&s, b, r);
			if (ftrace_test_record(&s.dyn, true) !=
			    FTRACE_UPDATE_IGNORE)
				return true;
		}
	}
	return false;
}

static ftrace_func_t patched_func = ftrace_stub;
static struct ftrace_ops *patched_op = &ftrace_list_end;

/**
 * ftrace_run_update - bring the code in line with the registered ops
 * @command: FTRACE_UPDATE_CALLS to re-plan every site, plus graph commands
 *
 * Called with ftrace_lock held, after any change to the ops list, an ops'
 * hashes or ftrace_enabled.
 *
 * Return: 0, -EBUSY if two ops would change the IP of one function (the
 * caller must undo its change and update again), or -ENODEV if ftrace is
 * (or has just become) dead.
 */
int ftrace_run_update(int command)
{
	struct ftrace_block *b;

	lockdep_assert_held(&ftrace_lock);
	if (ftrace_dead)
		return -ENODEV;
	if (command & FTRACE_UPDATE_CALLS) {
		unsigned int conflicts = 0;

		for_each_ftrace_block(b)
			conflicts += ftrace_plan_block(b);
		if (conflicts)
			return -EBUSY;
		if (!sites_differ())
			command &= ~FTRACE_UPDATE_CALLS;
	}
	ftrace_update_func();
	if (ftrace_trace_function != patched_func ||
	    ftrace_wanted_op() != patched_op)
		command |= FTRACE_UPDATE_TRACE_FUNC;
	if (!command)
		return 0;
	ftrace_arch_code_modify_prepare();
	arch_ftrace_update_code(command);
	ftrace_arch_code_modify_post_process();
	patched_func = ftrace_trace_function;
	patched_op = ftrace_wanted_op();
	ftrace_slots_gc();
	return ftrace_dead ? -ENODEV : 0;
}

/*
 * A module's records become traceable just before the module runs: plan
 * them and patch the wanted sites directly, as no CPU executes them yet.
 */
void ftrace_enable_new_records(struct ftrace_block *b)
{
	struct ftrace_site failed;
	int ret;

	lockdep_assert_held(&ftrace_lock);
	ftrace_plan_block(b);
	ftrace_arch_code_modify_prepare();
	ret = ftrace_patch_block(b, &arch_patch, true, &failed);
	ftrace_arch_code_modify_post_process();
	if (ret < 0)
		ftrace_bug(ret, &failed.dyn);
}

/*
 * Boot and module load: turn each profiling call of a new block into a NOP
 * (ftrace_init_nop() checks the call is there first).  The block is not
 * published yet and its code does not run.
 */
void ftrace_convert_block(struct ftrace_block *b)
{
	struct ftrace_site s;
	struct ftrace_rec *r;
	int ret;

	for (r = b->recs; r < b->recs + b->count && !ftrace_dead; r++) {
		ftrace_site_load(&s, b, r);
		ftrace_bug_type = FTRACE_BUG_INIT;
		ret = ftrace_init_nop(b->mod, &s.dyn);
		if (ret)
			ftrace_bug(ret, &s.dyn);
	}
}

/**
 * ftrace_ops_trampoline - the ops whose trampoline holds @addr
 * @addr: a text address
 *
 * Return: the ops, or NULL.
 */
struct ftrace_ops *ftrace_ops_trampoline(unsigned long addr)
{
	struct ftrace_ops *op, *found = NULL;

	preempt_disable_notrace();
	do_for_each_ftrace_op(op, ftrace_ops_list) {
		if ((op->flags & FTRACE_OPS_FL_ALLOC_TRAMP) && op->trampoline &&
		    addr >= op->trampoline &&
		    addr < op->trampoline + op->trampoline_size) {
			found = op;
			break;
		}
	} while_for_each_ftrace_op(op);
	preempt_enable_notrace();
	return found;
}

/**
 * is_ftrace_trampoline - is @addr inside a trampoline the core allocated?
 * @addr: a text address
 *
 * Return: true if it is.
 */
bool is_ftrace_trampoline(unsigned long addr)
{
	return !!ftrace_ops_trampoline(addr);
}

#ifdef CONFIG_MODULES
/**
 * ftrace_mod_address_lookup - kallsyms name of an address kallsyms lost
 * @addr: the address: in a trampoline, or in freed module init text
 * @size: receives the trampoline's or function's size
 * @off: receives the offset of @addr in it
 * @modname: receives the (pseudo-)module name
 * @modbuildid: receives NULL
 * @sym: buffer of KSYM_NAME_LEN for the symbol name
 *
 * Return: @sym, or NULL if the core cannot name @addr.
 */
const char *ftrace_mod_address_lookup(unsigned long addr, unsigned long *size,
				      unsigned long *off, char **modname,
				      const unsigned char **modbuildid,
				      char *sym)
{
	struct ftrace_ops *op = ftrace_ops_trampoline(addr);

	if (!op) {
		if (modbuildid)
			*modbuildid = NULL;
		return ftrace_init_name_lookup(addr, size, off, modname, sym);
	}
	if (size)
		*size = op->trampoline_size;
	if (off)
		*off = addr - op->trampoline;
	if (modname)
		*modname = FTRACE_TRAMPOLINE_MOD;
	if (modbuildid)
		*modbuildid = NULL;
	strscpy(sym, FTRACE_TRAMPOLINE_SYM, KSYM_NAME_LEN);
	return sym;
}
#endif

/**
 * ftrace_mod_get_kallsym - the @symnum-th symbol the core adds to kallsyms
 * @symnum: index over the trampolines, then the kept module init names
 * @value: receives the trampoline address
 * @type: receives 't'
 * @name: KSYM_NAME_LEN buffer for the name
 * @module_name: MODULE_NAME_LEN buffer for the pseudo-module name
 * @exported: receives 0
 *
 * Return: 0, or -ERANGE past the last symbol.
 */
int ftrace_mod_get_kallsym(unsigned int symnum, unsigned long *value,
			   char *type, char *name, char *module_name,
			   int *exported)
{
	struct ftrace_ops *op;
	int ret = -ERANGE;

	preempt_disable_notrace();
	do_for_each_ftrace_op(op, ftrace_ops_list) {
		if (!(op->flags & FTRACE_OPS_FL_ALLOC_TRAMP) || !op->trampoline)
			continue;
		if (symnum--)
			continue;
		*value = op->trampoline;
		*type = 't';
		strscpy(name, FTRACE_TRAMPOLINE_SYM, KSYM_NAME_LEN);
		strscpy(module_name, FTRACE_TRAMPOLINE_MOD, MODULE_NAME_LEN);
		*exported = 0;
		ret = 0;
		break;
	} while_for_each_ftrace_op(op);
	preempt_enable_notrace();
	if (ret && !ftrace_init_name_symbol(symnum, value, name, module_name)) {
		*type = 'T';
		*exported = 1;
		ret = 0;
	}
	return ret;
}
