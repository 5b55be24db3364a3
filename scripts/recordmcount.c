// SPDX-License-Identifier: GPL-2.0
/*
 * recordmcount: list the profiling call sites of one object file.
 *
 * The kernel is compiled so that every traceable function starts with a call
 * to a profiling routine: "call __fentry__" on x86_64 (-pg -mfentry), "bl
 * _mcount" on arm64 (-pg).  The compiler leaves a relocation against that
 * routine at each call.  This tool runs on each object after it is compiled,
 * finds those relocations in executable sections and appends a section named
 * __mcount_loc holding the address of every call, with the relocations the
 * linker needs to fill the addresses in.  The linker script gathers all of
 * them between __start_mcount_loc and __stop_mcount_loc, and ftrace turns
 * each recorded call into a NOP at boot.
 *
 * Usage: recordmcount [-w] OBJECT...
 *
 * Guarantees:
 *  - An object that already has __mcount_loc, or has no call sites, is left
 *    untouched, so running the tool twice is harmless.
 *  - On any problem the tool prints one line naming the file and the
 *    problem, exits non-zero and leaves the object byte for byte unchanged:
 *    the result is written to a temporary file that replaces the object only
 *    once it is complete.
 *
 * Call sites in COMDAT groups get a __mcount_loc section of their own inside
 * the same group, so the linker drops their records together with the code
 * whenever it drops a duplicate group.
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

#ifndef R_AARCH64_CALL26
#define R_AARCH64_CALL26	283
#endif
#ifndef R_AARCH64_ABS64
#define R_AARCH64_ABS64		257
#endif
#ifndef SHF_GROUP
#define SHF_GROUP		0x200
#endif

#define MAX_ERR			256

/* ------------------------------------------------------------------ */
/* Layouts and accessors                                               */
/* ------------------------------------------------------------------ */

#define F(o, w) { .off = (o), .width = (w) }

static const struct elf_layout layout64 = {
	.ehdr_size = 64,
	.e_shoff = F(40, 8), .e_shentsize = F(58, 2),
	.e_shnum = F(60, 2), .e_shstrndx = F(62, 2),
	.shdr_size = 64,
	.sh_name = F(0, 4), .sh_type = F(4, 4), .sh_flags = F(8, 8),
	.sh_addr = F(16, 8),
	.sh_offset = F(24, 8), .sh_size = F(32, 8), .sh_link = F(40, 4),
	.sh_info = F(44, 4), .sh_addralign = F(48, 8), .sh_entsize = F(56, 8),
	.sym_size = 24,
	.st_name = F(0, 4), .st_info = F(4, 1), .st_shndx = F(6, 2),
	.st_value = F(8, 8), .st_size = F(16, 8),
	.rela_size = 24,
	.r_offset = F(0, 8), .r_info = F(8, 8), .r_addend = F(16, 8),
	.r_sym_shift = 32, .r_type_mask = 0xffffffffu,
	.addr_size = 8,
};

static const struct elf_layout layout32 = {
	.ehdr_size = 52,
	.e_shoff = F(32, 4), .e_shentsize = F(46, 2),
	.e_shnum = F(48, 2), .e_shstrndx = F(50, 2),
	.shdr_size = 40,
	.sh_name = F(0, 4), .sh_type = F(4, 4), .sh_flags = F(8, 4),
	.sh_addr = F(12, 4),
	.sh_offset = F(16, 4), .sh_size = F(20, 4), .sh_link = F(24, 4),
	.sh_info = F(28, 4), .sh_addralign = F(32, 4), .sh_entsize = F(36, 4),
	.sym_size = 16,
	.st_name = F(0, 4), .st_info = F(12, 1), .st_shndx = F(14, 2),
	.st_value = F(4, 4), .st_size = F(8, 4),
	.rela_size = 12,
	.r_offset = F(0, 4), .r_info = F(4, 4), .r_addend = F(8, 4),
	.r_sym_shift = 8, .r_type_mask = 0xffu,
	.addr_size = 4,
};

#undef F

/* Is [off, off + len) inside a buffer of @size bytes? */
static bool in_range(u64 off, u64 len, u64 size)
{
	return off <= size && len <= size - off;
}

/* Read field @f of the structure at @p, which the caller range-checked. */
static u64 load(const struct elf_file *ef, const unsigned char *p,
		struct elf_field f)
{
	bool swap = ef->big_endian != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	u16 v16;
	u32 v32;
	u64 v64;

	p += f.off;
	switch (f.width) {
	case 2:
		memcpy(&v16, p, 2);
		return swap ? __builtin_bswap16(v16) : v16;
	case 4:
		memcpy(&v32, p, 4);
		return swap ? __builtin_bswap32(v32) : v32;
	case 8:
		memcpy(&v64, p, 8);
		return swap ? __builtin_bswap64(v64) : v64;
	default:
		return p[0];
	}
}

/**
 * elf_get() - read one field of an on-disk structure
 * @ef: the object
 * @base: file offset of the structure
 * @f: the field
 *
 * Callers check the structure's range first; a read outside the file is a
 * bug in the tool and returns 0 rather than reading past the buffer.
 * Return: the field, zero-extended, in host byte order.
 */
u64 elf_get(const struct elf_file *ef, u64 base, struct elf_field f)
{
	if (base > ef->size || f.off + f.width > ef->size - base)
		return 0;
	return load(ef, ef->buf + base, f);
}

/**
 * elf_put() - store a value in the object's byte order
 * @ef: the object whose byte order applies
 * @p: destination
 * @width: bytes to store (1, 2, 4 or 8)
 * @val: the value; high bits beyond @width are dropped
 */
void elf_put(const struct elf_file *ef, unsigned char *p, unsigned int width,
	     u64 val)
{
	unsigned int i;

	for (i = 0; i < width; i++) {
		unsigned int k = ef->big_endian ? width - 1 - i : i;

		p[k] = val & 0xff;
		val >>= 8;
	}
}

/* Decode section header @idx from the file. */
static void decode_section(const struct elf_file *ef, unsigned int idx,
			   struct elf_sec *out)
{
	const struct elf_layout *l = ef->lay;
	u64 b = ef->shoff + (u64)idx * l->shdr_size;
	const unsigned char *p = ef->buf + b;

