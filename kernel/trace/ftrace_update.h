/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The inside of the update engine: how a plan is made (ftrace_plan.c) and
 * how planned sites go to the back end in batches (ftrace_batch.c), for
 * the engine that runs them (ftrace_update.c).  Only these three and
 * their KUnit suite (ftrace_kunit.c) include this; the other files of the
 * core update the code through ftrace_run_update() and the calls
 * ftrace_core.h lists.
 */
#ifndef _KERNEL_TRACE_FTRACE_UPDATE_H
#define _KERNEL_TRACE_FTRACE_UPDATE_H

#include "ftrace_core.h"

/* What an update does to one site, and to its record's flag word. */
struct ftrace_site_change {
	u32 flags;		/* the flag word it was worked out for */
	u32 next;		/* the word once the site is written */
	bool act;		/* false: neither site nor record changes */
	unsigned long old;	/* what the site calls now (0: the NOP) */
	unsigned long new;	/* what it must call */
};

struct ftrace_prefilter;

/*
 * What a plan is made against: an ops list, and whether ftrace_enabled is
 * on; then what planning learnt of trampolines (while only one active ops
 * has a trampoline: that trampoline, and its slot once looked up, 0 when
 * none is free, -1 before), and the prefilter of the core's own updates.
 * The core's updates plan against the registered ops; KUnit against
 * lists of its own, touching no global.
 */
struct ftrace_plan_ctx {
	struct ftrace_ops __rcu **ops;
	bool enabled;
	bool sole_tramp_known;
	int sole_slot;
	unsigned long sole_tramp;
	const struct ftrace_prefilter *prefilter; /* ftrace_plan_prefilter() */
};

/*
 * Sites on their way to the back end (ftrace_arch_patch(), or a test's),
 * FTRACE_BATCH_MAX at a time, with the records to update once written
 * and their flag words then.  @memo is the change worked out for the
 * last record, reused for the next while @memo_ok and the flag word is
 * the same.
 */
struct ftrace_batcher {
	struct ftrace_plan_ctx *ctx;
	int (*patch)(struct ftrace_batch *batch);
	struct ftrace_batch batch;
	struct ftrace_patch entry[FTRACE_BATCH_MAX];
	struct ftrace_rec *rec[FTRACE_BATCH_MAX];
	u32 next[FTRACE_BATCH_MAX];
	struct ftrace_site_change memo;
	bool memo_ok;
	bool enable;
	unsigned int written;
	unsigned int changed;
	unsigned int batches;
};

/* ftrace_plan.c */
unsigned int ftrace_plan_block(const struct ftrace_plan_ctx *ctx,
			       struct ftrace_block *b);
void ftrace_plan_mark(struct ftrace_block *b);
bool ftrace_plan_pending(struct ftrace_plan_ctx *ctx);
void ftrace_plan_begin(struct ftrace_plan_ctx *ctx);
void ftrace_plan_prefilter(struct ftrace_plan_ctx *ctx);
void ftrace_plan_prefilter_end(struct ftrace_plan_ctx *ctx);
void ftrace_plan_site(struct ftrace_plan_ctx *ctx, unsigned long ip, u32 f,
		      bool enable, struct ftrace_site_change *c);
void ftrace_slots_gc(void);

/**
 * ftrace_plan_by_flags - does a site's change follow from its flag word?
 * @ctx: the context the site was planned in
 * @f: the record's flag word
 *
 * Only a direct call's target, and a trampoline while several ops have
 * one, are looked up by the site's address.  Inline: the batcher asks it
 * for every run of records with one flag word.
 *
 * Return: true if every site whose word is @f changes alike.
 */
static inline bool ftrace_plan_by_flags(const struct ftrace_plan_ctx *ctx,
					u32 f)
{
	if (f & (FTRACE_FL_DIRECT | FTRACE_FL_DIRECT_EN))
		return false;
	return !(f & FTRACE_FL_TRAMP) || ctx->sole_tramp_known;
}

/* ftrace_batch.c */
void ftrace_batcher_start(struct ftrace_batcher *bt,
			  struct ftrace_plan_ctx *ctx,
			  int (*patch)(struct ftrace_batch *batch),
			  bool enable, bool live, struct module *mod);
int ftrace_batcher_add_block(struct ftrace_batcher *bt, struct ftrace_block *b);
int ftrace_batcher_init_block(struct ftrace_batcher *bt, struct ftrace_block *b);
int ftrace_batcher_init_sample(struct ftrace_batcher *bt,
			       struct ftrace_block *b, unsigned int step);
int ftrace_batcher_flush(struct ftrace_batcher *bt);
void ftrace_patch_failed(const struct ftrace_batch *batch, int err);

#endif /* _KERNEL_TRACE_FTRACE_UPDATE_H */
