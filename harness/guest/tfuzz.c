// SPDX-License-Identifier: GPL-2.0
/*
 * tfuzz: malformed writes to the writable tracefs files of the ftrace core
 * (one part of `make stress`).
 *
 * Each case: read the file whole (the snapshot), open it O_WRONLY with
 * O_APPEND (or O_TRUNC: a fifth of the cases, a twentieth on the pid
 * files), issue exactly one write(2) of a generated buffer (two for the
 * split-token cases: a word's first part, then its rest), close, read the
 * file back.  If the (last) write failed (-1, any errno) the file must
 * read back exactly as the snapshot: the core's filter files take one word
 * per write, a failed write changes nothing pending, and an open in which
 * no word was accepted publishes nothing at close.  A write that returned
 * > 0 was (partly) valid: it is counted and the file is put back into its
 * small known state.  close(2) failing is counted too, and the file must
 * then read as the snapshot as well.
 *
 * Files: set_ftrace_filter, set_ftrace_notrace, set_graph_function,
 * set_graph_notrace, stack_trace_filter, set_ftrace_pid,
 * set_ftrace_notrace_pid, function_profile_enabled at the top level, and
 * the filter and pid files of a tracing instance the program creates
 * (instances/tfuzz) and removes at the end.  A file that does not exist on
 * the running kernel is skipped (and said so).
 *
 * Generators (deterministic, from the seed): random bytes of 1..8192
 * (NULs, high bytes, or a soup of glob and syntax characters); nonexistent
 * names; overlong names and globs (129..16384 bytes, around the parser's
 * limit and PAGE_SIZE, the buffer ending at or straddling a page end);
 * globs that match nothing (and, rarely, "**", "?*?" which match all);
 * split tokens; bad ":mod:" syntax and long module names; bad command
 * syntax (unknown commands, bad counts, bad events, removing probes that
 * do not exist); record indexes (0, past the end, huge, negative,
 * overflowing, "1 2 3", small valid ones); buffers that run into an
 * unmapped page, start in one, or are NULL (EFAULT); pid garbage (negative,
 * huge, "1 x", leading spaces, > 127 digits); everything but 0/1 for
 * function_profile_enabled; and some valid writes (a name from
 * available_filter_functions, a glob, an index, a pending ":mod:", a probe
 * on a function that is hardly ever called).  Probe commands are never
 * made valid on a busy function except "stacktrace" (removed at once),
 * and never dump/cpudump (they print the whole buffer).
 *
 * Each file is kept in one of a few small known states, switched every
 * 1024 cases: the filter files empty, one function, two functions plus a
 * pending ":mod:" entry, or (set_ftrace_filter) one function plus a probe
 * on a function that is hardly ever called; the pid files empty, "1" or
 * "1 2 300"; function_profile_enabled 0.  After a valid write the file is
 * put back into its state (probes removed with "!func:cmd") and must read
 * exactly as that state did the first time.
 *
 * Two exceptions to "reads back as the snapshot", both the documented
 * behaviour of every kernel or of 6.1:
 *  - the pid files: an O_TRUNC open empties the list at open (6.1 and
 *    ours), so for those the reference is read after the open;
 *  - 6.1 only: a truncating open of a filter file whose write failed still
 *    publishes the emptied filter (and has dropped the pending ":mod:"
 *    entries at open).  On 6.1 (told apart from ours by our boot line
 *    "ftrace: N call sites, X bytes per record" or, once that has left
 *    the log, by our ftrace_apply_text in /proc/kallsyms) such a read-back is
 *    counted as "upstream-trunc", not as changed-on-reject, unless -S.
 *
 * The program does not assume it is alone: every case takes its own
 * snapshot and judges only its own write.  But two writers of the same file
 * race, so `make stress` runs it (-f) only on files that no other stress
 * job writes: the instance's files, which nothing else knows about, and
 * whichever top-level files the other jobs leave alone.  The current tracer
 * of the top level is set to nop at the start when a top-level file is
 * fuzzed (and not changed afterwards); the instance's stays nop.
 *
 * Every case is generated from (seed, case number) alone and puts its file
 * into the state it wants first, so `tfuzz -s SEED -c CASE` replays one
 * case by itself (on the same kernel: the names come from it).
 *
 * Cost: under QEMU TCG a word that reaches the name matcher and matches
 * nothing costs ~20 ms on either kernel (a pass over all symbols or
 * records), a pid write that replaces a list a synchronize_rcu(); the mix
 * keeps those to a fraction of the cases (100,000 cases took ~9 minutes on
 * x86_64 TCG with the host busy building a kernel).  The per-file and
 * per-generator tables give ms/case.
 *
 * After the run the kernel log is scanned for splats (WARNING:, BUG:, ...)
 * logged during the run.
 *
 * Usage: tfuzz [-n COUNT] [-s SEED] [-c CASE] [-f FILE]... [-i INSTANCE]
 *              [-m ours|upstream] [-S] [-v]
 *   -n  cases (default 100000)       -s  seed (default 1)
 *   -c  run only case CASE (reproduce a failure)
 *   -f  fuzz only FILE (as named in the output; repeatable)
 *   -i  the instance's name (default tfuzz)
 *   -m  the semantics to hold the kernel to (default: from the boot log)
 *   -S  strict: count 6.1's emptied filter as changed-on-reject too
 *   -v  print every case
 * The last line is
 *   tfuzz: N cases, N rejected, N valid, N changed-on-reject, N close-errors, N seconds
 * and the exit status is 1 if a rejected write changed a file or anything
 * unexpected happened (a read or open failing, a file vanishing, a file not
 * going back to its known state, a kernel splat).
 *
 * Two more modes serve single ftracetest cases: -P (two writers of one
 * open filter file) and -R (a listing read again after a rewind); see
 * shared_fd_race() and rewind_read().
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define T "/sys/kernel/tracing/"
#define GEN_MAX 24576		/* one generated buffer */
#define SHOW_FAILS 5		/* failures printed in full */

enum kind { K_FILTER, K_NOTRACE, K_GRAPH, K_GRAPH_NOTRACE, K_STACK, K_PID,
	    K_PROFILE };

enum gen { G_RANDOM, G_NOSUCH, G_LONG, G_GLOB, G_SPLIT, G_MOD, G_CMD, G_INDEX,
	   G_FAULT, G_VALID, G_PID, G_PROFILE, G_NR };

static const char *const gen_names[G_NR] = {
	"random", "nosuch", "long", "glob", "split", "mod", "cmd", "index",
	"fault", "valid", "pid", "profile"
};

#define NSTATES 4

struct sbuf {
	char *p;
	size_t len, cap;
};

struct stats {
	unsigned long cases, rejected, valid, changed, close_err, up_trunc;
	double secs;		/* spent in its cases, restores included */
};

struct tfile {
	char name[96];		/* relative to T */
	char path[160];
	enum kind kind;
	int cmds;		/* takes "func:command" (set_ftrace_filter) */
	int mods;		/* keeps pending ":mod:" entries */
	int instance;		/* lives in the instance */
	int dead;		/* vanished or unusable during the run */
	int nstates;
	int usable[NSTATES];	/* the state could be set up */
	char *state_text[NSTATES];	/* how each state reads */
	int cur;		/* its state now, -1: unknown */
	struct stats st;
};

struct wcase {
	enum gen gen;
	const char *what;	/* the generator's variant */
	int trunc;
	int nw;			/* writes: 1, or 2 (split) */
	const char *ptr[2];
	size_t cnt[2];		/* bytes passed to write(2) */
	size_t mapped[2];	/* of which readable (the rest faults) */
	int ret[2];		/* write(2)'s results, errnos */
	int err[2];
	int done;		/* writes issued */
};

static struct tfile files[16];
static int nfiles;
static struct stats gst[G_NR], tot;
static unsigned long errcount[256], unexpected, restore_bad;
static unsigned long shown_fails, shown_up, shown_unexp;
static uint64_t seed = 1, rs;
static long count = 100000, only_case = -1;
static int verbose, strict, ours = -1;
static const char *instance = "tfuzz";
static char *only[16];
static int nonly;
static char repro[2048];	/* the options a replay of one case needs */

/* The names the valid writes use (available_filter_functions). */
static char **names;
static size_t nnames, nrecs;
static const char *F1, *F2, *R;	/* two functions, one rarely called */
static int have_sched_switch;

static char gbuf[2][GEN_MAX + 64];
static size_t glen[2];
static char *arena;		/* write buffers; an unmapped page follows */
static size_t arena_size, pagesz;
static struct sbuf before, ref, after, tmp;

/* ---------------------------------------------------------------- util */

