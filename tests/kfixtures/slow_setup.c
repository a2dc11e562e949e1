// SPDX-License-Identifier: MIT
/*
 * Kernel-image fixture: a benchmark whose setup() spins for about 10^8 TSC
 * ticks (tens of ms on any TSC), longer than cbench.ko lets a setup() run
 * with preemption off, and one whose setup() is quick.
 */
#include <cbench.h>

#include "spin.h"

static int slow(struct cbench_ctx *ctx)
{
	(void)ctx;
	cbfix_spin(100000000ULL);
	return 0;
}

static int quick(struct cbench_ctx *ctx)
{
	*(uint64_t *)ctx->arena = 1;
	return 0;
}

static void add_one(struct cbench_ctx *ctx, uint64_t reps)
{
	uint64_t x = (uint64_t)ctx->param;

	for (uint64_t i = 0; i < reps; i++)
		__asm__ volatile("add $1, %0" : "+r"(x));
	cbench_keep(x);
}

static void slow_setup(struct cbench_ctx *ctx, uint64_t reps)
{
	add_one(ctx, reps);
}
CBENCH(slow_setup, .setup = slow, .arena_bytes = 4096);

static void quick_setup(struct cbench_ctx *ctx, uint64_t reps)
{
	add_one(ctx, reps);
}
CBENCH(quick_setup, .setup = quick, .arena_bytes = 4096);
