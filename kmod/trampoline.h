/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _CBENCH_TRAMPOLINE_H
#define _CBENCH_TRAMPOLINE_H

#include <linux/types.h>

/* Calls fn(ctx, reps) on an aligned stack; see trampoline.S. */
u64 cbench_trampoline(void *fn, void *ctx, u64 reps);

/* An entry point that does nothing, for measuring the trampoline's cost. */
void cbench_empty(void *ctx, u64 reps);

#endif /* _CBENCH_TRAMPOLINE_H */
