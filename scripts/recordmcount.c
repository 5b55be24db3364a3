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
 * Usage: recordmcount [-w] [--lto] OBJECT...
 *        recordmcount [-w] --linked VMLINUX   (after the final link: see
 *        mark_overridden())
 * --lto: the objects are what Clang's LTO linked (vmlinux.o, a module),
 * which may define the profiling routine as well (see mark_callees()).
 *
 * Files: this one finds the sites (and runs the post-link pass);
 * recordmcount-write.c assembles what is appended to an object;
 * recordmcount-elf.c reads ELF through a layout table and reads and
 * replaces files.
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

/* ------------------------------------------------------------------ */
/* Architectures                                                       */
/* ------------------------------------------------------------------ */

/* x86: the byte before the relocated field must be the call opcode 0xe8. */
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

/*
 * The 5-byte NOPs of arch/x86/include/asm/nops.h (BYTES_NOP5): NOPL on
 * x86_64; on 32-bit, where not every CPU has NOPL, a DS-prefixed LEA.
 */
static const unsigned char x86_64_nop5[] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };
static const unsigned char i386_nop5[] = { 0x3e, 0x8d, 0x74, 0x26, 0x00 };

/*
 * The names of the profiling routine.  Compilers call "mcount" or
 * "_mcount" depending on the target's symbol conventions, "__fentry__"
 * with -mfentry, and on ARM EABI "__gnu_mcount_nc".  The test ignores one
 * leading '.', the code-entry name of a function on 64-bit PowerPC ELFv1.
 */
static const char *const plain_callees[] = { "mcount", "__fentry__", NULL };
static const char *const under_callees[] = { "_mcount", "__fentry__", NULL };
static const char *const arm_callees[] = {
	"mcount", "__gnu_mcount_nc", "__fentry__", NULL
};

/*
 * One entry per machine and ELF class.  Where only a machine's call
 * relocations are listed, a relocation of another type against the routine
 * (an address taken, a tail call) is not a site; where none are listed,
 * every relocation against the routine is taken as a site, as upstream 6.1
 * does on those machines.
 */
static const struct arch_desc arches[] = {
	{
		.machine = EM_X86_64, .elf_class = ELFCLASS64, .name = "x86_64",
		.callees = plain_callees,
		.call_relocs = { R_X86_64_PLT32, R_X86_64_PC32 },
		.nr_call_relocs = 2,
		.addr_relocs = { R_X86_64_32S, R_X86_64_32, R_X86_64_64 },
		.nr_addr_relocs = 3,
		.abs_reloc = R_X86_64_64, .site_bias = -1,
		.is_call = x86_is_call,
		.nop = x86_64_nop5, .nop_len = 5, .none_reloc = R_X86_64_NONE,
	},
	{
		.machine = EM_386, .elf_class = ELFCLASS32, .name = "i386",
		.callees = plain_callees,
		.call_relocs = { R_386_PC32, R_386_PLT32 }, .nr_call_relocs = 2,
		.addr_relocs = { R_386_32 }, .nr_addr_relocs = 1,
		.abs_reloc = R_386_32, .site_bias = -1,
		.is_call = x86_is_call,
		.nop = i386_nop5, .nop_len = 5, .none_reloc = R_386_NONE,
	},
	{
		.machine = EM_AARCH64, .elf_class = ELFCLASS64, .name = "arm64",
		.callees = under_callees,
		.call_relocs = { R_AARCH64_CALL26 }, .nr_call_relocs = 1,
		.abs_reloc = R_AARCH64_ABS64,
		.is_call = arm64_is_call,
		/* NOP, and "mov x9, x30" (ORR x9, xzr, x30). */
		.entry_table = "__patchable_function_entries",
		.entry_nop = 0xd503201f, .entry_head = 0xaa1e03e9,
	},
	{
		/* BL in ARM state (CALL, or PC24 from old tools), BL in Thumb. */
		.machine = EM_ARM, .elf_class = ELFCLASS32, .name = "arm",
		.callees = arm_callees,
		.call_relocs = { R_ARM_CALL, R_ARM_PC24, R_ARM_THM_CALL },
		.nr_call_relocs = 3, .skip_other = true,
		.abs_reloc = R_ARM_ABS32, .no_func_anchor = true,
	},
	{
		.machine = EM_MIPS, .elf_class = ELFCLASS32, .name = "mips",
		.callees = under_callees, .abs_reloc = R_MIPS_32,
		.pair_second = true,
	},
	{
		.machine = EM_MIPS, .elf_class = ELFCLASS64, .name = "mips64",
		.callees = under_callees, .abs_reloc = R_MIPS_64,
		.pair_second = true,
	},
	{
		.machine = EM_PPC, .elf_class = ELFCLASS32, .name = "powerpc",
		.callees = under_callees, .abs_reloc = R_PPC_ADDR32,
	},
	{
		.machine = EM_PPC64, .elf_class = ELFCLASS64, .name = "powerpc64",
		.callees = under_callees, .abs_reloc = R_PPC64_ADDR64,
	},
	{
		/*
		 * The record is 14 bytes before the call's field, the start of
		 * the "stg; larl; brasl" sequence of older compilers.  6.1's
		 * s390 build lets the compiler record its own sites instead.
		 */
		.machine = EM_S390, .elf_class = ELFCLASS64, .name = "s390x",
		.callees = under_callees, .abs_reloc = R_390_64,
		.site_bias = -14,
	},
	{
		/* The site is the literal-pool word holding mcount's address. */
		.machine = EM_SH, .elf_class = ELFCLASS32, .name = "sh",
		.callees = plain_callees, .abs_reloc = R_SH_DIR32,
	},
	{
		.machine = EM_SPARCV9, .elf_class = ELFCLASS64, .name = "sparc64",
		.callees = under_callees, .abs_reloc = R_SPARC_64,
	},
	{
		.machine = EM_IA_64, .elf_class = ELFCLASS64, .name = "ia64",
		.callees = under_callees, .abs_reloc = R_IA64_IMM64,
	},
};