	if (!in_range(b, l->shdr_size, ef->size)) {
		memset(out, 0, sizeof(*out));
		return;
	}
	out->name = load(ef, p, l->sh_name);
	out->type = load(ef, p, l->sh_type);
	out->flags = load(ef, p, l->sh_flags);
	out->addr = load(ef, p, l->sh_addr);
	out->offset = load(ef, p, l->sh_offset);
	out->size = load(ef, p, l->sh_size);
	out->link = load(ef, p, l->sh_link);
	out->info = load(ef, p, l->sh_info);
	out->addralign = load(ef, p, l->sh_addralign);
	out->entsize = load(ef, p, l->sh_entsize);
}

/**
 * elf_section() - section header @idx, as elf_open() decoded it
 * @ef: the object
 * @idx: section index, below ef->shnum
 * @out: the decoded header
 */
void elf_section(const struct elf_file *ef, unsigned int idx,
		 struct elf_sec *out)
{
	*out = ef->secs[idx];
}

/**
 * elf_symbol() - decode symbol @idx of @symtab
 * @ef: the object
 * @symtab: the symbol table section, already range-checked
 * @idx: symbol index, below the table's entry count
 * @out: the decoded symbol
 */
void elf_symbol(const struct elf_file *ef, const struct elf_sec *symtab,
		u64 idx, struct elf_sym *out)
{
	const struct elf_layout *l = ef->lay;
	u64 b = symtab->offset + idx * l->sym_size;
	const unsigned char *p = ef->buf + b;
	u8 info;

	if (!in_range(b, l->sym_size, ef->size)) {
		memset(out, 0, sizeof(*out));
		return;
	}
	info = load(ef, p, l->st_info);
	out->name = load(ef, p, l->st_name);
	out->bind = info >> 4;
	out->type = info & 0xf;
	out->shndx = load(ef, p, l->st_shndx);
	out->value = load(ef, p, l->st_value);
	out->size = load(ef, p, l->st_size);
}

/**
 * elf_relocation() - decode relocation @idx of the SHT_RELA section @rsec
 * @ef: the object
 * @rsec: the relocation section, already range-checked
 * @idx: entry index, below the section's entry count
 * @out: the decoded relocation; the addend is sign-extended
 */
void elf_relocation(const struct elf_file *ef, const struct elf_sec *rsec,
		    u64 idx, struct elf_rela *out)
{
	const struct elf_layout *l = ef->lay;
	u64 b = rsec->offset + idx * l->rela_size;
	const unsigned char *p = ef->buf + b;
	unsigned int bits = 8 * l->r_addend.width;
	u64 info, add;

	if (!in_range(b, l->rela_size, ef->size)) {
		memset(out, 0, sizeof(*out));
		return;
	}
	info = load(ef, p, l->r_info);
	add = load(ef, p, l->r_addend);
	out->offset = load(ef, p, l->r_offset);
	out->sym = info >> l->r_sym_shift;
	out->type = info & l->r_type_mask;
	if (bits < 64 && (add >> (bits - 1)) & 1)
		add |= ~0ULL << bits;
	out->addend = (s64)add;
}

/**
 * elf_string() - a NUL-terminated string from a string table
 * @ef: the object
 * @strtab: the string table section, already range-checked
 * @off: offset of the string in the table
 *
 * Return: the string, or NULL if @off is outside the table or the string
 * runs off its end.
 */
const char *elf_string(const struct elf_file *ef, const struct elf_sec *strtab,
		       u64 off)
{
	const char *s;

	if (off >= strtab->size)
		return NULL;
	s = (const char *)ef->buf + strtab->offset + off;
	if (!memchr(s, '\0', strtab->size - off))
		return NULL;
	return s;
}

/* Check that every section's contents lie inside the file. */
static int check_sections(const struct elf_file *ef, char *err, size_t errlen)
{
	struct elf_sec s;
	unsigned int i;

	for (i = 1; i < ef->shnum; i++) {
		elf_section(ef, i, &s);
		if (s.type == SHT_NOBITS || s.type == SHT_NULL)
			continue;
		if (!in_range(s.offset, s.size, ef->size)) {
			snprintf(err, errlen,
				 "section %u lies outside the file (truncated?)",
				 i);
			return -1;
		}
	}
	return 0;
}

/**
 * elf_open() - check the ELF header and section table of ef->buf
 * @ef: the object; path, buf and size are set, the rest is filled in
 * @type: the e_type required (ET_REL for objects, ET_EXEC for vmlinux)
 * @err: where to write a one-line reason on failure
 * @errlen: size of @err
 *
 * Accepts files of either class and byte order with a section table that
 * lies inside the file and sections that do too.  The caller frees
 * ef->secs, also on failure.
 * Return: 0, or -1 with @err set.
 */
