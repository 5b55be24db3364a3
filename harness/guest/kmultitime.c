// SPDX-License-Identifier: GPL-2.0
/*
 * kmultitime: the kernel's part of attaching and detaching a BPF
 * kprobe_multi link (one fprobe) over many functions, without a tool's
 * own start-up, polling or printing around it.
 *
 *   kmultitime [-n ROUNDS] [-e ENABLED] FILE
 *
 * FILE names the functions, one a line.  An empty program is loaded once;
 * each round then times BPF_LINK_CREATE over every name (the lookup, the
 * fprobe's registration, one ftrace update) and close() of the link (its
 * release runs before close() returns: unregistration, the waits that
 * follow it, the frees).  While attached, untimed, each round reads
 * /sys/kernel/tracing/enabled_functions (the first round's copy goes to
 * ENABLED with -e); after the close it pauses 300 ms, so that each close
 * finds RCU's threads idle, as one tool's detach does, rather than still
 * finishing the previous round's grace periods.
 *
 * Output: "kmultitime: round R attach S detach S" a round, then
 * "kmultitime: functions N enabled E attach S detach S", E the lines of
 * enabled_functions while attached (first round) and the medians, in
 * seconds of CLOCK_MONOTONIC (instructions, under QEMU's icount).
 * Exit status: 0 done; 2 when loading or attaching failed; 3 when the
 * kernel has no kprobe_multi (EOPNOTSUPP).
 */
#include <errno.h>
#include <linux/bpf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bpfraw.h"

#define MAX_ROUNDS 15

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), by_value);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The lines of enabled_functions, copied to @copy unless it is NULL. */
static long read_enabled(const char *copy)
{
	FILE *f = fopen("/sys/kernel/tracing/enabled_functions", "r");
	FILE *out = copy ? fopen(copy, "w") : NULL;
	long n = 0;
	int c;

	if (!f || (copy && !out))
		return -1;
	while ((c = getc(f)) != EOF) {
		n += c == '\n';
		if (out)
			putc(c, out);
	}
	fclose(f);
	if (out && fclose(out))
		return -1;
	return n;
}

/* An empty kprobe_multi program: r0 = 0; exit. */
static int load_prog(void)
{
	struct bpf_insn p[2];
	union bpf_attr a;

	p[0] = insn(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0);
	p[1] = insn(BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_KPROBE;
	a.expected_attach_type = BPF_TRACE_KPROBE_MULTI;
	a.insns = (uintptr_t)p;
	a.insn_cnt = 2;
	a.license = (uintptr_t)"GPL";
	return sys_bpf(BPF_PROG_LOAD, &a);
}

int main(int argc, char **argv)
{
	double att[MAX_ROUNDS], det[MAX_ROUNDS], t0, t1, t2;
	int rounds = 5, cnt = 0, cap = 1024, prog, link, r, err;
	const char *copy = NULL;
	char line[512], **syms;
	long enabled = -1, n;
	union bpf_attr a;
	FILE *f;

	while (argc > 3 && argv[1][0] == '-') {
		if (!strcmp(argv[1], "-n"))
			rounds = atoi(argv[2]);
		else if (!strcmp(argv[1], "-e"))
			copy = argv[2];
		else
			break;
		argv += 2;
		argc -= 2;
	}
	if (argc != 2 || rounds < 1 || rounds > MAX_ROUNDS) {
		fprintf(stderr, "usage: kmultitime [-n ROUNDS (1-%d)] [-e ENABLED] FILE\n",
			MAX_ROUNDS);
		return 2;
	}
	f = fopen(argv[1], "r");
	syms = malloc(cap * sizeof(*syms));
	if (!f || !syms) {
		perror("kmultitime");
		return 2;
	}
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		if (!line[0])
			continue;
		if (cnt == cap) {
			cap *= 2;
			syms = realloc(syms, cap * sizeof(*syms));
			if (!syms) {
				perror("kmultitime");
				return 2;
			}
		}
		syms[cnt] = strdup(line);
		if (!syms[cnt++]) {
			perror("kmultitime");
			return 2;
		}
	}
	fclose(f);
	if (!cnt) {
		fprintf(stderr, "kmultitime: no function named in %s\n", argv[1]);
		return 2;
	}
	prog = load_prog();
	if (prog < 0) {
		err = errno;
		fprintf(stderr, "kmultitime: loading the program: %s\n", strerror(err));
		return err == EOPNOTSUPP ? 3 : 2;
	}
	for (r = 0; r < rounds; r++) {
		memset(&a, 0, sizeof(a));
		a.link_create.prog_fd = prog;
		a.link_create.attach_type = BPF_TRACE_KPROBE_MULTI;
		a.link_create.kprobe_multi.cnt = cnt;
		a.link_create.kprobe_multi.syms = (uintptr_t)syms;
		t0 = now();
		link = sys_bpf(BPF_LINK_CREATE, &a);
		t1 = now();
		if (link < 0) {
			err = errno;
			fprintf(stderr, "kmultitime: attaching %d functions: %s\n",
				cnt, strerror(err));
			return err == EOPNOTSUPP ? 3 : 2;
		}
		n = read_enabled(r ? NULL : copy);
		if (!r)
			enabled = n;
		t2 = now();
		close(link);
		det[r] = now() - t2;
		att[r] = t1 - t0;
		usleep(300000);
		printf("kmultitime: round %d attach %.6f detach %.6f\n", r, att[r], det[r]);
	}
	printf("kmultitime: functions %d enabled %ld attach %.6f detach %.6f\n",
	       cnt, enabled, median(att, rounds), median(det, rounds));
	return 0;
}
