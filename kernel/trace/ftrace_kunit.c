// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the dynamic ftrace core's logic: hashes, name matching,
 * records, and the plan/patch engine against a fake arch that patches a
 * buffer instead of kernel text.
 *
 * The fake text is an array of struct fake_site; a site holds either a
 * NOP or a call to an address.  The fake back end reads, compares and
 * writes like a real one: a site that does not hold what the core expects
 * is refused with -EINVAL and left alone.
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/kallsyms.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/syscalls.h>
#include <linux/uaccess.h>
#include <asm/sections.h>

#include "ftrace_update.h"

/* Hashes. */

static void hash_add_lookup_del(struct kunit *test)
{
	struct ftrace_hash *h = ftrace_hash_alloc(4), *c;
	unsigned long ip;

	KUNIT_ASSERT_NOT_NULL(test, h);
	KUNIT_EXPECT_TRUE(test, ftrace_hash_empty(h));
	/* Publishing an empty hash allocates nothing. */
	KUNIT_EXPECT_PTR_EQ(test, ftrace_hash_resized(h), &ftrace_empty_hash);
	KUNIT_EXPECT_PTR_EQ(test, ftrace_hash_resized(NULL), &ftrace_empty_hash);
	for (ip = 0x1000; ip < 0x1000 + 100 * 16; ip += 16)
		KUNIT_EXPECT_EQ(test, ftrace_hash_add(h, ip), 0);
	KUNIT_EXPECT_EQ(test, ftrace_hash_add(h, 0x1000), 0);	/* no dup */
	KUNIT_EXPECT_EQ(test, h->count, 100UL);
	KUNIT_EXPECT_NOT_NULL(test, ftrace_lookup_ip(h, 0x1000 + 99 * 16));
	KUNIT_EXPECT_NULL(test, ftrace_lookup_ip(h, 0x1008));
	ftrace_hash_del(h, ftrace_lookup_ip(h, 0x1010));
	KUNIT_EXPECT_NULL(test, ftrace_lookup_ip(h, 0x1010));
	KUNIT_EXPECT_EQ(test, h->count, 99UL);

	c = ftrace_hash_resized(h);
	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_EXPECT_TRUE(test, ftrace_hash_equal(h, c));
	KUNIT_EXPECT_EQ(test, c->size_bits, (unsigned long)fls_long(99 / 2));
	ftrace_hash_del(c, ftrace_lookup_ip(c, 0x1000));
	KUNIT_EXPECT_FALSE(test, ftrace_hash_equal(h, c));

	ftrace_hash_drop_range(c, 0x1000, 0x1100);
	KUNIT_EXPECT_NULL(test, ftrace_lookup_ip(c, 0x1020));
	KUNIT_EXPECT_NOT_NULL(test, ftrace_lookup_ip(c, 0x1100));
	ftrace_hash_free(c);
	ftrace_hash_free(h);
}

/*
 * Taking a hash moves its entries themselves (their direct targets too)
 * into a table sized for them and leaves it without entries but with its
 * flags; an empty one without flags gives the shared empty hash, with a
 * flag a table of its own.
 */
static void hash_take_moves(struct kunit *test)
{
	struct ftrace_hash *h = ftrace_hash_alloc(6), *ref, *t;
	struct ftrace_func_entry *e;
	unsigned long ip;

	KUNIT_ASSERT_NOT_NULL(test, h);
	KUNIT_EXPECT_PTR_EQ(test, ftrace_hash_take_resized(h), &ftrace_empty_hash);
	KUNIT_EXPECT_PTR_EQ(test, ftrace_hash_take_resized(NULL), &ftrace_empty_hash);
	h->flags |= FTRACE_HASH_FL_MOD;
	t = ftrace_hash_take_resized(h);
	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_EXPECT_PTR_NE(test, t, &ftrace_empty_hash);
	KUNIT_EXPECT_TRUE(test, t->flags & FTRACE_HASH_FL_MOD);
	ftrace_hash_free(t);

	for (ip = 0x2000; ip < 0x2000 + 300 * 8; ip += 8)
		KUNIT_ASSERT_EQ(test, ftrace_hash_add(h, ip), 0);
	e = ftrace_lookup_ip(h, 0x2008);
	e->direct = 0x1234;
	ref = ftrace_hash_resized(h);
	KUNIT_ASSERT_NOT_NULL(test, ref);

	t = ftrace_hash_take_resized(h);
	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_EXPECT_TRUE(test, ftrace_hash_equal(t, ref));
	KUNIT_EXPECT_EQ(test, t->count, 300UL);
	KUNIT_EXPECT_EQ(test, t->size_bits, (unsigned long)fls_long(300 / 2));
	/* The same entry, not a copy. */
	KUNIT_EXPECT_PTR_EQ(test, ftrace_lookup_ip(t, 0x2008), e);
	KUNIT_EXPECT_EQ(test, e->direct, 0x1234UL);
	KUNIT_EXPECT_TRUE(test, t->flags & FTRACE_HASH_FL_MOD);
	KUNIT_EXPECT_EQ(test, h->count, 0UL);
	KUNIT_EXPECT_TRUE(test, h->flags & FTRACE_HASH_FL_MOD);
	KUNIT_EXPECT_NULL(test, ftrace_lookup_ip(h, 0x2008));
	/* The emptied hash takes entries again. */
	KUNIT_EXPECT_EQ(test, ftrace_hash_add(h, 0x2008), 0);
	KUNIT_EXPECT_EQ(test, h->count, 1UL);
	ftrace_hash_free(t);
	ftrace_hash_free(ref);
	ftrace_hash_free(h);
}

/*
 * An editable copy of a one-entry hash has one bucket; filling it with a
 * glob's worth of addresses must widen the table, or every add walks one
 * long chain ("*" after a single name took seconds).
 */
static void hash_copy_grows(struct kunit *test)
{
	struct ftrace_hash *one = ftrace_hash_alloc(0), *c;
	unsigned long ip;

	KUNIT_ASSERT_NOT_NULL(test, one);
	KUNIT_ASSERT_EQ(test, ftrace_hash_add(one, 0x10), 0);
	c = ftrace_hash_copy(one);
	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_EXPECT_EQ(test, c->size_bits, 0UL);
	for (ip = 0x1000; ip < 0x1000 + 5000 * 16; ip += 16)
		KUNIT_ASSERT_EQ(test, ftrace_hash_add(c, ip), 0);
	KUNIT_EXPECT_EQ(test, c->count, 5001UL);
	/* At most four entries a bucket, up to the largest table. */
	KUNIT_EXPECT_GE(test, c->size_bits, (unsigned long)FTRACE_HASH_MAX_BITS - 1);
	for (ip = 0x1000; ip < 0x1000 + 5000 * 16; ip += 16)
		KUNIT_EXPECT_NOT_NULL(test, ftrace_lookup_ip(c, ip));
	KUNIT_EXPECT_NOT_NULL(test, ftrace_lookup_ip(c, 0x10));
	KUNIT_EXPECT_NULL(test, ftrace_lookup_ip(c, 0x1008));
	ftrace_hash_free(c);
	ftrace_hash_free(one);
}

static void hash_empty_rules(struct kunit *test)
{
	struct ftrace_hash *h = ftrace_hash_copy(NULL);

	KUNIT_ASSERT_NOT_NULL(test, h);
	KUNIT_EXPECT_TRUE(test, ftrace_hash_empty(NULL));
	KUNIT_EXPECT_TRUE(test, ftrace_hash_empty(&ftrace_empty_hash));
	KUNIT_EXPECT_TRUE(test, ftrace_hash_equal(NULL, h));
	/* A pending module filter selects nothing, not everything. */
	h->flags |= FTRACE_HASH_FL_MOD;
	KUNIT_EXPECT_FALSE(test, ftrace_hash_empty(h));
	ftrace_hash_free(h);
}

static int freed;

static int count_free(void *data)
{
	freed += (unsigned long)data;
	return 0;
}

static void func_mapper(struct kunit *test)
{
	struct ftrace_func_mapper *m = allocate_ftrace_func_mapper();
	void **slot;

	KUNIT_ASSERT_NOT_NULL(test, m);
	KUNIT_EXPECT_EQ(test, ftrace_func_mapper_add_ip(m, 0x40, (void *)1), 0);
	KUNIT_EXPECT_EQ(test, ftrace_func_mapper_add_ip(m, 0x40, (void *)2),
			-EBUSY);
	KUNIT_EXPECT_EQ(test, ftrace_func_mapper_add_ip(m, 0x80, (void *)2), 0);
	KUNIT_EXPECT_EQ(test, ftrace_func_mapper_add_ip(m, 0xc0, (void *)4), 0);
	slot = ftrace_func_mapper_find_ip(m, 0x80);
	KUNIT_ASSERT_NOT_NULL(test, slot);
	KUNIT_EXPECT_PTR_EQ(test, *slot, (void *)2);
	KUNIT_EXPECT_NULL(test, ftrace_func_mapper_find_ip(m, 0x100));
	KUNIT_EXPECT_PTR_EQ(test, ftrace_func_mapper_remove_ip(m, 0x40),
			    (void *)1);
	KUNIT_EXPECT_NULL(test, ftrace_func_mapper_remove_ip(m, 0x40));
	freed = 0;
	free_ftrace_func_mapper(m, count_free);
	KUNIT_EXPECT_EQ(test, freed, 6);
}

/* Name matching. */

static bool word_matches(const char *word, const char *name, bool *neg)
{
	struct ftrace_glob g;
	char buf[64];

	strscpy(buf, word, sizeof(buf));
	ftrace_glob_parse(buf, strlen(buf), &g, neg);
	return ftrace_glob_match(name, &g);
}

static void glob_kinds(struct kunit *test)
{
	static const struct {
		const char *word, *name;
		bool match;
	} cases[] = {
		{ "schedule", "schedule", true },
		{ "schedule", "schedule_idle", false },
		{ "sched*", "schedule_idle", true },
		{ "sched*", "do_sched", false },
		{ "*_idle", "schedule_idle", true },
		{ "*_idle", "idle_x", false },
		{ "*lock*", "_raw_spin_lock_irq", true },
		{ "*lock*", "schedule", false },
		{ "sch?dule", "schedule", true },
		{ "sch[a-e]dule", "schedule", true },
		{ "sch[f-z]dule", "schedule", false },
		{ "vfs_*_iter", "vfs_read_iter", true },
		{ "vfs_*_iter", "vfs_read", false },
	};
	unsigned int i;
	bool neg;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		KUNIT_EXPECT_EQ_MSG(test, word_matches(cases[i].word,
						       cases[i].name, &neg),
				    cases[i].match, "%s vs %s", cases[i].word,
				    cases[i].name);
	KUNIT_EXPECT_TRUE(test, word_matches("!vfs_read", "vfs_read", &neg));
	KUNIT_EXPECT_TRUE(test, neg);
}

static void glob_index(struct kunit *test)
{
	struct ftrace_glob g;
	char buf[] = "123";
	bool neg;

	KUNIT_EXPECT_EQ(test, ftrace_glob_parse(buf, 3, &g, &neg),
			(int)MATCH_INDEX);
	KUNIT_EXPECT_FALSE(test, neg);
}

/*
 * Module words: names that start with a digit ("8021q", "9pnet") are names,
 * not indexes, and work with '!' and globs; no module named so is needed
 * for the hash to be edited, with or without '!', or for a word to wait.
 */
static void glob_module_words(struct kunit *test)
{
	static const struct {
		const char *word, *name;
		bool match;
	} cases[] = {
		{ "8021q", "8021q", true },
		{ "8021q", "8021qx", false },
		{ "8021q", "xt_8021q", false },
		{ "8021", "8021q", false },
		{ "80*", "8021q", true },
		{ "9p*net", "9pnet", true },
		{ "9p?et", "9pnet", true },
		{ "[0-9]pnet", "9pnet", true },
		{ "842_*", "9pnet", false },
		{ "!9pnet", "9pnet", true },
		{ "ext4", "ext4", true },
	};
	struct ftrace_hash *hash;
	struct ftrace_glob g;
	unsigned long ip;
	unsigned int i;
	LIST_HEAD(mods);
	char buf[32];
	bool neg;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		strscpy(buf, cases[i].word, sizeof(buf));
		ftrace_mod_glob_parse(buf, &g, &neg);
		KUNIT_EXPECT_NE_MSG(test, g.type, (int)MATCH_INDEX, "%s",
				    cases[i].word);
		KUNIT_EXPECT_EQ_MSG(test, ftrace_glob_match(cases[i].name, &g),
				    cases[i].match, "%s vs %s", cases[i].word,
				    cases[i].name);
		KUNIT_EXPECT_EQ(test, neg, cases[i].word[0] == '!');
	}
	if (!ftrace_location((unsigned long)vfs_read))
		kunit_skip(test, "vfs_read is not traceable");
	hash = ftrace_hash_alloc(4);
	KUNIT_ASSERT_NOT_NULL(test, hash);
	mutex_lock(&ftrace_lock);
	KUNIT_EXPECT_EQ(test, ftrace_match_to_hash(hash, "*", "9nosuch", false), 0);
	KUNIT_EXPECT_EQ(test, ftrace_match_to_hash(hash, "vfs_read", "!9nosuch",
						   false), 1);
	KUNIT_EXPECT_EQ(test, ftrace_match_to_hash(hash, "vfs_read", "9*",
						   true), 0);
	ip = ftrace_location((unsigned long)vfs_read);
	KUNIT_EXPECT_NOT_NULL(test, ftrace_lookup_ip(hash, ip));
	/* Such words wait for their module, and are cancelled, as others. */
	KUNIT_EXPECT_EQ(test, ftrace_mod_word(&mods, hash, "*", "9nosuch",
					      true), 0);
	KUNIT_EXPECT_TRUE(test, list_is_singular(&mods));
	KUNIT_EXPECT_TRUE(test, hash->flags & FTRACE_HASH_FL_MOD);
	KUNIT_EXPECT_EQ(test, ftrace_mod_word(&mods, hash, "*", "9no*", true),
			0);
	KUNIT_EXPECT_EQ(test, ftrace_mod_word(&mods, hash, "!*", "9nosuch",
					      true), 0);
	KUNIT_EXPECT_TRUE(test, list_is_singular(&mods));
	mutex_unlock(&ftrace_lock);
	ftrace_mods_free(&mods);
	ftrace_hash_free(hash);
}

/* Does the walk name @ip as "%ps" does?  Reports the first few that not. */
static bool walk_named(struct kunit *test, struct kallsyms_walk *w,
		       unsigned long ip, char *walked, char *printed)
{
	if (!kallsyms_walk_name(w, ip, walked))
		strscpy(walked, "(none)", KSYM_NAME_LEN);
	sprint_symbol_no_offset(printed, ip);
	if (!strcmp(walked, printed))
		return true;
	kunit_info(test, "%lx: walk '%s', %%ps '%s'\n", ip, walked, printed);
	return false;
}

/*
 * kallsyms_walk_name() names the vmlinux records, in address order, as
 * "%ps" names them (the files and the globs rely on it), also after a
 * step back every 1,000 records.
 */
static void walk_names_as_ps(struct kunit *test)
{
	char *walked = kunit_kmalloc(test, KSYM_NAME_LEN, GFP_KERNEL);
	char *printed = kunit_kmalloc(test, KSYM_SYMBOL_LEN, GFP_KERNEL);
	struct kallsyms_walk w = { };
	unsigned int i, n = 0, bad = 0;
	unsigned long ip, prev = 0;
	struct ftrace_block *b;

	KUNIT_ASSERT_NOT_NULL(test, walked);
	KUNIT_ASSERT_NOT_NULL(test, printed);
	scoped_guard(mutex, &ftrace_lock) {
		for_each_ftrace_block(b) {
			for (i = 0; i < b->count && !b->mod && bad < 4; i++) {
				ip = ftrace_rec_ip(b, &b->recs[i]);
				bad += !walk_named(test, &w, ip, walked,
						   printed);
				if (prev && !(++n % 1000))
					bad += !walk_named(test, &w, prev,
							   walked, printed);
				prev = ip;
			}
		}
	}
	KUNIT_EXPECT_GT(test, n, 100U);
	KUNIT_EXPECT_EQ(test, bad, 0U);
}

/*
 * The globs of one literal reject names token by token before expanding
 * them (ftrace_match.c): never a name that matches, over every vmlinux
 * record.  Each word matches some name in any config (not "spin_*": a
 * uniprocessor kernel has none); "*__s*" and "*lock" make the matcher
 * follow its failure links ("___s...", "...filelock_lock").
 */
static void prefilter_never_rejects_a_match(struct kunit *test)
{
	static const char * const words[] = {
		"*lock*", "*_lock", "*lock", "kmem_*", "*read*", "vfs_*",
		"*_show", "*e*", "*_*", "*__s*", "*__*", "*init", "__*",
		"*ss*", "*_to_*", "do_*", "*irq*",
	};
	char *longword;
	unsigned int i, matches;
	size_t len;

	longword = kunit_kzalloc(test, 66, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, longword);
	memset(longword, 'a', 65);
	longword[0] = '*';
	longword[64] = '*';
	guard(mutex)(&ftrace_lock);
	for (i = 0; i < ARRAY_SIZE(words); i++) {
		/* Not "*x" under clang LTO, where 6.1 cuts suffixes (pf_init()). */
		len = strlen(words[i]);
		if (IS_ENABLED(CONFIG_LTO_CLANG) && words[i][0] == '*' &&
		    words[i][len - 1] != '*') {
			KUNIT_EXPECT_EQ_MSG(test, ftrace_prefilter_misses(words[i], &matches),
					    -EINVAL, "word %s", words[i]);
			continue;
		}
		KUNIT_EXPECT_EQ_MSG(test, ftrace_prefilter_misses(words[i], &matches),
				    0, "word %s", words[i]);
		KUNIT_EXPECT_GT_MSG(test, matches, 0U, "word %s", words[i]);
	}
	/* Words it does not take: full globs, exact names, 63 characters. */
	KUNIT_EXPECT_EQ(test, ftrace_prefilter_misses("a?c*", &matches), -EINVAL);
	KUNIT_EXPECT_EQ(test, ftrace_prefilter_misses("vfs_read", &matches), -EINVAL);
	KUNIT_EXPECT_EQ(test, ftrace_prefilter_misses(longword, &matches), -EINVAL);
}

/* Records. */

static void records_build_and_find(struct kunit *test)
{
	unsigned long tab[] = { 0x5000, 0x1000, 0, 0x3000, 0x1000, 0x2000 };
	struct ftrace_block *b;

	b = ftrace_blocks_build(NULL, tab, tab + ARRAY_SIZE(tab));
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(b));
	/* Sorted, the zero (cancelled) entry and the duplicate gone. */
	KUNIT_EXPECT_EQ(test, b->count, 4U);
	KUNIT_EXPECT_EQ(test, b->base, ftrace_call_adjust(0x1000UL));
	KUNIT_EXPECT_NULL(test, rcu_access_pointer(b->next));
	KUNIT_EXPECT_EQ(test, sizeof(b->recs[0]), (size_t)8);
	KUNIT_EXPECT_NOT_NULL(test, ftrace_block_find(b, ftrace_call_adjust(0x3000UL)));
	/* Between records on every arch (arm's adjust clears only bit 0). */
	KUNIT_EXPECT_NULL(test, ftrace_block_find(b, ftrace_call_adjust(0x3002UL)));
	KUNIT_EXPECT_NULL(test, ftrace_block_find(b, 0x800));
	KUNIT_EXPECT_NULL(test, ftrace_block_find(b, 0x6000));
	ftrace_blocks_free(b);
}

