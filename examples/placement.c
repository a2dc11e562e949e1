// SPDX-License-Identifier: MIT
/*
 * Memory-bound benchmarks whose speed depends on where their memory lies:
 * a copy through glibc's memcpy, a pointer chase larger than L1, a stream
 * of stores.  Each worker, and each side of an audit, gets other pages for
 * its arena, so two placements of one benchmark can differ by several
 * percent with identical code (docs/placement.md): `audit` draws new
 * placements as it goes, and `run` says how much of the spread between its
 * trials they explain.
 *
 *	make examples
 *	build/cbenchctl run build/examples/placement.so
 *	build/cbenchctl audit build/examples/placement.so --a chase_l2 --b chase_l2_slow
 *	build/cbenchctl audit build/examples/placement.so --a libc_memcpy/size=4096 \
 *		--b libc_memcpy/size=4096
 *
 * chase_l2_slow is chase_l2 with 2 % more steps per rep, declared as the
 * same ops: truly 2 % slower, for an audit to find.
 */
#include <cbench.h>

/* ---- A copy through libc ----------------------------------------------
 * glibc's memcpy from the first half of the arena to the second.  It needs
 * libc, so it is user-only, and a freestanding build (the ring-0 one,
 * `pkg-config --cflags cbench-kernel`) leaves it out.
 */
#if __STDC_HOSTED__
#include <string.h>

#define COPY_ARENA (2 * 65536)

static int copy_setup(struct cbench_ctx *ctx)
{
	return ctx->param > 0 && (uint64_t)ctx->param * 2 <= ctx->arena_bytes ? 0 : -1;
}

static void libc_memcpy(struct cbench_ctx *ctx, uint64_t reps)
{
	char *src = ctx->arena, *dst = src + ctx->arena_bytes / 2;
	size_t bytes = (size_t)ctx->param;

	for (uint64_t r = 0; r < reps; r++) {
		memcpy(dst, src, bytes);
		cbench_clobber();
	}
}
CBENCH(libc_memcpy, .setup = copy_setup, .arena_bytes = COPY_ARENA, .param_name = "size",
       CBENCH_PARAMS(4096, 65536), .flags = CBENCH_F_USER_ONLY | CBENCH_F_BYTES_PER_PARAM,
       .bytes_per_rep = 1);
#endif

/* ---- A pointer chase larger than L1 ------------------------------------
 * One pointer per cache line, 4096 lines (256 KiB: past L1, inside L2 on
 * current cores), linked in one random cycle (Sattolo's algorithm), so
 * every load waits for the one before and the prefetchers cannot guess
 * the next line.  The cycle is drawn from a fixed seed: every placement
 * walks the same permutation, only its pages differ.
 */
#define CHASE_LINES 4096
#define CHASE_LINE_BYTES 64
#define CHASE_STEPS 1000

static uint64_t next_random(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*state = x;
	return x;
}

static int chase_setup(struct cbench_ctx *ctx)
{
	char *base = ctx->arena;
	uint64_t state = 0x9e3779b97f4a7c15ULL;

	/* Each line first holds its place in the permutation (no array on
	 * the stack: in ring 0 setup() runs on a kernel stack), then the
	 * address of the line that follows it. */
#define LINE(i) (*(uint64_t *)(base + (uint64_t)(i) * CHASE_LINE_BYTES))
	for (uint32_t i = 0; i < CHASE_LINES; i++)
		LINE(i) = i;
	/* Sattolo: a uniformly random permutation with a single cycle. */
	for (uint32_t i = CHASE_LINES - 1; i > 0; i--) {
		uint32_t j = (uint32_t)(next_random(&state) % i);
		uint64_t t = LINE(i);

		LINE(i) = LINE(j);
		LINE(j) = t;
	}
	for (uint32_t i = 0; i < CHASE_LINES; i++)
		LINE(i) = (uint64_t)(uintptr_t)(base + LINE(i) * CHASE_LINE_BYTES);
#undef LINE
	return 0;
}

/* A rep of `steps` dependent loads along the cycle. */
static inline __attribute__((always_inline)) void chase(struct cbench_ctx *ctx, uint64_t reps,
							 uint64_t steps)
{
	void **p = ctx->arena;

	for (uint64_t r = 0; r < reps; r++) {
		for (uint64_t i = 0; i < steps; i++)
			p = *p;
		cbench_launder(p);
	}
	cbench_keep(p);
}

static void chase_l2(struct cbench_ctx *ctx, uint64_t reps)
{
	chase(ctx, reps, CHASE_STEPS);
}
CBENCH(chase_l2, .setup = chase_setup, .arena_bytes = CHASE_LINES * CHASE_LINE_BYTES,
       .ops_per_rep = CHASE_STEPS);

/* 2 % more steps, the same declared ops. */
static void chase_l2_slow(struct cbench_ctx *ctx, uint64_t reps)
{
	chase(ctx, reps, CHASE_STEPS + CHASE_STEPS / 50);
}
CBENCH(chase_l2_slow, .setup = chase_setup, .arena_bytes = CHASE_LINES * CHASE_LINE_BYTES,
       .ops_per_rep = CHASE_STEPS);

/* ---- A stream of stores ------------------------------------------------
 * Plain 8-byte stores over 64 KiB (past L1, inside L2), one op per store.
 */
#define STREAM_BYTES 65536

static void store_stream(struct cbench_ctx *ctx, uint64_t reps)
{
	volatile uint64_t *w = ctx->arena;

	for (uint64_t r = 0; r < reps; r++) {
		for (uint64_t i = 0; i < STREAM_BYTES / 8; i++)
			w[i] = i + r;
	}
}
CBENCH(store_stream, .arena_bytes = STREAM_BYTES, .ops_per_rep = STREAM_BYTES / 8,
       .bytes_per_rep = STREAM_BYTES);
