/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reference code (reference.S): a dependent-add chain of known cost, one
 * core cycle per add, measured in every trial beside the benchmark so that
 * cycles are estimated against a reference taken milliseconds apart, and a
 * spin of variable length for learning the timer's step.  The bytes from
 * cbench_ref_begin to cbench_ref_end are self-contained and
 * position-independent: the kmod backend copies them into a kernel image.
 */
#ifndef _CBENCH_REFERENCE_H
#define _CBENCH_REFERENCE_H

#include <stdint.h>

#include <cbench.h>

/* Adds one rep of cbench_ref_add_chain performs (ADDS_PER_REP in the .S). */
#define CBENCH_REF_ADDS_PER_REP 1000
/* Adds one rep of cbench_ref_wide performs, in seven independent chains. */
#define CBENCH_REF_WIDE_ADDS_PER_REP 980

void cbench_ref_empty(struct cbench_ctx *ctx, uint64_t reps);
void cbench_ref_add_chain(struct cbench_ctx *ctx, uint64_t reps);
void cbench_ref_wide(struct cbench_ctx *ctx, uint64_t reps);
void cbench_ref_spin(struct cbench_ctx *ctx, uint64_t reps);
/* reps loop timing points back to back (for MIN_TIMING where it runs). */
void cbench_ref_tpoints(struct cbench_ctx *ctx, uint64_t reps);

extern const char cbench_ref_begin[], cbench_ref_end[];

#endif /* _CBENCH_REFERENCE_H */
