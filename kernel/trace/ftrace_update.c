// SPDX-License-Identifier: GPL-2.0
/*
 * The update engine: runs a plan, and publishes an ops' new hash.
 *
 * An update plans every block (ftrace_plan.c), hands the sites that must
 * change to the batcher (ftrace_batch.c), and around the sites points
 * the shared caller at the list function and back (update_code()).  Boot
 * and module load convert fresh blocks here too.  The engine's state,
 * under ftrace_lock, is one struct: the live planning context, the
 * batcher, what the shared caller was last pointed at, and the figures of
 * dyn_ftrace_total_info.
 */
#include <linux/sched/clock.h>

#include "ftrace_update.h"

/*
 * The engine's state, changed under ftrace_lock:
 * @live: the context of the core's own updates, planned against the
 *	registered ops (KUnit plans against contexts of its own)
 * @batcher: the batcher of every update and conversion
 * @patched_func: what the shared caller was last pointed at
 * @patched_op: the ops function_trace_op was last set to
 * @last: for dyn_ftrace_total_info: the last update that wrote call
 *	sites, and the last registration or unregistration, all of it
 *	(ftrace_register.c)
 */
static struct {
	struct ftrace_plan_ctx live;
	struct ftrace_batcher batcher;
	ftrace_func_t patched_func;
	struct ftrace_ops *patched_op;
	struct {
		unsigned int sites;
		unsigned int batches;
		u64 ns;
		u64 register_ns;
	} last;
} engine = {
	.live.ops = &ftrace_ops_list,
	.patched_func = ftrace_stub,
	.patched_op = &ftrace_list_end,
};

/* The live context, with ftrace_enabled as it is now (ftrace_lock held). */
static struct ftrace_plan_ctx *live_ctx(void)
{
	lockdep_assert_held(&ftrace_lock);
	engine.live.enabled = ftrace_enabled;
	return &engine.live;
}

/**
 * ftrace_note_register_time - remember what the last (un)registration took
 * @ns: its time, from entry to return, waits included
 */
void ftrace_note_register_time(u64 ns)
{
	WRITE_ONCE(engine.last.register_ns, ns);
}

/* Write every site whose state differs from the plan, batch by batch. */
static int patch_all_sites(void)
{
	struct ftrace_block *b;
	u64 t = local_clock();
	int ret = 0;

	ftrace_batcher_start(&engine.batcher, &engine.live, ftrace_arch_patch,
			     true, true, NULL);
	for_each_ftrace_block(b) {
		ret = ftrace_batcher_add_block(&engine.batcher, b);
		if (ret)
			break;
		cond_resched();
	}
	if (!ret)
		ret = ftrace_batcher_flush(&engine.batcher);
	engine.last.sites = engine.batcher.written;
	engine.last.batches = engine.batcher.batches;
	engine.last.ns = local_clock() - t;
	if (ret)
		ftrace_patch_failed(&engine.batcher.batch, ret);
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
			     engine.last.sites, engine.last.batches,
			     engine.last.ns, engine.last.register_ns);
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

static int run_update(int command)
{
	struct ftrace_block *b;

	lockdep_assert_held(&ftrace_lock);
	if (ftrace_dead)
		return -ENODEV;
	if (command & FTRACE_UPDATE_CALLS) {
		unsigned int conflicts = 0;

		ftrace_plan_prefilter(&engine.live);
		for_each_ftrace_block(b)
			conflicts += ftrace_plan_block(&engine.live, b);
		ftrace_plan_prefilter_end(&engine.live);
		if (conflicts)
			return -EBUSY;
		for_each_ftrace_block(b)
			ftrace_plan_mark(b);
		if (!ftrace_plan_pending(&engine.live))
			command &= ~FTRACE_UPDATE_CALLS;
	}
	ftrace_update_func();
	if (ftrace_trace_function != engine.patched_func ||
	    ftrace_wanted_op() != engine.patched_op)
		command |= FTRACE_UPDATE_TRACE_FUNC;
	if (!command)
		return 0;
	update_code(command);
	engine.patched_func = ftrace_trace_function;
	engine.patched_op = ftrace_wanted_op();
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

	ftrace_plan_begin(live_ctx());
	ret = run_update(command);
	engine.live.sole_tramp_known = false;
	return ret;
}

