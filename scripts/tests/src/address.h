/* SPDX-License-Identifier: GPL-2.0 */
/* The profiling routine, declared as the kernel's <asm/ftrace.h> does. */
void __fentry__(void);