static void records_split_blocks(struct kunit *test)
{
	unsigned int n = 3000, i, total = 0, blocks = 0;
	struct ftrace_block *chain, *b;
	unsigned long *tab, last;

	tab = kunit_kcalloc(test, n, sizeof(*tab), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, tab);
	for (i = 0; i < n; i++)
		tab[i] = 0x100000 + 64UL * (n - i);	/* reversed */
	chain = ftrace_blocks_build(NULL, tab, tab + n);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(chain));
	for (b = chain; b; b = rcu_dereference_raw(b->next)) {
		KUNIT_EXPECT_LE(test, struct_size(b, recs, b->count),
				(size_t)PAGE_SIZE);
		last = ftrace_rec_ip(b, &b->recs[b->count - 1]);
		KUNIT_EXPECT_NOT_NULL(test, ftrace_block_find(b, last));
		total += b->count;
		blocks++;
	}
	KUNIT_EXPECT_EQ(test, total, n);
	KUNIT_EXPECT_GT(test, blocks, 1U);
	ftrace_blocks_free(chain);
}

/* vmlinux's init sections likewise (ftrace_free_init_mem()). */
static void records_vmlinux_init_apart(struct kunit *test)
{
	unsigned long lo = (unsigned long)__init_begin;
	unsigned long hi = (unsigned long)__init_end;
	unsigned long tab[] = { lo - 64, lo, hi - 64, hi };
	struct ftrace_block *chain, *b;
	unsigned int blocks = 0, i;
	bool init;

	chain = ftrace_blocks_build(NULL, tab, tab + ARRAY_SIZE(tab));
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(chain));
	for (b = chain; b; b = rcu_dereference_raw(b->next)) {
		init = ftrace_rec_ip(b, &b->recs[0]) >= lo &&
		       ftrace_rec_ip(b, &b->recs[0]) < hi;
		for (i = 1; i < b->count; i++)
			KUNIT_EXPECT_EQ(test, init,
					ftrace_rec_ip(b, &b->recs[i]) >= lo &&
					ftrace_rec_ip(b, &b->recs[i]) < hi);
		blocks++;
	}
	KUNIT_EXPECT_EQ(test, blocks, 3U);
	ftrace_blocks_free(chain);
}

#ifdef CONFIG_MODULES
/*
 * A module's init text is freed on its own; its records must fill blocks
 * of their own, so that dropping them frees whole blocks and allocates
 * nothing (a trimmed copy could fail, with the text freed next).
 */
static void records_init_apart(struct kunit *test)
{
	unsigned long tab[] = { 0x10000, 0x8200, 0x10100, 0x8100, 0x7f00,
				0x10200, 0x8ff0 };
	unsigned int blocks = 0, total = 0, i;
	struct ftrace_block *chain, *b;
	struct module *mod;
	bool init;

	mod = kunit_kzalloc(test, sizeof(*mod), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, mod);
#ifdef FTRACE_KBASE_612
	mod->mem[MOD_INIT_TEXT].base = (void *)0x8000;
	mod->mem[MOD_INIT_TEXT].size = 0x1000;
#else
	mod->init_layout.base = (void *)0x8000;
	mod->init_layout.size = 0x1000;
#endif
	chain = ftrace_blocks_build(mod, tab, tab + ARRAY_SIZE(tab));
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(chain));
	for (b = chain; b; b = rcu_dereference_raw(b->next)) {
		init = within_module_init(ftrace_rec_ip(b, &b->recs[0]), mod);
		for (i = 1; i < b->count; i++)
			KUNIT_EXPECT_EQ(test, init,
					within_module_init(ftrace_rec_ip(b, &b->recs[i]), mod));
		total += b->count;
		blocks++;
	}
	/* 0x7f00 | 0x8100 0x8200 0x8ff0 | 0x10000 0x10100 0x10200 */
	KUNIT_EXPECT_EQ(test, total, (unsigned int)ARRAY_SIZE(tab));
	KUNIT_EXPECT_EQ(test, blocks, 3U);
	ftrace_blocks_free(chain);
}

#ifdef CONFIG_KALLSYMS
/*
 * ftrace_mod_walk_name() on a fake module: a symbol table of its own (the
 * names kallsyms passes over, two symbols at one address, LLVM's suffix)
 * and 200 more symbols, named in order, backwards and out of order, each
 * against a linear pass of kallsyms' rule (find_kallsyms_symbol()).
 */
#define WALK_SYMS	210
#define WALK_TEXT	0x20000UL
#ifdef FTRACE_KBASE_612
#define WALK_612	true
#else
#define WALK_612	false
#endif

struct walk_fixture {
	struct module *mod;
	struct mod_kallsyms ks;
	Elf_Sym sym[WALK_SYMS];
	char str[WALK_SYMS * 12];
	unsigned int len;
};

static void walk_sym(struct walk_fixture *f, unsigned int i, const char *name,
		     unsigned long value, bool undef)
{
	f->sym[i].st_name = f->len;
	f->sym[i].st_value = value;
	f->sym[i].st_shndx = undef ? SHN_UNDEF : 1;
	f->len += strscpy(f->str + f->len, name, 12) + 1;
}

/*
 * The name kallsyms gives @ip: a linear pass, as find_kallsyms_symbol().
 * 6.12 names only addresses in the module's text, by symbols there.
 */
static const char *walk_expected(struct walk_fixture *f, unsigned long ip)
{
	unsigned long floor = f->sym[0].st_value;
	unsigned int i, best = 0;
	const char *name;

	if (WALK_612) {
		if (ip < WALK_TEXT || ip >= WALK_TEXT + 0x2000)
			return NULL;
		floor = WALK_TEXT - 1;
	}
	for (i = 1; i < f->ks.num_symtab; i++) {
		name = f->str + f->sym[i].st_name;
		if (f->sym[i].st_shndx == SHN_UNDEF || !*name ||
		    name[0] == '$' || (name[0] == '.' && name[1] == 'L'))
			continue;
		if (f->sym[i].st_value <= ip && f->sym[i].st_value > floor &&
		    (!best || f->sym[i].st_value > f->sym[best].st_value))
			best = i;
	}
	return best ? f->str + f->sym[best].st_name : NULL;
}

static unsigned int walk_check(struct kunit *test, struct walk_fixture *f,
			       struct ftrace_mod_walk *w, unsigned long ip)
{
	char buf[KSYM_NAME_LEN];
	const char *want = walk_expected(f, ip), *got;

	got = ftrace_mod_walk_name(w, f->mod, ip, buf);
	if (!want && !got)
		return 0;
	if (want && got && !strcmp(want, got))
		return 0;
	KUNIT_FAIL(test, "%#lx: walk %s, kallsyms %s", ip, got ?: "(none)",
		   want ?: "(none)");
	return 1;
}

static void mod_walk_names_as_kallsyms(struct kunit *test)
{
	unsigned long ips[] = { 0x1fff0, 0x20000, 0x20090, 0x20100, 0x20190,
				0x20200, 0x20290, 0x20004, 0x20300, 0x20ffc };
	struct ftrace_mod_walk w = { };
	char buf[KSYM_NAME_LEN];
	struct walk_fixture *f;
	unsigned int i, bad = 0;
	unsigned long ip;

	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f);
	f->mod = kunit_kzalloc(test, sizeof(*f->mod), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f->mod);
#ifdef FTRACE_KBASE_612
	f->mod->mem[MOD_TEXT].base = (void *)WALK_TEXT;
	f->mod->mem[MOD_TEXT].size = 0x2000;
#else
	f->mod->core_layout.base = (void *)WALK_TEXT;
	f->mod->core_layout.size = 0x2000;
#endif
	f->len = 1;
	walk_sym(f, 1, "f_b", 0x20100, false);
	walk_sym(f, 2, "f_a", 0x20000, false);
	walk_sym(f, 3, "$x", 0x20080, false);		/* mapping symbol */
	walk_sym(f, 4, ".Ltmp", 0x20180, false);	/* local label */
	walk_sym(f, 5, "f_b_alias", 0x20100, false);	/* after f_b: not it */
	walk_sym(f, 6, "ext", 0x20150, true);		/* undefined */
	walk_sym(f, 7, "f_c", 0x20200, false);
	walk_sym(f, 8, "", 0x20280, false);		/* unnamed */
	/* Below the text: a name for 0x1fff0 on 6.1, none on 6.12. */
	walk_sym(f, WALK_SYMS - 1, "below", 0x1ff00, false);
	/* Out of address order, as a symbol table is. */
	for (i = 9; i < WALK_SYMS - 1; i++) {
		snprintf(buf, 12, "g%u", i);
		walk_sym(f, i, buf, WALK_TEXT + 0x400 + ((i * 37) % 200) * 16,
			 false);
	}
	f->ks.symtab = f->sym;
	f->ks.strtab = f->str;
	f->ks.num_symtab = WALK_SYMS;
	RCU_INIT_POINTER(f->mod->kallsyms, &f->ks);

	guard(mutex)(&ftrace_lock);
	for (i = 0; i < ARRAY_SIZE(ips); i++)
		bad += walk_check(test, f, &w, ips[i]);
	/* The 200 g symbols: forward, back, and striding out of order. */
	for (ip = WALK_TEXT + 0x3f8; ip < WALK_TEXT + 0x400 + 200 * 16; ip += 4)
		bad += walk_check(test, f, &w, ip);
	for (ip = WALK_TEXT + 0x400 + 200 * 16; ip > WALK_TEXT + 0x3f0; ip -= 8)
		bad += walk_check(test, f, &w, ip);
	for (i = 0; i < 400 && bad < 8; i++)
		bad += walk_check(test, f, &w,
				  WALK_TEXT + 0x400 + (i * 977) % (200 * 16));
	KUNIT_EXPECT_EQ(test, bad, 0U);

	/*
	 * The table changes under the walk, module and table pointers the
	 * same (a module unloaded and another loaded in its place): the walk
	 * still has f_a at 0x20000 until some module's records go, which
	 * makes every walk sort again.
	 */
	f->sym[2].st_value = 0x20010;
	KUNIT_EXPECT_STREQ(test, ftrace_mod_walk_name(&w, f->mod, 0x20008, buf),
			   "f_a");
	ftrace_records_remove(f->mod, 0, 0);
	KUNIT_EXPECT_EQ(test, walk_check(test, f, &w, 0x20008), 0U);
	KUNIT_EXPECT_STREQ(test, ftrace_mod_walk_name(&w, f->mod, 0x20010, buf),
			   "f_a");

	/* A new table (init sections freed) is sorted anew. */
	walk_sym(f, 1, "f_d.llvm.42", 0x20100, false);
	RCU_INIT_POINTER(f->mod->kallsyms, NULL);
	KUNIT_EXPECT_NULL(test, ftrace_mod_walk_name(&w, f->mod, 0x20100, buf));
	RCU_INIT_POINTER(f->mod->kallsyms, &f->ks);
	KUNIT_EXPECT_STREQ(test, ftrace_mod_walk_name(&w, f->mod, 0x20100, buf),
			   IS_ENABLED(CONFIG_LTO_CLANG) && !WALK_612 ?
			   "f_d" : "f_d.llvm.42");
	ftrace_mod_walk_free(&w);
}
#endif /* CONFIG_KALLSYMS */
#endif /* CONFIG_MODULES */

/* The plan and the patch engine, against fake text. */

#define NSITES 132

struct fake_site {
	bool call;
	unsigned long target;
};

static struct fake_site fake_text[NSITES];
static int fake_writes;
static bool fake_unsorted;
static unsigned int fake_batches;

/* A site holds @addr: the NOP when @addr is 0. */
static bool fake_holds(struct fake_site *s, unsigned long addr)
{
	return addr ? s->call && s->target == addr : !s->call;
}

static void fake_write(struct fake_site *s, unsigned long addr)
{
	s->call = !!addr;
	s->target = addr;
	fake_writes++;
}

/*
 * The fake back end, like a real one: checks every site of the batch
 * first, and writes none of them if one does not hold what the core says.
 */
static int fake_patch(struct ftrace_batch *batch)
{
	struct ftrace_patch *p;
	unsigned int i;

	fake_batches++;
	if (!batch->nr || batch->nr > FTRACE_BATCH_MAX)
		return -E2BIG;
	for (i = 0; i < batch->nr; i++) {
		p = &batch->patch[i];
		if (i && p->ip <= p[-1].ip)
			fake_unsorted = true;
		if (p->old == p->new)
			return -EINVAL;
		if (!fake_holds((struct fake_site *)p->ip, p->old)) {
			batch->bad = i;
			return -EINVAL;
		}
	}
	for (i = 0; i < batch->nr; i++)
		fake_write((struct fake_site *)batch->patch[i].ip,
			   batch->patch[i].new);
	batch->done = batch->nr;
	return 0;
}

/*
 * The fake back end for fresh sites, as a build that idles them leaves
 * them: a site that holds the NOP already is left alone; one that holds
 * the compiler's call is written and counted as changed.
 */
static unsigned int fake_seen;

static int fake_patch_fresh(struct ftrace_batch *batch)
{
	struct ftrace_patch *p;
	struct fake_site *s;
	unsigned int i;

	for (i = 0; i < batch->nr; i++) {
		p = &batch->patch[i];
		s = (struct fake_site *)p->ip;
		fake_seen++;
		if (fake_holds(s, p->new))
			continue;
		if (!batch->init || !fake_holds(s, p->old)) {
			batch->bad = i;
			return -EINVAL;
		}
		fake_write(s, p->new);
		batch->changed++;
	}
	batch->done = batch->nr;
	return 0;
}

/* A back end that writes site by site and stops at a bad one (6.1's). */
static int fake_patch_each(struct ftrace_batch *batch)
{
	struct ftrace_patch *p;
	unsigned int i;

	for (i = 0; i < batch->nr; i++) {
		p = &batch->patch[i];
		if (!fake_holds((struct fake_site *)p->ip, p->old)) {
			batch->bad = i;
			return -EINVAL;
		}
		fake_write((struct fake_site *)p->ip, p->new);
		batch->done++;
	}
	return 0;
}

struct plan_fixture {
	struct ftrace_block *b;
	struct ftrace_batcher *bt;
	struct ftrace_ops a, r;
	struct ftrace_ops __rcu *list;
	struct ftrace_plan_ctx ctx;	/* plans against @list, enabled */
	bool locked;			/* plan_init() took ftrace_lock */
};

static void cb(unsigned long ip, unsigned long pip, struct ftrace_ops *op,
	       struct ftrace_regs *fregs)
{
}

/* Are FTRACE_ADDR and FTRACE_REGS_ADDR two callers? */
static int two_callers(void)
{
	return FTRACE_REGS_ADDR != FTRACE_ADDR;
}

static unsigned long site_ip(int i)
{
	return (unsigned long)&fake_text[i];
}

/* A new empty hash in the ops hash slot @slot (not yet registered). */
static struct ftrace_hash *new_hash(struct ftrace_hash __rcu **slot)
{
	struct ftrace_hash *h = ftrace_hash_copy(NULL);

	RCU_INIT_POINTER(*slot, h);
	return h;
}

/* Ops @a traces sites 0 and 1; ops @r (saving registers) traces site 1. */
static int plan_init(struct kunit *test)
{
	struct ftrace_hash *ha, *hr;
	unsigned long tab[NSITES];
	struct plan_fixture *f;
	int i;

	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	/* KUnit calls ->exit after a failed ->init too: plan_exit() frees it. */
	test->priv = f;
	memset(fake_text, 0, sizeof(fake_text));
	fake_writes = 0;
	fake_unsorted = false;
	fake_batches = 0;
	f->bt = kunit_kzalloc(test, sizeof(*f->bt), GFP_KERNEL);
	if (!f->bt)
		return -ENOMEM;
	for (i = 0; i < NSITES; i++)
		tab[i] = site_ip(i);
	f->b = ftrace_blocks_build(NULL, tab, tab + NSITES);
	if (IS_ERR_OR_NULL(f->b)) {
		f->b = NULL;
		return -ENOMEM;
	}
	f->a.func = cb;
	f->r.func = cb;
	f->r.flags = FTRACE_OPS_FL_SAVE_REGS;
	ftrace_ops_init(&f->a);
	ftrace_ops_init(&f->r);
	ha = new_hash(&f->a.local_hash.filter_hash);
	hr = new_hash(&f->r.local_hash.filter_hash);
	if (!ha || !hr)
		return -ENOMEM;
	ftrace_hash_add(ha, site_ip(0));
	ftrace_hash_add(ha, site_ip(1));
	ftrace_hash_add(hr, site_ip(1));
	f->a.flags |= FTRACE_OPS_FL_ENABLED;
	f->r.flags |= FTRACE_OPS_FL_ENABLED;
	RCU_INIT_POINTER(f->a.next, &f->r);
	RCU_INIT_POINTER(f->r.next, &ftrace_list_end);
	RCU_INIT_POINTER(f->list, &f->a);

	f->ctx.ops = &f->list;
	f->ctx.enabled = true;
	/* The slot table of trampolines is the core's: one user at a time. */
	/*
	 * Held until plan_exit(): KUnit's ->init and ->exit, so no guard.
	 * The cases use no KUNIT_ASSERT (nor kunit_skip()): those end the
	 * case's thread with the lock held, and ->exit then runs in another.
	 * They fail with KUNIT_EXPECT and return.
	 */
	mutex_lock(&ftrace_lock);
	f->locked = true;
	return 0;
}

static void plan_exit(struct kunit *test)
{
	struct plan_fixture *f = test->priv;

	/* ->exit runs after a failed ->init too. */
	if (!f)
		return;
	if (f->locked) {
		/* Forget the fake trampolines' slots. */
		ftrace_slots_gc();
		/* Taken in plan_init(). */
		mutex_unlock(&ftrace_lock);
	}
	ftrace_hash_free(rcu_dereference_raw(f->a.local_hash.filter_hash));
	ftrace_hash_free(rcu_dereference_raw(f->r.local_hash.filter_hash));
	ftrace_blocks_free(f->b);
}

static struct ftrace_rec *rec_of(struct plan_fixture *f, int i)
{
	return ftrace_block_find(f->b, site_ip(i));
}

/*
 * Write the planned state of block @b (turn every site off, with @enable
 * false) through back end @patch.
 *
 * Return: the number of sites written, or the back end's error.
 */
static int run_block(struct plan_fixture *f, struct ftrace_block *b,
		     int (*patch)(struct ftrace_batch *batch), bool enable)
{
	int ret;

	ftrace_batcher_start(f->bt, &f->ctx, patch, enable, true, NULL);
	for (ret = 0; b && !ret; b = rcu_dereference_raw(b->next))
		ret = ftrace_batcher_add_block(f->bt, b);
	if (!ret)
		ret = ftrace_batcher_flush(f->bt);
	return ret ?: f->bt->written;
}

