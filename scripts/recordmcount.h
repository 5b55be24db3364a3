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
#include <sys/types.h>
#include <linux/compiler.h>	/* tools/include: __printf() */

/* The kernel's fixed-width names, for this host program. */
typedef __UINT8_TYPE__ u8;
typedef __UINT16_TYPE__ u16;
typedef __UINT32_TYPE__ u32;
typedef __UINT64_TYPE__ u64;
typedef __INT64_TYPE__ s64;

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

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

	u8 rel_size, rela_size;		/* SHT_REL and SHT_RELA entries */
	struct elf_field r_offset, r_info, r_addend;
	unsigned int r_sym_shift;	/* r_info >> shift is the symbol index */
	u64 r_type_mask;		/* r_info & mask is the type */
	unsigned int addr_size;		/* bytes in one address */
};

/*
 * How r_info packs symbol and type.  64-bit MIPS does not follow the
 * generic ELF64 rule: its eight bytes are a 32-bit symbol index in the
 * file's byte order followed by four one-byte fields, the last of which is
 * the (first) relocation type.  Read as one number in the file's byte
 * order, the symbol is therefore the high half on big-endian files and the
 * low half on little-endian ones.
 */
enum info_form { INFO_GENERIC, INFO_MIPS64 };

/* A section header, decoded into host form. */
struct elf_sec {
	u32 name, type, link, info;
	u64 flags, addr, offset, size, addralign, entsize;
};

/*
 * A symbol, decoded into host form.  @shndx is a section index, SHN_UNDEF,
 * or SHN_NO_SECTION for SHN_ABS, SHN_COMMON and the other reserved values:
 * an index taken from SHT_SYMTAB_SHNDX may be above SHN_LORESERVE, so the
 * reserved values cannot keep their meaning here.
 */
#define SHN_NO_SECTION	0xffffffffu
struct elf_sym {
	u32 name;
	u8 bind, type;
	u32 shndx;
	u64 value, size;
};

/* A relocation, decoded into host form (addend 0 for SHT_REL). */
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
	enum info_form info_form;
	u16 machine;
	u64 shoff;
	unsigned int shnum, shstrndx;
	bool extended;			/* e_shnum is 0: the count is in section 0 */
	struct elf_sec *secs;		/* the section headers, decoded */
	/* SHT_SYMTAB_SHNDX: section, and where its entries are (0: none). */
	unsigned int xndx_idx;
	u64 xndx_off, xndx_n;
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
unsigned int elf_reloc_size(const struct elf_file *ef, u32 sh_type);
u64 elf_info_sym(const struct elf_file *ef, u64 info);
u32 elf_info_type(const struct elf_file *ef, u64 info);
u64 elf_info_with_sym(const struct elf_file *ef, u64 info, u64 sym);
u64 elf_info_make(const struct elf_file *ef, u64 sym, u32 type);
const char *elf_string(const struct elf_file *ef, const struct elf_sec *strtab,
		       u64 off);
int elf_open(struct elf_file *ef, unsigned int type, char *err, size_t errlen);

/* ------------------------------------------------------------------ */
/* Shared by the tool's files                                          */
/* ------------------------------------------------------------------ */

#ifndef R_AARCH64_CALL26
#define R_AARCH64_CALL26	283
#endif
#ifndef R_AARCH64_ABS64
#define R_AARCH64_ABS64		257
#endif
#ifndef R_AARCH64_RELATIVE
#define R_AARCH64_RELATIVE	1027
#endif
#ifndef R_ARM_THM_CALL
#define R_ARM_THM_CALL		10	/* glibc: R_ARM_THM_PC22 */
#endif
#ifndef R_SH_DIR32
#define R_SH_DIR32		1
#endif
#ifndef SHF_GROUP
#define SHF_GROUP		0x200
#endif

#define MAX_ERR			256

