// SPDX-License-Identifier: GPL-2.0
/*
 * recordmcount: assembling the bytes appended to an object: the record
 * tables, their relocations, the renumbered symbol table where section
 * symbols had to be added, group members, section names and headers.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "recordmcount.h"

/* ------------------------------------------------------------------ */
/* Writing the new object                                              */
/* ------------------------------------------------------------------ */

/* Append @n zero bytes; 0 or -1 without memory. */
static int ob_add(struct obuf *o, size_t n)
{
	if (!n)
		return 0;
	if (o->len + n > o->cap) {
		size_t cap = o->cap ? o->cap : 4096;
		unsigned char *np;

		while (cap < o->len + n)
			cap *= 2;
		np = realloc(o->p, cap);
		if (!np)
			return -1;
		o->p = np;
		o->cap = cap;
	}
	memset(o->p + o->len, 0, n);
	o->len += n;
	return 0;
}

/*
 * Pad to a multiple of @align in the file, then append @n zero bytes whose
 * offset in the buffer goes to *@at (in the file: @base + *@at).
 * Return 0, or -1 without memory.
 */
static int ob_reserve(struct obuf *o, size_t align, size_t n, size_t *at)
{
	if (ob_add(o, (align - (o->base + o->len) % align) % align))
		return -1;
	*at = o->len;
	return ob_add(o, n);
}

/*
 * Names of the sections this tool adds, in the order of enum new_name; the
 * relocation sections are .rel* or .rela*, as the object's code relocations.
 */
static const char *const new_names[2][NR_NAMES] = {
	{ "__mcount_loc", ".rel__mcount_loc", ".mcount_weak", ".rel.mcount_weak",
	  ".discard.entries" },
	{ "__mcount_loc", ".rela__mcount_loc", ".mcount_weak", ".rela.mcount_weak",
	  ".discard.entries" },
};

/* The added section names for this object. */
static const char *const *names_for(const struct rmc *r)
{
	return new_names[r->reltype == SHT_RELA];
}

/* Bytes in one relocation entry of the kind this object's records use. */
static unsigned int out_reloc_size(const struct rmc *r)
{
	return elf_reloc_size(&r->ef, r->reltype);
}

/* Map an input symbol index to its index after new symbols are inserted. */
static u64 new_symidx(const struct rmc *r, u64 i)
{
	return i < r->first_global ? i : i + r->new_syms;
}

/* The output symbol index of an anchor. */
static u64 anchor_symidx(const struct rmc *r, const struct anchor *a)
{
	return a->added ? a->sym : new_symidx(r, a->sym);
}

/* Copy one symbol table entry (raw bytes) from the input to @dst. */
static void copy_sym(const struct rmc *r, u64 i, unsigned char *dst)
{
	memcpy(dst, r->ef.buf + r->symtab.offset + i * r->ef.lay->sym_size,
	       r->ef.lay->sym_size);
}

/* Write the symbol table with a section symbol per anchor that needs one. */
static int emit_symtab(struct rmc *r, struct out *o)
{
	const struct elf_layout *l = r->ef.lay;
	u64 n = r->nsyms + r->new_syms, i;
	size_t at, k;

	if (ob_reserve(&o->b, 8, n * l->sym_size, &at))
		return rmc_fail(r, "out of memory");
	for (i = 0; i < r->nsyms; i++)
		copy_sym(r, i, o->b.p + at + new_symidx(r, i) * l->sym_size);
	for (k = 0; k < r->nanchors; k++) {
		const struct anchor *a = &r->anchors[k];
		unsigned char *e;

		if (!a->added)
			continue;
		/* Such an index needs SHN_XINDEX and SHT_SYMTAB_SHNDX. */
		if (a->sec >= SHN_LORESERVE)
			return rmc_fail(r, "cannot add a symbol for section %u: index too large",
					a->sec);
		e = o->b.p + at + a->sym * l->sym_size;
		elf_put(&r->ef, e + l->st_info.off, 1, STT_SECTION);
		elf_put(&r->ef, e + l->st_shndx.off, 2, a->sec);
	}
	o->sec[r->symtab_idx] = (struct placed){
		.offset = o->b.base + at, .size = n * l->sym_size,
		.info = r->first_global + r->new_syms, .moved = true,
	};
	return 0;
}

