// SPDX-License-Identifier: GPL-2.0
/*
 * Filter commands and function probes.
 *
 * Commands ("func:traceoff:5", "func:enable_event:sched:sched_switch")
 * are registered by tracers; the core only finds the command by name and
 * passes the word on.  Most commands attach a function probe: a callback
 * run on entry of the selected functions, with per-function data.
 *
 * A probe is one ftrace_ops per (trace array, probe_ops) pair whose filter
 * hash holds the probed functions; it is registered while that hash is not
 * empty (an empty filter would mean "every function").
 *
 * Probes change under probe_lock, then ftrace_lock.  Removing functions
 * from a probe waits for the CPUs and tasks that may still be in its
 * callbacks before their data is freed; of the core's locks it holds
 * probe_lock only meanwhile, so that a task held up in traced code delays
 * other probe changes (and what waits for the callers' own locks:
 * event_mutex for the event commands, trace_types_lock too when a trace
 * array goes), not every registration of the core.
 */
#include <linux/kallsyms.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "ftrace_core.h"

static LIST_HEAD(ftrace_commands);
/* Keeps a command registered while it runs; taken before ftrace_lock. */
static DEFINE_MUTEX(command_lock);
/*
 * Serialises the probe API (taken after command_lock, before ftrace_lock).
 * Probes are created, freed and listed with both held, so either keeps a
 * probe in existence.  Their functions change with both held too, except
 * when text goes away: ftrace_probes_drop_range() makes them orphans under
 * ftrace_lock alone, but never creates or frees a probe.
 */
static DEFINE_MUTEX(probe_lock);

/* The command whose name is the @len bytes at @name. */
static struct ftrace_func_command *command_named(const char *name, size_t len)
{
	struct ftrace_func_command *c;

	lockdep_assert_held(&command_lock);
	list_for_each_entry(c, &ftrace_commands, list)
		if (strlen(c->name) == len && !strncmp(c->name, name, len))
			return c;
	return NULL;
}

/**
 * register_ftrace_command - make a filter command available
 * @cmd: the command; its name must be unique
 *
 * Return: 0, or -EBUSY if a command of that name exists.
 */
int register_ftrace_command(struct ftrace_func_command *cmd)
{
	guard(mutex)(&command_lock);
	if (command_named(cmd->name, strlen(cmd->name)))
		return -EBUSY;
	list_add(&cmd->list, &ftrace_commands);
	return 0;
}

/**
 * unregister_ftrace_command - withdraw a filter command
 * @cmd: a registered command
 *
 * Return: 0, or -ENODEV if @cmd was not registered.
 */
int unregister_ftrace_command(struct ftrace_func_command *cmd)
{
	guard(mutex)(&command_lock);
	if (command_named(cmd->name, strlen(cmd->name)) != cmd)
		return -ENODEV;
	list_del_init(&cmd->list);
	return 0;
}

/**
 * ftrace_command_known - is @name a filter command?
 * @name: the command word, not terminated
 * @len: its length
 *
 * Return: true for "mod" and for the name of a registered command.
 */
bool ftrace_command_known(const char *name, size_t len)
{
	if (len == 3 && !strncmp(name, "mod", 3))
		return true;
	guard(mutex)(&command_lock);
	return command_named(name, len);
}

/*
 * Run the command @cmd on the word's function part.  Commands call back
 * into the probe API, which takes ftrace_lock: the caller must not hold
 * it.  command_lock keeps the command from being unregistered while it
 * runs.
 */
int ftrace_run_command(struct trace_array *tr, struct ftrace_hash *hash,
		       char *func, char *cmd, char *params, bool enable)
{
	struct ftrace_func_command *c;

	lockdep_assert_not_held(&ftrace_lock);
	guard(mutex)(&command_lock);
	c = command_named(cmd, strlen(cmd));
	return c ? c->func(tr, hash, func, cmd, params, enable) : -EINVAL;
}

/*
 * One probe: the callbacks of one probe_ops in one trace array.
 *
 * @orphans holds probed functions whose text went away (module unload,
 * freed init text).  They leave the ops' filter, so no new text at the
 * same address is probed, but keep their per-function data, which the
 * callbacks free by address when the user removes the probe (as with
 * 6.1, such entries show as bare addresses in set_ftrace_filter).
 */
