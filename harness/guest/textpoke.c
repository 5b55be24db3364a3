// SPDX-License-Identifier: GPL-2.0
/*
 * textpoke CMD: run CMD (with sh -c) while a perf event asks for
 * PERF_RECORD_TEXT_POKE on every CPU, then print each text_poke record
 * the kernel made meanwhile, one line each:
 *
 *	POKE <addr> <symbol>+0x<offset> <old bytes> <new bytes>
 *
 * (hex, "-" for no bytes, the symbol from /proc/kallsyms or "?"), and a last line "LOST <n>" with the number of
 * records the ring buffers had no room for.  x86 reports every
 * instruction it patches this way, for decoders of hardware traces
 * (harness/ftt/text-poke-records.tc).  Exit 0, or 1 with a message.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_CPUS	64
#define DATA_PAGES	512	/* per CPU: 2 MiB with 4 KiB pages */

struct ring {
	int fd;
	struct perf_event_mmap_page *meta;
	unsigned char *data;
	size_t size;
};

struct sym {
	unsigned long long addr;
	char name[128];
};

static struct sym *syms;
static size_t nsyms;

static int sym_cmp(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Read /proc/kallsyms (text symbols) into syms[], sorted by address. */
static void load_syms(void)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	size_t cap = 0;
	char line[256], type;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		struct sym *s;

		if (nsyms == cap) {
			cap = cap ? 2 * cap : 65536;
			syms = realloc(syms, cap * sizeof(*syms));
			if (!syms)
				exit(1);
		}
		s = &syms[nsyms];
		if (sscanf(line, "%llx %c %127s", &s->addr, &type, s->name) == 3 &&
		    (type == 't' || type == 'T') && s->addr)
			nsyms++;
	}
	fclose(f);
	qsort(syms, nsyms, sizeof(*syms), sym_cmp);
}

/* Print the symbol @addr is in, as symbol+0xoffset, or "?". */
static void print_sym(unsigned long long addr)
{
	size_t lo = 0, hi = nsyms;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo) {
		printf("?");
		return;
	}
	printf("%s+0x%llx", syms[lo - 1].name, addr - syms[lo - 1].addr);
}

static int open_on(int cpu)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_DUMMY;
	attr.text_poke = 1;
	attr.disabled = 1;
	return syscall(SYS_perf_event_open, &attr, -1, cpu, -1, 0);
}

static void hex(const unsigned char *p, unsigned int n)
{
	unsigned int i;

	if (!n)
		putchar('-');
	for (i = 0; i < n; i++)
		printf("%02x", p[i]);
}

/* Copy @len bytes at ring offset @off out of the circular buffer. */
static void ring_copy(const struct ring *r, uint64_t off, void *to, size_t len)
{
	size_t at = off % r->size, first = r->size - at;

	if (first >= len) {
		memcpy(to, r->data + at, len);
	} else {
		memcpy(to, r->data + at, first);
		memcpy((char *)to + first, r->data, len - first);
	}
}

/* Print the records of @r; return the number it reports lost. */
static uint64_t drain(struct ring *r)
{
	uint64_t head = __atomic_load_n(&r->meta->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = r->meta->data_tail, lost = 0;
	unsigned char rec[65536];

	while (tail < head) {
		struct perf_event_header h;

		ring_copy(r, tail, &h, sizeof(h));
		if (h.size < sizeof(h))
			break;
		ring_copy(r, tail, rec, h.size);
		if (h.type == PERF_RECORD_TEXT_POKE) {
			/* header, u64 addr, u16 old_len, u16 new_len, bytes */
			uint64_t addr;
			uint16_t old_len, new_len;

			memcpy(&addr, rec + 8, 8);
			memcpy(&old_len, rec + 16, 2);
			memcpy(&new_len, rec + 18, 2);
			printf("POKE %llx ", (unsigned long long)addr);
			print_sym(addr);
			putchar(' ');
			hex(rec + 20, old_len);
			putchar(' ');
			hex(rec + 20 + old_len, new_len);
			putchar('\n');
		} else if (h.type == PERF_RECORD_LOST) {
			uint64_t n;

			memcpy(&n, rec + 16, 8);
			lost += n;
		}
		tail += h.size;
	}
	__atomic_store_n(&r->meta->data_tail, tail, __ATOMIC_RELEASE);
	return lost;
}

int main(int argc, char **argv)
{
	long page = sysconf(_SC_PAGESIZE);
	int ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	struct ring rings[MAX_CPUS];
	uint64_t lost = 0;
	int cpu, rc;

	if (argc != 2) {
		fprintf(stderr, "usage: textpoke CMD\n");
		return 1;
	}
	if (ncpu > MAX_CPUS)
		ncpu = MAX_CPUS;
	for (cpu = 0; cpu < ncpu; cpu++) {
		struct ring *r = &rings[cpu];
		void *m;

		r->fd = open_on(cpu);
		if (r->fd < 0) {
			fprintf(stderr, "perf_event_open(text_poke) on CPU %d: %s\n",
				cpu, strerror(errno));
			return 1;
		}
		r->size = DATA_PAGES * page;
		m = mmap(NULL, page + r->size, PROT_READ | PROT_WRITE,
			 MAP_SHARED, r->fd, 0);
		if (m == MAP_FAILED) {
			fprintf(stderr, "mmap: %s\n", strerror(errno));
			return 1;
		}
		r->meta = m;
		r->data = (unsigned char *)m + page;
		ioctl(r->fd, PERF_EVENT_IOC_ENABLE, 0);
	}
	load_syms();
	rc = system(argv[1]);
	for (cpu = 0; cpu < ncpu; cpu++)
		ioctl(rings[cpu].fd, PERF_EVENT_IOC_DISABLE, 0);
	for (cpu = 0; cpu < ncpu; cpu++)
		lost += drain(&rings[cpu]);
	printf("LOST %llu\n", (unsigned long long)lost);
	if (rc) {
		fprintf(stderr, "textpoke: the command failed (%d)\n", rc);
		return 1;
	}
	return 0;
}
