// SPDX-License-Identifier: GPL-2.0
/*
 * The calls whose form is Linux 6.1's (the core built into 6.1): direct
 * calls per ops under their *_multi names, and the kallsyms hook
 * returning the name.  Their 6.12 forms are in ftrace_kbase612.c; only
 * one of the two is built.
 */
#include "ftrace_core.h"

#if defined(CONFIG_MODULES) && defined(CONFIG_DYNAMIC_FTRACE)
/**
 * ftrace_mod_address_lookup - kallsyms name of an address kallsyms lost
 * @addr: the address: in a trampoline, or in freed module init text
 * @size: receives the trampoline's or function's size
 * @off: receives the offset of @addr in it
 * @modname: receives the (pseudo-)module name
 * @modbuildid: receives NULL
 * @sym: buffer of KSYM_NAME_LEN for the symbol name
 *
 * Return: @sym, or NULL if the core cannot name @addr.
 */
const char *ftrace_mod_address_lookup(unsigned long addr, unsigned long *size,
				      unsigned long *off, char **modname,
				      const unsigned char **modbuildid,
				      char *sym)
{
	return ftrace_name_lookup(addr, size, off, modname, modbuildid, sym);
}
#endif

#ifdef CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS
/**
 * register_ftrace_direct_multi - make the functions of @ops call @addr
 * @ops: an unregistered ops whose filter holds the functions
 * @addr: the target trampoline
 *
 * Return: as ftrace_direct_ops_register().
 */
int register_ftrace_direct_multi(struct ftrace_ops *ops, unsigned long addr)
{
	return ftrace_direct_ops_register(ops, addr);
}
EXPORT_SYMBOL_GPL(register_ftrace_direct_multi);

/**
 * unregister_ftrace_direct_multi - stop the functions of @ops calling @addr
 * @ops: an ops registered with register_ftrace_direct_multi()
 * @addr: its target (not checked, as in 6.1)
 *
 * Return: as ftrace_direct_ops_unregister().
 */
int unregister_ftrace_direct_multi(struct ftrace_ops *ops, unsigned long addr)
{
	return ftrace_direct_ops_unregister(ops);
}
EXPORT_SYMBOL_GPL(unregister_ftrace_direct_multi);

/**
 * modify_ftrace_direct_multi_nolock - move the functions of @ops to @addr
 * @ops: an ops registered with register_ftrace_direct_multi()
 * @addr: the new target
 *
 * Return: as ftrace_direct_ops_modify_nolock().
 */
int modify_ftrace_direct_multi_nolock(struct ftrace_ops *ops,
				      unsigned long addr)
{
	return ftrace_direct_ops_modify_nolock(ops, addr);
}
EXPORT_SYMBOL_GPL(modify_ftrace_direct_multi_nolock);

/**
 * modify_ftrace_direct_multi - move the functions of @ops to @addr
 * @ops: an ops registered with register_ftrace_direct_multi()
 * @addr: the new target
 *
 * Return: as ftrace_direct_ops_modify().
 */
int modify_ftrace_direct_multi(struct ftrace_ops *ops, unsigned long addr)
{
	return ftrace_direct_ops_modify(ops, addr);
}
EXPORT_SYMBOL_GPL(modify_ftrace_direct_multi);
#endif /* CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS */
