// SPDX-License-Identifier: MIT
/*
 * Kernel-image fixture: named parameters, written as docs/parameters.md
 * says, run in user mode and in ring 0.  Each benchmark's setup() checks
 * every value its context carries against what its name promises, and
 * refuses (fails the trial) on any difference, so a run that succeeds has
 * seen the right values in the right order.
 *
 *   copy   three keys, their product: size (a range) x mode (strings) x
 *          align (a dense range): 8 sets, BenchmarkCopy/size=64/mode=odd/align=8
 *   hash   two keys and the sets listed with CBENCH_SETS: 2 of 4
 *   sweep  one .param_name sweep, as ABI 2 wrote it: ctx->args has it too
 */
#include <cbench.h>

struct copy_arena {
	uint64_t size, align;
	int odd;
};

static int same(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

static int copy_setup(struct cbench_ctx *ctx)
{
	struct copy_arena *a = ctx->arena;
	const char *mode = cbench_str(ctx, "mode");
	int64_t size = cbench_int(ctx, "size"), align = cbench_int(ctx, "align");

	if (ctx->nargs != 3 || !same(ctx->args[0].key, "size") || !same(ctx->args[1].key, "mode") ||
	    !same(ctx->args[2].key, "align") || ctx->param != size || ctx->args[0].str ||
	    ctx->args[2].str || !mode)
		return -71;
	if ((size != 64 && size != 512) || (align != 0 && align != 8))
		return -72;
	if (!(same(mode, "aligned") && ctx->args[1].i == 0) && !(same(mode, "odd") && ctx->args[1].i == 1))
		return -73;
	a->size = (uint64_t)size;
	a->align = (uint64_t)align;
	a->odd = ctx->args[1].i == 1;
	return 0;
}

static void copy(struct cbench_ctx *ctx, uint64_t reps)
{
	const struct copy_arena *a = ctx->arena;
	uint64_t x = 0;

	for (uint64_t r = 0; r < reps; r++) {
		for (uint64_t i = 0; i < a->size / 64; i++)
			__asm__ volatile("add %1, %0" : "+r"(x) : "r"(a->align + (uint64_t)a->odd));
	}
	cbench_keep(x);
}
CBENCH(copy, .setup = copy_setup, .arena_bytes = 4096,
       CBENCH_KEYS(CBENCH_RANGE("size", 64, 512, 8), CBENCH_STRS("mode", "aligned", "odd"),
		   CBENCH_DENSE("align", 0, 8, 8)));

static int hash_setup(struct cbench_ctx *ctx)
{
	int64_t len = cbench_int(ctx, "len");
	const char *algo = cbench_str(ctx, "algo");

	if (ctx->nargs != 2 || !algo)
		return -71;
	/* The two sets CBENCH_SETS lists: len=8/algo=crc32c and len=64/algo=fnv1a. */
	if (!(len == 8 && same(algo, "crc32c")) && !(len == 64 && same(algo, "fnv1a")))
		return -72;
	return 0;
}

static void hash(struct cbench_ctx *ctx, uint64_t reps)
{
	uint64_t h = (uint64_t)ctx->param;

	for (uint64_t r = 0; r < reps; r++)
		__asm__ volatile("imul $31, %0, %0" : "+r"(h));
	cbench_keep(h);
}
CBENCH(hash, .setup = hash_setup,
       CBENCH_KEYS(CBENCH_INTS("len", 8, 64), CBENCH_STRS("algo", "fnv1a", "crc32c")),
       CBENCH_SETS(8, 1, 64, 0));

static int sweep_setup(struct cbench_ctx *ctx)
{
	return ctx->nargs == 1 && same(ctx->args[0].key, "n") && ctx->args[0].i == ctx->param &&
	       !ctx->args[0].str ? 0 : -71;
}

static void sweep(struct cbench_ctx *ctx, uint64_t reps)
{
	uint64_t x = 0;

	for (uint64_t r = 0; r < reps; r++)
		__asm__ volatile("add $1, %0" : "+r"(x));
	cbench_keep(x);
}
CBENCH(sweep, .setup = sweep_setup, .param_name = "n", CBENCH_PARAMS(3, -1));
