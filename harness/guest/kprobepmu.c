// SPDX-License-Identifier: GPL-2.0
/*
 * kprobepmu ROUNDS MIN CMD FUNC...: probe each FUNC through perf's kprobe
 * PMU, as bcc and bpftrace do for single kprobes: ROUNDS times, open one
 * counting event per FUNC on every CPU (an "r:" before the name makes it
 * a return probe; "t:SYSTEM:EVENT" is a tracepoint event instead, opened
 * and closed with the probes), run CMD with sh -c, read the counts and
 * close every event.  Each round prints one line per FUNC,
 * "COUNT <round> <FUNC> <n>" (a tracepoint's is shown, not judged), and
 * the time its closes took, "CLOSE <round> <microseconds>".  Right after
 * the closes no probe on a FUNC may be armed: kprobes/list may still list
 * one (its memory may be freed later), but [DISABLED]; "PENDING <round>
 * <n>" says how many it listed.  Exit 0 when every count of every round
 * is at least MIN and no closed probe was armed; 1, with a message,
 * otherwise or when an event cannot be opened.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define MAX_EVENTS	4096

/* The number in the file at @path, after @prefix; -1 if none. */
static long read_number(const char *path, const char *prefix)
{
	char buf[64];
	size_t n = strlen(prefix);
	long v = -1;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	if (fgets(buf, sizeof(buf), f) && !strncmp(buf, prefix, n))
		v = strtol(buf + n, NULL, 10);
	fclose(f);
	return v;
}

#define LIST	"/sys/kernel/debug/kprobes/list"

/* The perf id of tracepoint SYSTEM:EVENT, or -1. */
static long tracepoint_id(const char *name)
{
	char path[256], sys[64];
	const char *ev = strchr(name, ':');

	if (!ev || ev - name >= (long)sizeof(sys))
		return -1;
	memcpy(sys, name, ev - name);
	sys[ev - name] = 0;
	snprintf(path, sizeof(path), "/sys/kernel/tracing/events/%s/%s/id",
		 sys, ev + 1);
	return read_number(path, "");
}

static int open_probe(int type, int rbit, const char *func, int cpu)
{
	struct perf_event_attr attr;
	int ret = func[0] == 'r' && func[1] == ':';

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	if (func[0] == 't' && func[1] == ':') {
		long id = tracepoint_id(func + 2);

		if (id < 0) {
			errno = ENOENT;
			return -1;
		}
		attr.type = PERF_TYPE_TRACEPOINT;
		attr.config = id;
		return syscall(SYS_perf_event_open, &attr, -1, cpu, -1, 0);
	}
	attr.type = type;
	if (ret)
		attr.config = 1ULL << rbit;
	attr.kprobe_func = (uint64_t)(uintptr_t)(func + (ret ? 2 : 0));
	attr.probe_offset = 0;
	return syscall(SYS_perf_event_open, &attr, -1, cpu, -1, 0);
}

/*
 * Probes kprobes/list shows on FUNC (its first word: "<addr>  <k|r>
 * FUNC+0x0 ..."): how many, and in *armed how many are not [DISABLED].
 * -1 if there is no list.
 */
static int listed(const char *func, int *armed)
{
	char line[512], want[160];
	FILE *f = fopen(LIST, "r");
	int n = 0;

	*armed = 0;
	if (!f)
		return -1;
	snprintf(want, sizeof(want), " %s+0x0", func);
	while (fgets(line, sizeof(line), f)) {
		char *at = strstr(line, want);

		if (!at || (at[strlen(want)] != ' ' && at[strlen(want)] != '\n'))
			continue;
		n++;
		if (!strstr(line, "[DISABLED]"))
			(*armed)++;
	}
	fclose(f);
	return n;
}

static const char *bare(const char *func)
{
	return func[1] == ':' ? func + 2 : func;
}

static long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

int main(int argc, char **argv)
{
	static int fds[MAX_EVENTS];
	int type, rbit, rounds, min, nfunc, ncpu, r, i, c, n, pending, bad = 0;
	long long t0;

	if (argc < 5) {
		fprintf(stderr, "usage: kprobepmu ROUNDS MIN CMD FUNC...\n");
		return 2;
	}
	rounds = atoi(argv[1]);
	min = atoi(argv[2]);
	nfunc = argc - 4;
	ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	if (nfunc * ncpu > MAX_EVENTS) {
		fprintf(stderr, "kprobepmu: more than %d events\n", MAX_EVENTS);
		return 2;
	}
	type = read_number("/sys/bus/event_source/devices/kprobe/type", "");
	/* The bit of attr.config that asks for a return probe. */
	rbit = read_number("/sys/bus/event_source/devices/kprobe/format/retprobe",
			   "config:");
	if (type < 0 || rbit < 0) {
		fprintf(stderr, "kprobepmu: no kprobe PMU\n");
		return 1;
	}
	for (r = 1; r <= rounds; r++) {
		n = 0;
		for (i = 0; i < nfunc; i++) {
			for (c = 0; c < ncpu; c++) {
				fds[n] = open_probe(type, rbit, argv[4 + i], c);
				if (fds[n] < 0) {
					fprintf(stderr, "kprobepmu: round %d: %s on CPU %d: %s\n",
						r, argv[4 + i], c, strerror(errno));
					return 1;
				}
				n++;
			}
		}
		if (system(argv[3]) != 0)
			fprintf(stderr, "kprobepmu: round %d: '%s' failed\n", r, argv[3]);
		n = 0;
		for (i = 0; i < nfunc; i++) {
			uint64_t sum = 0, v;

			for (c = 0; c < ncpu; c++, n++)
				if (read(fds[n], &v, sizeof(v)) == sizeof(v))
					sum += v;
			printf("COUNT %d %s %llu\n", r, argv[4 + i],
			       (unsigned long long)sum);
			/* A tracepoint's count is shown, not judged. */
			if (sum < (uint64_t)min && strncmp(argv[4 + i], "t:", 2))
				bad = 1;
		}
		t0 = now_us();
		for (i = 0; i < n; i++)
			close(fds[i]);
		printf("CLOSE %d %lld\n", r, now_us() - t0);
		pending = 0;
		for (i = 0; i < nfunc; i++) {
			int armed, k;

			if (argv[4 + i][0] == 't' && argv[4 + i][1] == ':')
				continue;
			k = listed(bare(argv[4 + i]), &armed);
			if (k < 0)
				break;
			if (armed) {
				fprintf(stderr,
					"kprobepmu: round %d: %d closed probes on %s armed\n",
					r, armed, bare(argv[4 + i]));
				bad = 1;
			}
			pending += k;
		}
		printf("PENDING %d %d\n", r, pending);
		fflush(stdout);
	}
	if (bad)
		fprintf(stderr, "kprobepmu: a count below %d, or a probe left armed\n", min);
	return bad;
}
