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
 *  2. Patch: for every site whose wanted and current state differ, the
 *     engine works out what it calls now and what it must call next, and
 *     hands the changes to the arch in sorted batches of up to
 *     FTRACE_BATCH_MAX sites (ftrace_arch_patch(), <linux/ftrace_arch.h>).
 *     The records of the sites the arch wrote are then brought up to date.
 *     Around the sites, the shared caller is pointed at the list function
 *     and back (update_code()).
 *
 * Record flag word (32 bits):
 *
 *   31..23  FTRACE_FL_* (ENABLED, REGS, REGS_EN, TRAMP, TRAMP_EN, IPMODIFY,
 *           DISABLED, DIRECT, DIRECT_EN) as in <linux/ftrace.h>
 *   22..16  trampoline slot: which trampoline a TRAMP_EN site calls now
 *   15      REC_MODIFIED: an IP-modifying or direct ops has wanted the site
 *   14      REC_TOUCHED: some ops has wanted the site (both bits sticky)
 *   13..0   number of active ops that want the site
 *
 * Failure is closed: a back end that finds unexpected bytes at a site does
 * not write it and reports it in the batch; the core prints one report
 * (ftrace_patch_failed()) and never patches again.
 */
#include <linux/kallsyms.h>
#include <linux/sched/clock.h>
#include <linux/uaccess.h>

#include "ftrace_update.h"

/* What planning keeps of a record's flag word. */
#define REC_STATE	(FTRACE_FL_ENABLED | FTRACE_FL_REGS_EN | \
			 FTRACE_FL_TRAMP_EN | FTRACE_FL_DIRECT_EN | \
			 FTRACE_FL_DISABLED | REC_SLOT_MASK | REC_TOUCHED | \
			 REC_MODIFIED)

/* Trampoline addresses that TRAMP_EN sites call, by slot; 0 is unused. */
static unsigned long tramp_slot[REC_SLOTS];

static unsigned int rec_slot(u32 flags)
{
	return (flags & REC_SLOT_MASK) >> REC_SLOT_SHIFT;
}

