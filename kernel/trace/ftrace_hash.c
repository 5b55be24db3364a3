// SPDX-License-Identifier: GPL-2.0
/*
 * Sets of instruction pointers.
 *
 * An ftrace_hash is the set of functions an ops traces (filter) or skips
 * (notrace); the layout is shared with trace.h, whose inline graph filter
 * reads it.  A hash that is in use by a registered ops is never edited:
 * writers build a copy, publish it with rcu_assign_pointer() and free the
 * old one after a grace period that also covers callers running where RCU
 * is not watching (synchronize_rcu_tasks_rude(), in batches).
 *
 * The func mapper, used by function probes, is a hash whose entries carry
 * one data pointer each.
 */
#include <linux/hash.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <linux/ftrace.h>

#include "ftrace_core.h"

/* The hash every ops without a filter of its own points to. */
struct ftrace_hash ftrace_empty_hash;

static unsigned long bucket_of(const struct ftrace_hash *hash,
			       unsigned long ip)
{
	return hash->size_bits ? hash_long(ip, hash->size_bits) : 0;
}

/**
 * ftrace_lookup_ip - find @ip in @hash
 * @hash: the set, may be NULL or empty
 * @ip: the address of a call site
 *
 * Safe in traced context when the caller keeps @hash alive (preemption off
 * while the hash is published).
 *
 * Return: the entry for @ip, or NULL.
 */
struct ftrace_func_entry *ftrace_lookup_ip(struct ftrace_hash *hash,
					   unsigned long ip)
{
	struct ftrace_func_entry *e;

	if (!hash || !hash->count)
		return NULL;
	hlist_for_each_entry_rcu_notrace(e, &hash->buckets[bucket_of(hash, ip)],
					 hlist)
		if (e->ip == ip)
			return e;
	return NULL;
}

struct ftrace_hash *ftrace_hash_alloc(int size_bits)
{
	struct ftrace_hash *hash;

	size_bits = clamp(size_bits, 0, FTRACE_HASH_MAX_BITS);
	hash = kzalloc(sizeof(*hash), GFP_KERNEL);
	if (!hash)
		return NULL;
	hash->buckets = kcalloc(1UL << size_bits, sizeof(*hash->buckets),
				GFP_KERNEL);
	if (!hash->buckets) {
		kfree(hash);
		return NULL;
	}
	hash->size_bits = size_bits;
	return hash;
}

static void hash_insert(struct ftrace_hash *hash, struct ftrace_func_entry *e)
{
	hlist_add_head_rcu(&e->hlist, &hash->buckets[bucket_of(hash, e->ip)]);
	hash->count++;
}

/*
 * Give a private hash four times the buckets once it holds more than four
 * entries a bucket, so that filling a copy of a small hash (one name, then
 * "*") stays linear.  A failed allocation leaves the table as it was: the
 * hash is still correct, only slower.
 */
static void hash_grow(struct ftrace_hash *hash)
{
	int bits = min(hash->size_bits + 2, FTRACE_HASH_MAX_BITS);
	struct hlist_head *old = hash->buckets;
	unsigned long i, n = 1UL << hash->size_bits;
	struct ftrace_func_entry *e;
	struct hlist_node *tmp;

	if (bits == hash->size_bits)
		return;
	/* Failing is harmless: the hash keeps its table.  No warning. */
	hash->buckets = kcalloc(1UL << bits, sizeof(*old),
				GFP_KERNEL | __GFP_NOWARN);
	if (!hash->buckets) {
		hash->buckets = old;
		return;
	}
	hash->size_bits = bits;
	hash->count = 0;
	for (i = 0; i < n; i++)
		hlist_for_each_entry_safe(e, tmp, &old[i], hlist)
			hash_insert(hash, e);
	kfree(old);
}

/**
 * ftrace_hash_add - add @ip to @hash unless it is there already
 * @hash: a hash not yet visible to traced code, and not being walked by
 *	  the caller (a full table is rehashed)
 * @ip: the address to add
 *
 * Return: 0, or -ENOMEM.
 */
