/*
 * ops-lifecycle.pml: registering and unregistering ftrace_ops while other
 * CPUs run the traced call site, the list function and trampolines.
 *
 * Follows kernel/trace/ftrace_register.c: ftrace_startup() with ops_admit()
 * (the ops goes on the list with rcu_assign_pointer()) and
 * arch_ftrace_update_trampoline(); ftrace_shutdown() ->
 * ftrace_shutdown_batch() with ops_detach()/list_remove(),
 * ftrace_run_update(), ops_quiesce() (synchronize_rcu_tasks_rude(), then
 * synchronize_rcu_tasks() when ops_needs_tasks_rcu()) and ops_finish()
 * (arch_ftrace_trampoline_free()); ops_list_walk() (the list function,
 * preemption off); ftrace_update_func() (which function the arch caller
 * calls, and with which function_trace_op).  And kernel/trace/
 * ftrace_update.c: ftrace_run_update() and update_code() (the arch caller
 * goes to the list function, then the sites are patched, then
 * function_trace_op is set and the caller pointed at the new function);
 * kernel/trace/ftrace_plan.c: ftrace_plan_block()/who_wants() (a site
 * wanted by one ops that has a trampoline calls the trampoline, otherwise
 * the arch caller).
 *
 * With -DTWO_WRITERS the writers are unregister_ftrace_function()'s two
 * halves instead: ftrace_unregister_begin() (under ftrace_lock: if the
 * ops is registered, ops_detach() marks it REMOVING, then the update),
 * ops_quiesce() with no lock held, and ftrace_unregister_end() (under
 * ftrace_lock again, shutdown_end(): ftrace_tramp_unlist(), one more
 * rude grace period if a trampoline left the list, ops_finish()); and
 * ops_admit()'s refusal of an ops still REMOVING.  Without it, one writer
 * does everything in turn: ftrace_shutdown_batch(), which callers that
 * hold ftrace_lock (fgraph, probes, instances) still use, waits included.
 *
 * What is abstracted:
 *   - One traced call site that both ops want.  It holds NOP, a call to
 *     the arch caller (ftrace_caller) or a call to an ops' trampoline.
 *     Rewriting it is one atomic step, and once the patch returns no CPU
 *     runs the old instruction: that is what int3-batch.pml and
 *     arm64-insn.pml check for the two back ends.
 *   - The arch caller's own call (ftrace_call) is patched the same way and
 *     calls the stub, the list function or one ops' function directly.
 *     Between the caller's load of function_trace_op and that call the
 *     task may be preempted (the arch caller runs with preemption on).
 *   - Two ops.  A is dynamic (allocated: the owner frees it once
 *     unregister returns) and has a trampoline of its own (x86_64); B is
 *     static and has none (arm64, or an x86_64 ops without a trampoline).
 *     Each is registered once and unregistered once, in any order, one at
 *     a time or (one writer) both in one ftrace_shutdown_batch().
 *   - -DTWO_WRITERS: ftrace_lock is a variable that a writer takes when
 *     it is free.  W1 owns A: it registers A, then unregisters it with
 *     the unlocked wait, then frees it.  W2 registers and unregisters B
 *     (each under the lock; B's wait, the rude grace period alone, holds
 *     no lock either), so any of W2's locked sections can fall inside
 *     W1's wait and the other way round.  A writer that keeps the lock
 *     through its wait (ftrace_shutdown_batch()) allows a subset of these
 *     interleavings.  While A is between its halves (REMOVING: its owner
 *     has not freed it), W2 may also call unregister_ftrace_function(A)
 *     or register_ftrace_function(A), any number of times; as the core
 *     is, each takes the lock, finds A leaving, does nothing and drops
 *     the lock, one step here (an unregistration then also waits until
 *     W1 has finished A before it returns, which only removes
 *     interleavings and is not modelled).  Such calls at other times are the
 *     owner's races, not the core's.  ftrace_tramp_list is a flag of A's
 *     (linked at registration, unlinked in one step); its readers
 *     (ftrace_ops_trampoline(), preemption off) are a third kind of step
 *     of the executing CPUs: find A on the list, then read A.  In the
 *     code the second half's lock orders its list_del_rcu() and its
 *     changes to A's flags against other writers' list_add_rcu() and
 *     their reads of those flags (ops_admit(), the planner's
 *     tramp_live()); with list and flag updates of one step each, the
 *     model cannot see that lock missing, so no seeded bug leaves it out.
 *   - One task per executing CPU.  It may be preempted anywhere preemption
 *     is on, which interleaving covers.  Each task is, by choice at start,
 *     an ordinary task or an idle task (preemption always off while it
 *     runs traced code, and never waited for by RCU-tasks).
 *   - An ops callback disables preemption before anything else (as
 *     ftrace_test_recursion_trylock() does) and runs with it off: its
 *     call is one step, its body another.
 *   - synchronize_rcu_tasks_rude(): each CPU, once, is seen not inside a
 *     preemption-off region.  synchronize_rcu_tasks(): each non-idle
 *     task, once, is seen outside traced code.  A preemptible kernel.
 *   - The IPI of ftrace_modify_all_code() only orders memory, which is
 *     sequentially consistent here; it is not modelled.
 *
 * What is checked (assertions):
 *   1. an ops' callback is never entered, nor still running, after its
 *      unregister has returned;
 *   2. no CPU executes a freed trampoline;
 *   3. no CPU reads a freed ops (the list walk reads op->flags, hashes,
 *      func and next; a trampoline loads its ops; with -DTWO_WRITERS, a
 *      reader of ftrace_tramp_list reads the trampoline's address);
 *   and, only with -DCHECK_OPARG:
 *   4. a callback called directly by the arch caller gets its own ops as
 *      argument.
 *
 * Property 4 does not hold (harness/model.sh findings): a CPU loads
 * function_trace_op in the arch caller, stays there (preempted, or in a
 * long interrupt) while ftrace_modify_all_code() publishes the new
 * function_trace_op, sends its IPI and repoints ftrace_call, then calls
 * the new ops' function with the op it loaded before: ftrace_list_end or
 * an earlier static ops.  The IPI cannot help, the old value is already
 * in a register.  The shortest trace is one register_ftrace_function() of
 * a static ops without a trampoline.  With -DFIX_OPARG (both grace
 * periods between publishing function_trace_op and repointing ftrace_call)
 * it holds.  The same order is in upstream 6.1's ftrace_modify_all_code().
 *
 * Defines: CPUS (2 or 3: CPUS - 1 executing CPUs, and the writers); BUG
 * (0 = the core as it is; 1 = no grace period at all; 2 = the trampoline
 * is freed before the site is repointed; 3 = no RCU-tasks wait for an
 * ops with a trampoline (with two writers: W1 frees A's trampoline and
 * returns without its unlocked RCU-tasks wait); 4 = no rude grace period,
 * only RCU-tasks; and only with TWO_WRITERS: 5 = the first version of the
 * split (b1b75eb): an unregistration that finds its ops not registered
 * still runs an update, the waits and a second half that finishes every
 * ops marked REMOVING, so a second unregister_ftrace_function(A) during
 * W1's wait frees A's trampoline under a task preempted inside it;
 * 6 = ops_admit() does not refuse an ops still REMOVING, so A is
 * registered again during W1's wait and loses its trampoline in W1's
 * second half while sites call it; 7 = no rude grace period after the
 * trampoline leaves ftrace_tramp_list, so a reader that found A there
 * reads it after its owner freed it); CHECK_OPARG; FIX_OPARG (the
 * writer waits for both grace periods between publishing
 * function_trace_op and pointing the arch caller at the new function);
 * TWO_STATIC (A is static without a trampoline too); TWO_WRITERS.
 */