static unsigned int slot_for(unsigned long tramp)
{
	unsigned int i, free = 0;

	lockdep_assert_held(&ftrace_lock);
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

/*
 * Is @tramp still the trampoline of an ops: a registered one, or one
 * whose trampoline the arch made and keeps (ftrace_tramp_list)?  A
 * dynamic ops being removed is about to lose its trampoline.
 */
static bool tramp_live(unsigned long tramp)
{
	const unsigned long going = FTRACE_OPS_FL_REMOVING |
				    FTRACE_OPS_FL_DYNAMIC;
	struct ftrace_ops *op;

	list_for_each_entry(op, &ftrace_tramp_list, list)
		if (op->trampoline == tramp)
			return (op->flags & going) != going;
	do_for_each_ftrace_op(op, ftrace_ops_list) {
		if (op->trampoline == tramp)
			return true;
	} while_for_each_ftrace_op(op);
	return false;
}

/* Does a slot hold a trampoline that is gone? */
static bool slots_stale(void)
{
	unsigned int i;

	for (i = 1; i < REC_SLOTS; i++)
		if (tramp_slot[i] && !tramp_live(tramp_slot[i]))
			return true;
	return false;
}

/**
 * ftrace_slots_gc - forget slots of trampolines no site calls any more
 *
 * Only when a slot holds a trampoline that is gone, as after a dynamic
 * ops left: the slot of a live trampoline is likely to serve again, and
 * keeping it spares a walk over every record on each update.
 *
 * Called with ftrace_lock held.
 */
void ftrace_slots_gc(void)
{
	DECLARE_BITMAP(used, REC_SLOTS) = { 0 };
	struct ftrace_block *b;
	struct ftrace_rec *r;
	unsigned int i;

	if (!slots_stale())
		return;

	for_each_ftrace_block(b)
		for (r = b->recs; r < b->recs + b->count; r++)
			if (r->flags & FTRACE_FL_TRAMP_EN)
				__set_bit(rec_slot(r->flags), used);
	for (i = 1; i < REC_SLOTS; i++)
		if (!test_bit(i, used))
			tramp_slot[i] = 0;
}

#ifdef CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS
/* The direct-call targets (entry->direct), kept by ftrace_direct.c. */
struct ftrace_hash __rcu *ftrace_direct_hash =
	RCU_INITIALIZER(&ftrace_empty_hash);

/**
 * ftrace_find_rec_direct - the direct target of the call site at @ip
 * @ip: a call-site address
 *
 * Return: the target, or 0 if the site has none.
 */
unsigned long ftrace_find_rec_direct(unsigned long ip)
{
	struct ftrace_func_entry *e;

	e = ftrace_lookup_ip(rcu_dereference_raw(ftrace_direct_hash), ip);
	return e ? e->direct : 0;
}
#endif

/*
 * The context of the core's own updates: the registered ops.  KUnit plans
 * its own blocks against contexts of its own.
 */
static struct ftrace_plan_ctx live = { .ops = &ftrace_ops_list };

/* The live context, with ftrace_enabled as it is now (ftrace_lock held). */
static struct ftrace_plan_ctx *live_ctx(void)
{
	lockdep_assert_held(&ftrace_lock);
	live.enabled = ftrace_enabled;
	return &live;
}

static bool plan_active(const struct ftrace_plan_ctx *ctx,
			struct ftrace_ops *op)
{
	return ftrace_ops_active_in(op, ctx->enabled);
}

/* What the active ops want of one call site. */
struct want {
	unsigned int n;		/* how many ops want it */
	unsigned int ipmod;	/* how many of them may change the IP */
	bool regs;		/* one of them needs saved registers */
	bool direct;		/* the direct-call ops is one of them */
	bool solo;		/* ... and it cannot share with an IP mover */
	struct ftrace_ops *last; /* the last ops counted */
};

static void want_add(struct want *w, struct ftrace_ops *op)
{
	w->n++;
	w->last = op;
	w->regs |= !!(op->flags & FTRACE_OPS_FL_SAVE_REGS);
	w->ipmod += !!(op->flags & FTRACE_OPS_FL_IPMODIFY);
	w->direct |= ftrace_ops_is_direct(op);
	w->solo |= ftrace_ops_is_direct(op) && !op->ops_func;
}

/* The trampoline of the one ops that wants the site, if it has one. */
static unsigned long want_tramp(const struct want *w)
{
	return w->n == 1 && !w->direct ? w->last->trampoline : 0;
}

static void who_wants(const struct ftrace_plan_ctx *ctx, unsigned long ip,
		      struct want *w)
{
	struct ftrace_ops *op;

	memset(w, 0, sizeof(*w));
	do_for_each_ftrace_op(op, *ctx->ops) {
		if (plan_active(ctx, op) && ftrace_ops_wants(op, ip))
			want_add(w, op);
	} while_for_each_ftrace_op(op);
}

/*
 * What the ops with empty hashes want: every site, so one planning pass
 * counts them once (@all) and asks only the others (@picky of them) about
 * each site.
 */
struct plan {
	const struct ftrace_plan_ctx *ctx;
	struct want all;
	unsigned int npicky;
};

static void plan_prepare(const struct ftrace_plan_ctx *ctx, struct plan *p)
{
	struct ftrace_ops *op;

	memset(p, 0, sizeof(*p));
	p->ctx = ctx;
	do_for_each_ftrace_op(op, *ctx->ops) {
		if (!plan_active(ctx, op))
			continue;
		if (ftrace_ops_wants_all(op))
			want_add(&p->all, op);
		else
			p->npicky++;
	} while_for_each_ftrace_op(op);
}

static void plan_want(const struct plan *p, unsigned long ip, struct want *w)
{
	struct ftrace_ops *op;

	*w = p->all;
	do_for_each_ftrace_op(op, *p->ctx->ops) {
		if (plan_active(p->ctx, op) && !ftrace_ops_wants_all(op) &&
		    ftrace_ops_wants(op, ip))
			want_add(w, op);
	} while_for_each_ftrace_op(op);
}

/*
 * The wanted-state bits of a record that @w describes.  *@conflict: two
 * ops want to change the IP of the function.
 */
static u32 want_flags(const struct want *w, bool *conflict)
{
	unsigned long tramp = want_tramp(w);
	u32 f = min_t(unsigned int, w->n, REC_REF_MASK);

	if (w->regs)
		f |= FTRACE_FL_REGS;
	if (w->ipmod)
		f |= FTRACE_FL_IPMODIFY;
	/*
	 * A site records which trampoline it calls by slot; with every slot
	 * taken it calls the shared arch caller instead.
	 */
	if (tramp && slot_for(tramp))
		f |= FTRACE_FL_TRAMP;
	if (w->direct)
		f |= FTRACE_FL_DIRECT;
	/*
	 * One ops may move the IP of a function.  A direct ops with an
	 * ops_func shares with it (ftrace_direct.c has told the owner); one
	 * without counts as a second IP mover.
	 */
	*conflict = w->ipmod + w->solo > 1;
	return f;
}

/*
 * Step 1 for one block: store each record's wanted state.
 *
 * Return: the number of sites two ops want to change the IP of (such an
 * update is refused).
 */
unsigned int ftrace_plan_block(const struct ftrace_plan_ctx *ctx,
			       struct ftrace_block *b)
{
	unsigned int conflicts = 0;
	struct ftrace_rec *r;
	bool conflict;
	struct plan p;
	struct want w;
	u32 f;

	plan_prepare(ctx, &p);
	if (!p.npicky) {
		/* No ops chooses by hash: every site is wanted alike. */
		f = want_flags(&p.all, &conflict);
		for (r = b->recs; r < b->recs + b->count; r++)
			r->flags = (r->flags & REC_STATE) | f;
		return conflict ? b->count : 0;
	}
	for (r = b->recs; r < b->recs + b->count; r++) {
		plan_want(&p, ftrace_rec_ip(b, r), &w);
		f = want_flags(&w, &conflict);
		r->flags = (r->flags & REC_STATE) | f;
		conflicts += conflict;
	}
	return conflicts;
}

/*
 * While ftrace_run_update() runs, and only one active ops has a
 * trampoline: that trampoline.  A site planned to call a trampoline
 * (FTRACE_FL_TRAMP: one ops wants it, and that ops has one) then calls
 * this one, found without asking every ops again.
 */
static void sole_tramp_learn(struct ftrace_plan_ctx *ctx)
{
	struct ftrace_ops *op;
	unsigned int n = 0;

	/* As want_tramp(): a direct ops' trampoline is never a site's. */
	do_for_each_ftrace_op(op, *ctx->ops) {
		if (plan_active(ctx, op) && op->trampoline &&
		    !ftrace_ops_is_direct(op)) {
			ctx->sole_tramp = op->trampoline;
			n++;
		}
	} while_for_each_ftrace_op(op);
	ctx->sole_tramp_known = n == 1;
	ctx->sole_slot = -1;
}

/*
 * The slot of trampoline @tramp (0: every slot is taken).  Taken only
 * when a site is to call it, as the plan does.
 */
static unsigned int tramp_slot_of(struct ftrace_plan_ctx *ctx,
				  unsigned long tramp)
{
	if (!ctx->sole_tramp_known || tramp != ctx->sole_tramp)
		return slot_for(tramp);
	if (ctx->sole_slot < 0)
		ctx->sole_slot = slot_for(tramp);
	return ctx->sole_slot;
}

/* The trampoline the site at @ip must call; 0 when it has no slot. */
static unsigned long new_tramp(struct ftrace_plan_ctx *ctx, unsigned long ip)
{
	unsigned long tramp;
	struct want w;

	if (ctx->sole_tramp_known)
		return tramp_slot_of(ctx, ctx->sole_tramp) ? ctx->sole_tramp : 0;
	who_wants(ctx, ip, &w);
	tramp = want_tramp(&w);
	return tramp && slot_for(tramp) ? tramp : 0;
}

/* A direct site calls its target itself only when nothing else wants it. */
static bool want_direct_en(u32 f)
{
	return (f & FTRACE_FL_DIRECT) && (f & REC_REF_MASK) == 1;
}

/**
 * rec_action - what must be done to a record's site
 * @ctx: the context the record was planned in
 * @ip: the site
 * @f: the record's flag word
 * @enable: false to turn every site off
 *
 * Return: FTRACE_UPDATE_IGNORE when the site is as planned, otherwise
 * FTRACE_UPDATE_MAKE_CALL, _MODIFY_CALL or _MAKE_NOP.
 */
static __always_inline int rec_action(struct ftrace_plan_ctx *ctx,
				      unsigned long ip, u32 f, bool enable)
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
	if ((f & FTRACE_FL_TRAMP) && tramp_slot[rec_slot(f)] != new_tramp(ctx, ip))
		return FTRACE_UPDATE_MODIFY_CALL;
	return FTRACE_UPDATE_IGNORE;
}