/* As run_block() for the fixture's block and the checking fake. */
static int run_fake(struct plan_fixture *f, bool enable)
{
	return run_block(f, f->b, fake_patch, enable);
}

static void plan_counts_and_flags(struct kunit *test)
{
	struct plan_fixture *f = test->priv;

	KUNIT_EXPECT_EQ(test, ftrace_plan_block(&f->ctx, f->b), 0U);
	KUNIT_EXPECT_EQ(test, ftrace_rec_refs(rec_of(f, 0)), 1U);
	KUNIT_EXPECT_EQ(test, ftrace_rec_refs(rec_of(f, 1)), 2U);
	KUNIT_EXPECT_EQ(test, ftrace_rec_refs(rec_of(f, 2)), 0U);
	KUNIT_EXPECT_FALSE(test, rec_of(f, 0)->flags & FTRACE_FL_REGS);
	KUNIT_EXPECT_TRUE(test, rec_of(f, 1)->flags & FTRACE_FL_REGS);
	/* Planning patches nothing. */
	KUNIT_EXPECT_EQ(test, fake_writes, 0);
}

/*
 * A site some ops has wanted stays touched, and one an IP-modifying ops
 * has wanted stays modified, after the ops leave (touched_functions).
 * Planning alone marks nothing: an update refused for a conflict must
 * not; the marks come after a plan without one (ftrace_plan_mark()).
 */
static void touched_and_modified_stick(struct kunit *test)
{
	struct plan_fixture *f = test->priv;

	ftrace_plan_block(&f->ctx, f->b);
	KUNIT_EXPECT_FALSE(test, rec_of(f, 0)->flags & REC_TOUCHED);
	ftrace_plan_mark(f->b);
	KUNIT_EXPECT_TRUE(test, rec_of(f, 0)->flags & REC_TOUCHED);
	KUNIT_EXPECT_TRUE(test, rec_of(f, 1)->flags & REC_TOUCHED);
	KUNIT_EXPECT_FALSE(test, rec_of(f, 2)->flags & REC_TOUCHED);
	KUNIT_EXPECT_FALSE(test, rec_of(f, 1)->flags & REC_MODIFIED);

	f->r.flags |= FTRACE_OPS_FL_IPMODIFY;
	KUNIT_EXPECT_EQ(test, ftrace_plan_block(&f->ctx, f->b), 0U);
	ftrace_plan_mark(f->b);
	KUNIT_EXPECT_TRUE(test, rec_of(f, 1)->flags & REC_MODIFIED);
	KUNIT_EXPECT_FALSE(test, rec_of(f, 0)->flags & REC_MODIFIED);

	/* A disabled record (its module is not live yet) is not marked. */
	f->a.flags |= FTRACE_OPS_FL_IPMODIFY;
	f->r.flags &= ~FTRACE_OPS_FL_ENABLED;
	rec_of(f, 0)->flags |= FTRACE_FL_DISABLED;
	ftrace_plan_block(&f->ctx, f->b);
	ftrace_plan_mark(f->b);
	KUNIT_EXPECT_FALSE(test, rec_of(f, 0)->flags & REC_MODIFIED);
	rec_of(f, 0)->flags &= ~FTRACE_FL_DISABLED;

	f->a.flags &= ~(FTRACE_OPS_FL_ENABLED | FTRACE_OPS_FL_IPMODIFY);
	ftrace_plan_block(&f->ctx, f->b);
	ftrace_plan_mark(f->b);
	KUNIT_EXPECT_EQ(test, ftrace_rec_refs(rec_of(f, 1)), 0U);
	KUNIT_EXPECT_TRUE(test, rec_of(f, 0)->flags & REC_TOUCHED);
	KUNIT_EXPECT_TRUE(test, rec_of(f, 1)->flags & REC_TOUCHED);
	KUNIT_EXPECT_TRUE(test, rec_of(f, 1)->flags & REC_MODIFIED);
	KUNIT_EXPECT_FALSE(test, rec_of(f, 2)->flags & REC_TOUCHED);
	/* Nothing to write for sites no ops wants. */
	KUNIT_EXPECT_EQ(test, run_fake(f, true), 0);
}

static void patch_exactly_the_changes(struct kunit *test)
{
	struct plan_fixture *f = test->priv;

	ftrace_plan_block(&f->ctx, f->b);
	KUNIT_EXPECT_EQ(test, run_fake(f, true), 2);
	KUNIT_EXPECT_TRUE(test, fake_text[0].call);
	KUNIT_EXPECT_EQ(test, fake_text[0].target, (unsigned long)FTRACE_ADDR);
	KUNIT_EXPECT_TRUE(test, fake_text[1].call);
	KUNIT_EXPECT_EQ(test, fake_text[1].target,
			(unsigned long)FTRACE_REGS_ADDR);
	KUNIT_EXPECT_FALSE(test, fake_text[2].call);
	KUNIT_EXPECT_EQ(test, fake_writes, 2);

	/* Nothing changed: nothing is written. */
	ftrace_plan_block(&f->ctx, f->b);
	KUNIT_EXPECT_EQ(test, run_fake(f, true), 0);
	KUNIT_EXPECT_EQ(test, fake_writes, 2);

	/*
	 * The register-saving ops leaves: only site 1 changes, and is
	 * written only if the two callers differ (on arm64 they are one).
	 */
	f->r.flags &= ~FTRACE_OPS_FL_ENABLED;
	ftrace_plan_block(&f->ctx, f->b);
	KUNIT_EXPECT_EQ(test, run_fake(f, true), two_callers());
	KUNIT_EXPECT_EQ(test, fake_text[1].target, (unsigned long)FTRACE_ADDR);
	KUNIT_EXPECT_EQ(test, fake_writes, 2 + two_callers());
	KUNIT_EXPECT_FALSE(test, rec_of(f, 1)->flags & FTRACE_FL_REGS_EN);
	KUNIT_EXPECT_FALSE(test, fake_unsorted);

	/* Everything off. */
	KUNIT_EXPECT_EQ(test, run_fake(f, false), 2);
	KUNIT_EXPECT_FALSE(test, fake_text[0].call);
	KUNIT_EXPECT_FALSE(test, fake_text[1].call);
}

static void trampoline_for_a_lone_ops(struct kunit *test)
{
	struct plan_fixture *f = test->priv;
	unsigned long tramp = site_ip(3);	/* any distinct address */

	f->a.trampoline = tramp;
	ftrace_plan_block(&f->ctx, f->b);
	KUNIT_EXPECT_TRUE(test, rec_of(f, 0)->flags & FTRACE_FL_TRAMP);
	KUNIT_EXPECT_FALSE(test, rec_of(f, 1)->flags & FTRACE_FL_TRAMP);
	KUNIT_EXPECT_EQ(test, run_fake(f, true), 2);
	KUNIT_EXPECT_EQ(test, fake_text[0].target, tramp);
	KUNIT_EXPECT_EQ(test, fake_text[1].target,
			(unsigned long)FTRACE_REGS_ADDR);
	/* Turning off must expect the trampoline call it made. */
	KUNIT_EXPECT_EQ(test, run_fake(f, false), 2);
	KUNIT_EXPECT_FALSE(test, fake_text[0].call);
}

/*
 * More lone ops with trampolines than a record has slot numbers for: the
 * sites without a slot call the arch caller, and a second pass finds
 * nothing to do (a site is never left expecting an unknown trampoline).
 */
static void trampoline_slots_run_out(struct kunit *test)
{
	struct plan_fixture *f = test->priv;
	const int n = NSITES - 2;
	struct ftrace_ops *ops;
	struct ftrace_hash *h;
	int i, tramps = 0;

	ops = kunit_kcalloc(test, n, sizeof(*ops), GFP_KERNEL);
	KUNIT_EXPECT_NOT_NULL(test, ops);
	if (!ops)
		return;
	f->a.flags &= ~FTRACE_OPS_FL_ENABLED;
	f->r.flags &= ~FTRACE_OPS_FL_ENABLED;
	for (i = 0; i < n; i++) {
		ops[i].func = cb;
		ftrace_ops_init(&ops[i]);
		h = new_hash(&ops[i].local_hash.filter_hash);
		KUNIT_EXPECT_NOT_NULL(test, h);
		if (!h)
			return;
		ftrace_hash_add(h, site_ip(i + 2));
		ops[i].trampoline = 0x10000 + 0x100 * i;
		ops[i].flags |= FTRACE_OPS_FL_ENABLED;
		RCU_INIT_POINTER(ops[i].next, i + 1 < n ? &ops[i + 1] : &f->a);
	}
	RCU_INIT_POINTER(f->list, &ops[0]);
	ftrace_plan_block(&f->ctx, f->b);
	KUNIT_EXPECT_EQ(test, run_fake(f, true), n);
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_TRUE(test, fake_text[i + 2].call);
		if (fake_text[i + 2].target == ops[i].trampoline)
			tramps++;
		else
			KUNIT_EXPECT_EQ(test, fake_text[i + 2].target,
					(unsigned long)FTRACE_ADDR);
	}
	/* Slots other ops hold at boot are not ours to count on. */
	KUNIT_EXPECT_GT(test, tramps, 0);
	KUNIT_EXPECT_LE(test, tramps, REC_SLOTS - 1);
	ftrace_plan_block(&f->ctx, f->b);
	KUNIT_EXPECT_EQ(test, run_fake(f, true), 0);
	KUNIT_EXPECT_EQ(test, run_fake(f, false), n);
	for (i = 0; i < n; i++)
		ftrace_hash_free(rcu_dereference_raw(ops[i].local_hash.filter_hash));
}

/*
 * The prefilter (ftrace_plan_prefilter()) changes what planning costs,
 * never what it plans: with an ops that wants every site and has a
 * trampoline, @a, @r and 40 ops of one site each (two a site, one of
 * them with that site in its notrace hash too), every record's planned
 * flag word is the same with the prefilter as without.  An ops whose
 * filter is empty but whose notrace hash is not wants nearly every site:
 * then there is no prefilter.
 */
static void plan_prefilter_agrees(struct kunit *test)
{
	struct plan_fixture *f = test->priv;
	struct ftrace_hash *h, *nt = NULL;
	struct ftrace_ops *ops, *all;
	const int n = 40;
	u32 *want;
	int i;

	ops = kunit_kcalloc(test, n + 1, sizeof(*ops), GFP_KERNEL);
	want = kunit_kcalloc(test, f->b->count, sizeof(*want), GFP_KERNEL);
	KUNIT_EXPECT_TRUE(test, ops && want);
	if (!ops || !want)
		return;
	all = &ops[n];
	all->func = cb;
	all->trampoline = site_ip(4);	/* any distinct address */
	ftrace_ops_init(all);
	all->flags |= FTRACE_OPS_FL_ENABLED;
	RCU_INIT_POINTER(all->next, &f->a);
	RCU_INIT_POINTER(f->list, all);
	for (i = 0; i < n; i++) {
		ops[i].func = cb;
		ftrace_ops_init(&ops[i]);
		h = new_hash(&ops[i].local_hash.filter_hash);
		KUNIT_EXPECT_NOT_NULL(test, h);
		if (!h)
			goto out;
		/* Two ops a site. */
		ftrace_hash_add(h, site_ip(3 + 2 * (i / 2)));
		ops[i].flags |= FTRACE_OPS_FL_ENABLED;
		RCU_INIT_POINTER(ops[i].next, rcu_dereference_raw(f->list));
		RCU_INIT_POINTER(f->list, &ops[i]);
	}
	/* One of site 5's two ops has it in its notrace hash too. */
	nt = new_hash(&ops[2].local_hash.notrace_hash);
	KUNIT_EXPECT_NOT_NULL(test, nt);
	if (!nt)
		goto out;
	ftrace_hash_add(nt, site_ip(5));
	KUNIT_EXPECT_EQ(test, ftrace_plan_block(&f->ctx, f->b), 0U);
	for (i = 0; i < f->b->count; i++)
		want[i] = f->b->recs[i].flags;
	/* Flag words that differ where the prefilter tells sites apart. */
	KUNIT_EXPECT_EQ(test, ftrace_rec_refs(rec_of(f, 3)), 3U);
	KUNIT_EXPECT_EQ(test, ftrace_rec_refs(rec_of(f, 5)), 2U);
	KUNIT_EXPECT_EQ(test, ftrace_rec_refs(rec_of(f, 4)), 1U);
	KUNIT_EXPECT_TRUE(test, rec_of(f, 4)->flags & FTRACE_FL_TRAMP);
	ftrace_plan_prefilter(&f->ctx);
	KUNIT_EXPECT_NOT_NULL(test, f->ctx.prefilter);
	KUNIT_EXPECT_EQ(test, ftrace_plan_block(&f->ctx, f->b), 0U);
	for (i = 0; i < f->b->count; i++)
		KUNIT_EXPECT_EQ_MSG(test, f->b->recs[i].flags, want[i],
				    "record %d planned otherwise with the prefilter", i);
	ftrace_plan_prefilter_end(&f->ctx);
	/* Every function but one: no prefilter. */
	h = rcu_dereference_raw(ops[0].local_hash.filter_hash);
	ftrace_hash_clear(h);
	RCU_INIT_POINTER(ops[0].local_hash.notrace_hash, h);
	RCU_INIT_POINTER(ops[0].local_hash.filter_hash, &ftrace_empty_hash);
	ftrace_hash_add(h, site_ip(3));
	ftrace_plan_prefilter(&f->ctx);
	KUNIT_EXPECT_NULL(test, f->ctx.prefilter);
	ftrace_plan_prefilter_end(&f->ctx);
	RCU_INIT_POINTER(ops[0].local_hash.filter_hash, h);
	RCU_INIT_POINTER(ops[0].local_hash.notrace_hash, &ftrace_empty_hash);
out:
	RCU_INIT_POINTER(f->list, &f->a);
	for (i = 0; i < n; i++)
		ftrace_hash_free(rcu_dereference_raw(ops[i].local_hash.filter_hash));
	ftrace_hash_free(nt);
}

/*
 * An ops with empty hashes is counted once for every site; the others
 * are asked per site.  The counts must not depend on how many of each.
 */
static void plan_all_and_picky_ops(struct kunit *test)
{
	struct plan_fixture *f = test->priv;
	const int n = 12;
	struct ftrace_ops *ops, *all, *ipm;
	struct ftrace_hash *h;
	int i;

	ops = kunit_kcalloc(test, n + 2, sizeof(*ops), GFP_KERNEL);
	KUNIT_EXPECT_NOT_NULL(test, ops);
	if (!ops)
		return;
	all = &ops[n];
	ipm = &ops[n + 1];
	all->func = cb;
	all->trampoline = site_ip(4);	/* any distinct address */
	ftrace_ops_init(all);
	all->flags |= FTRACE_OPS_FL_ENABLED;
	RCU_INIT_POINTER(all->next, &f->a);
	RCU_INIT_POINTER(f->list, all);
	KUNIT_EXPECT_EQ(test, ftrace_plan_block(&f->ctx, f->b), 0U);
	KUNIT_EXPECT_EQ(test, ftrace_rec_refs(rec_of(f, 0)), 2U);
	KUNIT_EXPECT_EQ(test, ftrace_rec_refs(rec_of(f, 1)), 3U);
	KUNIT_EXPECT_EQ(test, ftrace_rec_refs(rec_of(f, 2)), 1U);
	KUNIT_EXPECT_TRUE(test, rec_of(f, 1)->flags & FTRACE_FL_REGS);
	KUNIT_EXPECT_FALSE(test, rec_of(f, 2)->flags & FTRACE_FL_REGS);
	/* Site 2 is the trampoline ops' alone; site 0 is not. */
	KUNIT_EXPECT_TRUE(test, rec_of(f, 2)->flags & FTRACE_FL_TRAMP);
	KUNIT_EXPECT_FALSE(test, rec_of(f, 0)->flags & FTRACE_FL_TRAMP);
	/* Ops that choose site 2 by hash, one at a time. */
	for (i = 0; i < n; i++) {
		ops[i].func = cb;
		ftrace_ops_init(&ops[i]);
		h = new_hash(&ops[i].local_hash.filter_hash);
		KUNIT_EXPECT_NOT_NULL(test, h);
		if (!h)
			return;
		ftrace_hash_add(h, site_ip(2));
		ops[i].flags |= FTRACE_OPS_FL_ENABLED;
		RCU_INIT_POINTER(ops[i].next, rcu_dereference_raw(f->list));
		RCU_INIT_POINTER(f->list, &ops[i]);
		KUNIT_EXPECT_EQ(test, ftrace_plan_block(&f->ctx, f->b), 0U);
		KUNIT_EXPECT_EQ(test, ftrace_rec_refs(rec_of(f, 0)), 2U);
		KUNIT_EXPECT_EQ(test, ftrace_rec_refs(rec_of(f, 1)), 3U);
		KUNIT_EXPECT_EQ(test, ftrace_rec_refs(rec_of(f, 2)),
				(unsigned int)i + 2);
		KUNIT_EXPECT_FALSE(test, rec_of(f, 2)->flags & FTRACE_FL_TRAMP);
	}
	/* Two ops that want every site may both move the IP: all conflict. */
	for (i = 0; i < n; i++)
		ops[i].flags &= ~FTRACE_OPS_FL_ENABLED;
	f->a.flags &= ~FTRACE_OPS_FL_ENABLED;
	f->r.flags &= ~FTRACE_OPS_FL_ENABLED;
	all->flags |= FTRACE_OPS_FL_IPMODIFY;
	ipm->func = cb;
	ftrace_ops_init(ipm);
	ipm->flags |= FTRACE_OPS_FL_ENABLED | FTRACE_OPS_FL_IPMODIFY;
	RCU_INIT_POINTER(ipm->next, rcu_dereference_raw(f->list));
	RCU_INIT_POINTER(f->list, ipm);
	KUNIT_EXPECT_EQ(test, ftrace_plan_block(&f->ctx, f->b), f->b->count);
	ipm->flags &= ~FTRACE_OPS_FL_ENABLED;
	KUNIT_EXPECT_EQ(test, ftrace_plan_block(&f->ctx, f->b), 0U);
	KUNIT_EXPECT_TRUE(test, rec_of(f, 2)->flags & FTRACE_FL_IPMODIFY);
	RCU_INIT_POINTER(f->list, &f->a);
	for (i = 0; i < n; i++)
		ftrace_hash_free(rcu_dereference_raw(ops[i].local_hash.filter_hash));
}

static void mismatch_is_not_written(struct kunit *test)
{
	struct plan_fixture *f = test->priv;

	ftrace_plan_block(&f->ctx, f->b);
	fake_text[0].call = true;	/* someone else wrote the site */
	fake_text[0].target = 0x1234;
	KUNIT_EXPECT_EQ(test, run_fake(f, true), -EINVAL);
	KUNIT_EXPECT_EQ(test, f->bt->batch.patch[f->bt->batch.bad].ip,
			site_ip(0));
	KUNIT_EXPECT_EQ(test, fake_text[0].target, 0x1234UL);
	/* The whole batch is refused: site 1 is not written either. */
	KUNIT_EXPECT_EQ(test, fake_writes, 0);
	KUNIT_EXPECT_FALSE(test, rec_of(f, 0)->flags & FTRACE_FL_ENABLED);
	KUNIT_EXPECT_FALSE(test, rec_of(f, 1)->flags & FTRACE_FL_ENABLED);
}