static const struct arch_desc *find_arch(u16 machine, unsigned int elf_class)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(arches); i++)
		if (arches[i].machine == machine &&
		    arches[i].elf_class == elf_class)
			return &arches[i];
	return NULL;
}

/*
 * Is @name a section whose functions ftrace may trace?  The kernel's text,
 * its function sections and the named text sections that hold ordinary
 * kernel functions.  Sections outside this list (.exit.text, .meminit.text,
 * .head.text, ...) may be discarded or placed oddly by an architecture's
 * linker script, so their sites are not recorded, as in upstream 6.1.
 */
static bool traced_section(const char *name)
{
	static const char *const named[] = {
		".init.text", ".ref.text", ".sched.text", ".spinlock.text",
		".irqentry.text", ".softirqentry.text", ".kprobes.text",
		".cpuidle.text",
	};
	size_t i;

	if (!strncmp(name, ".text", 5))
		return true;
	for (i = 0; i < ARRAY_SIZE(named); i++)
		if (!strcmp(name, named[i]))
			return true;
	return false;
}

/* ------------------------------------------------------------------ */
/* The object being processed                                          */
/* ------------------------------------------------------------------ */

/**
 * rmc_fail() - note why processing failed
 * @r: the object being processed
 * @fmt: printf format of a one-line reason, without the file name
 *
 * Return: -1, so that callers can write "return rmc_fail(r, ...);".
 */
int rmc_fail(struct rmc *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->err, sizeof(r->err), fmt, ap);
	va_end(ap);
	return -1;
}

/**
 * rmc_sec_name() - the name of section @idx, for messages
 * @r: the object being processed
 * @idx: section index
 *
 * Return: the name, or "?" if it is not a valid string.
 */
const char *rmc_sec_name(struct rmc *r, unsigned int idx)
{
	struct elf_sec s;
	const char *n;

	elf_section(&r->ef, idx, &s);
	n = elf_string(&r->ef, &r->shstrtab, s.name);
	return n ? n : "?";
}

static bool entry_table(struct rmc *r, unsigned int idx);

/*
 * Is the object recorded already?  It is when it carries __mcount_loc,
 * unless it also has an entry table the tool has not consumed (a consumed
 * one is renamed).  That happens when objects are linked before the tool
 * runs, as with LTO, and one of them brought records of its own (assembly
 * that writes __mcount_loc itself): the entry tables' sites then go into
 * a second __mcount_loc, which the linker merges with the first.
 */
static bool already_recorded(struct rmc *r)
{
	bool loc = false, table = false;
	struct elf_sec s;
	unsigned int i;

	for (i = 1; i < r->ef.shnum; i++) {
		elf_section(&r->ef, i, &s);
		if (!strcmp(rmc_sec_name(r, i), "__mcount_loc"))
			loc = true;
		else if (s.size && entry_table(r, i))
			table = true;
	}
	return loc && !table;
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
			return rmc_fail(r, "more than one symbol table");
		r->symtab_idx = i;
		r->symtab = s;
	}
	if (!r->symtab_idx)
		return rmc_fail(r, "no symbol table");
	s = r->symtab;
	if (s.entsize != l->sym_size || s.size % l->sym_size)
		return rmc_fail(r, "symbol table has entries of %llu bytes",
			    (unsigned long long)s.entsize);
	r->nsyms = s.size / l->sym_size;
	r->first_global = s.info;
	if (r->ef.xndx_idx &&
	    r->ef.secs[r->ef.xndx_idx].link != r->symtab_idx)
		return rmc_fail(r, "SHT_SYMTAB_SHNDX belongs to no symbol table");
	if (r->nsyms == 0 || r->first_global > r->nsyms)
		return rmc_fail(r, "symbol table is empty or its local count is wrong");
	if (s.link == 0 || s.link >= r->ef.shnum)
		return rmc_fail(r, "symbol table has no string table");
	elf_section(&r->ef, s.link, &r->strtab);
	if (r->strtab.type != SHT_STRTAB)
		return rmc_fail(r, "symbol string table is not SHT_STRTAB");
	r->syms = malloc(r->nsyms * sizeof(*r->syms));
	if (!r->syms)
		return rmc_fail(r, "out of memory");
	for (k = 0; k < r->nsyms; k++)
		elf_symbol(&r->ef, &r->symtab, k, &r->syms[k]);
	return 0;
}

