// SPDX-License-Identifier: GPL-2.0
/*
 * Functions compiled with -fpatchable-function-entry=2 (arm64's dynamic
 * ftrace): which entries recordmcount must turn into records.
 */
#undef notrace
#define notrace __attribute__((patchable_function_entry(0, 0)))

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

/* Outside the sections ftrace traces: its entry stays two NOPs. */
int __section(".exit.text") exit_function(int x)
{
	return helper(x) - 5;
}
