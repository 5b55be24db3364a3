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

int __weak alias_a(int x) __alias(shared_default);
int __weak alias_b(int x) __alias(shared_default);

/* A strong name and a weak alias: live whatever overrides the alias. */
int strong_named(int x)
{
	return x * 5;
}

int __weak weak_of_strong(int x) __alias(strong_named);
