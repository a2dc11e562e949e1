// SPDX-License-Identifier: MIT
/*
 * An example suite to copy from: memory, arithmetic, branches, a parameter
 * sweep and two known-answer kernels.  Everything here is libc-free (no
 * malloc, no printf, no memcpy) so the same object can run in ring 0: the
 * harness provides memory through the arena.
 *
 *	make examples && build/cbenchctl run build/examples/suite.so
 */
#include <cbench.h>

/* ---- Known answers: dependent chains of one instruction ----------------
 * Each rep is 1000 instructions, each waiting for the one before, written
 * in inline asm so the compiler cannot fold or reorder them.  The loop
 * around them costs two instructions per 1000 and runs on other ports, so
 * ns/op is the instruction's latency: 1 cycle for add and 3 for imul on
 * every recent x86-64 core, hence imul/add = 3.00.
 */
#define CHAIN_LENGTH 1000
#define CHAIN_STR2(x) #x
#define CHAIN_STR(x) CHAIN_STR2(x)

static void add_chain(struct cbench_ctx *ctx, uint64_t reps)
{
	uint64_t x = (uint64_t)ctx->param, one = 1;

	/* add r64, r64: Intel's cores since Golden Cove fold chains of add
	 * r64, imm at rename, several a cycle. */
	for (uint64_t i = 0; i < reps; i++)
		__asm__ volatile(".rept " CHAIN_STR(CHAIN_LENGTH) "\n\tadd %1, %0\n\t.endr"
				 : "+r"(x) : "r"(one));
	cbench_keep(x);
}
CBENCH(add_chain, .ops_per_rep = CHAIN_LENGTH);

static void imul_chain(struct cbench_ctx *ctx, uint64_t reps)
{
	uint64_t x = (uint64_t)ctx->param | 3;

	for (uint64_t i = 0; i < reps; i++)
		__asm__ volatile(".rept " CHAIN_STR(CHAIN_LENGTH) "\n\timul %0, %0\n\t.endr" : "+r"(x));
	cbench_keep(x);
}
CBENCH(imul_chain, .ops_per_rep = CHAIN_LENGTH);

/* ---- Arithmetic ----------------------------------------------------------
 * Dependent 64-bit divisions, the slowest common integer instruction. */
static void divide_chain(struct cbench_ctx *ctx, uint64_t reps)
{
	uint64_t x = ~0ULL, d = 3;

	(void)ctx;
	cbench_launder(d);
	for (uint64_t i = 0; i < reps; i++) {
		x = x / d + 0xffffffffffffULL;
		cbench_launder(x);
	}
	cbench_keep(x);
}
CBENCH(divide_chain);

/* ---- Memory --------------------------------------------------------------
 * Copy and fill over the arena with a size sweep; 8-byte words so the
 * compiler emits plain loads and stores (it may vectorize them). */
#define MEM_ARENA (8u << 20)

static int mem_setup(struct cbench_ctx *ctx)
{
	/* The copy reads the first half of the arena and writes the second. */
	return ctx->param > 0 && (uint64_t)ctx->param * 2 <= ctx->arena_bytes ? 0 : -1;
}

static void copy(struct cbench_ctx *ctx, uint64_t reps)
{
	uint64_t words = (uint64_t)ctx->param / 8;
	const uint64_t *src = ctx->arena;
	uint64_t *dst = (uint64_t *)ctx->arena + ctx->arena_bytes / 16;

	for (uint64_t r = 0; r < reps; r++) {
		for (uint64_t i = 0; i < words; i++)
			dst[i] = src[i];
		cbench_clobber();
	}
}
CBENCH(copy, .setup = mem_setup, .arena_bytes = MEM_ARENA, .param_name = "size",
       CBENCH_PARAMS(64, 4096, 262144, 4194304), .bytes_per_rep = 1,
       .flags = CBENCH_F_BYTES_PER_PARAM);

