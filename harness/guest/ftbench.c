// SPDX-License-Identifier: GPL-2.0
/*
 * ftbench: the in-guest half of `make bench`.
 *
 * Times dynamic ftrace operations through tracefs and prints one line per
 * metric, "BENCH| <name> <value> <unit>".  Under QEMU with
 * -icount shift=0,sleep=off one nanosecond of guest time is one guest
 * instruction, so the "ns" figures are instruction counts and repeat
 * from run to run.
 *
 * Usage: ftbench [--smoke]   (--smoke: few iterations, for make check)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define T "/sys/kernel/tracing/"
#define NAMES 1000

static int loops = 20000;
/* Function tracer on/off cycles timed; the median of each is reported. */
#define MAX_SWITCHES	5
static int switches = MAX_SWITCHES;

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stdout, "BENCH| error ");
	vfprintf(stdout, fmt, ap);
	fprintf(stdout, " (%s)\n", strerror(errno));
	va_end(ap);
	exit(1);
}

static uint64_t now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void metric(const char *name, double v, const char *unit)
{
	printf("BENCH| %s %.2f %s\n", name, v, unit);
	fflush(stdout);
}

/* Open, write @len bytes of @s (may be 0), close; return the ns it took. */
static uint64_t put(const char *path, const char *s, size_t len, int trunc)
{
	uint64_t t0 = now();
	int fd = open(path, O_WRONLY | (trunc ? O_TRUNC : O_APPEND));
	size_t done = 0;
	ssize_t n;

	if (fd < 0)
		die("open %s", path);
	/* The filter files take a word or so per write() call. */
	while (done < len) {
		n = write(fd, s + done, len - done);
		if (n <= 0)
			die("write %s", path);
		done += n;
	}
	if (close(fd))
		die("close %s", path);
	return now() - t0;
}

/*
 * As puts_file(), for a word the kernel may refuse (a glob that matches
 * nothing: written without a newline, both kernels apply it at close,
 * where the failure cannot be reported); return the ns it took.
 */
static uint64_t put_any(const char *path, const char *s)
{
	uint64_t t0 = now();
	int fd = open(path, O_WRONLY | O_TRUNC);
	ssize_t n;

	if (fd < 0)
		die("open %s", path);
	n = write(fd, s, strlen(s));
	(void)n;
	close(fd);
	return now() - t0;
}

static uint64_t puts_file(const char *path, const char *s)
{
	return put(path, s, strlen(s), 1);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The median of @n figures (sorts them). */
static uint64_t median(uint64_t *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_u64);
	return v[n / 2];
}

/* Read a whole file into a malloc'd buffer; *ns gets the time it took. */
static char *slurp(const char *path, size_t *lenp, uint64_t *ns)
{
	size_t cap = 1 << 20, len = 0;
	char *buf = malloc(cap);
	uint64_t t0 = now();
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || !buf)
		die("open %s", path);
	for (;;) {
		if (cap - len < 65536) {
			cap *= 2;
			buf = realloc(buf, cap);
			if (!buf)
				die("realloc");
		}
		n = read(fd, buf + len, 65536);
		if (n < 0)
			die("read %s", path);
		if (!n)
			break;
		len += n;
	}
	close(fd);
	if (ns)
		*ns = now() - t0;
	buf[len] = 0;
	if (lenp)
		*lenp = len;
	return buf;
}

/*
 * What the kernel says the last update that wrote call sites took, in ns
 * ("last update: N sites patched in N batches, N (ns)" in
 * dyn_ftrace_total_info, which only our core prints), or -1.
 */
static double last_update_ns(void)
{
	char *s = slurp(T "dyn_ftrace_total_info", NULL, NULL);
	char *at = strstr(s, "last update:");
	unsigned long long ns;
	unsigned int sites, batches;
	double v = -1;

	if (at && sscanf(at, "last update: %u sites patched in %u batches, %llu",
			 &sites, &batches, &ns) == 3)
		v = ns;
	free(s);
	return v;
}

