// SPDX-License-Identifier: GPL-2.0
/*
 * The planner: what every call site must call.
 *
 * For every record, the planner counts the active ops that want it and
 * derives what its call site must do: nothing (NOP), call the arch caller
 * (with or without saved registers), call the one ops' trampoline, or
 * call a direct-call target.  The wanted state goes into the record's
 * flag word (reference count, FTRACE_FL_REGS, FTRACE_FL_TRAMP, ...), next
 * to the state the code is in now (FTRACE_FL_ENABLED, _REGS_EN,
 * _TRAMP_EN).  For a site whose two states differ, ftrace_plan_site()
 * then says what it calls now, what it must call next, and the flag word
 * once it does; the batcher (ftrace_batch.c) carries that out.
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
 * The planner reads the ops list of the context it is given and writes
 * only records' flag words and the trampoline slots.
 */
#include <linux/hash.h>
#include <linux/slab.h>
#include <linux/sort.h>

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
 * The caller holds ftrace_lock or ftrace_direct_mutex, or has preemption
 * off (see ftrace_site_target()).
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
 * The prefilter of a planning pass, over the active ops that choose by
 * hash: one bit for each value of prefilter_key(), set for every function
 * in their filters, and those functions paired with their ops, sorted by
 * address.  A record whose bit is clear is wanted by none of them, so
 * planning it asks none; one whose bit is set asks only the ops its
 * address is paired with.  Without it, planning costs a hash lookup per
 * record and such ops: with hundreds of one-function ops (a BPF trampoline
 * each), every registration asked each of them about every record.  Built
 * under ftrace_lock for the live context only.
 */
#define PREFILTER_BITS		14
#define PREFILTER_MAX		((1U << PREFILTER_BITS) / 4)

struct plan_pick {
	unsigned long ip;
	struct ftrace_ops *op;
};

struct ftrace_prefilter {
	DECLARE_BITMAP(bits, 1U << PREFILTER_BITS);
	struct plan_pick *picks;	/* NULL if memory ran out */
	unsigned int npicks;
};

static struct ftrace_prefilter prefilter;

static unsigned int prefilter_key(unsigned long ip)
{
	return hash_long(ip, PREFILTER_BITS);
}

static int pick_cmp(const void *a, const void *b)
{
	const struct plan_pick *x = a, *y = b;

	return x->ip < y->ip ? -1 : x->ip > y->ip;
}

/*
 * The picks for @ip: the first, and in *@n how many follow it.  The order
 * of ops with the same address is not kept, and need not be: what a site
 * must call does not depend on the order its ops are counted in.
 */
