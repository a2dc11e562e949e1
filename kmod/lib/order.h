/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The order of an audit's measurements (include/uapi/linux/cbench.h,
 * CBENCH_CMD_AUDIT_START): the same in cbench.ko, which takes an audit
 * run's samples in it, and in cbenchctl, whose user backend measures in it
 * and which checks the module's sides against it.
 */
#ifndef _CBENCH_LIB_ORDER_H
#define _CBENCH_LIB_ORDER_H

#include "types.h"

/*
 * One round: per_side zeros (side A) then as many ones (B) in order,
 * shuffled by Fisher-Yates with xorshift64* drawn from *state, which moves
 * on, so the next call draws the next round.  *state must not be 0
 * (xorshift's one fixed point): cbench_order_seed() makes a state of a seed.
 */
void cbench_order_round(u8 *order, u32 per_side, u64 *state);

/* The state a seed starts from: the seed, or 1 for 0. */
static inline u64 cbench_order_seed(u64 seed)
{
	return seed ? seed : 1;
}

#endif /* _CBENCH_LIB_ORDER_H */
