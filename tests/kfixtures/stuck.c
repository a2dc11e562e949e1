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
 *   fuzzed_loop       the protocol fuzzer's counting loop with one byte of
 *                     its upload corrupted (see below): interrupts on, in
 *                     the budget probe, at reps 1.
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

/*
 * The counting loop a protocol fuzzer uploads (test rsi,rsi; je out;
 * dec rsi; jne; out: ret) with one byte of its upload changed, as a
 * corrupted chunk would leave it: `dec rsi` (48 ff ce) becomes
 * `cmp rsi, rcx` (48 39 ce).  The trampoline calls with RCX 0, so at reps 1
 * the jne goes back for ever, and nothing in the loop writes a register or
 * changes a flag.  Under TCG an interrupt is taken only between
 * translation blocks, so every report of the stuck CPU shows the same
 * registers: RIP at the cmp (+9 from the entry), RSI 1, EFLAGS 0x202, the
 * state a fuzzer once left a 6.1 guest in.  Bytes, not C, so the change is
 * exact.
 */
void fuzzed_loop(struct cbench_ctx *ctx, uint64_t reps);
__asm__(".pushsection .text.fuzzed_loop, \"ax\", @progbits\n"
	".type fuzzed_loop, @function\n"
	"fuzzed_loop:\n"
	".byte 0xf3, 0x0f, 0x1e, 0xfa\n"	/* endbr64 */
	".byte 0x48, 0x85, 0xf6\n"		/* test rsi, rsi */
	".byte 0x74, 0x05\n"			/* je out */
	".byte 0x48, 0x39, 0xce\n"		/* cmp rsi, rcx (was dec rsi: 48 ff ce) */
	".byte 0x75, 0xfb\n"			/* jne back to the cmp */
	".byte 0xc3\n"				/* out: ret */
	".size fuzzed_loop, . - fuzzed_loop\n"
	".popsection\n");
CBENCH(fuzzed_loop);