static unsigned long caller_addr(bool regs)
{
	return regs ? FTRACE_REGS_ADDR : FTRACE_ADDR;
}

/* What the site at @ip (flag word @f) calls now; 0 for the NOP. */
static unsigned long target_now(unsigned long ip, u32 f)
{
	if (!(f & FTRACE_FL_ENABLED))
		return 0;
	if ((f & FTRACE_FL_DIRECT_EN) && ftrace_find_rec_direct(ip))
		return ftrace_find_rec_direct(ip);
	if (f & FTRACE_FL_TRAMP_EN)
		return tramp_slot[rec_slot(f)];
	return caller_addr(f & FTRACE_FL_REGS_EN);
}

/* What it must call once the planned update is done; 0 for the NOP. */
static unsigned long target_next(struct ftrace_plan_ctx *ctx,
				 unsigned long ip, u32 f, bool enable)
{
	unsigned long tramp;

	if (!enable || !(f & REC_REF_MASK) || (f & FTRACE_FL_DISABLED))
		return 0;
	if (want_direct_en(f) && ftrace_find_rec_direct(ip))
		return ftrace_find_rec_direct(ip);
	if (f & FTRACE_FL_TRAMP) {
		tramp = new_tramp(ctx, ip);
		if (tramp)
			return tramp;
	}
	return caller_addr(f & FTRACE_FL_REGS);
}

