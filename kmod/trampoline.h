/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _CBENCH_TRAMPOLINE_H
#define _CBENCH_TRAMPOLINE_H

#include <linux/types.h>

struct cbench_guard;

/* Calls fn(ctx, reps) on an aligned stack, recoverable through guard; see trampoline.S. */
u64 cbench_trampoline(void *fn, void *ctx, u64 reps, struct cbench_guard *guard);

/*
 * Where the safety net resumes a call it ends (guard.c): directly, or, from
 * a page fault, through the landing's exception-table entry; the resume
 * path runs up to the trampoline's ret.
 */
extern const char cbench_trampoline_resume[];
extern const char cbench_trampoline_landing[];
extern const char cbench_trampoline_ret[];

/* An entry point that does nothing, for measuring the trampoline's cost. */
void cbench_empty(void *ctx, u64 reps);

#endif /* _CBENCH_TRAMPOLINE_H */
