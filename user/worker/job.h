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
#include "worker/profile.h"
#include "worker/tpoints.h"

enum cbench_worker_mode {
	CBENCH_WORKER_CALIBRATE,	/* measure the timer, send ENV + TIMER */
	CBENCH_WORKER_TUNE,		/* Alg. 1, send ENV + TUNED */
	CBENCH_WORKER_TRIAL,		/* warm-up, measurements, send ENV + SAMPLE...
					 * (each followed by a REF_SAMPLE where the
					 * timer has ref_reps) + DONE */
	CBENCH_WORKER_PROFILE,		/* sample the IP, send ENV + PROFILE +
					 * PROFILE_GROUP... + PROFILE_STACK... +
					 * DONE (profile.h) */
	CBENCH_WORKER_AUDIT,		/* exp against exp_b in random order, send
					 * ENV + AUDIT_TIMING... + AUDIT_DONE
					 * (audit_worker.c) */
	CBENCH_WORKER_LAYOUT,		/* exp as loaded, then at drawn code layouts,
					 * send ENV + (LAYOUT_PLACED + AUDIT_TIMING...)
					 * per layout + DONE (layout_worker.c) */
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
	const struct cbench_experiment *exp_b;	/* AUDIT: B (exp is A) */
	uint64_t n_b;				/* AUDIT: B's reps (n is A's) */
	uint64_t seed;				/* AUDIT: of the random order */
	double confidence;			/* AUDIT: 1 - alpha */
	double min_effect;			/* AUDIT: fraction, e.g. 0.002 */
	double budget_ns;			/* AUDIT: rounds start until then */
	bool no_tpoints;			/* TRIAL, AUDIT: leave timing points off */
	bool fixed_placement;			/* AUDIT: no new placements (arena.h) */
	bool fixed_layout;			/* AUDIT: the code stays where it was loaded */
	uint32_t layouts;			/* LAYOUT: drawn layouts, after the one as loaded */
};

/* AUDIT: one timing of one side, ns per declared op. */
struct cbench_audit_timing {
	uint32_t round;			/* from 0 */
	uint32_t side;			/* 0 for A, 1 for B */
	double ns_per_op;
};

/* LAYOUT: a layout placed: its index (0: as loaded), and where the
 * benchmark's run function lies in its region (page aligned). */
struct cbench_layout_placed {
	uint32_t index;
	uint64_t run_offset;
};

/* AUDIT: how it ended; change and bounds as fractions (0.01: B 1% slower). */
struct cbench_audit_end {
	uint32_t rounds;		/* rounds that counted */
	int32_t verdict;		/* enum cbench_verdict; UNDECIDED: budget spent */
	double change, lower, upper;	/* NAN before two rounds */
	double wall_s;			/* from the first placement to the verdict */
	/* The placements each side's rounds were measured on (A, B); 0 where
	 * they stayed fixed (--fixed-placement, or the backend cannot). */
	uint32_t placements[2];
	/* Of those, the placements with the code laid out anew, each side's
	 * (object/codeplace.h); 0 where its code stayed where it was loaded. */
	uint32_t layouts[2];
	/* Measurements (or, with timing points, calls) per side per round. */
	uint32_t per_round;
	/* The round statistic's variance, and what the noise within rounds
	 * predicts of it (sequential.h); NAN where unknown. */
	double round_var, noise_var;
	/* The most the timer's step can move the statistic, on the log scale
	 * (cbench_seq_bound()): part of the interval's half-width. */
	double step_bound;
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
	CBENCH_MSG_AUDIT_TIMING,	/* AUDIT: one timing, u.timing */
	CBENCH_MSG_AUDIT_DONE,		/* AUDIT: the verdict, u.audit */
	CBENCH_MSG_FIGURES,		/* TRIAL: figures beside the samples, u.figures */
	CBENCH_MSG_TPOINTS,		/* TRIAL, AUDIT: u.tp, per side in an audit */
	CBENCH_MSG_AUDIT_TP_ROUND,	/* AUDIT with timing points: u.tp_round */
	CBENCH_MSG_AUDIT_NOTE,		/* AUDIT: u.text, why timing points went unused */
	CBENCH_MSG_PROFILE_STACK,	/* PROFILE with stacks: one stack's samples */
	CBENCH_MSG_LAYOUT_PLACED,	/* LAYOUT: u.placed, before the layout's timings */
};

/* One message; always written whole (smaller than PIPE_BUF, so atomic). */
/*
 * What a TRIAL worker measures beside its samples, sent whole in one
 * FIGURES message and carried whole by the phase and the run into the
 * trial: a new per-trial figure is a field here, set by the worker's
 * trial mode (worker.c) and printed by the writers (report_go.c,
 * report_json.c), and nothing between them changes.
 */
struct cbench_trial_figures {
	/* Allocations per op, counted apart from the timed measurements, for
	 * a benchmark that may allocate (CBENCH_F_USER_ONLY); a measured 0
	 * is 0. */
	bool have_allocs;
	double allocs_per_op, bytes_per_op;
};

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
	} u;
};

/* Writes one message whole.  Returns 0 or -EPIPE. */
int cbench_worker_send(int fd, const struct cbench_msg *m);

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
