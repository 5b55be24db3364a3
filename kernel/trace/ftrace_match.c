// SPDX-License-Identifier: GPL-2.0
/*
 * From names to records.
 *
 * The filter files take function names, globs ("*x", "x*", "*x*", and
 * full globs with ? [ ] \), a record index or address, and
 * "func:mod:module".  How each finds its records:
 *
 *   exact name  kallsyms keeps vmlinux names sorted, so each name is a
 *               binary search (kallsyms_on_each_match_symbol()), then a
 *               record lookup inside the symbol; module records, usually
 *               few, are looked up one by one.
 *   glob        one pass over the vmlinux records in address order,
 *               naming each by reading the symbol table from where the
 *               last one was found (kallsyms_walk_name()), then the
 *               module records.
 *   number      the record at that address if there is one
 *               (ftrace_word_address()), else the Nth record in
 *               available_filter_functions order.
 */
#include <linux/bitmap.h>
#include <linux/bsearch.h>
#include <linux/ctype.h>
#include <linux/glob.h>
#include <linux/hash.h>
#include <linux/kallsyms.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/stringhash.h>

#include "ftrace_core.h"

/**
 * ftrace_glob_parse - split a filter word into its match type and text
 * @str: the word, modified in place
 * @len: its length
 * @g: receives the match
 * @neg: receives true if the word started with '!'
 *
 * Return: the match type (MATCH_FULL, _FRONT_ONLY, _MIDDLE_ONLY,
 * _END_ONLY, _GLOB, _INDEX).
 */
int ftrace_glob_parse(char *str, int len, struct ftrace_glob *g, bool *neg)
{
	int not;

	g->type = filter_parse_regex(str, len, &g->search, &not);
	g->len = strlen(g->search);
	*neg = not;
	return g->type;
}

/*
 * Is @s (of length @len, at least 1) in @name?  A scan for its first
 * character, not strstr()'s comparison at every position: a glob like
 * "*lock*" is tried against every function name.
 */
static bool has_substring(const char *name, const char *s, size_t len)
{
	for (; *name; name++)
		if (*name == *s && !strncmp(name, s, len))
			return true;
	return false;
}

/**
 * ftrace_glob_match - does @name match @g?
 * @name: a function (or module) name
 * @g: a parsed filter word; an empty word matches every name
 *
 * Return: true on a match.
 */
bool ftrace_glob_match(const char *name, const struct ftrace_glob *g)
{
	size_t n;

	switch (g->type) {
	case MATCH_FULL:
		return !strcmp(name, g->search);
	case MATCH_FRONT_ONLY:
		return !strncmp(name, g->search, g->len);
	case MATCH_MIDDLE_ONLY:
		return !g->len || has_substring(name, g->search, g->len);
	case MATCH_END_ONLY:
		n = strlen(name);
		return n >= g->len && !memcmp(name + n - g->len, g->search,
					      g->len);
	case MATCH_GLOB:
		return glob_match(g->search, name);
	}
	return false;
}

/**
 * arch_ftrace_match_adjust - the part of a symbol name that filters see
 * @str: a function's symbol name
 * @search: the filter word it is compared with
 *
 * An arch whose function symbols carry decoration that users do not type
 * (ppc64's ELFv1 dot symbols) overrides this to skip it.
 *
 * Return: the name to compare; by default @str itself.
 */
char * __weak arch_ftrace_match_adjust(char *str, const char *search)
{
	return str;
}

/* Does function @name (a writable kallsyms buffer) match word @g? */
static bool func_matches(char *name, const struct ftrace_glob *g)
{
	return ftrace_glob_match(arch_ftrace_match_adjust(name, g->search), g);
}

/*
 * What to do with each matching record.  A module word selects which text
 * the function word applies to: "M" (a glob) the modules it matches, "!M"
 * everything else, vmlinux included; "" every module, "!" (or "!*")
 * vmlinux only.
 */
struct match {
	struct ftrace_hash *hash;
	struct ftrace_glob func;
	struct ftrace_glob mod;
	bool has_mod;
	bool mod_neg;
	bool remove;
	int found;
	int err;
	char *sym;	/* exact names: the name a function prints as */
};

