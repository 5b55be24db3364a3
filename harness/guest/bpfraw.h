/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the raw BPF loaders (bpftramp.c, bpfkmulti.c) share: the bpf()
 * system call and one instruction at a time, without libbpf.
 */
#ifndef BPFRAW_H
#define BPFRAW_H

#include <linux/bpf.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
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

/* An array map of @entries values of @value_size bytes, 4-byte keys. */
static inline int array_map(uint32_t value_size, uint32_t entries)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.map_type = BPF_MAP_TYPE_ARRAY;
	a.key_size = 4;
	a.value_size = value_size;
	a.max_entries = entries;
	return sys_bpf(BPF_MAP_CREATE, &a);
}

/* BPF_MAP_LOOKUP_ELEM or BPF_MAP_UPDATE_ELEM (@cmd) of slot @key. */
static inline int map_elem(int cmd, int map, uint32_t key, void *value)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.map_fd = map;
	a.key = (uintptr_t)&key;
	a.value = (uintptr_t)value;
	return sys_bpf(cmd, &a);
}

/* Run @argv to its end: its wait status, or -1 if it could not be run. */
static inline int run_command(char **argv)
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		execvp(argv[0], argv);
		perror("exec");
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return status;
}

#endif
