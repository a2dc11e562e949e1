// SPDX-License-Identifier: GPL-2.0
/*
 * An audit's random order; see order.h.  Why random rather than ABAB:
 * whatever drifts with time (the core clock, a neighbour's load, the state
 * one measurement leaves in the caches and predictors) falls on both sides
 * alike and cannot line up with a fixed period.
 */
#include "order.h"

/* xorshift64* (Vigna): fast, good enough to shuffle, and replayable. */
static u64 next_random(u64 *state)
{
	u64 x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545F4914F6CDD1DULL;
}

void cbench_order_round(u8 *order, u32 per_side, u64 *state)
{
	u32 n = 2 * per_side, i;

	for (i = 0; i < n; i++)
		order[i] = i >= per_side;
	/*
	 * The modulo's bias is under n / 2^64: nothing a round of a few
	 * hundred could show.  We divide a u64 by a u32 the module's way
	 * and libc's alike.
	 */
	for (i = n - 1; i > 0 && i < n; i--) {
		u32 j = (u32)(next_random(state) % (u64)(i + 1));
		u8 t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
}
