/* SPDX-License-Identifier: GPL-2.0 */
/* The LAYOUT mode of a worker (cbenchctl layout). */
#ifndef _CBENCH_LAYOUT_WORKER_H
#define _CBENCH_LAYOUT_WORKER_H

#include "worker/job.h"

/* Measurements of each layout, after its warm-up. */
#define CBENCH_LAYOUT_PER_LAYOUT 100

/*
 * The LAYOUT mode, once the benchmark is prepared in b: the code as loaded
 * (layout 0), then job->layouts layouts, the k-th drawn from
 * cbench_placement_seed(job->seed, k), the arena and stack left where they
 * are; for each, a LAYOUT_PLACED message and CBENCH_LAYOUT_PER_LAYOUT
 * timings (AUDIT_TIMING, round k, side 0), then DONE.  Returns 0 or -errno,
 * with the reason in b->error where -errno would not say it.
 */
int cbench_worker_layout(struct cbench_backend *b, const struct cbench_worker_job *job, int fd);

#endif /* _CBENCH_LAYOUT_WORKER_H */
