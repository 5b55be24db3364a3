// SPDX-License-Identifier: GPL-2.0
/*
 * The trampolines the back end allocated: their life (made parked,
 * pointed at the ops' function, parked, taken off the list, freed; the
 * back end only makes, points and frees, <linux/ftrace_arch.h>), and
 * how the rest of the kernel sees them: the list of their ops, the
 * lookup of an address in one, and the names kallsyms and perf give them
 * (with the kept names of freed module init text, which kallsyms has
 * lost).  Registration (ftrace_register.c) calls the steps in order;
 * without dynamic ftrace they do nothing (ftrace_nodyn.c).
 */
#include <linux/kallsyms.h>
#include <linux/perf_event.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "ftrace_core.h"

/*
 * The ops with a trampoline the back end allocated (FTRACE_OPS_FL_ALLOC_TRAMP),
 * registered or not: a static ops keeps its trampoline while it is off, and
 * a task preempted inside it must still be unwound and its address named.
 * Changed under ftrace_lock; read under RCU (preemption off).
 */
LIST_HEAD(ftrace_tramp_list);

/*
 * The back end made @ops a new trampoline: @ops joins ftrace_tramp_list
 * unless it was on it already (@listed: it had one before, which no
 * longer fitted).  perf learns of it as it learns of other out-of-line
 * kernel code: a ksymbol record, then a text poke record with its bytes.
 * A trampoline in the kernel image's own text (arm64's pool) gets no
 * ksymbol record: perf's map of the image already covers it, and a
 * symbol registered inside that map would land elsewhere.
 */
static void tramp_announce(struct ftrace_ops *ops, bool listed)
{
	if (!listed)
		list_add_rcu(&ops->list, &ftrace_tramp_list);
	if (!core_kernel_text(ops->trampoline))
		perf_event_ksymbol(PERF_RECORD_KSYMBOL_TYPE_OOL, ops->trampoline,
				   ops->trampoline_size, false,
				   FTRACE_TRAMPOLINE_SYM);
	perf_event_text_poke((void *)ops->trampoline, NULL, 0,
			     (void *)ops->trampoline, ops->trampoline_size);
}

/* Does @ops have a trampoline the back end made? */
static bool tramp_made(struct ftrace_ops *ops)
{
	return (ops->flags & FTRACE_OPS_FL_ALLOC_TRAMP) && ops->trampoline;
}

/* Say why the back end could not point @ops' trampoline at @func. */
static void tramp_point_failed(struct ftrace_ops *ops, unsigned long func,
			       int err)
{
	pr_err("ftrace: cannot point the trampoline of %ps at %ps: %d\n",
	       ops->func, (void *)func, err);
}

/*
 * Make @ops' trampoline call @func: point the one it has, or make one.  A
 * trampoline that no longer fits @ops is left to the tasks that may still
 * be inside it, and another made.  A trampoline the ops brought itself
 * (no FTRACE_OPS_FL_ALLOC_TRAMP) is its owner's business.  Return: 0, or
 * the back end's error when the trampoline @ops has could not be pointed.
 */
static int tramp_set(struct ftrace_ops *ops, unsigned long func)
{
	bool listed = ops->flags & FTRACE_OPS_FL_ALLOC_TRAMP;
	int ret;

	if (ops->trampoline) {
		if (!listed)
			return 0;
		ret = ftrace_arch_tramp_point(ops, func);
		if (ret != -ESTALE) {
			if (ret)
				tramp_point_failed(ops, func, ret);
			return ret;
		}
		pr_warn_once("ftrace: %ps changed its flags since its trampoline was made; the old one stays\n",
			     ops->func);
		ops->trampoline = 0;
		ops->trampoline_size = 0;
	}
	if (ftrace_arch_tramp_make(ops, func) || !ops->trampoline) {
		/* Its sites call the shared caller; it stays listed if it was. */
		ops->trampoline = 0;
		ops->trampoline_size = 0;
		return 0;
	}
	ops->flags |= FTRACE_OPS_FL_ALLOC_TRAMP;
	tramp_announce(ops, listed);
	return 0;
}

/**
 * ftrace_tramp_prepare - give @ops a parked trampoline before its update
 * @ops: an ops being registered, which no site calls through a trampoline
 *	yet
 *
 * While the update that registers @ops points sites at its trampoline,
 * the trampoline calls ftrace_stub: the update itself, and the rest of the
 * kernel meanwhile, call traced functions that an ops still being
 * registered need not see.  ftrace_tramp_update() then points it at the
 * ops' function.  Called with ftrace_lock held.
 */
