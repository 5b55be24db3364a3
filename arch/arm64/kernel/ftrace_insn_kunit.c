// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the arm64 ftrace back end's instruction encoding
 * (<asm/ftrace_insn.h>): the NOP, "mov x9, x30", BL and its reach, the
 * choice of a module veneer, refused input and decoding; the shape of the
 * per-ops trampoline templates; and where trampolines are made (the pool
 * in the kernel's text first), the only case here that writes text.
 */
#include <kunit/test.h>
#include <linux/fs.h>
#include <linux/ftrace.h>
#include <linux/ftrace_arch.h>
#include <linux/jiffies.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/sizes.h>
#include <asm/ftrace_insn.h>
#include <asm/sections.h>

/* A plausible kernel text address. */
#define PC	0xffff800008123450UL

static void fixed_words(struct kunit *test)
{
	u32 insn = 0;

	/* HINT #0. */
	KUNIT_EXPECT_EQ(test, FTRACE_A64_NOP, 0xd503201fU);
	/* ORR (shifted register), 64-bit: Rd = 9, Rn = xzr, Rm = 30. */
	KUNIT_EXPECT_EQ(test, FTRACE_A64_MOV_X9_LR & 0x1f, 9U);
	KUNIT_EXPECT_EQ(test, (FTRACE_A64_MOV_X9_LR >> 5) & 0x1f, 31U);
	KUNIT_EXPECT_EQ(test, (FTRACE_A64_MOV_X9_LR >> 16) & 0x1f, 30U);
	KUNIT_EXPECT_EQ(test, FTRACE_A64_MOV_X9_LR >> 21, 0xaa0U >> 1);
	/* kprobes' BRK #0x4 is a BRK; the NOP and the mov are not. */
	KUNIT_EXPECT_TRUE(test, ftrace_a64_is_brk(0xd4200080U));
	KUNIT_EXPECT_FALSE(test, ftrace_a64_is_brk(FTRACE_A64_NOP));
	KUNIT_EXPECT_FALSE(test, ftrace_a64_is_brk(FTRACE_A64_MOV_X9_LR));
	/* A site that calls nothing is the NOP. */
	KUNIT_ASSERT_EQ(test, ftrace_a64_site(PC, 0, &insn), 0);
	KUNIT_EXPECT_EQ(test, insn, FTRACE_A64_NOP);
}

static void bl_encodings(struct kunit *test)
{
	u32 insn = 0;

	KUNIT_ASSERT_EQ(test, ftrace_a64_bl(PC, PC + 0x1000, &insn), 0);
	KUNIT_EXPECT_EQ(test, insn, 0x94000400U);
	KUNIT_ASSERT_EQ(test, ftrace_a64_bl(PC, PC - 4, &insn), 0);
	KUNIT_EXPECT_EQ(test, insn, 0x97ffffffU);
	KUNIT_ASSERT_EQ(test, ftrace_a64_bl(PC, PC, &insn), 0);
	KUNIT_EXPECT_EQ(test, insn, 0x94000000U);
	KUNIT_ASSERT_EQ(test, ftrace_a64_site(PC, PC + 8, &insn), 0);
	KUNIT_EXPECT_EQ(test, insn, 0x94000002U);
}

static void bl_reach(struct kunit *test)
{
	u32 insn = 0x12345678;

	/* The farthest forward and backward targets. */
	KUNIT_ASSERT_EQ(test, ftrace_a64_bl(PC, PC + SZ_128M - 4, &insn), 0);
	KUNIT_EXPECT_EQ(test, insn, 0x95ffffffU);
	KUNIT_ASSERT_EQ(test, ftrace_a64_bl(PC, PC - SZ_128M, &insn), 0);
	KUNIT_EXPECT_EQ(test, insn, 0x96000000U);
	/* One word further either way is out of reach; nothing written. */
	insn = 0x12345678;
	KUNIT_EXPECT_EQ(test, ftrace_a64_bl(PC, PC + SZ_128M, &insn), -ERANGE);
	KUNIT_EXPECT_EQ(test, ftrace_a64_bl(PC, PC - SZ_128M - 4, &insn), -ERANGE);
	KUNIT_EXPECT_EQ(test, ftrace_a64_site(PC, PC + SZ_1G, &insn), -ERANGE);
	/* Across the top of the address space, the offset still counts. */
	KUNIT_EXPECT_EQ(test, ftrace_a64_bl(~0UL - 3, 0x1000, &insn), 0);
	KUNIT_EXPECT_EQ(test, insn, 0x94000401U);
	KUNIT_EXPECT_EQ(test, ftrace_a64_bl(PC, 0x1000, &insn), -ERANGE);
}

static void bl_refuses_misaligned(struct kunit *test)
{
	u32 insn = 0x12345678;

	KUNIT_EXPECT_EQ(test, ftrace_a64_bl(PC + 2, PC + 0x100, &insn), -EINVAL);
	KUNIT_EXPECT_EQ(test, ftrace_a64_bl(PC, PC + 0x101, &insn), -EINVAL);
	KUNIT_EXPECT_EQ(test, ftrace_a64_site(PC + 1, PC, &insn), -EINVAL);
	KUNIT_EXPECT_EQ(test, insn, 0x12345678U);
}

static void bl_decodes(struct kunit *test)
{
	static const long offs[] = {
		0, 4, -4, 0x1000, -0x1000, SZ_128M - 4, -SZ_128M, 0x123454,
	};
	unsigned long dest;
	unsigned int i;
	u32 insn;

	for (i = 0; i < ARRAY_SIZE(offs); i++) {
		KUNIT_ASSERT_EQ(test, ftrace_a64_bl(PC, PC + offs[i], &insn), 0);
		dest = 0;
		KUNIT_EXPECT_TRUE(test, ftrace_a64_bl_dest(PC, insn, &dest));
		KUNIT_EXPECT_EQ(test, dest, PC + offs[i]);
	}
	/* NOP, B (not a call), BLR x16, and "mov x9, x30" are not BLs. */
	KUNIT_EXPECT_FALSE(test, ftrace_a64_bl_dest(PC, FTRACE_A64_NOP, &dest));
	KUNIT_EXPECT_FALSE(test, ftrace_a64_bl_dest(PC, 0x14000010U, &dest));
	KUNIT_EXPECT_FALSE(test, ftrace_a64_bl_dest(PC, 0xd63f0200U, &dest));
	KUNIT_EXPECT_FALSE(test, ftrace_a64_bl_dest(PC, FTRACE_A64_MOV_X9_LR,
						    &dest));
}

static void veneer_choice(struct kunit *test)
{
	unsigned long far = PC + SZ_1G, near = PC + SZ_64M;

	/* A caller in reach needs no veneer, even when one exists. */
	KUNIT_EXPECT_EQ(test, ftrace_a64_via(PC, near, PC + 0x40), near);
	/* Out of reach: the veneer, if a BL reaches it. */
	KUNIT_EXPECT_EQ(test, ftrace_a64_via(PC, far, PC + 0x40), PC + 0x40);
	KUNIT_EXPECT_EQ(test, ftrace_a64_via(PC, far, PC - SZ_128M), PC - SZ_128M);
	/* No veneer, or one out of reach too: nothing reaches. */
	KUNIT_EXPECT_EQ(test, ftrace_a64_via(PC, far, 0), 0UL);
	KUNIT_EXPECT_EQ(test, ftrace_a64_via(PC, far, far - 8), 0UL);
	KUNIT_EXPECT_EQ(test, ftrace_a64_via(PC, far, PC + SZ_128M), 0UL);
}

#if defined(CONFIG_DYNAMIC_FTRACE_WITH_REGS) && defined(CONFIG_MODULES)
/* LDR (literal), 64-bit: the register and the address it loads from. */
static bool ldr_literal(const u8 *at, unsigned int *reg, const u8 **from)
{
	u32 insn = le32_to_cpu(*(const __le32 *)at);
	s32 imm19 = (s32)(insn << 8) >> 13;

	if ((insn & 0xff000000U) != 0x58000000U)
		return false;
	*reg = insn & 0x1f;
	*from = at + imm19 * 4;
	return true;
}

/*
 * Each template loads its ops into x2 from its second-last word and its
 * function into x17 from its last, both 8-byte aligned (so that a copy's
 * function can be changed by one single-copy atomic store), and nothing
 * else PC-relative but its own branches.
 */
/*
 * ftrace_site_func() on words laid out as in text: a site after "mov x9,
 * x30", after BTI C and the mov, after a kprobe's BRK, and a function's
 * own address (the word before it ends another function).
 */
static u32 site_words[] = {
	0xd65f03c0U,		/* ret: the end of a function */
	FTRACE_A64_MOV_X9_LR,	/* 1: a function without BTI */
	FTRACE_A64_NOP,		/* 2: its site */
	0xd65f03c0U,
	FTRACE_A64_BTI_C,	/* 4: a function with a landing pad */
	FTRACE_A64_MOV_X9_LR,
	FTRACE_A64_NOP,		/* 6: its site */
	0xd65f03c0U,
	0xd4200080U,		/* 8: a kprobe's BRK #0x4 over the mov */
	FTRACE_A64_NOP,		/* 9: the site */
};

static void site_func(struct kunit *test)
{
	unsigned long w = (unsigned long)site_words;

	KUNIT_EXPECT_EQ(test, ftrace_site_func(w + 2 * 4), w + 1 * 4);
	KUNIT_EXPECT_EQ(test, ftrace_site_func(w + 1 * 4), w + 1 * 4);
	KUNIT_EXPECT_EQ(test, ftrace_site_func(w + 6 * 4), w + 4 * 4);
	KUNIT_EXPECT_EQ(test, ftrace_site_func(w + 4 * 4), w + 4 * 4);
	KUNIT_EXPECT_EQ(test, ftrace_site_func(w + 9 * 4), w + 8 * 4);
	/* An address that is neither stays as it is. */
	KUNIT_EXPECT_EQ(test, ftrace_site_func(w + 3 * 4), w + 3 * 4);
}

#ifdef CONFIG_KPROBES
/* One kprobe at @addr, no handlers; false if kprobes refuse the address. */
static bool probe_at(struct kunit *test, struct kprobe *kp, unsigned long addr)
{
	memset(kp, 0, sizeof(*kp));
	kp->addr = (kprobe_opcode_t *)addr;
	if (register_kprobe(kp)) {
		kunit_info(test, "no kprobe at %pS", (void *)addr);
		return false;
	}
	return true;
}

/*
 * ftrace_site_func() under real kprobes: one on a function's entry (its
 * BTI C on a BTI kernel, else its "mov x9, x30"), and one on the last word
 * of the function before it, which a function's own address follows.
 */
static void site_func_under_kprobes(struct kunit *test)
{
	unsigned long funcs[] = { (unsigned long)vfs_read,
				  (unsigned long)vfs_write };
	unsigned long func, site;
	struct kprobe kp;
	int i;

	for (i = 0; i < ARRAY_SIZE(funcs); i++) {
		func = funcs[i];
		site = ftrace_location(func);
		if (!site)
			continue;
		KUNIT_EXPECT_EQ(test, ftrace_site_func(site), func);
		KUNIT_EXPECT_EQ(test, ftrace_site_func(func), func);
		if (probe_at(test, &kp, func)) {
			KUNIT_EXPECT_EQ_MSG(test, ftrace_site_func(site), func,
					    "kprobe on %pS", (void *)func);
			unregister_kprobe(&kp);
		}
		if (probe_at(test, &kp, func - AARCH64_INSN_SIZE)) {
			KUNIT_EXPECT_EQ_MSG(test, ftrace_site_func(func), func,
					    "kprobe on %pS", (void *)func - 4);
			KUNIT_EXPECT_EQ(test, ftrace_site_func(site), func);
			unregister_kprobe(&kp);
		}
	}
}
#endif

static void check_template(struct kunit *test, const u8 *start, const u8 *end)
{
	unsigned int reg, seen = 0;
	const u8 *at, *from;

	KUNIT_EXPECT_TRUE(test, IS_ALIGNED((unsigned long)start, 8));
	KUNIT_EXPECT_TRUE(test, IS_ALIGNED(end - start, 8));
	/* A copy fits a slot of the pool. */
	KUNIT_EXPECT_LE(test, end - start, (long)FTRACE_A64_POOL_SLOT);
	for (at = start; at < end - 16; at += AARCH64_INSN_SIZE) {
		u32 insn = le32_to_cpu(*(const __le32 *)at);

		/* ADRP and BL would not survive the copy. */
		KUNIT_EXPECT_NE(test, insn & 0x9f000000U, 0x90000000U);
		KUNIT_EXPECT_NE(test, insn & FTRACE_A64_BL_MASK, FTRACE_A64_BL);
		if (!ldr_literal(at, &reg, &from))
			continue;
		if (reg == 2) {
			KUNIT_EXPECT_PTR_EQ(test, from, end - 16);
			seen |= 1;
		} else {
			KUNIT_EXPECT_EQ(test, reg, 17U);
			KUNIT_EXPECT_PTR_EQ(test, from, end - 8);
			seen |= 2;
		}
	}
	KUNIT_EXPECT_EQ(test, seen, 3U);
}

static void tramp_templates(struct kunit *test)
{
	check_template(test, ftrace_tramp_template, ftrace_tramp_template_end);
	check_template(test, ftrace_regs_tramp_template,
		       ftrace_regs_tramp_template_end);
}
#endif

#ifdef CONFIG_DYNAMIC_FTRACE_WITH_REGS
/* More trampolines than the pool has slots. */
#define POOL_TRY	(FTRACE_A64_POOL_SLOTS + 2)

static bool in_pool(unsigned long t)
{
	return t >= (unsigned long)ftrace_tramp_pool &&
	       t < (unsigned long)ftrace_tramp_pool_end;
}

static u32 word_at(unsigned long addr)
{
	return le32_to_cpu(*(const __le32 *)addr);
}

/*
 * Is the trampoline of @ops a whole copy of its template, with @ops and
 * @func in its last two words?
 */
static void check_copy(struct kunit *test, struct ftrace_ops *ops,
		       unsigned long func)
{
	bool regs = ops->flags & FTRACE_OPS_FL_SAVE_REGS;
	const u8 *tmpl = regs ? ftrace_regs_tramp_template : ftrace_tramp_template;
	const u8 *end = regs ? ftrace_regs_tramp_template_end :
			       ftrace_tramp_template_end;
	const u8 *t = (const u8 *)ops->trampoline;

	KUNIT_EXPECT_EQ(test, ops->trampoline_size, (unsigned int)(end - tmpl));
	if (ops->trampoline_size != end - tmpl)
		return;
	KUNIT_EXPECT_EQ(test, memcmp(t, tmpl, end - tmpl - 16), 0);
	KUNIT_EXPECT_EQ(test, *(const u64 *)(t + (end - tmpl) - 16),
			(u64)(unsigned long)ops);
	KUNIT_EXPECT_EQ(test, *(const u64 *)(t + (end - tmpl) - 8), (u64)func);
}

/*
 * Where a site at @ip that must call a pooled trampoline @t branches:
 * @t itself when in reach, else the slot's veneer ("ldr x16, .+8; br x16"
 * and @t), if that is in reach.
 */
static void check_branch(struct kunit *test, unsigned long ip, unsigned long t)
{
	unsigned long to = ftrace_a64_site_branch(ip, t);

	if (ftrace_a64_reaches(ip, t)) {
		KUNIT_EXPECT_EQ(test, to, t);
		return;
	}
	KUNIT_EXPECT_TRUE(test, to && ftrace_a64_reaches(ip, to));
	if (!to || !IS_ENABLED(CONFIG_MODULES) || to == FTRACE_REGS_ADDR) {
		kunit_info(test, "no veneer of the pool reaches %lx", ip);
		return;
	}
	KUNIT_EXPECT_EQ(test, word_at(to), FTRACE_A64_LDR_X16_8);
	KUNIT_EXPECT_EQ(test, word_at(to + 4), FTRACE_A64_BR_X16);
	KUNIT_EXPECT_EQ(test, *(const u64 *)(to + 8), (u64)t);
}

/*
 * Trampolines come from the pool while it has slots: each a copy of its
 * template, in core kernel text (not init text), in reach of a BL from
 * anywhere in the image, and for a module's site (the module memory of
 * the later ones stands in for one) through the slot's veneer.  Once the
 * pool is full they come from module memory (or, without modules, none
 * is made).  A freed slot holds BRK again and serves the next one.  Other
 * ops may hold slots meanwhile, so the counts are bounds.
 */
static void tramp_pool(struct kunit *test)
{
	unsigned long first = (unsigned long)_stext;
	unsigned long last = (unsigned long)_etext - AARCH64_INSN_SIZE;
	unsigned int i, j, made = 0, pooled = 0;
	struct ftrace_ops *ops;
	unsigned long t;

	ops = kunit_kcalloc(test, POOL_TRY, sizeof(*ops), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ops);
	for (i = 0; i < POOL_TRY; i++, made++) {
		ops[i].flags = i & 1 ? FTRACE_OPS_FL_SAVE_REGS : 0;
		if (ftrace_arch_tramp_make(&ops[i], (unsigned long)ftrace_stub))
			break;
		ops[i].flags |= FTRACE_OPS_FL_ALLOC_TRAMP;
		t = ops[i].trampoline;
		check_copy(test, &ops[i], (unsigned long)ftrace_stub);
		KUNIT_EXPECT_PTR_EQ(test, ftrace_arch_tramp_callee(&ops[i], false),
				    (void *)ftrace_stub);
		if (!in_pool(t))
			continue;
		pooled++;
		KUNIT_EXPECT_TRUE(test, core_kernel_text(t));
		KUNIT_EXPECT_FALSE(test, is_kernel_inittext(t));
		KUNIT_EXPECT_TRUE(test, ftrace_a64_reaches(first, t));
		KUNIT_EXPECT_TRUE(test, ftrace_a64_reaches(last, t));
		KUNIT_EXPECT_EQ(test, (t - (unsigned long)ftrace_tramp_pool) %
				      FTRACE_A64_POOL_SLOT, 0UL);
		for (j = 0; j < i; j++)
			KUNIT_EXPECT_NE(test, ops[j].trampoline, t);
	}
	KUNIT_EXPECT_GT(test, pooled, 0U);
	KUNIT_EXPECT_LE(test, pooled, (unsigned int)FTRACE_A64_POOL_SLOTS);
	/* The pool cannot hold them all: the rest came from module memory. */
	if (IS_ENABLED(CONFIG_MODULES))
		KUNIT_EXPECT_EQ(test, made, (unsigned int)POOL_TRY);
	else
		KUNIT_EXPECT_EQ(test, made, pooled);

	if (pooled && in_pool(ops[0].trampoline)) {
		/* Pointing a pooled trampoline elsewhere is seen in its word. */
		KUNIT_EXPECT_EQ(test, ftrace_arch_tramp_point(&ops[0],
							      (unsigned long)vfs_read), 0);
		check_copy(test, &ops[0], (unsigned long)vfs_read);
		if (made && !in_pool(ops[made - 1].trampoline))
			check_branch(test, ops[made - 1].trampoline,
				     ops[0].trampoline);
	}

	for (i = 0; i < made; i++) {
		t = ops[i].trampoline;
		ftrace_arch_tramp_free(&ops[i]);
		if (in_pool(t))
			KUNIT_EXPECT_EQ(test, word_at(t), FTRACE_A64_BRK);
	}
	/* The slots came back. */
	memset(&ops[0], 0, sizeof(ops[0]));
	KUNIT_ASSERT_EQ(test, ftrace_arch_tramp_make(&ops[0],
						     (unsigned long)ftrace_stub), 0);
	KUNIT_EXPECT_TRUE(test, in_pool(ops[0].trampoline));
	ftrace_arch_tramp_free(&ops[0]);
}

static atomic_t pool_calls;

static void notrace pool_call(unsigned long ip, unsigned long parent_ip,
			      struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	atomic_inc(&pool_calls);
}

/*
 * An ops alone on a function of the image: the function's site calls the
 * ops' trampoline, in the pool, directly; a call of the function reaches
 * the ops through it.
 */
static void tramp_pool_called(struct kunit *test)
{
	unsigned int (*call)(const unsigned long) = jiffies_to_msecs;
	unsigned long func = (unsigned long)jiffies_to_msecs;
	unsigned long site = ftrace_location(func), dest = 0;
	struct ftrace_ops *ops;

	if (!site)
		kunit_skip(test, "%ps is not traceable", (void *)func);
	ops = kunit_kzalloc(test, sizeof(*ops), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ops);
	ops->func = pool_call;
	KUNIT_ASSERT_EQ(test, ftrace_set_filter_ip(ops, func, 0, 0), 0);
	if (register_ftrace_function(ops)) {
		ftrace_free_filter(ops);
		KUNIT_FAIL(test, "cannot register an ops on %ps", (void *)func);
		return;
	}
	atomic_set(&pool_calls, 0);
	KUNIT_EXPECT_TRUE(test, ftrace_a64_bl_dest(site, word_at(site), &dest));
	KUNIT_EXPECT_EQ(test, dest, ops->trampoline);
	KUNIT_EXPECT_TRUE(test, in_pool(dest));
	/* Through a pointer: LTO would fold a direct call of a constant. */
	OPTIMIZER_HIDE_VAR(call);
	call(HZ);
	KUNIT_EXPECT_GT(test, atomic_read(&pool_calls), 0);
	unregister_ftrace_function(ops);
	ftrace_free_filter(ops);
}
#endif

static struct kunit_case ftrace_insn_cases[] = {
	KUNIT_CASE(fixed_words),
	KUNIT_CASE(bl_encodings),
	KUNIT_CASE(bl_reach),
	KUNIT_CASE(bl_refuses_misaligned),
	KUNIT_CASE(bl_decodes),
	KUNIT_CASE(veneer_choice),
#if defined(CONFIG_DYNAMIC_FTRACE_WITH_REGS) && defined(CONFIG_MODULES)
	KUNIT_CASE(tramp_templates),
	KUNIT_CASE(site_func),
#endif
#if defined(CONFIG_KPROBES) && defined(CONFIG_DYNAMIC_FTRACE_WITH_REGS) && \
	defined(CONFIG_MODULES)
	KUNIT_CASE(site_func_under_kprobes),
#endif
#ifdef CONFIG_DYNAMIC_FTRACE_WITH_REGS
	KUNIT_CASE(tramp_pool),
	KUNIT_CASE(tramp_pool_called),
#endif
	{}
};

static struct kunit_suite ftrace_insn_suite = {
	.name = "ftrace-arm64-insn",
	.test_cases = ftrace_insn_cases,
};

kunit_test_suite(ftrace_insn_suite);
