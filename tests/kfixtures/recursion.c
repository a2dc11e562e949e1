// SPDX-License-Identifier: GPL-2.0
/*
 * Recursion whose depth depends on where it runs: 10 deep in user mode (the
 * rehearsal), 10,000 deep in ring 0, 32 bytes a frame (320 KiB, past
 * cbench.ko's 256 KiB stack), or ctx->param deep where the unit tests run
 * the image themselves.  In ring 0 each must be ended by the stack check
 * cbenchctl puts on its cycle, before the stack's end, the call ended and
 * the CPU back (tests/vm/kmod.sh); on an unchecked stack it would double
 * fault.  The shapes:
 *
 *   direct_ring0    f -> f
 *   mutual_ring0    ping -> pong -> ping
 *   pointer_ring0   through a function pointer in initialized data
 *   arena_ring0     through a pointer setup() left in the arena
 *   frame_ring0     no recursion: a 1 MiB frame, called in ring 0 only
 *   wide_frames     48 KiB a level, 2 deep (ctx->param deep in the unit
 *                   tests): its check asks for 128 KiB, so it ends the
 *                   rehearsal's call 4 deep, before ring 0 would end it
 *
 * and two well-behaved ones that must still run in ring 0, checked:
 *
 *   quicksort       a recursive quicksort of 64 numbers in the arena
 *   tree_walk       a recursive walk of a 127-node tree setup() builds
 *
 * (small, so that a rep takes well under the interrupts-off budget even in
 * the emulated guests of the VM tests)
 */
#include <cbench.h>

static inline int ring0(void)
{
	uint16_t cs;

	__asm__ volatile("mov %%cs, %0" : "=r"(cs));
	return !(cs & 3);
}

static uint64_t depth_of(const struct cbench_ctx *ctx)
{
	if (ring0())
		return 10000;
	return ctx->param > 0 ? (uint64_t)ctx->param : 10;
}

static __attribute__((noinline)) uint64_t down(uint64_t n)
{
	volatile uint64_t keep = n;

	return n ? down(n - 1) + keep : 0;
}

static void direct_ring0(struct cbench_ctx *ctx, uint64_t reps)
{
	for (uint64_t i = 0; i < reps; i++)
		cbench_keep(down(depth_of(ctx)));
}
CBENCH(direct_ring0);

static uint64_t pong(uint64_t n);

static __attribute__((noinline)) uint64_t ping(uint64_t n)
{
	volatile uint64_t keep = n;

	return n ? pong(n - 1) + keep : 0;
}

/* Not ping's twin: the compiler would fold them into one. */
static __attribute__((noinline)) uint64_t pong(uint64_t n)
{
	volatile uint64_t keep = 2 * n;

	return n ? ping(n - 1) + keep : 0;
}

static void mutual_ring0(struct cbench_ctx *ctx, uint64_t reps)
{
	for (uint64_t i = 0; i < reps; i++)
		cbench_keep(ping(depth_of(ctx)));
}
CBENCH(mutual_ring0);

static uint64_t via_pointer(uint64_t n);
/* volatile: the compiler must call through it, not call via_pointer. */
static uint64_t (*volatile hop)(uint64_t) = via_pointer;

static __attribute__((noinline)) uint64_t via_pointer(uint64_t n)
{
	volatile uint64_t keep = n;

	return n ? hop(n - 1) + keep : 0;
}

static void pointer_ring0(struct cbench_ctx *ctx, uint64_t reps)
{
	for (uint64_t i = 0; i < reps; i++)
		cbench_keep(via_pointer(depth_of(ctx)));
}
CBENCH(pointer_ring0);

typedef uint64_t (*arena_fn)(void *arena, uint64_t n);

static __attribute__((noinline)) uint64_t via_arena(void *arena, uint64_t n)
{
	arena_fn next = *(volatile arena_fn *)arena;
	volatile uint64_t keep = n;

	return n ? next(arena, n - 1) + keep : 0;
}

static int arena_setup(struct cbench_ctx *ctx)
{
	*(volatile arena_fn *)ctx->arena = via_arena;
	return 0;
}

