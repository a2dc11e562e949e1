/* SPDX-License-Identifier: GPL-2.0 */
/* The PROFILE mode of a worker. */
#ifndef _CBENCH_PROFILE_WORKER_H
#define _CBENCH_PROFILE_WORKER_H

#include "worker/job.h"

/* The PROFILE mode (profile_worker.c), once the benchmark is prepared in b:
 * sends PROFILE and the groups, not DONE.  Returns 0 or -errno, with the
 * reason in b->error where -errno would not say it. */
int cbench_worker_profile(struct cbench_backend *b, const struct cbench_worker_job *job, int fd);

#endif /* _CBENCH_PROFILE_WORKER_H */
