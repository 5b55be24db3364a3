// SPDX-License-Identifier: GPL-2.0
/*
 * Sub-ops, as Linux 6.12's fgraph.c uses them (the calls it makes are in
 * ftrace_kbase612.c; this file keeps the managers' hashes): one registered
 * ops, the manager, calls out for several users, each an ops of its own
 * that is never registered.  fgraph.c makes every function_graph user a sub-op of
 * its graph ops and tests each user's filter itself when the one caller
 * runs (ftrace_ops_test()).
 *
 * The manager must reach every function any of its users wants: its
 * filter is the union of theirs (empty, every function, as soon as one of
 * theirs is empty) and its notrace hash holds the functions that every
 * user excludes.  When a user comes, goes, or has a hash edited
 * (ftrace_ops_set_hash()), the manager's hashes are rebuilt and the sites
 * updated in one run; if that fails, the old hashes come back (a user
 * that leaves goes all the same: ftrace_shutdown_subops()).
 *
 * Everything here runs under ftrace_lock.
 */
#include <linux/slab.h>

#include "ftrace_core.h"

/* The managers with users; fgraph.c has one. */
#define MAX_MANAGERS	4
static struct ftrace_ops *managers[MAX_MANAGERS];

/**
 * ftrace_subops_manage - list a manager ops, or take it off the list
 * @mgr: the manager
 * @add: list it (its first sub-op came) or unlist it (its last went)
 *
 * Return: 0, or -ENOSPC when adding a manager too many.
 */
int ftrace_subops_manage(struct ftrace_ops *mgr, bool add)
{
	int i;

	lockdep_assert_held(&ftrace_lock);
	for (i = 0; i < MAX_MANAGERS; i++) {
		if (add && !managers[i]) {
			managers[i] = mgr;
			return 0;
		}
		if (!add && managers[i] == mgr)
			managers[i] = NULL;
	}
	return add ? -ENOSPC : 0;
}

/**
 * ftrace_subops_build - a manager's hashes for the sub-ops on its list now
 * @mgr: the manager
 * @filter: receives the filter hash, sized to publish
 * @notr: receives the notrace hash, sized to publish
 *
 * Return: 0, or -ENOMEM with nothing allocated.
 */
int ftrace_subops_build(struct ftrace_ops *mgr, struct ftrace_hash **filter,
			struct ftrace_hash **notr)
{
	struct ftrace_hash *f, *nt = NULL, *h;
	struct ftrace_ops *sub;
	bool all = false;
	int ret = -ENOMEM;

	f = ftrace_hash_alloc(FTRACE_HASH_MAX_BITS / 2);
	if (!f)
		return -ENOMEM;
	list_for_each_entry(sub, &mgr->subop_list, list) {
		h = ftrace_ops_hash_locked(sub, false);
		if (ftrace_hash_empty(h))
			all = true;
		else if (!all && ftrace_hash_add_all(f, h))
			goto out;
		h = ftrace_ops_hash_locked(sub, true);
		if (!nt) {
			nt = ftrace_hash_copy(h);
			if (!nt)
				goto out;
		} else {
			ftrace_hash_keep(nt, h, true);
		}
	}
	if (all)
		ftrace_hash_clear(f);
	*filter = ftrace_hash_resized(f);
	*notr = ftrace_hash_resized(nt);
	if (*filter && *notr) {
		ret = 0;
	} else {
		ftrace_hash_free(*filter);
		ftrace_hash_free(*notr);
	}
out:
	ftrace_hash_free(f);
	ftrace_hash_free(nt);
	return ret;
}

/**
 * ftrace_subops_swap - exchange a manager's hashes
 * @mgr: the manager
 * @filter: the filter hash to publish; receives the one it replaces
 * @notr: the notrace hash to publish; receives the one it replaces
 */
void ftrace_subops_swap(struct ftrace_ops *mgr, struct ftrace_hash **filter,
			struct ftrace_hash **notr)
{
	struct ftrace_hash *f = ftrace_ops_hash_locked(mgr, false);
	struct ftrace_hash *nt = ftrace_ops_hash_locked(mgr, true);

	rcu_assign_pointer(mgr->func_hash->filter_hash, *filter);
	rcu_assign_pointer(mgr->func_hash->notrace_hash, *notr);
	*filter = f;
	*notr = nt;
}

/**
 * ftrace_subops_hash_changed - rebuild the managers of users of @hashes
 * @hashes: the hashes that were just given a new filter or notrace hash
 *
 * Called with ftrace_lock held, before the update that publishes the
 * change to the sites (the caller runs it when this returns 1).
 *
 * Return: 1 if a manager's hashes changed, 0 if no user has @hashes, or
 * -ENOMEM (managers rebuilt before the failure keep their new hashes:
 * the caller restores @hashes and calls again).
 */
int ftrace_subops_hash_changed(struct ftrace_ops_hash *hashes)
{
	struct ftrace_hash *f, *nt;
	struct ftrace_ops *sub;
	int i, changed = 0;

	lockdep_assert_held(&ftrace_lock);
	for (i = 0; i < MAX_MANAGERS; i++) {
		if (!managers[i])
			continue;
		list_for_each_entry(sub, &managers[i]->subop_list, list)
			if (sub->func_hash == hashes)
				break;
		if (list_entry_is_head(sub, &managers[i]->subop_list, list))
			continue;
		if (ftrace_subops_build(managers[i], &f, &nt))
			return -ENOMEM;
		ftrace_subops_swap(managers[i], &f, &nt);
		ftrace_hash_free_rcu(f);
		ftrace_hash_free_rcu(nt);
		changed = 1;
	}
	return changed;
}