struct probe_set {
	struct ftrace_ops ops;		/* its filter hash: the probed functions */
	struct ftrace_probe_ops *cbs;
	struct trace_array *tr;
	void *data;			/* shared by all its functions */
	struct ftrace_hash *orphans;	/* NULL or the functions whose text went */
	struct list_head node;		/* in tr->func_probes */
};

static void probe_call(unsigned long ip, unsigned long parent_ip,
		       struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct probe_set *p = container_of(op, struct probe_set,
						   ops);

	p->cbs->func(ip, parent_ip, p->tr, p->cbs, p->data);
}

static struct ftrace_hash *probe_hash(struct probe_set *p)
{
	return ftrace_ops_hash_locked(&p->ops, false);
}

/* Does @p still hold any function (live or orphaned)? */
static bool probe_used(struct probe_set *p)
{
	return !ftrace_hash_empty(probe_hash(p)) ||
	       !ftrace_hash_empty(p->orphans);
}

/**
 * ftrace_ops_is_probe - is @ops the ops of a function probe?
 * @ops: a registered ops
 *
 * Return: true for the ops of a function probe.
 */
bool ftrace_ops_is_probe(struct ftrace_ops *ops)
{
	return ops->func == probe_call;
}

static struct probe_set *probe_find(struct trace_array *tr,
				    struct ftrace_probe_ops *probe_ops,
				    bool create)
{
	struct probe_set *p;

	list_for_each_entry(p, &tr->func_probes, node)
		if (p->cbs == probe_ops)
			return p;
	if (!create)
		return NULL;
	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return NULL;
	p->cbs = probe_ops;
	p->tr = tr;
	p->ops.func = probe_call;
	p->ops.flags = FTRACE_OPS_FL_RECURSION;
	ftrace_ops_init(&p->ops);
	list_add(&p->node, &tr->func_probes);
	return p;
}

/*
 * Drop a probe that holds no function any more: unregister, then free its
 * data ("free" at address 0 means all of it, in the probe API).
 */
static void probe_release(struct probe_set *p)
{
	if (p->ops.flags & FTRACE_OPS_FL_ENABLED)
		ftrace_shutdown(&p->ops, 0);
	list_del(&p->node);
	if (p->cbs->free)
		p->cbs->free(p->cbs, p->tr, 0, p->data);
	ftrace_hash_free(probe_hash(p));
	ftrace_hash_free(p->orphans);
	kfree(p);
}

/*
 * Make @hash (not empty) the probe's live function set, registering the
 * probe if it is not.  On failure nothing has changed.
 */
static int probe_apply(struct probe_set *p, struct ftrace_hash *hash)
{
	struct ftrace_hash *old;
	int ret;

	ret = ftrace_ops_set_hash(&p->ops, false, hash);
	if (ret || (p->ops.flags & FTRACE_OPS_FL_ENABLED))
		return ret;
	ret = ftrace_startup(&p->ops, 0);
	if (ret) {
		/* Never registered since the last quiesce: no reader. */
		old = probe_hash(p);
		RCU_INIT_POINTER(p->ops.func_hash->filter_hash,
				 &ftrace_empty_hash);
		ftrace_hash_free(old);
	}
	return ret;
}

/* Free the per-function data of the functions in @hash. */
static void probe_free_each(struct probe_set *p, struct ftrace_hash *hash)
{
	struct ftrace_func_entry *e;
	unsigned long i;

	if (!p->cbs->free || ftrace_hash_empty(hash))
		return;
	for_each_hash_entry(hash, i, e)
		p->cbs->free(p->cbs, p->tr, e->ip, p->data);
}

/*
 * Initialise the data of each function in @add (all new to the probe).
 * On failure the ones already initialised are freed again.
 */
static int probe_init_each(struct probe_set *p, struct ftrace_hash *add,
			   void *data)
{
	struct ftrace_func_entry *e, *f;
	unsigned long i, j;
	int ret;

	if (!p->cbs->init)
		return 0;
	for_each_hash_entry(add, i, e) {
		ret = p->cbs->init(p->cbs, p->tr, e->ip, data, &p->data);
		if (ret >= 0)
			continue;
		for_each_hash_entry(add, j, f) {
			if (f == e)
				return ret;
			if (p->cbs->free)
				p->cbs->free(p->cbs, p->tr, f->ip, p->data);
		}
		return ret;
	}
	return 0;
}

/*
 * Functions of @add that are orphans of @p have text again (a module came
 * back at the same address): their old data is freed, and they start
 * afresh as new functions.
 */