/*
 * The flag word of a record whose word was @f once its site calls @new,
 * what target_next() planned for it (0: the NOP).  A site that wants a
 * trampoline and calls something other than the shared caller calls its
 * trampoline (the plan keeps trampoline and direct sites apart).
 */
static u32 committed_flags(struct ftrace_plan_ctx *ctx, u32 f,
			   unsigned long new)
{
	f &= ~(FTRACE_FL_ENABLED | FTRACE_FL_REGS_EN | FTRACE_FL_TRAMP_EN |
	       FTRACE_FL_DIRECT_EN | REC_SLOT_MASK);

	if (new) {
		f |= FTRACE_FL_ENABLED;
		if (f & FTRACE_FL_REGS)
			f |= FTRACE_FL_REGS_EN;
		if (want_direct_en(f))
			f |= FTRACE_FL_DIRECT_EN;
		if ((f & FTRACE_FL_TRAMP) &&
		    new != caller_addr(f & FTRACE_FL_REGS)) {
			f |= FTRACE_FL_TRAMP_EN;
			f |= tramp_slot_of(ctx, new) << REC_SLOT_SHIFT;
		}
	}
	return f;
}

/*
 * Does the change of a site with flag word @f follow from @f alone?  Only
 * a direct call's target, and a trampoline while several ops have one,
 * are looked up by the site's address.
 */
static bool change_by_flags(const struct ftrace_plan_ctx *ctx, u32 f)
{
	if (f & (FTRACE_FL_DIRECT | FTRACE_FL_DIRECT_EN))
		return false;
	return !(f & FTRACE_FL_TRAMP) || ctx->sole_tramp_known;
}

/* Work out what must happen to the site at @ip, whose flag word is @f. */
static void site_change(struct ftrace_plan_ctx *ctx, unsigned long ip, u32 f,
			bool enable, struct ftrace_site_change *c)
{
	c->flags = f;
	c->act = rec_action(ctx, ip, f, enable) != FTRACE_UPDATE_IGNORE;
	if (!c->act)
		return;
	c->old = target_now(ip, f);
	c->new = target_next(ctx, ip, f, enable);
	c->next = committed_flags(ctx, f, c->new);
}

