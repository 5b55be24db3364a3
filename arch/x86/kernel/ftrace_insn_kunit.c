// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the x86 ftrace back end's instruction encoding
 * (<asm/ftrace_insn.h>): the bytes of CALL, JMP and the NOP, the rel32
 * range, refused input, decoding, and what the INT3 handler does with a
 * CPU that trapped on a site in change; and the kernel's batch patcher
 * as the back end uses it, on a buffer of its own.
 */
#include <kunit/test.h>
#include <linux/memory.h>
#include <linux/moduleloader.h>
#include <linux/mutex.h>
#include <linux/ptrace.h>
#include <asm/ftrace_insn.h>

#define SITE	FTRACE_X86_SITE_SIZE

/* A plausible kernel text address, and a 32-bit one. */
#define IP	((unsigned long)(BITS_PER_LONG == 64 ? 0xffffffff81234560UL : \
						       0xc1234560UL))

/* The five bytes at @got are @want; on failure both are printed. */
static void expect_bytes(struct kunit *test, const u8 *got, const u8 *want)
{
	KUNIT_EXPECT_EQ_MSG(test, memcmp(got, want, SITE), 0, "%*ph, not %*ph",
			    SITE, got, SITE, want);
}

/* The NOP, spelled out: NOPL on x86_64, a prefixed LEA on 32-bit. */
static const u8 nop5[SITE] = {
#ifdef CONFIG_X86_64
	0x0f, 0x1f, 0x44, 0x00, 0x00
#else
	0x3e, 0x8d, 0x74, 0x26, 0x00
#endif
};

static void encode_call_and_jmp(struct kunit *test)
{
	static const u8 fwd[SITE] = { 0xe8, 0x34, 0x12, 0x00, 0x00 };
	static const u8 back[SITE] = { 0xe9, 0xeb, 0xff, 0xff, 0xff };
	u8 insn[SITE];

	KUNIT_ASSERT_EQ(test, ftrace_x86_encode_rel(insn, FTRACE_X86_CALL, IP,
						    IP + SITE + 0x1234), 0);
	expect_bytes(test, insn, fwd);
	/* A jump 0x10 bytes back from the site: -0x15 from its end. */
	KUNIT_ASSERT_EQ(test, ftrace_x86_encode_rel(insn, FTRACE_X86_JMP, IP,
						    IP - 0x10), 0);
	expect_bytes(test, insn, back);
	/* A call to the next instruction is a zero displacement. */
	KUNIT_ASSERT_EQ(test, ftrace_x86_encode_site(insn, IP, IP + SITE), 0);
	KUNIT_EXPECT_EQ(test, insn[0], FTRACE_X86_CALL);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(insn + 1), 0U);
}

static void encode_nop(struct kunit *test)
{
	u8 insn[SITE];

	memset(insn, 0xaa, sizeof(insn));
	KUNIT_ASSERT_EQ(test, ftrace_x86_encode_site(insn, IP, 0), 0);
	expect_bytes(test, insn, nop5);
}

static void encode_range(struct kunit *test)
{
	u8 insn[SITE], before[SITE];
	unsigned long end = IP + SITE;

	if (BITS_PER_LONG == 32)
		kunit_skip(test, "every target is in range on 32-bit");
	KUNIT_EXPECT_EQ(test, ftrace_x86_encode_rel(insn, FTRACE_X86_CALL, IP,
						    end + S32_MAX), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(insn + 1), (u32)S32_MAX);
	KUNIT_EXPECT_EQ(test, ftrace_x86_encode_rel(insn, FTRACE_X86_CALL, IP,
						    end + S32_MIN), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(insn + 1), (u32)S32_MIN);

	/* One byte further either way is refused, and nothing is written. */
	memset(insn, 0x5a, sizeof(insn));
	memcpy(before, insn, sizeof(insn));
	KUNIT_EXPECT_EQ(test, ftrace_x86_encode_rel(insn, FTRACE_X86_CALL, IP,
						    end + S32_MAX + 1UL),
			-ERANGE);
	KUNIT_EXPECT_EQ(test, ftrace_x86_encode_site(insn, IP,
						     end + S32_MIN - 1UL),
			-ERANGE);
	/* vmalloc space is terabytes away from kernel text. */
	KUNIT_EXPECT_EQ(test, ftrace_x86_encode_site(insn, IP,
						     (unsigned long)(0xffffc90000000000ULL)),
			-ERANGE);
	expect_bytes(test, insn, before);
}

