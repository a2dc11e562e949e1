// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel-safe objects whose calls never return in ring 0, for cbench.ko's
 * watchdog (kmod/guard.c).  The VM tests send most of them to the module
 * directly, as a raw client that skips cbenchctl's user-mode rehearsal
 * would; forever_in_ring0 returns in user mode and loops only in ring 0,
 * so it passes the rehearsal and reaches the module through cbenchctl.
 *
 *   forever           run() loops, interrupts on (the budget probe's call).
 *   forever_cli       run() turns interrupts off itself, then loops.
 *   forever_later     run() returns for 8 calls, then loops: a sample's call,
 *                     with interrupts off.
 *   setup_forever     setup() loops.
 *   before_forever    before_rep() loops.
 *   forever_in_ring0  run() loops when it finds itself at CPL 0.
 *   quick             returns at once: the other side of an audit, and
 *                     proof that the CPU takes runs afterwards.
 */
#include <cbench.h>

static void spin(void)
{
	for (;;)
		__asm__ volatile("pause");
}

static void forever(struct cbench_ctx *ctx, uint64_t reps)
{
	cbench_launder(reps);
	spin();
}
CBENCH(forever);

static void forever_cli(struct cbench_ctx *ctx, uint64_t reps)
{
	__asm__ volatile("cli");
	spin();
}
CBENCH(forever_cli);

static void forever_later(struct cbench_ctx *ctx, uint64_t reps)
{
	volatile uint64_t *calls = ctx->arena;

	if (++*calls > 8)
		spin();
}
CBENCH(forever_later, .arena_bytes = 4096);

static int loop_setup(struct cbench_ctx *ctx)
{
	spin();
	return 0;
}

static void quick(struct cbench_ctx *ctx, uint64_t reps)
{
	cbench_launder(reps);
}
CBENCH(quick);

static void setup_forever(struct cbench_ctx *ctx, uint64_t reps)
{
	cbench_launder(reps);
}
CBENCH(setup_forever, .setup = loop_setup);

static int loop_hook(struct cbench_ctx *ctx)
{
	spin();
	return 0;
}
static void before_forever(struct cbench_ctx *ctx, uint64_t reps)
{
	cbench_launder(reps);
}
CBENCH(before_forever, .before_rep = loop_hook);

static void forever_in_ring0(struct cbench_ctx *ctx, uint64_t reps)
{
	uint16_t cs;

	__asm__ volatile("mov %%cs, %0" : "=r"(cs));
	if (!(cs & 3))
		spin();
	cbench_launder(reps);
}
CBENCH(forever_in_ring0);