void ftrace_tramp_prepare(struct ftrace_ops *ops)
{
	tramp_set(ops, (unsigned long)ftrace_stub);
}

/**
 * ftrace_tramp_update - make or update @ops' own trampoline
 * @ops: a registered ops that may be the only one on some sites
 *
 * Called with ftrace_lock held.
 *
 * Return: 0 (also when the back end has no trampolines or cannot make
 * one: the shared caller serves), or the back end's error when the
 * trampoline @ops has could not be pointed at its function.
 */
int ftrace_tramp_update(struct ftrace_ops *ops)
{
	return tramp_set(ops, (unsigned long)ftrace_ops_get_func(ops));
}

/**
 * ftrace_tramp_refresh - point @ops' trampoline at its current function
 * @ops: a registered ops whose function changed (a PID filter came or
 *	went); one without a trampoline of the back end's is left alone
 *
 * On failure the trampoline keeps calling what it called.  Called with
 * ftrace_lock held.
 */
void ftrace_tramp_refresh(struct ftrace_ops *ops)
{
	if (tramp_made(ops))
		ftrace_tramp_update(ops);
}

/**
 * ftrace_tramp_park - make @ops' trampoline call nothing
 * @ops: an ops being unregistered, before the update that points its
 *	sites away
 *
 * Sites may still call the trampoline, and a task preempted inside it may
 * still reach its call.  A static ops keeps its trampoline parked while
 * the ops is off; its next registration points it again.
 */
void ftrace_tramp_park(struct ftrace_ops *ops)
{
	int ret;

	if (!tramp_made(ops))
		return;
	ret = ftrace_arch_tramp_point(ops, (unsigned long)ftrace_stub);
	if (ret)
		tramp_point_failed(ops, (unsigned long)ftrace_stub, ret);
}

/*
 * A dynamic ops' trampoline goes when the ops does.  While
 * FTRACE_OPS_FL_ALLOC_TRAMP is set, the ops is on ftrace_tramp_list.
 */
static bool tramp_goes(struct ftrace_ops *ops)
{
	return (ops->flags & FTRACE_OPS_FL_ALLOC_TRAMP) &&
	       (ops->flags & FTRACE_OPS_FL_DYNAMIC);
}

/*
 * The trampoline of an ops whose owner waits for tasks itself
 * (FTRACE_OPS_FL_OWNER_WAITS), or of a function probe whose text went
 * (ftrace_shutdown_text_gone()), outlives the ops' unregistration, which
 * does not wait for the tasks that may be inside it: a stand-in ops
 * takes the ops' place on ftrace_tramp_list with the trampoline (so that
 * unwinders and kallsyms still know it), and it is freed after an
 * RCU-tasks grace period of its own, off ftrace_lock.
 */
struct tramp_grave {
	struct ftrace_ops stand_in;
	struct rcu_head rcu;
	struct work_struct work;
};

/* Free @op's trampoline, perf hearing of it first. */
static void tramp_free(struct ftrace_ops *op)
{
	perf_event_text_poke((void *)op->trampoline, (void *)op->trampoline,
			     op->trampoline_size, NULL, 0);
	if (!core_kernel_text(op->trampoline))
		perf_event_ksymbol(PERF_RECORD_KSYMBOL_TYPE_OOL, op->trampoline,
				   op->trampoline_size, true,
				   FTRACE_TRAMPOLINE_SYM);
	ftrace_arch_tramp_free(op);
	op->trampoline = 0;
	op->trampoline_size = 0;
}

static void tramp_grave_free(struct work_struct *work)
{
	struct tramp_grave *g = container_of(work, struct tramp_grave, work);
	struct ftrace_ops *op = &g->stand_in;

	scoped_guard(mutex, &ftrace_lock) {
		/* A site may still call it: as in ftrace_tramp_release(). */
		if (ftrace_dead)
			return;
		list_del_rcu(&op->list);
	}
	/* Readers of the list run with preemption off. */
	synchronize_rcu_tasks_rude();
	guard(mutex)(&ftrace_lock);
	tramp_free(op);
	kfree(g);
}

/* RCU-tasks callbacks run with bottom halves off: free from a work item. */
static void tramp_grave_tasks_done(struct rcu_head *rcu)
{
	struct tramp_grave *g = container_of(rcu, struct tramp_grave, rcu);

	INIT_WORK(&g->work, tramp_grave_free);
	schedule_work(&g->work);
}

/*
 * Hand @ops' trampoline to a stand-in on ftrace_tramp_list, to be freed
 * once no task can be inside it; @ops gives it up.  False if memory ran
 * out: the caller then waits for the tasks itself.
 */