#ifndef CPUS
#define CPUS	2
#endif
#ifndef BUG
#define BUG	0
#endif

#define NEXEC	(CPUS - 1)

/* Ops, and the end of the list. */
#define A	0
#define B	1
#define END	2

/* What the call site calls. */
#define S_NOP		0
#define S_CALLER	1
#define S_TRAMP		2	/* + ops */

/* What the arch caller calls. */
#define F_STUB		0
#define F_LIST		1
#define F_OPS		2	/* + ops: that ops' func, directly */

/* Where a task is. */
#define OUT	0	/* not in traced code: an RCU-tasks quiescent state */
#define CALLER	1	/* in the arch caller */
#define TRAMP	2	/* in a trampoline */

#ifdef TWO_STATIC
#define A_DYN	0
#define A_TRAMP	0
#else
#define A_DYN	1
#define A_TRAMP	1
#endif

bool dyn[2];		/* FTRACE_OPS_FL_DYNAMIC */
bool has_tramp[2];	/* the arch gives it a trampoline (ALLOC_TRAMP) */

byte head = END;	/* ftrace_ops_list */
byte nxt[2];		/* op->next */
bool on_list[2];	/* FTRACE_OPS_FL_ENABLED */
bool alive[2];		/* its callback may run: register began, unregister not returned */
bool ofree[2];		/* the owner has freed the ops */
bool tlive[2];		/* its trampoline is allocated */
bool done_reg[2];
bool done_unreg[2];