/*
 * Mark the symbols that name this machine's profiling routine.  In an
 * object as compiled the routine is undefined.  An object that Clang's
 * LTO has linked (--lto: vmlinux.o) may hold the routine's own code as
 * well (x86_64's ftrace_64.S is machine code beside the bitcode), so
 * there a global definition of __fentry__ counts too, on machines whose
 * call instruction the tool checks at each reference (is_call); such a
 * reference must also be a call's own operand (take_reloc()).
 */
enum { CALLEE_UNDEFINED = 1, CALLEE_DEFINED = 2 };

static int mark_callees(struct rmc *r)
{
	const char *const *c;
	struct elf_sym sym;
	const char *name;
	u64 i;

	r->is_callee = calloc(r->nsyms, 1);
	if (!r->is_callee)
		return rmc_fail(r, "out of memory");
	for (i = 1; i < r->nsyms; i++) {
		sym = r->syms[i];
		if (!sym.name)
			continue;
		if (sym.shndx != SHN_UNDEF &&
		    (!r->lto || !r->arch->is_call || sym.bind == STB_LOCAL ||
		     sym.shndx >= r->ef.shnum))
			continue;
		name = elf_string(&r->ef, &r->strtab, sym.name);
		if (!name)
			return rmc_fail(r, "symbol %llu has a name outside the string table",
				    (unsigned long long)i);
		if (sym.shndx != SHN_UNDEF) {
			if (!strcmp(name, "__fentry__"))
				r->is_callee[i] = CALLEE_DEFINED;
			continue;
		}
		name += name[0] == '.';
		for (c = r->arch->callees; *c; c++)
			if (!strcmp(name, *c))
				r->is_callee[i] = CALLEE_UNDEFINED;
	}
	return 0;
}

static int add_site(struct rmc *r, unsigned int sec, u64 off)
{
	if (r->nsites == r->sites_cap) {
		size_t cap = r->sites_cap ? 2 * r->sites_cap : 64;
		struct site *n = realloc(r->sites, cap * sizeof(*n));

		if (!n)
			return rmc_fail(r, "out of memory");
		r->sites = n;
		r->sites_cap = cap;
	}
	r->sites[r->nsites].sec = sec;
	r->sites[r->nsites].off = off;
	r->sites[r->nsites].weak = 0;
	r->sites[r->nsites].strong = false;
	r->nsites++;
	return 0;
}

/* Is @type one of the arch's call relocations (or any type, if none listed)? */
static bool call_reloc(const struct arch_desc *a, u32 type)
{
	unsigned int i;

	for (i = 0; i < a->nr_call_relocs; i++)
		if (a->call_relocs[i] == type)
			return true;
	return !a->nr_call_relocs;
}

/* Is @type one of the arch's relocations of an address (never a call)? */
static bool addr_reloc(const struct arch_desc *a, u32 type)
{
	unsigned int i;

	for (i = 0; i < a->nr_addr_relocs; i++)
		if (a->addr_relocs[i] == type)
			return true;
	return false;
}

/* Tell, with -w, why a reference to the routine is not recorded. */
static void not_recorded(struct rmc *r, unsigned int tsec, u64 off,
			 const char *why)
{
	if (r->warn)
		fprintf(stderr, "recordmcount: %s: %s+0x%llx: %s, not recorded\n",
			r->ef.path, rmc_sec_name(r, tsec),
			(unsigned long long)off, why);
}

/*
 * Where the arch has one, write the idle NOP over the call at @at (its
 * section @text, site offset @site) and make the call's relocation, at
 * @entry in the file, one that changes nothing.  Only the copy in memory
 * changes: a failure later leaves the file as it was.
 */
static int make_idle(struct rmc *r, unsigned int tsec,
		     const struct elf_sec *text, u64 site, u64 entry)
{
	const struct arch_desc *a = r->arch;
	const struct elf_field f = r->ef.lay->r_info;
	u64 info;

	if (!a->nop)
		return 0;
	if (!in_range(site, a->nop_len, text->size))
		return rmc_fail(r, "the call at %s+0x%llx runs past its section",
			    rmc_sec_name(r, tsec), (unsigned long long)site);
	memcpy(r->buf + text->offset + site, a->nop, a->nop_len);
	info = elf_get(&r->ef, entry, f);
	info = elf_info_make(&r->ef, elf_info_sym(&r->ef, info), a->none_reloc);
	elf_put(&r->ef, r->buf + entry + f.off, f.width, info);
	return 0;
}

