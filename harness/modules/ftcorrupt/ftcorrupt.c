// SPDX-License-Identifier: GPL-2.0
/*
 * A module that damages its own call site, for make check's check that a
 * back end refuses to patch a site that does not hold what it expects
 * (harness/guest/bootcheck.sh).  On load, the idle call site of
 * ftcorrupt_victim() becomes other code, still harmless to run but not
 * the NOP the back end wrote there:
 *   x86_64: the five-byte NOP becomes two NOPs of other lengths
 *	     (nopl 0x0(%rax); nop), bytes 0f 1f 40 00 90;
 *   arm64:  the NOP becomes "mov x16, x16" (x16 is free at a function's
 *	     entry), bytes f0 03 10 aa.
 * Tracing ftcorrupt_victim() afterwards must then fail with one report,
 * and ftrace must stay off.
 */
#include <linux/module.h>
#include <asm/ftrace_insn.h>

noinline int ftcorrupt_victim(int x)
{
	return x * 3 + 1;
}
EXPORT_SYMBOL_GPL(ftcorrupt_victim);

#ifdef CONFIG_X86_64
/* The call site: the NOP at the entry, or just after an ENDBR64. */
static unsigned long victim_site(void)
{
	static const u8 nop[FTRACE_X86_SITE_SIZE] = FTRACE_X86_NOP5;
	unsigned long fn = (unsigned long)ftcorrupt_victim;

	if (!memcmp((void *)fn, nop, sizeof(nop)))
		return fn;
	if (!memcmp((void *)fn + 4, nop, sizeof(nop)))
		return fn + 4;
	return 0;
}

static int __init ftcorrupt_init(void)
{
	static const u8 other_nops[] = { 0x0f, 0x1f, 0x40, 0x00, 0x90 };
	unsigned long ip = victim_site();

	if (!ip)
		return -ENODEV;
	return ftrace_x86_test_poke(ip, other_nops, sizeof(other_nops));
}
#else
/* mov x16, x16 (ORR x16, xzr, x16) */
#define OTHER_INSN	0xaa1003f0U

/*
 * The call site: the NOP after the build's "mov x9, x30", at the entry or
 * after a BTI C.
 */
static unsigned long victim_site(void)
{
	unsigned long fn = (unsigned long)ftcorrupt_victim;
	unsigned int i;

	for (i = 0; i < 2; i++, fn += AARCH64_INSN_SIZE) {
		if (le32_to_cpu(*(__le32 *)fn) == FTRACE_A64_MOV_X9_LR &&
		    le32_to_cpu(*(__le32 *)(fn + AARCH64_INSN_SIZE)) == FTRACE_A64_NOP)
			return fn + AARCH64_INSN_SIZE;
	}
	return 0;
}

static int __init ftcorrupt_init(void)
{
	unsigned long ip = victim_site();

	if (!ip)
		return -ENODEV;
	return ftrace_a64_test_poke(ip, OTHER_INSN);
}
#endif
module_init(ftcorrupt_init);

MODULE_DESCRIPTION("Damages its own ftrace call site, for tests");
MODULE_LICENSE("GPL");