int ftrace_hash_add(struct ftrace_hash *hash, unsigned long ip)
{
	struct ftrace_func_entry *e;

	if (ftrace_lookup_ip(hash, ip))
		return 0;
	e = kmalloc(sizeof(*e), GFP_KERNEL);
	if (!e)
		return -ENOMEM;
	e->ip = ip;
	e->direct = 0;
	hash_insert(hash, e);
	if (hash->count > (4UL << hash->size_bits))
		hash_grow(hash);
	return 0;
}

void ftrace_hash_del(struct ftrace_hash *hash, struct ftrace_func_entry *e)
{
	hlist_del(&e->hlist);
	hash->count--;
	kfree(e);
}

/**
 * ftrace_hash_add_all - add every address of @src to @dst
 * @dst: a private hash being edited (addresses it has are skipped)
 * @src: the addresses to add (NULL or empty adds nothing)
 *
 * Return: 0, or -ENOMEM (@dst then holds some of them).
 */
int ftrace_hash_add_all(struct ftrace_hash *dst, struct ftrace_hash *src)
{
	struct ftrace_func_entry *e;
	unsigned long i;

	if (ftrace_hash_empty(src))
		return 0;
	for_each_hash_entry(src, i, e)
		if (ftrace_hash_add(dst, e->ip))
			return -ENOMEM;
	return 0;
}

/**
 * ftrace_hash_keep - keep in @hash only the addresses @other has, or lacks
 * @hash: a private hash being edited
 * @other: the hash to compare with (NULL counts as empty)
 * @in_other: keep what @other holds (true) or what it does not (false)
 */
void ftrace_hash_keep(struct ftrace_hash *hash, struct ftrace_hash *other,
		      bool in_other)
{
	struct ftrace_func_entry *e;
	struct hlist_node *tmp;
	unsigned long i;

	if (!hash || hash == &ftrace_empty_hash)
		return;
	for (i = 0; i < (1UL << hash->size_bits); i++)
		hlist_for_each_entry_safe(e, tmp, &hash->buckets[i], hlist)
			if (!ftrace_lookup_ip(other, e->ip) == in_other)
				ftrace_hash_del(hash, e);
}

void ftrace_hash_clear(struct ftrace_hash *hash)
{
	struct ftrace_func_entry *e;
	struct hlist_node *tmp;
	unsigned long i;

	if (!hash || hash == &ftrace_empty_hash)
		return;
	for (i = 0; hash->count && i < (1UL << hash->size_bits); i++)
		hlist_for_each_entry_safe(e, tmp, &hash->buckets[i], hlist)
			ftrace_hash_del(hash, e);
	hash->flags = 0;
}

void ftrace_hash_free(struct ftrace_hash *hash)
{
	if (!hash || hash == &ftrace_empty_hash)
		return;
	ftrace_hash_clear(hash);
	kfree(hash->buckets);
	kfree(hash);
}

/*
 * Hashes that traced code may still be reading, linked through their
 * rcu_head, wait here for the reaper: a work item that runs a little
 * after the first of them comes, waits for one grace period for all of
 * them and frees them.  Publishing a filter thus neither starts a grace
 * period nor wakes the RCU-tasks kthread there and then (on one CPU that
 * kthread would run before the write returns), and a burst of filter
 * writes shares one grace period.
 */
static DEFINE_SPINLOCK(graveyard_lock);
static struct callback_head *graveyard;

static void hash_reap(struct work_struct *work)
{
	struct callback_head *list, *next;

	spin_lock(&graveyard_lock);
	list = graveyard;
	graveyard = NULL;
	spin_unlock(&graveyard_lock);
	synchronize_rcu_tasks_rude();
	for (; list; list = next) {
		next = list->next;
		ftrace_hash_free(container_of(list, struct ftrace_hash, rcu));
	}
}

static DECLARE_DELAYED_WORK(hash_reaper, hash_reap);