/* The call target of the site at @ip for enabled_functions (0: none). */
unsigned long ftrace_site_target(unsigned long ip)
{
	struct ftrace_block *b;
	struct ftrace_rec *r;

	r = ftrace_find_rec(ip, &b);
	return r ? target_now(ip, r->flags) : 0;
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
 * ftrace_patch_failed - a back end refused a call site: shut ftrace off
 * @batch: the batch, with @bad (and, if the back end knew them, @len,
 *	   @expected and @found) filled in
 * @err: what the back end returned: -EFAULT (unreadable), -EINVAL
 *	 (unexpected bytes), -EPERM (write failed) or another error
 *
 * Prints one report naming the site, what it was to change from and to,
 * and the expected and found bytes; ftrace then never patches code again.
 */
static void ftrace_patch_failed(const struct ftrace_batch *batch, int err)
{
	const struct ftrace_patch *p;
	u8 found[MCOUNT_INSN_SIZE];

	if (ftrace_dead)
		return;
	ftrace_kill();
	p = &batch->patch[min(batch->bad, batch->nr - 1)];
	pr_err("ftrace: %s at %pS: %d\n", bug_kind(err), (void *)p->ip, err);
	if (batch->len) {
		pr_err("ftrace: expected %*ph\n", batch->len, batch->expected);
		pr_err("ftrace: found    %*ph\n", batch->len, batch->found);
	} else if (!copy_from_kernel_nofault(found, (void *)p->ip,
					     sizeof(found))) {
		pr_err("ftrace: found    %*ph\n", (int)sizeof(found), found);
	}
	pr_err("ftrace: the site was to go from %ps to %ps (0: the NOP); function tracing is now off for good\n",
	       (void *)p->old, (void *)p->new);
	WARN(1, "ftrace: call site update failed\n");
}

/**
 * ftrace_batcher_start - begin collecting sites into batches
 * @bt: the batcher
 * @ctx: the context the sites were planned in
 * @patch: what writes a batch: ftrace_arch_patch(), or a test's
 * @enable: false to turn every queued site off
 * @live: other CPUs may be running the sites
 * @mod: when !@live, the module every queued site belongs to (or NULL)
 */
void ftrace_batcher_start(struct ftrace_batcher *bt,
			  struct ftrace_plan_ctx *ctx,
			  int (*patch)(struct ftrace_batch *batch),
			  bool enable, bool live, struct module *mod)
{
	memset(&bt->batch, 0, sizeof(bt->batch));
	/* What the trampoline sites call may be known for every site. */
	bt->ctx = ctx;
	sole_tramp_learn(ctx);
	bt->memo_ok = false;
	bt->batch.patch = bt->entry;
	bt->batch.live = live;
	bt->batch.mod = live ? NULL : mod;
	bt->patch = patch;
	bt->enable = enable;
	bt->written = 0;
	bt->changed = 0;
	bt->batches = 0;
}

/**
 * ftrace_batcher_flush - have the queued sites written
 * @bt: the batcher
 *
 * The records of the sites the back end wrote are updated to say so.  On
 * failure the batch stays as it was, for ftrace_patch_failed().
 *
 * Return: 0, or the back end's negative error.
 */
int ftrace_batcher_flush(struct ftrace_batcher *bt)
{
	struct ftrace_batch *batch = &bt->batch;
	unsigned int i, done;
	int ret;

	if (!batch->nr)
		return 0;
	batch->done = 0;
	batch->bad = 0;
	batch->len = 0;
	batch->changed = 0;
	ret = bt->patch(batch);
	bt->batches++;
	bt->changed += batch->changed;
	done = ret ? min(batch->done, batch->nr) : batch->nr;
	if (!batch->init)
		for (i = 0; i < done; i++)
			bt->rec[i]->flags = bt->next[i];
	bt->written += done;
	if (!ret)
		batch->nr = 0;
	return ret;
}

/*
 * Queue one change (@next: the record's flag word once it is written); a
 * full batch, or one that would lose its order, goes.
 */
static __always_inline int batcher_add(struct ftrace_batcher *bt,
				       struct ftrace_rec *r, unsigned long ip,
				       unsigned long old, unsigned long new,
				       u32 next)
{
	struct ftrace_batch *batch = &bt->batch;
	struct ftrace_patch *p;
	int ret;

	if (batch->nr && ip <= batch->patch[batch->nr - 1].ip) {
		ret = ftrace_batcher_flush(bt);
		if (ret)
			return ret;
	}
	p = &batch->patch[batch->nr];
	p->ip = ip;
	p->old = old;
	p->new = new;
	bt->next[batch->nr] = next;
	bt->rec[batch->nr++] = r;
	return batch->nr == FTRACE_BATCH_MAX ? ftrace_batcher_flush(bt) : 0;
}

/**
 * ftrace_batcher_add_block - queue the sites of @b that must change
 * @bt: the batcher
 * @b: a planned block
 *
 * A site whose state changes but whose call target does not (the two
 * callers may be one) only has its record updated.  Runs of records with
 * the same flag word, the common case, share one decision.
 *
 * Return: 0, or the back end's negative error from a flush.
 */
int ftrace_batcher_add_block(struct ftrace_batcher *bt, struct ftrace_block *b)
{
	struct ftrace_site_change c = bt->memo;
	bool ok = bt->memo_ok;
	struct ftrace_rec *r;
	unsigned long ip;
	int ret = 0;

	for (r = b->recs; r < b->recs + b->count && !ret; r++) {
		ip = ftrace_rec_ip(b, r);
		if (!ok || c.flags != r->flags) {
			site_change(bt->ctx, ip, r->flags, bt->enable, &c);
			ok = change_by_flags(bt->ctx, r->flags);
		}
		if (!c.act)
			continue;
		if (c.old == c.new)
			r->flags = c.next;
		else
			ret = batcher_add(bt, r, ip, c.old, c.new, c.next);
	}
	bt->memo = c;
	bt->memo_ok = ok;
	return ret;
}

/**
 * ftrace_batcher_init_block - queue every site of a fresh block
 * @bt: a batcher started with @live false
 * @b: a block whose sites still hold what the compiler emitted
 *
 * Return: 0, or the back end's negative error from a flush.
 */
int ftrace_batcher_init_block(struct ftrace_batcher *bt, struct ftrace_block *b)
{
	return ftrace_batcher_init_sample(bt, b, 1);
}

/**
 * ftrace_batcher_init_sample - queue every @step-th fresh site of @b
 * @bt: a batcher started with @live false
 * @b: a block whose sites still hold what the compiler emitted, or what
 *     the build wrote instead
 * @step: 1 for every site; FTRACE_FRESH_SAMPLE for the sample
 *
 * The last site is always taken.  After the flush, @bt->changed says how
 * many of the queued sites the back end had to change.
 *
 * Return: 0, or the back end's negative error from a flush.
 */
int ftrace_batcher_init_sample(struct ftrace_batcher *bt,
			       struct ftrace_block *b, unsigned int step)
{
	unsigned int i;
	int ret;

	bt->batch.init = true;
	for (i = 0; i < b->count; i += step) {
		ret = batcher_add(bt, &b->recs[i], ftrace_rec_ip(b, &b->recs[i]),
				  MCOUNT_ADDR, 0, 0);
		if (ret)
			return ret;
	}
	if (b->count && (b->count - 1) % step)
		return batcher_add(bt, &b->recs[b->count - 1],
				   ftrace_rec_ip(b, &b->recs[b->count - 1]),
				   MCOUNT_ADDR, 0, 0);
	return 0;
}

/* The batcher of the update engine, under ftrace_lock. */
static struct ftrace_batcher batcher;

/*
 * For dyn_ftrace_total_info: the last update that wrote call sites, and
 * the last registration or unregistration, all of it (ftrace_register.c).
 */
static struct {
	unsigned int sites;
	unsigned int batches;
	u64 ns;
	u64 register_ns;
} last_update;

/**
 * ftrace_note_register_time - remember what the last (un)registration took
 * @ns: its time, from entry to return, waits included
 */
void ftrace_note_register_time(u64 ns)
{
	WRITE_ONCE(last_update.register_ns, ns);
}

/* Write every site whose state differs from the plan, batch by batch. */
static int patch_all_sites(void)
{
	struct ftrace_block *b;
	u64 t = local_clock();
	int ret = 0;

	ftrace_batcher_start(&batcher, &live, ftrace_arch_patch, true, true,
			     NULL);
	for_each_ftrace_block(b) {
		ret = ftrace_batcher_add_block(&batcher, b);
		if (ret)
			break;
		cond_resched();
	}
	if (!ret)
		ret = ftrace_batcher_flush(&batcher);
	last_update.sites = batcher.written;
	last_update.batches = batcher.batches;
	last_update.ns = local_clock() - t;
	if (ret)
		ftrace_patch_failed(&batcher.batch, ret);
	return ret;
}

/**
 * ftrace_dyn_info_show - the lines dyn_ftrace_total_info adds to its first
 * @buf: where to write them
 * @size: the room in @buf
 *
 * The time the boot's and the modules' fresh sites took to become NOPs
 * (as newer kernels print it), then what the last update that wrote call
 * sites wrote and how long it took, and how long the last registration or
 * unregistration of an ops took in all.
 *
 * Return: the number of characters written.
 */
int ftrace_dyn_info_show(char *buf, int size)
{
	int n;

	n = scnprintf(buf, size,
		      "ftrace boot update time = %llu (ns)\n"
		      "ftrace module total update time = %llu (ns)\n",
		      ftrace_update_time, ftrace_total_mod_time);
	guard(mutex)(&ftrace_lock);
	return n + scnprintf(buf + n, size - n,
			     "last update: %u sites patched in %u batches, %llu (ns)\n"
			     "last register/unregister: %llu (ns)\n",
			     last_update.sites, last_update.batches,
			     last_update.ns, last_update.register_ns);
}

static void sync_ipi(void *unused)
{
	/* Pairs with the smp_wmb() that publishes function_trace_op. */
	smp_rmb();
}

/*
 * The shared caller could not be patched: what it calls is now unknown, so
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

/*
 * Carry out an update command on the code: FTRACE_UPDATE_CALLS,
 * FTRACE_UPDATE_TRACE_FUNC, FTRACE_START_FUNC_RET / FTRACE_STOP_FUNC_RET.
 *
 * Order matters when the shared caller switches from one ops to another:
 * while sites change, the caller calls the list function (which ignores
 * function_trace_op); function_trace_op is set and made visible on every
 * CPU before the caller is pointed at the ops' own function.
 */
static void update_code(int command)
{
	bool func = command & FTRACE_UPDATE_TRACE_FUNC;

	if (func && caller_failed(ftrace_arch_set_func(ftrace_ops_list_func)))
		return;
	if ((command & FTRACE_UPDATE_CALLS) && patch_all_sites()) {
		/*
		 * ftrace is dead; the sites written so far still call the
		 * shared caller: make it call nothing, and unhook the graph
		 * tracer if this update was to.
		 */
		ftrace_arch_set_func(ftrace_stub);
		if (command & FTRACE_STOP_FUNC_RET)
			ftrace_arch_set_graph(false);
		return;
	}
	if (func && ftrace_trace_function != ftrace_ops_list_func) {
		function_trace_op = ftrace_wanted_op();
		/* The op must be visible before any CPU calls its function. */
		smp_wmb();
		smp_call_function(sync_ipi, NULL, 1);
		if (caller_failed(ftrace_arch_set_func(ftrace_trace_function)))
			return;
	}
	if (command & FTRACE_START_FUNC_RET)
		caller_failed(ftrace_arch_set_graph(true));
	else if (command & FTRACE_STOP_FUNC_RET)
		caller_failed(ftrace_arch_set_graph(false));
}

static bool sites_differ(void)
{
	struct ftrace_block *b;
	struct ftrace_rec *r;

	for_each_ftrace_block(b) {
		for (r = b->recs; r < b->recs + b->count; r++) {
			if (rec_action(&live, ftrace_rec_ip(b, r), r->flags,
				       true) !=
			    FTRACE_UPDATE_IGNORE)
				return true;
		}
	}
	return false;
}

static ftrace_func_t patched_func = ftrace_stub;
static struct ftrace_ops *patched_op = &ftrace_list_end;

/**
 * ftrace_plan_mark - mark the wanted records of a planned block
 * @b: a block planned by an update that no conflict refused
 *
 * Every record some ops wants is marked touched, and one an IP-modifying
 * or direct ops wants, modified (touched_functions); the marks stay.  A
 * record of a module that is not live yet (FTRACE_FL_DISABLED) is not.
 */
void ftrace_plan_mark(struct ftrace_block *b)
{
	struct ftrace_rec *r;
	u32 f;

	for (r = b->recs; r < b->recs + b->count; r++) {
		f = r->flags;
		if (!(f & REC_REF_MASK) || (f & FTRACE_FL_DISABLED))
			continue;
		f |= REC_TOUCHED;
		if (f & (FTRACE_FL_IPMODIFY | FTRACE_FL_DIRECT))
			f |= REC_MODIFIED;
		r->flags = f;
	}
}

static int run_update(int command)
{
	struct ftrace_block *b;

	lockdep_assert_held(&ftrace_lock);
	if (ftrace_dead)
		return -ENODEV;
	if (command & FTRACE_UPDATE_CALLS) {
		unsigned int conflicts = 0;

		for_each_ftrace_block(b)
			conflicts += ftrace_plan_block(&live, b);
		if (conflicts)
			return -EBUSY;
		for_each_ftrace_block(b)
			ftrace_plan_mark(b);
		if (!sites_differ())
			command &= ~FTRACE_UPDATE_CALLS;
	}
	ftrace_update_func();
	if (ftrace_trace_function != patched_func ||
	    ftrace_wanted_op() != patched_op)
		command |= FTRACE_UPDATE_TRACE_FUNC;
	if (!command)
		return 0;
	update_code(command);
	patched_func = ftrace_trace_function;
	patched_op = ftrace_wanted_op();
	ftrace_slots_gc();
	return ftrace_dead ? -ENODEV : 0;
}

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
	int ret;

	sole_tramp_learn(live_ctx());
	ret = run_update(command);
	live.sole_tramp_known = false;
	return ret;
}