/* Does the module word of @m select the text of module @name (NULL: vmlinux)? */
static bool mod_selected(const struct match *m, const char *name)
{
	if (!m->has_mod)
		return true;
	if (!name)
		return m->mod_neg;
	if (!m->mod.len)
		return !m->mod_neg;
	return ftrace_glob_match(name, &m->mod) != m->mod_neg;
}

static void take(struct match *m, unsigned long ip)
{
	struct ftrace_func_entry *e;

	m->found++;
	if (m->remove) {
		e = ftrace_lookup_ip(m->hash, ip);
		if (e)
			ftrace_hash_del(m->hash, e);
	} else if (!m->err) {
		m->err = ftrace_hash_add(m->hash, ip);
	}
}

/*
 * Module records: each module's named in address order from its sorted
 * symbols (ftrace_mod_walk_name()), or by kallsyms if that cannot.
 */
static void match_modules(struct match *m)
{
	char sym[KSYM_NAME_LEN], *modname;
	struct ftrace_mod_walk walk = {};
	unsigned long size, off, ip;
	struct ftrace_block *b;
	struct ftrace_rec *r;

	for_each_ftrace_block(b) {
		if (!b->mod || !mod_selected(m, module_name(b->mod)))
			continue;
		for (r = b->recs; r < b->recs + b->count; r++) {
			/* Not listed in available_filter_functions yet. */
			if (r->flags & FTRACE_FL_DISABLED)
				continue;
			ip = ftrace_rec_ip(b, r);
			if (!ftrace_mod_walk_name(&walk, b->mod, ip, sym) &&
			    !kallsyms_lookup(ip, &size, &off, &modname, sym))
				continue;
			if (func_matches(sym, &m->func))
				take(m, ip);
		}
	}
	ftrace_mod_walk_free(&walk);
}

/*
 * Exact name in vmlinux: one binary search per name.  Of several names at
 * one address (aliases), only the one the function's record prints as
 * selects it, as a glob would and as in 6.1.
 */
static int exact_cb(void *data, unsigned long addr)
{
	unsigned long size, off, ip;
	struct match *m = data;

	if (!kallsyms_lookup(addr, &size, &off, NULL, m->sym) || off || !size ||
	    strcmp(m->sym, m->func.search))
		return 0;
	ip = ftrace_location_range(addr, addr + size - 1);
	if (ip)
		take(m, ip);
	return 0;
}

/*
 * A glob of one literal ("*x*", "x*", "*x") is tested on kallsyms'
 * compressed names before they are expanded.  A matcher over the literal's
 * characters (Knuth-Morris-Pratt) is run over whole tokens through a table
 * built once per word, tok[t * width + s]: the state after token t from
 * state s.  A name then costs a lookup per token; only the names it
 * accepts are expanded and tested for real, so it must never reject a
 * name that matches (KUnit prefilter_never_rejects_a_match).  It takes a
 * matcher state per character, so the walk costs about a third of what
 * expanding every name cost.
 *
 * States 0..len count the characters of the literal matched so far; len
 * means found (kept by "*x*" and "x*"; "*x" must also end there); dead
 * (len + 1) is "x*" after a mismatch.
 */
#define PF_MAX_LEN	62

struct prefilter {
	const struct ftrace_glob *g;
	unsigned int len;
	unsigned int width;		/* len + 2 states */
	u8 fail[PF_MAX_LEN + 1];	/* KMP failure links */
	u8 *tok;
};

static unsigned int pf_step(const struct prefilter *pf, unsigned int s,
			    char c)
{
	const char *p = pf->g->search;
	unsigned int dead = pf->len + 1;

	if (s == dead)
		return dead;
	if (s == pf->len) {
		if (pf->g->type != MATCH_END_ONLY)
			return s;
		s = pf->fail[s];
	}
	for (;;) {
		if (c == p[s])
			return s + 1;
		if (pf->g->type == MATCH_FRONT_ONLY)
			return dead;
		if (!s)
			return 0;
		s = pf->fail[s];
	}
}