byte site = S_NOP;	/* the traced function's call site */
byte cfunc = F_STUB;	/* the arch caller's ftrace_call */
byte fto = END;		/* function_trace_op */

/*
 * ftrace_run_update()'s plan (scratch, zero between updates) and what the
 * arch caller was last pointed at; written only under ftrace_lock.
 */
byte n, one, wsite, wfunc, wop;
bool func;
byte pfunc = F_STUB;
byte pop = END;

#ifdef TWO_WRITERS
byte lock;		/* ftrace_lock: 0, or the writer (1, 2) holding it */
bool removing[2];	/* FTRACE_OPS_FL_REMOVING */
bool listed[2];		/* on ftrace_tramp_list */
#endif

byte pcnt[NEXEC];	/* preemption-off depth of each CPU */
byte st[NEXEC];		/* where each task is */
bool idle[NEXEC];	/* the task is an idle task */

/*
 * Executor c enters ops cx's callback with cop as its ops argument (the
 * callback's first act disables preemption) ...
 */
inline cb_enter(cx, cop)
{
	assert(alive[cx]);
	assert(cop == END || !ofree[cop]);
#ifdef CHECK_OPARG
	assert(cop == cx);
#endif
	pcnt[c]++
}

/* ... runs its body with preemption off and returns. */
inline cb_exit(cx)
{
	atomic {
		assert(alive[cx]);
		pcnt[c]--
	}
}

/* ops_list_walk(): every ops on the list wants the site. */
inline list_walk()
{
	atomic {
		/* trace_test_and_set_recursion() disables preemption. */
		pcnt[c]++;
		p = head
	};
	do
	:: p == END -> break
	:: else ->
		/* ops_call_here() and READ_ONCE(op->func) read the ops. */
		atomic {
			assert(!ofree[p]);
			cb_enter(p, p)
		};
		cb_exit(p);
		atomic {
			assert(!ofree[p]);
			p = nxt[p]
		}
	od;
	pcnt[c]--
}

proctype executor(byte c)
{
	byte x, opr, f, p;

	if
	:: idle[c] = true
	:: skip
	fi;
end:
	do
	:: atomic {
		/* The site calls the arch caller. */
		site == S_CALLER ->
		st[c] = CALLER;
		if
		:: idle[c] -> pcnt[c]++
		:: else
		fi
	   };
		/* Load function_trace_op; preemption may follow. */
		opr = fto;
		/*
		 * The patched call: reading its target and entering the
		 * callee are one instruction.
		 */
		atomic {
			f = cfunc;
			if
			:: f >= F_OPS -> cb_enter(f - F_OPS, opr)
			:: else
			fi
		};
		if
		:: f == F_STUB -> skip
		:: f == F_LIST -> list_walk()
		:: f >= F_OPS -> cb_exit(f - F_OPS)
		fi;
		atomic {
			st[c] = OUT;
			if
			:: idle[c] -> pcnt[c]--
			:: else
			fi;
			opr = 0; f = 0; p = 0
		}
	:: atomic {
		/* The site calls ops x's trampoline. */
		site >= S_TRAMP ->
		x = site - S_TRAMP;
		assert(tlive[x]);
		st[c] = TRAMP;
		if
		:: idle[c] -> pcnt[c]++
		:: else
		fi
	   };
		/* It saves registers, loads its ops and calls its func. */
		atomic {
			assert(tlive[x] && !ofree[x]);
			cb_enter(x, x)
		};
		cb_exit(x);
		/* It returns. */
		atomic {
			assert(tlive[x]);
			st[c] = OUT;
			if
			:: idle[c] -> pcnt[c]--
			:: else
			fi;
			x = 0
		}
#ifdef TWO_WRITERS
	:: atomic {
		/*
		 * ftrace_ops_trampoline() (an unwinder, kallsyms, perf),
		 * preemption off, finds A on ftrace_tramp_list ...
		 */
		listed[A] -> pcnt[c]++
	   };
		/* ... and reads its trampoline's address and size. */
		atomic {
			assert(!ofree[A]);
			pcnt[c]--
		}
#endif
	od
}

