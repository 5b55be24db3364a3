// SPDX-License-Identifier: GPL-2.0
/*
 * 9ftdigit: a module whose name starts with a digit, as 8021q's and
 * 9pnet's do, with four traceable functions, for the ":mod:" words that
 * name it (harness/ftt/mod-digit-name.tc).  Loading runs each once.
 */
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/module.h>

static noinline int ftdigit_fn_0(int x) { return x ^ 1; }
static noinline int ftdigit_fn_1(int x) { return x ^ 2; }
static noinline int ftdigit_fn_2(int x) { return x ^ 4; }
static noinline int ftdigit_fn_3(int x) { return x ^ 8; }

static int (* const ftdigit_table[])(int) = {
	ftdigit_fn_0, ftdigit_fn_1, ftdigit_fn_2, ftdigit_fn_3,
};

static int __init ftdigit_init(void)
{
	unsigned int i;
	int x = 0;

	for (i = 0; i < ARRAY_SIZE(ftdigit_table); i++)
		x = ftdigit_table[i](x);
	pr_debug("9ftdigit: %d\n", x);
	return 0;
}
module_init(ftdigit_init);

static void __exit ftdigit_exit(void)
{
}
module_exit(ftdigit_exit);

MODULE_DESCRIPTION("A module named with a leading digit, for :mod: words");
MODULE_LICENSE("GPL");
