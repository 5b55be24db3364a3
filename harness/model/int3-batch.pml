/*
 * int3-batch.pml: live patching of a batch of multi-byte x86 instructions
 * with int3, as the x86_64 back end does it for the ftrace core.
 *
 * Follows: arch/x86/kernel/alternative.c of 6.1, text_poke_bp_batch()
 * (the writer), poke_int3_handler() with try_get_desc()/put_desc() (the
 * trap handler) and text_poke_sync() (the serialising IPI); the batch is
 * the one arch/x86/kernel/ftrace.c ftrace_replace_code() queues with
 * text_poke_queue() and flushes with text_poke_finish(), which is what
 * kernel/trace/ftrace_update.c ftrace_modify_all_code() ends up in.
 *
 * What is abstracted:
 *   - A call site is a 5-byte instruction seen as two parts: the first
 *     byte (head) and the other four (tail).  The tail is written in one
 *     store; that is safe to assume because no CPU decodes the tail of a
 *     site whose head is int3 (the model checks it indirectly: a tail is
 *     only ever read after a head that is not int3).
 *   - Instructions are NOP, CALL A and CALL B.  Two batches of two sites
 *     run one after the other: site 0 goes NOP -> CALL A -> CALL B, site 1
 *     goes CALL A -> NOP -> CALL B, so the batches cover make_call,
 *     make_nop and modify_call, and the descriptor is used twice.
 *   - Instruction fetch: every executing CPU has its own view of each byte
 *     of each site.  A view may lag memory for as long as the CPU does not
 *     serialise; each byte of it may catch up with memory on its own, at
 *     any moment, also between the fetch of an instruction's head and the
 *     fetch of its tail.  A serialising event (the IPI of a sync) brings
 *     the whole view up to date.  This is what makes a naive protocol
 *     tear: a CPU may combine a head and a tail fetched at different times.
 *   - The IPI of a sync is taken between instructions only, and not inside
 *     the int3 handler (it runs with interrupts off).
 *   - Memory is sequentially consistent: the barriers of the real code
 *     (atomic_set_release, smp_rmb in the handler) are there to give that
 *     order and are not modelled separately.
 *   - The batch descriptor (bp_desc: vector, count, reference count) is
 *     "valid" from the moment the writer fills it in until it is released
 *     at the end of the batch; the next batch fills it in again.
 *
 * What is checked (assertions):
 *   1. every instruction a CPU executes, natively or by the handler's
 *      emulation, is the complete old or the complete new instruction of
 *      the batch in progress, never a mix of bytes of both;
 *   2. once a batch is done no CPU executes its old instruction;
 *   3. every int3 a CPU hits is claimed by the handler (an unclaimed int3
 *      in kernel text is fatal);
 *   4. the handler reads the descriptor only while it is valid.
 *
 * Defines: CPUS (writer + executors, 2 or 3), BUG (0 = the protocol as
 * implemented; 1 = no sync between writing the tails and the heads;
 * 2 = no sync between writing int3 and the tails; 3 = no sync after
 * writing the heads), REFS (1 = handler and writer use the reference
 * count, as implemented; 0 = neither does).
 *
 * With REFS=0 the model still holds (harness/model.sh findings): for
 * ftrace batches the sync after the heads already waits for every handler
 * (they run with interrupts off), so the reference count only matters for
 * a batch whose new first bytes are all int3, where text_poke_bp_batch()
 * skips that sync.
 */

#ifndef CPUS
#define CPUS	2
#endif
#ifndef BUG
#define BUG	0
#endif
#ifndef REFS
#define REFS	1
#endif

#define NEXEC	(CPUS - 1)	/* CPUs executing the sites */
#define NSITES	2
#define NBATCH	2

/* Byte values: heads and tails share one number space. */
#define INT3	0
#define H_NOP	1	/* first byte of the 5-byte NOP */
#define H_CALL	2	/* the call opcode */
#define T_NOP	3	/* the last four bytes of the NOP */
#define T_A	4	/* displacement of a call to A */
#define T_B	5	/* displacement of a call to B */

/* Instructions. */
#define I_NOP	0
#define I_CALLA	1
#define I_CALLB	2
#define I_TORN	3	/* bytes that are no instruction of ours */

#define HEAD(i)	((i) == I_NOP -> H_NOP : H_CALL)
#define TAIL(i)	((i) == I_NOP -> T_NOP : ((i) == I_CALLA -> T_A : T_B))
#define DECODE(h, t) \
	(((h) == H_NOP && (t) == T_NOP) -> I_NOP : \
	 (((h) == H_CALL && (t) == T_A) -> I_CALLA : \
	  (((h) == H_CALL && (t) == T_B) -> I_CALLB : I_TORN)))

/* View of executor c of site s. */
#define V(c, s)	((c) * NSITES + (s))

byte mhead[NSITES];		/* the text in memory */
byte mtail[NSITES];
byte vhead[NEXEC * NSITES];	/* what each executor would fetch */
byte vtail[NEXEC * NSITES];
bool pending[NEXEC];		/* sync IPI not yet taken */

byte plan[NBATCH * NSITES];	/* new instruction of each site per batch */
byte cur_old[NSITES];		/* the batch in progress: old ... */
byte cur_new[NSITES];		/* ... and new instruction of each site */
bool settled = true;		/* no batch in progress */

