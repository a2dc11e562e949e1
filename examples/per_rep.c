// SPDX-License-Identifier: MIT
/*
 * Per-rep hooks (seed 002's macrobenchmark instrument): benchmarks whose
 * every call needs fresh state, which before_rep() prepares outside timing.
 * cbench then times one call at a time: no tuning of reps.
 *
 *   cold_walk / warm_walk  a dependent walk, in random order, over every
 *                          cache line of a 256 KiB arena.  cold_walk's
 *                          before_rep() flushes the arena from every cache
 *                          (clflush, then mfence), so each call starts from
 *                          memory; warm_walk's reads it all first.  Their
 *                          ratio is what a trip to memory costs against a
 *                          cache hit (`make bench` prints it).
 *   heap_sort/keys=N       sorts N fresh unsorted 32-bit keys per call;
 *                          after_rep() checks the result, and that the call
 *                          had fresh input.  keys=262144 is 1 MiB.
 *
 * Kernel-safe: no libc, so the same source builds for ring 0 (where one
 * call must fit in cbench.ko's interrupts-off budget: the largest sort does
 * not by default).
 */
#include <cbench.h>

/* ---- the walk ------------------------------------------------------------ */

#define LINE_BYTES 64
#define WALK_BYTES (256 * 1024)
#define WALK_LINES (WALK_BYTES / LINE_BYTES)

struct line {
	struct line *next;
	char pad[LINE_BYTES - sizeof(struct line *)];
};

static uint64_t xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* One cycle through every line in a random order (Sattolo's algorithm). */
static int walk_setup(struct cbench_ctx *ctx)
{
	struct line *l = ctx->arena;
	uint64_t seed = 0x9e3779b97f4a7c15ULL;
	uint32_t i;

	for (i = 0; i < WALK_LINES; i++)
		l[i].next = &l[i];
	for (i = WALK_LINES - 1; i > 0; i--) {
		uint32_t j = (uint32_t)(xorshift(&seed) % i);
		struct line *t = l[i].next;

		l[i].next = l[j].next;
		l[j].next = t;
	}
	return 0;
}

static void walk(struct cbench_ctx *ctx, uint64_t reps)
{
	struct line *p = ctx->arena;

	for (uint64_t r = 0; r < reps; r++) {
		for (uint32_t i = 0; i < WALK_LINES; i++)
			p = p->next;
	}
	cbench_keep(p);
}

static int flush_arena(struct cbench_ctx *ctx)
{
	char *a = ctx->arena;

	for (uint64_t off = 0; off < ctx->arena_bytes; off += LINE_BYTES)
		__asm__ volatile("clflush %0" : "+m"(a[off]));
	__asm__ volatile("mfence" ::: "memory");
	return 0;
}

static int touch_arena(struct cbench_ctx *ctx)
{
	const struct line *l = ctx->arena;
	uintptr_t sum = 0;

	for (uint32_t i = 0; i < WALK_LINES; i++)
		sum += (uintptr_t)l[i].next;
	cbench_keep(sum);
	return 0;
}

static void cold_walk(struct cbench_ctx *ctx, uint64_t reps)
{
	walk(ctx, reps);
}
CBENCH(cold_walk, .setup = walk_setup, .before_rep = flush_arena, .arena_bytes = WALK_BYTES,
       .ops_per_rep = WALK_LINES);

static void warm_walk(struct cbench_ctx *ctx, uint64_t reps)
{
	walk(ctx, reps);
}
CBENCH(warm_walk, .setup = walk_setup, .before_rep = touch_arena, .arena_bytes = WALK_BYTES,
       .ops_per_rep = WALK_LINES);

/* ---- the sort ------------------------------------------------------------ */

#define SORT_KEYS_MAX (256 * 1024)

struct sort_arena {
	uint64_t seed;		/* of the next input */
	uint32_t fresh;		/* set by before_rep(), cleared by the call */
	uint32_t stale;		/* a call found no fresh input */
	uint32_t keys[SORT_KEYS_MAX];
};

static int fresh_keys(struct cbench_ctx *ctx)
{
	struct sort_arena *a = ctx->arena;

	if (!a->seed)
		a->seed = 0x2545f4914f6cdd1dULL;
	for (int64_t i = 0; i < ctx->param; i++)
		a->keys[i] = (uint32_t)(xorshift(&a->seed) >> 32);
	a->fresh = 1;
	return 0;
}

static void sift_down(uint32_t *k, uint64_t root, uint64_t n)
{
	uint32_t v = k[root];

	for (;;) {
		uint64_t child = 2 * root + 1;

		if (child >= n)
			break;
		if (child + 1 < n && k[child + 1] > k[child])
			child++;
		if (k[child] <= v)
			break;
		k[root] = k[child];
		root = child;
	}
	k[root] = v;
}

static void heap_sort(struct cbench_ctx *ctx, uint64_t reps)
{
	struct sort_arena *a = ctx->arena;
	uint64_t n = (uint64_t)ctx->param;

	for (uint64_t r = 0; r < reps; r++) {
		if (!a->fresh)
			a->stale = 1;
		a->fresh = 0;
		for (uint64_t i = n / 2; i-- > 0;)
			sift_down(a->keys, i, n);
		for (uint64_t end = n; end-- > 1;) {
			uint32_t t = a->keys[0];

			a->keys[0] = a->keys[end];
			a->keys[end] = t;
			sift_down(a->keys, 0, end);
		}
	}
}

/* Fails the trial (-1) if the call sorted stale input or did not sort. */
static int check_sorted(struct cbench_ctx *ctx)
{
	const struct sort_arena *a = ctx->arena;

	if (a->stale)
		return -1;
	for (int64_t i = 1; i < ctx->param; i++) {
		if (a->keys[i - 1] > a->keys[i])
			return -1;
	}
	return 0;
}

CBENCH(heap_sort, .before_rep = fresh_keys, .after_rep = check_sorted,
       .arena_bytes = sizeof(struct sort_arena), .param_name = "keys",
       CBENCH_PARAMS(1024, 16384, 262144), .bytes_per_rep = sizeof(uint32_t),
       .flags = CBENCH_F_BYTES_PER_PARAM);
