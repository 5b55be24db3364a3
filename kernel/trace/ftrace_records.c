// SPDX-License-Identifier: GPL-2.0
/*
 * Call-site records.
 *
 * Each traceable function has one record: where its profiling call is and
 * what that call currently does.  Records come from the __mcount_loc tables
 * that recordmcount writes (vmlinux at boot, each module at load).  They are
 * kept in blocks of eight-byte entries (struct ftrace_rec), sorted by
 * address, so a lookup is a walk over a few dozen block ranges and a binary
 * search inside one block.
 *
 * Lifetime.  Blocks hang off one RCU list.  Adding text appends blocks;
 * removing text (module unload, freed init sections) unlinks blocks or
 * replaces them with trimmed copies, and frees the old ones only after a
 * grace period, so a lookup under rcu_read_lock() never sees freed memory.
 * All changes happen under ftrace_lock.
 */
#include <linux/bsearch.h>
#include <linux/ftrace_kbase.h>
#include <linux/kallsyms.h>
#include <linux/memory.h>
#include <linux/mm.h>
#include <linux/module.h>
#ifdef FTRACE_KBASE_612
#include <linux/module_symbol.h>
#endif
#include <linux/sched/clock.h>
#include <asm/sections.h>
#include <linux/slab.h>
#include <linux/sort.h>

#include "ftrace_core.h"

struct ftrace_block __rcu *ftrace_blocks;

/* Statistics for dyn_ftrace_total_info. */
unsigned long ftrace_update_tot_cnt;
unsigned long ftrace_number_of_pages;
unsigned long ftrace_number_of_groups;
/* Time spent turning fresh sites into NOPs: at boot, and for modules. */
u64 ftrace_update_time;
u64 ftrace_total_mod_time;
static unsigned long record_bytes;
/* Bumped whenever module records go (ftrace_mod_walk_name()). */
static unsigned long ftrace_mod_gen;

#define BLOCK_RECS \
	((PAGE_SIZE - sizeof(struct ftrace_block)) / sizeof(struct ftrace_rec))

static struct ftrace_block *block_alloc(unsigned int nrecs, gfp_t gfp)
{
	size_t size = struct_size((struct ftrace_block *)NULL, recs, nrecs);
	struct ftrace_block *b = kzalloc(size, gfp);

	if (b) {
		record_bytes += ksize(b);
		ftrace_number_of_pages += DIV_ROUND_UP(ksize(b), PAGE_SIZE);
		ftrace_number_of_groups++;
	}
	return b;
}

/* Statistics: a block leaves them when it leaves the list (or is dropped). */
static void block_unaccount(struct ftrace_block *b)
{
	record_bytes -= ksize(b);
	ftrace_number_of_pages -= DIV_ROUND_UP(ksize(b), PAGE_SIZE);
	ftrace_number_of_groups--;
}

static void block_free(struct ftrace_block *b)
{
	block_unaccount(b);
	kfree(b);
}

/**
 * ftrace_nr_records - the number of call-site records
 *
 * Return: how many records exist now (vmlinux and loaded modules).
 */
unsigned long ftrace_nr_records(void)
{
	struct ftrace_block *b;
	unsigned long n = 0;

	rcu_read_lock();
	for_each_ftrace_block(b)
		n += b->count;
	rcu_read_unlock();
	return n;
}

/* Bytes of record storage per record, in hundredths (for the boot line). */
unsigned long ftrace_record_bytes_x100(void)
{
	unsigned long n = ftrace_nr_records();

	return n ? record_bytes * 100 / n : 0;
}

static int cmp_rec(const void *key, const void *elt)
{
	unsigned long off = *(const unsigned long *)key;
	const struct ftrace_rec *r = elt;

	if (off < r->off)
		return -1;
	return off > r->off;
}

static bool block_covers(const struct ftrace_block *b, unsigned long ip)
{
	return b->count && ip >= b->base &&
	       ip <= ftrace_rec_ip(b, &b->recs[b->count - 1]);
}

/**
 * ftrace_find_rec - the record of the call site at @ip
 * @ip: exact call-site address
 * @bp: if not NULL, receives the record's block
 *
 * The caller holds ftrace_lock or rcu_read_lock().
 *
 * Return: the record, or NULL if @ip is not a call site.
 */
