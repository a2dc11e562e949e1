/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A measuring session: what run, audit and profile each do around their
 * measurements, in this order: choose the worker's CPU, open the output
 * (an interrupted session removes its temporary files and ends its
 * worker), claim the CPU from other cbenchctl runs, calibrate the timer,
 * tune each benchmark's reps.  Errors are said on stderr.
 */
#ifndef _CBENCH_SESSION_H
#define _CBENCH_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backend/backend.h"

struct cbench_outfile;
struct cbench_worker_job;

/*
 * Runs this cbenchctl again with argv (argv[0] its name, NULL-ended),
 * stdout to /dev/null and stderr to err_path (NULL: ours), and waits.
 * Returns its exit status, 128 + the signal that ended it, or -errno if it
 * could not start.  For `selftest` and `run --backend both`, which run
 * `cbenchctl run` per backend.
 */
int cbench_session_run_self(const char *const *argv, const char *err_path);

/* The worker's CPU: wanted, or the last we may use (-1); keeps this process
 * off it where there is another.  *shared: there is no other. */
int cbench_session_pick_cpu(int wanted, int *cpu, bool *shared);

/* Signals clean up the outputs and end the worker; then opens path (NULL:
 * stdout).  0, or -1 after saying why. */
int cbench_session_open_output(struct cbench_outfile *out, const char *path);

/* Waits for cpu's lock; the lock's fd, or -errno after saying that we are
 * `doing` ("measuring") on it unclaimed.  Last before measuring, so that
 * bad input never waits for a CPU. */
int cbench_session_claim_cpu(int cpu, const char *doing);

/*
 * Calibrates the timer in a CALIBRATE worker on cpu.  Returns 0 or -errno
 * after saying why on stderr.
 */
int cbench_session_calibrate(const struct cbench_backend_ops *ops, int cpu, bool shared_cpu,
			     struct cbench_timer *timer, struct cbench_backend_env *env);

/*
 * Tunes job->exp's reps per measurement (Alg. 1 in several TUNE workers,
 * then the oracle) into *n, each worker within time_limit_s.  Returns 0, or
 * -errno with a sentence in failure.
 */
int cbench_session_tune(const struct cbench_worker_job *job, double time_limit_s, uint64_t *n,
			char *failure, size_t failure_len);

#endif /* _CBENCH_SESSION_H */