static void fill(struct cbench_ctx *ctx, uint64_t reps)
{
	uint64_t words = (uint64_t)ctx->param / 8;
	uint64_t *dst = ctx->arena;

	for (uint64_t r = 0; r < reps; r++) {
		for (uint64_t i = 0; i < words; i++)
			dst[i] = r;
		cbench_clobber();
	}
}
CBENCH(fill, .setup = mem_setup, .arena_bytes = MEM_ARENA, .param_name = "size",
       CBENCH_PARAMS(4096, 4194304), .bytes_per_rep = 1, .flags = CBENCH_F_BYTES_PER_PARAM);

/* ---- Hashing -------------------------------------------------------------
 * Two keys, one of them strings: BenchmarkHash/algo=fnv1a/len=16 ... and
 * benchstat slices the results by either (benchstat -col /algo).  Each
 * rep's hash is seeded with the last one, a chain the compiler cannot
 * hoist out of the loop. */
#define HASH_ARENA 4096

enum hash_algo { HASH_FNV1A, HASH_DJB2 };	/* the order of CBENCH_STRS below */

static int hash_setup(struct cbench_ctx *ctx)
{
	uint8_t *p = ctx->arena;
	uint64_t s = 0x9e3779b97f4a7c15ULL;

	if ((uint64_t)cbench_int(ctx, "len") > ctx->arena_bytes)
		return -1;
	for (uint64_t i = 0; i < ctx->arena_bytes; i++) {
		s ^= s << 13;
		s ^= s >> 7;
		s ^= s << 17;
		p[i] = (uint8_t)s;
	}
	return 0;
}

