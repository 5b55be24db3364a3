// SPDX-License-Identifier: GPL-2.0
/* Strong definitions of some of aliases.c's weak names. */
int alias_a(int x)
{
	return x + 1;
}

int weak_of_strong(int x)
{
	return x + 2;
}
