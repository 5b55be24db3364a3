// SPDX-License-Identifier: GPL-2.0
/*
 * The trampolines the back end allocated, as the rest of the kernel sees
 * them: the list of their ops, the lookup of an address in one, and the
 * names kallsyms gives them (with the kept names of freed module init
 * text, which kallsyms has lost).
 */
#include <linux/kallsyms.h>

#include "ftrace_core.h"

/*
 * The ops with a trampoline the back end allocated (FTRACE_OPS_FL_ALLOC_TRAMP),
 * registered or not: a static ops keeps its trampoline while it is off, and
 * a task preempted inside it must still be unwound and its address named.
 * Changed under ftrace_lock; read under RCU (preemption off).
 */
LIST_HEAD(ftrace_tramp_list);

/**
 * ftrace_ops_trampoline - the ops whose trampoline holds @addr
 * @addr: a text address
 *
 * Return: the ops, or NULL.
 */
struct ftrace_ops *ftrace_ops_trampoline(unsigned long addr)
{
	struct ftrace_ops *op, *found = NULL;

	preempt_disable_notrace();
	list_for_each_entry_rcu(op, &ftrace_tramp_list, list) {
		if (addr >= op->trampoline &&
		    addr < op->trampoline + op->trampoline_size) {
			found = op;
			break;
		}
	}
	preempt_enable_notrace();
	return found;
}

/**
 * is_ftrace_trampoline - is @addr inside a trampoline the core allocated?
 * @addr: a text address
 *
 * Return: true if it is.
 */
bool is_ftrace_trampoline(unsigned long addr)
{
	return !!ftrace_ops_trampoline(addr);
}

#ifdef CONFIG_MODULES
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
	unsigned long start = 0, len = 0;
	struct ftrace_ops *op;

	/*
	 * The caller may be preemptible: read the ops while preemption is
	 * off, so that the wait before its owner may free it covers us.
	 */
	preempt_disable_notrace();
	op = ftrace_ops_trampoline(addr);
	if (op) {
		start = op->trampoline;
		len = op->trampoline_size;
	}
	preempt_enable_notrace();
	if (!op) {
		if (modbuildid)
			*modbuildid = NULL;
		return ftrace_init_name_lookup(addr, size, off, modname, sym);
	}
	if (size)
		*size = len;
	if (off)
		*off = addr - start;
	if (modname)
		*modname = FTRACE_TRAMPOLINE_MOD;
	if (modbuildid)
		*modbuildid = NULL;
	strscpy(sym, FTRACE_TRAMPOLINE_SYM, KSYM_NAME_LEN);
	return sym;
}
#endif

/**
 * ftrace_mod_get_kallsym - the @symnum-th symbol the core adds to kallsyms
 * @symnum: index over the trampolines, then the kept module init names
 * @value: receives the trampoline address
 * @type: receives 't'
 * @name: KSYM_NAME_LEN buffer for the name
 * @module_name: MODULE_NAME_LEN buffer for the pseudo-module name
 * @exported: receives 0
 *
 * Return: 0, or -ERANGE past the last symbol.
 */
int ftrace_mod_get_kallsym(unsigned int symnum, unsigned long *value,
			   char *type, char *name, char *module_name,
			   int *exported)
{
	struct ftrace_ops *op;
	int ret = -ERANGE;

	preempt_disable_notrace();
	list_for_each_entry_rcu(op, &ftrace_tramp_list, list) {
		if (!op->trampoline || symnum--)
			continue;
		*value = op->trampoline;
		*type = 't';
		strscpy(name, FTRACE_TRAMPOLINE_SYM, KSYM_NAME_LEN);
		strscpy(module_name, FTRACE_TRAMPOLINE_MOD, MODULE_NAME_LEN);
		*exported = 0;
		ret = 0;
		break;
	}
	preempt_enable_notrace();
	if (ret && !ftrace_init_name_symbol(symnum, value, name, module_name)) {
		*type = 'T';
		*exported = 1;
		ret = 0;
	}
	return ret;
}
