/* SPDX-License-Identifier: GPL-2.0 */
/* The runner side of a phase: fork a worker, collect, survive. */
#ifndef _CBENCH_PHASE_H
#define _CBENCH_PHASE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "machine/cpus.h"
#include "worker/worker.h"

/* How a worker ended: error 0 when it finished its job, else -errno and
 * why; and what it said of its environment (CBENCH_MSG_ENV). */
struct cbench_phase_end {
	int error;
	char reason[600];
	struct cbench_backend_env env;
};

/*
 * What a phase keeps of its worker's messages: one collector per worker
 * mode (collect.h), each filling a result of its own.  take() gets every
 * message but ENV, DONE and ERROR, which the phase takes itself; it
 * returns 0 to go on, 1 when the job is done, or -errno to end the worker
 * with why in reason (-EPROTO: a message the mode does not take).  late(),
 * where given, says why a phase that ran out of time failed, from what
 * came; false for the plain "timeout after N s".
 */
struct cbench_collector {
	int (*take)(struct cbench_collector *c, const struct cbench_msg *m, char *reason,
		    size_t len);
	bool (*late)(const struct cbench_collector *c, double time_limit_s, char *reason,
		     size_t len);
};

/*
 * Runs job in a fresh worker process with a limit of time_limit_s seconds of
 * wall time, its messages to c.  Returns 0 when the worker ran (how it
 * ended in *end, which may be a failure: a crash, a timeout, an early
 * exit), -errno if none could start.
 */
int cbench_phase_run(const struct cbench_worker_job *job, double time_limit_s,
		     struct cbench_collector *c, struct cbench_phase_end *end);

/*
 * The same in steps, for several workers at once (one a CPU): begin starts
 * the worker (0, or -errno if none could start); then, whenever poll()
 * says fd is readable or wait_ms has passed, step takes what came (true
 * once the worker is done, gone or out of time); finish ends it and says
 * how in *end.
 */
struct cbench_phase {
	struct cbench_phase_end *p;
	struct cbench_collector *c;
	int fd;
	pid_t pid;
	double limit_s, deadline_s;
	struct cbench_msg m;		/* a message as it comes in */
	size_t have;
	bool done;			/* the worker finished its job */
	bool eof;			/* it will send nothing more */
};

int cbench_phase_begin(struct cbench_phase *ph, const struct cbench_worker_job *job,
		       double time_limit_s, struct cbench_collector *c, struct cbench_phase_end *end);
int cbench_phase_wait_ms(const struct cbench_phase *ph);
bool cbench_phase_step(struct cbench_phase *ph, bool readable);
void cbench_phase_finish(struct cbench_phase *ph);

/* One wait on the phases ph[i] not over[i] (at most CBENCH_JOBS_MAX + 1):
 * for any pipe to be readable or the nearest time limit, then each stepped,
 * over[i] set for those now over. */
void cbench_phase_poll(struct cbench_phase *const *ph, size_t n, bool *over);

/* Steps n phases begun (at most CBENCH_JOBS_MAX + 1), until each is over,
 * and finishes them. */
void cbench_phase_wait_all(struct cbench_phase *ph, size_t n);

/*
 * Asks the current worker's keeper to end it and returns at once
 * (async-signal-safe): cbench_phase_run then returns as for a worker that
 * died, and the caller decides what to keep.
 */
void cbench_phase_stop(void);

/* Kills and reaps the running worker, if any, waiting at most ~100 ms.
 * Async-signal-safe: for the runner's SIGINT/SIGTERM handler. */
void cbench_phase_abort(void);

#endif /* _CBENCH_PHASE_H */
