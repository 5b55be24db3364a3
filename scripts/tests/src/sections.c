// SPDX-License-Identifier: GPL-2.0
/*
 * Functions in every kind of section the kernel puts code in: traced ones
 * (.text, .ref.text, .kprobes.text, .cpuidle.text, .text.*, a COMDAT group)
 * and untraced ones (.exit.text, .meminit.text), static and weak.
 */
#if defined(__arm__)
#define ASM_COMMENT "@"
#elif defined(__aarch64__)
#define ASM_COMMENT "//"
#elif defined(__sh__) || defined(__sparc__)
#define ASM_COMMENT "!"
#else
#define ASM_COMMENT "#"
#endif
/* A COMDAT group named @n holding section .text.@n (the tail is a comment). */
#define IN_GROUP(n) __section(".text." #n \
	",\"axG\",%progbits," #n ",comdat " ASM_COMMENT)

int data_word;

static noinline int local_a(int x)
{
	return x ^ data_word;
}

static noinline int local_b(int x)
{
	return local_a(x) + 3;
}

noinline int __section(".ref.text") ref_fn(int x)
{
	return local_b(x) * 3;
}

noinline int __section(".kprobes.text") kprobes_fn(int x)
{
	return local_a(x) - 1;
}

noinline int __section(".cpuidle.text") idle_fn(int x)
{
	return x + 2;
}

noinline int __section(".exit.text") exit_fn(int x)
{
	return local_b(x) + 4;
}

noinline int __section(".meminit.text") meminit_fn(int x)
{
	return x * 7;
}

noinline int __weak weak_one(int x)
{
	return x - 6;
}

noinline int __hot hot_fn(int x)
{
	return weak_one(x) + 9;
}

int IN_GROUP(group_fn) group_fn(int x)
{
	return x * 5;
}

int calls_all(int x)
{
	return ref_fn(x) + kprobes_fn(x) + idle_fn(x) + exit_fn(x) +
	       meminit_fn(x) + hot_fn(x) + group_fn(x);
}