static void encode_bad_input(struct kunit *test)
{
	u8 insn[SITE], before[SITE];

	memset(insn, 0x5a, sizeof(insn));
	memcpy(before, insn, sizeof(insn));
	/* Only CALL and JMP are rel32 instructions the back end writes. */
	KUNIT_EXPECT_EQ(test, ftrace_x86_encode_rel(insn, 0x90, IP, IP + 64),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ftrace_x86_encode_rel(insn, FTRACE_X86_INT3, IP,
						    IP + 64), -EINVAL);
	/* A CALL to address 0 is the NOP's encoding, not a call. */
	KUNIT_EXPECT_EQ(test, ftrace_x86_encode_rel(insn, FTRACE_X86_CALL, IP,
						    0), -EINVAL);
	expect_bytes(test, insn, before);
}

static void decode(struct kunit *test)
{
	static const u8 int3_tail[SITE] = { 0xcc, 0x34, 0x12, 0x00, 0x00 };
	static const u8 near_nop[SITE] = { 0x0f, 0x1f, 0x44, 0x00, 0x01 };
	static const u8 short_jmp[SITE] = { 0xeb, 0x03, 0x90, 0x90, 0x90 };
	unsigned long dest = 1;
	u8 insn[SITE];

	ftrace_x86_encode_rel(insn, FTRACE_X86_CALL, IP, IP - 0x400000);
	KUNIT_EXPECT_EQ(test, ftrace_x86_decode(insn, IP, &dest),
			FTRACE_X86_CALL);
	KUNIT_EXPECT_EQ(test, dest, IP - 0x400000);
	ftrace_x86_encode_rel(insn, FTRACE_X86_JMP, IP, IP + 0x777);
	KUNIT_EXPECT_EQ(test, ftrace_x86_decode(insn, IP, &dest),
			FTRACE_X86_JMP);
	KUNIT_EXPECT_EQ(test, dest, IP + 0x777);
	KUNIT_EXPECT_EQ(test, ftrace_x86_decode(nop5, IP, &dest), 0);
	KUNIT_EXPECT_EQ(test, dest, 0UL);
	/* A site in change, a NOP with one byte off, a short jump. */
	KUNIT_EXPECT_EQ(test, ftrace_x86_decode(int3_tail, IP, &dest), -EINVAL);
	KUNIT_EXPECT_EQ(test, ftrace_x86_decode(near_nop, IP, &dest), -EINVAL);
	KUNIT_EXPECT_EQ(test, ftrace_x86_decode(short_jmp, IP, &dest), -EINVAL);
}

/* A CPU that trapped on the INT3 at @site: regs->ip is just past it. */
static void trap_at(struct pt_regs *regs, unsigned long site,
		    unsigned long *stack_top)
{
	memset(regs, 0, sizeof(*regs));
	regs->ip = site + 1;
	regs->sp = (unsigned long)stack_top;
}

/*
 * Resume @regs as the kernel's INT3 handler does for an entry that
 * text_poke_queue_decoded() got from ftrace_x86_emulate_as(@insn).
 */
static void resume_as(struct pt_regs *regs, const u8 *insn)
{
	s32 disp;
	u8 op = ftrace_x86_emulate_as(insn, &disp);
	unsigned long next = regs->ip - 1 + SITE;

	if (op == FTRACE_X86_CALL)
		int3_emulate_call(regs, next + disp);
	else
		int3_emulate_jmp(regs, next + disp);
}

/* A CPU meeting the INT3 of a site in change goes where the new bytes go. */
static void emulate_as(struct kunit *test)
{
	unsigned long stack[4] = {};
	struct pt_regs regs;
	u8 insn[SITE];

	/* Becoming a CALL: the return address is the end of the site. */
	ftrace_x86_encode_site(insn, IP, IP + 0x1000);
	trap_at(&regs, IP, &stack[4]);
	resume_as(&regs, insn);
	KUNIT_EXPECT_EQ(test, regs.ip, IP + 0x1000);
	KUNIT_EXPECT_EQ(test, regs.sp, (unsigned long)&stack[3]);
	KUNIT_EXPECT_EQ(test, stack[3], IP + SITE);

	/* Becoming the NOP: on to the next instruction, stack untouched. */
	ftrace_x86_encode_site(insn, IP, 0);
	stack[3] = 0;
	trap_at(&regs, IP, &stack[4]);
	resume_as(&regs, insn);
	KUNIT_EXPECT_EQ(test, regs.ip, IP + SITE);
	KUNIT_EXPECT_EQ(test, regs.sp, (unsigned long)&stack[4]);
	KUNIT_EXPECT_EQ(test, stack[3], 0UL);

	/* Becoming a JMP (the 32-bit graph hook): to its target. */
	ftrace_x86_encode_rel(insn, FTRACE_X86_JMP, IP, IP - 0x80);
	trap_at(&regs, IP, &stack[4]);
	resume_as(&regs, insn);
	KUNIT_EXPECT_EQ(test, regs.ip, IP - 0x80);
	KUNIT_EXPECT_EQ(test, regs.sp, (unsigned long)&stack[4]);
}

