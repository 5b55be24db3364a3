// SPDX-License-Identifier: GPL-2.0
/*
 * The function profiler: function_profile_enabled and trace_stat/functionN.
 *
 * Each CPU counts hits (and, with the graph tracer, time) per function in
 * its own open-addressing table keyed by call-site address.  The tables
 * are sized once, for every record that exists when profiling starts, so
 * the callback never allocates; it runs with interrupts off, which keeps
 * an interrupt from touching the same table half way through an update.
 * A table that fills up (many modules loaded later) stops counting new
 * functions and says so in the kernel log once.
 */
#include <linux/hash.h>
#include <linux/kallsyms.h>
#include <linux/vmalloc.h>

#include "ftrace_core.h"
#include "trace_stat.h"

struct prof_entry {
	unsigned long ip;
	unsigned long counter;
	unsigned long long time;
	unsigned long long time_squared;
};

/*
 * A CPU's entries.  trace_stat keeps pointers to entries from the open of
 * a functionN file until its release (stat_release() per entry), so an
 * array that is replaced by a larger one while pointers are out is only
 * retired, and freed when the last pointer comes back.
 */
struct prof_buf {
	unsigned int size;		/* entries, a power of two */
	unsigned int pins;		/* entry pointers trace_stat holds */
	bool replaced;			/* no table uses it: on prof_retired */
	struct list_head retired;
	struct prof_entry e[];
};

struct prof_table {
	struct tracer_stat stat;
	struct prof_buf *buf;
	bool full;
	bool busy;		/* an update is running (an NMI must not enter) */
};

static DEFINE_PER_CPU(struct prof_table, prof_tables);
static DEFINE_MUTEX(prof_lock);		/* tables, pins, prof_retired */
static LIST_HEAD(prof_retired);
static bool prof_enabled;
#ifdef CONFIG_FUNCTION_GRAPH_TRACER
static bool prof_graph_time = true;	/* include time spent in callees */
#endif

static struct prof_entry *prof_slot(struct prof_table *t, unsigned long ip,
				    bool add)
{
	struct prof_buf *buf = t->buf;
	unsigned int mask = buf->size - 1, i, n;

	for (n = 0, i = hash_long(ip, ilog2(buf->size)); n < buf->size;
	     n++, i = (i + 1) & mask) {
		if (buf->e[i].ip == ip)
			return &buf->e[i];
		if (!buf->e[i].ip) {
			if (!add)
				return NULL;
			buf->e[i].ip = ip;
			return &buf->e[i];
		}
	}
	if (!t->full)
		pr_info("ftrace: function profiler table full on CPU %d\n",
			smp_processor_id());
	t->full = true;
	return NULL;
}

/*
 * The table of this CPU, claimed for an update; NULL when profiling is off
 * or an update is already running here (an NMI that hit it).  Called with
 * interrupts off.
 */
static struct prof_table *prof_claim(void)
{
	struct prof_table *t = this_cpu_ptr(&prof_tables);

	if (!READ_ONCE(prof_enabled) || !t->buf || t->busy)
		return NULL;
	t->busy = true;
	barrier();
	return t;
}

static void prof_unclaim(struct prof_table *t)
{
	barrier();
	t->busy = false;
}

static void prof_hit(unsigned long ip)
{
	struct prof_table *t;
	struct prof_entry *e;
	unsigned long flags;

	local_irq_save(flags);
	t = prof_claim();
	if (t) {
		e = prof_slot(t, ip, true);
		if (e)
			e->counter++;
		prof_unclaim(t);
	}
	local_irq_restore(flags);
}

#ifdef CONFIG_FUNCTION_GRAPH_TRACER
static void prof_add_time(unsigned long ip, unsigned long long t_ns)
{
	struct prof_table *t;
	struct prof_entry *e;
	unsigned long flags;

	local_irq_save(flags);
	t = prof_claim();
	if (t) {
		e = prof_slot(t, ip, false);
		if (e) {
			e->time += t_ns;
			e->time_squared += t_ns * t_ns;
		}
		prof_unclaim(t);
	}
	local_irq_restore(flags);
}

static ftrace_graph_entry_cb(prof_entry_cb)
{
	struct ftrace_ret_stack *rs;

	prof_hit(trace->func);
	rs = ftrace_graph_get_ret_stack(current, 0);
	if (rs)
		rs->subtime = 0;
	return 1;
}

/*
 * With graph-time off, a function's time excludes its children: each
 * return adds its own time to the parent's subtime.
 */