struct ftrace_rec *ftrace_find_rec(unsigned long ip, struct ftrace_block **bp)
{
	struct ftrace_block *b;
	struct ftrace_rec *r;

	for_each_ftrace_block(b) {
		r = ftrace_block_find(b, ip);
		if (r && bp)
			*bp = b;
		if (r)
			return r;
	}
	return NULL;
}

/**
 * ftrace_block_find - the record of @ip in block @b
 * @b: a block
 * @ip: exact call-site address
 *
 * Return: the record, or NULL.
 */
struct ftrace_rec *ftrace_block_find(struct ftrace_block *b, unsigned long ip)
{
	unsigned long off;

	if (!block_covers(b, ip))
		return NULL;
	off = ip - b->base;
	return bsearch(&off, b->recs, b->count, sizeof(struct ftrace_rec),
		       cmp_rec);
}

/* The first record of @b at or after @ip (b->count if none). */
static unsigned int first_at_or_after(const struct ftrace_block *b,
				      unsigned long ip)
{
	unsigned int lo = 0, hi = b->count;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (ftrace_rec_ip(b, &b->recs[mid]) < ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/**
 * ftrace_location_range - the lowest call site in [@start, @end]
 * @start: first address of the range
 * @end: last address of the range (inclusive)
 *
 * Return: the call-site address, or 0 if the range holds none.
 */
unsigned long ftrace_location_range(unsigned long start, unsigned long end)
{
	unsigned long found = 0, ip;
	struct ftrace_block *b;
	unsigned int i;

	rcu_read_lock();
	for_each_ftrace_block(b) {
		if (!b->count || end < b->base ||
		    start > ftrace_rec_ip(b, &b->recs[b->count - 1]))
			continue;
		i = first_at_or_after(b, start);
		if (i == b->count)
			continue;
		ip = ftrace_rec_ip(b, &b->recs[i]);
		if (ip <= end && (!found || ip < found))
			found = ip;
	}
	rcu_read_unlock();
	return found;
}

/**
 * ftrace_location - the call site of the function at @ip
 * @ip: a call-site address, or the start address of a function
 *
 * A function's call site need not be its first instruction (an ENDBR or a
 * frame setup may come first), so a function's start address maps to the
 * call site inside it.
 *
 * Return: the call-site address, or 0 if there is none.
 */
unsigned long ftrace_location(unsigned long ip)
{
	unsigned long size, offset;
	unsigned long loc;

	loc = ftrace_location_range(ip, ip);
	if (loc)
		return loc;
	if (!kallsyms_lookup_size_offset(ip, &size, &offset) || offset || !size)
		return 0;
	return ftrace_location_range(ip, ip + size - 1);
}

/**
 * ftrace_text_reserved - does [@start, @end] hold a call site?
 * @start: first byte
 * @end: last byte (inclusive)
 *
 * Other code patchers (kprobes, jump labels) must leave call sites alone.
 *
 * Return: 1 if the range holds a call site, 0 otherwise.
 */
int ftrace_text_reserved(const void *start, const void *end)
{
	return ftrace_location_range((unsigned long)start,
				     (unsigned long)end) != 0;
}

static int cmp_ulong(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a;
	unsigned long y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

static bool is_sorted(const unsigned long *p, unsigned long n)
{
	unsigned long i;

	for (i = 1; i < n; i++)
		if (p[i] < p[i - 1])
			return false;
	return true;
}

static void module_init_text(struct module *mod, unsigned long *lo,
			     unsigned long *hi)
{
	unsigned long text_lo, text_hi;

	ftrace_module_text(mod, &text_lo, &text_hi, lo, hi);
}

/*
 * The init text of @mod (of vmlinux if NULL): [*lo, *hi).  It is freed on
 * its own, and no block holds records of it and of other text, so freeing
 * it drops whole blocks (ftrace_records_remove()) and needs no memory.
 */
static void init_range(struct module *mod, unsigned long *lo,
		       unsigned long *hi)
{
	if (mod) {
		module_init_text(mod, lo, hi);
		return;
	}
	*lo = (unsigned long)__init_begin;
	*hi = (unsigned long)__init_end;
}

/* The first entry of the sorted @tab[0..@n) whose site is at @addr or above. */
static unsigned long first_at(const unsigned long *tab, unsigned long n,
			      unsigned long addr)
{
	unsigned long lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (ftrace_call_adjust(tab[mid]) < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/**
 * ftrace_blocks_build - records for an address table, not yet published
 * @mod: the module the table belongs to, NULL for vmlinux
 * @start: first entry of the table (sorted in place if needed)
 * @end: one past the last entry
 *
 * Zero entries are records recordmcount cancelled (dead copies of
 * overridden weak functions), or that the boot found outside vmlinux's
 * text (ftrace_init.c); duplicates are dropped.  Module records
 * start out disabled.  Init text and the rest never share a block.
 *
 * Return: a chain of blocks linked through ->next, NULL for an empty
 * table, or ERR_PTR(-ENOMEM).
 */
struct ftrace_block *ftrace_blocks_build(struct module *mod,
					 unsigned long *start,
					 unsigned long *end)
{
	unsigned long n = end - start, i, ip, prev = 0, bend = 0, cut[2];
	struct ftrace_block *head = NULL, **tail = &head, *b = NULL;
	u32 flags = mod ? FTRACE_FL_DISABLED : 0;

	if (!is_sorted(start, n))
		sort(start, n, sizeof(*start), cmp_ulong, NULL);
	/* Entries [cut[0], cut[1]) are init text (init_range()). */
	init_range(mod, &cut[0], &cut[1]);
	cut[0] = first_at(start, n, cut[0]);
	cut[1] = first_at(start, n, cut[1]);
	for (i = 0; i < n; i++) {
		if (!start[i])
			continue;
		ip = ftrace_call_adjust(start[i]);
		if (ip == prev)
			continue;
		prev = ip;
		/* A block takes entries [i, bend): up to a cut, a page. */
		if (!b || i >= bend || ip - b->base > U32_MAX) {
			bend = i < cut[0] ? cut[0] : i < cut[1] ? cut[1] : n;
			bend = min(bend, i + BLOCK_RECS);
			b = block_alloc(bend - i, GFP_KERNEL);
			if (!b)
				goto nomem;
			b->base = ip;
			b->mod = mod;
			*tail = b;
			tail = (struct ftrace_block **)&b->next;
		}
		b->recs[b->count].off = ip - b->base;
		b->recs[b->count].flags = flags;
		b->count++;
	}
	return head;
nomem:
	ftrace_blocks_free(head);
	return ERR_PTR(-ENOMEM);
}

/**
 * ftrace_blocks_free - free an unpublished chain of blocks
 * @chain: the chain from ftrace_blocks_build(), may be NULL
 */
void ftrace_blocks_free(struct ftrace_block *chain)
{
	struct ftrace_block *next;

	while (chain) {
		next = rcu_dereference_raw(chain->next);
		block_free(chain);
		chain = next;
	}
}

/* Publish a chain of blocks at the end of the list (ftrace_lock held). */
void ftrace_blocks_publish(struct ftrace_block *chain)
{
	struct ftrace_block __rcu **link = &ftrace_blocks;
	struct ftrace_block *b;

	lockdep_assert_held(&ftrace_lock);
	while ((b = rcu_dereference_protected(*link,
					      lockdep_is_held(&ftrace_lock))))
		link = &b->next;
	rcu_assign_pointer(*link, chain);
}

static void block_free_rcu(struct rcu_head *head)
{
	kfree(container_of(head, struct ftrace_block, rcu));
}

/*
 * Remove the records of @mod in [@start, @end): blocks entirely inside go,
 * blocks partly inside are replaced by trimmed copies.  Old blocks are freed
 * after a grace period.  The kernel's callers remove a whole module or a
 * part of text no block shares (init_range()), so they never need a copy.
 */
void ftrace_records_remove(struct module *mod, unsigned long start,
			   unsigned long end)
{
	struct ftrace_block __rcu **link = &ftrace_blocks;
	struct ftrace_block *b, *copy;
	unsigned int i, keep;

	lockdep_assert_held(&ftrace_lock);
	if (mod)
		ftrace_mod_gen++;
	while ((b = rcu_dereference_protected(*link,
					      lockdep_is_held(&ftrace_lock)))) {
		keep = 0;
		for (i = 0; i < b->count; i++)
			if (ftrace_rec_ip(b, &b->recs[i]) < start ||
			    ftrace_rec_ip(b, &b->recs[i]) >= end)
				keep++;
		if (b->mod != mod || keep == b->count) {
			link = &b->next;
			continue;
		}
		/*
		 * Only a range that cuts through a part of text gets here.
		 * Its text is freed next, so removal must not fail: a trimmed
		 * copy is at most one page, which the page allocator may be
		 * told never to fail.
		 */
		copy = keep ? block_alloc(keep, GFP_KERNEL | __GFP_NOFAIL) : NULL;
		if (copy) {
			copy->base = b->base;
			copy->mod = b->mod;
			for (i = 0; i < b->count; i++)
				if (ftrace_rec_ip(b, &b->recs[i]) < start ||
				    ftrace_rec_ip(b, &b->recs[i]) >= end)
					copy->recs[copy->count++] = b->recs[i];
			RCU_INIT_POINTER(copy->next, b->next);
			rcu_assign_pointer(*link, copy);
			link = &copy->next;
		} else {
			rcu_assign_pointer(*link, b->next);
		}
		ftrace_update_tot_cnt -= b->count - keep;
		block_unaccount(b);
		call_rcu(&b->rcu, block_free_rcu);
	}
}

#ifdef CONFIG_MODULES
/*
 * Names of freed module init text.
 *
 * Trace entries of a module's init functions outlive the init text, and
 * kallsyms forgets those names when the init sections are freed.  Just
 * before that, the core keeps the name and extent of every init function
 * that has a record, one sorted table per module, until the module goes.
 * Readers (kallsyms, printing a trace) walk the tables under RCU.
 */
struct init_sym {
	unsigned long addr;
	unsigned long size;
	const char *name;
};

struct init_names {
	struct list_head list;		/* in init_name_tables, RCU */
	struct module *mod;
	unsigned int count;
	struct rcu_head rcu;
	char modname[MODULE_NAME_LEN];
	struct init_sym syms[];		/* sorted by address; names follow */
};

static LIST_HEAD(init_name_tables);

/* The function around @ip: its start, size and name; false if unnamed. */
static bool init_fn_at(unsigned long ip, struct init_sym *sym, char *buf)
{
	unsigned long size, off;
	char *modname;

	if (!kallsyms_lookup(ip, &size, &off, &modname, buf))
		return false;
	sym->addr = ip - off;
	sym->size = size;
	return true;
}

/* Count the named records of @mod in [start, end) and their name bytes. */
static unsigned int init_names_count(struct module *mod, unsigned long start,
				     unsigned long end, size_t *bytes)
{
	char buf[KSYM_NAME_LEN];
	struct ftrace_block *b;
	struct init_sym sym;
	unsigned long ip;
	unsigned int i, n = 0;

	*bytes = 0;
	for_each_ftrace_block(b) {
		if (b->mod != mod)
			continue;
		for (i = 0; i < b->count; i++) {
			ip = ftrace_rec_ip(b, &b->recs[i]);
			if (ip < start || ip >= end || !init_fn_at(ip, &sym, buf))
				continue;
			n++;
			*bytes += strlen(buf) + 1;
		}
	}
	return n;
}

static int cmp_init_sym(const void *a, const void *b)
{
	const struct init_sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Keep the names of @mod's init functions in [start, end) (best effort). */
void ftrace_init_names_save(struct module *mod, unsigned long start,
			    unsigned long end)
{
	char buf[KSYM_NAME_LEN], *names;
	struct ftrace_block *b;
	struct init_names *t;
	unsigned int i, n;
	unsigned long ip;
	size_t bytes, len;

	lockdep_assert_held(&ftrace_lock);
	n = init_names_count(mod, start, end, &bytes);
	if (!n)
		return;
	t = kzalloc(struct_size(t, syms, n) + bytes, GFP_KERNEL);
	if (!t)
		return;
	t->mod = mod;
	strscpy(t->modname, mod->name, sizeof(t->modname));
	names = (char *)&t->syms[n];
	for_each_ftrace_block(b) {
		if (b->mod != mod)
			continue;
		for (i = 0; i < b->count && t->count < n; i++) {
			ip = ftrace_rec_ip(b, &b->recs[i]);
			if (ip < start || ip >= end ||
			    !init_fn_at(ip, &t->syms[t->count], buf))
				continue;
			len = strlen(buf) + 1;
			memcpy(names, buf, len);
			t->syms[t->count++].name = names;
			names += len;
		}
	}
	sort(t->syms, t->count, sizeof(t->syms[0]), cmp_init_sym, NULL);
	list_add_tail_rcu(&t->list, &init_name_tables);
}

void ftrace_init_names_drop(struct module *mod)
{
	struct init_names *t, *n;

	lockdep_assert_held(&ftrace_lock);
	list_for_each_entry_safe(t, n, &init_name_tables, list) {
		if (t->mod != mod)
			continue;
		list_del_rcu(&t->list);
		kfree_rcu(t, rcu);
	}
}

static const struct init_sym *init_sym_find(struct init_names *t,
					    unsigned long addr)
{
	unsigned int lo = 0, hi = t->count, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (addr < t->syms[mid].addr)
			hi = mid;
		else if (addr >= t->syms[mid].addr + t->syms[mid].size)
			lo = mid + 1;
		else
			return &t->syms[mid];
	}
	return NULL;
}

/**
 * ftrace_init_name_lookup - name an address in freed module init text
 * @addr: the address
 * @size: receives the function's size (may be NULL)
 * @off: receives @addr's offset in it (may be NULL)
 * @modname: receives the module name (may be NULL)
 * @sym: KSYM_NAME_LEN buffer for the function name
 *
 * Return: @sym, or NULL if @addr was in no traced module's init function.
 */
const char *ftrace_init_name_lookup(unsigned long addr, unsigned long *size,
				    unsigned long *off, char **modname,
				    char *sym)
{
	const struct init_sym *s = NULL;
	struct init_names *t;

	rcu_read_lock();
	list_for_each_entry_rcu(t, &init_name_tables, list) {
		s = init_sym_find(t, addr);
		if (!s)
			continue;
		if (size)
			*size = s->size;
		if (off)
			*off = addr - s->addr;
		if (modname)
			*modname = t->modname;
		strscpy(sym, s->name, KSYM_NAME_LEN);
		break;
	}
	rcu_read_unlock();
	return s ? sym : NULL;
}

/**
 * ftrace_init_name_symbol - the @symnum-th kept init function, for kallsyms
 * @symnum: index over every kept name
 * @value: receives its address
 * @name: KSYM_NAME_LEN buffer for its name
 * @module_name: MODULE_NAME_LEN buffer for its module's name
 *
 * Return: 0, or -ERANGE past the last one.
 */
int ftrace_init_name_symbol(unsigned int symnum, unsigned long *value,
			    char *name, char *module_name)
{
	struct init_names *t;
	int ret = -ERANGE;

	rcu_read_lock();
	list_for_each_entry_rcu(t, &init_name_tables, list) {
		if (symnum >= t->count) {
			symnum -= t->count;
			continue;
		}
		*value = t->syms[symnum].addr;
		strscpy(name, t->syms[symnum].name, KSYM_NAME_LEN);
		strscpy(module_name, t->modname, MODULE_NAME_LEN);
		ret = 0;
		break;
	}
	rcu_read_unlock();
	return ret;
}

#else
/* Without modules there is no init text of a module to name. */
void ftrace_init_names_save(struct module *mod, unsigned long start,
			    unsigned long end)
{
}

const char *ftrace_init_name_lookup(unsigned long addr, unsigned long *size,
				    unsigned long *off, char **modname,
				    char *sym)
{
	return NULL;
}

int ftrace_init_name_symbol(unsigned int symnum, unsigned long *value,
			    char *name, char *module_name)
{
	return -ERANGE;
}
#endif /* CONFIG_MODULES */

/*
 * Names of module records, in address order.
 *
 * kallsyms names a module address by a pass over every symbol of the
 * module (find_kallsyms_symbol()), so naming each record of a module of n
 * functions that way costs n passes.  A listing or a glob names a
 * module's records in ascending order instead: the module's symbols are
 * sorted by address once, and each name is then a step forward in that
 * order (a binary search when the address goes back).  The choice of
 * symbol is kallsyms' own: the nearest at or below the address, of those
 * with a name that is not a mapping symbol, the first in the symbol
 * table of several at one address; on 6.1 built with clang LTO, LLVM's
 * ".llvm." suffix cut off, as kallsyms_lookup() does there.
 *
 * The sorted table holds addresses and symbol numbers, not pointers into
 * the symbol table, which is read only with preemption off, as kallsyms
 * reads it: a module's table changes once, when its init sections go.  A
 * walk remembers the module, its table and ftrace_mod_gen, which every
 * removal of module records bumps: a walk is rebuilt when any of them
 * changed, so a module unloaded and another loaded at the same address
 * between two read(2) calls of a listing is not named from the old table.
 */
#if defined(CONFIG_MODULES) && defined(CONFIG_KALLSYMS)
struct ftrace_mod_sym {
	unsigned long addr;
	unsigned int idx;
};

/*
 * What kallsyms makes of a module's symbols differs between the bases
 * (kernel/module/kallsyms.c, find_kallsyms_symbol()): which names it
 * passes over, whether the symbol must lie in the address's own memory
 * region, and 6.1's cut of LLVM's suffix (kallsyms_lookup()).
 */
#ifdef FTRACE_KBASE_612
static bool mod_sym_skipped(const char *name)
{
	return !name[0] || is_mapping_symbol(name);
}

/* 6.12 names @ip only by a symbol in @ip's own region of @mod. */
static bool mod_sym_in_region(struct module *mod, unsigned long ip,
			      unsigned long addr)
{
	for_each_mod_mem_type(type) {
		if (!IS_ENABLED(CONFIG_KALLSYMS_ALL) &&
		    !mod_mem_type_is_text(type))
			continue;
		if (within_module_mem_type(ip, mod, type))
			return addr >= (unsigned long)mod->mem[type].base;
	}
	return false;
}

static void mod_sym_cleanup(char *name)
{
}
#else
/* ".L" labels, arm's mapping symbols "$a", "$d", "$t", "$x" (and "$"). */
static bool mod_sym_skipped(const char *name)
{
	if (!name[0] || (name[0] == '.' && name[1] == 'L'))
		return true;
	return name[0] == '$' &&
	       (!name[1] || (strchr("axtd", name[1]) &&
			     (!name[2] || name[2] == '.')));
}

static bool mod_sym_in_region(struct module *mod, unsigned long ip,
			      unsigned long addr)
{
	return true;
}

static void mod_sym_cleanup(char *name)
{
	char *cut;

	if (IS_ENABLED(CONFIG_LTO_CLANG) && strchr(name, '.')) {
		cut = strstr(name, ".llvm.");
		if (cut)
			*cut = '\0';
	}
}
#endif

static int cmp_mod_sym(const void *a, const void *b)
{
	const struct ftrace_mod_sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/*
 * Sort the symbols of @mod into @w.  Out of memory, @w is left empty for
 * this module and table, so that each record does not try again.
 */
static void mod_walk_build(struct ftrace_mod_walk *w, struct module *mod)
{
	const struct mod_kallsyms *ks;
	struct ftrace_mod_sym *s = NULL;
	unsigned int i, n = 0, kept = 0, cap;
	unsigned long floor, v;
	const Elf_Sym *sym;

	ftrace_mod_walk_free(w);
	preempt_disable();
	ks = rcu_dereference_sched(mod->kallsyms);
	cap = ks ? ks->num_symtab : 0;
	preempt_enable();
	if (cap)
		s = kvmalloc_array(cap, sizeof(*s), GFP_KERNEL);
	preempt_disable();
	ks = rcu_dereference_sched(mod->kallsyms);
	/* The table only shrinks (init symbols dropped); else name nothing. */
	if (s && ks && ks->num_symtab && ks->num_symtab <= cap) {
		floor = kallsyms_symbol_value(&ks->symtab[0]);
		for (i = 1; i < ks->num_symtab; i++) {
			sym = &ks->symtab[i];
			v = kallsyms_symbol_value(sym);
			if (sym->st_shndx == SHN_UNDEF || v <= floor ||
			    mod_sym_skipped(ks->strtab + sym->st_name))
				continue;
			s[n].addr = v;
			s[n++].idx = i;
		}
	}
	preempt_enable();
	/* Sorted outside the preempt-off section: copies, not pointers. */
	sort(s, n, sizeof(*s), cmp_mod_sym, NULL);
	/* Of several symbols at one address, the first in the table. */
	for (i = 0; i < n; i++)
		if (!kept || s[i].addr != s[kept - 1].addr)
			s[kept++] = s[i];
	w->mod = mod;
	w->ks = ks;
	w->gen = ftrace_mod_gen;
	w->syms = s;
	w->count = kept;
	w->pos = 0;
}

/* The last symbol of @w at or below @ip, or -1. */
static int mod_walk_find(struct ftrace_mod_walk *w, unsigned long ip)
{
	const struct ftrace_mod_sym *s = w->syms;
	unsigned int lo = 0, hi = w->count, mid, end;

	if (!w->count || ip < s[0].addr)
		return -1;
	/* Mostly the next record's function: a few steps forward. */
	if (w->pos < w->count && s[w->pos].addr <= ip) {
		lo = w->pos;
		end = min(lo + 8, w->count);
		while (lo + 1 < end && s[lo + 1].addr <= ip)
			lo++;
		if (lo + 1 == w->count || s[lo + 1].addr > ip)
			goto found;
	}
	/* s[lo].addr <= ip < s[hi].addr, s[count] standing for the end */
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (s[mid].addr <= ip)
			lo = mid;
		else
			hi = mid;
	}
found:
	w->pos = lo;
	return lo;
}

/**
 * ftrace_mod_walk_name - name a record of a module, records taken in order
 * @w: the walk, zeroed before the first call; ftrace_mod_walk_free() ends it
 * @mod: the module whose text holds @ip
 * @ip: the record's address
 * @buf: KSYM_NAME_LEN bytes for the name
 *
 * Called with ftrace_lock held (so @mod stays).
 *
 * Return: @buf, or NULL if the walk cannot name @ip (the caller asks
 * kallsyms_lookup() then).
 */
const char *ftrace_mod_walk_name(struct ftrace_mod_walk *w,
				 struct module *mod, unsigned long ip,
				 char *buf)
{
	const struct mod_kallsyms *ks;
	const struct ftrace_mod_sym *s;
	const char *name = NULL;
	int i;

	lockdep_assert_held(&ftrace_lock);
	preempt_disable();
	ks = rcu_dereference_sched(mod->kallsyms);
	preempt_enable();
	if (w->mod != mod || w->ks != ks || w->gen != ftrace_mod_gen)
		mod_walk_build(w, mod);
	preempt_disable();
	ks = rcu_dereference_sched(mod->kallsyms);
	/* Its init sections went after the walk was sorted: next time. */
	if (ks && ks == w->ks) {
		i = mod_walk_find(w, ip);
		s = i < 0 ? NULL : &w->syms[i];
		if (s && mod_sym_in_region(mod, ip, s->addr))
			name = ks->strtab + ks->symtab[s->idx].st_name;
		if (name)
			strscpy(buf, name, KSYM_NAME_LEN);
	}
	preempt_enable();
	if (!name)
		return NULL;
	mod_sym_cleanup(buf);
	return buf;
}

/**
 * ftrace_mod_walk_free - end a walk of ftrace_mod_walk_name()
 * @w: the walk; zeroed again, so it may be used anew
 */
void ftrace_mod_walk_free(struct ftrace_mod_walk *w)
{
	kvfree(w->syms);
	memset(w, 0, sizeof(*w));
}

#else
const char *ftrace_mod_walk_name(struct ftrace_mod_walk *w,
				 struct module *mod, unsigned long ip,
				 char *buf)
{
	return NULL;
}

void ftrace_mod_walk_free(struct ftrace_mod_walk *w)
{
}
#endif
