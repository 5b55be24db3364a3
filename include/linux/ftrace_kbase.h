/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which kernel the ftrace core and its back ends are built into.
 *
 * One core and one pair of back ends serve two bases, Linux 6.1 and 6.12
 * (Documentation/trace/ftrace-core.rst, "Two bases").  Where the
 * interfaces of the two differ in a way a file of the base's own cannot
 * absorb (kernel/trace/ftrace_api*.c), the code tests FTRACE_KBASE_612,
 * set here and nowhere else.
 */
#ifndef _LINUX_FTRACE_KBASE_H
#define _LINUX_FTRACE_KBASE_H

#include <linux/version.h>

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
/*
 * 6.12: struct ftrace_regs is opaque (<linux/ftrace_regs.h>), the graph
 * return hook passes it, direct calls are registered per ops only, and
 * fgraph.c manages its users as sub-ops of one ops.
 */
# define FTRACE_KBASE_612	1
#endif

#endif /* _LINUX_FTRACE_KBASE_H */
