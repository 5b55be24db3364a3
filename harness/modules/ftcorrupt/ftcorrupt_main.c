// SPDX-License-Identifier: GPL-2.0
/*
 * A module with a damaged call site, for make check's check that a back
 * end refuses to patch a site that does not hold what it expects
 * (harness/guest/bootcheck.sh).  The damage is in the module as built:
 * ftcorrupt_victim() (ftcorrupt_site.S) is recorded in __mcount_loc like
 * any traced function (24 others beside it), but its site holds other
 * code, harmless to run and not the NOP the build writes there:
 *   x86_64: two NOPs of other lengths (nopl 0x0(%rax); nop), bytes
 *	     0f 1f 40 00 90;
 *   arm64:  "mov x16, x16" (x16 is free at a function's entry), bytes
 *	     f0 03 10 aa, after the build's "mov x9, x30".
 * No kernel interface writes text for it.  The core must refuse the
 * site when it is first to be traced (the sample of sites the core reads
 * as the module loads leaves it out: see ftcorrupt_site.S), report it
 * once, and stay off for good.
 */
#include <linux/module.h>

int ftcorrupt_victim(int x);

static int __init ftcorrupt_init(void)
{
	/* Run it once: the damaged site is harmless code. */
	return ftcorrupt_victim(1) == 4 ? 0 : -EINVAL;
}
module_init(ftcorrupt_init);

MODULE_DESCRIPTION("A traceable function whose call site is damaged, for tests");
MODULE_LICENSE("GPL");