/* One block whose code does not run yet, fresh (@init) or to enable. */
static void patch_quiet_block(struct ftrace_block *b, bool init)
{
	int ret;

	ftrace_batcher_start(&batcher, live_ctx(), ftrace_arch_patch, !init,
			     false, b->mod);
	if (init)
		ret = ftrace_batcher_init_block(&batcher, b);
	else
		ret = ftrace_batcher_add_block(&batcher, b);
	if (!ret)
		ret = ftrace_batcher_flush(&batcher);
	if (ret)
		ftrace_patch_failed(&batcher.batch, ret);
	live.sole_tramp_known = false;
}

/*
 * Is a registered ops using @hashes?  Several ops can share one pair of
 * hashes: fgraph's ops and the profiler's use global_ops' (the top-level
 * set_ftrace_filter), whether or not global_ops itself is registered.
 */
static bool hashes_in_use(struct ftrace_ops_hash *hashes)
{
	struct ftrace_ops *op;

	for_each_ftrace_ops(op)
		if (op->func_hash == hashes)
			return true;
	return false;
}

/**
 * ftrace_ops_set_hash - publish a new filter or notrace hash for @ops
 * @ops: the ops (registered or not)
 * @nt: replace the notrace hash (true) or the filter hash (false)
 * @hash: the new contents; copied, the caller keeps ownership
 *
 * Called with ftrace_lock held.  If @ops, or another ops sharing its
 * hashes, is registered, the call sites are updated; on failure the old
 * hash is restored.
 *
 * An ops that moves the IP (IPMODIFY) takes no notrace hash, and one
 * that moves it or calls directly (DIRECT) cannot have its filter emptied
 * while registered: an empty filter means every function.  Both are
 * refused as 6.1 refuses them.
 *
 * Return: 0, -EINVAL for the two refusals above, -ENOMEM, or the error
 * of the update.
 */