/*
 * Check one relocation against the profiling routine and record its site.
 * @defined: the routine is the linked object's own (mark_callees()), where
 * only a call's 32-bit operand (addend -4, the end of the instruction)
 * counts: its code is beside the calls, and the byte before a reference
 * alone is weak evidence of a call.
 */
static int take_reloc(struct rmc *r, unsigned int tsec,
		      const struct elf_sec *text, const struct elf_rela *rel,
		      u64 entry, bool defined)
{
	const struct arch_desc *a = r->arch;
	u64 at;

	/* A site recorded before, made idle (an LTO link's native part). */
	if (a->nop && rel->type == a->none_reloc)
		return 0;
	if (!call_reloc(a, rel->type)) {
		if (addr_reloc(a, rel->type)) {
			/* 6.12's callthunks.c compares an address with it. */
			not_recorded(r, tsec, rel->offset, "its address, not a call");
			return 0;
		}
		if (!a->skip_other)
			return rmc_fail(r,
					"unsupported relocation type %u at the call in %s+0x%llx",
					rel->type, rmc_sec_name(r, tsec),
					(unsigned long long)rel->offset);
		not_recorded(r, tsec, rel->offset, "not a call relocation");
		return 0;
	}
	if (!in_range(rel->offset, 4, text->size))
		return rmc_fail(r, "relocation at %s+0x%llx lies outside its section",
			    rmc_sec_name(r, tsec), (unsigned long long)rel->offset);
	at = text->offset + rel->offset;
	if (a->is_call && ((s64)rel->offset + a->site_bias < 0 ||
			   !a->is_call(&r->ef, at))) {
		/* A reference that is not a call (a jump, an address load). */
		not_recorded(r, tsec, rel->offset, "not a call");
		return 0;
	}
	if (defined && (r->reltype != SHT_RELA || rel->addend != -4)) {
		not_recorded(r, tsec, rel->offset, "not a call's operand");
		return 0;
	}
	return add_site(r, tsec, rel->offset + a->site_bias) ?:
	       make_idle(r, tsec, text, rel->offset + a->site_bias, entry);
}

/*
 * Collect the call sites of the executable section that @rsec relocates.
 * Sites in sections ftrace does not trace are not recorded.
 */