static const struct plan_pick *picks_of(const struct ftrace_prefilter *pf,
					unsigned long ip, unsigned int *n)
{
	unsigned int lo = 0, hi = pf->npicks, mid, end;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (pf->picks[mid].ip < ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (end = lo; end < pf->npicks && pf->picks[end].ip == ip; end++)
		;
	*n = end - lo;
	return &pf->picks[lo];
}

/**
 * ftrace_plan_prefilter - let the next planning pass skip ops that want no site
 * @ctx: the context of the pass, whose ops list does not change until
 *	 ftrace_plan_prefilter_end() (ftrace_lock held)
 *
 * Sets @ctx->prefilter, or leaves it NULL when it would not help: an
 * active ops with an empty filter but a notrace hash wants nearly every
 * function, and filters with more functions than a quarter of the bits
 * would set most of them.
 */
void ftrace_plan_prefilter(struct ftrace_plan_ctx *ctx)
{
	struct ftrace_prefilter *pf = &prefilter;
	unsigned int entries = 0;
	struct ftrace_func_entry *e;
	struct ftrace_ops *op;
	struct ftrace_hash *h;
	unsigned long i;

	lockdep_assert_held(&ftrace_lock);
	ctx->prefilter = NULL;
	do_for_each_ftrace_op(op, *ctx->ops) {
		if (!plan_active(ctx, op) || ftrace_ops_wants_all(op))
			continue;
		h = ftrace_ops_hash_locked(op, false);
		if (ftrace_hash_empty(h))
			return;
		entries += h->count;
		if (entries > PREFILTER_MAX)
			return;
	} while_for_each_ftrace_op(op);
	if (!entries)
		return;
	bitmap_zero(pf->bits, 1U << PREFILTER_BITS);
	/* Without the pairs, a set bit asks every ops, as before. */
	pf->picks = kvmalloc_array(entries, sizeof(*pf->picks),
				   GFP_KERNEL | __GFP_NOWARN);
	pf->npicks = 0;
	do_for_each_ftrace_op(op, *ctx->ops) {
		if (!plan_active(ctx, op) || ftrace_ops_wants_all(op))
			continue;
		h = ftrace_ops_hash_locked(op, false);
		for_each_hash_entry(h, i, e) {
			__set_bit(prefilter_key(e->ip), pf->bits);
			if (pf->picks && pf->npicks < entries)
				pf->picks[pf->npicks++] = (struct plan_pick) {
					.ip = e->ip, .op = op,
				};
		}
	} while_for_each_ftrace_op(op);
	if (pf->picks)
		sort(pf->picks, pf->npicks, sizeof(*pf->picks), pick_cmp, NULL);
	ctx->prefilter = pf;
}

/**
 * ftrace_plan_prefilter_end - the planning pass is over
 * @ctx: the context ftrace_plan_prefilter() was given
 */
void ftrace_plan_prefilter_end(struct ftrace_plan_ctx *ctx)
{
	if (!ctx->prefilter)
		return;
	kvfree(prefilter.picks);
	prefilter.picks = NULL;
	ctx->prefilter = NULL;
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
	bool conflict, conflict_all = false, all_known = false;
	const struct ftrace_prefilter *pf;
	const struct plan_pick *pk;
	unsigned int conflicts = 0, n;
	struct ftrace_rec *r;
	u32 f, f_all = 0;
	unsigned long ip;
	struct plan p;
	struct want w;

	plan_prepare(ctx, &p);
	if (!p.npicky) {
		/* No ops chooses by hash: every site is wanted alike. */
		f = want_flags(&p.all, &conflict);
		for (r = b->recs; r < b->recs + b->count; r++)
			r->flags = (r->flags & REC_STATE) | f;
		return conflict ? b->count : 0;
	}
	for (r = b->recs; r < b->recs + b->count; r++) {
		ip = ftrace_rec_ip(b, r);
		pf = ctx->prefilter;
		if (pf && !test_bit(prefilter_key(ip), pf->bits)) {
			/* No ops that chooses wants it: as when none chooses. */
			if (!all_known) {
				f_all = want_flags(&p.all, &conflict_all);
				all_known = true;
			}
			r->flags = (r->flags & REC_STATE) | f_all;
			conflicts += conflict_all;
			continue;
		}
		if (pf && pf->picks) {
			/* Only the ops whose filter holds it (notrace aside). */
			w = p.all;
			for (pk = picks_of(pf, ip, &n); n; pk++, n--)
				if (ftrace_ops_wants(pk->op, ip))
					want_add(&w, pk->op);
		} else {
			plan_want(&p, ip, &w);
		}
		f = want_flags(&w, &conflict);
		r->flags = (r->flags & REC_STATE) | f;
		conflicts += conflict;
	}
	return conflicts;
}

/**
 * ftrace_plan_begin - learn what a run of site changes can share
 * @ctx: the context the sites were planned in
 *
 * While only one active ops has a trampoline, a site planned to call a
 * trampoline (FTRACE_FL_TRAMP: one ops wants it, and that ops has one)
 * calls that one, found without asking every ops again.  Holds until
 * the caller clears @ctx->sole_tramp_known.
 */
void ftrace_plan_begin(struct ftrace_plan_ctx *ctx)
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

/**
 * ftrace_plan_site - what must happen to the site at @ip
 * @ctx: the context the site was planned in
 * @ip: the site
 * @f: its record's flag word
 * @enable: false to turn every site off
 * @c: receives the change
 */
void ftrace_plan_site(struct ftrace_plan_ctx *ctx, unsigned long ip, u32 f,
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

/*
 * The call target of the site at @ip for enabled_functions (0: none).  The
 * caller holds ftrace_lock or has preemption off: a direct site's target
 * comes from ftrace_direct_hash, whose old copies are freed once every CPU
 * has scheduled, which does not wait for a reader preempted under
 * rcu_read_lock().
 */
unsigned long ftrace_site_target(unsigned long ip)
{
	struct ftrace_block *b;
	struct ftrace_rec *r;

	r = ftrace_find_rec(ip, &b);
	return r ? target_now(ip, r->flags) : 0;
}

/**
 * ftrace_plan_pending - does any site differ from its plan?
 * @ctx: the context the records were planned in
 *
 * Return: true if some site must change.
 */
bool ftrace_plan_pending(struct ftrace_plan_ctx *ctx)
{
	struct ftrace_block *b;
	struct ftrace_rec *r;

	lockdep_assert_held(&ftrace_lock);
	for_each_ftrace_block(b) {
		for (r = b->recs; r < b->recs + b->count; r++) {
			if (rec_action(ctx, ftrace_rec_ip(b, r), r->flags, true) !=
			    FTRACE_UPDATE_IGNORE)
				return true;
		}
	}
	return false;
}

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