int ftrace_ops_set_hash(struct ftrace_ops *ops, bool nt,
			struct ftrace_hash *hash)
{
	struct ftrace_hash __rcu **slot;
	struct ftrace_hash *new, *old;
	int ret = 0;

	lockdep_assert_held(&ftrace_lock);
	if (nt && (ops->flags & FTRACE_OPS_FL_IPMODIFY))
		return -EINVAL;
	if (!nt && ftrace_hash_empty(hash) &&
	    (ops->flags & FTRACE_OPS_FL_ENABLED) &&
	    (ops->flags & (FTRACE_OPS_FL_IPMODIFY | FTRACE_OPS_FL_DIRECT)))
		return -EINVAL;
	slot = nt ? &ops->func_hash->notrace_hash :
			 &ops->func_hash->filter_hash;
	new = ftrace_hash_resized(hash);
	if (!new)
		return -ENOMEM;
	old = rcu_dereference_protected(*slot, lockdep_is_held(&ftrace_lock));
	rcu_assign_pointer(*slot, new);
	if (hashes_in_use(ops->func_hash)) {
		ret = ftrace_run_update(FTRACE_UPDATE_CALLS);
		if (ret) {
			rcu_assign_pointer(*slot, old);
			ftrace_run_update(FTRACE_UPDATE_CALLS);
			old = new;
		}
	}
	ftrace_hash_free_rcu(old);
	return ret;
}