static void die(const char *fmt, ...)
{
	va_list ap;
	int e = errno;

	va_start(ap, fmt);
	printf("tfuzz: error: ");
	vprintf(fmt, ap);
	printf(" (%s)\n", strerror(e));
	va_end(ap);
	exit(2);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static unsigned rnd(unsigned n)
{
	return n ? splitmix(&rs) % n : 0;
}

static int chance(unsigned pct)
{
	return rnd(100) < pct;
}

static const char *errname(int e)
{
	static char b[16];

	switch (e) {
	case EINVAL: return "EINVAL";
	case EFAULT: return "EFAULT";
	case ENOMEM: return "ENOMEM";
	case ERANGE: return "ERANGE";
	case ENODEV: return "ENODEV";
	case ENOENT: return "ENOENT";
	case EBUSY: return "EBUSY";
	case EEXIST: return "EEXIST";
	case EPERM: return "EPERM";
	case E2BIG: return "E2BIG";
	case ENOSPC: return "ENOSPC";
	case EAGAIN: return "EAGAIN";
	case EINTR: return "EINTR";
	case EIO: return "EIO";
	case ENAMETOOLONG: return "ENAMETOOLONG";
	case 524: return "ENOTSUPP";
	}
	snprintf(b, sizeof(b), "errno %d", e);
	return b;
}

/* @n bytes of @p as a C string literal (at most @max of them). */
static void print_escaped(const char *p, size_t n, size_t max)
{
	size_t i;

	putchar('"');
	for (i = 0; i < n && i < max; i++) {
		unsigned char ch = p[i];

		switch (ch) {
		case '\n': fputs("\\n", stdout); break;
		case '\t': fputs("\\t", stdout); break;
		case '\r': fputs("\\r", stdout); break;
		case '\\': fputs("\\\\", stdout); break;
		case '"': fputs("\\\"", stdout); break;
		default:
			if (ch < 32 || ch > 126)
				printf("\\%03o", ch);
			else
				putchar(ch);
		}
	}
	putchar('"');
	if (i < n)
		printf("... (%zu more bytes)", n - i);
}

static void sb_reserve(struct sbuf *b, size_t need)
{
	size_t c = b->cap ? b->cap : 65536;

	if (b->cap >= need)
		return;
	while (c < need)
		c *= 2;
	b->p = realloc(b->p, c);
	if (!b->p)
		die("realloc");
	b->cap = c;
}

/* Read @path whole into @b; 0 or -errno. */
static int slurp(const char *path, struct sbuf *b)
{
	int fd = open(path, O_RDONLY), e;
	ssize_t n;

	if (fd < 0)
		return -errno;
	b->len = 0;
	for (;;) {
		sb_reserve(b, b->len + 65537);
		n = read(fd, b->p + b->len, b->cap - b->len - 1);
		if (n < 0) {
			e = errno;
			close(fd);
			return -e;
		}
		if (!n)
			break;
		b->len += n;
	}
	close(fd);
	b->p[b->len] = 0;
	return 0;
}

static int same(const struct sbuf *a, const struct sbuf *b)
{
	return a->len == b->len && !memcmp(a->p, b->p, a->len);
}

/* Open @path, write each word with its own write(2), close: 0 or -errno. */
static int put_words(const char *path, int trunc, const char *const *w, int n)
{
	int fd = open(path, O_WRONLY | (trunc ? O_TRUNC : O_APPEND)), i, ret = 0;
	ssize_t r;

	if (fd < 0)
		return -errno;
	for (i = 0; i < n; i++) {
		r = write(fd, w[i], strlen(w[i]));
		if (r != (ssize_t)strlen(w[i]) && !ret)
			ret = r < 0 ? -errno : -EIO;
	}
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

/* ------------------------------------------------------------- lines */

struct line {
	const char *p;
	size_t n;
};

static int line_cmp(const void *a, const void *b)
{
	const struct line *x = a, *y = b;
	size_t n = x->n < y->n ? x->n : y->n;
	int c = memcmp(x->p, y->p, n);

	return c ? c : (x->n > y->n) - (x->n < y->n);
}

/* Split @p[0..len) into lines (without the newlines); returns how many. */
static size_t split_lines(const char *p, size_t len, struct line **out)
{
	size_t n = 0, cap = 64, i, start = 0;
	struct line *v = malloc(cap * sizeof(*v));

	if (!v)
		die("malloc");
	for (i = 0; i <= len; i++) {
		if (i < len && p[i] != '\n')
			continue;
		if (i == len && i == start)
			break;
		if (n == cap) {
			v = realloc(v, (cap *= 2) * sizeof(*v));
			if (!v)
				die("realloc");
		}
		v[n].p = p + start;
		v[n++].n = i - start;
		start = i + 1;
	}
	*out = v;
	return n;
}

/* A probe line of set_ftrace_filter: "func:command[:...]", not ":mod:". */
static int is_probe_line(const struct line *l)
{
	const char *c = memchr(l->p, ':', l->n);

	return c && !(l->p + l->n - c >= 4 && !memcmp(c, ":mod", 4) &&
		      (l->p + l->n - c == 4 || c[4] == ':'));
}

/* Print what lines differ between @a and @b (as multisets). */
static void diff_summary(const struct sbuf *a, const struct sbuf *b)
{
	struct line *x, *y;
	size_t nx = split_lines(a->p, a->len, &x), ny = split_lines(b->p, b->len, &y);
	size_t i = 0, j = 0, shown = 0;
	int c;

	printf("tfuzz:   before: %zu lines, %zu bytes; after: %zu lines, %zu bytes\n",
	       nx, a->len, ny, b->len);
	qsort(x, nx, sizeof(*x), line_cmp);
	qsort(y, ny, sizeof(*y), line_cmp);
	while ((i < nx || j < ny) && shown < 12) {
		c = i == nx ? 1 : j == ny ? -1 : line_cmp(&x[i], &y[j]);
		if (!c) {
			i++, j++;
			continue;
		}
		printf("tfuzz:   only %s: ", c < 0 ? "before" : "after");
		if (c < 0)
			print_escaped(x[i].p, x[i].n, 300), i++;
		else
			print_escaped(y[j].p, y[j].n, 300), j++;
		putchar('\n');
		shown++;
	}
	if (i < nx || j < ny)
		printf("tfuzz:   (more differences)\n");
	if (a->len == b->len && !shown)
		printf("tfuzz:   same lines in another order\n");
	free(x);
	free(y);
}

/* ------------------------------------------------------------- states */

static int is_filter(const struct tfile *f)
{
	return f->kind <= K_STACK;
}

static char F1nl[600], F2nl[600], Rprobe[600];

/*
 * The small known states a file is put into: the filter files empty, one
 * function, two functions and a pending ":mod:" entry, or one function and
 * a probe on a function that is rarely called; the pid files empty, "1",
 * "1 2 300"; function_profile_enabled 0 (enabling the profiler patches
 * every function, and slows everything down while it runs).
 */
static int state_words(const struct tfile *f, int s, const char **w)
{
	int n = 0;

	switch (f->kind) {
	case K_PID:
		if (s == 1)
			w[n++] = "1\n";
		if (s == 2)
			w[n++] = "1 2 300\n";
		return n;
	case K_PROFILE:
		w[n++] = "0\n";
		return n;
	default:
		if (s >= 1)
			w[n++] = F1nl;
		if (s == 2) {
			w[n++] = F2nl;
			if (f->mods)
				w[n++] = "*:mod:tfuzz_nomod\n";
		}
		if (s == 3)
			w[n++] = Rprobe;
		return n;
	}
}

static void file_gone(struct tfile *f, int err, const char *what)
{
	unexpected++;
	if (!f->dead)
		printf("tfuzz: UNEXPECTED: %s %s: %s%s\n", what, f->name,
		       errname(err), err == ENOENT ? " (the file vanished)" : "");
	if (err == ENOENT)
		f->dead = 1;
}

/*
 * Remove the probes set_ftrace_filter lists ("!func:cmd[...]"), all but
 * the line @keep; returns whether @keep was there.
 */
static int remove_probes(struct tfile *f, const struct line *keep)
{
	struct line *v;
	size_t n, i;
	char l[1200], w[1300], *fld[8], *s;
	const char *wp = w;
	int nf, cnt, ev, kept = 0;

	if (slurp(f->path, &tmp))
		return 0;
	n = split_lines(tmp.p, tmp.len, &v);
	for (i = 0; i < n; i++) {
		if (!is_probe_line(&v[i]) || v[i].n >= sizeof(l))
			continue;
		if (keep && !kept && !line_cmp(keep, &v[i])) {
			kept = 1;
			continue;
		}
		memcpy(l, v[i].p, v[i].n);
		l[v[i].n] = 0;
		for (s = l, nf = 0; nf < 8 && s; )
			fld[nf++] = strsep(&s, ":");
		cnt = !strncmp(fld[nf - 1], "count=", 6);
		ev = !strcmp(fld[1], "enable_event") || !strcmp(fld[1], "disable_event");
		if (ev && nf >= 4)
			snprintf(w, sizeof(w), "!%s:%s:%s:%s%s\n", fld[0], fld[1],
				 fld[2], fld[3], cnt ? ":0" : "");
		else
			snprintf(w, sizeof(w), "!%s:%s%s\n", fld[0], fld[1],
				 cnt ? ":0" : "");
		if (put_words(f->path, 0, &wp, 1)) {
			/* The other ops (with or without a count). */
			if (ev && nf >= 4)
				snprintf(w, sizeof(w), "!%s:%s:%s:%s%s\n", fld[0],
					 fld[1], fld[2], fld[3], cnt ? "" : ":0");
			else
				snprintf(w, sizeof(w), "!%s:%s%s\n", fld[0], fld[1],
					 cnt ? "" : ":0");
			put_words(f->path, 0, &wp, 1);
		}
	}
	free(v);
	return kept;
}

/*
 * Put @f into state @s and check it reads as that state did the first
 * time.  Returns 0, or -1 if it could not.
 */
static int set_state(struct tfile *f, int s, int probes)
{
	const char *w[4];
	int n = state_words(f, s, w), ret, e;
	struct line *v, keep = { NULL, 0 };
	size_t nv, i;

	if (f->cmds && (probes || s == 3 || f->cur == 3 || f->cur < 0)) {
		/*
		 * Empty the filter first (reading all functions is slow), then
		 * remove the probes but the state's own (registering one patches
		 * text: slow too).
		 */
		put_words(f->path, 1, NULL, 0);
		v = NULL;
		if (s == 3 && f->state_text[3]) {
			nv = split_lines(f->state_text[3], strlen(f->state_text[3]), &v);
			for (i = 0; i < nv; i++)
				if (is_probe_line(&v[i]))
					keep = v[i];
		}
		if (remove_probes(f, keep.p ? &keep : NULL) && n && w[n - 1] == Rprobe)
			n--;
		free(v);
	}
	ret = put_words(f->path, 1, w, n);
	e = slurp(f->path, &tmp);
	if (e) {
		file_gone(f, -e, "reading");
		f->cur = -1;
		return -1;
	}
	if (!f->state_text[s]) {
		if (ret) {
			printf("tfuzz: note: %s: state %d cannot be set up (%s); not used\n",
			       f->name, s, errname(-ret));
			f->usable[s] = 0;
			f->cur = -1;
			return -1;
		}
		f->state_text[s] = malloc(tmp.len + 1);
		if (!f->state_text[s])
			die("malloc");
		memcpy(f->state_text[s], tmp.p, tmp.len + 1);
		f->usable[s] = 1;
	} else if (ret || strlen(f->state_text[s]) != tmp.len ||
		   memcmp(f->state_text[s], tmp.p, tmp.len)) {
		struct sbuf want = { f->state_text[s], strlen(f->state_text[s]), 0 };

		unexpected++;
		restore_bad++;
		if (shown_unexp++ < 5) {
			printf("tfuzz: UNEXPECTED: %s does not go back to state %d (%s)\n",
			       f->name, s, ret ? errname(-ret) : "reads differently");
			diff_summary(&want, &tmp);
		}
		f->cur = -1;
		return -1;
	}
	f->cur = s;
	return 0;
}

static int want_state(const struct tfile *f, long i)
{
	uint64_t h = seed ^ ((uint64_t)(i >> 10) << 20) ^ (uint64_t)(f - files);
	int s = splitmix(&h) % f->nstates;

	return f->usable[s] ? s : 0;
}

/* -------------------------------------------------------- generators */

static void put(int w, const void *p, size_t n)
{
	if (glen[w] + n > GEN_MAX)
		n = GEN_MAX - glen[w];
	memcpy(gbuf[w] + glen[w], p, n);
	glen[w] += n;
}

static void putc_(int w, int ch)
{
	char c = ch;

	put(w, &c, 1);
}

static void putf(int w, const char *fmt, ...)
{
	char b[2048];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(b, sizeof(b), fmt, ap);
	va_end(ap);
	put(w, b, n < (int)sizeof(b) ? (size_t)n : sizeof(b) - 1);
}

static void fill(int w, int ch, size_t n)
{
	while (n--)
		putc_(w, ch);
}

static void fill_from(int w, const char *alphabet, size_t n)
{
	size_t k = strlen(alphabet);

	while (n--)
		putc_(w, alphabet[rnd(k)]);
}

/* How a word ends: mostly a newline, as echo writes it. */
static void term(int w)
{
	unsigned r = rnd(100);

	if (r < 80)
		putc_(w, '\n');
	else if (r < 85)
		putc_(w, ' ');
	else if (r < 90)
		putc_(w, '\0');
	else if (r < 95)
		putc_(w, '\t');
}

static const char *name_any(void)
{
	return names[rnd(nnames)];
}

/* A function the bad commands name: vfs_read where it exists. */
static const char *cmd_target(void)
{
	static const char *t;
	size_t i;

	if (!t) {
		t = F1;
		for (i = 0; i < nnames; i++)
			if (!strcmp(names[i], "vfs_read"))
				t = "vfs_read";
	}
	return t;
}

static const char *pick(const char *const *v, size_t n)
{
	return v[rnd(n)];
}
#define PICK(v) pick(v, sizeof(v) / sizeof(v[0]))

static const size_t long_lens[] = {
	129, 200, 255, 256, 257, 511, 512, 513, 600, 638, 639, 640, 641, 660,
	667, 668, 669, 670, 700, 1023, 1024, 1025, 2047, 2048, 4094, 4095, 4096,
	4097, 4098, 8190, 8191, 8192, 8193, 12288, 16384
};

static void gen_random(struct wcase *c)
{
	static const char al[] = "abcz_*?[]!:.-^\\0123\n \t";
	unsigned r = rnd(10);
	size_t len = r < 5 ? 1 + rnd(64) : r < 8 ? 1 + rnd(1024) : 1 + rnd(8192);

	if (chance(20)) {
		c->what = "tokens";
		while (len--)
			putc_(0, al[rnd(sizeof(al))]);	/* with the NUL */
	} else {
		c->what = "bytes";
		while (len--)
			putc_(0, rnd(256));
	}
}

static void gen_nosuch(struct wcase *c)
{
	size_t i, n;
	char b[600];

	switch (rnd(10)) {
	case 0: c->what = "name"; putf(0, "tfuzz_nosuch_%08x", rnd(~0u)); break;
	case 1: c->what = "!name"; putf(0, "!tfuzz_nosuch_%x", rnd(~0u)); break;
	case 2: c->what = "suffix"; putf(0, "%s_tfuzz", name_any()); break;
	case 3:
		c->what = "upper";
		snprintf(b, sizeof(b), "%s", F1);
		for (i = 0; b[i]; i++)
			if (b[i] >= 'a' && b[i] <= 'z')
				b[i] -= 32;
		putf(0, "%s", b);
		break;
	case 4: c->what = "dot"; putf(0, "tfuzz.%x", rnd(~0u)); break;
	case 5:
		c->what = "changed";
		snprintf(b, sizeof(b), "%s", name_any());
		b[rnd(strlen(b))] = 'Q';
		putf(0, "%sQ", b);
		break;
	case 6:
		c->what = "high";
		for (n = 1 + rnd(32); n--; )
			putc_(0, 128 + rnd(128));
		break;
	case 7: c->what = "bracket"; putf(0, "%s[tfuzz_mod]", F1); break;
	case 8:
		c->what = "lower";
		fill_from(0, "abcdefghijklmnopqrstuvwxyz_", 1 + rnd(40));
		put(0, "_tfuzzq", 7);
		break;
	default: c->what = "!fn-zq"; putf(0, "!%szq", name_any()); break;
	}
	term(0);
}

static void gen_long(struct wcase *c)
{
	size_t len = long_lens[rnd(sizeof(long_lens) / sizeof(long_lens[0]))];
	size_t l;

	if (chance(30))
		len = len - 32 + rnd(64);
	switch (rnd(8)) {
	case 0: c->what = "a*"; fill(0, 'a', len); break;
	case 1:
		c->what = "fn+x*";
		l = strlen(F1);
		put(0, F1, l);
		fill(0, 'x', len > l ? len - l : 1);
		break;
	case 2:
		c->what = "alnum";
		put(0, "tfuzz_", 6);
		fill_from(0, "abcdefghijklmnopqrstuvwxyz0123456789_", len);
		break;
	case 3: c->what = "glob"; putc_(0, '*'); fill(0, 'q', len); putc_(0, '*'); break;
	case 4: c->what = "!long"; putc_(0, '!'); fill(0, 'z', len); break;
	case 5: c->what = "long:mod"; fill(0, 'x', len); put(0, ":mod:m", 6); break;
	case 6: c->what = "fn:long"; putf(0, "%s:", F1); fill(0, 'c', len); break;
	default: c->what = "globchars"; fill_from(0, "abz*?", len); put(0, "zq", 2); break;
	}
	term(0);
}

static void gen_glob(struct wcase *c)
{
	/* These match every function: valid, and slow to undo. */
	static const char *const all[] = { "**", "?*?", "*", "!**" };
	static const char *const g[] = {
		"zzz*qqq", "*[", "[a-", "**zq", "?*?zq", "zzz*", "*zzqq", "*zz*qq*",
		"tfuzz?", "[!a-z]*zzq", "\\*", "*\\", "[]", "[", "]", "[[[",
		"a[b-]c", "*.*.*.*zz", "!*zzq*", "?", "*?*?*?zzq", "[z-a]*",
		"*[]*", "[^a]zq*", "!**zq", "*\\[", "*zq\\", "[\\]-]zz*",
	};
	size_t n;

	if (rnd(1000) < 4) {
		c->what = PICK(all);
		putf(0, "%s", c->what);
		term(0);
		return;
	}
	switch (rnd(4)) {
	case 0:
		c->what = "random";
		fill_from(0, "*?[]!-^\\az", 1 + rnd(40));
		put(0, "zzq", 3);
		break;
	case 1:
		c->what = "stars";
		for (n = 1 + rnd(300); n--; )
			putc_(0, chance(50) ? '*' : '?');
		put(0, "zq", 2);
		break;
	default:
		c->what = PICK(g);
		putf(0, "%s", c->what);
		break;
	}
	term(0);
}

/* A name in two writes on one open: valid, or its rest is bad. */
static void gen_split(struct wcase *c)
{
	const char *f = chance(50) ? F1 : name_any();
	size_t l = strlen(f), k = 1 + rnd(l > 1 ? l - 1 : 1);

	c->nw = 2;
	switch (rnd(7)) {
	case 0:
	case 1:
		c->what = "valid";
		put(0, f, k);
		putf(1, "%s\n", f + k);
		break;
	case 2:
		c->what = "bad-rest";
		put(0, f, k);
		putf(1, "zzq_tfuzz\n");
		break;
	case 3:
		c->what = "cmd";
		putf(0, "%s:trace", cmd_target());
		putf(1, "on:abc\n");
		break;
	case 4:
		c->what = "mod";
		putf(0, "*:mo");
		putf(1, "d:\n");
		break;
	case 5:
		c->what = "overlong";
		put(0, "tfuzz_", 6);
		fill(1, 'y', 600 + rnd(200));
		putc_(1, '\n');
		break;
	default:
		c->what = "high";
		put(0, f, k);
		putf(1, "\377\n");
		break;
	}
}

static void gen_mod(struct wcase *c)
{
	static const char *const m[] = {
		":mod:", "*:mod:", "a:mod:b:c", "!:mod:x", "*:mod:tfuzz*",
		"*:mod:[x", "*:mod:?", ":mod:tfuzz_nomod", "!*:mod:tfuzz_notpending",
		"*:mod", "*:mod::", "*:MOD:x", "!:mod:", "!*:mod:", ":mod",
		"mod:", ":mod::mod:", "*:mod:\377\376", "*:mod:tfuzz_nomod:extra",
		"tfuzz_nosuch:mod:", "!tfuzz_nosuch:mod:tfuzz_nomod", "::mod:x",
		"*:mod:*", "!!*:mod:x", "!:mod:!",
	};
	/* "everything but module x": all of vmlinux, valid and slow to undo */
	static const char *const all[] = { "*:mod:!x", "*:mod:!" };

	if (rnd(1000) < 2) {
		c->what = PICK(all);
		putf(0, "%s", c->what);
		term(0);
		return;
	}
	switch (rnd(5)) {
	case 0:
		c->what = "long-module";
		put(0, "*:mod:", 6);
		fill_from(0, "abcdefghijklmnopqrstuvwxyz_", chance(50) ? 50 + rnd(30) :
			  long_lens[rnd(sizeof(long_lens) / sizeof(long_lens[0]))]);
		break;
	case 1:
		c->what = "fn:mod:";
		putf(0, chance(50) ? "%s:mod:" : "%s:mod", F1);
		break;
	case 2:
		c->what = "!fn:mod";
		putf(0, "!%s:mod:tfuzz_nomod", F1);
		break;
	default:
		c->what = PICK(m);
		putf(0, "%s", c->what);
		break;
	}
	term(0);
}

static void gen_cmd(struct wcase *c)
{
	static const char *const k[] = {
		"%s:nosuchcmd", "%s:traceon:abc", "%s:traceon:-1",
		"%s:traceon:99999999999999999999", ":traceon", "%s::",
		"%s:snapshot:x", "%s:stacktrace:", "%s:traceoff:1x", "%s:traceon:0x",
		"%s:traceoff:--1", "%s:enable_event", "%s:enable_event:",
		"%s:enable_event:sched", "%s:enable_event:tfuzz_nosys:tfuzz_noevent",
		"%s:enable_event:sched:tfuzz_noevent",
		"%s:disable_event:sched:sched_switch:abc",
		"%s:enable_event:sched:sched_switch:-5", "!%s:traceon", "!%s:dump",
		"!%s:cpudump", "!%s:snapshot", "!%s:stacktrace",
		"!%s:enable_event:sched:sched_switch", "tfuzz_nosuch:traceon",
		"tfuzz_nosuch:dump", "tfuzz_nosuch:cpudump",
		"tfuzz_nosuch*:stacktrace", "%s:TRACEON", "*zzq:snapshot", ":", "::",
		":::", "%s:stacktrace:abc", "%s:stacktrace:-1", "%s:snapshot:-1",
		"%s:traceoff:18446744073709551616", "%s:snapshot:1x",
		"tfuzz_nosuch:enable_event:sched:sched_switch", "%s:traceon:+-1",
		"!tfuzz_nosuch:traceon", "%s:enable_event::", "%s:disable_event:::",
		"%s:enable_event:sched:sched_switch:1x", "!:traceon", "%s:\377",
	};

	switch (rnd(6)) {
	case 0:
		c->what = "long-param";
		putf(0, "%s:traceon:", cmd_target());
		fill(0, 'x', 100 + rnd(600));
		break;
	case 1:
		c->what = "long-cmd";
		putf(0, "%s:", cmd_target());
		fill(0, 'c', 100 + rnd(600));
		break;
	default:
		c->what = PICK(k);
		putf(0, c->what, cmd_target());
		break;
	}
	term(0);
}

static void gen_index(struct wcase *c)
{
	static const char *const k[] = {
		"0", "00", "-1", "-0", "4294967295", "4294967296", "4294967297",
		"9223372036854775807", "9223372036854775808", "18446744073709551615",
		"18446744073709551616", "99999999999999999999", "1 2 3", "1x", "1.5",
		"0x1", "1e3", "1-3", "1,2", "!0", "!99999999999", "0000000000000000000000000000000",
		"11111111111111111111111111111111111111", "1:traceon:abc", "0:mod:x",
		"!-1", "1*", "*1", "0x", "077777777777777777777777",
	};

	switch (rnd(8)) {
	case 0: c->what = "past-end"; putf(0, "%zu", nrecs + 1 + rnd(1000)); break;
	case 1: c->what = "valid"; putf(0, "%u", 1 + rnd(nrecs)); break;
	case 2: c->what = "!past-end"; putf(0, "!%zu", nrecs + 1 + rnd(5)); break;
	default: c->what = PICK(k); putf(0, "%s", c->what); break;
	}
	term(0);
}

static void gen_pid(struct wcase *c)
{
	static const char *const k[] = {
		"x", "-1", "-0", "18446744073709551616", "99999999999999999999999",
		"1 x", "x 1", "0x", "0xg", "4194304", "2147483648", "0xfffffffff",
		"1e3", "1,2", "1;2", "$$", "\377", "1 2 3 4 5 x", "- 1", "1-2", "0b1",
		"1.0", "0 0 0 0 x", "\001", "99999999999 5", "   1", "+1", "++1",
		"4194303", "-4194303", "1 -1", "0x-1", "1\n2\nx", "01 08",
	};

	switch (rnd(6)) {
	case 0:
		c->what = "digits>127";
		fill(0, '1', 128 + rnd(200));
		break;
	case 1:
		c->what = "126+x";
		fill(0, '1', 126);
		putc_(0, 'x');
		break;
	case 2:
		c->what = "nul-inside";
		put(0, "1\0x", 3);
		break;
	default:
		c->what = PICK(k);
		putf(0, "%s", c->what);
		break;
	}
	term(0);
}

static void gen_profile(struct wcase *c)
{
	static const char *const k[] = {
		"x", "-1", "-0", "0x1", "1.0", " 1", " 0", "1 ", "0 ", "1\n\n", "0\n\n",
		"01x", "99999999999999999999999", "18446744073709551616", "on", "off",
		"true", "yes", "0 0", "1 1", "\n", " ", "+", "++1", "0b1", "1e0",
		"\331\240", "0\t", "1\r", "-", "0x", "1\n1", "\0" "1",
	};
	unsigned r = rnd(1000);

	if (r < 3) {
		/* Without a filter the profiler patches every function: slow. */
		c->what = "1 (valid)";
		putf(0, "1\n");
		return;
	}
	if (r < 50) {
		c->what = "0 (valid)";
		putf(0, chance(50) ? "0\n" : "0");
		return;
	}
	switch (rnd(8)) {
	case 0:
		c->what = "zeros>22+junk";
		fill(0, '0', 22 + rnd(10));
		putf(0, "junk");
		return;
	case 1:
		c->what = "0+spaces";
		putc_(0, '0');
		fill(0, ' ', 1 + rnd(40));
		return;
	default:
		c->what = PICK(k);
		put(0, c->what, strlen(c->what) ? strlen(c->what) : 2);
		return;
	}
}

static void gen_valid(struct wcase *c, const struct tfile *f)
{
	if (f->kind == K_PID) {
		switch (rnd(4)) {
		case 0: c->what = "pid"; putf(0, "%u\n", rnd(32768)); break;
		case 1: c->what = "spaces+pid"; putf(0, "  %u\n", rnd(4194304)); break;
		case 2: c->what = "pids"; putf(0, "%u %u %u\n", rnd(100), rnd(1000), rnd(99999)); break;
		default: c->what = "blank"; putf(0, "\n"); break;
		}
		return;
	}
	switch (rnd(8)) {
	case 0: c->what = "F1"; putf(0, "%s\n", F1); break;
	case 1: c->what = "name"; putf(0, "%s\n", name_any()); break;
	case 2: c->what = "!F1"; putf(0, "!%s\n", F1); break;
	case 3: c->what = "two words"; putf(0, "%s %s\n", F1, F2); break;
	case 4: c->what = "index"; putf(0, "%u\n", 1 + rnd(nrecs)); break;
	case 5:
		if (f->mods) {
			c->what = "pending mod";
			putf(0, "*:mod:tfuzz_m%u\n", rnd(10));
			break;
		}
		c->what = "F2";
		putf(0, "%s\n", F2);
		break;
	case 6:
		if (f->cmds) {
			static const char *const k[] = {
				"%s:stacktrace:%u\n", "%s:traceon:%u\n", "%s:traceoff:%u\n",
				"%s:stacktrace\n", "%s:enable_event:sched:sched_switch:%u\n",
			};
			c->what = PICK(k);
			if (strstr(c->what, "enable_event") && !have_sched_switch)
				c->what = k[0];
			putf(0, c->what, R, 1 + rnd(9));
			break;
		}
		c->what = "F1*";
		putf(0, "%s*\n", F1);
		break;
	default: c->what = "F1*"; putf(0, "%s*\n", F1); break;
	}
}

/* Copy gbuf[0] into the arena: anywhere, ending at a page end, or across one. */
static void place(struct wcase *c)
{
	size_t len = glen[0], off, end, b, k;
	unsigned m = rnd(100);

	if (m < 40 || len > arena_size - pagesz) {
		off = rnd(arena_size - len + 1);
	} else if (m < 70) {
		end = (len + pagesz - 1) / pagesz * pagesz;
		end += pagesz * rnd((arena_size - end) / pagesz + 1);
		off = end - len;
	} else {
		b = pagesz * (1 + rnd(arena_size / pagesz - 1));
		k = 1 + rnd(len < pagesz ? len : pagesz);
		off = b - k;
		if (off + len > arena_size)
			off = arena_size - len;
	}
	memcpy(arena + off, gbuf[0], len);
	c->ptr[0] = arena + off;
	c->cnt[0] = c->mapped[0] = len;
}

/* Buffers that run into an unmapped page, or start in one. */
static void gen_fault(struct wcase *c, const struct tfile *f)
{
	unsigned r = rnd(6);

	if (r == 0) {
		c->what = "unmapped";
		c->ptr[0] = arena + arena_size;
		c->cnt[0] = 1 + rnd(8192);
		c->mapped[0] = 0;
		return;
	}
	if (r == 1) {
		c->what = "NULL";
		c->ptr[0] = NULL;
		c->cnt[0] = 1 + rnd(100);
		c->mapped[0] = 0;
		return;
	}
	if (f->kind == K_PID) {
		c->what = r == 2 ? "pid+x->fault" : "pids->fault";
		putf(0, r == 2 ? "1 2" : "%u ", rnd(1000));
		if (r != 2)
			fill_from(0, "0123456789 ", rnd(20));
	} else if (f->kind == K_PROFILE) {
		c->what = "digit->fault";
		putf(0, r == 2 ? "1" : "0");
	} else if (r == 2) {
		c->what = "fn\\n+junk->fault";	/* a short count, valid */
		putf(0, "%s\n", F1);
		fill_from(0, "abc_", 1 + rnd(100));
	} else if (r == 3) {
		c->what = "prefix->fault";
		put(0, F1, 1 + rnd(strlen(F1)));
	} else {
		c->what = "name->fault";
		if (r == 4)
			putf(0, "tfuzz_nosuch_%u", rnd(99));
		else
			putf(0, "%s:traceon:", cmd_target());
	}
	memcpy(arena + arena_size - glen[0], gbuf[0], glen[0]);
	c->ptr[0] = arena + arena_size - glen[0];
	c->mapped[0] = glen[0];
	c->cnt[0] = glen[0] + 1 + rnd(4096);
}

static enum gen pick_gen(const struct tfile *f)
{
	static const struct { enum gen g; unsigned w; } filt[] = {
		{ G_RANDOM, 7 }, { G_NOSUCH, 3 }, { G_LONG, 14 }, { G_GLOB, 2 },
		{ G_SPLIT, 3 }, { G_MOD, 16 }, { G_CMD, 18 }, { G_INDEX, 10 },
		{ G_FAULT, 22 }, { G_VALID, 5 },
	}, pid[] = {
		{ G_PID, 70 }, { G_RANDOM, 15 }, { G_FAULT, 10 }, { G_VALID, 5 },
	}, prof[] = {
		{ G_PROFILE, 70 }, { G_RANDOM, 22 }, { G_FAULT, 8 },
	};
	const void *tab = f->kind == K_PID ? (const void *)pid :
			  f->kind == K_PROFILE ? (const void *)prof : (const void *)filt;
	size_t n = f->kind == K_PID ? 4 : f->kind == K_PROFILE ? 3 : 10, i;
	const struct { enum gen g; unsigned w; } *t = tab;
	unsigned r = rnd(100);

	for (i = 0; i < n - 1; i++) {
		if (r < t[i].w)
			return t[i].g;
		r -= t[i].w;
	}
	return t[n - 1].g;
}

static void generate(struct wcase *c, const struct tfile *f)
{
	memset(c, 0, sizeof(*c));
	glen[0] = glen[1] = 0;
	c->nw = 1;
	c->trunc = chance(f->kind == K_PID ? 5 : 20);
	c->gen = pick_gen(f);
	switch (c->gen) {
	case G_RANDOM: gen_random(c); break;
	case G_NOSUCH: gen_nosuch(c); break;
	case G_LONG: gen_long(c); break;
	case G_GLOB: gen_glob(c); break;
	case G_SPLIT: gen_split(c); break;
	case G_MOD: gen_mod(c); break;
	case G_CMD: gen_cmd(c); break;
	case G_INDEX: gen_index(c); break;
	case G_PID: gen_pid(c); break;
	case G_PROFILE: gen_profile(c); break;
	case G_VALID: gen_valid(c, f); break;
	case G_FAULT: gen_fault(c, f); return;
	case G_NR: break;
	}
	if (!glen[0])
		putc_(0, '\n');
	place(c);
	if (c->nw == 2) {
		c->ptr[1] = gbuf[1];
		c->cnt[1] = c->mapped[1] = glen[1];
	}
}

/* ------------------------------------------------------------- cases */

/* @a and @b hold the same lines, in any order. */
static int same_lines(const struct sbuf *a, const struct sbuf *b)
{
	struct line *x, *y;
	size_t nx = split_lines(a->p, a->len, &x), ny = split_lines(b->p, b->len, &y), i;
	int ok = nx == ny;

	qsort(x, nx, sizeof(*x), line_cmp);
	qsort(y, ny, sizeof(*y), line_cmp);
	for (i = 0; ok && i < nx; i++)
		ok = !line_cmp(&x[i], &y[i]);
	free(x);
	free(y);
	return ok;
}

/*
 * 6.1's truncating open whose write failed: the emptied filter, i.e. the
 * empty state's text plus the probes, which a filter file does not own.
 */
static int emptied(const struct tfile *f, const struct sbuf *b, const struct sbuf *a)
{
	struct sbuf want = { NULL, 0, 0 };
	const char *s0 = f->state_text[0];
	struct line *v;
	size_t n, i;
	int ok;

	if (!s0)
		return 0;
	sb_reserve(&want, strlen(s0) + b->len + 2);
	want.len = strlen(s0);
	memcpy(want.p, s0, want.len);
	if (f->cmds) {
		n = split_lines(b->p, b->len, &v);
		for (i = 0; i < n; i++) {
			if (!is_probe_line(&v[i]))
				continue;
			memcpy(want.p + want.len, v[i].p, v[i].n);
			want.len += v[i].n;
			want.p[want.len++] = '\n';
		}
		free(v);
	}
	ok = same_lines(&want, a);
	free(want.p);
	return ok;
}

static void show_case(const char *tag, long i, const struct tfile *f,
		      const struct wcase *c, int st, size_t max)
{
	int k;

	printf("tfuzz: %s case %ld (seed %llu): %s, open O_WRONLY|%s, generator %s/",
	       tag, i, (unsigned long long)seed, f->name,
	       c->trunc ? "O_TRUNC" : "O_APPEND", gen_names[c->gen]);
	print_escaped(c->what, strlen(c->what), 60);
	printf(", state %d\n", st);
	for (k = 0; k < c->nw; k++) {
		printf("tfuzz:   write %d of %d: %zu bytes", k + 1, c->nw, c->cnt[k]);
		if (c->mapped[k] < c->cnt[k])
			printf(" (%zu readable, then an unmapped page)", c->mapped[k]);
		if (k >= c->done)
			printf(", not issued");
		else if (c->ret[k] < 0)
			printf(", returned -1 %s", errname(c->err[k]));
		else
			printf(", returned %d", c->ret[k]);
		printf("\ntfuzz:   buffer %d: ", k + 1);
		if (!c->ptr[k])
			printf("NULL");
		else
			print_escaped(c->ptr[k], c->mapped[k], max);
		putchar('\n');
	}
}

static void run_case(long i)
{
	const struct sbuf *refp = &before;
	struct tfile *f;
	struct wcase c;
	int fd, k, rejected, cl, cerr = 0, e, st, err, shown;
	unsigned idx;
	ssize_t r;
	double t0;

	rs = seed * 0x2545f4914f6cdd1dull ^ ((uint64_t)i * 0x9e3779b97f4a7c15ull);
	splitmix(&rs);
	idx = rnd(nfiles);
	for (k = 0; k < nfiles && files[idx].dead; k++)
		idx = (idx + 1) % nfiles;
	f = &files[idx];
	if (f->dead)
		return;
	t0 = now();
	st = want_state(f, i);
	if (f->cur != st)
		set_state(f, st, 0);
	if (f->dead)
		return;
	st = f->cur;
	generate(&c, f);

	e = slurp(f->path, &before);
	if (e) {
		file_gone(f, -e, "reading");
		return;
	}
	fd = open(f->path, O_WRONLY | (c.trunc ? O_TRUNC : O_APPEND));
	if (fd < 0) {
		file_gone(f, errno, "opening");
		f->cur = -1;
		return;
	}
	if (f->kind == K_PID && c.trunc) {
		/* Both kernels empty the list at a truncating open. */
		e = slurp(f->path, &ref);
		if (e) {
			close(fd);
			file_gone(f, -e, "reading");
			return;
		}
		refp = &ref;
	}
	for (k = 0; k < c.nw; k++) {
		r = write(fd, c.ptr[k], c.cnt[k]);
		c.done = k + 1;
		c.ret[k] = r < 0 ? -1 : (int)r;
		c.err[k] = r < 0 ? errno : 0;
		if (r < 0 || (size_t)r < c.cnt[k])
			break;
	}
	rejected = c.ret[c.done - 1] < 0;
	err = c.err[c.done - 1];
	cl = close(fd);
	if (cl)
		cerr = errno;

	f->st.cases++, gst[c.gen].cases++, tot.cases++;
	if (rejected) {
		f->st.rejected++, gst[c.gen].rejected++, tot.rejected++;
		errcount[err < 255 ? err : 255]++;
	} else {
		f->st.valid++, gst[c.gen].valid++, tot.valid++;
	}
	if (cl) {
		f->st.close_err++, gst[c.gen].close_err++, tot.close_err++;
		if (shown_unexp++ < 5)
			printf("tfuzz: close(2) failed: %s, case %ld\n", errname(cerr), i);
	}
	if (rejected || cl) {
		e = slurp(f->path, &after);
		if (e) {
			file_gone(f, -e, "reading");
			return;
		}
		if (!same(refp, &after)) {
			f->cur = -1;
			if (rejected && !cl && ours == 0 && !strict && is_filter(f) &&
			    c.trunc && emptied(f, &before, &after)) {
				f->st.up_trunc++, gst[c.gen].up_trunc++, tot.up_trunc++;
				if (shown_up++ < 2) {
					show_case("upstream-trunc (6.1 publishes the emptied filter):",
						  i, f, &c, st, 200);
					diff_summary(refp, &after);
				}
			} else {
				f->st.changed++, gst[c.gen].changed++, tot.changed++;
				if (shown_fails++ < SHOW_FAILS) {
					show_case("FAIL: a rejected write changed the file:",
						  i, f, &c, st, (size_t)-1);
					if (cl)
						printf("tfuzz:   close(2) failed: %s\n", errname(cerr));
					diff_summary(refp, &after);
					printf("tfuzz:   reproduce: tfuzz -s %llu -c %ld%s\n",
					       (unsigned long long)seed, i, repro);
				}
			}
		}
	}
	shown = f->cur >= 0;
	if (!rejected || (f->kind == K_PID && c.trunc))
		f->cur = -1;
	if (f->cur != st)
		set_state(f, st, !rejected && (memchr(gbuf[0], ':', glen[0]) ||
						memchr(gbuf[1], ':', glen[1])));
	t0 = now() - t0;
	f->st.secs += t0;
	gst[c.gen].secs += t0;
	if (verbose && shown) {
		show_case(rejected ? "rejected" : "valid", i, f, &c, st, 200);
		printf("tfuzz:   %.2f ms\n", t0 * 1e3);
	}
}

/* -------------------------------------------------------- kernel log */

static int kmsg_fd = -1, kmsg_ours, kmsg_ctx;
static unsigned long nsplat;

static const char *const splats[] = {
	"WARNING:", "BUG:", "Oops", "ftrace failed", "ftrace faulted",
	"RCU stall", "detected stall", "self-detected stall", "lockdep", "KASAN",
	"Call Trace", "blocked for more than", "general protection fault",
	"Kernel panic",
};

static void kmsg_boot(const char *m)
{
	if (strstr(m, "bytes per record"))
		kmsg_ours = 1;
}

/*
 * Is a function of the project's core in /proc/kallsyms?  The boot line
 * kmsg_boot() looks for can have left the kernel's log buffer already.
 */
static int kallsyms_ours(void)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512];
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f))
		found = strstr(line, " ftrace_apply_text\n") != NULL;
	fclose(f);
	return found;
}

