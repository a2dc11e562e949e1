// SPDX-License-Identifier: MIT
/*
 * A one-kernel sweep of 64 parameter values, as a lab's suites have them:
 * a dependent chain of multiply-xorshift steps, n steps a rep, n from 1 to
 * 64 (2 to 130 ns a rep on a 3 GHz core).  bench/night.sh times runs of it.
 */
#include <cbench.h>

static void mix(struct cbench_ctx *ctx, uint64_t reps)
{
	uint64_t n = (uint64_t)cbench_int(ctx, "n"), x = n | 1;

	for (uint64_t i = 0; i < reps; i++) {
		for (uint64_t j = 0; j < n; j++) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			x ^= x >> 17;
		}
		cbench_launder(x);
	}
	cbench_keep(x);
}
CBENCH(mix, CBENCH_KEYS(CBENCH_DENSE("n", 1, 64, 1)));
