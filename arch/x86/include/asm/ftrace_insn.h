/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The instructions the x86 ftrace back end writes at a call site, and what
 * the INT3 handler emulates while one changes.
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
#include <linux/ftrace_kbase.h>
#ifdef FTRACE_KBASE_612
#include <linux/execmem.h>
#include <linux/unaligned.h>
#else
#include <linux/moduleloader.h>
#include <asm/unaligned.h>
#endif

/*
 * Memory for trampolines (and the KUnit suite's fake text): executable
 * and within reach of a rel32 CALL from any site.  module_alloc() on 6.1,
 * the execmem allocator on 6.12.
 */
static inline void *ftrace_x86_text_alloc(unsigned long size)
{
#ifdef FTRACE_KBASE_612
	return execmem_alloc(EXECMEM_FTRACE, size);
#else
	return module_alloc(size);
#endif
}

static inline void ftrace_x86_text_free(void *p)
{
#ifdef FTRACE_KBASE_612
	execmem_free(p);
#else
	module_memfree(p);
#endif
}

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
 * ftrace_x86_emulate_as - what a CPU that meets the INT3 over a site in
 *	change does in its place, as text_poke_queue_decoded() takes it
 * @insn: the site's new bytes, as the encoders above make them
 * @disp: set to the displacement from the end of the site
 *
 * Return: FTRACE_X86_CALL or FTRACE_X86_JMP; the NOP is a JMP of 0, past
 * itself.
 */
static inline u8 ftrace_x86_emulate_as(const u8 *insn, s32 *disp)
{
	if (insn[0] == FTRACE_X86_CALL || insn[0] == FTRACE_X86_JMP) {
		*disp = (s32)get_unaligned_le32(insn + 1);
		return insn[0];
	}
	*disp = 0;
	return FTRACE_X86_JMP;
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

#endif /* _ASM_X86_FTRACE_INSN_H */