static uint64_t fnv1a(const uint8_t *p, uint64_t n, uint64_t h)
{
	for (uint64_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	return h;
}

static uint64_t djb2(const uint8_t *p, uint64_t n, uint64_t h)
{
	for (uint64_t i = 0; i < n; i++)
		h = h * 33 + p[i];
	return h;
}

static void hash(struct cbench_ctx *ctx, uint64_t reps)
{
	const uint8_t *p = ctx->arena;
	uint64_t n = (uint64_t)cbench_int(ctx, "len");
	uint64_t h = 0xcbf29ce484222325ULL;

	if (cbench_int(ctx, "algo") == HASH_FNV1A) {
		for (uint64_t r = 0; r < reps; r++)
			h = fnv1a(p, n, h);
	} else {
		for (uint64_t r = 0; r < reps; r++)
			h = djb2(p, n, h);
	}
	cbench_keep(h);
}
CBENCH(hash, .setup = hash_setup, .arena_bytes = HASH_ARENA,
       CBENCH_KEYS(CBENCH_STRS("algo", "fnv1a", "djb2"), CBENCH_RANGE("len", 16, 4096, 16)),
       .bytes_per_rep = 1, .flags = CBENCH_F_BYTES_PER_PARAM);

/* Sums the arena: a read stream. */
static void stream_sum(struct cbench_ctx *ctx, uint64_t reps)
{
	const uint64_t *p = ctx->arena;
	uint64_t words = ctx->arena_bytes / 8, sum = 0;

	for (uint64_t r = 0; r < reps; r++) {
		for (uint64_t i = 0; i < words; i++)
			sum += p[i];
		cbench_launder(sum);
	}
	cbench_keep(sum);
}
CBENCH(stream_sum, .arena_bytes = 1u << 20, .bytes_per_rep = 1u << 20);

/* A random cyclic pointer chase: each load's address is the previous
 * load's value, so ns/op is the load-to-use latency of the cache level the
 * working set (the parameter) fits in.  A call carries on where the last
 * one stopped (the cursor lives in the arena's last word): restarting at
 * the head would walk the same first n lines every time, and a short
 * measurement would then see only that cached prefix of a large set. */
#define CHASE_ARENA (16u << 20)
#define CHASE_STRIDE 64		/* one pointer per cache line */

static uint64_t xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void ***chase_cursor(struct cbench_ctx *ctx)
{
	return (void ***)((char *)ctx->arena + ctx->arena_bytes - sizeof(void **));
}

static int chase_setup(struct cbench_ctx *ctx)
{
	uint64_t lines = (uint64_t)ctx->param / CHASE_STRIDE, seed = 0x9e3779b97f4a7c15ULL;
	char *base = ctx->arena;
	uint64_t *order;

	if (lines < 2 || (uint64_t)ctx->param > ctx->arena_bytes / 2)
		return -1;
	/* A random permutation of the lines (Fisher-Yates), kept in the
	 * arena's upper half, linked into one cycle. */
	order = (uint64_t *)(base + ctx->arena_bytes / 2);
	for (uint64_t i = 0; i < lines; i++)
		order[i] = i;
	for (uint64_t i = lines - 1; i > 0; i--) {
		uint64_t j = xorshift(&seed) % (i + 1), t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
	for (uint64_t i = 0; i < lines; i++)
		*(void **)(base + order[i] * CHASE_STRIDE) = base + order[(i + 1) % lines] * CHASE_STRIDE;
	*chase_cursor(ctx) = (void **)base;
	return 0;
}

static void pointer_chase(struct cbench_ctx *ctx, uint64_t reps)
{
	void ***cursor = chase_cursor(ctx);
	void **p = *cursor;

	for (uint64_t i = 0; i < reps; i++)
		p = *p;
	*cursor = p;
}
CBENCH(pointer_chase, .setup = chase_setup, .arena_bytes = CHASE_ARENA, .param_name = "size",
       CBENCH_PARAMS(16384, 1048576, 8388608));

/* The same 8 MiB chase on transparent huge pages: fewer TLB misses, where
 * the kernel grants them (the report says what the arena got). */
static void pointer_chase_huge(struct cbench_ctx *ctx, uint64_t reps)
{
	pointer_chase(ctx, reps);
}
CBENCH(pointer_chase_huge, .setup = chase_setup, .arena_bytes = CHASE_ARENA, .param_name = "size",
       CBENCH_PARAMS(8388608), .flags = CBENCH_F_ARENA_HUGE);

/* ---- Branches --------------------------------------------------------------
 * A loop branching on each of 4096 bytes: all-zero data (the predictor always
 * wins) versus random bits (it loses half the time).  Each rep takes the
 * next 4096-byte window of a 1 MiB buffer, and a call carries on where the
 * last one stopped (the offset lives in the arena's last word): a pattern
 * repeated every rep, or every call, would be learnt by a predictor with a
 * long history, and the "random" case would then cost little more than the
 * predictable one. */
#define BRANCH_BYTES 4096
#define BRANCH_BUFFER (1u << 20)
#define BRANCH_ARENA (BRANCH_BUFFER + 64)

static uint64_t *branch_cursor(struct cbench_ctx *ctx)
{
	return (uint64_t *)((char *)ctx->arena + BRANCH_BUFFER);
}

static int branch_setup(struct cbench_ctx *ctx)
{
	unsigned char *b = ctx->arena;
	uint64_t seed = 0x243f6a8885a308d3ULL;

	for (uint64_t i = 0; i < BRANCH_BUFFER; i++)
		b[i] = ctx->param ? (unsigned char)(xorshift(&seed) & 1) : 0;
	*branch_cursor(ctx) = 0;
	return 0;
}

static void branch(struct cbench_ctx *ctx, uint64_t reps)
{
	const unsigned char *buffer = ctx->arena;
	uint64_t taken = 0, at = *branch_cursor(ctx);

	for (uint64_t r = 0; r < reps; r++) {
		const unsigned char *b = buffer + at;

		for (uint64_t i = 0; i < BRANCH_BYTES; i++) {
			if (b[i]) {
				taken++;
				/* An empty asm keeps the branch a branch (no cmov/setcc). */
				__asm__ volatile("");
			}
		}
		at = (at + BRANCH_BYTES) % BRANCH_BUFFER;
		cbench_launder(taken);
	}
	*branch_cursor(ctx) = at;
	cbench_keep(taken);
}
CBENCH(branch, .setup = branch_setup, .arena_bytes = BRANCH_ARENA, .param_name = "random",
       CBENCH_PARAMS(0, 1), .ops_per_rep = BRANCH_BYTES);
