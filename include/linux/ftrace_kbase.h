/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which kernel the ftrace core and its back ends are built into.
 *
 * One core and one pair of back ends serve two bases, Linux 6.1 and 6.12
 * (Documentation/trace/ftrace-core.rst, "Two bases").  Where the
 * interfaces of the two differ in a way a file of the base's own cannot
 * absorb (kernel/trace/ftrace_kbase*.c), the code tests FTRACE_KBASE_612,
 * set here and nowhere else, from a header only 6.12 has.
 */
#ifndef _LINUX_FTRACE_KBASE_H
#define _LINUX_FTRACE_KBASE_H

/*
 * 6.12: struct ftrace_regs is opaque (<linux/ftrace_regs.h>, the header
 * that tells the two apart), the graph return hook passes it, direct
 * calls are registered per ops only, and fgraph.c manages its users as
 * sub-ops of one ops.
 *
 * A checker without __has_include (Debian 12's sparse 0.6.4 cannot even
 * parse the test, and then stays silent about the rest of the file) skips
 * it: on 6.12 it must be given -DFTRACE_KBASE_612 (harness/lint.sh does).
 */
#ifndef FTRACE_KBASE_612
# ifdef __has_include
#  if __has_include("linux/ftrace_regs.h")
#   define FTRACE_KBASE_612	1
#  endif
# endif
#endif

#endif /* _LINUX_FTRACE_KBASE_H */