/*
 * What a call site looks like on one machine, and how its record is
 * written.  A relocation against one of @callees in a traced section is a
 * call site when its type is one of @call_relocs (any type when
 * @nr_call_relocs is 0); one of @addr_relocs (the routine's address in
 * an operand or a word: a comparison, not a call) is not a site either;
 * another type is an error, or, with @skip_other, quietly not a site.
 * @site_bias turns the offset of the relocated field into the address the
 * record holds: x86's "e8 rel32" has its field one byte into the
 * instruction.
 */
struct arch_desc {
	u16 machine;
	u8 elf_class;		/* ELFCLASS32 or ELFCLASS64 */
	const char *name;
	const char *const *callees;	/* NULL-terminated */
	u32 call_relocs[3];
	u8 nr_call_relocs;
	u32 addr_relocs[3];
	u8 nr_addr_relocs;
	bool skip_other;
	u32 abs_reloc;		/* an absolute address, for records */
	int site_bias;
	bool (*is_call)(const struct elf_file *ef, u64 at);
	/*
	 * MIPS long calls load the routine's address with a HI16/LO16 pair
	 * four bytes apart; only the first instruction is the site.
	 */
	bool pair_second;
	/* ARM: a function symbol's value carries the Thumb bit; never an anchor. */
	bool no_func_anchor;
	/*
	 * x86: the NOP the kernel keeps at an idle site, written over every
	 * recorded call, whose relocation becomes @none_reloc: the kernel
	 * then boots with its sites already idle.
	 */
	const unsigned char *nop;
	u8 nop_len;
	u32 none_reloc;
	/*
	 * arm64 with -fpatchable-function-entry=2: the compiler lists every
	 * function's two entry NOPs in sections of this name.  Each becomes
	 * a site at its second word (the call), and the tool writes
	 * @entry_head over the first (see take_entry() in recordmcount.c).
	 */
	const char *entry_table;
	u32 entry_nop, entry_head;
};

/*
 * One call site: section index and offset of the call instruction, and the
 * weak function holding it (its symbol index; 0 if the function is not weak).
 */
struct site {
	unsigned int sec;
	u64 off;
	u64 weak;	/* a weak function symbol covering it, or 0 */
	bool strong;	/* a function symbol that is not weak covers it */
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
	unsigned char *buf;		/* ef.buf, writable: sites made idle */
	const struct arch_desc *arch;
	bool warn;
	bool lto;			/* --lto: linked by Clang's LTO */
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
	u32 reltype;			/* SHT_REL or SHT_RELA, as the code's */
	unsigned char *dead;		/* per section: renamed to discard it */
	unsigned int ndead;
	char err[MAX_ERR];
};

/*
 * What the tool appends to the input file, growing.  Offsets inside it are
 * relative to @base, the input's size, where the appended bytes start.
 */
struct obuf {
	unsigned char *p;
	size_t base, len, cap;
};

/* The sections this tool adds; their names are new_names[] in -write.c. */
enum new_name {
	NAME_LOC, NAME_LOC_REL, NAME_WEAK, NAME_WEAK_REL, NAME_DEAD, NR_NAMES
};

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

/* One stretch of bytes of an output file. */
struct piece {
	const unsigned char *p;
	size_t len;
};

/* Is [off, off + len) inside a buffer of @size bytes? */
static inline bool in_range(u64 off, u64 len, u64 size)
{
	return off <= size && len <= size - off;
}

__printf(2, 3) int rmc_fail(struct rmc *r, const char *fmt, ...);
const char *rmc_sec_name(struct rmc *r, unsigned int idx);
int build_output(struct rmc *r, struct out *o);
unsigned char *read_file(const char *path, size_t *size, mode_t *mode,
			 char *err, size_t errlen);
int replace_file(const char *path, const struct piece *pc, int n,
		 mode_t mode, char *err, size_t errlen);

/* recordmcount.c: the weak names of a site (emit_weak_pairs()). */
u64 weak_site_sym(const struct rmc *r, size_t k, u64 from);

#endif /* RECORDMCOUNT_H */
