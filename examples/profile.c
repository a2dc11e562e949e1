// SPDX-License-Identifier: MIT
/*
 * A known answer for `cbenchctl profile`: each rep calls heavy(), 300
 * dependent adds, then light(), 100 dependent adds, so heavy() takes 75 % of
 * the time and light() 25 %, by construction.  The adds wait for each other
 * at one cycle each, while the calls, returns and the loop around them do
 * not depend on them and retire in their shadow, so the two functions hold
 * nearly every cycle between them.  noinline keeps them two functions, and
 * the asm (volatile, with x in and out) keeps the compiler from folding,
 * merging or moving their adds.  Built with -g, `--by line` finds the asm.
 *
 *	make examples && build/cbenchctl profile build/examples/profile.so
 */
#include <cbench.h>

__attribute__((noinline)) static uint64_t heavy(uint64_t x)
{
	__asm__ volatile(".rept 300\n\tadd %1, %0\n\t.endr" : "+r"(x) : "r"(1UL));
	return x;
}

__attribute__((noinline)) static uint64_t light(uint64_t x)
{
	__asm__ volatile(".rept 100\n\tadd %1, %0\n\t.endr" : "+r"(x) : "r"(1UL));
	return x;
}

static void three_to_one(struct cbench_ctx *ctx, uint64_t reps)
{
	uint64_t x = (uint64_t)ctx->param;

	for (uint64_t i = 0; i < reps; i++)
		x = light(heavy(x));
	cbench_keep(x);
}
CBENCH(three_to_one, .ops_per_rep = 400);