static void kmsg_check(const char *m)
{
	size_t i;

	if (kmsg_ctx) {
		kmsg_ctx--;
		printf("tfuzz:   kernel: %s\n", m);
		return;
	}
	for (i = 0; i < sizeof(splats) / sizeof(splats[0]); i++) {
		if (!strstr(m, splats[i]))
			continue;
		if (!nsplat++) {
			printf("tfuzz: KERNEL LOG during the run: %s\n", m);
			kmsg_ctx = 20;
		}
		return;
	}
}

/* Hand each message not read yet to @fn. */
static void kmsg_drain(void (*fn)(const char *))
{
	char b[8192], *m, *nl;
	ssize_t n;

	if (kmsg_fd < 0)
		return;
	for (;;) {
		n = read(kmsg_fd, b, sizeof(b) - 1);
		if (n < 0 && errno == EPIPE)
			continue;	/* overwritten: go on from the oldest */
		if (n <= 0)
			break;
		b[n] = 0;
		m = strchr(b, ';');
		if (!m)
			continue;
		m++;
		nl = strchr(m, '\n');
		if (nl)
			*nl = 0;
		fn(m);
	}
}

/* ------------------------------------------------------------- setup */

static struct sbuf aff;

static const char *find_name(const char *const *cands, size_t nc, const char *avoid)
{
	size_t i, j;

	for (j = 0; j < nc; j++) {
		if (avoid && !strcmp(cands[j], avoid))
			continue;
		for (i = 0; i < nnames; i++)
			if (!strcmp(names[i], cands[j]))
				return names[i];
	}
	return NULL;
}

