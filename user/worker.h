/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Worker processes (seed 002): each experiment phase runs in a fresh
 * process forked from the runner after the benchmark object is loaded.  The
 * worker measures and sends fixed-size messages up a pipe; the runner
 * measures nothing, enforces the time limit and survives the worker.
 */
#ifndef _CBENCH_WORKER_H
#define _CBENCH_WORKER_H

#include <stdbool.h>
#include <stdint.h>

#include "backend.h"
#include "profile.h"

enum cbench_worker_mode {
	CBENCH_WORKER_CALIBRATE,	/* measure the timer, send ENV + TIMER */
	CBENCH_WORKER_TUNE,		/* Alg. 1, send ENV + TUNED */
	CBENCH_WORKER_TRIAL,		/* warm-up, measurements, send ENV + SAMPLE...
					 * (each followed by a REF_SAMPLE where the
					 * timer has ref_reps) + DONE */
	CBENCH_WORKER_PROFILE,		/* sample the IP, send ENV + PROFILE +
					 * PROFILE_GROUP... + DONE (profile.h) */
};

struct cbench_worker_job {
	enum cbench_worker_mode mode;
	const struct cbench_backend_ops *ops;
	int cpu;
	bool no_fifo;				/* see struct cbench_backend */
	double rt_limit_s;			/* see struct cbench_backend */
	const struct cbench_experiment *exp;	/* NULL when calibrating */
	struct cbench_timer timer;		/* from the calibration worker */
	uint64_t n;				/* reps per measurement (trial) */
	double warmup_ns;			/* warm-up length before a trial */
	double trial_ns;			/* a trial measures for this long... */
	uint32_t max_measurements;		/* ...or until this many are valid, */
	uint32_t min_valid;			/* but not before this many are valid */
	double time_limit_ns;			/* the runner's limit for this phase */
	const struct cbench_profile_job *profile;	/* PROFILE */
};

enum cbench_msg_type {
	CBENCH_MSG_ENV = 1,
	CBENCH_MSG_TIMER,
	CBENCH_MSG_TUNED,
	CBENCH_MSG_SAMPLE,
	CBENCH_MSG_DONE,
	CBENCH_MSG_ERROR,
	CBENCH_MSG_NEEDED,	/* TRIAL: u.tuned.n valid measurements wanted */
	CBENCH_MSG_REF_SAMPLE,	/* TRIAL: a measurement of the reference chain */
	CBENCH_MSG_PROFILE,	/* PROFILE: how the sampling went */
	CBENCH_MSG_PROFILE_GROUP, /* PROFILE: one group's samples */
};

/* One message; always written whole (smaller than PIPE_BUF, so atomic). */
struct cbench_msg {
	uint32_t type;
	int32_t error;				/* MSG_ERROR: -errno */
	union {
		struct cbench_backend_env env;
		struct cbench_timer timer;
		struct {
			uint64_t n;
			double t_ns;
		} tuned;
		struct cbench_sample sample;
		char text[560];			/* MSG_ERROR: what failed */
		struct cbench_profile_info profile;
		struct cbench_profile_group group;
	} u;
};

/* Runs job in this process, writing messages to fd.  Returns an exit code. */
int cbench_worker_main(const struct cbench_worker_job *job, int fd);

/* Writes one message whole.  Returns 0 or -EPIPE. */
int cbench_worker_send(int fd, const struct cbench_msg *m);

/* The PROFILE mode (profile_worker.c), once the benchmark is prepared in b:
 * sends PROFILE and the groups, not DONE.  Returns 0 or -errno, with the
 * reason in b->error where -errno would not say it. */
int cbench_worker_profile(struct cbench_backend *b, const struct cbench_worker_job *job, int fd);

#endif /* _CBENCH_WORKER_H */