/* Set up @pf for @g: 0, -EINVAL if @g is not a glob it can test, -ENOMEM. */
static int pf_init(struct prefilter *pf, const struct ftrace_glob *g)
{
	unsigned int i, k, s, t;
	const char *c;

	/*
	 * Under clang LTO, 6.1's kallsyms cuts LLVM's suffixes off the names
	 * it expands (cleanup_symbol_name()), so the name tested is a prefix
	 * of the one the tokens spell: a literal in it, or at its start, is
	 * in the tokens too, but one at its end may not end them.
	 */
	if ((IS_ENABLED(CONFIG_LTO_CLANG) && g->type == MATCH_END_ONLY) ||
	    !g->len || g->len > PF_MAX_LEN ||
	    (g->type != MATCH_MIDDLE_ONLY && g->type != MATCH_FRONT_ONLY &&
	     g->type != MATCH_END_ONLY))
		return -EINVAL;
	pf->g = g;
	pf->len = g->len;
	pf->width = g->len + 2;
	pf->fail[0] = 0;
	pf->fail[1] = 0;
	for (i = 1, k = 0; i < g->len; i++) {
		while (k && g->search[i] != g->search[k])
			k = pf->fail[k];
		if (g->search[i] == g->search[k])
			k++;
		pf->fail[i + 1] = k;
	}
	pf->tok = kmalloc_array(256, pf->width, GFP_KERNEL);
	if (!pf->tok)
		return -ENOMEM;
	for (t = 0; t < 256; t++) {
		for (i = 0; i < pf->width; i++) {
			s = i;
			for (c = kallsyms_token(t); *c; c++)
				s = pf_step(pf, s, *c);
			pf->tok[t * pf->width + i] = s;
		}
	}
	return 0;
}

/*
 * May the name made of tokens @tok[0..@n) match?  The first character is
 * the symbol's type; a name that starts with '.' is left to func_matches(),
 * since arch_ftrace_match_adjust() may skip that dot.
 */
static bool pf_may_match(const struct prefilter *pf, const u8 *tok,
			 unsigned int n)
{
	/* "*x*" and "x*" keep "found": no need to read further. */
	unsigned int stop = pf->g->type == MATCH_END_ONLY ? pf->len + 1 : pf->len;
	unsigned int i, s = 0, seen = 0;
	const char *c;

	/* Character by character up to the token after the name's first. */
	for (i = 0; i < n && seen < 2; i++) {
		for (c = kallsyms_token(tok[i]); *c; c++, seen++) {
			if (seen == 1 && *c == '.')
				return true;
			if (seen)
				s = pf_step(pf, s, *c);
		}
	}
	for (; i < n && s < stop; i++)
		s = pf->tok[tok[i] * pf->width + s];
	return s == pf->len;
}

/**
 * ftrace_prefilter_misses - names @word matches that the prefilter rejects
 * @word: a filter word (a glob)
 * @matches: receives how many vmlinux names @word matches
 *
 * For KUnit: walks every vmlinux record.  Called with ftrace_lock held.
 *
 * Return: how many matching names the prefilter rejected (0 is right),
 * -EINVAL if it does not take @word, or -ENOMEM.
 */
int ftrace_prefilter_misses(const char *word, unsigned int *matches)
{
	struct kallsyms_walk kw = { };
	struct ftrace_block *b;
	struct ftrace_glob g;
	struct prefilter pf;
	unsigned int i, n;
	unsigned long ip;
	char *w, *name;
	const u8 *tok;
	int misses;
	bool neg;

	*matches = 0;
	w = kstrdup(word, GFP_KERNEL);
	name = kmalloc(KSYM_NAME_LEN, GFP_KERNEL);
	misses = w && name ? 0 : -ENOMEM;
	if (!misses) {
		ftrace_glob_parse(w, strlen(w), &g, &neg);
		misses = pf_init(&pf, &g);
	}
	if (misses)
		goto out;
	for_each_ftrace_block(b) {
		for (i = 0; !b->mod && i < b->count; i++) {
			ip = ftrace_rec_ip(b, &b->recs[i]);
			tok = kallsyms_walk_tokens(&kw, ip, &n);
			if (!tok || !kallsyms_walk_name(&kw, ip, name) ||
			    !func_matches(name, &g))
				continue;
			(*matches)++;
			misses += !pf_may_match(&pf, tok, n);
		}
		cond_resched();
	}
	kfree(pf.tok);
out:
	kfree(name);
	kfree(w);
	return misses;
}

