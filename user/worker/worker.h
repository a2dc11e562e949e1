/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Worker processes (Caliper): each experiment phase runs in a fresh
 * process forked from the runner after the benchmark object is loaded.  The
 * worker measures and sends fixed-size messages up a pipe (job.h); the
 * runner measures nothing, enforces the time limit and survives the worker.
 * worker.c runs a job, handing the AUDIT and PROFILE modes and the timing
 * points to their files, which know only job.h.
 */
#ifndef _CBENCH_WORKER_H
#define _CBENCH_WORKER_H

#include "worker/job.h"

/* Runs job in this process, writing messages to fd.  Returns an exit code. */
int cbench_worker_main(const struct cbench_worker_job *job, int fd);

#endif /* _CBENCH_WORKER_H */
