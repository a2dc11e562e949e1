// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel-safe objects (they pass kimage) that would oops in ring 0: each
 * must be stopped in user mode, by the rehearsal of a run's exact calls
 * (cbench_kmod_rehearse()) or by the module's limits, and never reach
 * cbench.ko's trampoline.  The name of each says how it misbehaves.
 */
#include <cbench.h>

/* Writes one byte at reps * 64 of a 4 KiB arena: fine for up to 63 reps,
 * which a single rep never shows, past the arena (onto its guard page in
 * user mode, onto whatever follows a vmalloc area in ring 0) above. */
static void overrun_at_reps(struct cbench_ctx *ctx, uint64_t reps)
{
	((volatile char *)ctx->arena)[reps * 64] = 1;
}
CBENCH(overrun_at_reps, .arena_bytes = 4096);

/* Overruns only at exactly 256 reps: a count only the budget probe uses
 * (1, 16, 256, ... up to the samples' reps). */
static void overrun_in_probe(struct cbench_ctx *ctx, uint64_t reps)
{
	((volatile char *)ctx->arena)[reps == 256 ? 1 << 20 : 0] = 1;
}
CBENCH(overrun_in_probe, .arena_bytes = 4096);

static void null_deref(struct cbench_ctx *ctx, uint64_t reps)
{
	cbench_launder(reps);
	if (reps)
		*(volatile uint64_t *)(uintptr_t)(reps - reps) = 1;
}
CBENCH(null_deref);

static void ud2(struct cbench_ctx *ctx, uint64_t reps)
{
	if (reps)
		__asm__ volatile("ud2");
}
CBENCH(ud2);

static void touch(struct cbench_ctx *ctx, uint64_t reps)
{
	for (uint64_t i = 0; i < reps; i++)
		((volatile char *)ctx->arena)[0] = (char)i;
}

/* Arenas past what cbench.ko allows by default (256 MiB). */
static void arena_1tib(struct cbench_ctx *ctx, uint64_t reps)
{
	touch(ctx, reps);
}
CBENCH(arena_1tib, .arena_bytes = 1ULL << 40);

static void arena_300mib(struct cbench_ctx *ctx, uint64_t reps)
{
	touch(ctx, reps);
}
CBENCH(arena_300mib, .arena_bytes = 300ULL << 20);