static void load_names(void)
{
	static const char *const fc[] = {
		"vfs_fsync", "do_sys_poll", "vfs_fsync_range", "do_fsync",
		"vfs_statfs", "ksys_sync",
	};
	static const char *const rc[] = {
		"kernel_restart", "kernel_halt", "kernel_power_off", "ksys_sync",
	};
	size_t cap = 1 << 16;
	char *p, *e, *nl;

	if (slurp(T "available_filter_functions", &aff))
		die("reading available_filter_functions");
	names = malloc(cap * sizeof(*names));
	if (!names)
		die("malloc");
	for (p = aff.p, e = aff.p + aff.len; p < e; p = nl + 1) {
		nl = memchr(p, '\n', e - p);
		if (!nl)
			nl = e;
		*nl = 0;
		nrecs++;
		if (strchr(p, ' ') || strchr(p, '[') || !*p ||
		    !strncmp(p, "__ftrace_invalid_address", 24) || strlen(p) > 500)
			continue;
		if (nnames == cap) {
			names = realloc(names, (cap *= 2) * sizeof(*names));
			if (!names)
				die("realloc");
		}
		names[nnames++] = p;
	}
	if (nnames < 2)
		die("available_filter_functions has %zu names", nnames);
	R = find_name(rc, sizeof(rc) / sizeof(rc[0]), NULL);
	if (!R)
		R = names[nnames / 5];
	F1 = find_name(fc, sizeof(fc) / sizeof(fc[0]), R);
	if (!F1)
		F1 = names[nnames / 3];
	F2 = find_name(fc, sizeof(fc) / sizeof(fc[0]), F1);
	if (!F2 || F2 == R)
		F2 = names[nnames / 2];
	snprintf(F1nl, sizeof(F1nl), "%s\n", F1);
	snprintf(F2nl, sizeof(F2nl), "%s\n", F2);
	snprintf(Rprobe, sizeof(Rprobe), "%s:stacktrace:5\n", R);
	have_sched_switch = !access(T "events/sched/sched_switch", F_OK);
}

