/* SPDX-License-Identifier: GPL-2.0 */
/* The AUDIT mode of a worker. */
#ifndef _CBENCH_AUDIT_WORKER_H
#define _CBENCH_AUDIT_WORKER_H

#include <stdint.h>

#include "worker/job.h"

/* Timings per side per round, at the least (Lau et al. add 100 per side
 * per round). */
#define CBENCH_AUDIT_PER_SIDE 100

/*
 * One round's order: CBENCH_AUDIT_PER_SIDE zeros (A) and as many ones (B)
 * into order, shuffled by xorshift64* from *state (never 0), which moves
 * on: the same seed replays the same rounds.
 */
void cbench_audit_shuffle(uint8_t *order, uint64_t *state);
/* The same with per_side of each (at most CBENCH_AUDIT_PER_SIDE). */
void cbench_audit_shuffle_n(uint8_t *order, int per_side, uint64_t *state);

/* The AUDIT mode (audit_worker.c), once A is prepared in a: opens and
 * prepares B, runs rounds, sends the timings and AUDIT_DONE.  Returns 0 or
 * -errno, with the reason in a->error where -errno would not say it. */
int cbench_worker_audit(struct cbench_backend *a, const struct cbench_worker_job *job, int fd);

#endif /* _CBENCH_AUDIT_WORKER_H */
