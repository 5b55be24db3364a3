/*
 * arm64-insn.pml: live patching of one arm64 call site (NOP <-> BL) by a
 * single 32-bit store plus cache maintenance, and the freeing of the code
 * the site called before.
 *
 * Follows: arch/arm64/kernel/ftrace.c of 6.1, ftrace_make_call(),
 * ftrace_make_nop(), ftrace_modify_call() and ftrace_update_ftrace_func(),
 * which all end in ftrace_modify_code() -> arch/arm64/kernel/patching.c
 * aarch64_insn_patch_text_nosync(): aarch64_insn_write() (one aligned
 * 32-bit store through the fixmap alias) then caches_clean_inval_pou()
 * (DC CVAU, DSB ISH, IC IVAU, DSB ISH, ISB: arch/arm64/mm/cache.S).  The
 * synchronisation the core adds before freeing is modelled as
 * kick_all_cpus_sync() (an IPI every CPU takes) followed by a grace period
 * that waits for every task to be seen outside the old target, as
 * ops_quiesce() in kernel/trace/ftrace_register.c does before ops_finish()
 * frees a trampoline.
 *
 * What is abstracted:
 *   - The site holds NOP, BL A or BL B; A and B stand for any code a site
 *     calls that can be freed: a per-ops trampoline, a direct-call target,
 *     a module's ops function called from ftrace_caller's ftrace_call.
 *     The writer patches NOP -> BL A -> BL B, frees A, patches BL B ->
 *     NOP and frees B.
 *   - An instruction is one value: the store is single-copy atomic and
 *     the architecture allows concurrent modification and execution of
 *     NOP and BL (ARMv8 ARM B2.2.5), so an executing CPU sees the old or
 *     the new instruction, never parts of both.  What can go wrong is
 *     *which* instruction a CPU sees, and when.
 *   - The data side: the store goes to the D-cache; instruction fetch
 *     misses are served from the point of unification, which sees the
 *     store after DC CVAU (or after the line is written back by itself).
 *   - Each executing CPU has an I-cache line for the site (or none) that
 *     stays valid until it is evicted or invalidated by the writer's
 *     broadcast IC IVAU, and a fetched copy of the instruction (pipeline,
 *     loop buffer) that it may execute, even repeatedly, until a context
 *     synchronisation event (here: taking an IPI) discards it.  Fetches
 *     may happen at any time.
 *   - A task executing the site branches into the target and may stay
 *     there for any number of steps (preempted inside it).
 *   - The writer's own ISB is not modelled: the writer does not execute
 *     the site.  Memory is otherwise sequentially consistent.
 *
 * What is checked (assertions):
 *   1. every execution of the site executes the old or the new
 *      instruction of the patch in progress (not one from an earlier
 *      patch);
 *   2. once a patch operation is complete no CPU executes its old
 *      instruction;
 *   3. no CPU branches into, or executes inside, a freed target.
 *
 * Defines: CPUS (writer + executors, 2 or 3), BUG (0 = as described;
 * 1 = the old target is freed without waiting for the grace period;
 * 2 = no I-cache invalidation; 3 = no kick_all_cpus_sync(): nothing makes
 * the other CPUs discard what they fetched; 4 = no D-cache clean).
 * FREE_ONLY (0 = check all three; 1 = only property 3, the one freeing
 * needs: executing a stale NOP or a stale BL to live code is harmless to
 * the core).  GP_CSE (0 = the grace period only waits; 1 = its visit to each
 * CPU is also a context synchronisation event on that CPU, as when the CPU
 * reaches it through an interrupt).  With BUG=3 FREE_ONLY=1 the model shows
 * whether the grace period alone keeps freed code from running: it does
 * only if the grace period is a context synchronisation event on every
 * CPU (GP_CSE=1), which the architecture does not promise for a CPU that
 * merely schedules (harness/model.sh findings).
 */

#ifndef CPUS
#define CPUS	2
#endif
#ifndef BUG
#define BUG	0
#endif
#ifndef FREE_ONLY
#define FREE_ONLY	0
#endif
#ifndef GP_CSE
#define GP_CSE	0
#endif

