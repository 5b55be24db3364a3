// SPDX-License-Identifier: GPL-2.0
/* Functions of every kind recordmcount must (or must not) record. */
int counter;

static noinline int helper(int x)
{
	return x + counter;
}

int plain(int x)
{
	return helper(x) * 2;
}

int __weak weak_default(int x)
{
	return x - 1;
}

int notrace not_traced(int x)
{
	return x + 3;
}

int __section(".init.text") init_function(int x)
{
	return helper(x) + 7;
}

int __cold cold_function(int x)
{
	return x * 9;
}

int __section(".sched.text") sched_function(int x)
{
	return helper(x) - 5;
}