/* Sites for the batch tests: more than two batches' worth. */
#define NWIDE (2 * FTRACE_BATCH_MAX + 100)
static struct fake_site wide_text[NWIDE];

static unsigned long wide_ip(int i)
{
	return (unsigned long)&wide_text[i];
}

/*
 * A block of NWIDE sites that ops @f->a alone wants, every one of them
 * (an empty filter), planned; or NULL.
 */
static struct ftrace_block *wide_block(struct plan_fixture *f)
{
	struct ftrace_hash *h = rcu_dereference_raw(f->a.local_hash.filter_hash);
	struct ftrace_block *b, *c;
	unsigned long *tab;
	int i;

	tab = kcalloc(NWIDE, sizeof(*tab), GFP_KERNEL);
	if (!tab)
		return NULL;
	for (i = 0; i < NWIDE; i++)
		tab[i] = wide_ip(i);
	memset(wide_text, 0, sizeof(wide_text));
	b = ftrace_blocks_build(NULL, tab, tab + NWIDE);
	kfree(tab);
	if (IS_ERR_OR_NULL(b))
		return NULL;
	ftrace_hash_clear(h);
	RCU_INIT_POINTER(f->a.next, &ftrace_list_end);
	for (c = b; c; c = rcu_dereference_raw(c->next))
		ftrace_plan_block(&f->ctx, c);
	return b;
}

/* The record of wide site @i in chain @b (NWIDE sites take two blocks). */
static struct ftrace_rec *wide_rec(struct ftrace_block *b, int i)
{
	struct ftrace_rec *r = NULL;

	for (; b && !r; b = rcu_dereference_raw(b->next))
		r = ftrace_block_find(b, wide_ip(i));
	return r;
}

static int wide_enabled(struct ftrace_block *b, int from, int to)
{
	int i, n = 0;

	for (i = from; i < to; i++)
		n += !!(wide_rec(b, i)->flags & FTRACE_FL_ENABLED);
	return n;
}

/* Many sites go in sorted batches of at most FTRACE_BATCH_MAX. */
static void batches_sorted_and_bounded(struct kunit *test)
{
	struct plan_fixture *f = test->priv;
	struct ftrace_block *b = wide_block(f);
	int i;

	KUNIT_EXPECT_NOT_NULL(test, b);
	if (!b)
		return;
	KUNIT_EXPECT_EQ(test, run_block(f, b, fake_patch, true), NWIDE);
	KUNIT_EXPECT_EQ(test, fake_batches, 3U);
	KUNIT_EXPECT_FALSE(test, fake_unsorted);
	for (i = 0; i < NWIDE; i++)
		KUNIT_EXPECT_EQ(test, wide_text[i].target,
				(unsigned long)FTRACE_ADDR);
	KUNIT_EXPECT_EQ(test, wide_enabled(b, 0, NWIDE), NWIDE);
	/* A second pass finds nothing to do. */
	KUNIT_EXPECT_EQ(test, run_block(f, b, fake_patch, true), 0);
	KUNIT_EXPECT_EQ(test, fake_batches, 3U);
	KUNIT_EXPECT_EQ(test, run_block(f, b, fake_patch, false), NWIDE);
	KUNIT_EXPECT_EQ(test, wide_enabled(b, 0, NWIDE), 0);
	ftrace_blocks_free(b);
}

/*
 * One ops with a trampoline wants every site of a wide block, and an ops
 * saving registers shares two sites in the middle.  The long runs of
 * equal flag words share one decision, across batches and past the two
 * that differ, and each site still gets what it alone would.
 */
static void lone_trampoline_over_many_sites(struct kunit *test)
{
	struct plan_fixture *f = test->priv;
	struct ftrace_hash *hr = rcu_dereference_raw(f->r.local_hash.filter_hash);
	const unsigned long tramp = 0x20000;	/* any distinct address */
	const int mid = FTRACE_BATCH_MAX + 40;
	struct ftrace_block *b, *c;
	int i, at_tramp = 0;

	f->a.trampoline = tramp;
	b = wide_block(f);
	KUNIT_EXPECT_NOT_NULL(test, b);
	if (!b)
		return;
	ftrace_hash_clear(hr);
	ftrace_hash_add(hr, wide_ip(mid));
	ftrace_hash_add(hr, wide_ip(mid + 1));
	RCU_INIT_POINTER(f->r.next, &ftrace_list_end);
	RCU_INIT_POINTER(f->a.next, &f->r);
	for (c = b; c; c = rcu_dereference_raw(c->next))
		ftrace_plan_block(&f->ctx, c);

	KUNIT_EXPECT_EQ(test, run_block(f, b, fake_patch, true), NWIDE);
	KUNIT_EXPECT_FALSE(test, fake_unsorted);
	for (i = 0; i < NWIDE; i++) {
		bool shared = i == mid || i == mid + 1;
		u32 fl = wide_rec(b, i)->flags;

		KUNIT_EXPECT_EQ(test, wide_text[i].target,
				shared ? (unsigned long)FTRACE_REGS_ADDR : tramp);
		KUNIT_EXPECT_EQ(test, !!(fl & FTRACE_FL_TRAMP_EN), !shared);
		at_tramp += wide_text[i].target == tramp;
	}
	KUNIT_EXPECT_EQ(test, at_tramp, NWIDE - 2);
	/* A second pass finds nothing to do; turning off expects the calls. */
	KUNIT_EXPECT_EQ(test, run_block(f, b, fake_patch, true), 0);
	KUNIT_EXPECT_EQ(test, run_block(f, b, fake_patch, false), NWIDE);
	KUNIT_EXPECT_EQ(test, wide_enabled(b, 0, NWIDE), 0);
	ftrace_blocks_free(b);
}

/* The site the refusal tests spoil: in the second batch. */
#define WIDE_BAD (FTRACE_BATCH_MAX + 44)

/* wide_block() with site WIDE_BAD holding a call nobody made. */
static struct ftrace_block *wide_block_spoilt(struct plan_fixture *f)
{
	struct ftrace_block *b = wide_block(f);

	wide_text[WIDE_BAD].call = true;
	wide_text[WIDE_BAD].target = 0x1234;
	return b;
}

/*
 * A refused batch stops the update: the batches before it stay written
 * and recorded, nothing of it or after it is written.
 */
static void refused_batch_stops(struct kunit *test)
{
	struct plan_fixture *f = test->priv;
	struct ftrace_block *b = wide_block_spoilt(f);
	int bad = WIDE_BAD;

	KUNIT_EXPECT_NOT_NULL(test, b);
	if (!b)
		return;
	KUNIT_EXPECT_EQ(test, run_block(f, b, fake_patch, true), -EINVAL);
	KUNIT_EXPECT_EQ(test, f->bt->written, (unsigned int)FTRACE_BATCH_MAX);
	KUNIT_EXPECT_EQ(test, f->bt->batch.patch[f->bt->batch.bad].ip,
			wide_ip(bad));
	KUNIT_EXPECT_EQ(test, fake_writes, FTRACE_BATCH_MAX);
	KUNIT_EXPECT_EQ(test, wide_enabled(b, 0, FTRACE_BATCH_MAX),
			FTRACE_BATCH_MAX);
	KUNIT_EXPECT_EQ(test, wide_enabled(b, FTRACE_BATCH_MAX, NWIDE), 0);
	KUNIT_EXPECT_EQ(test, wide_text[bad].target, 0x1234UL);
	ftrace_blocks_free(b);
}

/* A back end that wrote part of a batch: exactly that part is recorded. */
static void partial_batch_recorded(struct kunit *test)
{
	struct plan_fixture *f = test->priv;
	struct ftrace_block *b = wide_block_spoilt(f);
	int bad = WIDE_BAD;

	KUNIT_EXPECT_NOT_NULL(test, b);
	if (!b)
		return;
	KUNIT_EXPECT_EQ(test, run_block(f, b, fake_patch_each, true), -EINVAL);
	KUNIT_EXPECT_EQ(test, f->bt->written, (unsigned int)bad);
	KUNIT_EXPECT_EQ(test, wide_enabled(b, 0, bad), bad);
	KUNIT_EXPECT_EQ(test, wide_enabled(b, bad, NWIDE), 0);
	/* What was recorded is what was written: turning off undoes it. */
	wide_text[bad].call = false;
	KUNIT_EXPECT_EQ(test, run_block(f, b, fake_patch, false), bad);
	ftrace_blocks_free(b);
}

/*
 * A later block at lower addresses (module text below the kernel's) makes
 * the batch go first: every batch stays sorted.
 */
static void batches_stay_sorted(struct kunit *test)
{
	struct plan_fixture *f = test->priv;
	struct ftrace_block *b = wide_block(f), *hi, *lo;
	unsigned long *tab;
	int i, split = 300;

	KUNIT_EXPECT_NOT_NULL(test, b);
	if (!b)
		return;
	ftrace_blocks_free(b);
	tab = kunit_kcalloc(test, NWIDE, sizeof(*tab), GFP_KERNEL);
	KUNIT_EXPECT_NOT_NULL(test, tab);
	if (!tab)
		return;
	for (i = 0; i < NWIDE; i++)
		tab[i] = wide_ip(i);
	hi = ftrace_blocks_build(NULL, tab + split, tab + NWIDE);
	lo = ftrace_blocks_build(NULL, tab, tab + split);
	KUNIT_EXPECT_FALSE(test, IS_ERR_OR_NULL(hi));
	KUNIT_EXPECT_FALSE(test, IS_ERR_OR_NULL(lo));
	if (IS_ERR_OR_NULL(hi) || IS_ERR_OR_NULL(lo))
		return;
	KUNIT_EXPECT_NULL(test, rcu_dereference_raw(hi->next));
	if (rcu_dereference_raw(hi->next))
		return;
	RCU_INIT_POINTER(hi->next, lo);
	for (b = hi; b; b = rcu_dereference_raw(b->next))
		ftrace_plan_block(&f->ctx, b);
	KUNIT_EXPECT_EQ(test, run_block(f, hi, fake_patch, true), NWIDE);
	KUNIT_EXPECT_FALSE(test, fake_unsorted);
	/* 312 sites: 256 and 56; then 300: 256 and 44. */
	KUNIT_EXPECT_EQ(test, fake_batches, 4U);
	KUNIT_EXPECT_EQ(test, wide_enabled(hi, 0, NWIDE), NWIDE);
	ftrace_blocks_free(hi);
}

/* Fresh sites: the compiler's call becomes the NOP; records stay as built. */
static void init_batch(struct kunit *test)
{
	struct plan_fixture *f = test->priv;
	struct ftrace_block *b = wide_block(f), *c;
	int i;

	KUNIT_EXPECT_NOT_NULL(test, b);
	if (!b)
		return;
	for (i = 0; i < NWIDE; i++) {
		wide_text[i].call = true;
		wide_text[i].target = MCOUNT_ADDR;
	}
	/*
	 * The records keep their planned state (one user each): an init
	 * batch must not record the NOPs it writes as a change of state.
	 */
	ftrace_batcher_start(f->bt, &f->ctx, fake_patch, true, false, NULL);
	for (c = b; c; c = rcu_dereference_raw(c->next))
		KUNIT_EXPECT_EQ(test, ftrace_batcher_init_block(f->bt, c), 0);
	KUNIT_EXPECT_EQ(test, ftrace_batcher_flush(f->bt), 0);
	KUNIT_EXPECT_TRUE(test, f->bt->batch.init);
	KUNIT_EXPECT_EQ(test, f->bt->written, (unsigned int)NWIDE);
	for (i = 0; i < NWIDE; i++) {
		KUNIT_EXPECT_FALSE(test, wide_text[i].call);
		KUNIT_EXPECT_EQ(test, wide_rec(b, i)->flags, 1U);
	}
	ftrace_blocks_free(b);
}

/* Sample every FTRACE_FRESH_SAMPLE-th fresh site of the chain at @b. */
static unsigned int sample_chain(struct plan_fixture *f, struct ftrace_block *b,
				 unsigned int *seen)
{
	struct ftrace_block *c;
	unsigned int changed = 0;

	fake_seen = 0;
	for (c = b; c; c = rcu_dereference_raw(c->next)) {
		ftrace_batcher_start(f->bt, &f->ctx, fake_patch_fresh, false, false, NULL);
		if (ftrace_batcher_init_sample(f->bt, c, FTRACE_FRESH_SAMPLE) ||
		    ftrace_batcher_flush(f->bt))
			return UINT_MAX;
		changed += f->bt->changed;
	}
	*seen = fake_seen;
	return changed;
}

/*
 * Sites the build left idle: a sample of them is looked at (every 16th
 * and each block's last), and nothing is written.
 */
static void fresh_sample_idle(struct kunit *test)
{
	struct plan_fixture *f = test->priv;
	struct ftrace_block *b = wide_block(f), *c;
	unsigned int seen, want = 0;

	KUNIT_EXPECT_NOT_NULL(test, b);
	if (!b)
		return;
	for (c = b; c; c = rcu_dereference_raw(c->next))
		want += DIV_ROUND_UP(c->count, FTRACE_FRESH_SAMPLE) +
			!!((c->count - 1) % FTRACE_FRESH_SAMPLE);
	fake_writes = 0;
	KUNIT_EXPECT_EQ(test, sample_chain(f, b, &seen), 0U);
	KUNIT_EXPECT_EQ(test, seen, want);
	KUNIT_EXPECT_LT(test, seen, (unsigned int)NWIDE / 8);
	KUNIT_EXPECT_EQ(test, fake_writes, 0);
	ftrace_blocks_free(b);
}

/*
 * A sampled site that still holds the compiler's call is changed and
 * counted: the core then converts the whole block, which reaches the
 * calls the sample missed.
 */
static void fresh_sample_finds_call(struct kunit *test)
{
	struct plan_fixture *f = test->priv;
	struct ftrace_block *b = wide_block(f), *c;
	unsigned int seen, i;

	KUNIT_EXPECT_NOT_NULL(test, b);
	if (!b)
		return;
	for (i = 2 * FTRACE_FRESH_SAMPLE; i < 4 * FTRACE_FRESH_SAMPLE; i++) {
		wide_text[i].call = true;
		wide_text[i].target = MCOUNT_ADDR;
	}
	KUNIT_EXPECT_EQ(test, sample_chain(f, b, &seen), 2U);
	/* Not sampled: still the call. */
	KUNIT_EXPECT_TRUE(test, wide_text[2 * FTRACE_FRESH_SAMPLE + 1].call);
	for (c = b; c; c = rcu_dereference_raw(c->next)) {
		ftrace_batcher_start(f->bt, &f->ctx, fake_patch_fresh, false, false, NULL);
		KUNIT_EXPECT_EQ(test, ftrace_batcher_init_block(f->bt, c), 0);
		KUNIT_EXPECT_EQ(test, ftrace_batcher_flush(f->bt), 0);
	}
	for (i = 0; i < NWIDE; i++)
		KUNIT_EXPECT_FALSE(test, wide_text[i].call);
	ftrace_blocks_free(b);
}

static void ipmodify_conflict(struct kunit *test)
{
	struct plan_fixture *f = test->priv;

	f->a.flags |= FTRACE_OPS_FL_IPMODIFY;
	KUNIT_EXPECT_EQ(test, ftrace_plan_block(&f->ctx, f->b), 0U);
	f->r.flags |= FTRACE_OPS_FL_IPMODIFY;
	KUNIT_EXPECT_EQ(test, ftrace_plan_block(&f->ctx, f->b), 1U);
}

/*
 * An ops that moves the IP takes no notrace hash; while registered, its
 * filter (or a direct ops' filter) cannot become empty, which would
 * select every function.  A refusal leaves the filter as it was.
 */
static void ipmodify_hash_guards(struct kunit *test)
{
	struct plan_fixture *f = test->priv;
	struct ftrace_hash *before, *h = ftrace_hash_copy(NULL);

	if (!h) {
		KUNIT_FAIL(test, "no memory");
		return;
	}
	before = ftrace_ops_hash_locked(&f->a, false);
	f->a.flags |= FTRACE_OPS_FL_IPMODIFY;
	KUNIT_EXPECT_EQ(test, ftrace_ops_set_hash(&f->a, true, h), -EINVAL);
	KUNIT_EXPECT_EQ(test, ftrace_ops_set_hash(&f->a, false, h), -EINVAL);
	f->a.flags &= ~FTRACE_OPS_FL_IPMODIFY;
	f->a.flags |= FTRACE_OPS_FL_DIRECT;
	KUNIT_EXPECT_EQ(test, ftrace_ops_set_hash(&f->a, false, h), -EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, ftrace_ops_hash_locked(&f->a, false), before);
	f->a.flags &= ~FTRACE_OPS_FL_DIRECT;
	ftrace_hash_free(h);
}

/*
 * ftrace_ops_take_hash() publishes the caller's entries themselves and
 * leaves the caller's hash without them; a refusal leaves both alone.
 */
static void take_hash_publishes(struct kunit *test)
{
	struct plan_fixture *f = test->priv;
	struct ftrace_hash *pub, *h = ftrace_hash_copy(NULL);
	struct ftrace_func_entry *e;

	if (!h || ftrace_hash_add(h, site_ip(2)) || ftrace_hash_add(h, site_ip(3))) {
		ftrace_hash_free(h);
		KUNIT_FAIL(test, "no memory");
		return;
	}
	e = ftrace_lookup_ip(h, site_ip(3));
	f->a.flags |= FTRACE_OPS_FL_IPMODIFY;
	KUNIT_EXPECT_EQ(test, ftrace_ops_take_hash(&f->a, true, h), -EINVAL);
	KUNIT_EXPECT_EQ(test, h->count, 2UL);
	f->a.flags &= ~FTRACE_OPS_FL_IPMODIFY;
	KUNIT_EXPECT_EQ(test, ftrace_ops_take_hash(&f->a, false, h), 0);
	pub = ftrace_ops_hash_locked(&f->a, false);
	KUNIT_EXPECT_EQ(test, pub->count, 2UL);
	KUNIT_EXPECT_PTR_EQ(test, ftrace_lookup_ip(pub, site_ip(3)), e);
	KUNIT_EXPECT_NOT_NULL(test, ftrace_lookup_ip(pub, site_ip(2)));
	KUNIT_EXPECT_NULL(test, ftrace_lookup_ip(pub, site_ip(0)));
	KUNIT_EXPECT_EQ(test, h->count, 0UL);
	ftrace_hash_free(h);
}

static int share_ok(struct ftrace_ops *op, enum ftrace_ops_cmd cmd)
{
	return 0;
}

/*
 * A direct ops shares a site with one IP mover only when its owner can be
 * told (ops_func, as BPF trampolines have); two IP movers never share.
 */
