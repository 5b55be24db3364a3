/* SPDX-License-Identifier: GPL-2.0 */
/* The profiling routines, so test objects link into an executable. */
	.text
	.globl __fentry__, mcount, _mcount, _start
__fentry__:
	ret
mcount:
	ret
_mcount:
	ret
_start:
	ret
