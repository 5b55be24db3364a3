// SPDX-License-Identifier: GPL-2.0
/* A strong definition that overrides basic.c's weak_default. */
int weak_default(int x)
{
	return x + 100;
}
