// SPDX-License-Identifier: GPL-2.0
/*
 * One function under several weak names (as Linux 6.12's
 * cpu_show_not_affected() and its cpu_show_* aliases): the code stays live
 * while any name is not overridden.
 */
int __weak shared_default(int x)
{
	return x * 3;
}

int alias_a(int x) __attribute__((weak, alias("shared_default")));
int alias_b(int x) __attribute__((weak, alias("shared_default")));

/* A strong name and a weak alias: live whatever overrides the alias. */
int strong_named(int x)
{
	return x * 5;
}

int weak_of_strong(int x) __attribute__((weak, alias("strong_named")));
