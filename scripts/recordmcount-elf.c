// SPDX-License-Identifier: GPL-2.0
/*
 * recordmcount: reading ELF files through a layout table, and reading and
 * replacing whole files.  See recordmcount.h.
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
	.rel_size = 16, .rela_size = 24,
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
	.rel_size = 8, .rela_size = 12,
	.r_offset = F(0, 4), .r_info = F(4, 4), .r_addend = F(8, 4),
	.r_sym_shift = 8, .r_type_mask = 0xffu,
	.addr_size = 4,
};

#undef F

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
	bool swap = ef->big_endian != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	u16 v16 = val;
	u32 v32 = val;

	switch (width) {
	case 2:
		v16 = swap ? __builtin_bswap16(v16) : v16;
		memcpy(p, &v16, 2);
		break;
	case 4:
		v32 = swap ? __builtin_bswap32(v32) : v32;
		memcpy(p, &v32, 4);
		break;
	case 8:
		val = swap ? __builtin_bswap64(val) : val;
		memcpy(p, &val, 8);
		break;
	default:
		p[0] = val;
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
	/*
	 * Extended numbering: a symbol of a section at or above
	 * SHN_LORESERVE holds SHN_XINDEX, and its index is entry @idx of
	 * SHT_SYMTAB_SHNDX.  The other reserved values name no section.
	 */
	if (out->shndx == SHN_XINDEX)
		out->shndx = idx < ef->xndx_n ?
			     elf_get(ef, ef->xndx_off + 4 * idx, (struct elf_field){ 0, 4 }) :
			     SHN_NO_SECTION;
	else if (out->shndx >= SHN_LORESERVE)
		out->shndx = SHN_NO_SECTION;
	out->value = load(ef, p, l->st_value);
	out->size = load(ef, p, l->st_size);
}

/**
 * elf_reloc_size() - bytes in one entry of a relocation section
 * @ef: the object
 * @sh_type: SHT_REL or SHT_RELA
 *
 * Return: the entry size of the object's class.
 */
unsigned int elf_reloc_size(const struct elf_file *ef, u32 sh_type)
{
	return sh_type == SHT_REL ? ef->lay->rel_size : ef->lay->rela_size;
}

/*
 * The two halves of r_info.  For INFO_MIPS64 (see enum info_form) the
 * symbol is the half that comes first in the file, the type the byte that
 * comes last; the bytes between (a special symbol and two further types)
 * are kept as they are when a symbol is renumbered and written as zero in
 * new entries.
 */
static bool mips64_sym_high(const struct elf_file *ef)
{
	return ef->big_endian;
}

/**
 * elf_info_sym() - the symbol index in an r_info value
 * @ef: the object
 * @info: r_info as read by elf_get()
 *
 * Return: the symbol index.
 */
u64 elf_info_sym(const struct elf_file *ef, u64 info)
{
	if (ef->info_form == INFO_MIPS64)
		return mips64_sym_high(ef) ? info >> 32 : info & 0xffffffffu;
	return info >> ef->lay->r_sym_shift;
}

/**
 * elf_info_type() - the (first) relocation type in an r_info value
 * @ef: the object
 * @info: r_info as read by elf_get()
 *
 * Return: the type.
 */
u32 elf_info_type(const struct elf_file *ef, u64 info)
{
	if (ef->info_form == INFO_MIPS64)
		return mips64_sym_high(ef) ? info & 0xff : info >> 56;
	return info & ef->lay->r_type_mask;
}

/**
 * elf_info_with_sym() - an r_info value with its symbol replaced
 * @ef: the object
 * @info: r_info as read by elf_get()
 * @sym: the new symbol index
 *
 * Return: the new r_info, every other bit unchanged.
 */
u64 elf_info_with_sym(const struct elf_file *ef, u64 info, u64 sym)
{
	if (ef->info_form == INFO_MIPS64)
		return mips64_sym_high(ef) ?
		       (info & 0xffffffffu) | sym << 32 :
		       (info & ~0xffffffffull) | sym;
	return (info & ef->lay->r_type_mask) | sym << ef->lay->r_sym_shift;
}

/**
 * elf_info_make() - a new r_info value
 * @ef: the object
 * @sym: symbol index
 * @type: relocation type
 *
 * Return: r_info, to be stored with elf_put().
 */
u64 elf_info_make(const struct elf_file *ef, u64 sym, u32 type)
{
	if (ef->info_form == INFO_MIPS64)
		return mips64_sym_high(ef) ? sym << 32 | type :
		       sym | (u64)type << 56;
	return sym << ef->lay->r_sym_shift | type;
}

