// SPDX-License-Identifier: GPL-2.0
/*
 * bpfkmulti: attach a BPF kprobe_multi program (an fprobe in the kernel)
 * to a list of functions, one cookie each, run a command, and report
 * what the program saw on each function.
 *
 *   bpfkmulti [-r] FUNC[,FUNC...] COMMAND [ARG...]
 *
 * Function i (from 1) gets cookie i.  The program calls
 * bpf_get_attach_cookie() and bpf_get_func_ip(); in map slot COOKIE it
 * counts the hit, and counts it again as wrong when the ip is not the
 * function's address, which this program put in the slot beforehand (from
 * /proc/kallsyms).  Slot 0 counts the hits whose cookie the kernel did not
 * find, or gave out of range.  -r attaches to the functions' returns
 * (BPF_F_KPROBE_MULTI_RETURN, rethook underneath).  Written as raw
 * instructions, so neither BTF nor a BPF compiler is needed.
 *
 * Output: "bpfkmulti: FUNC cookie=I addr=0x... hits=N wrong_ip=N ok" (or
 * "WRONG") a function, then "bpfkmulti: lost=N".  A function is ok when
 * it was hit and every hit had its address.
 * Exit status: 0 when the command exited 0, every function is ok and
 * nothing was lost; 1 otherwise; 2 when loading or attaching failed; 3
 * when the kernel has no kprobe_multi (EOPNOTSUPP).
 */
#include <errno.h>
#include <linux/bpf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bpfraw.h"

#define MAX_FUNCS 16

static char vlog[65536];

struct slot {
	uint64_t hits;
	uint64_t addr;		/* the function's address, set beforehand */
	uint64_t wrong_ip;	/* hits whose bpf_get_func_ip() was not addr */
};

/*
 * key = cookie, or 0 if above @cnt; slot = map[key]; slot->hits += 1;
 * if bpf_get_func_ip() != slot->addr, slot->wrong_ip += 1.
 */
static int load_prog(int map, int cnt)
{
	struct bpf_insn p[32];
	union bpf_attr a;
	int n = 0;

	p[n++] = insn(BPF_ALU64 | BPF_MOV | BPF_X, 6, 1, 0, 0);
	p[n++] = insn(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_get_attach_cookie);
	p[n++] = insn(BPF_JMP | BPF_JLE | BPF_K, 0, 0, 1, cnt);
	p[n++] = insn(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0);
	p[n++] = insn(BPF_STX | BPF_MEM | BPF_W, 10, 0, -4, 0);
	p[n++] = insn(BPF_ALU64 | BPF_MOV | BPF_X, 1, 6, 0, 0);
	p[n++] = insn(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_get_func_ip);
	p[n++] = insn(BPF_ALU64 | BPF_MOV | BPF_X, 7, 0, 0, 0);
	p[n++] = insn(BPF_ALU64 | BPF_MOV | BPF_X, 2, 10, 0, 0);
	p[n++] = insn(BPF_ALU64 | BPF_ADD | BPF_K, 2, 0, 0, -4);
	p[n++] = insn(BPF_LD | BPF_DW | BPF_IMM, 1, BPF_PSEUDO_MAP_FD, 0, map);
	p[n++] = insn(0, 0, 0, 0, 0);
	p[n++] = insn(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_lookup_elem);
	p[n++] = insn(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 6, 0);
	p[n++] = insn(BPF_ALU64 | BPF_MOV | BPF_K, 1, 0, 0, 1);
	p[n++] = insn(BPF_STX | BPF_ATOMIC | BPF_DW, 0, 1, 0, BPF_ADD);
	p[n++] = insn(BPF_LDX | BPF_MEM | BPF_DW, 2, 0, 8, 0);
	p[n++] = insn(BPF_JMP | BPF_JEQ | BPF_X, 7, 2, 2, 0);
	p[n++] = insn(BPF_ALU64 | BPF_MOV | BPF_K, 1, 0, 0, 1);
	p[n++] = insn(BPF_STX | BPF_ATOMIC | BPF_DW, 0, 1, 16, BPF_ADD);
	p[n++] = insn(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0);
	p[n++] = insn(BPF_JMP | BPF_EXIT, 0, 0, 0, 0);

	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_KPROBE;
	a.expected_attach_type = BPF_TRACE_KPROBE_MULTI;
	a.insns = (uintptr_t)p;
	a.insn_cnt = n;
	a.license = (uintptr_t)"GPL";
	a.log_buf = (uintptr_t)vlog;
	a.log_size = sizeof(vlog);
	a.log_level = 1;
	return sys_bpf(BPF_PROG_LOAD, &a);
}