/* Rewrite the symbol indices of a relocation section after insertion. */
static int emit_renumbered_relocs(struct rmc *r, struct out *o, unsigned int idx,
				  const struct elf_sec *s)
{
	const struct elf_layout *l = r->ef.lay;
	unsigned int size = elf_reloc_size(&r->ef, s->type);
	u64 i, n = s->size / size, info, sym;
	size_t at;

	if (s->entsize != size || s->size % size)
		return rmc_fail(r, "relocation section %s has entries of %llu bytes",
			    rmc_sec_name(r, idx), (unsigned long long)s->entsize);
	if (ob_reserve(&o->b, 8, s->size, &at))
		return rmc_fail(r, "out of memory");
	memcpy(o->b.p + at, r->ef.buf + s->offset, s->size);
	for (i = 0; i < n; i++) {
		u64 b = s->offset + i * size;

		info = elf_get(&r->ef, b, l->r_info);
		sym = elf_info_sym(&r->ef, info);
		if (sym >= r->nsyms)
			return rmc_fail(r, "relocation %llu of %s: symbol %llu beyond the table",
				    (unsigned long long)i, rmc_sec_name(r, idx),
				    (unsigned long long)sym);
		info = elf_info_with_sym(&r->ef, info, new_symidx(r, sym));
		elf_put(&r->ef, o->b.p + at + i * size + l->r_info.off,
			l->r_info.width, info);
	}
	o->sec[idx] = (struct placed){ .offset = o->b.base + at, .size = s->size,
				       .info = s->info, .moved = true };
	return 0;
}

/*
 * Inserting symbols renumbers every global: move the symbol table and
 * rewrite each relocation section and group signature that refers to it.
 */
static int emit_renumbering(struct rmc *r, struct out *o)
{
	struct elf_sec s;
	unsigned int i;

	if (!r->new_syms)
		return 0;
	if (emit_symtab(r, o))
		return -1;
	for (i = 1; i < r->ef.shnum; i++) {
		elf_section(&r->ef, i, &s);
		if (s.type == SHT_SYMTAB_SHNDX)
			return rmc_fail(r, "cannot add symbols to an object with SHT_SYMTAB_SHNDX");
		if ((s.type == SHT_REL || s.type == SHT_RELA) &&
		    s.link == r->symtab_idx &&
		    emit_renumbered_relocs(r, o, i, &s))
			return -1;
		if (s.type == SHT_GROUP)
			o->sec[i] = (struct placed){
				.offset = s.offset, .size = s.size,
				.info = new_symidx(r, s.info), .moved = true,
			};
	}
	return 0;
}

/*
 * Encode one absolute relocation at @e: the address at offset @where of the
 * table @data is symbol @sym plus @addend.  SHT_RELA keeps the addend in
 * the entry and leaves the table's word zero; SHT_REL keeps it in the word.
 */
static void put_reloc(const struct rmc *r, unsigned char *e,
		      unsigned char *data, u64 where, u64 sym, u64 addend)
{
	const struct elf_layout *l = r->ef.lay;

	elf_put(&r->ef, e + l->r_offset.off, l->r_offset.width, where);
	elf_put(&r->ef, e + l->r_info.off, l->r_info.width,
		elf_info_make(&r->ef, sym, r->arch->abs_reloc));
	if (r->reltype == SHT_RELA)
		elf_put(&r->ef, e + l->r_addend.off, l->r_addend.width, addend);
	else
		elf_put(&r->ef, data + where, l->addr_size, addend);
}

/* Header of a section this tool adds. */
static struct elf_sec *add_header(struct out *o)
{
	struct elf_sec *s = &o->added[o->nadded++];

	memset(s, 0, sizeof(*s));
	return s;
}

/* Add the two new sections to group @g, so the group keeps or drops them. */
static int emit_group(struct rmc *r, struct out *o, unsigned int g,
		      unsigned int first_new)
{
	struct elf_sec s;
	size_t at;

	elf_section(&r->ef, g, &s);
	if (ob_reserve(&o->b, 4, s.size + 8, &at))
		return rmc_fail(r, "out of memory");
	memcpy(o->b.p + at, r->ef.buf + s.offset, s.size);
	elf_put(&r->ef, o->b.p + at + s.size, 4, first_new);
	elf_put(&r->ef, o->b.p + at + s.size + 4, 4, first_new + 1);
	o->sec[g] = (struct placed){
		.offset = o->b.base + at, .size = s.size + 8, .moved = true,
		.info = o->sec[g].moved ? o->sec[g].info : s.info,
	};
	return 0;
}

/*
 * One __mcount_loc section and its relocations, for the sites whose section
 * belongs to group @g (0: not in a group).  The section's bytes stay zero:
 * each address is the addend of its relocation.
 */
