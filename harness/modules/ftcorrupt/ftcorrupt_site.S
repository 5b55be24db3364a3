/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftcorrupt_victim(x): returns 3 * x + 1, from a function whose recorded
 * call site holds other code than the build's NOP (see ftcorrupt.c).
 */
#include <linux/linkage.h>
#include <linux/objtool.h>

#ifdef CONFIG_X86_64
SYM_FUNC_START(ftcorrupt_victim)
	ANNOTATE_NOENDBR
.Lsite:
	.byte 0x0f, 0x1f, 0x40, 0x00, 0x90	/* nopl 0x0(%rax); nop */
	leal 1(%rdi, %rdi, 2), %eax
	RET
SYM_FUNC_END(ftcorrupt_victim)
#else
SYM_FUNC_START(ftcorrupt_victim)
	mov	x9, x30
.Lsite:
	.inst	0xaa1003f0			/* mov x16, x16 */
	add	w0, w0, w0, lsl #1
	add	w0, w0, #1
	ret
SYM_FUNC_END(ftcorrupt_victim)
#endif

	/* Recorded as the build records every site: the site itself. */
	.pushsection __mcount_loc, "a"
	.balign 8
	.quad	.Lsite
	.popsection