/* Free a hash that traced code may still be reading. */
void ftrace_hash_free_rcu(struct ftrace_hash *hash)
{
	if (!hash || hash == &ftrace_empty_hash)
		return;
	/* Boot filters come before workqueues, and before any reader. */
	if (unlikely(!system_unbound_wq)) {
		ftrace_hash_free(hash);
		return;
	}
	spin_lock(&graveyard_lock);
	hash->rcu.next = graveyard;
	graveyard = &hash->rcu;
	spin_unlock(&graveyard_lock);
	queue_delayed_work(system_unbound_wq, &hash_reaper, HZ / 50 + 1);
}

/* Bits for a table that holds @count entries at about two per bucket. */
static int bits_for(unsigned long count)
{
	return count ? fls_long(count / 2) : 0;
}

static struct ftrace_hash *copy_sized(struct ftrace_hash *src, int bits)
{
	struct ftrace_func_entry *e;
	struct ftrace_hash *hash;
	unsigned long i;

	hash = ftrace_hash_alloc(bits);
	if (!hash || !src)
		return hash;
	hash->flags = src->flags;
	if (src == &ftrace_empty_hash)
		return hash;
	for_each_hash_entry(src, i, e) {
		if (ftrace_hash_add(hash, e->ip)) {
			ftrace_hash_free(hash);
			return NULL;
		}
		ftrace_lookup_ip(hash, e->ip)->direct = e->direct;
	}
	return hash;
}

/**
 * ftrace_hash_copy - a private, editable copy of @src
 * @src: the hash to copy; NULL or the empty hash gives an empty copy
 *
 * Return: the copy, or NULL on allocation failure.
 */
struct ftrace_hash *ftrace_hash_copy(struct ftrace_hash *src)
{
	return copy_sized(src, src && src != &ftrace_empty_hash ?
			  src->size_bits : FTRACE_HASH_MAX_BITS / 2);
}

/*
 * A copy of @src sized for its entry count, ready to publish and not to be
 * edited: an empty @src without flags gives the shared empty hash, so
 * that publishing an empty filter allocates nothing and cannot fail.
 */
struct ftrace_hash *ftrace_hash_resized(struct ftrace_hash *src)
{
	if (ftrace_hash_empty(src) && (!src || !src->flags))
		return &ftrace_empty_hash;
	return copy_sized(src, bits_for(src->count));
}

/**
 * ftrace_hash_take_resized - ftrace_hash_resized(), moving the entries
 * @src: a private hash, left empty (its flags kept) unless this fails
 *
 * Only the new table is allocated: publishing a filter of many functions
 * costs no allocation per function.
 *
 * Return: the new hash (the shared empty hash for an empty @src without
 * flags), or NULL with @src unchanged.
 */
struct ftrace_hash *ftrace_hash_take_resized(struct ftrace_hash *src)
{
	struct ftrace_func_entry *e;
	struct ftrace_hash *hash;
	struct hlist_node *tmp;
	unsigned long i;

	if (ftrace_hash_empty(src) && (!src || !src->flags))
		return &ftrace_empty_hash;
	hash = ftrace_hash_alloc(bits_for(src->count));
	if (!hash)
		return NULL;
	hash->flags = src->flags;
	/* (The shared empty hash has no entries and no flags: returned above.) */
	for (i = 0; src->count && i < (1UL << src->size_bits); i++) {
		hlist_for_each_entry_safe(e, tmp, &src->buckets[i], hlist) {
			hlist_del(&e->hlist);
			src->count--;
			hash_insert(hash, e);
		}
	}
	return hash;
}

/* True if @a and @b hold the same addresses (NULL counts as empty). */
bool ftrace_hash_equal(struct ftrace_hash *a, struct ftrace_hash *b)
{
	struct ftrace_func_entry *e;
	unsigned long i;

	if (ftrace_hash_empty(a) || ftrace_hash_empty(b))
		return ftrace_hash_empty(a) == ftrace_hash_empty(b);
	if (a->count != b->count)
		return false;
	for_each_hash_entry(a, i, e)
		if (!ftrace_lookup_ip(b, e->ip))
			return false;
	return true;
}

/*
 * Forget addresses in [start, end) of a published hash, for text that is
 * going away.  Entries are not unlinked (readers may be walking them); the
 * address becomes 0, which no call site has.
 */
