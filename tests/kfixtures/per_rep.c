// SPDX-License-Identifier: MIT
/*
 * Kernel-image fixture: per-rep hooks, good and bad, small enough for a
 * TCG guest.
 *
 *   fresh_input   would be wrong without its hooks: every call consumes the
 *                 input before_rep() prepared, and after_rep() fails the
 *                 trial (-74) unless that call, and only it, ran on fresh
 *                 input.
 *   after_fails   after_rep() returns -5 on the third call.
 *   before_crashes before_rep() writes through a NULL pointer.
 *   before_hangs  before_rep() never returns.
 *   before_slow   before_rep() spins for 3 * 10^8 TSC ticks (over 50 ms
 *                 on any TSC up to 6 GHz), longer than a hook may run with
 *                 preemption off: cbenchctl's rehearsal refuses it, and
 *                 cbench.ko fails the run (CBENCH_HOOK_MAX_NS).
 */
#include <cbench.h>

#include "spin.h"

#define KEYS 64

struct fresh_arena {
	uint64_t prepared;	/* before_rep() calls */
	uint64_t consumed;	/* run() calls that found fresh input */
	uint64_t checked;	/* after_rep() calls */
	uint32_t fresh;
	uint32_t bad;
	uint32_t keys[KEYS];
};

static int prepare(struct cbench_ctx *ctx)
{
	struct fresh_arena *a = ctx->arena;

	if (a->fresh)
		a->bad = 1;	/* prepared twice without a call between */
	for (uint32_t i = 0; i < KEYS; i++)
		a->keys[i] = KEYS - i;
	a->fresh = 1;
	a->prepared++;
	return 0;
}

static void nothing_much(struct cbench_ctx *ctx, uint64_t reps);

static void fresh_input(struct cbench_ctx *ctx, uint64_t reps)
{
	struct fresh_arena *a = ctx->arena;

	/* Enough work that a call lasts many timer steps. */
	nothing_much(ctx, 10 * reps);

	for (uint64_t r = 0; r < reps; r++) {
		if (!a->fresh || a->keys[0] != KEYS)
			a->bad = 1;
		a->fresh = 0;
		a->consumed++;
		/* Some work: reverse the keys, so they are no longer fresh. */
		for (uint32_t i = 0; i < KEYS / 2; i++) {
			uint32_t t = a->keys[i];

			a->keys[i] = a->keys[KEYS - 1 - i];
			a->keys[KEYS - 1 - i] = t;
		}
	}
}

static int check(struct cbench_ctx *ctx)
{
	struct fresh_arena *a = ctx->arena;

	a->checked++;
	if (a->bad || a->fresh || a->prepared != a->consumed || a->checked != a->prepared)
		return -74;	/* EBADMSG */
	return 0;
}
CBENCH(fresh_input, .before_rep = prepare, .after_rep = check,
       .arena_bytes = sizeof(struct fresh_arena));

static int fail_third(struct cbench_ctx *ctx)
{
	uint64_t *calls = ctx->arena;

	return ++*calls == 3 ? -5 : 0;
}

static void nothing_much(struct cbench_ctx *ctx, uint64_t reps)
{
	uint64_t x = (uint64_t)ctx->param;

	for (uint64_t i = 0; i < 100 * reps; i++)
		__asm__ volatile("add $1, %0" : "+r"(x));
	cbench_keep(x);
}

static void after_fails(struct cbench_ctx *ctx, uint64_t reps)
{
	nothing_much(ctx, reps);
}
CBENCH(after_fails, .after_rep = fail_third, .arena_bytes = 64);

static int crash(struct cbench_ctx *ctx)
{
	volatile uint64_t *p = (volatile uint64_t *)(uintptr_t)(ctx->param * 0);

	*p = 1;
	return 0;
}

static void before_crashes(struct cbench_ctx *ctx, uint64_t reps)
{
	nothing_much(ctx, reps);
}
CBENCH(before_crashes, .before_rep = crash);

static int hang(struct cbench_ctx *ctx)
{
	volatile uint64_t spin = (uint64_t)ctx->param;

	for (;;)
		spin++;
	return 0;
}

static void before_hangs(struct cbench_ctx *ctx, uint64_t reps)
{
	nothing_much(ctx, reps);
}
CBENCH(before_hangs, .before_rep = hang);

static int slow(struct cbench_ctx *ctx)
{
	(void)ctx;
	cbfix_spin(300000000ULL);
	return 0;
}

static void before_slow(struct cbench_ctx *ctx, uint64_t reps)
{
	nothing_much(ctx, reps);
}
CBENCH(before_slow, .before_rep = slow);