static int scan_relocs(struct rmc *r, unsigned int ridx,
		       const struct elf_sec *rsec)
{
	unsigned int size = elf_reloc_size(&r->ef, rsec->type);
	u64 i, n, prev = 0;
	bool have_prev = false;
	struct elf_sec text;
	struct elf_rela rel;

	if (rsec->info == 0 || rsec->info >= r->ef.shnum)
		return rmc_fail(r, "relocation section %u applies to no section", ridx);
	elf_section(&r->ef, rsec->info, &text);
	if (!(text.flags & SHF_EXECINSTR) || text.type != SHT_PROGBITS)
		return 0;
	if (rsec->link != r->symtab_idx)
		return rmc_fail(r, "relocation section %s uses another symbol table",
			    rmc_sec_name(r, ridx));
	if (rsec->entsize != size || rsec->size % size)
		return rmc_fail(r, "relocation section %s has entries of %llu bytes",
			    rmc_sec_name(r, ridx),
			    (unsigned long long)rsec->entsize);
	n = rsec->size / size;
	for (i = 0; i < n; i++) {
		/* Most relocations are not calls of the routine: look at r_info first. */
		u64 info = elf_get(&r->ef, rsec->offset + i * size, r->ef.lay->r_info);
		u64 sym = elf_info_sym(&r->ef, info);

		if (sym >= r->nsyms)
			return rmc_fail(r, "relocation %llu of %s: symbol %llu beyond the table",
				    (unsigned long long)i, rmc_sec_name(r, ridx),
				    (unsigned long long)sym);
		if (!r->is_callee[sym])
			continue;
		if (!traced_section(rmc_sec_name(r, rsec->info))) {
			not_recorded(r, rsec->info, 0, "section not traced");
			return 0;
		}
		if (r->reltype && r->reltype != rsec->type)
			return rmc_fail(r, "code relocations are both SHT_REL and SHT_RELA");
		r->reltype = rsec->type;
		elf_relocation(&r->ef, rsec, i, &rel);
		if (r->arch->pair_second && have_prev && rel.offset == prev + 4) {
			prev = rel.offset;
			continue;
		}
		prev = rel.offset;
		have_prev = true;
		if (take_reloc(r, rsec->info, &text, &rel,
			       rsec->offset + i * size,
			       r->is_callee[sym] == CALLEE_DEFINED))
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

static void sort_sites(struct rmc *r);

/* Find every call site, sorted by section and offset, duplicates dropped. */
static int find_sites(struct rmc *r)
{
	struct elf_sec s;
	unsigned int i;

	for (i = 1; i < r->ef.shnum; i++) {
		elf_section(&r->ef, i, &s);
		if ((s.type == SHT_REL || s.type == SHT_RELA) &&
		    scan_relocs(r, i, &s))
			return -1;
	}
	sort_sites(r);
	return 0;
}

/* Sort the sites by section and offset, and drop duplicates. */
static void sort_sites(struct rmc *r)
{
	size_t k, n = 0;

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
}

/*
 * Take one entry of a patchable-function-entry table: @rel points at the
 * first of a function's two entry NOPs.  The site is the second word,
 * where ftrace writes its call.  The first word becomes the arch's
 * entry_head (arm64: "mov x9, x30", which keeps the caller's return
 * address from the call), written here once so that the kernel boots
 * with every site idle and never writes that word.  Both words must
 * still be the compiler's NOPs.
 */
/*
 * An instruction word of the entry: A64 instructions are little-endian
 * whatever the data byte order (aarch64_be included).
 */
static u32 entry_word(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (u32)p[3] << 24;
}

static void entry_word_put(unsigned char *p, u32 w)
{
	p[0] = w;
	p[1] = w >> 8;
	p[2] = w >> 16;
	p[3] = w >> 24;
}

static int take_entry(struct rmc *r, const struct elf_rela *rel)
{
	const struct arch_desc *a = r->arch;
	struct elf_sec text;
	struct elf_sym sym;
	u64 off;

	if (rel->type != a->abs_reloc)
		return rmc_fail(r, "entry table: unsupported relocation type %u",
			    rel->type);
	if (rel->sym == 0 || rel->sym >= r->nsyms)
		return rmc_fail(r, "entry table: symbol %u beyond the table", rel->sym);
	sym = r->syms[rel->sym];
	if (sym.shndx == SHN_UNDEF || sym.shndx >= r->ef.shnum)
		return rmc_fail(r, "entry table: symbol %u is not defined here", rel->sym);
	elf_section(&r->ef, sym.shndx, &text);
	if (!(text.flags & SHF_EXECINSTR) || text.type != SHT_PROGBITS)
		return rmc_fail(r, "entry table: %s is not code",
			    rmc_sec_name(r, sym.shndx));
	off = sym.value + rel->addend;
	if (off % 4 || !in_range(off, 8, text.size))
		return rmc_fail(r, "entry table: %s+0x%llx is not an entry in its section",
			    rmc_sec_name(r, sym.shndx), (unsigned long long)off);
	if (!traced_section(rmc_sec_name(r, sym.shndx))) {
		not_recorded(r, sym.shndx, off, "section not traced");
		return 0;
	}
	if (entry_word(r->buf + text.offset + off) != a->entry_nop ||
	    entry_word(r->buf + text.offset + off + 4) != a->entry_nop)
		return rmc_fail(r, "%s+0x%llx: the function entry does not hold two NOPs",
			    rmc_sec_name(r, sym.shndx), (unsigned long long)off);
	entry_word_put(r->buf + text.offset + off, a->entry_head);
	return add_site(r, sym.shndx, off + 4);
}

/* Is section @idx one of the compiler's entry tables? */
static bool entry_table(struct rmc *r, unsigned int idx)
{
	return r->arch->entry_table &&
	       !strcmp(rmc_sec_name(r, idx), r->arch->entry_table);
}

/* Take every entry the relocation section @rsec (of a table) holds. */
static int take_entries(struct rmc *r, unsigned int ridx,
			const struct elf_sec *rsec)
{
	unsigned int size = elf_reloc_size(&r->ef, rsec->type);
	struct elf_sec table;
	struct elf_rela rel;
	u64 i, n;

	elf_section(&r->ef, rsec->info, &table);
	if (rsec->type != SHT_RELA || rsec->link != r->symtab_idx ||
	    rsec->entsize != size || rsec->size % size)
		return rmc_fail(r, "entry table relocations %s are malformed",
			    rmc_sec_name(r, ridx));
	n = rsec->size / size;
	if (table.size != n * r->ef.lay->addr_size)
		return rmc_fail(r, "entry table %u has %llu bytes for %llu relocations",
			    rsec->info, (unsigned long long)table.size,
			    (unsigned long long)n);
	r->reltype = SHT_RELA;
	r->dead[rsec->info] = 1;
	for (i = 0; i < n; i++) {
		elf_relocation(&r->ef, rsec, i, &rel);
		if (rel.offset != i * r->ef.lay->addr_size)
			return rmc_fail(r, "entry table %u: relocation %llu is not at entry %llu",
				    rsec->info, (unsigned long long)i,
				    (unsigned long long)i);
		if (take_entry(r, &rel))
			return -1;
	}
	return 0;
}

/*
 * Find the sites of an object compiled with patchable function entries.
 * Return 1 if it has no entry table (the caller then looks for calls of
 * the profiling routine), 0 once the sites are found, -1 on error.
 */
static int find_entries(struct rmc *r)
{
	unsigned int i, tables = 0;
	struct elf_sec s;

	if (!r->arch->entry_table)
		return 1;
	for (i = 1; i < r->ef.shnum; i++)
		tables += entry_table(r, i);
	if (!tables)
		return 1;
	r->dead = calloc(r->ef.shnum, 1);
	if (!r->dead)
		return rmc_fail(r, "out of memory");
	for (i = 1; i < r->ef.shnum; i++) {
		elf_section(&r->ef, i, &s);
		if ((s.type != SHT_REL && s.type != SHT_RELA) ||
		    s.info == 0 || s.info >= r->ef.shnum || !entry_table(r, s.info))
			continue;
		if (take_entries(r, i, &s))
			return -1;
		r->ndead++;
	}
	for (i = 1; i < r->ef.shnum; i++) {
		elf_section(&r->ef, i, &s);
		if (entry_table(r, i) && s.size && !r->dead[i])
			return rmc_fail(r, "entry table %u has no relocations", i);
	}
	sort_sites(r);
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
 * the kernel (see mark_overridden()).  A site that a function symbol of
 * another binding also covers (a strong alias) is live whatever happens to
 * the weak names; one that several weak names cover (6.12's
 * cpu_show_not_affected() and its aliases) gets a pair for each, and is
 * dead only if all of them were overridden.
 */
static void mark_weak_sites(struct rmc *r)
{
	struct elf_sym sym;
	int pass;
	u64 i;
	size_t k;

	for (pass = 0; pass < 2; pass++) {
		for (i = 1; i < r->nsyms; i++) {
			sym = r->syms[i];
			if (sym.type != STT_FUNC || sym.shndx == SHN_UNDEF ||
			    sym.shndx >= r->ef.shnum ||
			    (pass ? sym.bind != STB_WEAK : sym.bind == STB_WEAK))
				continue;
			k = first_site(r, sym.shndx, sym.value);
			for (; k < r->nsites && r->sites[k].sec == sym.shndx &&
			     r->sites[k].off - sym.value < sym.size; k++) {
				if (!pass)
					r->sites[k].strong = true;
				else if (!r->sites[k].strong && !r->sites[k].weak)
					r->sites[k].weak = i;
			}
		}
	}
}

/**
 * weak_site_sym() - the next weak function symbol covering a weak site
 * @r: the analysed object
 * @k: the site, one with a weak name (sites[k].weak)
 * @from: the symbol to start at: sites[k].weak first, then one more than
 *	the last one returned
 *
 * Return: the symbol's index, or 0 when there is none left.
 */
u64 weak_site_sym(const struct rmc *r, size_t k, u64 from)
{
	const struct site *st = &r->sites[k];
	struct elf_sym sym;
	u64 i;

	for (i = from; i < r->nsyms; i++) {
		sym = r->syms[i];
		if (sym.bind == STB_WEAK && sym.type == STT_FUNC &&
		    sym.shndx == st->sec && st->off - sym.value < sym.size)
			return i;
	}
	return 0;
}

/* Note which SHT_GROUP section, if any, each section belongs to. */
static int map_groups(struct rmc *r)
{
	struct elf_sec g;
	unsigned int i, m;
	u64 w;

	r->group_of = calloc(r->ef.shnum, sizeof(*r->group_of));
	if (!r->group_of)
		return rmc_fail(r, "out of memory");
	for (i = 1; i < r->ef.shnum; i++) {
		elf_section(&r->ef, i, &g);
		if (g.type != SHT_GROUP)
			continue;
		if (g.size < 4 || g.size % 4 || g.link != r->symtab_idx)
			return rmc_fail(r, "malformed section group %u", i);
		for (w = 4; w < g.size; w += 4) {
			m = elf_get(&r->ef, g.offset + w, (struct elf_field){ 0, 4 });
			if (m == 0 || m >= r->ef.shnum)
				return rmc_fail(r, "section group %u names section %u", i, m);
			r->group_of[m] = i;
		}
	}
	return 0;
}

/* Is @sym a usable anchor for its section (see struct anchor)? */
static int anchor_rank(const struct rmc *r, const struct elf_sym *sym)
{
	if (sym->type == STT_SECTION)
		return 2;
	if (sym->bind == STB_WEAK || sym->type == STT_TLS ||
	    sym->type == STT_FILE || sym->type == STT_GNU_IFUNC)
		return 0;
	if (sym->type == STT_FUNC && r->arch->no_func_anchor)
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
		return rmc_fail(r, "out of memory");
	}
	for (i = 1; i < r->nsyms; i++) {
		int k2;

		sym = r->syms[i];
		if (sym.shndx == SHN_UNDEF || sym.shndx >= r->ef.shnum)
			continue;
		k2 = anchor_rank(r, &sym);
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

/* Analyse the object in r->ef; fill in the sites and their anchors. */
static int analyse(struct rmc *r)
{
	int ret;

	elf_section(&r->ef, r->ef.shstrndx, &r->shstrtab);
	r->arch = find_arch(r->ef.machine, r->ef.lay->addr_size == 8 ?
			    ELFCLASS64 : ELFCLASS32);
	if (!r->arch)
		return rmc_fail(r, "unsupported machine %u (%u-bit)", r->ef.machine,
			    8 * r->ef.lay->addr_size);
	/*
	 * An LTO link's output may hold an object recorded already beside
	 * the bitcode's calls: those sites are NOPs by now, so the rest are
	 * recorded and a second run still finds nothing to do.
	 */
	if (!r->lto && already_recorded(r))
		return 0;
	if (find_symtab(r))
		return -1;
	ret = find_entries(r);
	if (ret > 0)
		ret = mark_callees(r) ?: find_sites(r);
	if (ret)
		return -1;
	if (!r->nsites)
		return 0;
	mark_weak_sites(r);
	return map_groups(r) ?: choose_anchors(r);
}

/* Read @path into r->ef (the bytes go to *@buf) and check its ELF type. */
static int load_file(struct rmc *r, const char *path, unsigned int type,
		     unsigned char **buf, mode_t *mode)
{
	r->ef.path = path;
	*buf = read_file(path, &r->ef.size, mode, r->err, sizeof(r->err));
	if (!*buf)
		return -1;
	r->ef.buf = *buf;
	r->buf = *buf;
	return elf_open(&r->ef, type, r->err, sizeof(r->err));
}

/* Free what processing one file allocated in @r. */
static void release(struct rmc *r)
{
	free(r->ef.secs);
	free(r->syms);
	free(r->is_callee);
	free(r->group_of);
	free(r->sites);
	free(r->anchors);
	free(r->dead);
}

/* Process one object; return 0 on success (including nothing to do). */
static int process(const char *path, bool warn, bool lto)
{
	struct rmc r = { .warn = warn, .lto = lto };
	struct out o = { 0 };
	unsigned char *buf = NULL;
	mode_t mode = 0644;
	int ret = -1;

	if (load_file(&r, path, ET_REL, &buf, &mode) || analyse(&r))
		goto report;
	ret = 0;
	if (!r.nsites && !r.ndead)
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
	release(&r);
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
 * The relocation a position-independent link leaves for the boot to add
 * the load offset to an address, on the machines whose vmlinux is one
 * (arm64 with RELOCATABLE is linked -shared); 0 elsewhere.
 */
static u32 relative_reloc(u16 machine)
{
	return machine == EM_AARCH64 ? R_AARCH64_RELATIVE : 0;
}

/*
 * Zero, in the linked table, the record of every site whose pairs in
 * .mcount_weak all have two different addresses: that weak copy was
 * overridden under each of its names.  A site with one pair of equal
 * addresses is live (one of its weak names kept this copy).  ftrace skips
 * zero entries.  In a position-independent file (@dyn) the boot fills a
 * record from its relocation's addend, or adds its offset to the word
 * (RELR): a dead record's addend and word become zero, so that the boot
 * makes the record the load offset, outside the kernel's text, or 0, both
 * of which ftrace ignores.  The relocation stays, of the same
 * type: sorttable, which sorts the table by its addends next, expects
 * one for every record.  Return the number of records zeroed, or -1.
 */
static long mark_overridden(struct rmc *r, unsigned char *out,
			    const struct elf_sec *weak, bool dyn)
{
	const struct elf_layout *l = r->ef.lay;
	struct elf_field f = { 0, l->addr_size };
	u64 start, stop, off, n, i, j, *dead, *live, ndead = 0, nlive = 0;
	u64 npairs = weak->size / (2 * l->addr_size);
	long zeroed = 0;

	start = linked_symbol(r, "__start_mcount_loc");
	stop = linked_symbol(r, "__stop_mcount_loc");
	if (!start || stop < start || (stop - start) % l->addr_size)
		return rmc_fail(r, "no __start_mcount_loc/__stop_mcount_loc table");
	n = (stop - start) / l->addr_size;
	off = linked_offset(r, start, stop - start);
	if (!off)
		return rmc_fail(r, "the record table is not in the file");
	/* Nothing to go by where the tool knows no boot relocation. */
	if (dyn && !relative_reloc(r->ef.machine))
		return 0;
	/* The sites of the overridden copies, sorted for lookup. */
	dead = malloc((npairs + 1) * sizeof(*dead));
	live = malloc((npairs + 1) * sizeof(*live));
	if (!dead || !live) {
		free(dead);
		free(live);
		return rmc_fail(r, "out of memory");
	}
	for (i = 0; i < npairs; i++) {
		u64 site = elf_get(&r->ef, weak->offset + 2 * i * l->addr_size, f);
		u64 named = elf_get(&r->ef, weak->offset + (2 * i + 1) * l->addr_size, f);

		if (site && site != named)
			dead[ndead++] = site;
		else if (site)
			live[nlive++] = site;
	}
	/* A site one of whose names kept it is not dead. */
	qsort(live, nlive, sizeof(*live), u64_cmp);
	for (i = 0, j = 0; i < ndead; i++)
		if (!bsearch(&dead[i], live, nlive, sizeof(*live), u64_cmp))
			dead[j++] = dead[i];
	ndead = j;
	free(live);
	qsort(dead, ndead, sizeof(*dead), u64_cmp);
	/*
	 * One pass over the table; in a position-independent file (words
	 * zero where the boot fills them from RELA addends, link-time
	 * addresses where it adds its offset in place, RELR) then one over
	 * the boot's RELA relocations of it.
	 */
	for (i = 0; i < n && ndead; i++) {
		u64 rec = elf_get(&r->ef, off + i * l->addr_size, f);

		if (!bsearch(&rec, dead, ndead, sizeof(*dead), u64_cmp))
			continue;
		elf_put(&r->ef, out + off + i * l->addr_size, l->addr_size, 0);
		zeroed++;
	}
	for (i = 1; dyn && i < r->ef.shnum && ndead; i++) {
		struct elf_sec s;
		struct elf_rela rel;
		u64 k, at, rec;

		elf_section(&r->ef, i, &s);
		if (s.type != SHT_RELA || !(s.flags & SHF_ALLOC))
			continue;
		for (k = 0; k < s.size / l->rela_size; k++) {
			elf_relocation(&r->ef, &s, k, &rel);
			if (rel.type != relative_reloc(r->ef.machine) ||
			    rel.offset < start || rel.offset >= stop)
				continue;
			if ((rel.offset - start) % l->addr_size) {
				free(dead);
				return rmc_fail(r, "a table relocation between two records");
			}
			rec = (u64)rel.addend;
			if (!bsearch(&rec, dead, ndead, sizeof(*dead), u64_cmp))
				continue;
			at = s.offset + k * l->rela_size;
			elf_put(&r->ef, out + at + l->r_addend.off, l->r_addend.width, 0);
			/* Counted once, where the word pass did not see it. */
			if (elf_get(&r->ef, off + (rel.offset - start), f) != rec)
				zeroed++;
		}
	}
	free(dead);
	return zeroed;
}

/* recordmcount --linked FILE: the post-link pass over vmlinux. */
static int process_linked(const char *path, bool warn)
{
	struct rmc r = { .warn = warn };
	unsigned char *buf = NULL, *out = NULL;
	struct elf_sec weak = { 0 };
	mode_t mode = 0755;
	unsigned int i;
	long zeroed = 0;
	bool dyn = false;
	int ret = -1;

	if (load_file(&r, path, ET_EXEC, &buf, &mode)) {
		/*
		 * A position-independent vmlinux (arm64 with RELOCATABLE,
		 * linked -shared): the boot relocation fills the table from
		 * the relocations' addends (mark_overridden()).
		 */
		release(&r);
		free(buf);
		buf = NULL;
		r = (struct rmc){ .warn = warn };
		if (load_file(&r, path, ET_DYN, &buf, &mode))
			goto report;
		dyn = true;
	}
	elf_section(&r.ef, r.ef.shstrndx, &r.shstrtab);
	for (i = 1; i < r.ef.shnum; i++)
		if (!strcmp(rmc_sec_name(&r, i), ".mcount_weak"))
			elf_section(&r.ef, i, &weak);
	ret = 0;
	if (!weak.size)
		goto done;
	ret = -1;
	if (find_symtab(&r))
		goto report;
	out = malloc(r.ef.size);
	if (!out) {
		rmc_fail(&r, "out of memory");
		goto report;
	}
	memcpy(out, buf, r.ef.size);
	zeroed = mark_overridden(&r, out, &weak, dyn);
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
	release(&r);
	free(out);
	free(buf);
	return ret;
}

int main(int argc, char **argv)
{
	bool warn = false, linked = false, lto = false;
	int i, ret = 0;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-w")) {
			warn = true;
		} else if (!strcmp(argv[i], "--linked")) {
			linked = true;
		} else if (!strcmp(argv[i], "--lto")) {
			lto = true;
		} else {
			i = argc;
			break;
		}
	}
	if (i >= argc) {
		fprintf(stderr, "usage: recordmcount [-w] [--lto] OBJECT...\n"
			"       recordmcount [-w] --linked VMLINUX\n");
		return 2;
	}
	for (; i < argc; i++)
		if (linked ? process_linked(argv[i], warn) :
			     process(argv[i], warn, lto))
			ret = 1;
	return ret;
}