static int selected(const char *name)
{
	int i;
	const char *o;

	if (!nonly)
		return 1;
	for (i = 0; i < nonly; i++) {
		o = only[i];
		if (!strncmp(o, T, strlen(T)))
			o += strlen(T);
		if (!strcmp(o, name))
			return 1;
	}
	return 0;
}

static const struct {
	const char *name;
	enum kind kind;
	int cmds, mods, inst;
} table[] = {
	{ "set_ftrace_filter", K_FILTER, 1, 1, 0 },
	{ "set_ftrace_notrace", K_NOTRACE, 0, 1, 0 },
	{ "set_graph_function", K_GRAPH, 0, 0, 0 },
	{ "set_graph_notrace", K_GRAPH_NOTRACE, 0, 0, 0 },
	{ "stack_trace_filter", K_STACK, 0, 0, 0 },
	{ "set_ftrace_pid", K_PID, 0, 0, 0 },
	{ "set_ftrace_notrace_pid", K_PID, 0, 0, 0 },
	{ "function_profile_enabled", K_PROFILE, 0, 0, 0 },
	{ "set_ftrace_filter", K_FILTER, 1, 1, 1 },
	{ "set_ftrace_notrace", K_NOTRACE, 0, 1, 1 },
	{ "set_ftrace_pid", K_PID, 0, 0, 1 },
	{ "set_ftrace_notrace_pid", K_PID, 0, 0, 1 },
};
#define NTABLE (sizeof(table) / sizeof(table[0]))