static void probe_revive(struct probe_set *p, struct ftrace_hash *add)
{
	struct ftrace_func_entry *e, *o;
	unsigned long i;

	if (ftrace_hash_empty(p->orphans))
		return;
	for_each_hash_entry(add, i, e) {
		o = ftrace_lookup_ip(p->orphans, e->ip);
		if (!o)
			continue;
		if (p->cbs->free)
			p->cbs->free(p->cbs, p->tr, e->ip, p->data);
		ftrace_hash_del(p->orphans, o);
	}
}

/**
 * register_ftrace_function_probe - run @probe_ops on the functions @glob selects
 * @glob: a filter word (name, glob, "func:mod:module" is not allowed)
 * @tr: the trace array the probe belongs to
 * @probe_ops: the probe's callbacks
 * @data: passed to @probe_ops->init for each newly probed function
 *
 * Functions the probe has already are left as they are: their data is not
 * initialised again.
 *
 * Return: the number of functions newly probed, or a negative error:
 * -EINVAL if @glob selects nothing new (the caller keeps @data), -ENODEV
 * once ftrace is dead.  Once @probe_ops->init has taken @data for a
 * function, the call no longer fails back to the caller: if the code
 * cannot be updated, the new functions wait as orphans (listed, not
 * probed) until they are removed.
 */
int register_ftrace_function_probe(char *glob, struct trace_array *tr,
				   struct ftrace_probe_ops *probe_ops,
				   void *data)
{
	struct ftrace_hash *add = NULL, *merged = NULL, *fallback = NULL;
	struct probe_set *p = NULL;
	int ret;

	if (WARN_ON(!tr) || !glob)
		return -EINVAL;
	guard(mutex)(&probe_lock);
	/* The hashes are freed after ftrace_lock is dropped. */
	scoped_guard(mutex, &ftrace_lock) {
		ret = -ENODEV;
		if (ftrace_dead)
			goto out;
		p = probe_find(tr, probe_ops, true);
		add = ftrace_hash_copy(NULL);
		ret = -ENOMEM;
		if (!p || !add)
			goto out;
		ret = ftrace_match_to_hash(add, glob, NULL, false);
		if (ret >= 0)
			/* What @p probes already is not new. */
			ftrace_hash_keep(add, probe_hash(p), false);
		if (ret >= 0 && !add->count)
			ret = -EINVAL;
		if (ret < 0)
			goto out;
		/* Every allocation before the first init(). */
		ret = -ENOMEM;
		merged = ftrace_hash_copy(probe_hash(p));
		fallback = ftrace_hash_copy(p->orphans);
		if (!merged || !fallback || ftrace_hash_add_all(merged, add) ||
		    ftrace_hash_add_all(fallback, add))
			goto out;
		probe_revive(p, add);
		ret = probe_init_each(p, add, data);
		if (ret < 0)
			goto out;
		if (probe_apply(p, merged)) {
			pr_warn("ftrace: probe %ps not enabled: the code could not be updated\n",
				probe_ops->func);
			swap(p->orphans, fallback);
		}
		ret = add->count;
out:
		if (p && !probe_used(p))
			probe_release(p);
	}
	ftrace_hash_free(add);
	ftrace_hash_free(merged);
	ftrace_hash_free(fallback);
	return ret;
}

/* Empty the live set of @p, which no CPU can be running any more. */
static void probe_clear_live(struct probe_set *p)
{
	struct ftrace_hash *old = probe_hash(p);

	RCU_INIT_POINTER(p->ops.func_hash->filter_hash, &ftrace_empty_hash);
	ftrace_hash_free(old);
}

/*
 * Unregister @p, whose every live function's text is going away, and
 * empty its live set.
 */
static int probe_stop_text_gone(struct probe_set *p)
{
	if (p->ops.flags & FTRACE_OPS_FL_ENABLED)
		ftrace_shutdown_text_gone(&p->ops);
	/* Even when ftrace is dead the ops has left the list. */
	if (WARN_ON_ONCE(p->ops.flags & FTRACE_OPS_FL_ENABLED))
		return -EBUSY;
	probe_clear_live(p);
	return 0;
}

/* Move the entries of @from that match @g into @gone. */
static int probe_take_matching(struct ftrace_hash *from,
			       const struct ftrace_glob *g,
			       struct ftrace_hash *gone)
{
	unsigned long i, want = 0;
	char sym[KSYM_SYMBOL_LEN];
	struct ftrace_func_entry *e;
	struct hlist_node *tmp;
	int ret;

