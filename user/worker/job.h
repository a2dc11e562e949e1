/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the runner asks a worker (the job) and what the worker sends back
 * (fixed-size messages up a pipe), and the sending: what the worker's modes
 * and the runner's phase share.  worker.h runs a job.
 */
#ifndef _CBENCH_WORKER_JOB_H
#define _CBENCH_WORKER_JOB_H

#include <stdbool.h>
#include <stdint.h>

#include "backend/backend.h"
#include "worker/results.h"

enum cbench_worker_mode {
	CBENCH_WORKER_CALIBRATE,	/* measure the timer, send ENV + TIMER */
	CBENCH_WORKER_TUNE,		/* Alg. 1, send ENV + TUNED */
	CBENCH_WORKER_TRIAL,		/* warm-up, measurements, send ENV +
					 * (LAYOUT_PLACED with place_code) + ENV +
					 * NEEDED + SAMPLES... (each measurement
					 * followed by the reference chain's where
					 * the timer has ref_reps) + DONE */
	CBENCH_WORKER_PROFILE,		/* sample the IP, send ENV + PROFILE +
					 * PROFILE_GROUP... + PROFILE_STACK... +
					 * DONE (worker/results.h) */
	CBENCH_WORKER_AUDIT,		/* exp against exp_b in random order, send
					 * ENV + AUDIT_TIMING... + AUDIT_DONE
					 * (audit_worker.c) */
	CBENCH_WORKER_LAYOUT,		/* exp as loaded, then at drawn code layouts,
					 * send ENV + (LAYOUT_PLACED + AUDIT_TIMING...)
					 * per layout + DONE (layout_worker.c) */
};

/* PROFILE: what the worker is asked to do (profile_worker.c). */
struct cbench_profile_job {
	uint64_t samples;		/* stop after this many (0 with width) */
	double width;			/* stop when the widest interval (share.h) is
					 * at most this, in [0, 1]; 0 with samples */
	double z;			/* of the confidence level */
	bool by_line;
	bool stacks;			/* unwind each sample (folded, JSON) */
	uint64_t period_ns;		/* mean sampling interval */
};

struct cbench_worker_job {
	enum cbench_worker_mode mode;
	const struct cbench_backend_ops *ops;
	int cpu;
	int watcher;				/* kmod: see struct cbench_lane */
	int quiet;				/* kmod: enum cbench_quiet; -1 the module's */
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
	const struct cbench_experiment *exp_b;	/* AUDIT: B (exp is A) */
	uint64_t n_b;				/* AUDIT: B's reps (n is A's) */
	uint64_t seed;				/* AUDIT: of the random order; TRIAL
						 * with place_code: of the layout */
	double confidence;			/* AUDIT: 1 - alpha */
	double min_effect;			/* AUDIT: fraction, e.g. 0.002 */
	int figure;				/* AUDIT: enum cbench_audit_figure the rounds
						 * compare, -1: est-cycles where the backend
						 * measures the reference beside them */
	double budget_ns;			/* AUDIT: rounds start until then */
	bool no_tpoints;			/* TRIAL, AUDIT: leave timing points off */
	bool fixed_placement;			/* AUDIT: no new placements (arena.h) */
	bool fixed_layout;			/* AUDIT: the code stays where it was loaded */
	uint32_t layouts;			/* LAYOUT: drawn layouts, after the one as loaded */
	/* TRIAL: lay the code out anew, drawn from seed, before the warm-up
	 * (run's sampled code layouts); layout_index names it in LAYOUT_PLACED. */
	bool place_code;
	uint32_t layout_index;
	/* TRIAL: trials of one nonzero share may run one after another in
	 * one worker (phase.h's standing workers, a round of run's); 0: the
	 * trial has a worker of its own. */
	uint64_t share;
	/* TRIAL, set by the phase: this worker takes further trials' jobs
	 * after this one (worker.h, cbench_worker_serve()). */
	bool serve;
};

