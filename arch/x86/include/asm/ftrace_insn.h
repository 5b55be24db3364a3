/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The instructions the x86 ftrace back end writes at a call site, and the
 * int3 hook that covers sites while they change.
 *
 * A site is five bytes: a NOP, a rel32 CALL (to the shared caller, an ops'
 * trampoline or a direct-call target) or, for the 32-bit graph hook only,
 * a rel32 JMP.  The encoders are pure functions of their arguments, so
 * KUnit checks them without touching text.
 */
#ifndef _ASM_X86_FTRACE_INSN_H
#define _ASM_X86_FTRACE_INSN_H

#include <linux/errno.h>
#include <linux/string.h>
#include <linux/types.h>
#include <asm/nops.h>
#include <asm/text-patching.h>
#include <asm/unaligned.h>

#define FTRACE_X86_SITE_SIZE	5
#define FTRACE_X86_CALL		0xe8
#define FTRACE_X86_JMP		0xe9
#define FTRACE_X86_INT3		0xcc

/*
 * The 5-byte NOP the kernel uses everywhere: nopl 0x0(%rax,%rax,1) on
 * x86_64; on 32-bit, where not every CPU has NOPL, a DS-prefixed
 * leal 0x0(%esi,%eiz,1), %esi.
 */
#define FTRACE_X86_NOP5		{ BYTES_NOP5 }

/**
 * ftrace_x86_encode_rel - encode a rel32 CALL or JMP
 * @insn: five bytes to fill in
 * @opcode: FTRACE_X86_CALL or FTRACE_X86_JMP
 * @ip: where the instruction will be
 * @target: where it must go; not 0
 *
 * Return: 0; -EINVAL for another opcode or a zero target; -ERANGE if
 * @target is more than 2 GiB away from the end of the instruction.
 */
static inline int ftrace_x86_encode_rel(u8 *insn, u8 opcode, unsigned long ip,
					unsigned long target)
{
	long disp = (long)(target - (ip + FTRACE_X86_SITE_SIZE));

	if ((opcode != FTRACE_X86_CALL && opcode != FTRACE_X86_JMP) || !target)
		return -EINVAL;
	if (disp != (long)(s32)disp)
		return -ERANGE;
	insn[0] = opcode;
	put_unaligned_le32((u32)disp, insn + 1);
	return 0;
}

/**
 * ftrace_x86_encode_site - encode what a call site must hold
 * @insn: five bytes to fill in
 * @ip: the site
 * @target: what it must call, or 0 for the NOP
 *
 * Return: as ftrace_x86_encode_rel().
 */
static inline int ftrace_x86_encode_site(u8 *insn, unsigned long ip,
					 unsigned long target)
{
	static const u8 nop[FTRACE_X86_SITE_SIZE] = FTRACE_X86_NOP5;

	if (!target) {
		memcpy(insn, nop, sizeof(nop));
		return 0;
	}
	return ftrace_x86_encode_rel(insn, FTRACE_X86_CALL, ip, target);
}

/**
 * ftrace_x86_decode - what five bytes at @ip do
 * @insn: the bytes
 * @ip: where they are
 * @target: set to the CALL or JMP destination, or to 0 for the NOP
 *
 * Return: FTRACE_X86_CALL, FTRACE_X86_JMP, 0 for the NOP, or -EINVAL for
 * anything else.
 */
static inline int ftrace_x86_decode(const u8 *insn, unsigned long ip,
				    unsigned long *target)
{
	static const u8 nop[FTRACE_X86_SITE_SIZE] = FTRACE_X86_NOP5;

	if (insn[0] == FTRACE_X86_CALL || insn[0] == FTRACE_X86_JMP) {
		*target = ip + FTRACE_X86_SITE_SIZE +
			  (long)(s32)get_unaligned_le32(insn + 1);
		return insn[0];
	}
	if (!memcmp(insn, nop, sizeof(nop))) {
		*target = 0;
		return 0;
	}
	return -EINVAL;
}

/**
 * struct ftrace_x86_site - a site being changed, as the int3 handler sees it
 * @ip: the site
 * @dest: where the new instruction goes; 0 for the NOP
 * @op: the new instruction: FTRACE_X86_CALL, FTRACE_X86_JMP or 0 (NOP)
 * @old: the bytes the site held before the change
 * @new: the bytes it holds after
 */
struct ftrace_x86_site {
	unsigned long ip;
	unsigned long dest;
	u8 op;
	u8 old[FTRACE_X86_SITE_SIZE];
	u8 new[FTRACE_X86_SITE_SIZE];
};

/**
 * ftrace_x86_site_find - the site of a sorted array that starts at @ip
 * @s: the sites, in ascending @ip order
 * @nr: how many
 * @ip: the address
 *
 * Inline, and calls nothing, for the int3 handler.
 *
 * Return: the site, or NULL.
 */
static __always_inline const struct ftrace_x86_site *
ftrace_x86_site_find(const struct ftrace_x86_site *s, unsigned int nr,
		     unsigned long ip)
{
	unsigned int lo = 0, hi = nr;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (s[mid].ip == ip)
			return &s[mid];
		if (s[mid].ip < ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/**
 * ftrace_x86_int3_resume - make a CPU stopped by the INT3 over @s go on
 *	as the new instruction of @s would
 * @s: the site the CPU trapped on
 * @regs: the registers of the trap
 */
static __always_inline void
ftrace_x86_int3_resume(const struct ftrace_x86_site *s, struct pt_regs *regs)
{
	if (s->op == FTRACE_X86_CALL)
		int3_emulate_call(regs, s->dest);
	else if (s->op == FTRACE_X86_JMP)
		int3_emulate_jmp(regs, s->dest);
	else
		int3_emulate_jmp(regs, s->ip + FTRACE_X86_SITE_SIZE);
}

/*
 * Labels in ftrace_64.S / ftrace_32.S: the parts of the shared callers a
 * trampoline copies and changes, and the 32-bit graph hook.
 */
void ftrace_caller_end(void);
void ftrace_caller_op_ptr(void);
void ftrace_regs_caller_end(void);
void ftrace_regs_caller_op_ptr(void);
void ftrace_regs_caller_jmp(void);
void ftrace_graph_call(void);

/* The graph entry the callers reach (ftrace_graph.c; from ftrace_32.S too). */
void prepare_ftrace_return(unsigned long ip, unsigned long *parent,
			   unsigned long frame_pointer);

#ifdef CONFIG_DYNAMIC_FTRACE
bool ftrace_int3_handler(struct pt_regs *regs);
#else
static inline bool ftrace_int3_handler(struct pt_regs *regs)
{
	return false;
}
#endif

#endif /* _ASM_X86_FTRACE_INSN_H */