	if (ftrace_hash_empty(from))
		return 0;
	/* A number names one function by address (ftrace_word_address()). */
	if (g->type == MATCH_INDEX) {
		want = ftrace_word_address(g->search);
		if (!want && kstrtoul(g->search, 0, &want))
			return 0;
	}
	for (i = 0; i < (1UL << from->size_bits); i++) {
		hlist_for_each_entry_safe(e, tmp, &from->buckets[i], hlist) {
			if (g->type == MATCH_INDEX) {
				if (e->ip != want)
					continue;
			} else {
				/* An address kallsyms cannot name matches as "". */
				kallsyms_lookup(e->ip, NULL, NULL, NULL, sym);
				if (!ftrace_glob_match(sym, g))
					continue;
			}
			ret = ftrace_hash_add(gone, e->ip);
			if (ret)
				return ret;
			ftrace_hash_del(from, e);
		}
	}
	return 0;
}

/* What a removal waits for between its halves. */
enum probe_wait {
	PROBE_NO_WAIT,		/* nothing live left the probe */
	PROBE_SHRUNK,		/* some live functions left, others stay */
	PROBE_LEAVING,		/* every live function left: the ops too */
};

/*
 * One removal: @left starts as a copy of @p's live set, @gone and
 * @orphans empty, all the caller's; between the halves, @gone holds the
 * live functions that left and @orphans the orphans that did, whose data
 * is freed once nothing can be running them.
 */
struct probe_removal {
	struct probe_set *p;
	struct ftrace_hash *left;
	struct ftrace_hash *gone;
	struct ftrace_hash *orphans;
	struct ftrace_leaving leaving;
	enum probe_wait wait;
};

/*
 * The first half, under ftrace_lock: take the functions @g selects out of
 * the probe and update the code.  An orphan's text is going or gone, but
 * the module loader tears ftrace down before it waits for the module's
 * async work: a function of it may still be running the probe (its site
 * still calls the probe's trampoline), so orphans are freed after the
 * wait too.
 */
static int probe_remove_begin(struct probe_removal *r,
			      const struct ftrace_glob *g)
{
	struct probe_set *p = r->p;
	int ret;

	ret = probe_take_matching(p->orphans, g, r->orphans);
	if (ret)
		return ret;
	ret = probe_take_matching(r->left, g, r->gone);
	if (ret)
		return ret;
	if (!r->gone->count)
		return r->orphans->count ? 0 : -EINVAL;
	if (r->left->count) {
		ret = ftrace_ops_set_hash(&p->ops, false, r->left);
		if (!ret)
			r->wait = PROBE_SHRUNK;
		return ret;
	}
	/* Not registered (no reader): nothing to wait for. */
	if (!(p->ops.flags & FTRACE_OPS_FL_ENABLED)) {
		probe_clear_live(p);
		probe_free_each(p, r->gone);
		return 0;
	}
	/*
	 * The ops leaves the list even if the update fails (as
	 * probe_stop_text_gone()); its live set is emptied once it is
	 * quiet.  Until then it is REMOVING, and ftrace_probes_drop_range()
	 * leaves it be; set_ftrace_filter still lists those functions.
	 */
	r->wait = PROBE_LEAVING;
	r->leaving.one = &p->ops;
	ftrace_leave_begin(&r->leaving, &r->leaving.one, 1);
	return 0;
}

/* Between the halves, without ftrace_lock. */
static void probe_remove_wait(struct probe_removal *r)
{
	if (r->wait == PROBE_SHRUNK)
		ftrace_ops_quiesce(&r->p->ops);
	else if (r->wait == PROBE_LEAVING)
		ftrace_leave_wait(&r->leaving);
	else if (!ftrace_hash_empty(r->orphans))
		ftrace_tasks_quiesce();
}

/* The second half, under ftrace_lock: free what left, and maybe the probe. */
static void probe_remove_end(struct probe_removal *r)
{
	struct probe_set *p = r->p;

	/* Waited for in any case (probe_remove_wait()). */
	probe_free_each(p, r->orphans);
	if (r->wait == PROBE_LEAVING) {
		ftrace_leave_end(&r->leaving);
		/* Never empty (make "all") the filter of a registered ops. */
		if (WARN_ON_ONCE(p->ops.flags & FTRACE_OPS_FL_ENABLED))
			return;
		probe_clear_live(p);
	}
	if (r->wait != PROBE_NO_WAIT)
		probe_free_each(p, r->gone);
	if (!probe_used(p))
		probe_release(p);
}