/* One block whose code does not run yet, fresh (@init) or to enable. */
static void patch_quiet_block(struct ftrace_block *b, bool init)
{
	int ret;

	ftrace_batcher_start(&engine.batcher, live_ctx(), ftrace_arch_patch, !init,
			     false, b->mod);
	if (init)
		ret = ftrace_batcher_init_block(&engine.batcher, b);
	else
		ret = ftrace_batcher_add_block(&engine.batcher, b);
	if (!ret)
		ret = ftrace_batcher_flush(&engine.batcher);
	if (ret)
		ftrace_patch_failed(&engine.batcher.batch, ret);
	engine.live.sole_tramp_known = false;
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

static int set_hash(struct ftrace_ops *ops, bool nt, struct ftrace_hash *hash,
		    bool take)
{
	struct ftrace_hash __rcu **slot;
	struct ftrace_hash *new, *old;
	int ret = 0, managed;

	lockdep_assert_held(&ftrace_lock);
	if (nt && (ops->flags & FTRACE_OPS_FL_IPMODIFY))
		return -EINVAL;
	if (!nt && ftrace_hash_empty(hash) &&
	    (ops->flags & FTRACE_OPS_FL_ENABLED) &&
	    (ops->flags & (FTRACE_OPS_FL_IPMODIFY | FTRACE_OPS_FL_DIRECT)))
		return -EINVAL;
	slot = nt ? &ops->func_hash->notrace_hash :
			 &ops->func_hash->filter_hash;
	new = take ? ftrace_hash_take_resized(hash) : ftrace_hash_resized(hash);
	if (!new)
		return -ENOMEM;
	old = rcu_dereference_protected(*slot, lockdep_is_held(&ftrace_lock));
	rcu_assign_pointer(*slot, new);
	/*
	 * The hashes of a sub-op (6.12's fgraph.c) make its manager's: those
	 * are rebuilt, and published to the sites in the same update.
	 */
	managed = ftrace_subops_hash_changed(ops->func_hash);
	if (managed < 0)
		ret = managed;
	else if (managed || hashes_in_use(ops->func_hash))
		ret = ftrace_run_update(FTRACE_UPDATE_CALLS);
	if (ret) {
		rcu_assign_pointer(*slot, old);
		if (managed)
			ftrace_subops_hash_changed(ops->func_hash);
		/* Sites were written only if the update ran. */
		if (managed >= 0)
			ftrace_run_update(FTRACE_UPDATE_CALLS);
		old = new;
	}
	ftrace_hash_free_rcu(old);
	return ret;
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
	return set_hash(ops, nt, hash, false);
}

/**
 * ftrace_ops_take_hash - ftrace_ops_set_hash(), moving the entries of @hash
 * @ops: the ops (registered or not)
 * @nt: replace the notrace hash (true) or the filter hash (false)
 * @hash: the new contents, a private hash the caller frees afterwards
 *
 * For callers done with @hash: its entries move into the published hash
 * instead of being copied one by one.  Once the new hash is allocated,
 * @hash is left empty whether or not the update succeeds.
 *
 * Return: as ftrace_ops_set_hash().
 */
int ftrace_ops_take_hash(struct ftrace_ops *ops, bool nt,
			 struct ftrace_hash *hash)
{
	return set_hash(ops, nt, hash, true);
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
		ftrace_batcher_start(&engine.batcher, live_ctx(), ftrace_arch_patch,
				     false, false, b->mod);
		ret = ftrace_batcher_init_sample(&engine.batcher, b,
						 FTRACE_FRESH_SAMPLE);
		if (!ret)
			ret = ftrace_batcher_flush(&engine.batcher);
		if (ret) {
			ftrace_patch_failed(&engine.batcher.batch, ret);
			return;
		}
		if (!engine.batcher.changed)
			return;
	}
	patch_quiet_block(b, true);
}
