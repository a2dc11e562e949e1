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

/*
 * Trials one after another in this process (a standing worker, phase.h):
 * first's, then each job next() gives, until it returns false (the runner
 * has no more, or the job could not be loaded: next() said why).  Each
 * trial as cbench_worker_main() runs one (ENV after prepare(), the
 * measurements, DONE), the backend opened once and released between them;
 * its DONE says "last" where the worker ends after it: the backend cannot
 * release, or the benchmark left a thread or a process behind (worker.c).
 * Returns an exit code.
 */
int cbench_worker_serve(const struct cbench_worker_job *first, int fd,
			bool (*next)(void *arg, struct cbench_worker_job *job), void *arg);

#endif /* _CBENCH_WORKER_H */