static int made_instance;
static char inst_dir[160];

static void setup_files(void)
{
	char name[96];
	size_t t;
	int i, want_inst = 0, top = 0, used[16] = { 0 };
	struct tfile *f;

	snprintf(inst_dir, sizeof(inst_dir), T "instances/%s", instance);
	for (t = 0; t < NTABLE; t++) {
		snprintf(name, sizeof(name), "%s%s%s%s", table[t].inst ? "instances/" : "",
			 table[t].inst ? instance : "", table[t].inst ? "/" : "", table[t].name);
		for (i = 0; i < nonly; i++) {
			const char *o = only[i];

			if (!strncmp(o, T, strlen(T)))
				o += strlen(T);
			if (!strcmp(o, name))
				used[i] = 1;
		}
		if (selected(name) && table[t].inst)
			want_inst = 1;
	}
	for (i = 0; i < nonly; i++)
		if (!used[i]) {
			errno = EINVAL;
			die("-f %s: not a file tfuzz knows (see the list in its source)", only[i]);
		}
	if (want_inst) {
		if (mkdir(inst_dir, 0755) && errno == EEXIST) {
			printf("tfuzz: note: %s exists (left over?); removing it\n", inst_dir);
			if (rmdir(inst_dir))
				printf("tfuzz: note: rmdir %s: %s\n", inst_dir, strerror(errno));
			mkdir(inst_dir, 0755);
		}
		if (access(inst_dir, F_OK)) {
			printf("tfuzz: UNEXPECTED: cannot create %s: %s\n", inst_dir, strerror(errno));
			unexpected++;
		} else {
			made_instance = 1;
		}
	}
	for (t = 0; t < NTABLE; t++) {
		snprintf(name, sizeof(name), "%s%s%s%s", table[t].inst ? "instances/" : "",
			 table[t].inst ? instance : "", table[t].inst ? "/" : "", table[t].name);
		if (!selected(name) || (table[t].inst && !made_instance))
			continue;
		f = &files[nfiles];
		memset(f, 0, sizeof(*f));
		snprintf(f->name, sizeof(f->name), "%s", name);
		snprintf(f->path, sizeof(f->path), T "%s", name);
		if (access(f->path, F_OK)) {
			printf("tfuzz: skip %s: not on this kernel\n", name);
			continue;
		}
		f->kind = table[t].kind;
		f->cmds = table[t].cmds;
		f->mods = table[t].mods;
		f->instance = table[t].inst;
		f->nstates = f->kind == K_PID ? 3 : f->kind == K_PROFILE ? 1 :
			     f->cmds ? 4 : 3;
		f->cur = -1;
		nfiles++;
		if (!f->instance)
			top = 1;
	}
	if (!nfiles) {
		errno = ENOENT;
		die("no file to fuzz");
	}
	if (top) {
		const char *nop = "nop\n";

		if (slurp(T "current_tracer", &tmp) == 0 && strcmp(tmp.p, "nop\n"))
			printf("tfuzz: current_tracer was %.*s, setting nop\n",
			       (int)tmp.len - 1, tmp.p);
		if (put_words(T "current_tracer", 1, &nop, 1))
			die("setting current_tracer");
	}
	if (made_instance) {
		char ct[200];
		const char *nop = "nop\n";

		snprintf(ct, sizeof(ct), "%s/current_tracer", inst_dir);
		put_words(ct, 1, &nop, 1);
	}
}

