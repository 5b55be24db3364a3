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

/* Where a field sits in an on-disk structure: byte offset and width. */
struct elf_field {
	uint8_t off;
	uint8_t width;			/* 1, 2, 4 or 8 */
};

/* The on-disk shape of the structures the tool reads, for one ELF class. */
struct elf_layout {
	uint8_t ehdr_size;
	struct elf_field e_shoff, e_shentsize, e_shnum, e_shstrndx;

	uint8_t shdr_size;
	struct elf_field sh_name, sh_type, sh_flags, sh_addr, sh_offset, sh_size;
	struct elf_field sh_link, sh_info, sh_addralign, sh_entsize;

	uint8_t sym_size;
	struct elf_field st_name, st_info, st_shndx, st_value, st_size;

	uint8_t rela_size;
	struct elf_field r_offset, r_info, r_addend;
	unsigned int r_sym_shift;	/* r_info >> shift is the symbol index */
	uint64_t r_type_mask;		/* r_info & mask is the type */
	unsigned int addr_size;		/* bytes in one address */
};

/* A section header, decoded into host form. */
struct elf_sec {
	uint32_t name, type, link, info;
	uint64_t flags, addr, offset, size, addralign, entsize;
};

/* A symbol, decoded into host form. */
struct elf_sym {
	uint32_t name;
	uint8_t bind, type;
	uint16_t shndx;
	uint64_t value, size;
};

/* A relocation with addend, decoded into host form. */
struct elf_rela {
	uint64_t offset;
	uint32_t sym, type;
	int64_t addend;
};

/* One input object: its bytes and how to read them. */
struct elf_file {
	const char *path;
	const unsigned char *buf;
	size_t size;
	const struct elf_layout *lay;
	bool big_endian;
	uint16_t machine;
	uint64_t shoff;
	unsigned int shnum, shstrndx;
};

uint64_t elf_get(const struct elf_file *ef, uint64_t base, struct elf_field f);
void elf_put(const struct elf_file *ef, unsigned char *p, unsigned int width,
	     uint64_t val);
void elf_section(const struct elf_file *ef, unsigned int idx,
		 struct elf_sec *out);
void elf_symbol(const struct elf_file *ef, const struct elf_sec *symtab,
		uint64_t idx, struct elf_sym *out);
void elf_relocation(const struct elf_file *ef, const struct elf_sec *rsec,
		    uint64_t idx, struct elf_rela *out);
const char *elf_string(const struct elf_file *ef, const struct elf_sec *strtab,
		       uint64_t off);
int elf_open(struct elf_file *ef, unsigned int type, char *err, size_t errlen);

#endif /* RECORDMCOUNT_H */
