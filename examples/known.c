// SPDX-License-Identifier: MIT
/*
 * The known-answer kernels of `cbenchctl selftest`: each measures one
 * figure the hardware documents, so a result that misses it says the
 * measurement is wrong on this machine, not the code.  Every rep is 1000
 * instructions, written in inline asm so the compiler can neither fold nor
 * reorder them, declared as 1000 ops: est-cycles/op is the figure itself.
 * Libc-free, so the object also runs in ring 0 (selftest --backend kmod).
 *
 *	latency_add      dependent add r64, r64: 1 cycle (not add r64, imm: Intel's
 *	                 cores since Golden Cove fold chains of those at rename)
 *	latency_imul     dependent imul r64, r64: 3 cycles
 *	latency_crc32    dependent crc32 r64, r64: 3 cycles
 *	latency_popcnt   dependent popcnt r64, r64: 1 cycle on AMD Zen, 3 on Intel
 *	latency_l1       a pointer chase inside one 4 KiB page (L1): the
 *	                 load-to-use latency, 4 or 5 cycles by core
 *	throughput_add   8 independent add chains: 1 / (the integer ALUs) cycles
 *
 * The expected values, with their sources, are user/machine/known.c's.
 *
 *	make examples && build/cbenchctl selftest
 */
#include <cbench.h>

/* A rep of 1000 dependent instructions INSN on x (%0), with y (%1) beside. */
#define CHAIN(name, init, insn)								\
	static void name(struct cbench_ctx *ctx, uint64_t reps)				\
	{										\
		uint64_t x = (uint64_t)ctx->param | (init), y = 0x9e3779b97f4a7c15ULL;	\
											\
		for (uint64_t i = 0; i < reps; i++)					\
			__asm__ volatile(".rept 1000\n\t" insn "\n\t.endr" : "+r"(x) : "r"(y)); \
		cbench_keep(x);								\
	}										\
	CBENCH(name, .ops_per_rep = 1000)

CHAIN(latency_add, 0, "add %1, %0");
CHAIN(latency_imul, 3, "imul %0, %0");
CHAIN(latency_crc32, 0, "crc32q %1, %0");
CHAIN(latency_popcnt, 0, "popcnt %0, %0");

/* 64 slots 64 bytes apart in one page, each holding the next's address. */
static int ring_setup(struct cbench_ctx *ctx)
{
	uint64_t *slot = ctx->arena;

	for (unsigned int i = 0; i < 64; i++)
		slot[i * 8] = (uint64_t)(uintptr_t)&slot[((i + 1) % 64) * 8];
	return 0;
}

static void latency_l1(struct cbench_ctx *ctx, uint64_t reps)
{
	uint64_t *p = ctx->arena;

	for (uint64_t i = 0; i < reps; i++)
		__asm__ volatile(".rept 1000\n\tmov (%0), %0\n\t.endr" : "+r"(p) : : "memory");
	cbench_keep(p);
}
CBENCH(latency_l1, .setup = ring_setup, .arena_bytes = 4096, .ops_per_rep = 1000);

/* Eight chains at once, 125 adds each per rep: as many adds a cycle as ALUs. */
static void throughput_add(struct cbench_ctx *ctx, uint64_t reps)
{
	uint64_t a = (uint64_t)ctx->param, b = a, c = a, d = a, e = a, f = a, g = a, h = a, one = 1;

	for (uint64_t i = 0; i < reps; i++)
		__asm__ volatile(".rept 125\n\t"
				 "add %8, %0\n\tadd %8, %1\n\tadd %8, %2\n\tadd %8, %3\n\t"
				 "add %8, %4\n\tadd %8, %5\n\tadd %8, %6\n\tadd %8, %7\n\t"
				 ".endr"
				 : "+r"(a), "+r"(b), "+r"(c), "+r"(d), "+r"(e), "+r"(f), "+r"(g), "+r"(h)
				 : "r"(one));
	cbench_keep(a + b + c + d + e + f + g + h);
}
CBENCH(throughput_add, .ops_per_rep = 1000);