int elf_open(struct elf_file *ef, unsigned int type, char *err, size_t errlen)
{
	const unsigned char *id = ef->buf;
	struct elf_sec shstr;
	u64 etype, shentsize;
	unsigned int i;

	if (ef->size < EI_NIDENT || memcmp(id, ELFMAG, SELFMAG)) {
		snprintf(err, errlen, "not an ELF file");
		return -1;
	}
	if (id[EI_CLASS] != ELFCLASS64 && id[EI_CLASS] != ELFCLASS32) {
		snprintf(err, errlen, "unknown ELF class %u", id[EI_CLASS]);
		return -1;
	}
	if (id[EI_DATA] != ELFDATA2LSB && id[EI_DATA] != ELFDATA2MSB) {
		snprintf(err, errlen, "unknown ELF byte order %u", id[EI_DATA]);
		return -1;
	}
	ef->lay = id[EI_CLASS] == ELFCLASS64 ? &layout64 : &layout32;
	ef->big_endian = id[EI_DATA] == ELFDATA2MSB;
	if (ef->size < ef->lay->ehdr_size) {
		snprintf(err, errlen, "truncated ELF header");
		return -1;
	}
	etype = elf_get(ef, 0, (struct elf_field){ 16, 2 });
	ef->machine = elf_get(ef, 0, (struct elf_field){ 18, 2 });
	if (etype != type) {
		snprintf(err, errlen, "not %s (e_type %llu)",
			 type == ET_REL ? "a relocatable object" : "an executable",
			 (unsigned long long)etype);
		return -1;
	}
	ef->shoff = elf_get(ef, 0, ef->lay->e_shoff);
	shentsize = elf_get(ef, 0, ef->lay->e_shentsize);
	ef->shnum = elf_get(ef, 0, ef->lay->e_shnum);
	ef->shstrndx = elf_get(ef, 0, ef->lay->e_shstrndx);
	if (ef->shnum == 0 || ef->shstrndx >= ef->shnum) {
		snprintf(err, errlen,
			 "no section table, or extended section numbering (unsupported)");
		return -1;
	}
	if (shentsize != ef->lay->shdr_size ||
	    !in_range(ef->shoff, (u64)ef->shnum * shentsize, ef->size)) {
		snprintf(err, errlen, "section table outside the file or malformed");
		return -1;
	}
	ef->secs = malloc(ef->shnum * sizeof(*ef->secs));
	if (!ef->secs) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (i = 0; i < ef->shnum; i++)
		decode_section(ef, i, &ef->secs[i]);
	if (check_sections(ef, err, errlen))
		return -1;
	elf_section(ef, ef->shstrndx, &shstr);
	if (shstr.type != SHT_STRTAB) {
		snprintf(err, errlen, "section name table is not a string table");
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Architectures                                                       */
/* ------------------------------------------------------------------ */

/*
 * What a call site looks like on one machine.  @site_bias turns the offset of
 * the relocated field into the address of the call instruction: x86's
 * "e8 rel32" has its field one byte into the instruction; arm64's "bl" is
 * relocated as a whole word.
 */
struct arch_desc {
	u16 machine;
	const char *name;
	const char *const *callees;	/* NULL-terminated */
	u32 call_relocs[2];	/* relocation types of a call */
	u32 abs_reloc;		/* an absolute address, for records */
	int site_bias;
	bool (*is_call)(const struct elf_file *ef, u64 at);
};

/* x86_64: the byte before the relocated field must be the call opcode 0xe8. */
static bool x86_is_call(const struct elf_file *ef, u64 at)
{
	return at >= 1 && at <= ef->size && ef->buf[at - 1] == 0xe8;
}

/* arm64: the relocated word must be a BL (bits 31..26 = 100101). */
static bool arm64_is_call(const struct elf_file *ef, u64 at)
{
	return in_range(at, 4, ef->size) &&
	       (elf_get(ef, at, (struct elf_field){ 0, 4 }) >> 26) == 0x25;
}

static const char *const x86_callees[] = { "__fentry__", "mcount", NULL };
static const char *const arm64_callees[] = { "_mcount", NULL };

static const struct arch_desc arches[] = {
	{
		.machine = EM_X86_64, .name = "x86_64",
		.callees = x86_callees,
		.call_relocs = { R_X86_64_PLT32, R_X86_64_PC32 },
		.abs_reloc = R_X86_64_64,
		.site_bias = -1,
		.is_call = x86_is_call,
	},
	{
		.machine = EM_AARCH64, .name = "arm64",
		.callees = arm64_callees,
		.call_relocs = { R_AARCH64_CALL26, R_AARCH64_CALL26 },
		.abs_reloc = R_AARCH64_ABS64,
		.site_bias = 0,
		.is_call = arm64_is_call,
	},
};

static const struct arch_desc *find_arch(u16 machine)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(arches); i++)
		if (arches[i].machine == machine)
			return &arches[i];
	return NULL;
}

/* ------------------------------------------------------------------ */
/* The object being processed                                          */
/* ------------------------------------------------------------------ */

/*
 * One call site: section index and offset of the call instruction, and the
 * weak function holding it (its symbol index; 0 if the function is not weak).
 */
struct site {
	unsigned int sec;
	u64 off;
	u64 weak;
};

/*
 * How records for the sites of one executable section are expressed: as
 * symbol @sym plus (site offset - @bias).  @sym is the section's own section
 * symbol where it has one (bias 0), else a non-weak symbol defined in it.
 * A weak symbol is never used: the linker may bind its name to another
 * definition, and the record would then point into that other function.
 * @group is the SHT_GROUP section the text belongs to, 0 if none.
 */
struct anchor {
	unsigned int sec;
	unsigned int group;
	u64 sym;
	u64 bias;
	bool added;		/* @sym is a new section symbol (output index) */
};

/* Everything known about the object; one per file, nothing global. */
struct rmc {
	struct elf_file ef;
	const struct arch_desc *arch;
	bool warn;
	unsigned int symtab_idx;
	struct elf_sec symtab, strtab, shstrtab;
	u64 nsyms, first_global;
	struct elf_sym *syms;		/* the symbol table, decoded */
	unsigned char *is_callee;	/* per symbol */
	unsigned int *group_of;		/* per section: its SHT_GROUP, or 0 */
	struct site *sites;
	size_t nsites, sites_cap;
	struct anchor *anchors;		/* one per section with sites */
	size_t nanchors;
	unsigned int new_syms;		/* section symbols we must add */
	char err[MAX_ERR];
};

static __printf(2, 3) int fail(struct rmc *r, const char *fmt, ...);

static int fail(struct rmc *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->err, sizeof(r->err), fmt, ap);
	va_end(ap);
	return -1;
}

static const char *sec_name(struct rmc *r, unsigned int idx)
{
	struct elf_sec s;
	const char *n;

	elf_section(&r->ef, idx, &s);
	n = elf_string(&r->ef, &r->shstrtab, s.name);
	return n ? n : "?";
}

/* Does the object already carry a __mcount_loc section? */
static bool already_recorded(struct rmc *r)
{
	unsigned int i;

	for (i = 1; i < r->ef.shnum; i++)
		if (!strcmp(sec_name(r, i), "__mcount_loc"))
			return true;
	return false;
}

