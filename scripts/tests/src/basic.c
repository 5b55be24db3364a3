/* Functions of every kind recordmcount must (or must not) record. */
int counter;

static int __attribute__((noinline)) helper(int x)
{
	return x + counter;
}

int plain(int x)
{
	return helper(x) * 2;
}

int __attribute__((weak)) weak_default(int x)
{
	return x - 1;
}

int __attribute__((no_instrument_function)) not_traced(int x)
{
	return x + 3;
}

int __attribute__((section(".init.text"))) init_function(int x)
{
	return helper(x) + 7;
}

int __attribute__((cold)) cold_function(int x)
{
	return x * 9;
}

int __attribute__((section(".sched.text"))) sched_function(int x)
{
	return helper(x) - 5;
}