#ifdef CONFIG_MODULES
/*
 * The batch patcher (text_poke_queue_decoded(), text_poke_finish()) maps
 * a batch's pages once, a slot each; a batch of module text takes them
 * page by page (the patcher's entries are within 2 GiB of the kernel's
 * text, so the buffer comes from ftrace_x86_text_alloc()).  Each site straddles a
 * page boundary of its own, two pages that no other site shares: with a
 * full queue, every slot of the window is used.  Every byte around the
 * sites must stay as it was.  The buffer never runs.
 */
#define WIN_SITES	256
#define WIN_PAGES	(2 * WIN_SITES)

static unsigned long win_site(u8 *buf, unsigned int k)
{
	return (unsigned long)buf + (2 * k + 1) * PAGE_SIZE - 2;
}

/* The site whose five bytes hold byte @i of the buffer, or -1. */
static int win_site_of(u8 *buf, size_t i)
{
	unsigned int k = (i + 2) / (2 * PAGE_SIZE);
	unsigned long at = (unsigned long)buf + i;

	if (k < WIN_SITES && at >= win_site(buf, k) &&
	    at < win_site(buf, k) + SITE)
		return k;
	return -1;
}

/* Every site holds @want(site), every other byte an INT3. */
static void expect_window(struct kunit *test, u8 *buf, bool call)
{
	unsigned int k, bad = 0;
	u8 want[SITE];
	size_t i;

	for (k = 0; k < WIN_SITES; k++) {
		unsigned long ip = win_site(buf, k);

		ftrace_x86_encode_site(want, ip, call ? ip + 0x1000 : 0);
		if (memcmp((void *)ip, want, SITE) && !bad++)
			expect_bytes(test, (void *)ip, want);
	}
	for (i = 0; i < WIN_PAGES * PAGE_SIZE; i++) {
		if (win_site_of(buf, i) >= 0)
			continue;
		if (buf[i] != FTRACE_X86_INT3 && !bad++)
			KUNIT_FAIL(test, "byte %zu is %02x", i, buf[i]);
	}
	KUNIT_EXPECT_EQ(test, bad, 0U);
}

static void batch_window(struct kunit *test)
{
	u8 insn[SITE], *buf;
	unsigned int k;
	s32 disp;
	u8 op;

	buf = ftrace_x86_text_alloc(WIN_PAGES * PAGE_SIZE);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	memset(buf, FTRACE_X86_INT3, WIN_PAGES * PAGE_SIZE);
	for (k = 0; k < WIN_SITES; k++)
		memcpy((void *)win_site(buf, k), nop5, SITE);

	/* The back end's way: pre-encoded, one batch of 256. */
	mutex_lock(&text_mutex);
	for (k = 0; k < WIN_SITES; k++) {
		unsigned long ip = win_site(buf, k);

		ftrace_x86_encode_site(insn, ip, ip + 0x1000);
		op = ftrace_x86_emulate_as(insn, &disp);
		text_poke_queue_decoded((void *)ip, insn, SITE, op, disp);
	}
	text_poke_finish();
	mutex_unlock(&text_mutex);
	expect_window(test, buf, true);

	/* Everyone else's: decoded by the patcher. */
	mutex_lock(&text_mutex);
	for (k = 0; k < WIN_SITES; k++)
		text_poke_queue((void *)win_site(buf, k), nop5, SITE, NULL);
	text_poke_finish();
	mutex_unlock(&text_mutex);
	expect_window(test, buf, false);

	/* One entry on its own (text_poke_bp()), across a page. */
	ftrace_x86_encode_site(insn, win_site(buf, 7), win_site(buf, 7) + 0x1000);
	mutex_lock(&text_mutex);
	text_poke_bp((void *)win_site(buf, 7), insn, SITE, NULL);
	mutex_unlock(&text_mutex);
	expect_bytes(test, (void *)win_site(buf, 7), insn);
	ftrace_x86_text_free(buf);
}
#else
static void batch_window(struct kunit *test)
{
	kunit_skip(test, "no module area without CONFIG_MODULES");
}
#endif

static struct kunit_case ftrace_insn_cases[] = {
	KUNIT_CASE(encode_call_and_jmp),
	KUNIT_CASE(encode_nop),
	KUNIT_CASE(encode_range),
	KUNIT_CASE(encode_bad_input),
	KUNIT_CASE(decode),
	KUNIT_CASE(emulate_as),
	KUNIT_CASE(batch_window),
	{}
};

static struct kunit_suite ftrace_insn_suite = {
	.name = "ftrace-x86-insn",
	.test_cases = ftrace_insn_cases,
};

kunit_test_suite(ftrace_insn_suite);

MODULE_LICENSE("GPL");