/* synchronize_rcu_tasks_rude() */
inline rude_gp()
{
	do
	:: c < NEXEC -> (pcnt[c] == 0); c++
	:: else -> break
	od;
	c = 0
}

/* synchronize_rcu_tasks() */
inline tasks_gp()
{
	do
	:: c < NEXEC -> (idle[c] || st[c] == OUT); c++
	:: else -> break
	od;
	c = 0
}

/* ftrace_run_update(FTRACE_UPDATE_CALLS) with ftrace_modify_all_code(). */
inline run_update()
{
	/* Plan: who wants the site. */
	d_step {
		n = on_list[A] + on_list[B];
		if
		:: on_list[A] -> one = A
		:: else -> one = B
		fi;
		if
		:: n == 0 -> wsite = S_NOP
		:: n == 1 && has_tramp[one] -> wsite = S_TRAMP + one
		:: else -> wsite = S_CALLER
		fi;
		/* ftrace_update_func(): one static ops is called directly. */
		if
		:: n == 0 -> wfunc = F_STUB; wop = END
		:: n == 1 && !dyn[one] -> wfunc = F_OPS + one; wop = one
		:: else -> wfunc = F_LIST; wop = END
		fi;
		func = (wfunc != pfunc || wop != pop)
	};
	/* ftrace_modify_all_code() */
	if
	:: func -> cfunc = F_LIST
	:: else
	fi;
	if
	:: site != wsite -> site = wsite
	:: else
	fi;
	if
	:: func && wfunc != F_LIST ->
		fto = wop;
#ifdef FIX_OPARG
		rude_gp();
		tasks_gp();
#endif
		cfunc = wfunc
	:: else
	fi;
	d_step {
		pfunc = wfunc;
		pop = wop;
		n = 0; one = 0; wsite = 0; wfunc = 0; wop = 0; func = false
	}
}

/* ftrace_startup() */
inline do_register(x)
{
	alive[x] = true;
	/* ops_admit() */
	nxt[x] = head;
	head = x;
	on_list[x] = true;
	/* arch_ftrace_update_trampoline() */
	tlive[x] = has_tramp[x];
#ifdef TWO_WRITERS
	listed[x] = has_tramp[x];
#endif
	run_update();
	done_reg[x] = true
}

/* ops_detach() */
inline detach(x)
{
	/* list_remove(): one store unlinks it. */
	if
	:: head == x -> head = nxt[x]
	:: else -> nxt[1 - x] = nxt[x]
	fi;
	on_list[x] = false;
	tasks = tasks || has_tramp[x] || dyn[x]
}

/* ops_finish() and the return of unregister */
inline finish(x)
{
	tlive[x] = false;
	d_step {
		alive[x] = false;
		ofree[x] = dyn[x];
		done_unreg[x] = true
	}
}

/* ops_quiesce() */
inline quiesce()
{
#if BUG == 3
	tasks = false;
#endif
#if BUG != 1
#if BUG != 4
	rude_gp();
#endif
	if
	:: tasks -> tasks_gp()
	:: else
	fi;
#endif
	tasks = false
}

/* ftrace_shutdown_batch() of one ops */
inline do_unregister(x)
{
#if BUG == 2
	tlive[x] = false;
#endif
	detach(x);
	run_update();
	quiesce();
	finish(x)
}

#ifdef TWO_WRITERS
/* mutex_lock(&ftrace_lock) by writer w, and mutex_unlock() */
inline lock_take(w)
{
	atomic { lock == 0 -> lock = w }
}

inline lock_drop()
{
	lock = 0
}

/*
 * shutdown_end() of ops x, under ftrace_lock, after ops_quiesce():
 * ftrace_tramp_unlist() (a leaving dynamic ops' trampoline leaves
 * ftrace_tramp_list; then every CPU must schedule once more before it is
 * freed), then ops_finish() (ftrace_tramp_release() frees a dynamic ops'
 * trampoline; REMOVING is cleared).  Both act only on an ops still
 * marked REMOVING.
 */