/*
 * The records of vmlinux are in address order, so their names can be read
 * one symbol after the other (kallsyms_walk_name()), each once, instead of
 * being looked up one by one or the whole symbol table being expanded.
 */
static void match_vmlinux_walk(struct match *m)
{
	struct kallsyms_walk kw = { };
	struct ftrace_block *b;
	struct prefilter pf;
	unsigned int i, n;
	const u8 *tok;
	unsigned long ip;
	bool use_pf;
	char *name;

	name = kmalloc(KSYM_NAME_LEN, GFP_KERNEL);
	if (!name) {
		m->err = -ENOMEM;
		return;
	}
	use_pf = !pf_init(&pf, &m->func);
	for (b = rcu_dereference_raw(ftrace_blocks); b;
	     b = rcu_dereference_raw(b->next)) {
		if (b->mod)
			continue;
		for (i = 0; i < b->count; i++) {
			ip = ftrace_rec_ip(b, &b->recs[i]);
			if (use_pf) {
				tok = kallsyms_walk_tokens(&kw, ip, &n);
				if (!tok || !pf_may_match(&pf, tok, n))
					continue;
			}
			if (kallsyms_walk_name(&kw, ip, name) &&
			    func_matches(name, &m->func))
				take(m, ip);
		}
		cond_resched();
	}
	if (use_pf)
		kfree(pf.tok);
	kfree(name);
}

static void match_vmlinux(struct match *m)
{
	if (m->func.type != MATCH_FULL) {
		match_vmlinux_walk(m);
		return;
	}
	m->sym = kmalloc(KSYM_NAME_LEN, GFP_KERNEL);
	if (!m->sym) {
		m->err = -ENOMEM;
		return;
	}
	kallsyms_on_each_match_symbol(exact_cb, m->func.search, m);
	kfree(m->sym);
	m->sym = NULL;
}

/**
 * ftrace_word_address - the call site a numeric filter word names
 * @search: the word, without its '!'
 *
 * 6.1 reads a word that starts with a digit as an index.  Here a number
 * (read as C reads one) may also be an address: of a call-site record, as
 * available_filter_functions_addrs lists it, or of a traceable function's
 * first byte, as /proc/kallsyms lists it.  That is the way to pick one of
 * several functions that share a name (static functions of different
 * files).  Text addresses lie far above any record count, so no index
 * is read otherwise than in 6.1.  Called with ftrace_lock held.
 *
 * Return: the record's address, or 0 if the word names none.
 */
unsigned long ftrace_word_address(const char *search)
{
	struct ftrace_rec *r;
	unsigned long n, ip;

	if (kstrtoul(search, 0, &n))
		return 0;
	ip = ftrace_location(n);
	r = ip ? ftrace_find_rec(ip, NULL) : NULL;
	return r && !(r->flags & FTRACE_FL_DISABLED) ? ip : 0;
}

/* A number: the record it is the address of, else the Nth record. */
static void match_index(struct match *m)
{
	struct ftrace_block *b;
	unsigned long n, ip;
	unsigned int i;

	ip = ftrace_word_address(m->func.search);
	if (ip) {
		take(m, ip);
		return;
	}
	if (kstrtoul(m->func.search, 0, &n))
		return;
	if (!n--)
		return;
	/* Positions as available_filter_functions lists them. */
	for_each_ftrace_block(b) {
		for (i = 0; i < b->count; i++) {
			if (b->recs[i].flags & FTRACE_FL_DISABLED)
				continue;
			if (!n--) {
				take(m, ftrace_rec_ip(b, &b->recs[i]));
				return;
			}
		}
	}
}

/**
 * ftrace_mod_glob_parse - split a module word into its match type and text
 * @w: the word ("M", "!M" or a glob), cut as ftrace_glob_parse() cuts it
 * @g: receives the match
 * @neg: receives whether the word starts with '!'
 *
 * A module word is a name or a glob, never an index: filter_parse_regex()
 * reads any word that starts with a digit as one, but module names such
 * as "8021q", "9pnet" or "842_compress" do.  6.1 matches such a word
 * against no module (with the module loaded the write fails; a word left
 * waiting for it selects nothing when it loads).  Here it is the module's
 * name, or with a glob character a glob, as for any other module.
 */
