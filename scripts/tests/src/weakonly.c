/* Each function in its own section; one section holds only a weak function. */
int __attribute__((weak)) only_weak(int x)
{
	return x * 3;
}

static int __attribute__((noinline)) local_one(int x)
{
	return x + 11;
}

int uses_local(int x)
{
	return local_one(x) + only_weak(x);
}