inline shutdown_end(x)
{
	if
	:: removing[x] && dyn[x] && listed[x] ->
		listed[x] = false;
#if BUG != 7
		rude_gp()
#endif
	:: else
	fi;
	if
	:: removing[x] ->
		d_step {
			tlive[x] = tlive[x] && !dyn[x];
			removing[x] = false
		}
	:: else
	fi
}

/*
 * W1, the owner of A: register_ftrace_function(A), then
 * unregister_ftrace_function(A) in its two halves with the waits between
 * them holding no lock; then it frees A.
 */
proctype w1()
{
	byte c;
	bool tasks;

	lock_take(1);
	do_register(A);
	lock_drop();
	/* ftrace_unregister_begin(): A is registered, so it is unlinked. */
	lock_take(1);
#if BUG == 2
	tlive[A] = false;
#endif
	detach(A);
	removing[A] = true;
	run_update();
	lock_drop();
	/* ftrace_unregister_end(): the waits, with no lock held ... */
	quiesce();
	/* ... then the second half under ftrace_lock again. */
	lock_take(1);
	shutdown_end(A);
	lock_drop();
	/* unregister returns; the owner frees A. */
	d_step {
		alive[A] = false;
		ofree[A] = dyn[A];
		done_unreg[A] = true
	}
}

/*
 * W2: register_ftrace_function(B) and unregister_ftrace_function(B) (B is
 * static without a trampoline: its wait is the rude grace period alone,
 * and its second half only clears REMOVING, which no one else reads), each
 * under ftrace_lock, at any point of W1's.  While A is between its two
 * halves (REMOVING, so its owner cannot have freed it yet), W2 may also
 * call unregister_ftrace_function(A) or register_ftrace_function(A), any
 * number of times.  They are not modelled at other times: a second
 * unregistration of a registered ops races its owner's free, and
 * registering an ops someone else owns is not the core's to check.  As
 * the core is, each try takes ftrace_lock, sees REMOVING or ENABLED,
 * does nothing and drops the lock: one step here, since no one can see
 * anything between.
 */
proctype w2()
{
	byte c;
	bool tasks;

	do
	:: atomic { !done_reg[B] && lock == 0 -> lock = 2 };
		do_register(B);
		lock_drop()
	:: atomic { on_list[B] && lock == 0 -> lock = 2 };
		detach(B);
		run_update();
		lock_drop();
		quiesce();
		d_step {
			alive[B] = false;
			done_unreg[B] = true
		}
	/* unregister_ftrace_function(A) */
#if BUG != 5
	:: atomic { removing[A] && !on_list[A] && lock == 0 -> skip }
#else
	:: atomic { removing[A] && !on_list[A] && lock == 0 -> lock = 2 };
		/*
		 * The first version (b1b75eb) ran an update anyway, waited,
		 * and then finished every ops still marked REMOVING.
		 */
		run_update();
		lock_drop();
		rude_gp();
		lock_take(2);
		shutdown_end(A);
		lock_drop()
#endif
	/* register_ftrace_function(A) */
#if BUG != 6
	:: atomic { removing[A] && lock == 0 -> skip }
#else
	:: atomic { removing[A] && !on_list[A] && lock == 0 -> lock = 2 };
		/* ops_admit() without the REMOVING test */
		do_register(A);
		lock_drop()
#endif
	:: done_unreg[B] -> break
	od
}
#else

proctype writer()
{
	byte c;
	bool tasks;

	do
	:: !done_reg[A] -> do_register(A)
	:: !done_reg[B] -> do_register(B)
	:: on_list[A] -> do_unregister(A)
	:: on_list[B] -> do_unregister(B)
	:: on_list[A] && on_list[B] ->
		/* Both in one ftrace_shutdown_batch(). */
#if BUG == 2
		tlive[A] = false;
		tlive[B] = false;
#endif
		detach(A);
		detach(B);
		run_update();
		quiesce();
		finish(A);
		finish(B)
	:: done_unreg[A] && done_unreg[B] -> break
	od
}
#endif

init
{
	byte c;

	atomic {
		dyn[A] = A_DYN;
		has_tramp[A] = A_TRAMP;
		dyn[B] = false;
		has_tramp[B] = false;
		do
		:: c < NEXEC -> run executor(c); c++
		:: else -> break
		od;
#ifdef TWO_WRITERS
		run w1();
		run w2()
#else
		run writer()
#endif
	}
}