/*
 * What the core reports the last ops registration or unregistration took,
 * all of it ("last register/unregister: N (ns)"), or -1 where it does not.
 */
static double last_register_ns(void)
{
	char *s = slurp(T "dyn_ftrace_total_info", NULL, NULL);
	char *at = strstr(s, "last register/unregister:");
	unsigned long long ns;
	double v = -1;

	if (at && sscanf(at, "last register/unregister: %llu", &ns) == 1)
		v = ns;
	free(s);
	return v;
}

/* Store @v in @to[@i]; clear *@have for good when @v is -1. */
static void keep(uint64_t *to, int i, double v, int *have)
{
	*have &= v >= 0;
	to[i] = *have ? (uint64_t)v : 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The same 1,000 names on every kernel: the distinct vmlinux names of
 * available_filter_functions, sorted, every k-th one.
 */
static char *pick_names(char *aff, size_t *lenp)
{
	size_t n = 0, cap = 1 << 15, i, out = 0, k, u = 0;
	char **v = malloc(cap * sizeof(*v)), *line, *save, *buf;

	for (line = strtok_r(aff, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (strchr(line, ' ') || strstr(line, "__ftrace_invalid_address"))
			continue;
		if (n == cap)
			v = realloc(v, (cap *= 2) * sizeof(*v));
		v[n++] = line;
	}
	qsort(v, n, sizeof(*v), cmp_str);
	for (i = 0; i < n; i++)
		if (!u || strcmp(v[u - 1], v[i]))
			v[u++] = v[i];
	if (u < NAMES)
		die("only %zu names", u);
	k = u / NAMES;
	buf = malloc(u * 64);
	for (i = 0; i < NAMES; i++)
		out += sprintf(buf + out, "%s ", v[i * k]);
	free(v);
	*lenp = out;
	return buf;
}

static void loop_getppid(int n)
{
	int i;

	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
}

/*
 * Instructions (ns under -icount) per getppid() in the current setup: the
 * median of PER_CALL_RUNS runs, as a run that a timer tick with deferred
 * work falls into (an RCU callback, a workqueue item) costs more.
 */
#define PER_CALL_RUNS	5
static double per_call(void)
{
	uint64_t t[PER_CALL_RUNS], t0;
	int i, n = loops / PER_CALL_RUNS;

	loop_getppid(loops / 10);	/* warm the caches and the trace buffer */
	for (i = 0; i < PER_CALL_RUNS; i++) {
		t0 = now();
		loop_getppid(n);
		t[i] = now() - t0;
		if (getenv("FTBENCH_DEBUG"))
			printf("BENCHDBG| run %d %.2f\n", i, (double)t[i] / n);
	}
	return (double)median(t, PER_CALL_RUNS) / n;
}

/* A function that exists everywhere but the getppid() loop never calls. */
static const char *unrelated_function(const char *aff)
{
	static const char *const cand[] = {
		"ksys_sync", "vfs_fsync", "do_sys_poll", "kernel_restart", NULL
	};
	char pat[80];
	int i;

	for (i = 0; cand[i]; i++) {
		snprintf(pat, sizeof(pat), "\n%s\n", cand[i]);
		if (strstr(aff, pat))
			return cand[i];
	}
	die("no unrelated function");
	return NULL;
}

static void records(void)
{
	unsigned long recs = 0, pages = 0, groups = 0;
	char *s = slurp(T "dyn_ftrace_total_info", NULL, NULL);

	if (sscanf(s, "%lu pages:%lu groups: %lu", &recs, &pages, &groups) != 3)
		die("dyn_ftrace_total_info: %s", s);
	metric("records", recs, "count");
	metric("record_bytes_per_record",
	       (double)pages * sysconf(_SC_PAGESIZE) / recs, "bytes");
	free(s);
}

/*
 * Metrics NAME_@suffix with the modules @load (a shell command) loads:
 * reading available_filter_functions, the glob '*lock*', and @mod_word
 * if not NULL; @unload unloads them again.
 */
static void module_rows(const char *load, const char *unload,
			const char *suffix, const char *mod_word)
{
	char name[96];
	uint64_t ns;
	size_t len;

	if (system(load))
		die("loading the modules: %s", load);
	free(slurp(T "available_filter_functions", &len, &ns));
	snprintf(name, sizeof(name), "read_available_filter_functions_%s", suffix);
	metric(name, ns, "ns");
	snprintf(name, sizeof(name), "set_filter_glob_lock_%s", suffix);
	metric(name, puts_file(T "set_ftrace_filter", "*lock*"), "ns");
	put(T "set_ftrace_filter", "", 0, 1);
	if (mod_word) {
		snprintf(name, sizeof(name), "set_filter_mod_%s", suffix);
		metric(name, puts_file(T "set_ftrace_filter", mod_word), "ns");
		put(T "set_ftrace_filter", "", 0, 1);
	}
	if (system(unload))
		die("unloading the modules: %s", unload);
}

int main(int argc, char **argv)
{
	size_t len, nlen;
	uint64_t ns;
	char *aff, *names, one[128];
	uint64_t on[MAX_SWITCHES], off[MAX_SWITCHES];
	uint64_t won[MAX_SWITCHES], woff[MAX_SWITCHES];
	uint64_t con[MAX_SWITCHES], coff[MAX_SWITCHES];
	int have_w, have_c;
	const char *other;
	int i;

	if (argc > 1 && !strcmp(argv[1], "--smoke")) {
		loops = 200;
		switches = 1;
	}
	metric("boot_to_bench", now(), "ns");
	records();

	aff = slurp(T "available_filter_functions", &len, &ns);
	metric("read_available_filter_functions", ns, "ns");
	other = unrelated_function(aff);
	names = pick_names(aff, &nlen);

	puts_file(T "current_tracer", "nop");
	put(T "set_ftrace_filter", "", 0, 1);
	metric("syscall_tracing_off", per_call(), "ns/call");

	/*
	 * A tracer switch resets the ring buffer, which waits for RCU grace
	 * periods; how long those take depends on where the next tick falls.
	 * Each figure is the median of several function/nop cycles.
	 */
	/* ... and of how much of it the core spent writing call sites. */
	/* ... and all the core's part of it (the ops' registration). */
	for (i = 0, have_w = have_c = 1; i < switches; i++) {
		on[i] = puts_file(T "current_tracer", "function");
		keep(won, i, last_update_ns(), &have_w);
		keep(con, i, last_register_ns(), &have_c);
		off[i] = puts_file(T "current_tracer", "nop");
		keep(woff, i, last_update_ns(), &have_w);
		keep(coff, i, last_register_ns(), &have_c);
	}
	metric("enable_function_all", median(on, switches), "ns");
	metric("disable_function_all", median(off, switches), "ns");
	if (have_w) {
		metric("enable_function_all_writes", median(won, switches), "ns");
		metric("disable_function_all_writes", median(woff, switches), "ns");
	}
	if (have_c) {
		metric("enable_function_all_core", median(con, switches), "ns");
		metric("disable_function_all_core", median(coff, switches), "ns");
	}

	/*
	 * The same switches with the function filtered to one other
	 * function: what a switch costs besides writing the call sites (the
	 * tracer's own start and stop, the ring-buffer reset's grace periods).
	 */
	snprintf(one, sizeof(one), "%s\n", other);
	puts_file(T "set_ftrace_filter", one);
	for (i = 0, have_c = 1; i < switches; i++) {
		on[i] = puts_file(T "current_tracer", "function");
		keep(con, i, last_register_ns(), &have_c);
		off[i] = puts_file(T "current_tracer", "nop");
		keep(coff, i, last_register_ns(), &have_c);
	}
	metric("enable_function_one", median(on, switches), "ns");
	metric("disable_function_one", median(off, switches), "ns");
	if (have_c) {
		metric("enable_function_one_core", median(con, switches), "ns");
		metric("disable_function_one_core", median(coff, switches), "ns");
	}
	put(T "set_ftrace_filter", "", 0, 1);

	puts_file(T "current_tracer", "function");
	metric("syscall_function_all", per_call(), "ns/call");
	/*
	 * The dispatch alone: every site still calls the tracer, which finds
	 * the ring buffer off and records nothing.
	 */
	puts_file(T "tracing_on", "0");
	metric("syscall_function_all_tracing_off", per_call(), "ns/call");
	puts_file(T "tracing_on", "1");

	if (mkdir(T "instances/bench", 0755) && errno != EEXIST)
		die("mkdir instance");
	snprintf(one, sizeof(one), "%s\n", other);
	puts_file(T "instances/bench/set_ftrace_filter", one);
	puts_file(T "instances/bench/current_tracer", "function");
	metric("syscall_function_all_plus_filtered_instance", per_call(), "ns/call");
	puts_file(T "instances/bench/current_tracer", "nop");
	if (rmdir(T "instances/bench"))
		die("rmdir instance");

	/*
	 * ... and with 100 more ops, each on one function of a module that
	 * getppid() never calls (BPF programs or probes elsewhere): what they
	 * cost a call they are not on.
	 */
	if (system("insmod /harness/ftstress.ko"))
		die("loading ftstress");
	puts_file("/sys/module/ftstress/parameters/ops", "100");
	metric("syscall_function_all_plus_100_ops", per_call(), "ns/call");
	puts_file("/sys/module/ftstress/parameters/ops", "0");
	if (system("rmmod ftstress"))
		die("unloading ftstress");

	puts_file(T "current_tracer", "nop");

	puts_file(T "current_tracer", "function_graph");
	metric("syscall_function_graph_all", per_call(), "ns/call");
	puts_file(T "current_tracer", "nop");

	metric("set_filter_1000_names", put(T "set_ftrace_filter", names, nlen, 1), "ns");
	metric("set_filter_glob_lock", puts_file(T "set_ftrace_filter", "*lock*"), "ns");
	metric("clear_filter", put(T "set_ftrace_filter", "", 0, 1), "ns");
	/* A glob that matches nothing: naming every record. */
	metric("set_filter_glob_none", put_any(T "set_ftrace_filter", "*zqxjv*"), "ns");
	put(T "set_ftrace_filter", "", 0, 1);

	/*
	 * The listing and the glob with modules loaded: ours (256 functions
	 * and init functions) and an in-tree sample; then a module of 6,000
	 * functions (harness/modules/ftwide), as large as the biggest a
	 * distribution loads, also selected whole by a module word.  Each is
	 * unloaded again, so that make check's ftracetest run after the smoke
	 * run finds none.
	 */
	free(aff);
	aff = NULL;
	module_rows("insmod /harness/ftstress.ko && modprobe trace-events-sample",
		    "rmmod trace_events_sample ftstress", "modules", NULL);
	module_rows("insmod /harness/ftwide.ko", "rmmod ftwide", "wide",
		    "*:mod:ftwide");

	/*
	 * Every trace event on, then off, with tracing_on 0 so that they
	 * record nothing: each event's static key rewrites its jump labels
	 * through x86's batch patcher, which call sites share (a batch a key).
	 */
	puts_file(T "tracing_on", "0");
	metric("events_all_on", puts_file(T "events/enable", "1"), "ns");
	metric("events_all_off", puts_file(T "events/enable", "0"), "ns");
	puts_file(T "tracing_on", "1");
	puts_file(T "trace", "");
	printf("BENCH| done\n");
	return 0;
}
