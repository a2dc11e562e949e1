/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _CBENCH_TRAMPOLINE_H
#define _CBENCH_TRAMPOLINE_H

#include <linux/types.h>

struct cbench_guard;

/* Calls fn(ctx, reps) on an aligned stack, recoverable through guard; see trampoline.S. */
u64 cbench_trampoline(void *fn, void *ctx, u64 reps, struct cbench_guard *guard);

/* Where the watchdog's NMI handler resumes a call that did not return (guard.c). */
extern const char cbench_trampoline_resume[];

/* An entry point that does nothing, for measuring the trampoline's cost. */
void cbench_empty(void *ctx, u64 reps);

#endif /* _CBENCH_TRAMPOLINE_H */
