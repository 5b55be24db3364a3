// SPDX-License-Identifier: GPL-2.0
/*
 * ftwide: a module with FTWIDE_FUNCS (6,000) traceable functions, as large
 * as the biggest modules distributions load, for the benchmarks and cases
 * that name a module's records (listing, globs, names against kallsyms).
 *
 * ftwide-funcs.h, written by harness/initramfs.sh next to this file,
 * defines ftwide_fn_0 ... ftwide_fn_<FTWIDE_FUNCS - 1>, each
 * "static noinline int ftwide_fn_N(int x)", a second name for every
 * 500th (ftwide_alias_N: two symbols at one address, of which kallsyms
 * names the function by the first in the symbol table), and
 * FTWIDE_TABLE, the list of the functions.  Loading runs each once.
 */
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/module.h>

typedef int (*ftwide_fn)(int);

#include "ftwide-funcs.h"

static const ftwide_fn ftwide_table[FTWIDE_FUNCS] = { FTWIDE_TABLE };

static int __init ftwide_init(void)
{
	int i, x = 0;

	for (i = 0; i < FTWIDE_FUNCS; i++)
		x = ftwide_table[i](x);
	pr_debug("ftwide: %d functions, %d\n", FTWIDE_FUNCS, x);
	return 0;
}
module_init(ftwide_init);

static void __exit ftwide_exit(void)
{
}
module_exit(ftwide_exit);

MODULE_DESCRIPTION("Many traceable functions, for naming module records");
MODULE_LICENSE("GPL");