/**
 * unregister_ftrace_function_probe_func - stop @probe_ops on some functions
 * @glob: which probed functions (by name or glob); NULL or "*" for all
 * @tr: the trace array
 * @probe_ops: the probe's callbacks
 *
 * The functions stop being probed first (the probe's filter shrinks, or
 * its ops leaves when none is left); their data is freed only once no CPU
 * can still be running the probe for them.
 *
 * Context: may sleep for grace periods, holding probe_lock but not
 * ftrace_lock, which the caller must not hold.
 *
 * Return: 0; -ENODEV if @tr has no probe with @probe_ops; -EINVAL if
 * none of its functions matches @glob, or @glob starts with '!' (what
 * the filter commands pass on for "!!func:cmd"); or -ENOMEM.  These are
 * 6.1's codes, which reach user space as the errors of filter writes.
 */
int unregister_ftrace_function_probe_func(char *glob, struct trace_array *tr,
					  struct ftrace_probe_ops *probe_ops)
{
	struct ftrace_glob g = { .type = MATCH_MIDDLE_ONLY, .search = "" };
	struct probe_removal r = { .wait = PROBE_NO_WAIT };
	bool neg = false;
	int ret;

	if (glob && *glob && strcmp(glob, "*"))
		ftrace_glob_parse(glob, strlen(glob), &g, &neg);
	/* A probe is removed by its functions; there is no "all but". */
	if (neg)
		return -EINVAL;
	guard(mutex)(&probe_lock);
	scoped_guard(mutex, &ftrace_lock) {
		r.p = probe_find(tr, probe_ops, false);
		if (!r.p)
			return -ENODEV;
		r.left = ftrace_hash_copy(probe_hash(r.p));
		r.gone = ftrace_hash_copy(NULL);
		r.orphans = ftrace_hash_copy(NULL);
		ret = r.left && r.gone && r.orphans ?
		      probe_remove_begin(&r, &g) : -ENOMEM;
	}
	probe_remove_wait(&r);
	scoped_guard(mutex, &ftrace_lock)
		probe_remove_end(&r);
	/* The hashes are freed after ftrace_lock is dropped. */
	ftrace_hash_free(r.left);
	ftrace_hash_free(r.gone);
	ftrace_hash_free(r.orphans);
	return ret;
}

/**
 * clear_ftrace_function_probes - remove every probe of a trace array
 * @tr: the trace array (being deleted)
 *
 * All probes go with one code update and one wait, made without
 * ftrace_lock.
 */
void clear_ftrace_function_probes(struct trace_array *tr)
{
	struct ftrace_leaving l = { };
	struct ftrace_ops **ops = NULL;
	struct probe_set *p, *n;
	bool orphans = false;
	unsigned int nr = 0;

	/*
	 * The trace array has left ftrace_trace_arrays and nothing else
	 * holds it: its list cannot change.  Without probes, no need to
	 * queue behind another array's removal.
	 */
	if (list_empty(&tr->func_probes))
		return;
	guard(mutex)(&probe_lock);
	scoped_guard(mutex, &ftrace_lock) {
		list_for_each_entry(p, &tr->func_probes, node) {
			orphans |= !ftrace_hash_empty(p->orphans);
			nr++;
		}
		ops = nr ? kcalloc(nr, sizeof(*ops), GFP_KERNEL) : NULL;
		if (ops) {
			nr = 0;
			list_for_each_entry(p, &tr->func_probes, node)
				ops[nr++] = &p->ops;
			ftrace_leave_begin(&l, ops, nr);
		}
	}
	ftrace_leave_wait(&l);
	/*
	 * Orphans wait as in probe_remove_begin(), if no ops leaving did
	 * (without the batch, below).
	 */
	if (ops && orphans && !l.unlinked)
		ftrace_tasks_quiesce();
	guard(mutex)(&ftrace_lock);
	ftrace_leave_end(&l);
	if (!ops) {
		/*
		 * Without memory for the batch, one at a time; text that went
		 * meanwhile may have made orphans of live functions without a
		 * wait, so one comes before their data goes.
		 */
		orphans = false;
		list_for_each_entry(p, &tr->func_probes, node) {
			if (p->ops.flags & FTRACE_OPS_FL_ENABLED)
				ftrace_shutdown(&p->ops, 0);
			orphans |= !ftrace_hash_empty(p->orphans);
		}
		if (orphans)
			ftrace_tasks_quiesce();
	}
	kfree(ops);
	list_for_each_entry_safe(p, n, &tr->func_probes, node) {
		probe_free_each(p, probe_hash(p));
		probe_free_each(p, p->orphans);
		probe_release(p);
	}
}

