/* SPDX-License-Identifier: GPL-2.0 */
/* Timing points in a worker: collecting them, and the TRIAL mode's. */
#ifndef _CBENCH_TPOINTS_WORKER_H
#define _CBENCH_TPOINTS_WORKER_H

#include <stddef.h>

#include "worker/job.h"
#include "worker/tpoints.h"

/*
 * Collecting timing points (tpoints_worker.c) in a worker whose backend
 * can: a pilot call with every point recorded, MIN_TIMING, the stride, then
 * calls whose merged timings are split and kept.
 */
struct cbench_tp_collect {
	struct cbench_tp_record *buf;	/* CBENCH_TP_CAPACITY records */
	uint64_t every;
	double min_timing;		/* ticks */
	double scale;			/* ns per tick */
	struct cbench_tp_split *splits;	/* kept since the last reset */
	size_t nsplits, cap;
	struct cbench_tp_calls calls;	/* since init */
	uint32_t ncalls;
	double perturb_score;		/* over everything since init */
};

/*
 * Sets c up for side b measured at n reps per call: returns 0 when the
 * benchmark records timing points (timing points on, k tuned), 1 when it
 * has none or they cannot time anything (timing points off; *why says which
 * where it matters), or -errno.
 */
int cbench_tp_collect_init(struct cbench_tp_collect *c, struct cbench_backend *b, uint64_t n,
			   const char **why);
/* One measurement with timing points on, its splits kept unless it was
 * disturbed; *s is the sample. */
int cbench_tp_collect_measure(struct cbench_tp_collect *c, struct cbench_backend *b, uint64_t n,
			      struct cbench_sample *s);
/* The summary of what was kept (sorts the splits). */
void cbench_tp_collect_summary(struct cbench_tp_collect *c, struct cbench_tp_summary *sum);
void cbench_tp_collect_free(struct cbench_tp_collect *c);

/* TRIAL: timing points of the prepared benchmark, after the measurements;
 * sends TPOINTS if it has any.  Returns 0 or -errno. */
int cbench_worker_tpoints(struct cbench_backend *b, const struct cbench_worker_job *job, int fd);

#endif /* _CBENCH_TPOINTS_WORKER_H */
