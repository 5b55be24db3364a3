/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which kernel the ftrace core and its back ends are built into.
 *
 * One core and one pair of back ends serve two bases, Linux 6.1 and 6.12
 * (Documentation/trace/ftrace-core.rst, "Two bases").  Where the
 * interfaces of the two differ in a way a file of the base's own cannot
 * absorb (kernel/trace/ftrace_kbase*.c), the code tests FTRACE_KBASE_612,
 * set here and nowhere else.
 */
#ifndef _LINUX_FTRACE_KBASE_H
#define _LINUX_FTRACE_KBASE_H

#include <linux/version.h>

/*
 * 6.12: struct ftrace_regs is opaque (<linux/ftrace_regs.h>), the graph
 * return hook passes it, direct calls are registered per ops only, and
 * fgraph.c manages its users as sub-ops of one ops.  The version code,
 * not a test for one of 6.12's headers: sparse 0.6.4 (Debian 12's) has
 * no __has_include and would read every file as 6.1's.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
# define FTRACE_KBASE_612	1
#endif

#endif /* _LINUX_FTRACE_KBASE_H */