static int emit_table(struct rmc *r, struct out *o, unsigned int g)
{
	const struct elf_layout *l = r->ef.lay;
	unsigned int idx = r->ef.shnum + o->nadded, rsz = out_reloc_size(r);
	size_t k, a = 0, n = 0, data, rela;
	struct elf_sec *s;

	for (k = 0; k < r->nsites; k++)
		n += r->group_of[r->sites[k].sec] == g;
	if (ob_reserve(&o->b, l->addr_size, n * l->addr_size, &data) ||
	    ob_reserve(&o->b, l->addr_size, n * rsz, &rela))
		return rmc_fail(r, "out of memory");
	for (k = 0, n = 0; k < r->nsites; k++) {
		const struct site *st = &r->sites[k];
		unsigned char *e = o->b.p + rela + n * rsz;

		if (r->group_of[st->sec] != g)
			continue;
		while (r->anchors[a].sec != st->sec)
			a++;
		put_reloc(r, e, o->b.p + data, n * l->addr_size,
			  anchor_symidx(r, &r->anchors[a]),
			  st->off - r->anchors[a].bias);
		n++;
	}
	s = add_header(o);
	*s = (struct elf_sec){
		.name = o->name[NAME_LOC], .type = SHT_PROGBITS,
		.flags = SHF_ALLOC | (g ? SHF_GROUP : 0),
		.offset = o->b.base + data, .size = n * l->addr_size,
		.addralign = l->addr_size, .entsize = l->addr_size,
	};
	s = add_header(o);
	*s = (struct elf_sec){
		.name = o->name[NAME_LOC_REL], .type = r->reltype,
		.flags = SHF_INFO_LINK | (g ? SHF_GROUP : 0),
		.offset = o->b.base + rela, .size = n * rsz,
		.link = r->symtab_idx, .info = idx,
		.addralign = l->addr_size, .entsize = rsz,
	};
	return g ? emit_group(r, o, g, idx) : 0;
}

/* The section name table, with the new names appended. */
static int emit_shstrtab(struct rmc *r, struct out *o)
{
	const char *const *names = names_for(r);
	const struct elf_sec *s = &r->shstrtab;
	size_t at, len = s->size, n;
	int i;

	for (i = 0; i < NR_NAMES; i++)
		len += strlen(names[i]) + 1;
	if (ob_reserve(&o->b, 1, len, &at))
		return rmc_fail(r, "out of memory");
	memcpy(o->b.p + at, r->ef.buf + s->offset, s->size);
	for (i = 0, n = s->size; i < NR_NAMES; i++) {
		o->name[i] = n;
		memcpy(o->b.p + at + n, names[i], strlen(names[i]) + 1);
		n += strlen(names[i]) + 1;
	}
	o->sec[r->ef.shstrndx] = (struct placed){
		.offset = o->b.base + at, .size = len, .info = s->info,
		.moved = true,
	};
	return 0;
}

/* Encode a section header in the object's layout and byte order. */
static void put_shdr(const struct rmc *r, unsigned char *p,
		     const struct elf_sec *s)
{
	const struct elf_layout *l = r->ef.lay;
	const struct elf_file *ef = &r->ef;

	elf_put(ef, p + l->sh_name.off, l->sh_name.width, s->name);
	elf_put(ef, p + l->sh_type.off, l->sh_type.width, s->type);
	elf_put(ef, p + l->sh_flags.off, l->sh_flags.width, s->flags);
	elf_put(ef, p + l->sh_addr.off, l->sh_addr.width, s->addr);
	elf_put(ef, p + l->sh_offset.off, l->sh_offset.width, s->offset);
	elf_put(ef, p + l->sh_size.off, l->sh_size.width, s->size);
	elf_put(ef, p + l->sh_link.off, l->sh_link.width, s->link);
	elf_put(ef, p + l->sh_info.off, l->sh_info.width, s->info);
	elf_put(ef, p + l->sh_addralign.off, l->sh_addralign.width, s->addralign);
	elf_put(ef, p + l->sh_entsize.off, l->sh_entsize.width, s->entsize);
}

/* The new section header table, then the ELF header pointing at it. */
static int emit_headers(struct rmc *r, struct out *o)
{
	const struct elf_layout *l = r->ef.lay;
	unsigned int n = r->ef.shnum + o->nadded, i;
	struct elf_sec s;
	size_t at;

	if (ob_reserve(&o->b, 8, (size_t)n * l->shdr_size, &at))
		return rmc_fail(r, "out of memory");
	for (i = 0; i < n; i++) {
		if (i < r->ef.shnum) {
			elf_section(&r->ef, i, &s);
			if (o->sec[i].moved) {
				s.offset = o->sec[i].offset;
				s.size = o->sec[i].size;
				s.info = o->sec[i].info;
			}
			/* An entry table, now in __mcount_loc: drop it at link. */
			if (r->dead && r->dead[i])
				s.name = o->name[NAME_DEAD];
			/* Extended numbering: the count moves to section 0. */
			if (i == 0)
				s.size = n >= SHN_LORESERVE ? n : 0;
		} else {
			s = o->added[i - r->ef.shnum];
		}
		put_shdr(r, o->b.p + at + (size_t)i * l->shdr_size, &s);
	}
	elf_put(&r->ef, o->ehdr + l->e_shoff.off, l->e_shoff.width, o->b.base + at);
	elf_put(&r->ef, o->ehdr + l->e_shnum.off, l->e_shnum.width,
		n >= SHN_LORESERVE ? 0 : n);
	return 0;
}