static void direct_shares_with_ipmodify(struct kunit *test)
{
	struct plan_fixture *f = test->priv;

	/* Not kunit_skip(): that would leave with ftrace_lock held. */
	if (!IS_ENABLED(CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS)) {
		kunit_mark_skipped(test, "no direct calls");
		return;
	}
	f->a.flags |= FTRACE_OPS_FL_IPMODIFY;
	f->r.flags |= FTRACE_OPS_FL_DIRECT;
	KUNIT_EXPECT_EQ(test, ftrace_plan_block(&f->ctx, f->b), 1U);
	f->r.ops_func = share_ok;
	KUNIT_EXPECT_EQ(test, ftrace_plan_block(&f->ctx, f->b), 0U);
	KUNIT_EXPECT_TRUE(test, rec_of(f, 1)->flags & FTRACE_FL_IPMODIFY);
	KUNIT_EXPECT_TRUE(test, rec_of(f, 1)->flags & FTRACE_FL_DIRECT);
	f->r.flags &= ~FTRACE_OPS_FL_DIRECT;
	f->r.flags |= FTRACE_OPS_FL_IPMODIFY;
	KUNIT_EXPECT_EQ(test, ftrace_plan_block(&f->ctx, f->b), 1U);
}

static void notrace_and_disabled(struct kunit *test)
{
	struct plan_fixture *f = test->priv;
	struct ftrace_hash *h;

	h = new_hash(&f->a.local_hash.notrace_hash);
	KUNIT_EXPECT_NOT_NULL(test, h);
	if (!h)
		return;
	ftrace_hash_add(h, site_ip(0));
	rec_of(f, 1)->flags |= FTRACE_FL_DISABLED;
	ftrace_plan_block(&f->ctx, f->b);
	KUNIT_EXPECT_EQ(test, ftrace_rec_refs(rec_of(f, 0)), 0U);
	KUNIT_EXPECT_EQ(test, run_fake(f, true), 0);
	KUNIT_EXPECT_EQ(test, fake_writes, 0);
	ftrace_hash_free(h);
	RCU_INIT_POINTER(f->a.local_hash.notrace_hash, NULL);
}

/* Function probes. */

static int probe_inits, probe_frees, probe_frees_all;
static unsigned long probe_init_ip, probe_free_ip;

static void probe_nop(unsigned long ip, unsigned long parent_ip,
		      struct trace_array *tr, struct ftrace_probe_ops *ops,
		      void *data)
{
}

/* Takes the first function, fails on the second. */
static int probe_init_second_fails(struct ftrace_probe_ops *ops,
				   struct trace_array *tr, unsigned long ip,
				   void *init_data, void **data)
{
	if (++probe_inits > 1)
		return -ENOMEM;
	probe_init_ip = ip;
	return 0;
}

static void probe_count_free(struct ftrace_probe_ops *ops,
			     struct trace_array *tr, unsigned long ip,
			     void *data)
{
	if (!ip) {
		probe_frees_all++;
		return;
	}
	probe_frees++;
	probe_free_ip = ip;
}

/*
 * A registration whose ->init() fails part way frees what the earlier
 * ->init() calls set up, returns the error and leaves no probe behind.
 */
static struct ftrace_probe_ops failing_probe = {
	.func = probe_nop,
	.init = probe_init_second_fails,
	.free = probe_count_free,
};

static void probe_init_failure_undone(struct kunit *test)
{
	struct trace_array *tr = kunit_kzalloc(test, sizeof(*tr), GFP_KERNEL);
	char glob[] = "vfs_*";
	int ret;

	KUNIT_ASSERT_NOT_NULL(test, tr);
	INIT_LIST_HEAD(&tr->func_probes);
	probe_inits = 0;
	probe_frees = 0;
	probe_frees_all = 0;
	ret = register_ftrace_function_probe(glob, tr, &failing_probe, NULL);
	/* Never leave a probe behind on real functions. */
	if (ret >= 0)
		unregister_ftrace_function_probe_func(glob, tr, &failing_probe);
	KUNIT_EXPECT_EQ(test, ret, -ENOMEM);
	KUNIT_EXPECT_EQ(test, probe_inits, 2);
	KUNIT_EXPECT_EQ(test, probe_frees, 1);
	KUNIT_EXPECT_EQ(test, probe_free_ip, probe_init_ip);
	/* The probe itself went: its shared data freed once, by address 0. */
	KUNIT_EXPECT_EQ(test, probe_frees_all, 1);
	KUNIT_EXPECT_TRUE(test, list_empty(&tr->func_probes));
}

/*
 * Errors of the filter-by-address API, which BPF's kprobe_multi links
 * pass to user space: -EINVAL for an address with no call site, -ENOENT
 * for removing a site the filter does not hold; as in 6.1.
 */
static void filter_ip_errors(struct kunit *test)
{
	struct ftrace_ops *ops = kunit_kzalloc(test, sizeof(*ops), GFP_KERNEL);
	unsigned long ip = ftrace_location((unsigned long)vfs_read);

	KUNIT_ASSERT_NOT_NULL(test, ops);
	if (!ip)
		kunit_skip(test, "vfs_read is not traceable");
	/* Inside vfs_read, past its call site's instruction. */
	KUNIT_EXPECT_EQ(test, ftrace_set_filter_ip(ops, ip + 16, 0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, ftrace_set_filter_ip(ops, ip, 1, 0), -ENOENT);
	KUNIT_EXPECT_EQ(test, ftrace_set_filter_ip(ops, ip, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, ftrace_set_filter_ip(ops, ip, 1, 0), 0);
	ftrace_free_filter(ops);
}

/* ftrace_lookup_symbols(): each name once, and found, as in 6.1. */
static void lookup_symbols_rules(struct kunit *test)
{
	const char *syms[2] = { "vfs_read", "vfs_write" };
	unsigned long addrs[2];

	if (!ftrace_location((unsigned long)vfs_read) ||
	    !ftrace_location((unsigned long)vfs_write))
		kunit_skip(test, "vfs_read or vfs_write is not traceable");
	KUNIT_EXPECT_EQ(test, ftrace_lookup_symbols(syms, 2, addrs), 0);
	KUNIT_EXPECT_NE(test, ftrace_location(addrs[0]), 0UL);
	KUNIT_EXPECT_NE(test, ftrace_location(addrs[1]), 0UL);
	KUNIT_EXPECT_NE(test, addrs[0], addrs[1]);
	syms[1] = "vfs_read";
	KUNIT_EXPECT_EQ(test, ftrace_lookup_symbols(syms, 2, addrs), -ESRCH);
	syms[0] = "no_such_fn_xyz";
	KUNIT_EXPECT_EQ(test, ftrace_lookup_symbols(syms, 1, addrs), -ESRCH);
	KUNIT_EXPECT_EQ(test, addrs[0], 0UL);
}

static int cmp_name_ptr(const void *a, const void *b)
{
	return strcmp(*(const char * const *)a, *(const char * const *)b);
}

/*
 * ftrace_lookup_symbols() looks many names up in one walk over the
 * records, a few by a binary search each: both give every name the same
 * address.  The names of every 8th vmlinux record (enough for the walk),
 * then with one more that no record has.
 */
static void lookup_symbols_walk_agrees(struct kunit *test)
{
	unsigned long nr = ftrace_nr_records(), *addrs, one;
	struct kallsyms_walk kw = { };
	struct ftrace_block *b;
	size_t n = 0, i, k, cap = nr / 8 + 2;
	const char **syms;
	char *name;

	name = kunit_kmalloc(test, KSYM_NAME_LEN, GFP_KERNEL);
	syms = kunit_kcalloc(test, cap, sizeof(*syms), GFP_KERNEL);
	addrs = kunit_kcalloc(test, cap, sizeof(*addrs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, name);
	KUNIT_ASSERT_NOT_NULL(test, syms);
	KUNIT_ASSERT_NOT_NULL(test, addrs);
	mutex_lock(&ftrace_lock);
	for_each_ftrace_block(b) {
		for (i = 0; !b->mod && i < b->count && n < cap - 1; i += 8) {
			if (!kallsyms_walk_name(&kw, ftrace_rec_ip(b, &b->recs[i]),
						name))
				continue;
			syms[n] = kstrdup(name, GFP_KERNEL);
			if (syms[n])
				n++;
		}
	}
	mutex_unlock(&ftrace_lock);
	sort(syms, n, sizeof(*syms), cmp_name_ptr, NULL);
	/* Each name once (static functions may share one). */
	for (i = k = 0; i < n; i++) {
		if (k && !strcmp(syms[i], syms[k - 1]))
			kfree(syms[i]);
		else
			syms[k++] = syms[i];
	}
	n = k;
	if (n * 32 < nr)
		goto out;
	KUNIT_EXPECT_EQ(test, ftrace_lookup_symbols(syms, n, addrs), 0);
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ_MSG(test, ftrace_lookup_symbols(&syms[i], 1, &one), 0,
				    "%s", syms[i]);
		KUNIT_EXPECT_EQ_MSG(test, addrs[i], one, "%s", syms[i]);
		KUNIT_EXPECT_NE_MSG(test, ftrace_location(addrs[i]), 0UL, "%s",
				    syms[i]);
	}
	/* A name no record has: the rest are found, the lookup fails. */
	syms[n] = "ftrace_lookup_symbols";
	sort(syms, n + 1, sizeof(*syms), cmp_name_ptr, NULL);
	KUNIT_EXPECT_EQ(test, ftrace_lookup_symbols(syms, n + 1, addrs), -ESRCH);
	for (i = k = 0; i <= n; i++)
		k += !addrs[i];
	KUNIT_EXPECT_EQ(test, k, 1);
	for (i = 0; i <= n; i++)
		if (strcmp(syms[i], "ftrace_lookup_symbols"))
			kfree(syms[i]);
	return;
out:
	for (i = 0; i < n; i++)
		kfree(syms[i]);
	kunit_skip(test, "%zu names, too few for the walk of %lu records", n, nr);
}

static void kunit_nop_call(unsigned long ip, unsigned long parent_ip,
			   struct ftrace_ops *op, struct ftrace_regs *fregs)
{
}

/* An IP mover or a direct ops with an empty filter ("all") is refused. */
static void ipmodify_direct_need_filter(struct kunit *test)
{
	static const unsigned long kinds[] = {
		FTRACE_OPS_FL_IPMODIFY, FTRACE_OPS_FL_DIRECT,
	};
	struct ftrace_ops *ops;
	int i, ret;

	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		ops = kunit_kzalloc(test, sizeof(*ops), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, ops);
		ops->func = kunit_nop_call;
		ops->flags = kinds[i];
		ret = register_ftrace_function(ops);
		KUNIT_EXPECT_EQ_MSG(test, ret, -EINVAL, "flags %lx", kinds[i]);
		if (!ret)
			unregister_ftrace_function(ops);
		ftrace_free_filter(ops);
	}
}

struct unregister_work {
	struct ftrace_ops *ops;
	/* How to unregister it: unregister_ftrace_function() when NULL. */
	int (*unregister)(struct ftrace_ops *ops);
	struct completion done;
	int ret;
};

static int unregister_thread(void *data)
{
	struct unregister_work *u = data;

	u->ret = (u->unregister ?: unregister_ftrace_function)(u->ops);
	complete(&u->done);
	return 0;
}

/*
 * What the site at @ip calls now, read with preemption off as
 * ftrace_site_target() asks (ftrace_lock would make some watches sleep).
 */
static unsigned long site_target_now(unsigned long ip)
{
	unsigned long target;

	preempt_disable();
	target = ftrace_site_target(ip);
	preempt_enable();
	return target;
}

/*
 * A dynamic ops' trampoline stays known (is_ftrace_trampoline(), which
 * unwinders and kallsyms ask) while its unregistration waits for tasks
 * that may be inside it: from when its function stops calling it until it
 * is freed.  Watched from here while a thread unregisters the ops.
 *
 * The watch never sleeps: a task that has not given up its CPU of its own
 * accord holds up the wait for tasks (RCU-tasks) just as one preempted
 * inside the trampoline would.  So once the site has moved, every look
 * before the watch ends falls inside that wait, however the two threads
 * are scheduled, and must find the trampoline known.
 */
static void tramp_listed_through_wait(struct kunit *test)
{
	unsigned long ip = ftrace_location((unsigned long)vfs_read), tramp;
	unsigned int moved = 0, known = 0;
	struct unregister_work u = { };
	struct task_struct *t;
	unsigned long until;

	if (!ip || !IS_ENABLED(CONFIG_PREEMPTION))
		kunit_skip(test, "no traceable vfs_read, or no wait for tasks");
	u.ops = kunit_kzalloc(test, sizeof(*u.ops), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, u.ops);
	u.ops->func = kunit_nop_call;
	KUNIT_ASSERT_EQ(test, ftrace_set_filter_ip(u.ops, ip, 0, 0), 0);
	KUNIT_ASSERT_EQ(test, register_ftrace_function(u.ops), 0);
	tramp = u.ops->trampoline;
	init_completion(&u.done);
	if (!tramp || site_target_now(ip) != tramp) {
		unregister_ftrace_function(u.ops);
		ftrace_free_filter(u.ops);
		kunit_skip(test, "vfs_read does not call the ops' own trampoline");
	}
	t = kthread_run(unregister_thread, &u, "ftrace-kunit-unreg");
	if (IS_ERR(t)) {
		unregister_ftrace_function(u.ops);
		ftrace_free_filter(u.ops);
		KUNIT_FAIL(test, "no thread: %ld", PTR_ERR(t));
		return;
	}
	/*
	 * Half a second of looks after the move (long enough for the waits
	 * before the one for tasks, and for that one to start), within five
	 * seconds in all: then let the wait end.
	 */
	until = jiffies + 5 * HZ;
	while (!completion_done(&u.done) && time_before(jiffies, until)) {
		if (site_target_now(ip) != tramp) {
			if (!moved++ && time_before(jiffies + HZ / 2, until))
				until = jiffies + HZ / 2;
			known += is_ftrace_trampoline(tramp);
		}
		/* Preemption, not a sleep: the wait still counts this task. */
		cond_resched();
		cpu_relax();
	}
	wait_for_completion(&u.done);
	ftrace_free_filter(u.ops);
	if (!moved)
		kunit_skip(test, "the site did not move within the watch");
	KUNIT_EXPECT_EQ_MSG(test, known, moved,
			    "the trampoline was forgotten before the wait for tasks in it (known in %u of %u looks)",
			    known, moved);
	KUNIT_EXPECT_FALSE(test, is_ftrace_trampoline(tramp));
}

struct tasks_holder {
	struct completion running;
	struct completion done;
	unsigned long until;
	bool stop;
};

/*
 * Spin without ever giving up the CPU of its own accord, which holds back
 * every wait for tasks (RCU-tasks) started meanwhile, until told to stop
 * or until @until (so a test that goes wrong still ends).
 */
static int hold_tasks_thread(void *data)
{
	struct tasks_holder *h = data;

	complete(&h->running);
	while (!READ_ONCE(h->stop) && time_before(jiffies, h->until))
		cpu_relax();
	complete(&h->done);
	return 0;
}

/*
 * Start a holder, for 60 s at most (long enough for a slow guest; the
 * tests stop it at once), and wait until it runs.  Return: 0 or the
 * error of kthread_run().
 */
static int holder_start(struct tasks_holder *h)
{
	struct task_struct *t;

	init_completion(&h->running);
	init_completion(&h->done);
	h->stop = false;
	h->until = jiffies + 60 * HZ;
	t = kthread_run(hold_tasks_thread, h, "ftrace-kunit-hold");
	if (IS_ERR(t))
		return PTR_ERR(t);
	wait_for_completion(&h->running);
	return 0;
}

/* Stop a started holder and wait until it has. */
static void holder_stop(struct tasks_holder *h)
{
	WRITE_ONCE(h->stop, true);
	wait_for_completion(&h->done);
}

/*
 * While one unregistration waits for tasks that a preempted task holds
 * back, other ops register: the wait holds no lock of the core.  The ops
 * still leaving cannot be registered again (-EBUSY), and a second
 * unregistration of it fails (-EBUSY) only once the first has ended: its
 * trampoline stays known until then.
 */
static void register_while_unregister_waits(struct kunit *test)
{
	unsigned long ip_a = ftrace_location((unsigned long)ksys_sync);
	unsigned long ip_b = ftrace_location((unsigned long)vfs_read);
	struct unregister_work u = { }, u2 = { };
	struct tasks_holder h = { };
	unsigned long limit, tramp;
	int ret, again = -EBUSY;
	struct task_struct *t;
	struct ftrace_ops *b;
	bool held, second = false;

	if (!ip_a || !ip_b)
		kunit_skip(test, "ksys_sync or vfs_read is not traceable");
	/* A spinning task is preempted, not switched away of its own accord. */
	if (!preempt_model_preemptible() || num_online_cpus() < 2)
		kunit_skip(test, "no full preemption, or one CPU");
	u.ops = kunit_kzalloc(test, sizeof(*u.ops), GFP_KERNEL);
	b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, u.ops);
	KUNIT_ASSERT_NOT_NULL(test, b);
	u.ops->func = kunit_nop_call;
	b->func = kunit_nop_call;
	u2.ops = u.ops;
	KUNIT_ASSERT_EQ(test, ftrace_set_filter_ip(u.ops, ip_a, 0, 0), 0);
	KUNIT_ASSERT_EQ(test, ftrace_set_filter_ip(b, ip_b, 0, 0), 0);
	KUNIT_ASSERT_EQ(test, register_ftrace_function(u.ops), 0);
	tramp = u.ops->trampoline;

	init_completion(&u.done);
	init_completion(&u2.done);
	ret = holder_start(&h);
	if (ret) {
		unregister_ftrace_function(u.ops);
		KUNIT_FAIL(test, "no holding thread: %d", ret);
		goto free;
	}
	t = kthread_run(unregister_thread, &u, "ftrace-kunit-unreg");
	if (IS_ERR(t)) {
		holder_stop(&h);
		unregister_ftrace_function(u.ops);
		KUNIT_FAIL(test, "no thread: %ld", PTR_ERR(t));
		goto free;
	}
	/* Until the ops has left the list: its wait comes after that. */
	limit = jiffies + 10 * HZ;
	while (READ_ONCE(u.ops->flags) & FTRACE_OPS_FL_ENABLED &&
	       time_before(jiffies, limit))
		usleep_range(1000, 2000);
	if (READ_ONCE(u.ops->flags) & FTRACE_OPS_FL_ENABLED) {
		holder_stop(&h);
		wait_for_completion(&u.done);
		kunit_mark_skipped(test, "the unregistration did not start within 10 s");
		goto free;
	}

	ret = register_ftrace_function(b);
	held = !completion_done(&h.done);
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_TRUE_MSG(test, held,
			      "a registration waited for another's wait for tasks");
	if (!completion_done(&u.done)) {
		/* Still leaving: not free to come back. */
		again = register_ftrace_function(u.ops);
		KUNIT_EXPECT_EQ(test, again, -EBUSY);
		/* A second unregistration waits for the first. */
		t = kthread_run(unregister_thread, &u2, "ftrace-kunit-unreg2");
		second = !IS_ERR(t);
		if (second) {
			msleep(100);
			if (!completion_done(&u.done)) {
				KUNIT_EXPECT_FALSE_MSG(test, completion_done(&u2.done),
						       "a second unregistration ended before the first");
				if (tramp)
					KUNIT_EXPECT_TRUE(test, is_ftrace_trampoline(tramp));
			}
		}
	} else if (held && !ret) {
		kunit_mark_skipped(test, "the wait for tasks ended while a task held it back");
	}

	holder_stop(&h);
	wait_for_completion(&u.done);
	KUNIT_EXPECT_EQ(test, u.ret, 0);
	if (second) {
		wait_for_completion(&u2.done);
		KUNIT_EXPECT_EQ(test, u2.ret, -EBUSY);
	}
	if (!again)
		unregister_ftrace_function(u.ops);
	KUNIT_EXPECT_FALSE(test, u.ops->flags &
			   (FTRACE_OPS_FL_ENABLED | FTRACE_OPS_FL_REMOVING));
	/* (Had @b registered after the free, it could have the same address.) */
	if (tramp && held)
		KUNIT_EXPECT_FALSE(test, is_ftrace_trampoline(tramp));
	if (!ret)
		KUNIT_EXPECT_EQ(test, unregister_ftrace_function(b), 0);
free:
	ftrace_free_filter(u.ops);
	ftrace_free_filter(b);
}

