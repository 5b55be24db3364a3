// SPDX-License-Identifier: GPL-2.0
/*
 * The bottom of the core in every configuration: the lock every layer
 * takes, and the flag that says ftrace has shut itself off.
 */
#include "ftrace_core.h"

/*
 * Records, ops, hashes and the code; the order of all the core's locks
 * is in ftrace_core.h.
 */
DEFINE_MUTEX(ftrace_lock);

/*
 * Set once, under ftrace_lock, when a call site or the arch caller could
 * not be patched (ftrace_kill()); never cleared.
 */
bool ftrace_dead;
