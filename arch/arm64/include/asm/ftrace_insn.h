/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The few A64 instructions the ftrace back end writes and reads: the NOP,
 * BL, and the "mov x9, x30" that precedes a call site.  Pure functions,
 * so that KUnit can check them without touching text.  Also the shape of
 * the trampoline pool, which entry-ftrace.S reserves.
 */
#ifndef _ASM_ARM64_FTRACE_INSN_H
#define _ASM_ARM64_FTRACE_INSN_H

/*
 * The trampoline pool (entry-ftrace.S, ftrace.c): slots of
 * FTRACE_A64_POOL_SLOT bytes, each of which holds one trampoline (both
 * templates are smaller) and never straddles a page.
 */
#define FTRACE_A64_POOL_SLOT	256
#define FTRACE_A64_POOL_SLOTS	32

#ifndef __ASSEMBLY__
#include <linux/errno.h>
#include <linux/sizes.h>
#include <linux/types.h>

extern const u8 ftrace_tramp_pool[], ftrace_tramp_pool_end[];

/* Where a site at @ip that must call @dest branches to (KUnit only). */
unsigned long ftrace_a64_site_branch(unsigned long ip, unsigned long dest);

#define FTRACE_A64_NOP		0xd503201fU	/* HINT #0 */
#define FTRACE_A64_MOV_X9_LR	0xaa1e03e9U	/* ORR x9, xzr, x30 */
#define FTRACE_A64_BTI_C	0xd503245fU	/* HINT #34 */
#define FTRACE_A64_BL		0x94000000U	/* BL, imm26 = 0 */
#define FTRACE_A64_BL_MASK	0xfc000000U

/* A pooled trampoline's veneer (ftrace.c): LDR x16, .+8; BR x16. */
#define FTRACE_A64_LDR_X16_8	0x58000050U
#define FTRACE_A64_BR_X16	0xd61f0200U

/* BRK #imm16, as kprobes and debuggers plant it. */
#define FTRACE_A64_BRK		0xd4200000U
#define FTRACE_A64_BRK_MASK	0xffe0001fU

static inline bool ftrace_a64_is_brk(u32 insn)
{
	return (insn & FTRACE_A64_BRK_MASK) == FTRACE_A64_BRK;
}

/* A BL reaches [pc - 128 MiB, pc + 128 MiB - 4]. */
#define FTRACE_A64_BL_REACH	SZ_128M

/* Can a BL at @pc reach @dest? */
static inline bool ftrace_a64_reaches(unsigned long pc, unsigned long dest)
{
	long off = (long)(dest - pc);

	return off >= -FTRACE_A64_BL_REACH && off < FTRACE_A64_BL_REACH;
}

/**
 * ftrace_a64_bl - encode "bl @dest" placed at @pc
 * @pc: the address of the instruction
 * @dest: where it calls
 * @insn: the encoding, on success
 *
 * Return: 0; -EINVAL if either address is not a multiple of 4; -ERANGE
 * if @dest is out of the branch's reach.
 */
static inline int ftrace_a64_bl(unsigned long pc, unsigned long dest, u32 *insn)
{
	if ((pc | dest) & 3)
		return -EINVAL;
	if (!ftrace_a64_reaches(pc, dest))
		return -ERANGE;
	*insn = FTRACE_A64_BL | (((dest - pc) >> 2) & ~FTRACE_A64_BL_MASK);
	return 0;
}

/**
 * ftrace_a64_bl_dest - decode a BL placed at @pc
 * @pc: the address of the instruction
 * @insn: the instruction
 * @dest: the address it calls, if it is a BL
 *
 * Return: true if @insn is a BL.
 */
static inline bool ftrace_a64_bl_dest(unsigned long pc, u32 insn,
				      unsigned long *dest)
{
	long imm;

	if ((insn & FTRACE_A64_BL_MASK) != FTRACE_A64_BL)
		return false;
	/* Sign-extend the 26-bit word offset. */
	imm = (long)((u64)(insn & ~FTRACE_A64_BL_MASK) << 38) >> 36;
	*dest = pc + imm;
	return true;
}

/**
 * ftrace_a64_via - where a BL at @pc goes to end up at @dest
 * @pc: the address of the BL
 * @dest: the code it must reach
 * @veneer: a veneer (module PLT) that branches to @dest, or 0
 *
 * Return: @dest if a BL reaches it, else @veneer if a BL reaches that,
 * else 0.
 */
static inline unsigned long ftrace_a64_via(unsigned long pc, unsigned long dest,
					   unsigned long veneer)
{
	if (ftrace_a64_reaches(pc, dest))
		return dest;
	if (veneer && ftrace_a64_reaches(pc, veneer))
		return veneer;
	return 0;
}

/**
 * ftrace_a64_site - the instruction of a call site at @pc
 * @pc: the site
 * @dest: what it calls, 0 for the NOP
 * @insn: the encoding, on success
 *
 * Return: as ftrace_a64_bl().
 */
static inline int ftrace_a64_site(unsigned long pc, unsigned long dest, u32 *insn)
{
	if (!dest) {
		*insn = FTRACE_A64_NOP;
		return 0;
	}
	return ftrace_a64_bl(pc, dest, insn);
}

#endif /* __ASSEMBLY__ */
#endif /* _ASM_ARM64_FTRACE_INSN_H */
