// SPDX-License-Identifier: GPL-2.0
/*
 * Real code nobody here wrote, for bench/history_xxhash.sh: xxHash (its
 * header, fetched at bench time from the `xxhash` package's sources on
 * PyPI, never kept here), one benchmark over 12 parameter sets: three
 * algorithms by four lengths.  Built as shipped, XXH3 takes its vector
 * path (SSE2 or AVX2) from 240 bytes up; built with -DXXH_VECTOR=0 it takes
 * the scalar one, 2 to 3 times slower there and the same below.  BENCH_COMMIT
 * names the commit a build stands for, so each build has its own build ID.
 */
#define XXH_INLINE_ALL
#include "xxhash.h"

#include <cbench.h>

#ifndef BENCH_COMMIT
#define BENCH_COMMIT "none"
#endif

const char bench_commit[] __attribute__((used)) = BENCH_COMMIT;

enum { ALGO_XXH3, ALGO_XXH64, ALGO_XXH32 };	/* the order of CBENCH_STRS below */
#define ARENA (64 * 1024)

static int fill(struct cbench_ctx *ctx)
{
	unsigned char *p = ctx->arena;
	uint64_t s = 0x9e3779b97f4a7c15ULL;

	for (uint64_t i = 0; i < ctx->arena_bytes; i++) {
		s ^= s << 13;
		s ^= s >> 7;
		s ^= s << 17;
		p[i] = (unsigned char)s;
	}
	return 0;
}

static void hash(struct cbench_ctx *ctx, uint64_t reps)
{
	const unsigned char *p = ctx->arena;
	size_t n = (size_t)cbench_int(ctx, "len");
	int64_t algo = cbench_int(ctx, "algo");
	uint64_t h = 0;

	for (uint64_t r = 0; r < reps; r++) {
		if (algo == ALGO_XXH3)
			h = XXH3_64bits_withSeed(p, n, h);
		else if (algo == ALGO_XXH64)
			h = XXH64(p, n, h);
		else
			h = XXH32(p, n, (XXH32_hash_t)h);
	}
	cbench_keep(h);
}
CBENCH(hash, .setup = fill, .arena_bytes = ARENA,
       CBENCH_KEYS(CBENCH_STRS("algo", "xxh3", "xxh64", "xxh32"), CBENCH_INTS("len", 64, 512, 4096, 65536)),
       .bytes_per_rep = 1, .flags = CBENCH_F_BYTES_PER_PARAM);