void ftrace_hash_drop_range(struct ftrace_hash *hash, unsigned long start,
			    unsigned long end)
{
	struct ftrace_func_entry *e;
	unsigned long i;

	if (ftrace_hash_empty(hash) || hash == &ftrace_empty_hash)
		return;
	for_each_hash_entry(hash, i, e)
		if (e->ip >= start && e->ip < end)
			WRITE_ONCE(e->ip, 0);
}

/* The func mapper: an ftrace_hash whose entries carry a data pointer. */
struct ftrace_func_mapper {
	struct ftrace_hash hash;
};

struct mapper_entry {
	struct ftrace_func_entry entry;
	void *data;
};

#define MAPPER_BITS	10

/**
 * allocate_ftrace_func_mapper - a new, empty ip to data map
 *
 * Return: the map, or NULL on allocation failure.
 */
struct ftrace_func_mapper *allocate_ftrace_func_mapper(void)
{
	/*
	 * Probed functions are looked up in traced context and the map is
	 * never resized: size it for a large glob (1024 buckets, 8 KiB).
	 */
	return (struct ftrace_func_mapper *)ftrace_hash_alloc(MAPPER_BITS);
}

/**
 * ftrace_func_mapper_find_ip - the data slot of @ip
 * @mapper: the map
 * @ip: the address looked up
 *
 * Return: a pointer to the data stored for @ip, or NULL if it has none.
 */
void **ftrace_func_mapper_find_ip(struct ftrace_func_mapper *mapper,
				  unsigned long ip)
{
	struct ftrace_func_entry *e = ftrace_lookup_ip(&mapper->hash, ip);

	return e ? &container_of(e, struct mapper_entry, entry)->data : NULL;
}

/**
 * ftrace_func_mapper_add_ip - store @data for @ip
 * @mapper: the map
 * @ip: the address
 * @data: what to store
 *
 * Return: 0, -EBUSY if @ip already has data, or -ENOMEM.
 */
int ftrace_func_mapper_add_ip(struct ftrace_func_mapper *mapper,
			      unsigned long ip, void *data)
{
	struct mapper_entry *m;

	if (ftrace_lookup_ip(&mapper->hash, ip))
		return -EBUSY;
	m = kmalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return -ENOMEM;
	m->entry.ip = ip;
	m->entry.direct = 0;
	m->data = data;
	hash_insert(&mapper->hash, &m->entry);
	return 0;
}

/* Unlink one mapper entry and hand back what it stored. */
static void *mapper_take(struct ftrace_func_mapper *mapper,
			 struct ftrace_func_entry *e)
{
	struct mapper_entry *m = container_of(e, struct mapper_entry, entry);
	void *data = m->data;

	hlist_del(&e->hlist);
	mapper->hash.count--;
	kfree(m);
	return data;
}

/**
 * ftrace_func_mapper_remove_ip - forget @ip
 * @mapper: the map
 * @ip: the address
 *
 * Return: the data that was stored for @ip, or NULL.
 */
void *ftrace_func_mapper_remove_ip(struct ftrace_func_mapper *mapper,
				   unsigned long ip)
{
	struct ftrace_func_entry *e = ftrace_lookup_ip(&mapper->hash, ip);

	return e ? mapper_take(mapper, e) : NULL;
}

/**
 * free_ftrace_func_mapper - free a map, passing each stored pointer on
 * @mapper: the map, may be NULL
 * @free_func: called with each entry's data first, may be NULL
 */
void free_ftrace_func_mapper(struct ftrace_func_mapper *mapper,
			     ftrace_mapper_func free_func)
{
	struct ftrace_hash *h = mapper ? &mapper->hash : NULL;
	struct ftrace_func_entry *e;
	unsigned long b;
	void *data;

	for (b = 0; h && b < (1UL << h->size_bits); b++) {
		while (!hlist_empty(&h->buckets[b])) {
			e = hlist_entry(h->buckets[b].first,
					struct ftrace_func_entry, hlist);
			data = mapper_take(mapper, e);
			if (free_func)
				free_func(data);
		}
	}
	if (h) {
		kfree(h->buckets);
		kfree(mapper);
	}
}
