/* SPDX-License-Identifier: GPL-2.0 */
/* The runner side of a phase: fork a worker, collect, survive. */
#ifndef _CBENCH_PHASE_H
#define _CBENCH_PHASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
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
 * Where the time of trial phases went, summed over every trial phase the
 * process ran (cbench_phase_costs()): the parent's fork, the worker's
 * start (loading the object, its CPU, locking its memory: to its first
 * ENV), the benchmark's setup and arena (to its second ENV), placing its
 * code and warming up (to NEEDED), measuring (to DONE), the worker's end
 * (exit, reaping its process group), and the parent's time between one
 * trial's end and the next one's start while no other worker ran (its
 * bookkeeping).  Only trials that finished their job count.
 */
enum cbench_phase_stage {
	CBENCH_PHASE_FORK, CBENCH_PHASE_START, CBENCH_PHASE_SETUP, CBENCH_PHASE_WARM,
	CBENCH_PHASE_MEASURE, CBENCH_PHASE_END, CBENCH_PHASE_STAGES,
};

struct cbench_phase_costs {
	size_t trials;
	double s[CBENCH_PHASE_STAGES];	/* seconds, summed */
	size_t n[CBENCH_PHASE_STAGES];	/* phases that reached each */
	double between_s;		/* the parent's, alone */
	size_t between_n;
};

extern const char *const cbench_phase_stage_names[CBENCH_PHASE_STAGES];

/* The costs summed since the last reset (or the process began), of the
 * trial phases that finished their job. */
void cbench_phase_costs(struct cbench_phase_costs *out);
void cbench_phase_costs_reset(void);

/*
 * A standing worker: one kept between trials of one share (job.h), on one
 * CPU, that takes each next trial's job over a pipe (worker.h,
 * cbench_worker_serve()) instead of a worker started and ended for each.
 * pid 0: none.  Zeroed by its owner; ended by cbench_standing_end().
 */
struct cbench_standing {
	pid_t pid;			/* its keeper's, as phases know it */
	int fd, cmd;			/* its messages; our requests to it */
	uint64_t share;
	int cpu;
	const char *last;		/* its last trial's benchmark, for a message */
	unsigned int served;		/* trials begun in it */
};

/* Ends w's worker, if any: its input closed, it exits and is reaped. */
void cbench_standing_end(struct cbench_standing *w);

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
	/* A trial's moments (cbench_now_s()): begun, forked, each stage's end. */
	bool trial;
	double t_begin, t[CBENCH_PHASE_STAGES];
	unsigned int envs;
	struct cbench_msg m;		/* a message as it comes in */
	size_t have;
	bool done;			/* the worker finished its job */
	bool eof;			/* it will send nothing more */
	/* The standing worker it runs in, or NULL; and what its DONE said
	 * ends it (worker/leftover.h's CBENCH_LEFT_*; 0: it takes another). */
	struct cbench_standing *standing;
	unsigned int left;
	/* Where the standing worker had measured others before: how many
	 * trials, the last of them of which benchmark. */
	unsigned int after_trials;
	const char *after;
};

int cbench_phase_begin(struct cbench_phase *ph, const struct cbench_worker_job *job,
		       double time_limit_s, struct cbench_collector *c, struct cbench_phase_end *end);
/*
 * Begins a TRIAL job in w's worker where it stands for the job's share and
 * CPU, else in a new one (ending w's), which w then holds where the job has
 * a share; a job of share 0 gets a worker of its own, as with begin.  The
 * phase's finish keeps w's worker where it finished the trial and said it
 * would take another.
 */
int cbench_phase_begin_standing(struct cbench_phase *ph, const struct cbench_worker_job *job,
				double time_limit_s, struct cbench_collector *c,
				struct cbench_phase_end *end, struct cbench_standing *w);
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