#if defined(CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS) && !defined(FTRACE_KBASE_612)
/* The do-nothing direct target of both back ends (6.12 declares it). */
void ftrace_stub_direct_tramp(void);

struct direct_unregister_work {
	unsigned long ip;
	struct completion done;
	int ret;
};

static int direct_unregister_thread(void *data)
{
	struct direct_unregister_work *w = data;

	w->ret = unregister_ftrace_direct(w->ip,
					  (unsigned long)ftrace_stub_direct_tramp);
	complete(&w->done);
	return 0;
}

static unsigned long direct_target_now(unsigned long ip)
{
	unsigned long addr;

	preempt_disable();
	addr = ftrace_find_rec_direct(ip);
	preempt_enable();
	return addr;
}
#endif

/*
 * 6.1's unregister_ftrace_direct() returns only once no task can be
 * inside the target, which its owner may free next (a module's
 * trampoline, at rmmod), and waits for that only when the target's last
 * site goes, as 6.1 does.  With RCU-tasks held back by a task that never
 * yields: one of two sites of the target goes at once; the last has its
 * site unpatched and the target dropped, but has not returned.
 */
static void direct_unregister_waits_for_tasks(struct kunit *test)
{
#if defined(CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS) && !defined(FTRACE_KBASE_612)
	unsigned long ip = ftrace_location((unsigned long)ksys_sync);
	unsigned long ip_c = ftrace_location((unsigned long)sync_filesystem);
	unsigned long addr = (unsigned long)ftrace_stub_direct_tramp;
	struct direct_unregister_work w = { .ip = ip };
	struct tasks_holder h = { };
	struct task_struct *t;
	unsigned long limit;
	bool returned;
	int ret;

	if (!ip || !ip_c)
		kunit_skip(test, "ksys_sync or sync_filesystem is not traceable");
	/* A spinning task is preempted, not switched away of its own accord. */
	if (!preempt_model_preemptible() || num_online_cpus() < 2)
		kunit_skip(test, "no full preemption, or one CPU");
	if (site_target_now(ip) || site_target_now(ip_c))
		kunit_skip(test, "ksys_sync or sync_filesystem is traced already");
	init_completion(&w.done);
	ret = register_ftrace_direct(ip, addr);
	KUNIT_ASSERT_EQ(test, ret, 0);
	ret = register_ftrace_direct(ip_c, addr);
	if (ret) {
		unregister_ftrace_direct(ip, addr);
		KUNIT_FAIL(test, "a second site of the target: %d", ret);
		return;
	}
	KUNIT_EXPECT_EQ(test, direct_target_now(ip), addr);
	KUNIT_EXPECT_EQ(test, direct_target_now(ip_c), addr);
	ret = holder_start(&h);
	if (ret) {
		unregister_ftrace_direct(ip_c, addr);
		unregister_ftrace_direct(ip, addr);
		KUNIT_FAIL(test, "no holding thread: %d", ret);
		return;
	}
	/* The target has another site: no wait for tasks. */
	ret = unregister_ftrace_direct(ip_c, addr);
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_TRUE_MSG(test, !completion_done(&h.done),
			      "a site whose target has another waited for tasks");
	KUNIT_EXPECT_EQ(test, direct_target_now(ip_c), 0UL);
	KUNIT_EXPECT_EQ(test, direct_target_now(ip), addr);
	t = kthread_run(direct_unregister_thread, &w, "ftrace-kunit-dunreg");
	if (IS_ERR(t)) {
		holder_stop(&h);
		unregister_ftrace_direct(ip, addr);
		KUNIT_FAIL(test, "no thread: %ld", PTR_ERR(t));
		return;
	}
	/* Until the target is dropped: the wait comes after that. */
	limit = jiffies + 10 * HZ;
	while ((direct_target_now(ip) || site_target_now(ip)) &&
	       time_before(jiffies, limit))
		usleep_range(1000, 2000);
	KUNIT_EXPECT_EQ(test, site_target_now(ip), 0UL);
	KUNIT_EXPECT_EQ(test, direct_target_now(ip), 0UL);
	/* Long enough for it to have returned, had it not waited. */
	msleep(500);
	returned = completion_done(&w.done);
	if (completion_done(&h.done))
		kunit_mark_skipped(test, "the holder stopped before the check");
	else
		KUNIT_EXPECT_FALSE_MSG(test, returned,
				       "unregister_ftrace_direct() returned while a task held RCU-tasks back");
	holder_stop(&h);
	wait_for_completion(&w.done);
	KUNIT_EXPECT_EQ(test, w.ret, 0);
	KUNIT_EXPECT_EQ(test, site_target_now(ip), 0UL);
#else
	kunit_skip(test, "6.1's single-site direct calls only");
#endif
}

/*
 * Unregister @u->ops in a thread (through @u->unregister), wait until the
 * site at @ip is unpatched, then up to @wait_ms more; return whether the
 * thread has returned by then.  The caller waits for @u->done.
 */
static bool left_within(struct kunit *test, struct unregister_work *u,
			unsigned long ip, unsigned int wait_ms)
{
	unsigned long limit = jiffies + 10 * HZ;
	struct task_struct *t;

	init_completion(&u->done);
	t = kthread_run(unregister_thread, u, "ftrace-kunit-unreg");
	if (IS_ERR(t)) {
		KUNIT_FAIL(test, "no thread: %ld", PTR_ERR(t));
		u->ret = (u->unregister ?: unregister_ftrace_function)(u->ops);
		complete(&u->done);
		return true;
	}
	while (site_target_now(ip) && !completion_done(&u->done) &&
	       time_before(jiffies, limit))
		usleep_range(1000, 2000);
	KUNIT_EXPECT_EQ(test, site_target_now(ip), 0UL);
	limit = jiffies + msecs_to_jiffies(wait_ms);
	while (!completion_done(&u->done) && time_before(jiffies, limit))
		usleep_range(1000, 2000);
	return completion_done(&u->done);
}

/*
 * Why a test cannot hold a task in the kernel while ksys_sync (@ip) is
 * traced, or NULL: a spinning task must be preempted, not switched away
 * of its own accord, and the site must be free.
 */
static const char *cannot_hold_in(unsigned long ip)
{
	if (!ip)
		return "ksys_sync is not traceable";
	if (!preempt_model_preemptible() || num_online_cpus() < 2)
		return "no full preemption, or one CPU";
	if (site_target_now(ip))
		return "ksys_sync is traced already";
	return NULL;
}

/*
 * An ops whose owner keeps what its sites call alive past a wait for
 * tasks of its own (FTRACE_OPS_FL_OWNER_WAITS, as BPF trampolines' are)
 * leaves without the core waiting for tasks; a trampoline the core gave
 * it stays known until the tasks have run on, then goes.  With RCU-tasks
 * held back by a task that never yields: such a direct ops returns at
 * once, the same ops without the flag has not returned 500 ms after its
 * site was unpatched, and a flagged ops with a trampoline returns at once
 * while its trampoline stays.
 */
static void owner_waits_skips_tasks(struct kunit *test)
{
	unsigned long ip = ftrace_location((unsigned long)ksys_sync);
	struct unregister_work u = { }, v = { };
	struct tasks_holder h = { };
	bool left, u_waits = false;
	unsigned long tramp = 0, limit;
#ifdef CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS
	unsigned long addr = (unsigned long)ftrace_stub_direct_tramp;
#endif
	const char *why;
	int ret;

	why = cannot_hold_in(ip);
	if (why)
		kunit_skip(test, "%s", why);
	/* Allocated, so FTRACE_OPS_FL_DYNAMIC: freed once they have left. */
	u.ops = kunit_kzalloc(test, sizeof(*u.ops), GFP_KERNEL);
	v.ops = kunit_kzalloc(test, sizeof(*v.ops), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, u.ops);
	KUNIT_ASSERT_NOT_NULL(test, v.ops);
	KUNIT_ASSERT_EQ(test, ftrace_set_filter_ip(u.ops, ip, 0, 0), 0);
	KUNIT_ASSERT_EQ(test, ftrace_set_filter_ip(v.ops, ip, 0, 0), 0);
	v.ops->func = kunit_nop_call;
	v.ops->flags = FTRACE_OPS_FL_OWNER_WAITS;
	ret = holder_start(&h);
	if (ret) {
		KUNIT_FAIL(test, "no holding thread: %d", ret);
		goto free;
	}
#ifdef CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS
	u.unregister = ftrace_direct_ops_unregister;
	u.ops->flags = FTRACE_OPS_FL_OWNER_WAITS;
	ret = ftrace_direct_ops_register(u.ops, addr);
	KUNIT_EXPECT_EQ(test, ret, 0);
	if (!ret) {
		KUNIT_EXPECT_EQ(test, site_target_now(ip), addr);
		left = left_within(test, &u, ip, 5000);
		KUNIT_EXPECT_TRUE_MSG(test, left && !completion_done(&h.done),
				      "a direct ops whose owner waits for tasks waited for them");
		wait_for_completion(&u.done);
		KUNIT_EXPECT_EQ(test, u.ret, 0);
	}
	/* Without the flag, the core waits for the held tasks. */
	u.ops->flags &= ~FTRACE_OPS_FL_OWNER_WAITS;
	ret = ftrace_direct_ops_register(u.ops, addr);
	KUNIT_EXPECT_EQ(test, ret, 0);
	if (!ret) {
		left = left_within(test, &u, ip, 500);
		u_waits = true;
		if (completion_done(&h.done))
			kunit_mark_skipped(test, "the holder stopped before the check");
		else
			KUNIT_EXPECT_FALSE_MSG(test, left,
					       "a direct ops left while a task held RCU-tasks back");
	}
#endif
	/* A flagged ops with a trampoline of the core's leaves too. */
	ret = register_ftrace_function(v.ops);
	KUNIT_EXPECT_EQ(test, ret, 0);
	if (!ret && !(v.ops->flags & FTRACE_OPS_FL_ALLOC_TRAMP)) {
		kunit_info(test, "no trampoline of its own for the plain ops");
		unregister_ftrace_function(v.ops);
	} else if (!ret) {
		tramp = v.ops->trampoline;
		left = left_within(test, &v, ip, 5000);
		KUNIT_EXPECT_TRUE_MSG(test, left && !completion_done(&h.done),
				      "an ops with a trampoline whose owner waits for tasks waited for them");
		if (left && !completion_done(&h.done))
			KUNIT_EXPECT_TRUE_MSG(test, is_ftrace_trampoline(tramp),
					      "its trampoline went while a task held RCU-tasks back");
		wait_for_completion(&v.done);
		KUNIT_EXPECT_EQ(test, v.ret, 0);
		KUNIT_EXPECT_EQ(test, v.ops->trampoline, 0UL);
	}
	holder_stop(&h);
	if (u_waits) {
		wait_for_completion(&u.done);
		KUNIT_EXPECT_EQ(test, u.ret, 0);
	}
	/* Once the tasks run on, the trampoline goes. */
	limit = jiffies + 30 * HZ;
	while (tramp && is_ftrace_trampoline(tramp) && time_before(jiffies, limit))
		msleep(20);
	if (tramp)
		KUNIT_EXPECT_FALSE_MSG(test, is_ftrace_trampoline(tramp),
				       "a trampoline left for the tasks was not freed within 30 s");
free:
	ftrace_free_filter(u.ops);
	ftrace_free_filter(v.ops);
}

/* Wait (30 s at most) until @tramp is no longer a trampoline; true if so. */
static bool tramp_freed_soon(unsigned long tramp)
{
	unsigned long limit = jiffies + 30 * HZ;

	while (is_ftrace_trampoline(tramp) && time_before(jiffies, limit))
		msleep(20);
	return !is_ftrace_trampoline(tramp);
}

/*
 * The task spin_in_call() holds, and where it is: 1 inside, 2 let go, 3
 * gone on its own, 4 called with preemption off (not from the trampoline).
 */
static struct task_struct *spin_task;
static atomic_t spin_state;

/*
 * For spin_task only: stay in the call, preemptible, until let go (or
 * for 60 s at most).  Called straight from the ops' trampoline (the ops
 * has no FTRACE_OPS_FL_RECURSION, which would put the core's wrapper,
 * with preemption off, between them), so the task's return address is in
 * the trampoline.
 */
static void spin_in_call(unsigned long ip, unsigned long parent_ip,
			 struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	unsigned long until = jiffies + 60 * HZ;

	if (current != READ_ONCE(spin_task))
		return;
	/* Through the list function: the test needs the trampoline. */
	if (!preemptible()) {
		atomic_set(&spin_state, 4);
		return;
	}
	atomic_set(&spin_state, 1);
	while (atomic_read(&spin_state) != 2 && time_before(jiffies, until))
		cpu_relax();
	/* Left without being let go: 3. */
	atomic_cmpxchg(&spin_state, 1, 3);
}

static int spin_thread(void *data)
{
	struct completion *done = data;

	ksys_sync();
	complete(done);
	return 0;
}

/*
 * A task inside the function of an ops whose owner waits for tasks, when
 * the ops leaves: the unregistration returns while the task is still in
 * the call, the trampoline it will return through stays, and it goes
 * once the task has left.  A trampoline freed early, the task would
 * return into freed text.
 */
static void owner_waits_task_inside(struct kunit *test)
{
	unsigned long ip = ftrace_location((unsigned long)ksys_sync), tramp;
	unsigned long limit;
	struct completion done;
	struct task_struct *t;
	struct ftrace_ops *ops;
	const char *why;

	why = cannot_hold_in(ip);
	if (why)
		kunit_skip(test, "%s", why);
	ops = kunit_kzalloc(test, sizeof(*ops), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ops);
	ops->func = spin_in_call;
	ops->flags = FTRACE_OPS_FL_OWNER_WAITS;
	KUNIT_ASSERT_EQ(test, ftrace_set_filter_ip(ops, ip, 0, 0), 0);
	KUNIT_ASSERT_EQ(test, register_ftrace_function(ops), 0);
	tramp = ops->trampoline;
	if (!(ops->flags & FTRACE_OPS_FL_ALLOC_TRAMP) || !tramp ||
	    !is_ftrace_trampoline(site_target_now(ip))) {
		unregister_ftrace_function(ops);
		ftrace_free_filter(ops);
		kunit_skip(test, "ksys_sync does not call a trampoline of the ops' own");
	}
	atomic_set(&spin_state, 0);
	init_completion(&done);
	t = kthread_create(spin_thread, &done, "ftrace-kunit-spin");
	if (IS_ERR(t)) {
		unregister_ftrace_function(ops);
		ftrace_free_filter(ops);
		KUNIT_FAIL(test, "no thread: %ld", PTR_ERR(t));
		return;
	}
	WRITE_ONCE(spin_task, t);
	wake_up_process(t);
	limit = jiffies + 10 * HZ;
	while (atomic_read(&spin_state) == 0 && time_before(jiffies, limit))
		usleep_range(1000, 2000);
	/*
	 * On arm64 a trampoline beyond a BL's reach of the site (one in
	 * module memory, once the pool is full) is reached through the
	 * shared register-saving caller, which calls the list function:
	 * nothing to test then.
	 */
	if (atomic_read(&spin_state) == 4) {
		why = "the function ran with preemption off: the site calls the shared caller";
		goto out;
	}
	if (atomic_read(&spin_state) != 1) {
		KUNIT_FAIL(test, "the task did not reach the call preemptible within 10 s: %d",
			   atomic_read(&spin_state));
		goto out;
	}
	KUNIT_EXPECT_EQ(test, unregister_ftrace_function(ops), 0);
	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&spin_state), 1,
			    "the unregistration waited for the task in the call");
	KUNIT_EXPECT_TRUE(test, is_ftrace_trampoline(tramp));
out:
	atomic_set(&spin_state, 2);
	wait_for_completion(&done);
	WRITE_ONCE(spin_task, NULL);
	/* Unregistered (or never reached): the trampoline goes. */
	unregister_ftrace_function(ops);
	KUNIT_EXPECT_TRUE_MSG(test, tramp_freed_soon(tramp),
			      "a trampoline left for the tasks was not freed within 30 s");
	ftrace_free_filter(ops);
	if (why)
		kunit_skip(test, "%s", why);
}

static struct ftrace_probe_ops held_probe = {
	.func = probe_nop,
	.free = probe_count_free,
};

struct probe_removal_work {
	struct trace_array *tr;
	char glob[16];
	struct completion done;
	int ret;
};

static int probe_removal_thread(void *data)
{
	struct probe_removal_work *r = data;

	r->ret = unregister_ftrace_function_probe_func(r->glob, r->tr,
						       &held_probe);
	complete(&r->done);
	return 0;
}

/*
 * Removing functions from a probe waits for the tasks that may be in its
 * callbacks before their data goes, and holds no lock of the core while
 * it waits: with that wait held back by a preempted task, another ops
 * registers, and the data of the removed function is still there.  With
 * @shrink, sync_filesystem stays probed (the probe's filter shrinks);
 * otherwise ksys_sync is the probe's last function (its ops leaves).
 */