static ftrace_graph_return_cb(prof_return_cb)
{
	unsigned long long t = trace->rettime - trace->calltime;
	struct ftrace_ret_stack *rs;

	if (!prof_graph_time) {
		rs = ftrace_graph_get_ret_stack(current, 1);
		if (rs)
			rs->subtime += t;
		rs = ftrace_graph_get_ret_stack(current, 0);
		if (rs)
			t = rs->subtime < t ? t - rs->subtime : 0;
	}
	prof_add_time(trace->func, t);
}

static struct fgraph_ops prof_graph_ops = {
	.entryfunc = prof_entry_cb,
	.retfunc = prof_return_cb,
};

/* With the graph tracer, the profiler also times each call. */
static int prof_register(void)
{
	ftrace_prof_graph_global_kbase(&prof_graph_ops);
	return register_ftrace_graph(&prof_graph_ops);
}

static void prof_unregister(void)
{
	unregister_ftrace_graph(&prof_graph_ops);
}
#else
static void prof_func(unsigned long ip, unsigned long parent_ip,
		      struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	prof_hit(ip);
}

static struct ftrace_ops prof_ops = {
	.func = prof_func,
	.flags = FTRACE_OPS_FL_RECURSION,
};

static int prof_register(void)
{
	ftrace_prof_global_kbase(&prof_ops);
	return register_ftrace_function(&prof_ops);
}

static void prof_unregister(void)
{
	unregister_ftrace_function(&prof_ops);
}
#endif

#ifdef CONFIG_FUNCTION_GRAPH_TRACER
/**
 * ftrace_graph_graph_time_control - count children in a function's time?
 * @enable: true to include the time spent in called functions
 */
void ftrace_graph_graph_time_control(bool enable)
{
	prof_graph_time = enable;
}
#endif

static void prof_buf_put(struct prof_buf *buf)
{
	lockdep_assert_held(&prof_lock);
	if (buf->pins) {
		buf->replaced = true;
		list_add(&buf->retired, &prof_retired);
		return;
	}
	vfree(buf);
}

/*
 * Size every CPU's table for at least @size entries (a power of two, for
 * the records that exist now) and clear it.  Called with prof_lock held
 * while profiling is off, so no callback touches the tables.
 */
static int prof_tables_reset_to(unsigned int size)
{
	struct prof_buf *buf;
	struct prof_table *t;
	int cpu;

	lockdep_assert_held(&prof_lock);
	for_each_possible_cpu(cpu) {
		t = per_cpu_ptr(&prof_tables, cpu);
		if (t->buf && t->buf->size < size) {
			buf = vzalloc(struct_size(buf, e, size));
			if (!buf)
				return -ENOMEM;
			buf->size = size;
			prof_buf_put(t->buf);
			t->buf = buf;
		} else if (!t->buf) {
			t->buf = vzalloc(struct_size(t->buf, e, size));
			if (!t->buf)
				return -ENOMEM;
			t->buf->size = size;
		}
		memset(t->buf->e, 0, array_size(t->buf->size, sizeof(t->buf->e[0])));
		t->full = false;
	}
	return 0;
}

#ifdef CONFIG_DYNAMIC_FTRACE
/* How many functions the profiler may see. */
static unsigned long prof_functions(void)
{
	return ftrace_nr_records();
}
#else
/* Any function may call mcount: size for a kernel's worth of them. */
static unsigned long prof_functions(void)
{
	return 20000;
}
#endif

static int prof_start(void)
{
	int ret;

	ret = prof_tables_reset_to(roundup_pow_of_two(prof_functions() * 3 / 2 + 16));

	if (ret)
		return ret;
	WRITE_ONCE(prof_enabled, true);
	ret = prof_register();
	if (ret)
		WRITE_ONCE(prof_enabled, false);
	return ret;
}

static void prof_stop(void)
{
	WRITE_ONCE(prof_enabled, false);
	prof_unregister();
}

static ssize_t prof_enable_read(struct file *filp, char __user *ubuf,
				size_t cnt, loff_t *ppos)
{
	char buf[4];
	int n = scnprintf(buf, sizeof(buf), "%d\n", prof_enabled);

	return simple_read_from_buffer(ubuf, cnt, ppos, buf, n);
}