/*
 * A module's records become traceable just before the module runs: plan
 * them and patch the wanted sites directly, as no CPU executes them yet.
 * Two ops that change the IP of one new function cannot be refused here,
 * as the module is loading: as in 6.1, the site gets what its ops want,
 * and one line says so.  Only an address kept in a filter could make it
 * (:mod: words wait in trace arrays, whose ops move no IP), and unload
 * drops a module's addresses from every filter.
 */
void ftrace_enable_new_records(struct ftrace_block *b)
{
	if (ftrace_plan_block(live_ctx(), b))
		pr_warn_once("ftrace: two ops change the IP of a function that just loaded\n");
	ftrace_plan_mark(b);
	patch_quiet_block(b, false);
}

/*
 * Boot and module load: turn each profiling call of a new block into a NOP
 * (the back end checks the call is there first).  The block is not
 * published yet and its code does not run.
 */
void ftrace_convert_block(struct ftrace_block *b)
{
	int ret;

	if (ftrace_dead)
		return;
	if (ftrace_arch_fresh_idle()) {
		/*
		 * The build idled every site: check a sample, and convert the
		 * block only if the sample needed changing.
		 */
		ftrace_batcher_start(&batcher, live_ctx(), ftrace_arch_patch,
				     false, false, b->mod);
		ret = ftrace_batcher_init_sample(&batcher, b,
						 FTRACE_FRESH_SAMPLE);
		if (!ret)
			ret = ftrace_batcher_flush(&batcher);
		if (ret) {
			ftrace_patch_failed(&batcher.batch, ret);
			return;
		}
		if (!batcher.changed)
			return;
	}
	patch_quiet_block(b, true);
}

/*
 * The ops with a trampoline the back end allocated (FTRACE_OPS_FL_ALLOC_TRAMP),
 * registered or not: a static ops keeps its trampoline while it is off, and
 * a task preempted inside it must still be unwound and its address named.
 * Changed under ftrace_lock; read under RCU (preemption off).
 */
LIST_HEAD(ftrace_tramp_list);

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
	list_for_each_entry_rcu(op, &ftrace_tramp_list, list) {
		if (addr >= op->trampoline &&
		    addr < op->trampoline + op->trampoline_size) {
			found = op;
			break;
		}
	}
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
	unsigned long start = 0, len = 0;
	struct ftrace_ops *op;

	/*
	 * The caller may be preemptible: read the ops while preemption is
	 * off, so that the wait before its owner may free it covers us.
	 */
	preempt_disable_notrace();
	op = ftrace_ops_trampoline(addr);
	if (op) {
		start = op->trampoline;
		len = op->trampoline_size;
	}
	preempt_enable_notrace();
	if (!op) {
		if (modbuildid)
			*modbuildid = NULL;
		return ftrace_init_name_lookup(addr, size, off, modname, sym);
	}
	if (size)
		*size = len;
	if (off)
		*off = addr - start;
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
	list_for_each_entry_rcu(op, &ftrace_tramp_list, list) {
		if (!op->trampoline || symnum--)
			continue;
		*value = op->trampoline;
		*type = 't';
		strscpy(name, FTRACE_TRAMPOLINE_SYM, KSYM_NAME_LEN);
		strscpy(module_name, FTRACE_TRAMPOLINE_MOD, MODULE_NAME_LEN);
		*exported = 0;
		ret = 0;
		break;
	}
	preempt_enable_notrace();
	if (ret && !ftrace_init_name_symbol(symnum, value, name, module_name)) {
		*type = 'T';
		*exported = 1;
		ret = 0;
	}
	return ret;
}
