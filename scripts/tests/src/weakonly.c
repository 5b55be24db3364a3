// SPDX-License-Identifier: GPL-2.0
/* Each function in its own section; one section holds only a weak function. */
int __weak only_weak(int x)
{
	return x * 3;
}

static noinline int local_one(int x)
{
	return x + 11;
}

int uses_local(int x)
{
	return local_one(x) + only_weak(x);
}