enum cbench_msg_type {
	CBENCH_MSG_ENV = 1,
	CBENCH_MSG_TIMER,
	CBENCH_MSG_TUNED,
	CBENCH_MSG_SAMPLES,	/* TRIAL: measurements in order, u.samples */
	CBENCH_MSG_DONE,
	CBENCH_MSG_ERROR,
	CBENCH_MSG_NEEDED,	/* TRIAL: u.tuned.n valid measurements wanted */
	CBENCH_MSG_PROFILE,	/* PROFILE: how the sampling went */
	CBENCH_MSG_PROFILE_GROUP, /* PROFILE: one group's samples */
	CBENCH_MSG_AUDIT_TIMING,	/* AUDIT: one timing, u.timing */
	CBENCH_MSG_AUDIT_DONE,		/* AUDIT: the verdict, u.audit */
	CBENCH_MSG_FIGURES,		/* TRIAL: figures beside the samples, u.figures */
	CBENCH_MSG_TPOINTS,		/* TRIAL, AUDIT: u.tp, per side in an audit */
	CBENCH_MSG_AUDIT_TP_ROUND,	/* AUDIT with timing points: u.tp_round */
	CBENCH_MSG_AUDIT_NOTE,		/* AUDIT: u.text, why timing points went unused */
	CBENCH_MSG_PROFILE_STACK,	/* PROFILE with stacks: one stack's samples */
	CBENCH_MSG_LAYOUT_PLACED,	/* LAYOUT, TRIAL with place_code: u.placed,
					 * before the layout's timings */
};

#define CBENCH_MSG_SAMPLES_MAX 8

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
		char text[560];			/* MSG_ERROR: what failed; MSG_AUDIT_NOTE */
		struct cbench_profile_info profile;
		struct cbench_profile_group group;
		struct cbench_profile_stack stack;
		struct cbench_audit_timing timing;
		struct cbench_audit_end audit;
		struct cbench_trial_figures figures;
		struct cbench_tp_summary tp;
		struct cbench_tp_round tp_round;
		struct cbench_layout_placed placed;
		struct {
			/* What ends the worker after this trial: the
			 * CBENCH_LEFT_* bits of worker/leftover.h; 0 where
			 * it takes another (worker.h says when). */
			uint32_t left;
		} done;				/* MSG_DONE */
		/* MSG_SAMPLES: n measurements in the order taken, bit i of
		 * ref set where s[i] is the reference chain's (the one after
		 * each of the benchmark's, where the timer has ref_reps).
		 * Batched: a sample alone would be a message of 600 bytes
		 * for 64, and the runner's reads of them, on a CPU the
		 * workers leave it, a trial's tail. */
		struct {
			uint32_t n;
			uint32_t ref;
			struct cbench_sample s[CBENCH_MSG_SAMPLES_MAX];
		} samples;
	} u;
};

/* Writes one message whole.  Returns 0 or -EPIPE. */
int cbench_worker_send(int fd, const struct cbench_msg *m);

/* A backend of ops with timer, set up as job says (no_fifo, rt_limit_s,
 * ring 0's quiet mode and watcher), not yet opened. */
struct cbench_backend cbench_job_backend(const struct cbench_worker_job *job,
					 const struct cbench_backend_ops *ops,
					 const struct cbench_timer *timer);

/*
 * Messages sent in bursts (job.c says why): put() queues one and writes
 * the queue when it is full or OUTBOX_FLUSH_NS old; flush() writes what is
 * queued.  Both return 0 or -errno.
 */
#define CBENCH_OUTBOX_MSGS 64
struct cbench_outbox {
	struct cbench_msg msg[CBENCH_OUTBOX_MSGS];
	unsigned int n;
	double last_ns;
};
void cbench_outbox_init(struct cbench_outbox *o);
int cbench_outbox_put(struct cbench_outbox *o, int fd, const struct cbench_msg *m);
int cbench_outbox_flush(struct cbench_outbox *o, int fd);

#endif /* _CBENCH_WORKER_JOB_H */
