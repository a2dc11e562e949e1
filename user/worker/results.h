/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What each worker mode measures and sends back: the types the runner's
 * results are made of (report/ reads them), apart from the pipe format
 * that carries them (job.h) and from how the worker takes them.
 *
 *	CALIBRATE	struct cbench_timer, struct cbench_backend_env (types.h)
 *	TUNE		struct cbench_tuned
 *	TRIAL		struct cbench_sample (types.h), the reference chain's
 *			too; struct cbench_trial_figures; struct cbench_tp_summary
 *	AUDIT		struct cbench_audit_timing, struct cbench_audit_end;
 *			with timing points struct cbench_tp_summary per side and
 *			struct cbench_tp_round
 *	LAYOUT		struct cbench_layout_placed, then the layout's
 *			struct cbench_audit_timing (side 0)
 *	PROFILE		struct cbench_profile_info, struct cbench_profile_group,
 *			struct cbench_profile_stack
 */
#ifndef _CBENCH_WORKER_RESULTS_H
#define _CBENCH_WORKER_RESULTS_H

#include <stdbool.h>
#include <stdint.h>

#include "backend/types.h"

/* TUNE: Alg. 1's reps per measurement, and the time per rep it saw. */
struct cbench_tuned {
	uint64_t n;
	double t_ns;
};

/*
 * What a TRIAL worker measures beside its samples, sent whole in one
 * FIGURES message and carried whole by the phase and the run into the
 * trial: a new per-trial figure is a field here, set by the worker's
 * trial mode (worker.c) and named in report/figures.c, which every
 * writer loops over; nothing between them changes.
 */
struct cbench_trial_figures {
	/* Allocations per op, counted apart from the timed measurements, for
	 * a benchmark that may allocate (CBENCH_F_USER_ONLY); a measured 0
	 * is 0. */
	bool have_allocs;
	double allocs_per_op, bytes_per_op;
	/* How many adds a cycle the core ran beside the trial's references:
	 * the median of the wide reference's probes (worker.c).  Lower than
	 * the run's widest where another thread shared the core. */
	bool have_width;
	double core_width;
};

/* What an audit's rounds compare: ns/op, or est-cycles/op. */
enum cbench_audit_figure {
	CBENCH_AUDIT_NS,
	CBENCH_AUDIT_EST_CYCLES,
};

/*
 * AUDIT: one timing of one side, ns per declared op, and where the audit
 * measures in est-cycles (struct cbench_audit_end.figure), the same timing
 * at the clock level it ran at: NAN where the clock moved beside it
 * (stats/levels.h), and NAN in an audit of ns/op.
 */
struct cbench_audit_timing {
	uint32_t round;			/* from 0 */
	uint32_t side;			/* 0 for A, 1 for B */
	double ns_per_op;
	double est_cycles_per_op;
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
	/*
	 * The figure the rounds compared (enum cbench_audit_figure): est-cycles,
	 * each timing at the clock level the reference chain measured beside
	 * it (one reference after every ref_every timings), or ns; and the
	 * timings left out because the clock moved beside them.
	 */
	int32_t figure;
	uint32_t ref_every;
	uint64_t left_out;
};

/*
 * TRIAL and AUDIT: what a benchmark's loop timing points gave
 * (tpoints_worker.c), per-iteration times in ns.
 */
#define CBENCH_TP_QUANTILES 5
extern const double cbench_tp_quantile_levels[CBENCH_TP_QUANTILES];	/* 0.01 .. 0.99 */
struct cbench_tp_summary {
	uint32_t side;			/* AUDIT: 0 for A, 1 for B */
	uint32_t calls;			/* measurements whose records were used */
	uint64_t every;			/* the stride k: every k-th point recorded;
					 * 0: the benchmark has timing points, but
					 * too few or too close together to time */
	double min_timing_ticks;	/* MIN_TIMING, the point's own cost */
	double perturb;			/* Lau et al.'s perturb score of the timings */
	uint64_t merged;		/* recorded timings */
	uint64_t iterations;		/* per-iteration timings they split into */
	uint64_t skipped;		/* pairs whose count did not grow */
	uint64_t dropped;		/* records a full buffer dropped */
	double q_ns[CBENCH_TP_QUANTILES];	/* at cbench_tp_quantile_levels */
	double mean_ns;
	double stddev_ns;
};

/* MIN_TIMING in ns, on a timer of tsc_hz ticks a second. */
static inline double cbench_tp_min_timing_ns(const struct cbench_tp_summary *s, double tsc_hz)
{
	return s->min_timing_ticks * 1e9 / tsc_hz;
}

/* AUDIT with timing points: one side's round, its per-iteration timings
 * summed up (the worker keeps them; there are too many to send). */
struct cbench_tp_round {
	uint32_t round;
	uint32_t side;
	double q_ns;			/* at CBENCH_SEQ_QUANTILE: the statistic */
	uint64_t iterations;
	double mean_ns, m2;		/* for the converge score */
};

/* Where a group of samples is. */
enum cbench_profile_where {
	CBENCH_PROFILE_FUNCTION,	/* a function of the object (or its PLT) */
	CBENCH_PROFILE_NO_SYMBOL,	/* in the object, in no sized symbol */
	CBENCH_PROFILE_OUTSIDE,		/* the harness, the vdso, or a library's code
					 * in no symbol */
	CBENCH_PROFILE_KERNEL,		/* the kernel, on the worker's behalf */
	CBENCH_PROFILE_LIBRARY,		/* a function of another object: libc, the
					 * user's own libraries */
};

/* The worker's account of one benchmark's sampling (CBENCH_MSG_PROFILE). */
struct cbench_profile_info {
	char event[24];			/* "cycles", "cpu-clock" */
	char period_unit[8];		/* "cycles", "ns" */
	uint64_t period;		/* mean period in period_unit */
	uint64_t period_ns;		/* mean sampling interval, in ns */
	bool kernel_excluded;		/* perf_event_paranoid kept the kernel out */
	int paranoid;			/* perf_event_paranoid, -9 if unknown */
	int hw_error;			/* why not cycles: -errno, 0 if cycles */
	uint64_t samples;		/* every sample, in any group */
	uint64_t lost;			/* records the ring buffer lost */
	uint64_t throttled;		/* times the kernel throttled sampling */
	uint64_t calls;			/* calls of the benchmark while sampling */
	uint64_t reps_per_call;
	double call_ns;			/* mean wall time of one call, sampled */
	double unsampled_call_ns;	/* the least of a few calls not sampled */
	double sampling_ns;		/* wall time from enable to disable */
	bool time_limited;		/* stopped by the time limit, not the target */
};

/* One group's count (CBENCH_MSG_PROFILE_GROUP); strings cut to fit. */
struct cbench_profile_group {
	uint64_t count;
	uint32_t where;			/* enum cbench_profile_where */
	uint32_t line;			/* --by line: 0 where unknown */
	char name[200];			/* function, "[kernel]", the other object */
	char file[300];			/* --by line: source file, "" where unknown */
	char object[64];		/* LIBRARY: the object's file name */
};

/* One call stack's count (CBENCH_MSG_PROFILE_STACK): folded frames, the
 * outermost first, separated by ';' (a library's function "lib`name");
 * cut at the outer end (a first frame "...") to fit. */
#define CBENCH_PROFILE_STACK_CHARS 544
#define CBENCH_PROFILE_STACKS_MAX 4096
struct cbench_profile_stack {
	uint64_t count;
	char frames[CBENCH_PROFILE_STACK_CHARS];
};

#endif /* _CBENCH_WORKER_RESULTS_H */
