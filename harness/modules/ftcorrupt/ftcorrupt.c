// SPDX-License-Identifier: GPL-2.0
/*
 * A module that damages its own call site, for make check's check that a
 * back end refuses to patch a site that does not hold what it expects
 * (harness/guest/bootcheck.sh).  On load, the five bytes at the call site
 * of ftcorrupt_victim() become two NOPs of other lengths (nopl 0x0(%rax);
 * nop): still harmless to run, but not the NOP the back end wrote there.
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
module_init(ftcorrupt_init);

MODULE_DESCRIPTION("Damages its own ftrace call site, for tests");
MODULE_LICENSE("GPL");
