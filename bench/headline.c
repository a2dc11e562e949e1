// SPDX-License-Identifier: GPL-2.0
/*
 * Compute-only kernels for bench/headline.sh: what a run tells about them
 * (flags, headline, interval) must hold on a quiet machine and a busy VM
 * alike.  None touches memory beyond a few L1-resident bytes, so none is
 * sensitive to where memory lies: a placement flag on any is a false one.
 *
 *   mix/steps=1..64     a dependent chain of `steps` xorshift-multiply
 *                       rounds per rep: one kernel swept over one integer
 *   independent_adds    four independent add chains (throughput, not latency)
 *   hash/len=...        FNV-1a over an L1-resident buffer of len bytes
 */
#include <cbench.h>

static void mix(struct cbench_ctx *ctx, uint64_t reps)
{
	uint64_t steps = (uint64_t)cbench_int(ctx, "steps"), x = reps | 1;

	for (uint64_t i = 0; i < reps; i++)
		for (uint64_t s = 0; s < steps; s++) {
			x ^= x >> 17;
			x *= 0x9e3779b97f4a7c15ull;
		}
	cbench_keep(x);
}
CBENCH(mix, CBENCH_KEYS(CBENCH_DENSE("steps", 1, 64, 1)));

static void independent_adds(struct cbench_ctx *ctx, uint64_t reps)
{
	uint64_t a = 0, b = 1, c = 2, d = 3, one = 1;

	for (uint64_t i = 0; i < reps; i++)
		__asm__ volatile(".rept 100\n\tadd %4, %0\n\tadd %4, %1\n\tadd %4, %2\n\tadd %4, %3\n\t.endr"
				 : "+r"(a), "+r"(b), "+r"(c), "+r"(d) : "r"(one));
	cbench_keep(a + b + c + d);
}
CBENCH(independent_adds, .ops_per_rep = 400);

static int hash_setup(struct cbench_ctx *ctx)
{
	unsigned char *p = ctx->arena;

	for (uint64_t i = 0; i < ctx->arena_bytes; i++)
		p[i] = (unsigned char)(i * 131);
	return 0;
}

static void hash(struct cbench_ctx *ctx, uint64_t reps)
{
	uint64_t len = (uint64_t)cbench_int(ctx, "len"), h = 0xcbf29ce484222325ull;
	const unsigned char *p = ctx->arena;

	for (uint64_t i = 0; i < reps; i++)
		for (uint64_t j = 0; j < len; j++)
			h = (h ^ p[j]) * 0x100000001b3ull;
	cbench_keep(h);
}
CBENCH(hash, .setup = hash_setup, .arena_bytes = 4096,
       CBENCH_KEYS(CBENCH_INTS("len", 16, 64, 256, 1024, 4096)));
