// SPDX-License-Identifier: MIT
/*
 * Two variants of one kernel, for `cbenchctl audit`: a chain of 1000
 * dependent adds per rep against one of 1010, both declaring 1000 ops per
 * rep, so the second is truly 1 % slower per declared op; a copy of the
 * first, for an A/A audit that must not find a difference; and 5001 against
 * 5000 adds, a true +0.02 %, for audits at --min-effect 0.01, where one
 * timer step may be as large as the change (bench/audit.sh's tiny cases).
 *
 *	make examples
 *	build/cbenchctl audit build/examples/audit.so --a chain_1000 --b chain_1010
 *	build/cbenchctl audit build/examples/audit.so --a chain_1000 --b chain_1000_again
 *	build/cbenchctl audit build/examples/audit.so --a chain_5000 --b chain_5001 --min-effect 0.01
 *
 * Libc-free, like every example, so the object also builds for ring 0.
 */
#include <cbench.h>

#define STR2(x) #x
#define STR(x) STR2(x)

/* A rep of n dependent adds, in inline asm so the compiler can neither
 * fold nor shorten the chain: each add waits for the one before, so a rep
 * takes n cycles, and 1010 adds take 1 % longer than 1000 (5001, 0.02 %
 * longer than 5000). */
#define CHAIN(name, n)								\
	static void name(struct cbench_ctx *ctx, uint64_t reps)			\
	{									\
		uint64_t x = (uint64_t)ctx->param, one = 1;			\
										\
		for (uint64_t i = 0; i < reps; i++)				\
			__asm__ volatile(".rept " STR(n) "\n\tadd %1, %0\n\t.endr"	\
					 : "+r"(x) : "r"(one));				\
		cbench_keep(x);							\
	}									\
	CBENCH(name, .ops_per_rep = 1000)

CHAIN(chain_1000, 1000);
CHAIN(chain_1010, 1010);
CHAIN(chain_1000_again, 1000);
CHAIN(chain_5000, 5000);
CHAIN(chain_5001, 5001);
