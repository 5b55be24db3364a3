/* SPDX-License-Identifier: GPL-2.0 */
/*
 * recordmcount: the ELF access layer.
 *
 * The tool reads one relocatable object into memory and never writes through
 * its input buffer; the output file is assembled separately.  Every read goes
 * through this layer so that the ELF class (32/64-bit) and the byte order are
 * decided in one place, from a layout table, and never by duplicated code.
 */
#ifndef RECORDMCOUNT_H
#define RECORDMCOUNT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The kernel's fixed-width names, for this host program. */
typedef __UINT8_TYPE__ u8;
typedef __UINT16_TYPE__ u16;
typedef __UINT32_TYPE__ u32;
typedef __UINT64_TYPE__ u64;
typedef __INT64_TYPE__ s64;

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define __printf(a, b)	__attribute__((__format__(__printf__, a, b)))

/* Where a field sits in an on-disk structure: byte offset and width. */
struct elf_field {
	u8 off;
	u8 width;			/* 1, 2, 4 or 8 */
};

/* The on-disk shape of the structures the tool reads, for one ELF class. */
struct elf_layout {
	u8 ehdr_size;
	struct elf_field e_shoff, e_shentsize, e_shnum, e_shstrndx;

	u8 shdr_size;
	struct elf_field sh_name, sh_type, sh_flags, sh_addr, sh_offset, sh_size;
	struct elf_field sh_link, sh_info, sh_addralign, sh_entsize;

	u8 sym_size;
	struct elf_field st_name, st_info, st_shndx, st_value, st_size;

	u8 rela_size;
	struct elf_field r_offset, r_info, r_addend;
	unsigned int r_sym_shift;	/* r_info >> shift is the symbol index */
	u64 r_type_mask;		/* r_info & mask is the type */
	unsigned int addr_size;		/* bytes in one address */
};

/* A section header, decoded into host form. */
struct elf_sec {
	u32 name, type, link, info;
	u64 flags, addr, offset, size, addralign, entsize;
};

/* A symbol, decoded into host form. */
struct elf_sym {
	u32 name;
	u8 bind, type;
	u16 shndx;
	u64 value, size;
};

/* A relocation with addend, decoded into host form. */
struct elf_rela {
	u64 offset;
	u32 sym, type;
	s64 addend;
};

/* One input object: its bytes and how to read them. */
struct elf_file {
	const char *path;
	const unsigned char *buf;
	size_t size;
	const struct elf_layout *lay;
	bool big_endian;
	u16 machine;
	u64 shoff;
	unsigned int shnum, shstrndx;
	struct elf_sec *secs;		/* the section headers, decoded */
};

u64 elf_get(const struct elf_file *ef, u64 base, struct elf_field f);
void elf_put(const struct elf_file *ef, unsigned char *p, unsigned int width,
	     u64 val);
void elf_section(const struct elf_file *ef, unsigned int idx,
		 struct elf_sec *out);
void elf_symbol(const struct elf_file *ef, const struct elf_sec *symtab,
		u64 idx, struct elf_sym *out);
void elf_relocation(const struct elf_file *ef, const struct elf_sec *rsec,
		    u64 idx, struct elf_rela *out);
const char *elf_string(const struct elf_file *ef, const struct elf_sec *strtab,
		       u64 off);
int elf_open(struct elf_file *ef, unsigned int type, char *err, size_t errlen);

#endif /* RECORDMCOUNT_H */