/*
 * -P FILE WORD...: two processes pwrite(2) whole words ("WORD\n", each a
 * function name) to one open FILE at once, COUNT writes each (the first
 * the even words, the second the odd ones, from the first again after
 * the last), then close it.  pwrite(2) does not take the file position lock that serialises
 * write(2) on a shared file, so the two writes meet in the kernel's write
 * handler; 6.1 serialises them there (parser_lock), and every write of a
 * valid name must succeed.  Prints how many failed; exit 1 if any did.
 */
static int shared_fd_race(const char *file, char **words, int nwords)
{
	char path[300], buf[512];
	long failed = 0, i;
	int fd, p, st;
	pid_t pid[2];

	snprintf(path, sizeof(path), "%s%s", file[0] == '/' ? "" : T, file);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		die("open %s", path);
	for (p = 0; p < 2; p++) {
		pid[p] = fork();
		if (pid[p] < 0)
			die("fork");
		if (pid[p])
			continue;
		for (i = 0; i < count; i++) {
			int len = snprintf(buf, sizeof(buf), "%s\n",
					   words[(2 * i + p) % nwords]);

			if (pwrite(fd, buf, len, 0) != len && ++failed <= 3)
				printf("tfuzz: shared-fd: writer %d: '%.*s': %s\n",
				       p, len - 1, buf, strerror(errno));
		}
		_exit(failed > 255 ? 255 : failed);
	}
	for (p = 0; p < 2; p++) {
		if (waitpid(pid[p], &st, 0) != pid[p] || !WIFEXITED(st))
			die("waitpid");
		failed += WEXITSTATUS(st);
	}
	if (close(fd))
		printf("tfuzz: shared-fd: close: %s\n", strerror(errno));
	printf("tfuzz: shared-fd: %ld of %ld writes failed\n", failed, 2 * count);
	return failed ? 1 : 0;
}

/* Read @fd to its end into @b: with pread(2) from offset 0 if @from_zero. */
static void read_to_end(int fd, struct sbuf *b, int from_zero)
{
	ssize_t n;

	b->len = 0;
	for (;;) {
		sb_reserve(b, b->len + 65537);
		n = from_zero ? pread(fd, b->p + b->len, b->cap - b->len - 1, b->len) :
				read(fd, b->p + b->len, b->cap - b->len - 1);
		if (n < 0)
			die("%s", from_zero ? "pread" : "read");
		if (!n)
			break;
		b->len += n;
	}
	b->p[b->len] = 0;
}

