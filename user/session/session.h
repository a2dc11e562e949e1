/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A measuring session: what run, audit and profile share, in one object.
 *
 *	open		the objects, the backend, the selection and the CPU:
 *			everything bad input fails on, before anything waits
 *			or measures
 *	output		each file the command writes, opened now (an
 *			unwritable path costs nothing), put in place by the
 *			command when whole
 *	start		claims the CPU from other cbenchctl runs, probes the
 *			machine and the CPU's settings, calibrates the timer
 *	job		a worker's job, from all of the above
 *	tune		reps per measurement (Alg. 1 in fresh workers)
 *	progress	one line on a terminal: which, what, how long left
 *	close		ends it: unwritten outputs removed, the CPU released,
 *			the objects closed
 *
 * The workers themselves run through each mode's collector (collect.h).
 * A signal ends the worker; in a session that may stop (run), the first
 * stops it and cbench_session_stopped() says so, the command keeping what
 * finished; otherwise, and at the second, cbenchctl ends, its temporary
 * files removed.  Errors are said on stderr.
 */
#ifndef _CBENCH_SESSION_H
#define _CBENCH_SESSION_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backend/backend.h"
#include "machine/cpuenv.h"
#include "machine/cpus.h"
#include "machine/probe.h"
#include "object/loader.h"
#include "report/outfile.h"
#include "worker/job.h"

/* Files a session writes at most: a report per format and the raw
 * measurements. */
#define CBENCH_SESSION_OUTPUTS 8

struct cbench_session_config {
	const char *cmd;		/* "run": whose messages */
	const char *doing;		/* "measuring": "<doing> in user mode: ..." */
	const char *objects[2];		/* one, or two for an audit of two */
	size_t nobjects;
	/* Choose the benchmarks of objects[0] that filter (NULL: all)
	 * matches, in the object's order (run, profile). */
	bool select;
	const char *filter;
	enum cbench_backend_kind backend;
	bool user_only;			/* the command measures in user mode only */
	int quiet;			/* --quiet-mode: enum cbench_quiet; -1 the module's */
	int cpu;			/* wanted, or -1: the last we may use */
	/* CPUs measured on at once (run --jobs; 0 or 1: one), or those of
	 * a CPU list (--cpus); see machine/cpus.h. */
	size_t jobs;
	const char *cpus;
	double load_limit_s;		/* for loading an object */
	bool no_timer;			/* start calibrates no timer (profile) */
	bool stoppable;			/* the first signal stops the session */
};

/* A CPU the session measures on: its lock, its settings, its timer. */
struct cbench_lane {
	int cpu;
	int lock;			/* the CPU's lock, or -1 */
	int watcher;			/* ring 0 on several CPUs: the CPU whose
					 * timer watches its calls; else -1 */
	struct cbench_cpuenv cpuenv;
	struct cbench_timer timer;
	struct cbench_backend_env env;	/* its calibration worker's */
};

struct cbench_session {
	struct cbench_session_config cfg;
	const struct cbench_backend_ops *ops;
	struct cbench_library lib[2];
	size_t nlib;
	const struct cbench_experiment **chosen;	/* select: malloc'd */
	size_t nchosen;
	bool shared_cpu;		/* the runner could not leave the worker's CPU */
	/* The CPUs this process may use when the session opened: the runner
	 * keeps off the workers' while it lasts, and close gives them back,
	 * so a next session in the same process (run --backend both,
	 * selftest, history --confirm) chooses from all of them again. */
	cpu_set_t affinity;
	bool affinity_saved;
	bool tty;			/* stderr is a terminal: progress is drawn */
	struct cbench_machine machine;
	/* The CPUs measured on at once, each with its lock, its settings
	 * (cpuenv), its timer and its calibration worker's env; lane[0] is
	 * the session's CPU, for what measures on one. */
	struct cbench_lane lane[CBENCH_JOBS_MAX];
	size_t nlanes;
	struct cbench_outfile out[CBENCH_SESSION_OUTPUTS];
	size_t nout;
	/* Units of work planned and done, and when the first began: the
	 * progress line's time left. */
	size_t planned, done;
	double since_s;
	int sw_held[CBENCH_SW_HELD];	/* machine/probe.h: cbench_sw_events_hold() */
	bool sw_holding;		/* sw_held opened (a session never opened holds none) */
};

/* Loads, selects, picks the backend and the CPU.  0, or -1 after saying
 * why (then close it all the same). */
int cbench_session_open(struct cbench_session *s, const struct cbench_session_config *cfg);

/* Opens path (NULL or "-": standard output) for the command to write and
 * commit (outfile.h).  NULL after saying why. */
struct cbench_outfile *cbench_session_output(struct cbench_session *s, const char *path);

/* Claims the CPU, probes the machine, calibrates (unless no_timer).  0, or
 * -1 after saying why.  Last before measuring, so that bad input never
 * waits for a CPU. */
int cbench_session_start(struct cbench_session *s);

/* A job of mode for e (NULL when calibrating), the worker out of time
 * after limit_s; the mode's own fields are the caller's. */
struct cbench_worker_job cbench_session_job(const struct cbench_session *s,
					    enum cbench_worker_mode mode,
					    const struct cbench_experiment *e, double limit_s);

/* The same, for the session's CPU lane (0 .. nlanes - 1). */
struct cbench_worker_job cbench_session_job_on(const struct cbench_session *s, size_t lane,
					       enum cbench_worker_mode mode,
					       const struct cbench_experiment *e, double limit_s);

/*
 * Runs trials on the session's lanes at once (each CPU one worker at a
 * time), units 0 .. n - 1 in order, on at most lanes of them: begin()
 * gives unit's job (from cbench_session_job_on()) and its trial, or NULL
 * to skip it; end() is called as each finishes, in the order they finish.
 * A lane's trials one after another whose jobs have the same nonzero share
 * (job.h) run in one worker, which stands between them (phase.h).
 * A stopped session ends the trials in progress, which end() does not
 * see.  Returns the first unit not finished (n when all were); units past
 * it may have finished too.
 */
struct cbench_lane_work {
	struct cbench_trial *(*begin)(void *arg, size_t unit, size_t lane,
				      struct cbench_worker_job *job);
	void (*end)(void *arg, size_t unit, size_t lane);
	void *arg;
	double limit_s;
};
size_t cbench_session_trials(struct cbench_session *s, size_t n, size_t lanes,
			     const struct cbench_lane_work *w);

/*
 * Tunes e's reps per measurement (Alg. 1 in several TUNE workers, then the
 * oracle) into *n, each worker within limit_s.  0, or -errno with a
 * sentence in failure.
 */
int cbench_session_tune(const struct cbench_session *s, const struct cbench_experiment *e,
			double limit_s, uint64_t *n, char *failure, size_t failure_len);

/* The signal that stopped a stoppable session, or 0. */
int cbench_session_stopped(void);

/* Units of work to come (trials, audits), for the time left. */
void cbench_session_plan(struct cbench_session *s, size_t units);
/* One of them done. */
void cbench_session_done(struct cbench_session *s);
/*
 * On a terminal, "[index+1/total] name what" over the last such line, with
 * the time left once a planned unit is done; what NULL clears the line.
 */
void cbench_session_progress(const struct cbench_session *s, size_t index, size_t total,
			     const char *name, const char *what);

/* Releases what open, output and start took; the outputs not committed
 * are removed. */
void cbench_session_close(struct cbench_session *s);


#endif /* _CBENCH_SESSION_H */
