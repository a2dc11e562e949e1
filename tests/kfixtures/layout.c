// SPDX-License-Identifier: GPL-2.0
/*
 * A kernel-safe object whose code can move in ring 0 (kimage_layout.h):
 * built with -ffunction-sections -Wl,-q, so each function moves on its own
 * (layout_whole.c is the same code without -ffunction-sections: its code
 * section moves whole).  It reaches code every way a laid-out image must
 * follow: static calls, a call through the PLT to a function it exports,
 * that function's address loaded from the GOT, a table of function
 * pointers in data (RELATIVE slots) and the descriptors' entry points.
 * run() leaves what it computed in the arena, so that a test can run the
 * image as built and laid out and compare.
 */
#include <cbench.h>

uint64_t klayout_exported(uint64_t x);

__attribute__((noinline)) uint64_t klayout_exported(uint64_t x)
{
	return x * 31 + 7;
}

static __attribute__((noinline)) uint64_t twice(uint64_t x)
{
	__asm__ volatile("" : "+r"(x));
	return 2 * x + 1;
}

static __attribute__((noinline)) uint64_t thrice(uint64_t x)
{
	__asm__ volatile("" : "+r"(x));
	return 3 * x + 2;
}

/* Function pointers in data: RELATIVE slots that lead into the code. */
static uint64_t (*const steps[])(uint64_t) = { twice, thrice, klayout_exported };

static int prepare(struct cbench_ctx *ctx)
{
	((uint64_t *)ctx->arena)[0] = 1;
	return 0;
}

static void calls(struct cbench_ctx *ctx, uint64_t reps)
{
	/* Through the GOT: the address of a function the object exports. */
	uint64_t (*volatile through)(uint64_t) = klayout_exported;
	uint64_t *out = ctx->arena;
	uint64_t x = out[0];

	for (uint64_t i = 0; i < reps; i++)
		x = twice(x) ^ klayout_exported(x) ^ through(i) ^ steps[i % 3](x);
	out[0] = x;
}
CBENCH(calls, .setup = prepare, .arena_bytes = 4096);

static void chain(struct cbench_ctx *ctx, uint64_t reps)
{
	uint64_t x = (uint64_t)ctx->param;

	for (uint64_t i = 0; i < reps; i++)
		__asm__ volatile("add $1, %0" : "+r"(x));
	cbench_keep(x);
}
CBENCH(chain);