/* How many lines of @b contain @s. */
static long lines_with(const struct sbuf *b, const char *s)
{
	struct line *l;
	size_t n = split_lines(b->p, b->len, &l), i;
	long hits = 0;

	for (i = 0; i < n; i++)
		if (memmem(l[i].p, l[i].n, s, strlen(s)))
			hits++;
	free(l);
	return hits;
}

/*
 * -R FILE STRING CMD...: read FILE to its end, run CMD, then read the same
 * open descriptor again from offset 0, once with pread(2) and once after
 * lseek(2) to 0.  Prints how many lines contain STRING in each pass:
 *   tfuzz: rewind: first N pread N lseek N
 * (A rewound listing must show what CMD changed, a module it loaded say.)
 */
static int rewind_read(const char *file, const char *str, char **cmd)
{
	struct sbuf b = { 0 };
	long first, again;
	char path[300];
	int fd, st;
	pid_t pid;

	snprintf(path, sizeof(path), "%s%s", file[0] == '/' ? "" : T, file);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		die("open %s", path);
	read_to_end(fd, &b, 0);
	first = lines_with(&b, str);
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		execvp(cmd[0], cmd);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st)) {
		printf("tfuzz: rewind: %s failed\n", cmd[0]);
		return 2;
	}
	read_to_end(fd, &b, 1);
	again = lines_with(&b, str);
	if (lseek(fd, 0, SEEK_SET))
		die("lseek");
	read_to_end(fd, &b, 0);
	printf("tfuzz: rewind: first %ld pread %ld lseek %ld\n", first, again,
	       lines_with(&b, str));
	close(fd);
	free(b.p);
	return 0;
}

static void usage(void)
{
	printf("usage: tfuzz [-n COUNT] [-s SEED] [-c CASE] [-f FILE]... [-i INSTANCE]\n"
	       "             [-m ours|upstream] [-S] [-v]\n"
	       "       tfuzz [-n COUNT] -P FILE WORD...\n"
	       "       tfuzz -R FILE STRING CMD [ARG]...\n");
	exit(2);
}

int main(int argc, char **argv)
{
	double t0, el;
	int opt, i, s, rc;
	const char *race = NULL, *rewind_file = NULL;
	long c, step;

	setvbuf(stdout, NULL, _IOLBF, 0);
	while ((opt = getopt(argc, argv, "+n:s:c:f:i:m:P:R:Sv")) != -1) {
		switch (opt) {
		case 'n': count = strtol(optarg, NULL, 0); break;
		case 's': seed = strtoull(optarg, NULL, 0); break;
		case 'c': only_case = strtol(optarg, NULL, 0); verbose = 1; break;
		case 'f':
			if (nonly == 16)
				usage();
			only[nonly++] = optarg;
			break;
		case 'i': instance = optarg; break;
		case 'm':
			if (!strcmp(optarg, "ours"))
				ours = 1;
			else if (!strcmp(optarg, "upstream"))
				ours = 0;
			else
				usage();
			break;
		case 'S': strict = 1; break;
		case 'v': verbose = 1; break;
		case 'P': race = optarg; break;
		case 'R': rewind_file = optarg; break;
		default: usage();
		}
	}
	if (rewind_file) {
		if (argc - optind < 2)
			usage();
		return rewind_read(rewind_file, argv[optind], argv + optind + 1);
	}
	if (race) {
		if (optind == argc || count < 1)
			usage();
		return shared_fd_race(race, argv + optind, argc - optind);
	}
	if (optind != argc || count < 0)
		usage();
	for (i = 0; i < nonly; i++)
		snprintf(repro + strlen(repro), sizeof(repro) - strlen(repro),
			 " -f %s", only[i]);
	snprintf(repro + strlen(repro), sizeof(repro) - strlen(repro), "%s%s%s%s%s",
		 strcmp(instance, "tfuzz") ? " -i " : "",
		 strcmp(instance, "tfuzz") ? instance : "",
		 ours < 0 ? "" : ours ? " -m ours" : " -m upstream",
		 strict ? " -S" : "", "");

	pagesz = sysconf(_SC_PAGESIZE);
	arena_size = (32768 + pagesz - 1) / pagesz * pagesz;
	arena = mmap(NULL, arena_size + pagesz, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (arena == MAP_FAILED || mprotect(arena + arena_size, pagesz, PROT_NONE))
		die("mmap");

	kmsg_fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	if (kmsg_fd < 0)
		printf("tfuzz: note: /dev/kmsg: %s; the kernel log is not checked\n",
		       strerror(errno));
	kmsg_drain(kmsg_boot);
	if (ours < 0) {
		ours = kmsg_ours || kallsyms_ours();
		if (kmsg_fd < 0)
			ours = 1;	/* cannot tell: hold it to ours */
	}

	if (access(T "available_filter_functions", R_OK))
		die("no %savailable_filter_functions", T);
	load_names();
	setup_files();
	printf("tfuzz: seed %llu, %ld cases, kernel semantics: %s%s; names %s %s, probe %s; %zu functions\n",
	       (unsigned long long)seed, only_case >= 0 ? 1 : count,
	       ours ? "ours" : "upstream 6.1", strict ? " (strict)" : "", F1, F2, R, nrecs);
	for (i = 0; i < nfiles; i++) {
		struct tfile *f = &files[i];

		for (s = f->nstates - 1; s >= 0; s--)
			set_state(f, s, 1);
		printf("tfuzz: file %s:", f->name);
		for (s = 0; s < f->nstates; s++)
			printf(" state %d %s", s, f->usable[s] ? "ok" : "unusable");
		putchar('\n');
	}

	t0 = now();
	if (only_case >= 0) {
		run_case(only_case);
	} else {
		step = count >= 10000 ? count / 10 : 0;
		for (c = 0; c < count; c++) {
			run_case(c);
			if (step && (c + 1) % step == 0)
				printf("tfuzz: progress %ld/%ld cases, %.1f s, %lu changed-on-reject\n",
				       c + 1, count, now() - t0, tot.changed);
		}
	}
	el = now() - t0;

	for (i = 0; i < nfiles; i++)
		if (!files[i].dead && files[i].usable[0])
			set_state(&files[i], 0, 1);
	if (made_instance && rmdir(inst_dir)) {
		printf("tfuzz: UNEXPECTED: rmdir %s: %s\n", inst_dir, strerror(errno));
		unexpected++;
	}
	kmsg_drain(kmsg_check);

	printf("tfuzz: %-40s %7s %8s %7s %7s %9s %8s %7s\n", "file", "cases", "rejected",
	       "valid", "changed", "close-err", "up-trunc", "ms/case");
	for (i = 0; i < nfiles; i++) {
		struct stats *t = &files[i].st;

		printf("tfuzz: %-40s %7lu %8lu %7lu %7lu %9lu %8lu %7.2f%s\n", files[i].name,
		       t->cases, t->rejected, t->valid, t->changed, t->close_err,
		       t->up_trunc, t->cases ? t->secs * 1e3 / t->cases : 0.0,
		       files[i].dead ? " (vanished)" : "");
	}
	printf("tfuzz: %-40s %7s %8s %7s %7s %9s %8s %7s\n", "generator", "cases", "rejected",
	       "valid", "changed", "close-err", "up-trunc", "ms/case");
	for (i = 0; i < G_NR; i++) {
		struct stats *t = &gst[i];

		if (t->cases)
			printf("tfuzz: %-40s %7lu %8lu %7lu %7lu %9lu %8lu %7.2f\n", gen_names[i],
			       t->cases, t->rejected, t->valid, t->changed, t->close_err,
			       t->up_trunc, t->secs * 1e3 / t->cases);
	}
	printf("tfuzz: rejected by errno:");
	for (i = 0; i < 256; i++)
		if (errcount[i])
			printf(" %s %lu,", i == 255 ? "other" : errname(i), errcount[i]);
	putchar('\n');
	if (tot.up_trunc)
		printf("tfuzz: %lu rejected truncating writes published 6.1's emptied filter "
		       "(its documented behaviour; not counted as changed-on-reject; -S counts them)\n",
		       tot.up_trunc);
	printf("tfuzz: unexpected: %lu (of which %lu files not going back to their state), "
	       "kernel log splats: %lu%s\n", unexpected, restore_bad, nsplat,
	       kmsg_fd < 0 ? " (not checked)" : "");
	printf("tfuzz: elapsed %.1f s, %.0f cases/s\n", el, el > 0 ? tot.cases / el : 0.0);
	printf("tfuzz: %lu cases, %lu rejected, %lu valid, %lu changed-on-reject, "
	       "%lu close-errors, %.0f seconds\n", tot.cases, tot.rejected, tot.valid,
	       tot.changed, tot.close_err, el);
	rc = tot.changed || unexpected || nsplat;
	return rc;
}