/* Find the one symbol table and its string table, and check both. */
static int find_symtab(struct rmc *r)
{
	const struct elf_layout *l = r->ef.lay;
	struct elf_sec s;
	unsigned int i;
	u64 k;

	for (i = 1; i < r->ef.shnum; i++) {
		elf_section(&r->ef, i, &s);
		if (s.type != SHT_SYMTAB)
			continue;
		if (r->symtab_idx)
			return fail(r, "more than one symbol table");
		r->symtab_idx = i;
		r->symtab = s;
	}
	if (!r->symtab_idx)
		return fail(r, "no symbol table");
	s = r->symtab;
	if (s.entsize != l->sym_size || s.size % l->sym_size)
		return fail(r, "symbol table has entries of %llu bytes",
			    (unsigned long long)s.entsize);
	r->nsyms = s.size / l->sym_size;
	r->first_global = s.info;
	if (r->nsyms == 0 || r->first_global > r->nsyms)
		return fail(r, "symbol table is empty or its local count is wrong");
	if (s.link == 0 || s.link >= r->ef.shnum)
		return fail(r, "symbol table has no string table");
	elf_section(&r->ef, s.link, &r->strtab);
	if (r->strtab.type != SHT_STRTAB)
		return fail(r, "symbol string table is not SHT_STRTAB");
	r->syms = malloc(r->nsyms * sizeof(*r->syms));
	if (!r->syms)
		return fail(r, "out of memory");
	for (k = 0; k < r->nsyms; k++)
		elf_symbol(&r->ef, &r->symtab, k, &r->syms[k]);
	return 0;
}

/* Mark the undefined symbols that name this machine's profiling routine. */
static int mark_callees(struct rmc *r)
{
	const char *const *c;
	struct elf_sym sym;
	const char *name;
	u64 i;

	r->is_callee = calloc(r->nsyms, 1);
	if (!r->is_callee)
		return fail(r, "out of memory");
	for (i = 1; i < r->nsyms; i++) {
		sym = r->syms[i];
		if (sym.shndx != SHN_UNDEF || !sym.name)
			continue;
		name = elf_string(&r->ef, &r->strtab, sym.name);
		if (!name)
			return fail(r, "symbol %llu has a name outside the string table",
				    (unsigned long long)i);
		for (c = r->arch->callees; *c; c++)
			if (!strcmp(name, *c))
				r->is_callee[i] = 1;
	}
	return 0;
}

static int add_site(struct rmc *r, unsigned int sec, u64 off)
{
	if (r->nsites == r->sites_cap) {
		size_t cap = r->sites_cap ? 2 * r->sites_cap : 64;
		struct site *n = realloc(r->sites, cap * sizeof(*n));

		if (!n)
			return fail(r, "out of memory");
		r->sites = n;
		r->sites_cap = cap;
	}
	r->sites[r->nsites].sec = sec;
	r->sites[r->nsites].off = off;
	r->sites[r->nsites].weak = 0;
	r->nsites++;
	return 0;
}

/* Check one relocation against the profiling routine and record its site. */
static int take_reloc(struct rmc *r, unsigned int tsec,
		      const struct elf_sec *text, const struct elf_rela *rel)
{
	const struct arch_desc *a = r->arch;
	u64 at;

	if (rel->type != a->call_relocs[0] && rel->type != a->call_relocs[1])
		return fail(r, "unsupported relocation type %u at the call in %s+0x%llx",
			    rel->type, sec_name(r, tsec),
			    (unsigned long long)rel->offset);
	if (!in_range(rel->offset, 4, text->size))
		return fail(r, "relocation at %s+0x%llx lies outside its section",
			    sec_name(r, tsec), (unsigned long long)rel->offset);
	at = text->offset + rel->offset;
	if ((s64)rel->offset + a->site_bias < 0 || !a->is_call(&r->ef, at)) {
		/* A reference that is not a call (a jump, an address load). */
		if (r->warn)
			fprintf(stderr, "recordmcount: %s: %s+0x%llx: not a call, not recorded\n",
				r->ef.path, sec_name(r, tsec),
				(unsigned long long)rel->offset);
		return 0;
	}
	return add_site(r, tsec, rel->offset + a->site_bias);
}

/* Collect the call sites of the executable section that @rsec relocates. */
static int scan_relocs(struct rmc *r, unsigned int ridx,
		       const struct elf_sec *rsec)
{
	const struct elf_layout *l = r->ef.lay;
	struct elf_sec text;
	struct elf_rela rel;
	u64 i, n;

	if (rsec->info == 0 || rsec->info >= r->ef.shnum)
		return fail(r, "relocation section %u applies to no section", ridx);
	elf_section(&r->ef, rsec->info, &text);
	if (!(text.flags & SHF_EXECINSTR) || text.type != SHT_PROGBITS)
		return 0;
	if (rsec->link != r->symtab_idx)
		return fail(r, "relocation section %s uses another symbol table",
			    sec_name(r, ridx));
	if (rsec->entsize != l->rela_size || rsec->size % l->rela_size)
		return fail(r, "relocation section %s has entries of %llu bytes",
			    sec_name(r, ridx),
			    (unsigned long long)rsec->entsize);
	n = rsec->size / l->rela_size;
	for (i = 0; i < n; i++) {
		/* Most relocations are not calls of the routine: look at r_info first. */
		u64 sym = elf_get(&r->ef, rsec->offset + i * l->rela_size, l->r_info) >>
			  l->r_sym_shift;

		if (sym >= r->nsyms)
			return fail(r, "relocation %llu of %s names symbol %llu, beyond the table",
				    (unsigned long long)i, sec_name(r, ridx),
				    (unsigned long long)sym);
		if (!r->is_callee[sym])
			continue;
		elf_relocation(&r->ef, rsec, i, &rel);
		if (take_reloc(r, rsec->info, &text, &rel))
			return -1;
	}
	return 0;
}

static int site_cmp(const void *a, const void *b)
{
	const struct site *x = a, *y = b;

	if (x->sec != y->sec)
		return x->sec < y->sec ? -1 : 1;
	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return 0;
}