/**
 * elf_relocation() - decode relocation @idx of the SHT_REL(A) section @rsec
 * @ef: the object
 * @rsec: the relocation section, already range-checked
 * @idx: entry index, below the section's entry count
 * @out: the decoded relocation; the addend is sign-extended, and 0 for
 *	 SHT_REL (whose addend sits in the relocated field)
 */
void elf_relocation(const struct elf_file *ef, const struct elf_sec *rsec,
		    u64 idx, struct elf_rela *out)
{
	const struct elf_layout *l = ef->lay;
	unsigned int size = elf_reloc_size(ef, rsec->type);
	u64 b = rsec->offset + idx * size;
	const unsigned char *p = ef->buf + b;
	unsigned int bits = 8 * l->r_addend.width;
	u64 info, add = 0;

	if (!in_range(b, size, ef->size)) {
		memset(out, 0, sizeof(*out));
		return;
	}
	info = load(ef, p, l->r_info);
	if (rsec->type == SHT_RELA)
		add = load(ef, p, l->r_addend);
	out->offset = load(ef, p, l->r_offset);
	out->sym = elf_info_sym(ef, info);
	out->type = elf_info_type(ef, info);
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

/*
 * Check that every section's contents lie inside the file, and find the
 * one SHT_SYMTAB_SHNDX, if any.
 */
static int check_sections(struct elf_file *ef, char *err, size_t errlen)
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
		if (s.type != SHT_SYMTAB_SHNDX)
			continue;
		if (ef->xndx_idx) {
			snprintf(err, errlen, "more than one SHT_SYMTAB_SHNDX section");
			return -1;
		}
		if (s.size % 4) {
			snprintf(err, errlen, "SHT_SYMTAB_SHNDX of %llu bytes",
				 (unsigned long long)s.size);
			return -1;
		}
		ef->xndx_idx = i;
		ef->xndx_off = s.offset;
		ef->xndx_n = s.size / 4;
	}
	return 0;
}

/*
 * Extended section numbering: with SHN_LORESERVE sections or more, e_shnum
 * is 0 and section 0's sh_size holds the count; an e_shstrndx of
 * SHN_XINDEX means the index is in section 0's sh_link.
 */
static int extended_numbering(struct elf_file *ef, char *err, size_t errlen)
{
	struct elf_sec s0;

	if (ef->shnum && ef->shstrndx != SHN_XINDEX)
		return 0;
	if (!ef->shoff || !in_range(ef->shoff, ef->lay->shdr_size, ef->size))
		return 0;	/* no section table: the caller says so */
	decode_section(ef, 0, &s0);
	if (!ef->shnum) {
		if (s0.size > 0xffffffffu) {
			snprintf(err, errlen, "a section count of %llu",
				 (unsigned long long)s0.size);
			return -1;
		}
		ef->shnum = s0.size;
		ef->extended = true;
	}
	if (ef->shstrndx == SHN_XINDEX)
		ef->shstrndx = s0.link;
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

	/* LLVM bitcode: raw ("BC" 0xc0de) or in its wrapper (0x0b17c0de). */
	if (ef->size >= 4 && (!memcmp(id, "BC\xc0\xde", 4) ||
			      !memcmp(id, "\xde\xc0\x17\x0b", 4))) {
		snprintf(err, errlen,
			 "LLVM bitcode, not an ELF file (with LTO, sites are recorded once the object is linked)");
		return -1;
	}
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
	ef->info_form = ef->machine == EM_MIPS && id[EI_CLASS] == ELFCLASS64 ?
			INFO_MIPS64 : INFO_GENERIC;
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
	if (extended_numbering(ef, err, errlen))
		return -1;
	if (ef->shnum == 0 || ef->shstrndx >= ef->shnum) {
		snprintf(err, errlen, "no section table, or no section name table");
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
/* Files                                                               */
/* ------------------------------------------------------------------ */

/**
 * read_file() - read the whole of a regular file
 * @path: the file
 * @size: receives its size
 * @mode: receives its permission bits
 * @err: where to write a one-line reason on failure
 * @errlen: size of @err
 *
 * Return: the bytes (free() them), or NULL with @err set.
 */
unsigned char *read_file(const char *path, size_t *size, mode_t *mode,
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

/**
 * replace_file() - replace a file atomically
 * @path: the file to replace
 * @pc: the new contents, in pieces written one after the other
 * @n: number of pieces
 * @mode: permission bits of the new file
 * @err: where to write a one-line reason on failure
 * @errlen: size of @err
 *
 * Writes a temporary file next to @path and renames it over @path only
 * once it is complete, so @path is never seen half written.
 * Return: 0, or -1 with @err set (and @path untouched).
 */
int replace_file(const char *path, const struct piece *pc, int n,
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