void ftrace_mod_glob_parse(char *w, struct ftrace_glob *g, bool *neg)
{
	if (ftrace_glob_parse(w, strlen(w), g, neg) == MATCH_INDEX)
		g->type = strpbrk(g->search, "*?[\\") ? MATCH_GLOB : MATCH_FULL;
}

/**
 * ftrace_match_to_hash - add (or remove) the records a word selects
 * @hash: the hash being edited
 * @func: the function word (name, glob, index or address, '!' to remove)
 * @mod: a module word ("mod" of "func:mod:mod"), or NULL for any text
 * @remove: remove instead of add (also implied by a leading '!')
 *
 * Called with ftrace_lock held.  The words are not modified.
 *
 * Return: the number of records matched, or a negative error.
 */
int ftrace_match_to_hash(struct ftrace_hash *hash, const char *func,
			 const char *mod, bool remove)
{
	struct match m = { .hash = hash, .remove = remove };
	char *fw, *mw = NULL;
	bool neg;

	lockdep_assert_held(&ftrace_lock);
	/* Parsing cuts the glob characters out of the words: use copies. */
	fw = kstrdup(func, GFP_KERNEL);
	if (mod)
		mw = kstrdup(mod, GFP_KERNEL);
	if (!fw || (mod && !mw)) {
		m.err = -ENOMEM;
		goto out;
	}
	ftrace_glob_parse(fw, strlen(fw), &m.func, &neg);
	m.remove |= neg;
	if (mw) {
		m.has_mod = true;
		ftrace_mod_glob_parse(mw, &m.mod, &m.mod_neg);
	}
	/*
	 * "*" selects every function; so does an empty function word with a
	 * module word ("*:mod:M" and ":mod:M" alike).  A bare "" or "!"
	 * selects nothing.
	 */
	if (!m.func.len && (m.func.type != MATCH_FULL || mw))
		m.func.type = MATCH_MIDDLE_ONLY;
	if (m.func.type == MATCH_INDEX) {
		if (mw)
			m.err = -EINVAL;
		else
			match_index(&m);
	} else {
		if (mod_selected(&m, NULL))
			match_vmlinux(&m);
		match_modules(&m);
		/*
		 * An exact name found nowhere may still be a vmlinux function
		 * whose symbol is spelled otherwise (arch_ftrace_match_adjust()):
		 * only then is the walk needed.
		 */
		if (m.func.type == MATCH_FULL && m.func.len && !m.found &&
		    !m.err && mod_selected(&m, NULL))
			match_vmlinux_walk(&m);
	}
out:
	kfree(fw);
	kfree(mw);
	return m.err ?: m.found;
}

/**
 * ftrace_module_known - is module @name loaded, with its records live?
 * @name: a module name
 *
 * Called with ftrace_lock held.
 *
 * Return: true if a module of that name has records that can be traced.
 */
bool ftrace_module_known(const char *name)
{
	struct ftrace_block *b;

	lockdep_assert_held(&ftrace_lock);
	for_each_ftrace_block(b)
		if (b->mod && b->count && !strcmp(module_name(b->mod), name) &&
		    !(b->recs[0].flags & FTRACE_FL_DISABLED))
			return true;
	return false;
}

/* ftrace_lookup_symbols(): names to traceable function addresses. */
struct sym_lookup {
	const char **syms;
	unsigned long *addrs;
	size_t cnt;
	size_t found;
	size_t idx;
};

/* The first traceable function of the name at ->idx wins. */
static int lookup_vmlinux_cb(void *data, unsigned long addr)
{
	struct sym_lookup *l = data;

	if (!ftrace_location(addr))
		return 0;
	l->addrs[l->idx] = addr;
	l->found++;
	return 1;
}

#ifdef FTRACE_KBASE_612
static int cmp_sym_name(const void *a, const void *b)
{
	return strcmp(*(const char * const *)a, *(const char * const *)b);
}

