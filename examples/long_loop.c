// SPDX-License-Identifier: MIT
/*
 * A long-loop benchmark with loop timing points (seed 001): a rep walks
 * 528 records of 16 to 48 elements (16896 in all, the declared ops) and
 * does a chain of dependent adds per element.  A rep takes about a
 * millisecond, so a measurement of it is one slow timing; the marker counts
 * elements and a timing point ends each record, so one call also yields
 * hundreds of merged timings, each split into per-element timings.
 *
 * The inner loop runs a length the compiler cannot know, so it may merge
 * the marker into one `it += len` per record: the timing point still
 * records the right count, and the harness splits the record's timing by it.
 *
 *	make examples
 *	build/cbenchctl run build/examples/long_loop.so
 *	build/cbenchctl audit build/examples/long_loop.so --a long_loop --b long_loop_slower
 *	build/cbenchctl audit --no-tpoints build/examples/long_loop.so --a long_loop --b long_loop_slower
 *
 * long_loop_slower does 101 adds per element instead of 100 (1 % slower per
 * element and per rep); long_loop_again is long_loop again, for A/A audits.
 * Libc-free, so the object also builds for ring 0, where cbench.ko gives no
 * timing-point buffer and measures the reps alone.
 */
#include <cbench.h>

#define STR2(x) #x
#define STR(x) STR2(x)

#define RECORDS 528
/* Elements in all: each length 16 + r for r in 0..32 comes 16 times. */
#define ELEMENTS (RECORDS / 33 * (33 * 16 + 32 * 33 / 2))

/* Record lengths in a scrambled order, so neither the compiler nor the
 * branch predictor sees a pattern it could exploit. */
static int lengths(struct cbench_ctx *ctx)
{
	uint32_t *len = ctx->arena;

	for (uint32_t i = 0; i < RECORDS; i++)
		len[i] = 16 + (i * 7) % 33;
	return 0;
}

#define LONG_LOOP(name, adds)							\
	static void name(struct cbench_ctx *ctx, uint64_t reps)			\
	{									\
		const uint32_t *len = ctx->arena;				\
		uint64_t x = (uint64_t)ctx->param, it = 0;			\
										\
		for (uint64_t r = 0; r < reps; r++) {				\
			for (uint32_t i = 0; i < RECORDS; i++) {		\
				for (uint32_t e = 0; e < len[i]; e++) {		\
					cbench_mark(it);			\
					__asm__ volatile(".rept " STR(adds)	\
							 "\n\tadd %1, %0\n\t.endr" \
							 : "+r"(x) : "r"(1UL));	\
				}						\
				cbench_tpoint(ctx, it);				\
			}							\
		}								\
		cbench_keep(x);							\
	}									\
	CBENCH(name, .setup = lengths, .arena_bytes = RECORDS * sizeof(uint32_t), \
	       .ops_per_rep = ELEMENTS)

LONG_LOOP(long_loop, 100);
LONG_LOOP(long_loop_slower, 101);
LONG_LOOP(long_loop_again, 100);