static void probe_removal_waits(struct kunit *test, bool shrink)
{
	unsigned long ip_a = ftrace_location((unsigned long)ksys_sync);
	unsigned long ip_b = ftrace_location((unsigned long)vfs_read);
	unsigned long ip_c = ftrace_location((unsigned long)sync_filesystem);
	char glob_a[] = "ksys_sync", glob_c[] = "sync_filesystem";
	struct probe_removal_work r = { };
	struct tasks_holder h = { };
	unsigned long limit;
	struct task_struct *t;
	struct ftrace_ops *b;
	bool held = false, moved, early, done = false;
	int ret = -EBUSY, frees = 0, n;
	const char *why;

	if (!ip_b || !ip_c)
		kunit_skip(test, "vfs_read or sync_filesystem is not traceable");
	why = cannot_hold_in(ip_a);
	if (why)
		kunit_skip(test, "%s", why);
	r.tr = kunit_kzalloc(test, sizeof(*r.tr), GFP_KERNEL);
	b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r.tr);
	KUNIT_ASSERT_NOT_NULL(test, b);
	INIT_LIST_HEAD(&r.tr->func_probes);
	b->func = kunit_nop_call;
	strscpy(r.glob, "ksys_sync", sizeof(r.glob));
	probe_frees = 0;
	probe_frees_all = 0;
	n = register_ftrace_function_probe(glob_a, r.tr, &held_probe, NULL);
	if (n != 1) {
		KUNIT_FAIL(test, "ksys_sync probed: %d", n);
		goto out;
	}
	if (shrink && register_ftrace_function_probe(glob_c, r.tr, &held_probe,
						     NULL) != 1) {
		KUNIT_FAIL(test, "sync_filesystem not probed");
		goto out;
	}
	if (!site_target_now(ip_a)) {
		KUNIT_FAIL(test, "ksys_sync does not call the probe");
		goto out;
	}
	if (ftrace_set_filter_ip(b, ip_b, 0, 0)) {
		KUNIT_FAIL(test, "no filter for the other ops");
		goto out;
	}
	init_completion(&r.done);
	n = holder_start(&h);
	if (n) {
		KUNIT_FAIL(test, "no holding thread: %d", n);
		goto out;
	}
	t = kthread_run(probe_removal_thread, &r, "ftrace-kunit-probe");
	if (IS_ERR(t)) {
		holder_stop(&h);
		KUNIT_FAIL(test, "no thread: %ld", PTR_ERR(t));
		goto out;
	}
	/* Until ksys_sync stops calling the probe: the wait comes after. */
	limit = jiffies + 10 * HZ;
	while (site_target_now(ip_a) && !completion_done(&r.done) &&
	       time_before(jiffies, limit))
		usleep_range(1000, 2000);
	moved = !site_target_now(ip_a);
	early = !moved && completion_done(&r.done);
	if (moved) {
		ret = register_ftrace_function(b);
		/* In this order: the holder may run out last. */
		done = completion_done(&r.done);
		frees = READ_ONCE(probe_frees);
		held = !completion_done(&h.done);
		KUNIT_EXPECT_EQ(test, ret, 0);
		KUNIT_EXPECT_TRUE_MSG(test, held,
				      "a registration waited for a probe removal's wait");
	}
	if (held) {
		/* The probe's ops is dynamic: its removal waits for the holder. */
		KUNIT_EXPECT_FALSE_MSG(test, done,
				       "the removal ended while a task held its wait back");
		KUNIT_EXPECT_EQ_MSG(test, frees, 0, "data freed before the wait ended");
	}
	holder_stop(&h);
	wait_for_completion(&r.done);
	if (!ret)
		KUNIT_EXPECT_EQ(test, unregister_ftrace_function(b), 0);
	if (!moved) {
		/* Ended without moving the site, or too slow to tell. */
		unregister_ftrace_function_probe_func(NULL, r.tr, &held_probe);
		ftrace_free_filter(b);
		if (early || r.ret)
			KUNIT_FAIL(test, "the removal returned %d; ksys_sync still probed",
				   r.ret);
		else
			kunit_skip(test, "the removal did not update the code within 10 s");
		return;
	}
	KUNIT_EXPECT_EQ(test, r.ret, 0);
	KUNIT_EXPECT_EQ(test, probe_frees, 1);
	if (shrink) {
		/* sync_filesystem is still probed, then goes with the probe. */
		KUNIT_EXPECT_EQ(test, probe_frees_all, 0);
		KUNIT_EXPECT_NE(test, site_target_now(ip_c), 0UL);
		KUNIT_EXPECT_EQ(test, unregister_ftrace_function_probe_func(glob_c, r.tr,
									    &held_probe), 0);
	}
	/* The probe went with its last function. */
	KUNIT_EXPECT_EQ(test, probe_frees_all, 1);
	KUNIT_EXPECT_TRUE(test, list_empty(&r.tr->func_probes));
out:
	/* Whatever is left of the probe (-ENODEV if nothing). */
	unregister_ftrace_function_probe_func(NULL, r.tr, &held_probe);
	ftrace_free_filter(b);
}

static void probe_leaves_without_lock(struct kunit *test)
{
	probe_removal_waits(test, false);
}

static void probe_shrinks_without_lock(struct kunit *test)
{
	probe_removal_waits(test, true);
}

/*
 * When a probed function's text goes away (module unload, freed init
 * text), the function becomes an orphan of its probe under ftrace_lock,
 * and no task can still run that text: nothing waits for tasks, so a task
 * that stays preempted holds no registration up.  ksys_sync stands for
 * the text here.  With @shrink, sync_filesystem stays probed (the filter
 * shrinks); otherwise the probe's ops leaves.  The orphan keeps its data
 * until the probe is removed.
 */
static void probe_text_gone_waits_not(struct kunit *test, bool shrink)
{
	unsigned long ip_a = ftrace_location((unsigned long)ksys_sync);
	unsigned long ip_c = ftrace_location((unsigned long)sync_filesystem);
	char glob_a[] = "ksys_sync", glob_c[] = "sync_filesystem";
	unsigned long tramp;
	struct tasks_holder h = { };
	struct trace_array *tr;
	bool held;
	int n;

	if (!ip_a || !ip_c)
		kunit_skip(test, "ksys_sync or sync_filesystem is not traceable");
	/* A spinning task is preempted, not switched away of its own accord. */
	if (!preempt_model_preemptible() || num_online_cpus() < 2)
		kunit_skip(test, "no full preemption, or one CPU");
	if (site_target_now(ip_a))
		kunit_skip(test, "ksys_sync is traced already");
	tr = kunit_kzalloc(test, sizeof(*tr), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, tr);
	INIT_LIST_HEAD(&tr->func_probes);
	probe_frees = 0;
	probe_frees_all = 0;
	n = register_ftrace_function_probe(glob_a, tr, &held_probe, NULL);
	if (n != 1) {
		KUNIT_FAIL(test, "ksys_sync probed: %d", n);
		goto out;
	}
	if (shrink && register_ftrace_function_probe(glob_c, tr, &held_probe,
						     NULL) != 1) {
		KUNIT_FAIL(test, "sync_filesystem not probed");
		goto out;
	}
	n = holder_start(&h);
	if (n) {
		KUNIT_FAIL(test, "no holding thread: %d", n);
		goto out;
	}
	/* The probe's own trampoline, if the site calls one. */
	tramp = site_target_now(ip_a);
	if (!is_ftrace_trampoline(tramp))
		tramp = 0;
	mutex_lock(&ftrace_lock);
	ftrace_tr_probes_drop_range(tr, ip_a, ip_a + 1);
	mutex_unlock(&ftrace_lock);
	held = !completion_done(&h.done);
	KUNIT_EXPECT_TRUE_MSG(test, held,
			      "text going away waited for tasks under ftrace_lock");
	KUNIT_EXPECT_EQ(test, site_target_now(ip_a), 0UL);
	if (shrink)
		KUNIT_EXPECT_NE(test, site_target_now(ip_c), 0UL);
	KUNIT_EXPECT_FALSE(test, list_empty(&tr->func_probes));
	KUNIT_EXPECT_EQ(test, probe_frees, 0);
	/*
	 * A task may still be in the trampoline of a probe that left (come
	 * from a function removed just before): it stays until the tasks
	 * have run on.
	 */
	if (tramp && held)
		KUNIT_EXPECT_TRUE_MSG(test, is_ftrace_trampoline(tramp),
				      "the probe's trampoline went while tasks were held");
	holder_stop(&h);
	if (tramp && !shrink)
		KUNIT_EXPECT_TRUE_MSG(test, tramp_freed_soon(tramp),
				      "the probe's trampoline was not freed within 30 s");
	/* The orphan's data and the probe go when the user removes it. */
	KUNIT_EXPECT_EQ(test, unregister_ftrace_function_probe_func(NULL, tr,
								    &held_probe), 0);
	KUNIT_EXPECT_EQ(test, probe_frees, shrink ? 2 : 1);
	KUNIT_EXPECT_EQ(test, probe_frees_all, 1);
	KUNIT_EXPECT_TRUE(test, list_empty(&tr->func_probes));
	KUNIT_EXPECT_EQ(test, site_target_now(ip_c), 0UL);
	return;
out:
	unregister_ftrace_function_probe_func(NULL, tr, &held_probe);
}

/* @r removes @glob from the held_probe of a new trace array of its own. */
static int probe_work_init(struct kunit *test, struct probe_removal_work *r,
			   const char *glob)
{
	r->tr = kunit_kzalloc(test, sizeof(*r->tr), GFP_KERNEL);
	if (!r->tr)
		return -ENOMEM;
	INIT_LIST_HEAD(&r->tr->func_probes);
	strscpy(r->glob, glob, sizeof(r->glob));
	init_completion(&r->done);
	probe_frees = 0;
	probe_frees_all = 0;
	return 0;
}

/* Hold RCU-tasks back with @h, then start @r's removal in a thread. */
static int probe_removal_start_held(struct probe_removal_work *r,
				    struct tasks_holder *h)
{
	struct task_struct *t;
	int ret = holder_start(h);

	if (ret)
		return ret;
	t = kthread_run(probe_removal_thread, r, "ftrace-kunit-remove");
	if (IS_ERR(t)) {
		holder_stop(h);
		return PTR_ERR(t);
	}
	return 0;
}

/* Let the held removal of @r go, and wait until it has ended well. */
static void probe_removal_end_held(struct kunit *test,
				   struct probe_removal_work *r,
				   struct tasks_holder *h)
{
	holder_stop(h);
	wait_for_completion(&r->done);
	KUNIT_EXPECT_EQ(test, r->ret, 0);
}

/*
 * An orphan's data is freed only after a wait for tasks: the module
 * loader drops a module's records before it waits for the module's async
 * work, whose functions may still be running the probe.  With RCU-tasks
 * held back, removing the orphan has not freed it 500 ms on; let go, it
 * frees the orphan's data and the probe.
 */
static void probe_orphan_removal_waits(struct kunit *test)
{
	unsigned long ip_a = ftrace_location((unsigned long)ksys_sync);
	char glob_a[] = "ksys_sync";
	struct probe_removal_work r = { };
	struct tasks_holder h = { };
	const char *why;
	int n;

	why = cannot_hold_in(ip_a);
	if (why)
		kunit_skip(test, "%s", why);
	KUNIT_ASSERT_EQ(test, probe_work_init(test, &r, glob_a), 0);
	n = register_ftrace_function_probe(glob_a, r.tr, &held_probe, NULL);
	if (n != 1) {
		KUNIT_FAIL(test, "ksys_sync probed: %d", n);
		goto out;
	}
	mutex_lock(&ftrace_lock);
	ftrace_tr_probes_drop_range(r.tr, ip_a, ip_a + 1);
	mutex_unlock(&ftrace_lock);
	KUNIT_EXPECT_EQ(test, site_target_now(ip_a), 0UL);
	n = probe_removal_start_held(&r, &h);
	if (n) {
		KUNIT_FAIL(test, "no holding or removing thread: %d", n);
		goto out;
	}
	msleep(500);
	KUNIT_EXPECT_FALSE_MSG(test, completion_done(&r.done),
			       "the orphan's removal did not wait for tasks");
	KUNIT_EXPECT_EQ(test, probe_frees, 0);
	probe_removal_end_held(test, &r, &h);
	KUNIT_EXPECT_EQ(test, probe_frees, 1);
	KUNIT_EXPECT_EQ(test, probe_frees_all, 1);
	KUNIT_EXPECT_TRUE(test, list_empty(&r.tr->func_probes));
	return;
out:
	unregister_ftrace_function_probe_func(NULL, r.tr, &held_probe);
}

/*
 * Text goes away while a removal from the same probe waits for tasks:
 * a user took ksys_sync out (the filter shrank; the wait is held back by
 * a spinning task) and sync_filesystem, the probe's last live function,
 * stands for a module's that unloads meanwhile.  The text going away
 * returns at once and the probe's ops leaves, but its trampoline, where
 * a task come from ksys_sync may still be, stays known until the tasks
 * have run on; the removal then frees ksys_sync's data, and the probe
 * keeps the orphan's until it is removed.
 */
static void probe_text_gone_during_removal(struct kunit *test)
{
	unsigned long ip_a = ftrace_location((unsigned long)ksys_sync);
	unsigned long ip_c = ftrace_location((unsigned long)sync_filesystem);
	char glob_a[] = "ksys_sync", glob_c[] = "sync_filesystem";
	struct probe_removal_work r = { };
	struct tasks_holder h = { };
	unsigned long tramp, limit;
	const char *why;
	bool held;
	int n;

	if (!ip_c)
		kunit_skip(test, "sync_filesystem is not traceable");
	why = cannot_hold_in(ip_a);
	if (why)
		kunit_skip(test, "%s", why);
	KUNIT_ASSERT_EQ(test, probe_work_init(test, &r, glob_a), 0);
	if (register_ftrace_function_probe(glob_a, r.tr, &held_probe, NULL) != 1 ||
	    register_ftrace_function_probe(glob_c, r.tr, &held_probe, NULL) != 1) {
		KUNIT_FAIL(test, "ksys_sync and sync_filesystem not probed");
		goto out;
	}
	tramp = site_target_now(ip_c);
	if (!is_ftrace_trampoline(tramp))
		tramp = 0;
	n = probe_removal_start_held(&r, &h);
	if (n) {
		KUNIT_FAIL(test, "no holding or removing thread: %d", n);
		goto out;
	}
	/* The removal shrinks the filter, then waits. */
	limit = jiffies + 10 * HZ;
	while (site_target_now(ip_a) && time_before(jiffies, limit))
		msleep(20);
	KUNIT_EXPECT_EQ(test, site_target_now(ip_a), 0UL);
	mutex_lock(&ftrace_lock);
	ftrace_tr_probes_drop_range(r.tr, ip_c, ip_c + 1);
	mutex_unlock(&ftrace_lock);
	held = !completion_done(&h.done) && !completion_done(&r.done);
	KUNIT_EXPECT_TRUE_MSG(test, held, "the removal did not wait for tasks");
	KUNIT_EXPECT_EQ(test, site_target_now(ip_c), 0UL);
	KUNIT_EXPECT_FALSE(test, list_empty(&r.tr->func_probes));
	KUNIT_EXPECT_EQ(test, probe_frees, 0);
	if (tramp && held)
		KUNIT_EXPECT_TRUE_MSG(test, is_ftrace_trampoline(tramp),
				      "the trampoline went while a removal waited for tasks");
	probe_removal_end_held(test, &r, &h);
	KUNIT_EXPECT_EQ(test, probe_frees, 1);
	KUNIT_EXPECT_FALSE(test, list_empty(&r.tr->func_probes));
	if (tramp)
		KUNIT_EXPECT_TRUE_MSG(test, tramp_freed_soon(tramp),
				      "the probe's trampoline was not freed within 30 s");
	KUNIT_EXPECT_EQ(test, unregister_ftrace_function_probe_func(NULL, r.tr,
								    &held_probe), 0);
	KUNIT_EXPECT_EQ(test, probe_frees, 2);
	KUNIT_EXPECT_EQ(test, probe_frees_all, 1);
	KUNIT_EXPECT_TRUE(test, list_empty(&r.tr->func_probes));
	return;
out:
	unregister_ftrace_function_probe_func(NULL, r.tr, &held_probe);
}

static void probe_text_gone_leaves(struct kunit *test)
{
	probe_text_gone_waits_not(test, false);
}

static void probe_text_gone_shrinks(struct kunit *test)
{
	probe_text_gone_waits_not(test, true);
}

/* How many times @ops is on ftrace_tramp_list. */
static unsigned int tramp_listed(struct ftrace_ops *ops)
{
	struct ftrace_ops *op;
	unsigned int n = 0;

	mutex_lock(&ftrace_lock);
	list_for_each_entry(op, &ftrace_tramp_list, list)
		n += op == ops;
	mutex_unlock(&ftrace_lock);
	return n;
}

/* Static: an ops in the kernel's own data, which keeps its trampoline. */
static struct ftrace_ops kunit_static_ops = {
	.func = kunit_nop_call,
};

/*
 * A static ops keeps its trampoline across registrations: parked (calling
 * ftrace_stub) while the ops is off, pointed at its function again when it
 * comes back, on ftrace_tramp_list once throughout.  On ksys_sync(),
 * which no boot parameter of make check traces.
 */
static void tramp_static_kept_parked(struct kunit *test)
{
	unsigned long ip = ftrace_location((unsigned long)ksys_sync), tramp;
	struct ftrace_ops *ops = &kunit_static_ops;
	void *func;

	if (!ip)
		kunit_skip(test, "no traceable ksys_sync");
	KUNIT_ASSERT_EQ(test, ftrace_set_filter_ip(ops, ip, 0, 1), 0);
	KUNIT_ASSERT_EQ(test, register_ftrace_function(ops), 0);
	KUNIT_EXPECT_FALSE(test, ops->flags & FTRACE_OPS_FL_DYNAMIC);
	tramp = ops->trampoline;
	func = (void *)ftrace_ops_get_func(ops);
	if (!tramp || site_target_now(ip) != tramp) {
		unregister_ftrace_function(ops);
		ftrace_free_filter(ops);
		kunit_skip(test, "ksys_sync does not call the ops' own trampoline");
	}
	KUNIT_EXPECT_PTR_EQ(test, ftrace_arch_tramp_callee(ops, false), func);

	KUNIT_ASSERT_EQ(test, unregister_ftrace_function(ops), 0);
	KUNIT_EXPECT_EQ(test, ops->trampoline, tramp);
	KUNIT_EXPECT_TRUE(test, ops->flags & FTRACE_OPS_FL_ALLOC_TRAMP);
	KUNIT_EXPECT_PTR_EQ(test, ftrace_arch_tramp_callee(ops, false),
			    (void *)ftrace_stub);
	KUNIT_EXPECT_EQ(test, tramp_listed(ops), 1U);

	KUNIT_ASSERT_EQ(test, register_ftrace_function(ops), 0);
	KUNIT_EXPECT_EQ(test, ops->trampoline, tramp);
	KUNIT_EXPECT_EQ(test, site_target_now(ip), tramp);
	KUNIT_EXPECT_PTR_EQ(test, ftrace_arch_tramp_callee(ops, false), func);
	KUNIT_EXPECT_EQ(test, tramp_listed(ops), 1U);
	unregister_ftrace_function(ops);
	ftrace_free_filter(ops);
}

/*
 * The real back end, asked to change a site that does not hold what the
 * batch says (a live batch claiming the idle site of ksys_sync() calls
 * the shared caller), refuses it: nothing written, the site named, and
 * the bytes it found are the bytes there.  Under ftrace_lock, so that the
 * site stays idle throughout; the core is not involved, so ftrace lives
 * on.  A damaged site at module load is make check's bootcheck.
 */