#define NEXEC	(CPUS - 1)

#define NOP	0
#define BLA	1	/* also: "inside A" */
#define BLB	2	/* also: "inside B" */
#define NONE	3	/* no line / nothing fetched */
#define OUT	0	/* not inside any target */

byte dmem = NOP;	/* the site as the data side sees it */
byte pou = NOP;		/* the site as instruction fetch sees it on a miss */
byte ic[NEXEC];		/* each executor's I-cache line for the site */
byte pf[NEXEC];		/* each executor's fetched copy */
bool ipi[NEXEC];	/* IPI sent, not taken yet */
byte where[NEXEC];	/* target the executor is inside, or OUT */

byte cur_old = NOP;	/* the patch in progress */
byte cur_new = NOP;
bool settled = true;	/* no patch in progress */
bool freed[3];		/* freed[BLA], freed[BLB] */

proctype executor(byte c)
{
	byte i;

end:
	do
	:: ipi[c] ->
		/* Taking an interrupt is a context synchronisation event. */
		d_step { pf[c] = NONE; ipi[c] = false }
	:: pou != dmem ->
		/* The dirty line is written back on its own. */
		pou = dmem
	:: ic[c] != NONE ->
		/* The I-cache line is evicted. */
		ic[c] = NONE
	:: pf[c] == NONE ->
		/* Fetch, through the I-cache, filling it on a miss. */
		d_step {
			if
			:: ic[c] == NONE -> ic[c] = pou
			:: else
			fi;
			pf[c] = ic[c]
		}
	:: where[c] == OUT && pf[c] != NONE ->
		/* Execute the site with what was fetched. */
		atomic {
			i = pf[c];
			/* The fetched copy may be kept and executed again. */
			if
			:: pf[c] = NONE
			:: skip
			fi;
#if !FREE_ONLY
			assert(i == cur_new || (i == cur_old && !settled));
#endif
			if
			:: i == BLA || i == BLB ->
				assert(!freed[i]);
				where[c] = i
			:: else
			fi;
			i = 0
		}
	:: where[c] != OUT ->
		/* An instruction of the target. */
		assert(!freed[where[c]])
	:: where[c] != OUT ->
		/* Return from the target. */
		where[c] = OUT
	od
}

/* aarch64_insn_patch_text_nosync() and what the core adds after it. */
inline patch(new)
{
	d_step {
		cur_old = cur_new;
		cur_new = new;
		settled = false
	};
	/* aarch64_insn_write(): the store. */
	dmem = new;
#if BUG != 4
	/* DC CVAU + DSB ISH. */
	pou = dmem;
#endif
#if BUG != 2
	/* IC IVAU, broadcast to the inner shareable domain, DSB ISH. */
	do
	:: c < NEXEC -> ic[c] = NONE; c++
	:: else -> break
	od;
	c = 0;
#endif
#if BUG != 3
	/* kick_all_cpus_sync(): every other CPU takes an IPI. */
	d_step {
		do
		:: c < NEXEC -> ipi[c] = true; c++
		:: else -> break
		od;
		c = 0
	};
	do
	:: c < NEXEC -> (!ipi[c]); c++
	:: else -> break
	od;
	c = 0;
#endif
	settled = true
}

/* Wait until no task is inside target t, then free it. */
inline free_target(t)
{
#if BUG != 1
	/* The grace period: each task seen outside t once. */
	do
	:: c < NEXEC ->
		atomic {
			(where[c] != t);
#if GP_CSE
			pf[c] = NONE;
#endif
			c++
		}
	:: else -> break
	od;
	c = 0;
#endif
	freed[t] = true
}

proctype writer()
{
	byte c;

	patch(BLA);
	patch(BLB);
	free_target(BLA);
	patch(NOP);
	free_target(BLB)
}

init
{
	byte c;

	atomic {
		do
		:: c < NEXEC ->
			ic[c] = NONE;
			pf[c] = NONE;
			run executor(c);
			c++
		:: else -> break
		od;
		run writer()
	}
}
