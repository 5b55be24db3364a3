/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A function in a COMDAT group (as C++ inline functions are), and one
 * outside it.  The group's record must be a member of the group.
 */
	.section .text.in_group,"axG",%progbits,in_group,comdat
	.globl in_group
	.type in_group, %function
in_group:
#ifdef __aarch64__
	bl _mcount
#else
	call __fentry__
#endif
	ret
	.size in_group, . - in_group

	.text
	.globl outside
	.type outside, %function
outside:
#ifdef __aarch64__
	bl _mcount
	b in_group
#else
	call __fentry__
	jmp in_group
#endif
	.size outside, . - outside
