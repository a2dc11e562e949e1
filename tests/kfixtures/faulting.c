// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel-safe objects whose calls raise an exception in ring 0, for
 * cbench.ko's die notifier (kmod/guard.c).  The VM tests send most of them
 * to the module directly, as a raw client that skips cbenchctl's user-mode
 * rehearsal would; ud2_in_ring0 returns in user mode and faults only in
 * ring 0, so it passes the rehearsal and reaches the module through
 * cbenchctl.  Each faulting instruction is asm, so the test can find it at
 * the offset the module reports.
 *
 *   int3             run() hits int3 (#BP), interrupts on: the budget probe.
 *   ud2              run() executes ud2 (#UD).
 *   divide           run() divides by zero (#DE).
 *   gp               run() loads through a non-canonical address (#GP).
 *   simd             run() unmasks SSE's divide-by-zero and divides (#XM;
 *                    QEMU's TCG raises none, and the test skips it).
 *   cli_int3         run() turns interrupts off, then hits int3.
 *   later_ud2        run() returns for 8 calls, then #UD in a sample, with
 *                    interrupts off.
 *   later_sti_gp     the same, but turns interrupts on first and raises
 *                    #GP, whose handler runs with them on.
 *   setup_ud2        setup() raises #UD.
 *   before_int3      before_rep() hits int3.
 *   after_divide     after_rep() divides by zero.
 *   ud2_in_ring0     run() raises #UD when it finds itself at CPL 0.
 *   quick            returns at once: the other side of an audit, and
 *                    proof that the CPU takes runs afterwards.
 */
#include <cbench.h>

static inline void raise_int3(void)
{
	__asm__ volatile("int3");
}

static inline void raise_ud2(void)
{
	__asm__ volatile("ud2");
}

/* div %ecx (f7 f1) with %ecx 0. */
static inline void raise_divide(void)
{
	__asm__ volatile("xor %%ecx, %%ecx\n\tmov $1, %%eax\n\txor %%edx, %%edx\n\tdiv %%ecx"
			 ::: "eax", "ecx", "edx", "cc");
}

/* mov (%rax), %rax (48 8b 00) with %rax non-canonical. */
static inline void raise_gp(void)
{
	__asm__ volatile("movabs $0x8000000000000000, %%rax\n\tmov (%%rax), %%rax"
			 ::: "rax", "memory");
}

/* divss %xmm1, %xmm0 (f3 0f 5e c1) by 0 with MXCSR.ZM clear. */
static inline void raise_simd(void)
{
	uint32_t mxcsr = 0x1f80 & ~0x200u;

	__asm__ volatile("ldmxcsr %0\n\t"
			 "mov $1, %%eax\n\tcvtsi2ss %%eax, %%xmm0\n\t"
			 "xorps %%xmm1, %%xmm1\n\t"
			 "divss %%xmm1, %%xmm0"
			 :: "m"(mxcsr) : "eax", "xmm0", "xmm1");
}

static void int3(struct cbench_ctx *ctx, uint64_t reps)
{
	cbench_launder(reps);
	raise_int3();
}
CBENCH(int3);

static void ud2(struct cbench_ctx *ctx, uint64_t reps)
{
	cbench_launder(reps);
	raise_ud2();
}
CBENCH(ud2);

static void divide(struct cbench_ctx *ctx, uint64_t reps)
{
	cbench_launder(reps);
	raise_divide();
}
CBENCH(divide);

static void gp(struct cbench_ctx *ctx, uint64_t reps)
{
	cbench_launder(reps);
	raise_gp();
}
CBENCH(gp);

static void simd(struct cbench_ctx *ctx, uint64_t reps)
{
	cbench_launder(reps);
	raise_simd();
}
CBENCH(simd);

static void cli_int3(struct cbench_ctx *ctx, uint64_t reps)
{
	__asm__ volatile("cli");
	raise_int3();
}
CBENCH(cli_int3);

static void later_ud2(struct cbench_ctx *ctx, uint64_t reps)
{
	volatile uint64_t *calls = ctx->arena;

	if (++*calls > 8)
		raise_ud2();
}
CBENCH(later_ud2, .arena_bytes = 4096);

static void later_sti_gp(struct cbench_ctx *ctx, uint64_t reps)
{
	volatile uint64_t *calls = ctx->arena;

	if (++*calls > 8) {
		__asm__ volatile("sti");
		raise_gp();
	}
}
CBENCH(later_sti_gp, .arena_bytes = 4096);

static void quick(struct cbench_ctx *ctx, uint64_t reps)
{
	cbench_launder(reps);
}
CBENCH(quick);

static int ud2_setup(struct cbench_ctx *ctx)
{
	raise_ud2();
	return 0;
}

static void setup_ud2(struct cbench_ctx *ctx, uint64_t reps)
{
	cbench_launder(reps);
}
CBENCH(setup_ud2, .setup = ud2_setup);

static int int3_hook(struct cbench_ctx *ctx)
{
	raise_int3();
	return 0;
}

static void before_int3(struct cbench_ctx *ctx, uint64_t reps)
{
	cbench_launder(reps);
}
CBENCH(before_int3, .before_rep = int3_hook);

static int divide_hook(struct cbench_ctx *ctx)
{
	raise_divide();
	return 0;
}

static void after_divide(struct cbench_ctx *ctx, uint64_t reps)
{
	cbench_launder(reps);
}
CBENCH(after_divide, .after_rep = divide_hook);

static void ud2_in_ring0(struct cbench_ctx *ctx, uint64_t reps)
{
	uint16_t cs;

	__asm__ volatile("mov %%cs, %0" : "=r"(cs));
	if (!(cs & 3))
		raise_ud2();
	cbench_launder(reps);
}
CBENCH(ud2_in_ring0);
