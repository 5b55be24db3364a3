// SPDX-License-Identifier: GPL-2.0
/* Strong definitions of every weak name of aliases.c's shared_default. */
int shared_default(int x)
{
	return x + 10;
}

int alias_a(int x)
{
	return x + 11;
}

int alias_b(int x)
{
	return x + 12;
}
