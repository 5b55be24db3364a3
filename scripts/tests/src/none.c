// SPDX-License-Identifier: GPL-2.0
/* No traced function at all: the object must be left untouched. */
int table[4] = { 1, 2, 3, 4 };

int notrace quiet(int x)
{
	return table[x & 3];
}