/* bp_desc */
byte refs;			/* reference count; 0: no batch */
bool desc_ok;			/* vector and count are valid */
byte desc_batch;		/* which batch the vector describes */

/* A CPU has just executed instruction i at site s. */
inline executed(s, i)
{
	assert(i != I_TORN);
	assert(i == cur_new[s] || (i == cur_old[s] && !settled));
}

proctype executor(byte c)
{
	byte s, h, t, i;
	bool got;

end:
	do
	:: pending[c] ->
		/* The sync IPI: the CPU serialises and refetches everything. */
		d_step {
			s = 0;
			do
			:: s < NSITES ->
				vhead[V(c, s)] = mhead[s];
				vtail[V(c, s)] = mtail[s];
				s++
			:: else -> break
			od;
			s = 0;
			pending[c] = false
		}
	:: atomic {
		/* One byte of the view catches up with memory. */
		select(s : 0 .. NSITES - 1);
		if
		:: vhead[V(c, s)] = mhead[s]
		:: vtail[V(c, s)] = mtail[s]
		fi;
		s = 0
	   }
	:: atomic {
		/* Execute site s: fetch its first byte ... */
		select(s : 0 .. NSITES - 1);
		h = vhead[V(c, s)]
	   };
		if
		:: h == INT3 ->
			/* poke_int3_handler(): try_get_desc() */
#if REFS
			atomic {
				if
				:: refs > 0 -> refs++; got = true
				:: else -> got = false
				fi
			};
#else
			got = desc_ok;
#endif
			/* An int3 nobody claims would kill the kernel. */
			assert(got);
			/* Look the address up in the vector: every site of the
			 * model is in every batch.  Emulate the new instruction. */
			assert(desc_ok);
			i = plan[desc_batch * NSITES + s];
			executed(s, i);
			assert(desc_ok);
#if REFS
			/* put_desc() */
			refs--;
#endif
			got = false
		:: else ->
			/* ... and later its tail, which may have been refetched. */
			if
			:: vtail[V(c, s)] = mtail[s]
			:: skip
			fi;
			t = vtail[V(c, s)];
			i = DECODE(h, t);
			executed(s, i)
		fi;
		d_step { s = 0; h = 0; t = 0; i = 0 }
	od
}

/* text_poke_sync(): IPI every other CPU and wait until each has taken it. */
inline sync_cores()
{
	d_step {
		c = 0;
		do
		:: c < NEXEC -> pending[c] = true; c++
		:: else -> break
		od;
		c = 0
	};
	do
	:: c < NEXEC -> (!pending[c]); c++
	:: else -> break
	od;
	c = 0
}

proctype writer()
{
	byte b, s, c;

	do
	:: b < NBATCH ->
		/* The batch the core asks for: every site from old to new. */
		d_step {
			s = 0;
			do
			:: s < NSITES ->
				cur_old[s] = cur_new[s];
				cur_new[s] = plan[b * NSITES + s];
				s++
			:: else -> break
			od;
			s = 0;
			settled = false
		};
		/* text_poke_bp_batch(): fill in the descriptor, refs = 1. */
		desc_batch = b;
		desc_ok = true;
#if REFS
		refs = 1;
#endif
		/* 1. int3 over the first byte of every site. */
		do
		:: s < NSITES -> mhead[s] = INT3; s++
		:: else -> break
		od;
		s = 0;
#if BUG != 2
		sync_cores();
#endif
		/* 2. The tails. */
		do
		:: s < NSITES -> mtail[s] = TAIL(cur_new[s]); s++
		:: else -> break
		od;
		s = 0;
#if BUG != 1
		sync_cores();
#endif
		/* 3. The heads (never int3 for ftrace: no site is skipped). */
		do
		:: s < NSITES -> mhead[s] = HEAD(cur_new[s]); s++
		:: else -> break
		od;
		s = 0;
#if BUG != 3
		sync_cores();
#endif
		/* Drop the writer's reference, wait for the handlers' ones. */
#if REFS
		refs--;
		(refs == 0);
#endif
		/* The descriptor is released (the next batch reuses it). */
		desc_ok = false;
		settled = true;
		b++
	:: else -> break
	od
}

init
{
	byte c, s;

	atomic {
		/* Batch 0: site 0 NOP -> CALL A, site 1 CALL A -> NOP. */
		plan[0] = I_CALLA;
		plan[1] = I_NOP;
		/* Batch 1: site 0 CALL A -> CALL B, site 1 NOP -> CALL B. */
		plan[2] = I_CALLB;
		plan[3] = I_CALLB;
		cur_new[0] = I_NOP;
		cur_new[1] = I_CALLA;
		cur_old[0] = I_NOP;
		cur_old[1] = I_CALLA;
		do
		:: s < NSITES ->
			mhead[s] = HEAD(cur_new[s]);
			mtail[s] = TAIL(cur_new[s]);
			c = 0;
			do
			:: c < NEXEC ->
				vhead[V(c, s)] = mhead[s];
				vtail[V(c, s)] = mtail[s];
				c++
			:: else -> break
			od;
			s++
		:: else -> break
		od;
		c = 0;
		do
		:: c < NEXEC -> run executor(c); c++
		:: else -> break
		od;
		run writer()
	}
}