static ssize_t prof_enable_write(struct file *filp, const char __user *ubuf,
				 size_t cnt, loff_t *ppos)
{
	unsigned long val;
	int ret = kstrtoul_from_user(ubuf, cnt, 10, &val);

	if (ret)
		return ret;
	scoped_guard(mutex, &prof_lock) {
		if (val && !prof_enabled)
			ret = prof_start();
		else if (!val && prof_enabled)
			prof_stop();
	}
	*ppos += ret ? 0 : cnt;
	return ret ?: cnt;
}

static const struct file_operations prof_enable_fops = {
	.open = tracing_open_generic,
	.read = prof_enable_read,
	.write = prof_enable_write,
	.llseek = default_llseek,
};

/* trace_stat iteration over one CPU's table; each pointer out is pinned. */
static struct prof_entry *next_used(struct prof_buf *buf, struct prof_entry *e)
{
	for (; e < buf->e + buf->size; e++) {
		if (e->ip && e->counter) {
			buf->pins++;
			return e;
		}
	}
	return NULL;
}

/* The array @e belongs to: a current table's or a retired one. */
static struct prof_buf *buf_of(struct prof_entry *e)
{
	struct prof_buf *buf;
	int cpu;

	lockdep_assert_held(&prof_lock);
	for_each_possible_cpu(cpu) {
		buf = per_cpu_ptr(&prof_tables, cpu)->buf;
		if (buf && e >= buf->e && e < buf->e + buf->size)
			return buf;
	}
	list_for_each_entry(buf, &prof_retired, retired)
		if (e >= buf->e && e < buf->e + buf->size)
			return buf;
	return NULL;
}

static void *stat_start(struct tracer_stat *stat)
{
	struct prof_table *t = container_of(stat, struct prof_table, stat);

	guard(mutex)(&prof_lock);
	return t->buf ? next_used(t->buf, t->buf->e) : NULL;
}

static void *stat_next(void *prev, int idx)
{
	struct prof_buf *buf;

	guard(mutex)(&prof_lock);
	buf = buf_of(prev);
	return buf ? next_used(buf, (struct prof_entry *)prev + 1) : NULL;
}

static void stat_release(void *stat)
{
	struct prof_buf *buf;

	guard(mutex)(&prof_lock);
	buf = buf_of(stat);
	if (WARN_ON_ONCE(!buf || !buf->pins))
		return;
	if (!--buf->pins && buf->replaced) {
		list_del(&buf->retired);
		vfree(buf);
	}
}

static int stat_cmp(const void *pa, const void *pb)
{
	const struct prof_entry *a = pa, *b = pb;

	if (IS_ENABLED(CONFIG_FUNCTION_GRAPH_TRACER) && a->time != b->time)
		return a->time < b->time ? -1 : 1;
	if (a->counter != b->counter)
		return a->counter < b->counter ? -1 : 1;
	return 0;
}

static int stat_headers(struct seq_file *m)
{
	if (IS_ENABLED(CONFIG_FUNCTION_GRAPH_TRACER))
		seq_puts(m, "  Function                               Hit    Time            Avg             s^2\n"
			    "  --------                               ---    ----            ---             ---\n");
	else
		seq_puts(m, "  Function                               Hit\n"
			    "  --------                               ---\n");
	return 0;
}

#ifdef CONFIG_FUNCTION_GRAPH_TRACER
/* Sample variance in us^2: (n * sum(x^2) - sum(x)^2) / (n * (n - 1)). */
static unsigned long long variance(const struct prof_entry *e)
{
	unsigned long long denom = (unsigned long long)e->counter *
				   (e->counter - 1) * 1000;

	if (!denom)
		return 0;
	return div64_u64(e->counter * e->time_squared - e->time * e->time,
			 denom);
}

/* The time columns: total, average and variance, as the graph tracer prints them. */
static int prof_show_times(struct seq_file *m, struct prof_entry *e,
			   unsigned long long avg)
{
	struct trace_seq *s = kmalloc(sizeof(*s), GFP_KERNEL);

	if (!s)
		return -ENOMEM;
	seq_puts(m, "    ");
	trace_seq_init(s);
	trace_print_graph_duration(e->time, s);
	trace_seq_puts(s, "    ");
	trace_print_graph_duration(avg, s);
	trace_seq_puts(s, "    ");
	trace_print_graph_duration(variance(e), s);
	trace_print_seq(m, s);
	kfree(s);
	return 0;
}
#else
/* Without the graph tracer only calls are counted. */
static int prof_show_times(struct seq_file *m, struct prof_entry *e,
			   unsigned long long avg)
{
	return 0;
}
#endif

