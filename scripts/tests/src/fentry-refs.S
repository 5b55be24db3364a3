/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Assembly beside the bitcode of an x86_64 LTO link: references to the
 * defined __fentry__ that are not a compiler's profiling call, each behind
 * an 0xe8 byte where it can be: a jump, an address load, a 32-bit
 * PC-relative word in code after a "mov $0xe8e8e8e8", and an absolute
 * word in data.  None is a site.
 */
	.text
	.globl asm_refs
asm_refs:
	jmp	__fentry__
	leaq	__fentry__(%rip), %rax
	movl	$0xe8e8e8e8, %eax
	.long	__fentry__ - .
	ret

	.data
	.globl fentry_ptr
fentry_ptr:
	.quad	__fentry__