/* Find every call site, sorted by section and offset, duplicates dropped. */
static int find_sites(struct rmc *r)
{
	struct elf_sec s;
	unsigned int i;
	size_t k, n = 0;

	for (i = 1; i < r->ef.shnum; i++) {
		elf_section(&r->ef, i, &s);
		if (s.type == SHT_REL && s.info && s.info < r->ef.shnum &&
		    s.link == r->symtab_idx) {
			struct elf_sec t;

			elf_section(&r->ef, s.info, &t);
			if (t.flags & SHF_EXECINSTR)
				return fail(r, "SHT_REL relocations for code are not supported");
		}
		if (s.type == SHT_RELA && scan_relocs(r, i, &s))
			return -1;
	}
	/* Compilers emit relocations in order; sort only if they did not. */
	for (k = 1; k < r->nsites; k++)
		if (site_cmp(&r->sites[k - 1], &r->sites[k]) > 0)
			break;
	if (k < r->nsites)
		qsort(r->sites, r->nsites, sizeof(*r->sites), site_cmp);
	for (k = 0; k < r->nsites; k++)
		if (!n || site_cmp(&r->sites[n - 1], &r->sites[k]))
			r->sites[n++] = r->sites[k];
	r->nsites = n;
	return 0;
}

/* Index of the first site at or after (@sec, @off); sites are sorted. */
static size_t first_site(const struct rmc *r, unsigned int sec, u64 off)
{
	struct site key = { .sec = sec, .off = off };
	size_t lo = 0, hi = r->nsites;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (site_cmp(&r->sites[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Note the sites that lie in weak functions.  If another object defines the
 * same function, the linker binds every call to that definition but keeps
 * this copy's code, now unreachable and nameless; its records must not reach
 * the kernel (see mark_overridden()).
 */
static void mark_weak_sites(struct rmc *r)
{
	struct elf_sym sym;
	u64 i;
	size_t k;

	for (i = r->first_global; i < r->nsyms; i++) {
		sym = r->syms[i];
		if (sym.bind != STB_WEAK || sym.type != STT_FUNC ||
		    sym.shndx == SHN_UNDEF || sym.shndx >= r->ef.shnum)
			continue;
		k = first_site(r, sym.shndx, sym.value);
		for (; k < r->nsites && r->sites[k].sec == sym.shndx &&
		     r->sites[k].off - sym.value < sym.size; k++)
			r->sites[k].weak = i;
	}
}

/* Note which SHT_GROUP section, if any, each section belongs to. */
static int map_groups(struct rmc *r)
{
	struct elf_sec g;
	unsigned int i, m;
	u64 w;

	r->group_of = calloc(r->ef.shnum, sizeof(*r->group_of));
	if (!r->group_of)
		return fail(r, "out of memory");
	for (i = 1; i < r->ef.shnum; i++) {
		elf_section(&r->ef, i, &g);
		if (g.type != SHT_GROUP)
			continue;
		if (g.size < 4 || g.size % 4 || g.link != r->symtab_idx)
			return fail(r, "malformed section group %u", i);
		for (w = 4; w < g.size; w += 4) {
			m = elf_get(&r->ef, g.offset + w, (struct elf_field){ 0, 4 });
			if (m == 0 || m >= r->ef.shnum)
				return fail(r, "section group %u names section %u", i, m);
			r->group_of[m] = i;
		}
	}
	return 0;
}

/* Is @sym a usable anchor for its section (see struct anchor)? */
static int anchor_rank(const struct elf_sym *sym)
{
	if (sym->type == STT_SECTION)
		return 2;
	if (sym->bind == STB_WEAK || sym->type == STT_TLS ||
	    sym->type == STT_FILE || sym->type == STT_GNU_IFUNC)
		return 0;
	return sym->bind == STB_LOCAL || sym->bind == STB_GLOBAL;
}

/*
 * Pick the anchor of every section with sites.  Sections with neither a
 * section symbol nor a non-weak symbol get a new section symbol, inserted
 * after the existing locals (index first_global + k).
 */
static int choose_anchors(struct rmc *r)
{
	struct elf_sym sym;
	u64 i, *best;
	int *rank;
	size_t k;

	best = calloc(r->ef.shnum, sizeof(*best));
	rank = calloc(r->ef.shnum, sizeof(*rank));
	r->anchors = calloc(r->nsites, sizeof(*r->anchors));
	if (!best || !rank || !r->anchors) {
		free(best);
		free(rank);
		return fail(r, "out of memory");
	}
	for (i = 1; i < r->nsyms; i++) {
		int k2;

		sym = r->syms[i];
		if (sym.shndx == SHN_UNDEF || sym.shndx >= r->ef.shnum)
			continue;
		k2 = anchor_rank(&sym);
		if (k2 > rank[sym.shndx]) {
			rank[sym.shndx] = k2;
			best[sym.shndx] = i;
		}
	}
	for (k = 0; k < r->nsites; k++) {
		unsigned int sec = r->sites[k].sec;
		struct anchor *a;

		if (r->nanchors && r->anchors[r->nanchors - 1].sec == sec)
			continue;
		a = &r->anchors[r->nanchors++];
		a->sec = sec;
		a->group = r->group_of[sec];
		if (rank[sec]) {
			a->sym = best[sec];
			sym = r->syms[best[sec]];
			a->bias = rank[sec] == 2 ? 0 : sym.value;
		} else {
			a->sym = r->first_global + r->new_syms++;
			a->bias = 0;
			a->added = true;
		}
	}
	free(best);
	free(rank);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Writing the new object                                              */
/* ------------------------------------------------------------------ */

/*
 * What the tool appends to the input file, growing.  Offsets inside it are
 * relative to @base, the input's size, where the appended bytes start.
 */
struct obuf {
	unsigned char *p;
	size_t base, len, cap;
};

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

/* Names of the sections this tool adds, in the order of enum new_name. */
static const char *const new_names[] = {
	"__mcount_loc", ".rela__mcount_loc", ".mcount_weak", ".rela.mcount_weak",
};

enum new_name { NAME_LOC, NAME_LOC_RELA, NAME_WEAK, NAME_WEAK_RELA, NR_NAMES };

/* Where the output puts each existing section, if not where it was. */
struct placed {
	u64 offset, size;
	u32 info;
	bool moved;
};

/* Everything the writer produces besides the copied input. */
struct out {
	unsigned char ehdr[64];		/* the ELF header, updated */
	struct obuf b;
	u32 name[NR_NAMES];	/* offsets in the new name table */
	struct placed *sec;		/* per input section */
	struct elf_sec *added;		/* headers of the new sections */
	unsigned int nadded;
};

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
		return fail(r, "out of memory");
	for (i = 0; i < r->nsyms; i++)
		copy_sym(r, i, o->b.p + at + new_symidx(r, i) * l->sym_size);
	for (k = 0; k < r->nanchors; k++) {
		const struct anchor *a = &r->anchors[k];
		unsigned char *e;

		if (!a->added)
			continue;
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
	u64 i, n = s->size / l->rela_size, info, sym;
	size_t at;

	if (s->entsize != l->rela_size || s->size % l->rela_size)
		return fail(r, "relocation section %s has entries of %llu bytes",
			    sec_name(r, idx), (unsigned long long)s->entsize);
	if (ob_reserve(&o->b, 8, s->size, &at))
		return fail(r, "out of memory");
	memcpy(o->b.p + at, r->ef.buf + s->offset, s->size);
	for (i = 0; i < n; i++) {
		u64 b = s->offset + i * l->rela_size;

		info = elf_get(&r->ef, b, l->r_info);
		sym = info >> l->r_sym_shift;
		if (sym >= r->nsyms)
			return fail(r, "relocation %llu of %s names symbol %llu, beyond the table",
				    (unsigned long long)i, sec_name(r, idx),
				    (unsigned long long)sym);
		info = (new_symidx(r, sym) << l->r_sym_shift) |
		       (info & l->r_type_mask);
		elf_put(&r->ef, o->b.p + at + i * l->rela_size + l->r_info.off,
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
			return fail(r, "cannot add symbols to an object with SHT_SYMTAB_SHNDX");
		if (s.type == SHT_REL && s.link == r->symtab_idx)
			return fail(r, "SHT_REL relocations are not supported");
		if (s.type == SHT_RELA && s.link == r->symtab_idx &&
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

/* Encode one absolute relocation: at @where, symbol @sym plus @addend. */
static void put_rela(const struct rmc *r, unsigned char *e, u64 where,
		     u64 sym, u64 addend)
{
	const struct elf_layout *l = r->ef.lay;

	elf_put(&r->ef, e + l->r_offset.off, l->r_offset.width, where);
	elf_put(&r->ef, e + l->r_info.off, l->r_info.width,
		(sym << l->r_sym_shift) | r->arch->abs_reloc);
	elf_put(&r->ef, e + l->r_addend.off, l->r_addend.width, addend);
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
		return fail(r, "out of memory");
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
	unsigned int idx = r->ef.shnum + o->nadded;
	size_t k, a = 0, n = 0, data, rela;
	struct elf_sec *s;

	for (k = 0; k < r->nsites; k++)
		n += r->group_of[r->sites[k].sec] == g;
	if (ob_reserve(&o->b, l->addr_size, n * l->addr_size, &data) ||
	    ob_reserve(&o->b, 8, n * l->rela_size, &rela))
		return fail(r, "out of memory");
	for (k = 0, n = 0; k < r->nsites; k++) {
		const struct site *st = &r->sites[k];
		unsigned char *e = o->b.p + rela + n * l->rela_size;

		if (r->group_of[st->sec] != g)
			continue;
		while (r->anchors[a].sec != st->sec)
			a++;
		put_rela(r, e, n * l->addr_size, anchor_symidx(r, &r->anchors[a]),
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
		.name = o->name[NAME_LOC_RELA], .type = SHT_RELA,
		.flags = SHF_INFO_LINK | (g ? SHF_GROUP : 0),
		.offset = o->b.base + rela, .size = n * l->rela_size,
		.link = r->symtab_idx, .info = idx,
		.addralign = 8, .entsize = l->rela_size,
	};
	return g ? emit_group(r, o, g, idx) : 0;
}

/* The section name table, with the new names appended. */
static int emit_shstrtab(struct rmc *r, struct out *o)
{
	const struct elf_sec *s = &r->shstrtab;
	size_t at, len = s->size, n;
	int i;

	for (i = 0; i < NR_NAMES; i++)
		len += strlen(new_names[i]) + 1;
	if (ob_reserve(&o->b, 1, len, &at))
		return fail(r, "out of memory");
	memcpy(o->b.p + at, r->ef.buf + s->offset, s->size);
	for (i = 0, n = s->size; i < NR_NAMES; i++) {
		o->name[i] = n;
		memcpy(o->b.p + at + n, new_names[i], strlen(new_names[i]) + 1);
		n += strlen(new_names[i]) + 1;
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
		return fail(r, "out of memory");
	for (i = 0; i < n; i++) {
		if (i < r->ef.shnum) {
			elf_section(&r->ef, i, &s);
			if (o->sec[i].moved) {
				s.offset = o->sec[i].offset;
				s.size = o->sec[i].size;
				s.info = o->sec[i].info;
			}
		} else {
			s = o->added[i - r->ef.shnum];
		}
		put_shdr(r, o->b.p + at + (size_t)i * l->shdr_size, &s);
	}
	elf_put(&r->ef, o->ehdr + l->e_shoff.off, l->e_shoff.width, o->b.base + at);
	elf_put(&r->ef, o->ehdr + l->e_shnum.off, l->e_shnum.width, n);
	return 0;
}

/*
 * For each site in a weak function (outside COMDAT groups, which the linker
 * handles as a whole), a pair of addresses in the non-allocated section
 * .mcount_weak: the site as recorded in __mcount_loc, and the site as
 * "weak function + offset".  After the final link the two are equal exactly
 * when this copy of the function is the one that was kept.
 */
static int emit_weak_pairs(struct rmc *r, struct out *o)
{
	const struct elf_layout *l = r->ef.lay;
	unsigned int idx = r->ef.shnum + o->nadded;
	size_t k, a = 0, n = 0, data, rela;
	struct elf_sym fn;
	struct elf_sec *s;

	for (k = 0; k < r->nsites; k++)
		n += r->sites[k].weak && !r->group_of[r->sites[k].sec];
	if (!n)
		return 0;
	if (ob_reserve(&o->b, 8, 2 * n * l->addr_size, &data) ||
	    ob_reserve(&o->b, 8, 2 * n * l->rela_size, &rela))
		return fail(r, "out of memory");
	for (k = 0, n = 0; k < r->nsites; k++) {
		const struct site *st = &r->sites[k];
		unsigned char *e = o->b.p + rela + 2 * n * l->rela_size;

		while (r->anchors[a].sec != st->sec)
			a++;
		if (!st->weak || r->group_of[st->sec])
			continue;
		fn = r->syms[st->weak];
		put_rela(r, e, 2 * n * l->addr_size,
			 anchor_symidx(r, &r->anchors[a]),
			 st->off - r->anchors[a].bias);
		put_rela(r, e + l->rela_size, (2 * n + 1) * l->addr_size,
			 new_symidx(r, st->weak), st->off - fn.value);
		n++;
	}
	s = add_header(o);
	*s = (struct elf_sec){
		.name = o->name[NAME_WEAK], .type = SHT_PROGBITS,
		.offset = o->b.base + data, .size = 2 * n * l->addr_size,
		.addralign = 8, .entsize = 2 * l->addr_size,
	};
	s = add_header(o);
	*s = (struct elf_sec){
		.name = o->name[NAME_WEAK_RELA], .type = SHT_RELA,
		.flags = SHF_INFO_LINK, .offset = o->b.base + rela,
		.size = 2 * n * l->rela_size, .link = r->symtab_idx,
		.info = idx, .addralign = 8, .entsize = l->rela_size,
	};
	return 0;
}

/* Assemble the whole output object in @o. */
static int build_output(struct rmc *r, struct out *o)
{
	unsigned int *groups, ngroups = 0, i;
	size_t k;
	int ret = -1;

	groups = calloc(r->nanchors + 1, sizeof(*groups));
	o->sec = calloc(r->ef.shnum, sizeof(*o->sec));
	o->added = calloc(2 * (r->nanchors + 2), sizeof(*o->added));
	if (!groups || !o->sec || !o->added) {
		free(groups);
		return fail(r, "out of memory");
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
	if (r->ef.shnum + 2 * ngroups + 2 >= SHN_LORESERVE) {
		fail(r, "too many sections for a section table without extended numbering");
		goto out;
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

/* ------------------------------------------------------------------ */
/* Files                                                               */
/* ------------------------------------------------------------------ */

/* Read the whole of @path; return its bytes or NULL with @err set. */
static unsigned char *read_file(const char *path, size_t *size, mode_t *mode,
				char *err, size_t errlen)
{
	unsigned char *buf = NULL;
	struct stat st;
	size_t done = 0;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st) < 0) {
		snprintf(err, errlen, "cannot open: %s", strerror(errno));
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "not a regular file");
		goto fail;
	}
	buf = malloc(st.st_size ? st.st_size : 1);
	if (!buf) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	while (done < (size_t)st.st_size) {
		n = read(fd, buf + done, st.st_size - done);
		if (n <= 0) {
			snprintf(err, errlen, "read failed: %s",
				 n ? strerror(errno) : "file shrank");
			goto fail;
		}
		done += n;
	}
	close(fd);
	*size = done;
	*mode = st.st_mode & 07777;
	return buf;
fail:
	if (fd >= 0)
		close(fd);
	free(buf);
	return NULL;
}

/* One stretch of bytes of an output file. */
struct piece {
	const unsigned char *p;
	size_t len;
};

/* Write all of @len bytes at @p to @fd; 0 or -1. */
static int write_all(int fd, const unsigned char *p, size_t len)
{
	ssize_t n;

	while (len) {
		n = write(fd, p, len);
		if (n <= 0)
			return -1;
		p += n;
		len -= n;
	}
	return 0;
}

/*
 * Replace @path with the @n pieces @pc, one after the other: write a
 * temporary file next to it and rename it over @path only when complete.
 */
static int replace_file(const char *path, const struct piece *pc, int n,
			mode_t mode, char *err, size_t errlen)
{
	static const char suffix[] = ".rmc.XXXXXX";
	size_t plen = strlen(path);
	char *tmp = malloc(plen + sizeof(suffix));
	int fd, i, bad = 0;

	if (!tmp) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	memcpy(tmp, path, plen);
	memcpy(tmp + plen, suffix, sizeof(suffix));
	fd = mkstemp(tmp);
	if (fd < 0) {
		snprintf(err, errlen, "cannot create a temporary file: %s",
			 strerror(errno));
		free(tmp);
		return -1;
	}
	for (i = 0; i < n && !bad; i++)
		bad = write_all(fd, pc[i].p, pc[i].len);
	bad |= fchmod(fd, mode);
	bad |= close(fd);
	if (bad || rename(tmp, path)) {
		snprintf(err, errlen, "cannot write the result: %s",
			 strerror(errno));
		unlink(tmp);
		free(tmp);
		return -1;
	}
	free(tmp);
	return 0;
}

/* Analyse the object in r->ef; fill in the sites and their anchors. */
static int analyse(struct rmc *r)
{
	elf_section(&r->ef, r->ef.shstrndx, &r->shstrtab);
	r->arch = find_arch(r->ef.machine);
	if (!r->arch)
		return fail(r, "unsupported machine %u", r->ef.machine);
	if (r->ef.lay->addr_size != 8)
		return fail(r, "32-bit %s objects are not supported", r->arch->name);
	if (already_recorded(r))
		return 0;
	if (find_symtab(r) || mark_callees(r) || find_sites(r))
		return -1;
	if (!r->nsites)
		return 0;
	mark_weak_sites(r);
	return map_groups(r) ?: choose_anchors(r);
}

/* Process one object; return 0 on success (including nothing to do). */
static int process(const char *path, bool warn)
{
	struct rmc r = { .warn = warn };
	struct out o = { 0 };
	unsigned char *buf;
	mode_t mode = 0644;
	int ret = -1;

	r.ef.path = path;
	buf = read_file(path, &r.ef.size, &mode, r.err, sizeof(r.err));
	if (!buf)
		goto report;
	r.ef.buf = buf;
	if (elf_open(&r.ef, ET_REL, r.err, sizeof(r.err)) || analyse(&r))
		goto report;
	ret = 0;
	if (!r.nsites)
		goto done;
	if (build_output(&r, &o)) {
		ret = -1;
	} else {
		size_t eh = r.ef.lay->ehdr_size;
		struct piece pc[] = {
			{ o.ehdr, eh }, { buf + eh, r.ef.size - eh }, { o.b.p, o.b.len },
		};

		ret = replace_file(path, pc, 3, mode, r.err, sizeof(r.err));
	}
report:
	if (ret)
		fprintf(stderr, "recordmcount: %s: %s\n", path, r.err);
done:
	free(o.b.p);
	free(o.sec);
	free(o.added);
	free(r.ef.secs);
	free(r.syms);
	free(r.is_callee);
	free(r.group_of);
	free(r.sites);
	free(r.anchors);
	free(buf);
	return ret;
}

/* ------------------------------------------------------------------ */
/* After the final link                                                */
/* ------------------------------------------------------------------ */

/* Value of the defined symbol @name in the linked file, or 0 if absent. */
static u64 linked_symbol(struct rmc *r, const char *name)
{
	struct elf_sym sym;
	const char *n;
	u64 i;

	for (i = 1; i < r->nsyms; i++) {
		sym = r->syms[i];
		if (sym.shndx == SHN_UNDEF)
			continue;
		n = elf_string(&r->ef, &r->strtab, sym.name);
		if (n && !strcmp(n, name))
			return sym.value;
	}
	return 0;
}

/* File offset of the allocated bytes [@addr, @addr + @len), or 0. */
static u64 linked_offset(struct rmc *r, u64 addr, u64 len)
{
	struct elf_sec s;
	unsigned int i;

	for (i = 1; i < r->ef.shnum; i++) {
		elf_section(&r->ef, i, &s);
		if (s.type == SHT_NOBITS || !(s.flags & SHF_ALLOC))
			continue;
		if (addr >= s.addr && len <= s.size &&
		    addr - s.addr <= s.size - len)
			return s.offset + (addr - s.addr);
	}
	return 0;
}

static int u64_cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/*
 * Zero, in the linked table, the record of every pair in .mcount_weak whose
 * two addresses differ: that weak copy was overridden.  ftrace skips zero
 * entries.  Return the number of records zeroed, or -1.
 */
static long mark_overridden(struct rmc *r, unsigned char *out,
			    const struct elf_sec *weak)
{
	const struct elf_layout *l = r->ef.lay;
	struct elf_field f = { 0, l->addr_size };
	u64 start, stop, off, n, i, *sorted;
	long zeroed = 0;

	start = linked_symbol(r, "__start_mcount_loc");
	stop = linked_symbol(r, "__stop_mcount_loc");
	if (!start || stop < start || (stop - start) % l->addr_size)
		return fail(r, "no __start_mcount_loc/__stop_mcount_loc table");
	n = (stop - start) / l->addr_size;
	off = linked_offset(r, start, stop - start);
	sorted = malloc((n + 1) * sizeof(*sorted));
	if (!off || !sorted) {
		free(sorted);
		return fail(r, off ? "out of memory" : "the record table is not in the file");
	}
	for (i = 0; i < n; i++)
		sorted[i] = elf_get(&r->ef, off + i * l->addr_size, f);
	qsort(sorted, n, sizeof(*sorted), u64_cmp);
	for (i = 0; i + 1 < weak->size / l->addr_size; i += 2) {
		u64 site = elf_get(&r->ef, weak->offset + i * l->addr_size, f);
		u64 named = elf_get(&r->ef, weak->offset + (i + 1) * l->addr_size, f);
		u64 k;

		if (site == named || !site ||
		    !bsearch(&site, sorted, n, sizeof(*sorted), u64_cmp))
			continue;
		for (k = 0; k < n; k++) {
			if (elf_get(&r->ef, off + k * l->addr_size, f) != site)
				continue;
			elf_put(&r->ef, out + off + k * l->addr_size, l->addr_size, 0);
			zeroed++;
		}
	}
	free(sorted);
	return zeroed;
}

/* recordmcount --linked FILE: the post-link pass over vmlinux. */
static int process_linked(const char *path, bool warn)
{
	struct rmc r = { .warn = warn };
	unsigned char *buf, *out = NULL;
	struct elf_sec weak = { 0 };
	mode_t mode = 0755;
	unsigned int i;
	long zeroed = 0;
	int ret = -1;

	r.ef.path = path;
	buf = read_file(path, &r.ef.size, &mode, r.err, sizeof(r.err));
	if (!buf)
		goto report;
	r.ef.buf = buf;
	if (elf_open(&r.ef, ET_EXEC, r.err, sizeof(r.err)))
		goto report;
	elf_section(&r.ef, r.ef.shstrndx, &r.shstrtab);
	for (i = 1; i < r.ef.shnum; i++)
		if (!strcmp(sec_name(&r, i), ".mcount_weak"))
			elf_section(&r.ef, i, &weak);
	ret = 0;
	if (!weak.size)
		goto done;
	ret = -1;
	if (find_symtab(&r))
		goto report;
	out = malloc(r.ef.size);
	if (!out) {
		fail(&r, "out of memory");
		goto report;
	}
	memcpy(out, buf, r.ef.size);
	zeroed = mark_overridden(&r, out, &weak);
	if (zeroed < 0)
		goto report;
	ret = 0;
	if (warn)
		fprintf(stderr, "recordmcount: %s: %ld overridden weak records zeroed\n",
			path, zeroed);
	if (zeroed) {
		struct piece pc = { out, r.ef.size };

		ret = replace_file(path, &pc, 1, mode, r.err, sizeof(r.err));
	}
report:
	if (ret)
		fprintf(stderr, "recordmcount: %s: %s\n", path, r.err);
done:
	free(r.ef.secs);
	free(r.syms);
	free(out);
	free(buf);
	return ret;
}

int main(int argc, char **argv)
{
	bool warn = false, linked = false;
	int i, ret = 0;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-w")) {
			warn = true;
		} else if (!strcmp(argv[i], "--linked")) {
			linked = true;
		} else {
			i = argc;
			break;
		}
	}
	if (i >= argc) {
		fprintf(stderr, "usage: recordmcount [-w] OBJECT...\n"
			"       recordmcount [-w] --linked VMLINUX\n");
		return 2;
	}
	for (; i < argc; i++)
		if (linked ? process_linked(argv[i], warn) : process(argv[i], warn))
			ret = 1;
	return ret;
}