/*
 * A module's symbol fills the slot of its name, if vmlinux and the modules
 * before left it empty (names are unique here: see below).  Stops once
 * all are found.
 */
static int lookup_module_cb(void *data, const char *name, unsigned long addr)
{
	struct sym_lookup *l = data;
	const char **hit;
	size_t i;

	hit = bsearch(&name, l->syms, l->cnt, sizeof(*l->syms), cmp_sym_name);
	if (!hit)
		return 0;
	i = hit - l->syms;
	if (l->addrs[i] || !ftrace_location(addr))
		return 0;
	l->addrs[i] = addr;
	return ++l->found == l->cnt;
}

/* 6.12 looks in every module for the names vmlinux does not have. */
static void lookup_modules(struct sym_lookup *l)
{
	if (l->found < l->cnt)
		module_kallsyms_on_each_symbol(NULL, lookup_module_cb, l);
}
#else
/*
 * 6.1 looks in vmlinux only: its callers (fprobe, BPF's kprobe_multi
 * links) hold no reference on a module, so a link to one would outlive it.
 */
static void lookup_modules(struct sym_lookup *l)
{
}
#endif

/*
 * Many names: one walk over the vmlinux records in address order, naming
 * each (kallsyms_walk_name()) and looking the name up among those asked
 * for, costs less than a binary search in kallsyms for each name, which
 * expands a name at every step.  A lookup of one name costs about as much
 * as naming LOOKUP_WALK_RATIO records in the walk.
 */
#define LOOKUP_WALK_RATIO	32

/*
 * Open addressing over the indices of the asked names (-1: free), and a
 * prefilter that rejects most records' names still compressed: one bit
 * for each asked name's length and first two characters, which the
 * tokens of a compressed name give without expanding it.  With clang's
 * LTO the walk cuts suffixes off names, which changes their length: the
 * length is left out there.
 */
#define NAME_KEY_BITS	16

struct name_table {
	int *slot;
	unsigned int mask;
	unsigned long *keys;
	u8 toklen[256];
};

static u32 name_key(unsigned int len, u8 c0, u8 c1)
{
	if (IS_ENABLED(CONFIG_LTO_CLANG))
		len = 0;
	return hash_32(len << 16 | c0 << 8 | c1, NAME_KEY_BITS);
}

/* The key of the name made of tokens @tok[0..@n) (type character first). */
static u32 name_key_tokens(const struct name_table *t, const u8 *tok,
			   unsigned int n)
{
	unsigned int i, len = 0, got = 0;
	u8 c[3] = { };
	const char *p;

	for (i = 0; i < n; i++) {
		len += t->toklen[tok[i]];
		if (got < 3)
			for (p = kallsyms_token(tok[i]); got < 3 && *p; p++)
				c[got++] = *p;
	}
	return name_key(len ? len - 1 : 0, c[1], c[2]);
}

static int name_table_init(struct name_table *t, const char **syms,
			   size_t cnt)
{
	unsigned int size = roundup_pow_of_two(cnt * 2), h;
	size_t i;

	t->slot = kvmalloc_array(size, sizeof(*t->slot), GFP_KERNEL);
	t->keys = bitmap_zalloc(1 << NAME_KEY_BITS, GFP_KERNEL);
	if (!t->slot || !t->keys) {
		kvfree(t->slot);
		bitmap_free(t->keys);
		return -ENOMEM;
	}
	memset(t->slot, 0xff, size * sizeof(*t->slot));
	t->mask = size - 1;
	for (i = 0; i < 256; i++)
		t->toklen[i] = strlen(kallsyms_token(i));
	for (i = 0; i < cnt; i++) {
		size_t len = strlen(syms[i]);

		/* A name given twice keeps its first index. */
		if (i && !strcmp(syms[i], syms[i - 1]))
			continue;
		__set_bit(name_key(len, syms[i][0], len ? syms[i][1] : 0),
			  t->keys);
		h = full_name_hash(NULL, syms[i], len) & t->mask;
		while (t->slot[h] >= 0)
			h = (h + 1) & t->mask;
		t->slot[h] = i;
	}
	return 0;
}

