// SPDX-License-Identifier: GPL-2.0
/*
 * ftstress: a module with many traceable functions, for make stress.
 *
 * FTSTRESS_FUNCS (256) small functions, each with its own call site, plus
 * a few in init text (freed once the module is live, which the core must
 * forget).
 * Loading runs every function once; writing anything to
 * /sys/module/ftstress/parameters/run runs them all again, so a tracer
 * that covers the module sees hits while it is loaded.  Writing N to
 * /sys/module/ftstress/parameters/ops registers N ftrace_ops, the i-th on
 * the i-th function alone (0 removes them): make bench's "unrelated ops".
 */
#include <linux/ftrace.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/slab.h>

typedef int (*ftstress_fn)(int);

/*
 * ftstress-funcs.h, written by harness/initramfs.sh next to this file,
 * defines ftstress_fn_0 ... ftstress_fn_<FTSTRESS_FUNCS - 1> (each
 * "static noinline int ftstress_fn_N(int x)") and FTSTRESS_TABLE, the
 * list of their names.
 */
#include "ftstress-funcs.h"

static const ftstress_fn ftstress_table[FTSTRESS_FUNCS] = { FTSTRESS_TABLE };

static int ftstress_run_all(void)
{
	int i, x = 0;

	for (i = 0; i < FTSTRESS_FUNCS; i++)
		x = ftstress_table[i](x);
	return x;
}

static int ftstress_run_set(const char *val, const struct kernel_param *kp)
{
	ftstress_run_all();
	return 0;
}

static const struct kernel_param_ops ftstress_run_ops = {
	.set = ftstress_run_set,
};
module_param_cb(run, &ftstress_run_ops, NULL, 0200);
MODULE_PARM_DESC(run, "write anything: call every function once");

static struct ftrace_ops *ftstress_ops;
static unsigned int ftstress_nops;
static DEFINE_MUTEX(ftstress_ops_lock);

static void ftstress_ops_call(unsigned long ip, unsigned long parent_ip,
			      struct ftrace_ops *op, struct ftrace_regs *fregs)
{
}

static void ftstress_ops_drop(void)
{
	unsigned int i;

	for (i = 0; i < ftstress_nops; i++) {
		unregister_ftrace_function(&ftstress_ops[i]);
		ftrace_free_filter(&ftstress_ops[i]);
	}
	kfree(ftstress_ops);
	ftstress_ops = NULL;
	ftstress_nops = 0;
}

static int ftstress_ops_add(unsigned int n)
{
	struct ftrace_ops *ops;
	unsigned long ip;
	int ret = 0;

	ftstress_ops = kcalloc(n, sizeof(*ftstress_ops), GFP_KERNEL);
	if (!ftstress_ops)
		return -ENOMEM;
	for (; ftstress_nops < n; ftstress_nops++) {
		ops = &ftstress_ops[ftstress_nops];
		ops->func = ftstress_ops_call;
		/* The function's address: the core finds its call site. */
		ip = (unsigned long)ftstress_table[ftstress_nops];
		ret = ftrace_set_filter_ip(ops, ip, 0, 0);
		if (!ret)
			ret = register_ftrace_function(ops);
		if (ret) {
			ftrace_free_filter(ops);
			break;
		}
	}
	return ret;
}

static int ftstress_ops_set(const char *val, const struct kernel_param *kp)
{
	unsigned int n;
	int ret = kstrtouint(val, 0, &n);

	if (ret)
		return ret;
	if (n > FTSTRESS_FUNCS)
		return -EINVAL;
	mutex_lock(&ftstress_ops_lock);
	ftstress_ops_drop();
	ret = n ? ftstress_ops_add(n) : 0;
	if (ret)
		ftstress_ops_drop();
	mutex_unlock(&ftstress_ops_lock);
	return ret;
}

static const struct kernel_param_ops ftstress_ops_ops = {
	.set = ftstress_ops_set,
};
module_param_cb(ops, &ftstress_ops_ops, NULL, 0200);
MODULE_PARM_DESC(ops, "N: N ftrace_ops, one on each of the first N functions");

static noinline int __init ftstress_init_a(int x) { return x + 1; }
static noinline int __init ftstress_init_b(int x) { return x * 3; }
static noinline int __init ftstress_init_c(int x) { return x - 7; }

static int __init ftstress_init(void)
{
	int x = ftstress_init_c(ftstress_init_b(ftstress_init_a(1)));

	pr_debug("ftstress: %d %d\n", x, ftstress_run_all());
	return 0;
}

static void __exit ftstress_exit(void)
{
	ftstress_run_all();
	mutex_lock(&ftstress_ops_lock);
	ftstress_ops_drop();
	mutex_unlock(&ftstress_ops_lock);
}

module_init(ftstress_init);
module_exit(ftstress_exit);
MODULE_DESCRIPTION("Many traceable functions, for the ftrace stress run");
MODULE_LICENSE("GPL");
