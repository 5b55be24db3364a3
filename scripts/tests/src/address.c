// SPDX-License-Identifier: GPL-2.0
/*
 * The routine's address used as a value (Linux 6.12's callthunks.c asks
 * whether a call goes to __fentry__): an absolute relocation against it
 * that is not a call site.
 */
#include "address.h"

int is_fentry(void *dest)
{
	return dest == (void *)__fentry__;
}

void *fentry_address(void)
{
	return (void *)__fentry__;
}