static void name_table_free(struct name_table *t)
{
	kvfree(t->slot);
	bitmap_free(t->keys);
}

static int name_table_find(const struct name_table *t, const char **syms,
			   const char *name)
{
	unsigned int h = full_name_hash(NULL, name, strlen(name)) & t->mask;

	for (; t->slot[h] >= 0; h = (h + 1) & t->mask)
		if (!strcmp(syms[t->slot[h]], name))
			return t->slot[h];
	return -1;
}

/*
 * Fill the slots of the names that name a vmlinux record's function, each
 * with the lowest such function's address (as the binary search finds
 * it: the first traceable one).  A name kallsyms_walk_name() does not
 * give (an alias after the first at its address) is left to the search.
 */
static int lookup_vmlinux_walk(struct sym_lookup *l)
{
	unsigned long ip, size, off;
	struct kallsyms_walk kw = { };
	struct name_table *t;
	struct ftrace_block *b;
	unsigned int i, n;
	const u8 *tok;
	char *name;
	int k;

	name = kmalloc(KSYM_NAME_LEN, GFP_KERNEL);
	t = kmalloc(sizeof(*t), GFP_KERNEL);
	if (!name || !t || name_table_init(t, l->syms, l->cnt)) {
		kfree(t);
		kfree(name);
		return -ENOMEM;
	}
	mutex_lock(&ftrace_lock);
	for_each_ftrace_block(b) {
		if (b->mod)
			continue;
		for (i = 0; i < b->count && l->found < l->cnt; i++) {
			ip = ftrace_rec_ip(b, &b->recs[i]);
			tok = kallsyms_walk_tokens(&kw, ip, &n);
			if (!tok || !test_bit(name_key_tokens(t, tok, n), t->keys) ||
			    !kallsyms_walk_name(&kw, ip, name))
				continue;
			k = name_table_find(t, l->syms, name);
			if (k < 0 || l->addrs[k] ||
			    !kallsyms_lookup_size_offset(ip, &size, &off))
				continue;
			l->addrs[k] = ip - off;
			l->found++;
		}
	}
	mutex_unlock(&ftrace_lock);
	name_table_free(t);
	kfree(t);
	kfree(name);
	return 0;
}

/**
 * ftrace_lookup_symbols - the addresses of traceable functions, by name
 * @sorted_syms: function names, sorted with strcmp()
 * @cnt: how many
 * @addrs: receives each function's address (0 where none was found)
 *
 * Each name is one binary search in kallsyms' sorted names of vmlinux;
 * many names are looked for in one walk over the vmlinux records first
 * (lookup_vmlinux_walk()).  On 6.12, names vmlinux lacks are then looked
 * for in the modules' symbols, as stock 6.12 does (its BPF kprobe_multi
 * links take a reference on each module they name); 6.1 looks in vmlinux
 * only.  Must be called without module_mutex held (6.12 takes it).
 *
 * Return: 0 if every name was found, -ESRCH otherwise (also when a name
 * is given twice).
 */
int ftrace_lookup_symbols(const char **sorted_syms, size_t cnt,
			  unsigned long *addrs)
{
	struct sym_lookup l = { .syms = sorted_syms, .addrs = addrs, .cnt = cnt };
	bool twice = false;

	memset(addrs, 0, sizeof(*addrs) * cnt);
	if (cnt * LOOKUP_WALK_RATIO >= ftrace_nr_records() &&
	    lookup_vmlinux_walk(&l))
		return -ENOMEM;
	for (l.idx = 0; l.idx < cnt; l.idx++) {
		/*
		 * A name given twice is found once, so the lookup fails, as
		 * stock's does; the modules are then not searched.
		 */
		if (l.idx && !strcmp(sorted_syms[l.idx], sorted_syms[l.idx - 1])) {
			twice = true;
			continue;
		}
		if (addrs[l.idx])
			continue;
		kallsyms_on_each_match_symbol(lookup_vmlinux_cb,
					      sorted_syms[l.idx], &l);
	}
	if (twice)
		return -ESRCH;
	lookup_modules(&l);
	return l.found == cnt ? 0 : -ESRCH;
}