static void arch_refuses_mismatch(struct kunit *test)
{
	unsigned long ip = ftrace_location((unsigned long)ksys_sync);
	struct ftrace_patch p = { .ip = ip, .old = FTRACE_ADDR, .new = 0 };
	struct ftrace_batch b = { .patch = &p, .nr = 1, .live = true };
	u8 before[MCOUNT_INSN_SIZE], after[MCOUNT_INSN_SIZE];
	struct ftrace_rec *r;
	int ret;

	if (!ip)
		kunit_skip(test, "no traceable ksys_sync");
	mutex_lock(&ftrace_lock);
	r = ftrace_find_rec(ip, NULL);
	if (!r || (r->flags & FTRACE_FL_ENABLED) || ftrace_dead) {
		mutex_unlock(&ftrace_lock);
		kunit_skip(test, "ksys_sync is traced now");
	}
	ret = copy_from_kernel_nofault(before, (void *)ip, sizeof(before));
	if (!ret)
		ret = ftrace_arch_patch(&b);
	mutex_unlock(&ftrace_lock);
	KUNIT_EXPECT_EQ(test, ret, -EINVAL);
	KUNIT_EXPECT_EQ(test, b.done, 0U);
	KUNIT_EXPECT_EQ(test, b.bad, 0U);
	KUNIT_ASSERT_EQ(test, copy_from_kernel_nofault(after, (void *)ip,
						       sizeof(after)), 0);
	KUNIT_EXPECT_EQ(test, memcmp(after, before, sizeof(before)), 0);
	/*
	 * Our back ends say what they expected and found; the 6.1 arch
	 * interface under ftrace_compat.c may not (arm's does not), and
	 * the report then reads the site itself.
	 */
	if (!IS_ENABLED(CONFIG_HAVE_FTRACE_ARCH_BATCH) && !b.len)
		return;
	KUNIT_ASSERT_GT(test, b.len, 0U);
	KUNIT_ASSERT_LE(test, b.len, (unsigned int)sizeof(before));
	KUNIT_EXPECT_EQ(test, memcmp(b.found, before, b.len), 0);
	KUNIT_EXPECT_NE(test, memcmp(b.expected, before, b.len), 0);
}

/* Cases on the real back end, without the plan suite's ftrace_lock. */
#ifdef FTRACE_KBASE_612
/* The manager's hash, read under ftrace_lock. */
static bool mgr_has(struct ftrace_ops *mgr, bool nt, unsigned long ip)
{
	guard(mutex)(&ftrace_lock);
	return ftrace_lookup_ip(ftrace_ops_hash_locked(mgr, nt), ip);
}

static bool mgr_all(struct ftrace_ops *mgr)
{
	guard(mutex)(&ftrace_lock);
	return ftrace_hash_empty(ftrace_ops_hash_locked(mgr, false));
}

static int subops_call(struct ftrace_ops *mgr, struct ftrace_ops *sub,
		       bool start)
{
	guard(mutex)(&ftrace_lock);
	return start ? ftrace_startup_subops(mgr, sub, 0) :
		       ftrace_shutdown_subops(mgr, sub, 0);
}

/*
 * Sub-ops (6.12's fgraph.c): the manager traces the union of its users'
 * filters and the functions all of them exclude are its notrace; a user's
 * filter edit, a user leaving and the last one leaving each update it.
 */
static void subops_union_and_edits(struct kunit *test)
{
	unsigned long f1 = ftrace_location((unsigned long)vfs_read);
	unsigned long f2 = ftrace_location((unsigned long)vfs_write);
	unsigned long f3 = ftrace_location((unsigned long)ksys_sync);
	struct ftrace_ops *mgr, *a, *b, *owner, *c;

	if (!f1 || !f2 || !f3)
		kunit_skip(test, "vfs_read, vfs_write or ksys_sync not traceable");
	mgr = kunit_kzalloc(test, sizeof(*mgr), GFP_KERNEL);
	a = kunit_kzalloc(test, sizeof(*a), GFP_KERNEL);
	b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, mgr && a && b);
	mgr->func = kunit_nop_call;
	a->func = kunit_nop_call;
	b->func = kunit_nop_call;
	KUNIT_ASSERT_EQ(test, ftrace_set_filter_ip(a, f1, 0, 0), 0);
	KUNIT_ASSERT_EQ(test, ftrace_set_filter_ip(b, f2, 0, 0), 0);

	KUNIT_ASSERT_EQ(test, subops_call(mgr, a, true), 0);
	KUNIT_EXPECT_TRUE(test, mgr->flags & FTRACE_OPS_FL_ENABLED);
	KUNIT_EXPECT_TRUE(test, a->flags & FTRACE_OPS_FL_SUBOP);
	KUNIT_EXPECT_PTR_EQ(test, a->managed, mgr);
	if (subops_call(mgr, b, true)) {
		/* Nothing of ours may stay registered past the case. */
		subops_call(mgr, a, false);
		KUNIT_FAIL(test, "the second user was refused");
		goto out;
	}
	KUNIT_EXPECT_TRUE(test, mgr_has(mgr, false, f1));
	KUNIT_EXPECT_TRUE(test, mgr_has(mgr, false, f2));
	KUNIT_EXPECT_FALSE(test, mgr_has(mgr, false, f3));
	KUNIT_EXPECT_NE(test, site_target_now(f1), 0UL);
	KUNIT_EXPECT_NE(test, site_target_now(f2), 0UL);

	/* A user's own edit reaches the manager and the sites. */
	KUNIT_EXPECT_EQ(test, ftrace_set_filter_ip(b, f3, 0, 0), 0);
	KUNIT_EXPECT_TRUE(test, mgr_has(mgr, false, f3));
	KUNIT_EXPECT_NE(test, site_target_now(f3), 0UL);

	/* An empty filter (every function) wins the union... */
	KUNIT_EXPECT_EQ(test, ftrace_set_filter_ip(b, f2, 1, 0), 0);
	KUNIT_EXPECT_EQ(test, ftrace_set_filter_ip(b, f3, 1, 0), 0);
	KUNIT_EXPECT_TRUE(test, mgr_all(mgr));
	/* ...and notrace is what every user excludes. */
	KUNIT_EXPECT_EQ(test, ftrace_set_notrace(b, "ksys_sync", 9, 0), 0);
	KUNIT_EXPECT_FALSE(test, mgr_has(mgr, true, f3));
	KUNIT_EXPECT_NE(test, site_target_now(f3), 0UL);
	KUNIT_EXPECT_EQ(test, ftrace_set_notrace(a, "ksys_sync", 9, 0), 0);
	KUNIT_EXPECT_TRUE(test, mgr_has(mgr, true, f3));
	KUNIT_EXPECT_EQ(test, site_target_now(f3), 0UL);

	/* b leaves: a's filter alone again. */
	KUNIT_EXPECT_EQ(test, subops_call(mgr, b, false), 0);
	KUNIT_EXPECT_FALSE(test, b->flags & (FTRACE_OPS_FL_ENABLED |
					     FTRACE_OPS_FL_SUBOP));
	KUNIT_EXPECT_TRUE(test, mgr_has(mgr, false, f1));
	KUNIT_EXPECT_FALSE(test, mgr_has(mgr, false, f2));
	KUNIT_EXPECT_EQ(test, site_target_now(f2), 0UL);

	/*
	 * A user sharing another ops' hashes (fgraph.c's users share their
	 * trace array's): an edit through that ops reaches the manager.
	 */
	owner = kunit_kzalloc(test, sizeof(*owner), GFP_KERNEL);
	c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	if (owner && c) {
		owner->func = kunit_nop_call;
		KUNIT_EXPECT_EQ(test, ftrace_set_filter_ip(owner, f2, 0, 0), 0);
		c->func = kunit_nop_call;
		c->func_hash = &owner->local_hash;
		c->flags = FTRACE_OPS_FL_INITIALIZED;
		KUNIT_EXPECT_EQ(test, subops_call(mgr, c, true), 0);
		KUNIT_EXPECT_TRUE(test, mgr_has(mgr, false, f2));
		KUNIT_EXPECT_EQ(test, ftrace_set_filter_ip(owner, f3, 0, 0), 0);
		KUNIT_EXPECT_TRUE(test, mgr_has(mgr, false, f3));
		KUNIT_EXPECT_NE(test, site_target_now(f3), 0UL);
		KUNIT_EXPECT_EQ(test, subops_call(mgr, c, false), 0);
		KUNIT_EXPECT_FALSE(test, mgr_has(mgr, false, f2));
		KUNIT_EXPECT_EQ(test, site_target_now(f3), 0UL);
		ftrace_free_filter(owner);
	}

	/* The last user takes the manager with it. */
	KUNIT_EXPECT_EQ(test, subops_call(mgr, a, false), 0);
	KUNIT_EXPECT_FALSE(test, mgr->flags & FTRACE_OPS_FL_ENABLED);
	KUNIT_EXPECT_EQ(test, site_target_now(f1), 0UL);
out:
	ftrace_free_filter(a);
	ftrace_free_filter(b);
}

/*
 * A manager's update that the planner refuses: here both the manager and
 * another registered ops move the IP (IPMODIFY) of one function.  A first
 * user that would bring that function leaves the manager unstarted with
 * empty hashes; a later one is not added, and a user's filter edit that
 * would bring it is undone, the manager keeping its old hashes and sites;
 * once the other ops leaves, the same user comes in.
 */
static void subops_refused_update_undone(struct kunit *test)
{
	unsigned long f1 = ftrace_location((unsigned long)vfs_read);
	unsigned long f2 = ftrace_location((unsigned long)vfs_write);
	const unsigned long mover = FTRACE_OPS_FL_IPMODIFY |
				    FTRACE_OPS_FL_SAVE_REGS;
	struct ftrace_ops *mgr, *a, *b, *other;
	unsigned long t1, t2;
	struct ftrace_hash *h;
	bool other_on;
	int ret;

	/* Moving the IP needs the full register set. */
	if (!IS_ENABLED(CONFIG_DYNAMIC_FTRACE_WITH_REGS))
		kunit_skip(test, "no DYNAMIC_FTRACE_WITH_REGS");
	if (!f1 || !f2)
		kunit_skip(test, "vfs_read or vfs_write not traceable");
	mgr = kunit_kzalloc(test, sizeof(*mgr), GFP_KERNEL);
	a = kunit_kzalloc(test, sizeof(*a), GFP_KERNEL);
	b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	other = kunit_kzalloc(test, sizeof(*other), GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, mgr && a && b && other);
	mgr->func = kunit_nop_call;
	mgr->flags = mover;
	a->func = kunit_nop_call;
	b->func = kunit_nop_call;
	other->func = kunit_nop_call;
	other->flags = mover;
	KUNIT_ASSERT_EQ(test, ftrace_set_filter_ip(other, f2, 0, 0), 0);
	KUNIT_ASSERT_EQ(test, ftrace_set_filter_ip(a, f1, 0, 0), 0);
	KUNIT_ASSERT_EQ(test, ftrace_set_filter_ip(b, f2, 0, 0), 0);
	ret = register_ftrace_function(other);
	other_on = !ret;
	if (ret) {
		KUNIT_FAIL(test, "an IPMODIFY ops was refused: %d", ret);
		goto out;
	}
	/* A first user refused: the manager is not started, its hashes empty. */
	ret = subops_call(mgr, b, true);
	KUNIT_EXPECT_EQ(test, ret, -EBUSY);
	if (!ret)
		subops_call(mgr, b, false);
	KUNIT_EXPECT_FALSE(test, mgr->flags & FTRACE_OPS_FL_ENABLED);
	KUNIT_EXPECT_FALSE(test, b->flags & FTRACE_OPS_FL_SUBOP);
	KUNIT_EXPECT_TRUE(test, list_empty(&mgr->subop_list));
	KUNIT_EXPECT_TRUE(test, mgr_all(mgr));

	if (subops_call(mgr, a, true)) {
		KUNIT_FAIL(test, "the first user was refused");
		goto out;
	}
	/* What the two sites call must not change while updates are refused. */
	t1 = site_target_now(f1);
	t2 = site_target_now(f2);
	KUNIT_EXPECT_NE(test, t1, 0UL);
	KUNIT_EXPECT_NE(test, t2, 0UL);

	/* b would make the manager move vfs_write's IP too. */
	ret = subops_call(mgr, b, true);
	KUNIT_EXPECT_EQ(test, ret, -EBUSY);
	if (!ret)
		subops_call(mgr, b, false);
	KUNIT_EXPECT_FALSE(test, b->flags & (FTRACE_OPS_FL_ENABLED |
					     FTRACE_OPS_FL_SUBOP));
	KUNIT_EXPECT_NULL(test, b->managed);
	KUNIT_EXPECT_TRUE(test, list_empty(&b->list));
	KUNIT_EXPECT_TRUE(test, mgr_has(mgr, false, f1));
	KUNIT_EXPECT_FALSE(test, mgr_has(mgr, false, f2));
	KUNIT_EXPECT_EQ(test, site_target_now(f1), t1);
	KUNIT_EXPECT_EQ(test, site_target_now(f2), t2);

	/* So would a's edit: refused, and a keeps the filter it had. */
	KUNIT_EXPECT_EQ(test, ftrace_set_filter_ip(a, f2, 0, 0), -EBUSY);
	KUNIT_EXPECT_FALSE(test, mgr_has(mgr, false, f2));
	scoped_guard(mutex, &ftrace_lock) {
		h = ftrace_ops_hash_locked(a, false);
		KUNIT_EXPECT_TRUE(test, ftrace_lookup_ip(h, f1));
		KUNIT_EXPECT_FALSE(test, ftrace_lookup_ip(h, f2));
	}
	KUNIT_EXPECT_TRUE(test, a->flags & FTRACE_OPS_FL_SUBOP);
	KUNIT_EXPECT_EQ(test, site_target_now(f1), t1);
	KUNIT_EXPECT_EQ(test, site_target_now(f2), t2);

	/* With the other mover gone, b comes in. */
	ret = unregister_ftrace_function(other);
	KUNIT_EXPECT_EQ(test, ret, 0);
	other_on = ret != 0;
	KUNIT_EXPECT_EQ(test, subops_call(mgr, b, true), 0);
	KUNIT_EXPECT_TRUE(test, mgr_has(mgr, false, f2));
	KUNIT_EXPECT_NE(test, site_target_now(f2), 0UL);
	if (b->flags & FTRACE_OPS_FL_SUBOP)
		KUNIT_EXPECT_EQ(test, subops_call(mgr, b, false), 0);
	KUNIT_EXPECT_EQ(test, subops_call(mgr, a, false), 0);
	KUNIT_EXPECT_FALSE(test, mgr->flags & FTRACE_OPS_FL_ENABLED);
	KUNIT_EXPECT_EQ(test, site_target_now(f1), 0UL);
	KUNIT_EXPECT_EQ(test, site_target_now(f2), 0UL);
out:
	if (other_on)
		unregister_ftrace_function(other);
	ftrace_free_filter(other);
	ftrace_free_filter(a);
	ftrace_free_filter(b);
}
#endif

static struct kunit_case arch_cases[] = {
	KUNIT_CASE(arch_refuses_mismatch),
	{}
};

static struct kunit_case probe_cases[] = {
	KUNIT_CASE(probe_init_failure_undone),
	KUNIT_CASE(probe_leaves_without_lock),
	KUNIT_CASE(probe_shrinks_without_lock),
	KUNIT_CASE(probe_text_gone_leaves),
	KUNIT_CASE(probe_text_gone_shrinks),
	KUNIT_CASE(probe_orphan_removal_waits),
	KUNIT_CASE(probe_text_gone_during_removal),
	{}
};

static struct kunit_case hash_cases[] = {
	KUNIT_CASE(hash_add_lookup_del),
	KUNIT_CASE(hash_copy_grows),
	KUNIT_CASE(hash_take_moves),
	KUNIT_CASE(hash_empty_rules),
	KUNIT_CASE(func_mapper),
	{}
};

static struct kunit_case match_cases[] = {
	KUNIT_CASE(glob_kinds),
	KUNIT_CASE(glob_index),
	KUNIT_CASE(glob_module_words),
	KUNIT_CASE(walk_names_as_ps),
	KUNIT_CASE(prefilter_never_rejects_a_match),
	KUNIT_CASE(filter_ip_errors),
	KUNIT_CASE(lookup_symbols_rules),
	KUNIT_CASE(lookup_symbols_walk_agrees),
	KUNIT_CASE(ipmodify_direct_need_filter),
	KUNIT_CASE(tramp_listed_through_wait),
	KUNIT_CASE(register_while_unregister_waits),
	KUNIT_CASE(direct_unregister_waits_for_tasks),
	KUNIT_CASE(owner_waits_skips_tasks),
	KUNIT_CASE(owner_waits_task_inside),
	KUNIT_CASE(tramp_static_kept_parked),
#ifdef FTRACE_KBASE_612
	KUNIT_CASE(subops_union_and_edits),
	KUNIT_CASE(subops_refused_update_undone),
#endif
	{}
};

static struct kunit_case record_cases[] = {
	KUNIT_CASE(records_build_and_find),
	KUNIT_CASE(records_split_blocks),
	KUNIT_CASE(records_vmlinux_init_apart),
#ifdef CONFIG_MODULES
	KUNIT_CASE(records_init_apart),
#ifdef CONFIG_KALLSYMS
	KUNIT_CASE(mod_walk_names_as_kallsyms),
#endif
#endif
	{}
};

static struct kunit_case plan_cases[] = {
	KUNIT_CASE(plan_counts_and_flags),
	KUNIT_CASE(patch_exactly_the_changes),
	KUNIT_CASE(trampoline_for_a_lone_ops),
	KUNIT_CASE(trampoline_slots_run_out),
	KUNIT_CASE(plan_all_and_picky_ops),
	KUNIT_CASE(plan_prefilter_agrees),
	KUNIT_CASE(mismatch_is_not_written),
	KUNIT_CASE(touched_and_modified_stick),
	KUNIT_CASE(batches_sorted_and_bounded),
	KUNIT_CASE(lone_trampoline_over_many_sites),
	KUNIT_CASE(refused_batch_stops),
	KUNIT_CASE(partial_batch_recorded),
	KUNIT_CASE(batches_stay_sorted),
	KUNIT_CASE(init_batch),
	KUNIT_CASE(fresh_sample_idle),
	KUNIT_CASE(fresh_sample_finds_call),
	KUNIT_CASE(ipmodify_conflict),
	KUNIT_CASE(direct_shares_with_ipmodify),
	KUNIT_CASE(ipmodify_hash_guards),
	KUNIT_CASE(take_hash_publishes),
	KUNIT_CASE(notrace_and_disabled),
	{}
};

static struct kunit_suite hash_suite = {
	.name = "ftrace-hash",
	.test_cases = hash_cases,
};

static struct kunit_suite match_suite = {
	.name = "ftrace-match",
	.test_cases = match_cases,
};

static struct kunit_suite record_suite = {
	.name = "ftrace-records",
	.test_cases = record_cases,
};

static struct kunit_suite plan_suite = {
	.name = "ftrace-plan",
	.init = plan_init,
	.exit = plan_exit,
	.test_cases = plan_cases,
};

static struct kunit_suite probe_suite = {
	.name = "ftrace-probe",
	.test_cases = probe_cases,
};

static struct kunit_suite arch_suite = {
	.name = "ftrace-arch",
	.test_cases = arch_cases,
};

kunit_test_suites(&hash_suite, &match_suite, &record_suite, &plan_suite,
		  &probe_suite, &arch_suite);

MODULE_LICENSE("GPL");