/*
 * For each site in a weak function (outside COMDAT groups, which the linker
 * handles as a whole), a pair of addresses in the non-allocated section
 * .mcount_weak: the site as recorded in __mcount_loc, and the site as
 * "weak function + offset".  After the final link the two are equal exactly
 * when this copy of the function is the one that was kept.  A function with
 * several weak names has a pair for each.
 */
static int emit_weak_pairs(struct rmc *r, struct out *o)
{
	const struct elf_layout *l = r->ef.lay;
	unsigned int idx = r->ef.shnum + o->nadded, rsz = out_reloc_size(r);
	size_t k, a = 0, n = 0, data, rela;
	struct elf_sym fn;
	u64 w;
	struct elf_sec *s;

	for (k = 0; k < r->nsites; k++) {
		if (!r->sites[k].weak || r->group_of[r->sites[k].sec])
			continue;
		for (w = r->sites[k].weak; w; w = weak_site_sym(r, k, w + 1))
			n++;
	}
	if (!n)
		return 0;
	if (ob_reserve(&o->b, l->addr_size, 2 * n * l->addr_size, &data) ||
	    ob_reserve(&o->b, l->addr_size, 2 * n * rsz, &rela))
		return rmc_fail(r, "out of memory");
	for (k = 0, n = 0; k < r->nsites; k++) {
		const struct site *st = &r->sites[k];

		while (r->anchors[a].sec != st->sec)
			a++;
		if (!st->weak || r->group_of[st->sec])
			continue;
		for (w = st->weak; w; w = weak_site_sym(r, k, w + 1)) {
			unsigned char *e = o->b.p + rela + 2 * n * rsz;

			fn = r->syms[w];
			put_reloc(r, e, o->b.p + data, 2 * n * l->addr_size,
				  anchor_symidx(r, &r->anchors[a]),
				  st->off - r->anchors[a].bias);
			put_reloc(r, e + rsz, o->b.p + data,
				  (2 * n + 1) * l->addr_size, new_symidx(r, w),
				  st->off - fn.value);
			n++;
		}
	}
	s = add_header(o);
	*s = (struct elf_sec){
		.name = o->name[NAME_WEAK], .type = SHT_PROGBITS,
		.offset = o->b.base + data, .size = 2 * n * l->addr_size,
		.addralign = l->addr_size, .entsize = 2 * l->addr_size,
	};
	s = add_header(o);
	*s = (struct elf_sec){
		.name = o->name[NAME_WEAK_REL], .type = r->reltype,
		.flags = SHF_INFO_LINK, .offset = o->b.base + rela,
		.size = 2 * n * rsz, .link = r->symtab_idx,
		.info = idx, .addralign = l->addr_size, .entsize = rsz,
	};
	return 0;
}

/**
 * build_output() - assemble what the tool appends to the object
 * @r: the analysed object, with its sites and anchors
 * @o: receives the appended bytes and the updated ELF header
 *
 * Return: 0, or -1 with the reason in r->err.
 */
int build_output(struct rmc *r, struct out *o)
{
	unsigned int *groups, ngroups = 0, i;
	size_t k;
	int ret = -1;

	groups = calloc(r->nanchors + 1, sizeof(*groups));
	o->sec = calloc(r->ef.shnum, sizeof(*o->sec));
	o->added = calloc(2 * (r->nanchors + 2), sizeof(*o->added));
	if (!groups || !o->sec || !o->added) {
		free(groups);
		return rmc_fail(r, "out of memory");
	}
	o->b.base = r->ef.size;
	memcpy(o->ehdr, r->ef.buf, r->ef.lay->ehdr_size);
	/* The distinct groups (0: none) of the sections with sites. */
	for (k = 0; k < r->nanchors; k++) {
		for (i = 0; i < ngroups; i++)
			if (groups[i] == r->anchors[k].group)
				break;
		if (i == ngroups)
			groups[ngroups++] = r->anchors[k].group;
	}
	if (emit_renumbering(r, o) || emit_shstrtab(r, o))
		goto out;
	for (i = 0; i < ngroups; i++)
		if (emit_table(r, o, groups[i]))
			goto out;
	if (emit_weak_pairs(r, o))
		goto out;
	ret = emit_headers(r, o);
out:
	free(groups);
	return ret;
}