static void arena_ring0(struct cbench_ctx *ctx, uint64_t reps)
{
	arena_fn first = *(volatile arena_fn *)ctx->arena;

	for (uint64_t i = 0; i < reps; i++)
		cbench_keep(first(ctx->arena, depth_of(ctx)));
}
CBENCH(arena_ring0, .setup = arena_setup, .arena_bytes = 4096);

static __attribute__((noinline)) uint64_t big_frame(uint64_t seed)
{
	volatile char big[1 << 20];

	big[0] = (char)seed;
	big[sizeof(big) - 1] = (char)(seed >> 8);
	return (uint64_t)big[0] + (uint64_t)big[sizeof(big) - 1];
}

static void frame_ring0(struct cbench_ctx *ctx, uint64_t reps)
{
	for (uint64_t i = 0; i < reps; i++)
		cbench_keep(ring0() ? big_frame(i) : i);
}
CBENCH(frame_ring0);

static __attribute__((noinline)) uint64_t wide(uint64_t n)
{
	volatile char level[48 << 10];

	level[0] = (char)n;
	level[sizeof(level) - 1] = (char)(n >> 8);
	return n ? wide(n - 1) + (uint64_t)level[0] + (uint64_t)level[sizeof(level) - 1] : 0;
}

static void wide_frames(struct cbench_ctx *ctx, uint64_t reps)
{
	for (uint64_t i = 0; i < reps; i++)
		cbench_keep(wide(ctx->param > 0 ? (uint64_t)ctx->param : 2));
}
CBENCH(wide_frames);

/* ---- well-behaved recursion ---------------------------------------------- */

#define SORT_N 64

static int sort_setup(struct cbench_ctx *ctx)
{
	uint32_t *in = ctx->arena, x = 12345;

	for (uint32_t i = 0; i < SORT_N; i++) {
		x = x * 1103515245 + 12345;
		in[i] = x >> 8;
	}
	return 0;
}

static __attribute__((noinline)) void quick(uint32_t *a, int64_t lo, int64_t hi)
{
	uint32_t pivot, t;
	int64_t i = lo, j = hi;

	if (lo >= hi)
		return;
	pivot = a[lo + (hi - lo) / 2];
	while (i <= j) {
		while (a[i] < pivot)
			i++;
		while (a[j] > pivot)
			j--;
		if (i <= j) {
			t = a[i];
			a[i++] = a[j];
			a[j--] = t;
		}
	}
	quick(a, lo, j);
	quick(a, i, hi);
}

static void quicksort(struct cbench_ctx *ctx, uint64_t reps)
{
	uint32_t *in = ctx->arena, *work = in + SORT_N;

	for (uint64_t r = 0; r < reps; r++) {
		for (uint32_t i = 0; i < SORT_N; i++)
			work[i] = in[i];
		quick(work, 0, SORT_N - 1);
		cbench_keep(work[SORT_N / 2]);
	}
}
CBENCH(quicksort, .setup = sort_setup, .arena_bytes = 2 * SORT_N * sizeof(uint32_t));

struct node {
	struct node *left, *right;
	uint64_t value;
};

#define TREE_NODES 127

/* Node i's children are 2i + 1 and 2i + 2: a balanced tree of 7 levels. */
static int tree_setup(struct cbench_ctx *ctx)
{
	struct node *nodes = ctx->arena;

	for (uint32_t i = 0; i < TREE_NODES; i++) {
		nodes[i].value = i;
		nodes[i].left = 2 * i + 1 < TREE_NODES ? &nodes[2 * i + 1] : 0;
		nodes[i].right = 2 * i + 2 < TREE_NODES ? &nodes[2 * i + 2] : 0;
	}
	return 0;
}

static __attribute__((noinline)) uint64_t walk(const struct node *n)
{
	return n ? walk(n->left) + n->value + walk(n->right) : 0;
}

static void tree_walk(struct cbench_ctx *ctx, uint64_t reps)
{
	for (uint64_t i = 0; i < reps; i++) {
		const struct node *root = ctx->arena;

		cbench_launder(root);
		cbench_keep(walk(root));
	}
}
CBENCH(tree_walk, .setup = tree_setup, .arena_bytes = TREE_NODES * sizeof(struct node));
