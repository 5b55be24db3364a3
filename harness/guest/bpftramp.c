// SPDX-License-Identifier: GPL-2.0
/*
 * bpftramp: attach a BPF fentry and a BPF fexit program to one kernel
 * function, run a command, and report how often each program ran.
 *
 *   bpftramp FUNCTION COMMAND [ARG...]
 *
 * The kernel attaches such programs through a BPF trampoline, which it
 * installs at the function's ftrace site as a direct call
 * (register_ftrace_direct_multi(), on 6.12 register_ftrace_direct(); the
 * second program moves it to a new trampoline, modify_ftrace_direct_multi(),
 * on 6.12 modify_ftrace_direct()): this is the in-tree user
 * "BPF trampolines" of the ftrace core, exercised without clang, libbpf or
 * bpftool.  The two programs are written here as raw instructions; the
 * function's BTF id is looked up in /sys/kernel/btf/vmlinux.
 *
 * Counters, in one array map:
 *   [0] fentry runs  [1] fexit runs  [2] the last return value fexit saw
 *
 * Output: "bpftramp: FUNCTION btf_id=N fentry=N fexit=N ret=N".
 * Exit status: 0 when COMMAND exited 0 and both programs ran, 1 when a
 * program did not run or COMMAND failed, 2 when attaching failed (the
 * verifier log is printed).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/btf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bpfraw.h"

static char vlog[65536];

/* Bytes of kind-specific data after a struct btf_type. */
static long btf_extra(const struct btf_type *t)
{
	unsigned int vlen = BTF_INFO_VLEN(t->info);

	switch (BTF_INFO_KIND(t->info)) {
	case BTF_KIND_INT:
	case BTF_KIND_VAR:
	case BTF_KIND_DECL_TAG:
		return 4;
	case BTF_KIND_ARRAY:
		return sizeof(struct btf_array);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		return (long)vlen * sizeof(struct btf_member);
	case BTF_KIND_ENUM:
		return (long)vlen * sizeof(struct btf_enum);
	case BTF_KIND_FUNC_PROTO:
		return (long)vlen * sizeof(struct btf_param);
	case BTF_KIND_DATASEC:
		return (long)vlen * sizeof(struct btf_var_secinfo);
	case 19: /* BTF_KIND_ENUM64: 3 words a value */
		return (long)vlen * 12;
	case BTF_KIND_PTR:
	case BTF_KIND_FWD:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_FUNC:
	case BTF_KIND_FLOAT:
	case BTF_KIND_TYPE_TAG:
		return 0;
	}
	return -1;
}

/*
 * The BTF id of the function @name in the kernel's BTF, and the number of
 * its arguments in *@nargs; -1 if there is none.
 */
static int btf_func_id(const char *name, int *nargs)
{
	const struct btf_header *h;
	const struct btf_type *t, **by_id;
	const char *strs, *p, *end;
	int fd, id, found = -1, n = 0;
	struct stat st;
	long extra, got = 0, r;
	char *buf;

	fd = open("/sys/kernel/btf/vmlinux", O_RDONLY);
	if (fd < 0 || fstat(fd, &st))
		return -1;
	/* sysfs reports the size of the BTF blob. */
	buf = malloc(st.st_size);
	if (!buf)
		return -1;
	while (got < st.st_size && (r = read(fd, buf + got, st.st_size - got)) > 0)
		got += r;
	close(fd);
	if (got != st.st_size)
		return -1;
	h = (const struct btf_header *)buf;
	if (h->magic != BTF_MAGIC)
		return -1;
	strs = buf + h->hdr_len + h->str_off;
	p = buf + h->hdr_len + h->type_off;
	end = p + h->type_len;
	by_id = calloc(h->type_len / sizeof(*t) + 2, sizeof(*by_id));
	if (!by_id)
		return -1;
	for (id = 1; p < end; id++) {
		t = (const struct btf_type *)p;
		by_id[id] = t;
		extra = btf_extra(t);
		if (extra < 0)
			return -1;
		if (BTF_INFO_KIND(t->info) == BTF_KIND_FUNC &&
		    !strcmp(strs + t->name_off, name) && found < 0)
			found = id;
		p += sizeof(*t) + extra;
	}
	/* A FUNC's type is its FUNC_PROTO, whose vlen is the argument count. */
	if (found > 0 && (int)by_id[found]->type < id && by_id[by_id[found]->type])
		n = BTF_INFO_VLEN(by_id[by_id[found]->type]->info);
	*nargs = n;
	return found;
}

/*
 * A tracing program of @type: add 1 to counter @slot; the fexit program
 * also saves the return value (the argument after the last one) in slot 2.
 */
