// SPDX-License-Identifier: GPL-2.0
/*
 * The batcher: planned changes to the back end, and the failure report.
 *
 * Sites whose planned and current states differ are handed to the arch
 * in batches of up to FTRACE_BATCH_MAX sites in ascending address order
 * (ftrace_arch_patch(), <linux/ftrace_arch.h>); the records of the sites
 * the arch wrote are then brought up to date.
 *
 * Failure is closed: a back end that finds unexpected bytes at a site does
 * not write it and reports it in the batch; the core prints one report
 * (ftrace_patch_failed()) and never patches again.
 */
#include <linux/uaccess.h>

#include "ftrace_update.h"

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
 * Prints one report naming the site (and its module, when the module is
 * loading, as kallsyms cannot name it yet), what it was to change from
 * and to, and the expected and found bytes; ftrace then never patches
 * code again.
 */
void ftrace_patch_failed(const struct ftrace_batch *batch, int err)
{
	const struct ftrace_patch *p;
	u8 found[MCOUNT_INSN_SIZE];

	lockdep_assert_held(&ftrace_lock);
	if (ftrace_dead)
		return;
	ftrace_kill();
	p = &batch->patch[min(batch->bad, batch->nr - 1)];
	/* kallsyms does not know a module that is still loading: name it. */
	if (batch->mod)
		pr_err("ftrace: %s at %pS in module %s, loading: %d\n",
		       bug_kind(err), (void *)p->ip, module_name(batch->mod), err);
	else
		pr_err("ftrace: %s at %pS: %d\n", bug_kind(err), (void *)p->ip,
		       err);
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
	ftrace_plan_begin(ctx);
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
			ftrace_plan_site(bt->ctx, ip, r->flags, bt->enable, &c);
			ok = ftrace_plan_by_flags(bt->ctx, r->flags);
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