static int stat_show(struct seq_file *m, void *v)
{
	struct prof_entry *e = v;
	char name[KSYM_SYMBOL_LEN];
	unsigned long long avg;
	int ret;

	if (!e->counter)
		return 0;
	avg = div64_ul(e->time, e->counter);
	if (IS_ENABLED(CONFIG_FUNCTION_GRAPH_TRACER) && tracing_thresh &&
	    avg < tracing_thresh)
		return 0;
	kallsyms_lookup(e->ip, NULL, NULL, NULL, name);
	seq_printf(m, "  %-30.30s  %10lu", name, e->counter);
	ret = prof_show_times(m, e, avg);
	if (ret)
		return ret;
	seq_putc(m, '\n');
	return 0;
}

/**
 * ftrace_profile_tracefs - create the profiler's files
 * @d_tracer: the tracefs root
 */
void __init ftrace_profile_tracefs(struct dentry *d_tracer)
{
	struct prof_table *t;
	int cpu;

	for_each_possible_cpu(cpu) {
		t = per_cpu_ptr(&prof_tables, cpu);
		t->stat.name = kasprintf(GFP_KERNEL, "function%d", cpu);
		if (!t->stat.name)
			continue;
		t->stat.stat_start = stat_start;
		t->stat.stat_next = stat_next;
		t->stat.stat_cmp = stat_cmp;
		t->stat.stat_show = stat_show;
		t->stat.stat_release = stat_release;
		t->stat.stat_headers = stat_headers;
		if (register_stat_tracer(&t->stat))
			pr_warn("ftrace: no trace_stat file for CPU %d\n", cpu);
	}
	trace_create_file("function_profile_enabled", TRACE_MODE_WRITE,
			  d_tracer, NULL, &prof_enable_fops);
}

#if IS_ENABLED(CONFIG_FTRACE_CORE_KUNIT_TEST)
#include <kunit/test.h>

/*
 * Under prof_lock: CPU 0's first table, with one entry used, NULL if the
 * profiler has been used (the test is skipped), or an error pointer.  No
 * KUNIT_ASSERT here: a failed one ends the test's thread, and it would
 * still hold prof_lock.
 */
static struct prof_buf *first_table(struct prof_table *t)
{
	int ret;

	if (prof_enabled || t->buf)
		return NULL;
	ret = prof_tables_reset_to(64);
	if (ret)
		return ERR_PTR(ret);
	t->buf->e[5].ip = 0x1234;
	t->buf->e[5].counter = 3;
	return t->buf;
}

/*
 * An open trace_stat file holds pointers to entries; turning the profiler
 * on again with more records replaces the arrays.  The old array must
 * stay until trace_stat gives the pointers back (review finding 7: it was
 * freed at once).
 */
static void pins_outlive_a_larger_table(struct kunit *test)
{
	struct prof_table *t = per_cpu_ptr(&prof_tables, 0);
	struct prof_entry *got;
	struct prof_buf *old;
	int cpu;

	scoped_guard(mutex, &prof_lock)
		old = first_table(t);
	if (!old)
		kunit_skip(test, "the profiler has been used");
	KUNIT_ASSERT_FALSE(test, IS_ERR(old));

	got = stat_start(&t->stat);		/* as trace_stat's open */
	KUNIT_ASSERT_PTR_EQ(test, got, &old->e[5]);
	KUNIT_EXPECT_NULL(test, stat_next(got, 1));

	scoped_guard(mutex, &prof_lock) {
		KUNIT_EXPECT_EQ(test, prof_tables_reset_to(128), 0);
		KUNIT_EXPECT_PTR_NE(test, t->buf, old);
		KUNIT_EXPECT_FALSE(test, list_empty(&prof_retired));
	}
	/* The reader still sees what it pinned. */
	KUNIT_EXPECT_EQ(test, got->ip, 0x1234UL);
	KUNIT_EXPECT_EQ(test, got->counter, 3UL);

	stat_release(got);			/* as trace_stat's release */
	guard(mutex)(&prof_lock);
	KUNIT_EXPECT_TRUE(test, list_empty(&prof_retired));
	for_each_possible_cpu(cpu) {
		t = per_cpu_ptr(&prof_tables, cpu);
		vfree(t->buf);
		t->buf = NULL;
	}
}

static struct kunit_case prof_cases[] = {
	KUNIT_CASE(pins_outlive_a_larger_table),
	{}
};

static struct kunit_suite prof_suite = {
	.name = "ftrace-profile",
	.test_cases = prof_cases,
};

kunit_test_suite(prof_suite);
#endif
