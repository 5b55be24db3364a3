/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Traceable functions in assembly, each recorded in __mcount_loc as the
 * build records every site (the site itself), for ftcorrupt_main.c:
 * ftcorrupt_fill_N() with the idle site the build writes, and
 * ftcorrupt_victim(x), which returns 3 * x + 1, with a damaged one.
 *
 * The victim is the sixth of 25 sites in address order: the core reads
 * a sample of a fresh module's sites (the first, every sixteenth and the
 * last, see ftrace_arch_fresh_idle()), and the victim is not in it, so
 * the damage is found when the site is first to be traced.
 */
#include <linux/linkage.h>

	.macro record site
	.pushsection __mcount_loc, "a"
	.balign 8
	.quad	\site
	.popsection
	.endm

#ifdef CONFIG_X86_64
	.macro fill name
SYM_FUNC_START(\name)
.Lsite\@:
	.byte 0x0f, 0x1f, 0x44, 0x00, 0x00	/* the build's 5-byte NOP */
	RET
SYM_FUNC_END(\name)
	record .Lsite\@
	.endm

	.macro victim
SYM_FUNC_START(ftcorrupt_victim)
.Lsite\@:
	.byte 0x0f, 0x1f, 0x40, 0x00, 0x90	/* nopl 0x0(%rax); nop */
	leal 1(%rdi, %rdi, 2), %eax
	RET
SYM_FUNC_END(ftcorrupt_victim)
	record .Lsite\@
	.endm
#else
	.macro fill name
SYM_FUNC_START(\name)
	mov	x9, x30
.Lsite\@:
	nop
	ret
SYM_FUNC_END(\name)
	record .Lsite\@
	.endm

	.macro victim
SYM_FUNC_START(ftcorrupt_victim)
	mov	x9, x30
.Lsite\@:
	.inst	0xaa1003f0			/* mov x16, x16 */
	add	w0, w0, w0, lsl #1
	add	w0, w0, #1
	ret
SYM_FUNC_END(ftcorrupt_victim)
	record .Lsite\@
	.endm
#endif

	fill ftcorrupt_fill_0
	fill ftcorrupt_fill_1
	fill ftcorrupt_fill_2
	fill ftcorrupt_fill_3
	fill ftcorrupt_fill_4
	victim
	fill ftcorrupt_fill_6
	fill ftcorrupt_fill_7
	fill ftcorrupt_fill_8
	fill ftcorrupt_fill_9
	fill ftcorrupt_fill_10
	fill ftcorrupt_fill_11
	fill ftcorrupt_fill_12
	fill ftcorrupt_fill_13
	fill ftcorrupt_fill_14
	fill ftcorrupt_fill_15
	fill ftcorrupt_fill_16
	fill ftcorrupt_fill_17
	fill ftcorrupt_fill_18
	fill ftcorrupt_fill_19
	fill ftcorrupt_fill_20
	fill ftcorrupt_fill_21
	fill ftcorrupt_fill_22
	fill ftcorrupt_fill_23
	fill ftcorrupt_fill_24