static void probe_show_one(struct seq_file *m, struct probe_set *p,
			   unsigned long ip)
{
	if (p->cbs->print)
		p->cbs->print(m, ip, p->cbs, p->data);
	else
		seq_printf(m, "%ps:%ps\n", (void *)ip, (void *)p->cbs->func);
}

/*
 * Move @p's functions in [start, end) to its orphans and drop them from
 * its live set.  If memory runs out they stay live, as in 6.1: their
 * records are gone, so nothing is patched for them.
 *
 * Unlike a removal, this waits for no task: the orphans keep their data
 * until a removal has waited (probe_remove_begin()), and when the ops
 * leaves, its trampoline is freed after a wait of its own
 * (ftrace_shutdown_text_gone()).  A wait for tasks here, under
 * ftrace_lock, would hold every registration up behind a task that stays
 * preempted.
 */
static void probe_orphan_range(struct probe_set *p, unsigned long start,
			       unsigned long end)
{
	struct ftrace_hash *left, *orphans;
	struct ftrace_func_entry *e;
	struct hlist_node *tmp;
	unsigned long i;
	bool moved = false;

	left = ftrace_hash_copy(probe_hash(p));
	orphans = ftrace_hash_copy(p->orphans);
	if (!left || !orphans)
		goto out;
	for (i = 0; i < (1UL << left->size_bits); i++) {
		hlist_for_each_entry_safe(e, tmp, &left->buckets[i], hlist) {
			if (e->ip < start || e->ip >= end)
				continue;
			if (ftrace_hash_add(orphans, e->ip))
				goto out;
			ftrace_hash_del(left, e);
			moved = true;
		}
	}
	if (!moved || (left->count ? ftrace_ops_set_hash(&p->ops, false, left) :
				     probe_stop_text_gone(p)))
		goto out;
	swap(p->orphans, orphans);
out:
	ftrace_hash_free(left);
	ftrace_hash_free(orphans);
}

/* The probe lines of set_ftrace_filter. */
void ftrace_probes_show(struct seq_file *m, struct trace_array *tr)
{
	struct ftrace_func_entry *e;
	struct probe_set *p;
	unsigned long i;

	lockdep_assert_held(&ftrace_lock);
	list_for_each_entry(p, &tr->func_probes, node) {
		if (!ftrace_hash_empty(probe_hash(p)))
			for_each_hash_entry(probe_hash(p), i, e)
				probe_show_one(m, p, e->ip);
		if (!ftrace_hash_empty(p->orphans))
			for_each_hash_entry(p->orphans, i, e)
				probe_show_one(m, p, e->ip);
	}
}

/**
 * ftrace_tr_probes_drop_range - text of @tr's probes is going away
 * @tr: the trace array
 * @start: first byte of the text
 * @end: one past its last byte
 *
 * The probed functions in [start, end) become orphans of their probes
 * (see struct probe_set).  Called with ftrace_lock held; waits for no
 * task (probe_orphan_range()), only for every CPU when a probe's ops
 * leaves.
 */
void ftrace_tr_probes_drop_range(struct trace_array *tr, unsigned long start,
				 unsigned long end)
{
	struct probe_set *p, *n;

	lockdep_assert_held(&ftrace_lock);
	list_for_each_entry_safe(p, n, &tr->func_probes, node) {
		/*
		 * All its live functions are leaving, and their data goes
		 * once the wait is over (probe_remove_end()).
		 */
		if (p->ops.flags & FTRACE_OPS_FL_REMOVING)
			continue;
		probe_orphan_range(p, start, end);
	}
}

/* Text [start, end) is going away: the same for every trace array. */
void ftrace_probes_drop_range(unsigned long start, unsigned long end)
{
	struct trace_array *tr;

	lockdep_assert_held(&ftrace_lock);
	list_for_each_entry(tr, &ftrace_trace_arrays, list)
		ftrace_tr_probes_drop_range(tr, start, end);
}