static bool tramp_bury(struct ftrace_ops *ops)
{
	struct tramp_grave *g = kzalloc(sizeof(*g), GFP_KERNEL);

	if (!g)
		return false;
	g->stand_in.func = ftrace_stub;
	g->stand_in.trampoline = ops->trampoline;
	g->stand_in.trampoline_size = ops->trampoline_size;
	/* What the back end and the x86 unwinder read of a trampoline's ops. */
	g->stand_in.flags = ops->flags & (FTRACE_OPS_FL_SAVE_REGS |
					  FTRACE_OPS_FL_SAVE_REGS_IF_SUPPORTED |
					  FTRACE_OPS_FL_ALLOC_TRAMP |
					  FTRACE_OPS_FL_DYNAMIC);
	list_replace_rcu(&ops->list, &g->stand_in.list);
	/*
	 * A reader that found @ops still reads its trampoline: @ops forgets
	 * it once they are done (ftrace_tramp_release(), tramp_buried()).
	 */
	ops->flags &= ~FTRACE_OPS_FL_ALLOC_TRAMP;
	call_rcu_tasks(&g->rcu, tramp_grave_tasks_done);
	return true;
}

/*
 * Did tramp_bury() hand @ops' trampoline to a stand-in?  Only it leaves a
 * dynamic ops a trampoline without FTRACE_OPS_FL_ALLOC_TRAMP.
 */
static bool tramp_buried(struct ftrace_ops *ops)
{
	return (ops->flags & FTRACE_OPS_FL_DYNAMIC) &&
	       !(ops->flags & FTRACE_OPS_FL_ALLOC_TRAMP) &&
	       ops->trampoline_size;
}

/**
 * ftrace_tramp_unlist - take leaving trampolines off ftrace_tramp_list
 * @ops: ops being unregistered (FTRACE_OPS_FL_REMOVING), after the waits
 *	for tasks that may be inside their trampolines: until then
 *	unwinders and kallsyms must still know them
 * @n: how many
 * @bury: the wait was for every CPU only (ftrace_shutdown_text_gone())
 *
 * The trampoline of an ops whose owner waits for tasks
 * (FTRACE_OPS_FL_OWNER_WAITS), or of any with @bury, which was not waited
 * for, stays listed under a stand-in until no task can be inside it
 * (tramp_bury()).
 *
 * Return: true if any left the list: the caller must then wait once
 * more for every CPU to schedule (readers of the list run with
 * preemption off) before the trampolines are freed.
 */
bool ftrace_tramp_unlist(struct ftrace_ops **ops, unsigned int n, bool bury)
{
	bool any = false;
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (!(ops[i]->flags & FTRACE_OPS_FL_REMOVING) ||
		    !tramp_goes(ops[i]))
			continue;
		any = true;
		if (bury || (ops[i]->flags & FTRACE_OPS_FL_OWNER_WAITS)) {
			if (tramp_bury(ops[i]))
				continue;
			synchronize_rcu_tasks();
		}
		list_del_rcu(&ops[i]->list);
	}
	return any;
}

/**
 * ftrace_tramp_release - free the trampoline of an ops that has left
 * @ops: an unregistered ops, off ftrace_tramp_list, that no CPU runs
 *
 * A dynamic ops' trampoline is freed (perf hears of it first), or, if a
 * stand-in took it (tramp_bury()), forgotten; a static ops keeps its
 * trampoline, parked, for its next registration.  After a failed update
 * a site may still call the trampoline: once ftrace is dead it is never
 * freed.
 */
void ftrace_tramp_release(struct ftrace_ops *ops)
{
	if (tramp_buried(ops)) {
		ops->trampoline = 0;
		ops->trampoline_size = 0;
		return;
	}
	if (!tramp_goes(ops))
		return;
	if (!ftrace_dead && ops->trampoline)
		tramp_free(ops);
	ops->flags &= ~FTRACE_OPS_FL_ALLOC_TRAMP;
}

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
 * ftrace_name_lookup - kallsyms name of an address kallsyms lost
 * @addr: the address: in a trampoline, or in freed module init text
 * @size: receives the trampoline's or function's size
 * @off: receives the offset of @addr in it
 * @modname: receives the (pseudo-)module name
 * @modbuildid: receives NULL
 * @sym: buffer of KSYM_NAME_LEN for the symbol name
 *
 * Return: @sym, or NULL if the core cannot name @addr.
 */
const char *ftrace_name_lookup(unsigned long addr, unsigned long *size,
			       unsigned long *off, char **modname,
			       const unsigned char **modbuildid, char *sym)
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
