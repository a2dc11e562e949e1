/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Loop timing points in ring 0: each sample's records, and the context's
 * timing-point state set around each call of run() (tpoints.c).
 */
#ifndef _CBENCH_TPOINTS_H
#define _CBENCH_TPOINTS_H

#include "run.h"

/* The run's records, zeroed, if it asked for timing points; 0 or -ENOMEM. */
int cbench_tp_alloc(struct cbench_run *run);
void cbench_tp_free(struct cbench_run *run);

/* Points ctx.tp at sample's records, from the first, before a call of run(). */
void cbench_tp_arm(struct cbench_run *run, u32 sample);
/* Zeroes ctx.tp: setup(), the hooks and the calibration see no buffer. */
void cbench_tp_disarm(struct cbench_run *run);
/* After sample's call: keeps the count it took, then disarms. */
void cbench_tp_collect(struct cbench_run *run, u32 sample);

/* The records sample holds: its count, clamped to the run's records per sample. */
u32 cbench_tp_kept(const struct cbench_run *run, u32 sample);

#endif /* _CBENCH_TPOINTS_H */
