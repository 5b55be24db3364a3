/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the raw BPF loaders (bpftramp.c, bpfkmulti.c) share: the bpf()
 * system call and one instruction at a time, without libbpf.
 */
#ifndef BPFRAW_H
#define BPFRAW_H

#include <linux/bpf.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

static inline long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

/* One instruction: opcode, registers, offset, immediate. */
static inline struct bpf_insn insn(uint8_t code, uint8_t dst, uint8_t src,
				   int16_t off, int32_t imm)
{
	struct bpf_insn i = { .code = code, .dst_reg = dst, .src_reg = src,
			      .off = off, .imm = imm };
	return i;
}

#endif