/* The address /proc/kallsyms gives @name (its first entry), or 0. */
static uint64_t kallsyms_addr(const char *name)
{
	char line[512], sym[256], type;
	unsigned long long addr;
	uint64_t found = 0;
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c %255s", &addr, &type, sym) == 3 &&
		    !strcmp(sym, name))
			found = addr;
	fclose(f);
	return found;
}

int main(int argc, char **argv)
{
	const char *syms[MAX_FUNCS];
	uint64_t cookies[MAX_FUNCS];
	struct slot s;
	char *list, *tok;
	int map, prog, link, cnt = 0, ret = 0, status, i, ret_probe = 0;
	union bpf_attr a;

	if (argc > 1 && !strcmp(argv[1], "-r")) {
		ret_probe = 1;
		argv++;
		argc--;
	}
	if (argc < 3) {
		fprintf(stderr, "usage: bpfkmulti [-r] FUNC[,FUNC...] COMMAND [ARG...]\n");
		return 2;
	}
	list = strdup(argv[1]);
	for (tok = strtok(list, ","); tok && cnt < MAX_FUNCS; tok = strtok(NULL, ",")) {
		syms[cnt] = tok;
		cookies[cnt] = cnt + 1;
		cnt++;
	}
	map = array_map(sizeof(struct slot), cnt + 1);
	if (map < 0) {
		perror("bpfkmulti: creating the map");
		return 2;
	}
	/* Each function's address in its slot, before anything runs. */
	for (i = 1; i <= cnt; i++) {
		memset(&s, 0, sizeof(s));
		s.addr = kallsyms_addr(syms[i - 1]);
		if (!s.addr) {
			fprintf(stderr, "bpfkmulti: %s is not in /proc/kallsyms\n",
				syms[i - 1]);
			return 2;
		}
		if (map_elem(BPF_MAP_UPDATE_ELEM, map, i, &s)) {
			perror("bpfkmulti: filling the map");
			return 2;
		}
	}
	prog = load_prog(map, cnt);
	if (prog < 0) {
		fprintf(stderr, "bpfkmulti: loading the program: %s\n%s\n",
			strerror(errno), vlog);
		return errno == EOPNOTSUPP ? 3 : 2;
	}
	memset(&a, 0, sizeof(a));
	a.link_create.prog_fd = prog;
	a.link_create.attach_type = BPF_TRACE_KPROBE_MULTI;
	a.link_create.kprobe_multi.flags = ret_probe ? BPF_F_KPROBE_MULTI_RETURN : 0;
	a.link_create.kprobe_multi.cnt = cnt;
	a.link_create.kprobe_multi.syms = (uintptr_t)syms;
	a.link_create.kprobe_multi.cookies = (uintptr_t)cookies;
	link = sys_bpf(BPF_LINK_CREATE, &a);
	if (link < 0) {
		fprintf(stderr, "bpfkmulti: attaching: %s\n", strerror(errno));
		return errno == EOPNOTSUPP ? 3 : 2;
	}
	status = run_command(argv + 2);
	if (status < 0)
		return 2;
	close(link);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		ret = 1;
	for (i = 0; i <= cnt; i++) {
		memset(&s, 0, sizeof(s));
		if (map_elem(BPF_MAP_LOOKUP_ELEM, map, i, &s)) {
			perror("bpfkmulti: reading the map");
			return 2;
		}
		if (!i) {
			printf("bpfkmulti: lost=%llu\n", (unsigned long long)s.hits);
			ret |= s.hits != 0;
			continue;
		}
		printf("bpfkmulti: %s cookie=%d addr=0x%llx hits=%llu wrong_ip=%llu %s\n",
		       syms[i - 1], i, (unsigned long long)s.addr,
		       (unsigned long long)s.hits, (unsigned long long)s.wrong_ip,
		       s.hits && !s.wrong_ip ? "ok" : "WRONG");
		if (!s.hits || s.wrong_ip)
			ret = 1;
	}
	return ret;
}