static int load_prog(int map, enum bpf_attach_type type, int btf_id,
		     int nargs, int slot)
{
	struct bpf_insn p[32];
	union bpf_attr a;
	int n = 0, fd, skip;

	if (type == BPF_TRACE_FEXIT) {
		/* r6 = ctx[nargs]: the return value */
		p[n++] = insn(BPF_LDX | BPF_MEM | BPF_DW, 6, 1, 8 * nargs, 0);
		/* map[2] = r6 */
		p[n++] = insn(BPF_ST | BPF_MEM | BPF_W, 10, 0, -4, 2);
		p[n++] = insn(BPF_ALU64 | BPF_MOV | BPF_X, 2, 10, 0, 0);
		p[n++] = insn(BPF_ALU64 | BPF_ADD | BPF_K, 2, 0, 0, -4);
		p[n++] = insn(BPF_LD | BPF_DW | BPF_IMM, 1, BPF_PSEUDO_MAP_FD, 0, map);
		p[n++] = insn(0, 0, 0, 0, 0);
		p[n++] = insn(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_lookup_elem);
		p[n++] = insn(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 1, 0);
		p[n++] = insn(BPF_STX | BPF_MEM | BPF_DW, 0, 6, 0, 0);
	}
	/* r0 = &map[slot]; if (r0) atomically *r0 += 1 */
	p[n++] = insn(BPF_ST | BPF_MEM | BPF_W, 10, 0, -4, slot);
	p[n++] = insn(BPF_ALU64 | BPF_MOV | BPF_X, 2, 10, 0, 0);
	p[n++] = insn(BPF_ALU64 | BPF_ADD | BPF_K, 2, 0, 0, -4);
	p[n++] = insn(BPF_LD | BPF_DW | BPF_IMM, 1, BPF_PSEUDO_MAP_FD, 0, map);
	p[n++] = insn(0, 0, 0, 0, 0);
	p[n++] = insn(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_lookup_elem);
	skip = n;
	p[n++] = insn(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 2, 0);
	p[n++] = insn(BPF_ALU64 | BPF_MOV | BPF_K, 1, 0, 0, 1);
	p[n++] = insn(BPF_STX | BPF_ATOMIC | BPF_DW, 0, 1, 0, BPF_ADD);
	p[skip].off = n - skip - 1;
	p[n++] = insn(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0);
	p[n++] = insn(BPF_JMP | BPF_EXIT, 0, 0, 0, 0);

	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_TRACING;
	a.expected_attach_type = type;
	a.attach_btf_id = btf_id;
	a.insns = (uintptr_t)p;
	a.insn_cnt = n;
	a.license = (uintptr_t)"GPL";
	a.log_buf = (uintptr_t)vlog;
	a.log_size = sizeof(vlog);
	a.log_level = 1;
	fd = sys_bpf(BPF_PROG_LOAD, &a);
	if (fd < 0) {
		fprintf(stderr, "bpftramp: loading the %s program: %s\n%s\n",
			type == BPF_TRACE_FEXIT ? "fexit" : "fentry",
			strerror(errno), vlog);
		return -1;
	}
	/* For a tracing program this attaches it and returns a link fd. */
	memset(&a, 0, sizeof(a));
	a.raw_tracepoint.prog_fd = fd;
	fd = sys_bpf(BPF_RAW_TRACEPOINT_OPEN, &a);
	if (fd < 0)
		fprintf(stderr, "bpftramp: attaching the %s program: %s\n",
			type == BPF_TRACE_FEXIT ? "fexit" : "fentry",
			strerror(errno));
	return fd;
}

static uint64_t counter(int map, uint32_t slot)
{
	uint64_t v = 0;

	if (map_elem(BPF_MAP_LOOKUP_ELEM, map, slot, &v))
		perror("bpftramp: reading a counter");
	return v;
}

int main(int argc, char **argv)
{
	enum bpf_attach_type first;
	uint64_t entries, exits;
	int map, id, nargs, status;

	if (argc < 3) {
		fprintf(stderr, "usage: bpftramp FUNCTION COMMAND [ARG...]\n");
		return 2;
	}
	id = btf_func_id(argv[1], &nargs);
	if (id < 0) {
		fprintf(stderr, "bpftramp: no BTF for %s\n", argv[1]);
		return 2;
	}
	map = array_map(8, 3);
	if (map < 0) {
		perror("bpftramp: creating the map");
		return 2;
	}
	/*
	 * fexit first (BPFTRAMP_FENTRY_FIRST=1: fentry first).  On a
	 * function an IPMODIFY ops (a live patch) has, the trampoline must be
	 * rebuilt when the first program that calls the function comes; when
	 * that is a move of an attached trampoline (fexit after fentry), BPF
	 * clears ->func of its registered ops while it rebuilds.
	 */
	first = getenv("BPFTRAMP_FENTRY_FIRST") ? BPF_TRACE_FENTRY : BPF_TRACE_FEXIT;
	if (load_prog(map, first, id, nargs, first == BPF_TRACE_FEXIT) < 0 ||
	    load_prog(map, first == BPF_TRACE_FEXIT ? BPF_TRACE_FENTRY :
		      BPF_TRACE_FEXIT, id, nargs, first != BPF_TRACE_FEXIT) < 0)
		return 2;
	status = run_command(argv + 2);
	if (status < 0)
		return 2;
	entries = counter(map, 0);
	exits = counter(map, 1);
	printf("bpftramp: %s btf_id=%d fentry=%llu fexit=%llu ret=%lld\n",
	       argv[1], id, (unsigned long long)entries,
	       (unsigned long long)exits, (long long)counter(map, 2));
	/* The links and programs go with the process. */
	return WIFEXITED(status) && !WEXITSTATUS(status) && entries && exits ?
	       0 : 1;
}
