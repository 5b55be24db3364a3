// SPDX-License-Identifier: GPL-2.0
/*
 * ftstress: a module with many traceable functions, for make stress.
 *
 * FTSTRESS_FUNCS (256) small functions, each with its own call site, plus
 * a few in init text (freed once the module is live, which the core must
 * forget).
 * Loading runs every function once; writing anything to
 * /sys/module/ftstress/parameters/run runs them all again, so a tracer
 * that covers the module sees hits while it is loaded.
 */
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

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
}

module_init(ftstress_init);
module_exit(ftstress_exit);
MODULE_DESCRIPTION("Many traceable functions, for the ftrace stress run");
MODULE_LICENSE("GPL");
