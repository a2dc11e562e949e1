/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a run's trials say together (trials.c): the headline of a
 * benchmark, its interval, and which trials a busy moment of the machine
 * slowed.  Pure functions over arrays; small-sample rules in each contract.
 *
 * A trial is one worker, with arena pages of its own, measured at one
 * moment.  Two things make trials of one benchmark differ beyond the noise
 * within them: where the worker's memory lies (placement, which stays with
 * the worker and differs between workers) and what the machine was doing
 * at that moment (a disturbance, which hits whatever was measured then,
 * often several benchmarks, and does not follow the worker).  Trials of
 * different benchmarks run interleaved in time (round-robin), so a busy
 * moment shows across the benchmarks measured beside it.
 */
#ifndef _CBENCH_TRIALS_H
#define _CBENCH_TRIALS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The median of n values and a distribution-free interval for it at the
 * given confidence: the order statistics x(k) and x(n + 1 - k) with the
 * largest k whose binomial coverage 1 - 2 P(Bin(n, 1/2) < k) is at least
 * the confidence.  With too few values for any k (fewer than 6 at 0.95),
 * the interval is the range, and *coverage says what it covers (1 for a
 * single value, which has no spread to show).  NAN for n == 0.
 */
void cbench_trials_median_ci(const double *v, size_t n, double confidence, double *median,
			     double *lo, double *hi, double *coverage);

/*
 * The robust spread of n values: their interquartile range over 1.349, a
 * normal's standard deviation.  A lone outlier does not move it; a quarter
 * of the values elsewhere (a placement that one worker in three gets)
 * does.  0 for n < 2.
 */
double cbench_trials_robust_sd(const double *v, size_t n);

/*
 * The variance within groups of n values (group[i] is v[i]'s), pooled:
 * the sum of squares about each group's mean over the degrees of freedom
 * (a group of m values has m - 1).  Trials that share a code layout and
 * differ in everything else (run.c) tell, so, what the layout does not
 * explain.  *groups gets the number of distinct groups.  NAN with fewer
 * than two degrees of freedom (one pair says too little), or for want of
 * memory.
 */
double cbench_trials_within_groups(const double *v, const uint32_t *group, size_t n, size_t *groups);

/* Why a trial is taken for disturbed (enum cbench_trial_obs's cause). */
enum cbench_trial_cause {
	CBENCH_TRIAL_KEPT,		/* not slow beyond its benchmark's noise */
	CBENCH_TRIAL_SLOW,		/* slow, and nothing seen that says why */
	CBENCH_TRIAL_MOMENT,		/* others measured beside it were slow too */
	CBENCH_TRIAL_CLOCK,		/* its reference chain was as slow, or as fast */
	CBENCH_TRIAL_PART,		/* slow for part of it: its halves disagree */
	CBENCH_TRIAL_SHARED,		/* its core ran fewer adds a cycle: another
					 * thread shared it */
};

/* One ok trial of a run, as the classifier sees it. */
struct cbench_trial_obs {
	size_t bench;			/* which benchmark's, 0 .. nbench - 1 */
	double log_ns;			/* log of its estimate, ns/op */
	double core_ghz;		/* its reference chain's core clock; NAN: none */
	double half_diff;		/* |log h0 - log h1| of its halves; NAN: none */
	double start_s, end_s;		/* when it ran, seconds on one clock */
	double floor;			/* the least noise its estimate has, on the log
					 * scale (the timer's step over a measurement) */
	double width;			/* its core's adds a cycle (worker.c's wide
					 * reference); NAN: not measured */
	int cpu;			/* the CPU it ran on: widths compare on one */
	/* Out: */
	enum cbench_trial_cause cause;
	double excess;			/* log_ns over its benchmark's median */
	size_t beside;			/* slow trials of other benchmarks beside it */
};

/*
 * The least slowdown, on the log scale, a trial must show to be taken for
 * disturbed at all: below it, a slow trial moves nothing a report prints.
 */
#define CBENCH_TRIAL_SLOW_MIN 0.005
/* And how many of its benchmark's robust standard deviations. */
#define CBENCH_TRIAL_SLOW_SD 4.0

/* The widest core a CPU was seen to have (adds a cycle), by runs before. */
struct cbench_core_width {
	int cpu;
	double width;
};

/*
 * How much narrower than the widest trial's on its CPU a trial's core must
 * have run (fewer adds a cycle, relative) to have been shared.  Trials of
 * an unshared core agree to a percent; a thread on the other hyperthread
 * takes a third to a half of the ALUs.
 */
#define CBENCH_TRIAL_SHARED_MIN 0.10

/*
 * Classifies the n trials of a run over nbench benchmarks.  A trial whose
 * core ran CBENCH_TRIAL_SHARED_MIN fewer adds a cycle than the widest
 * trial's on the same CPU, or than the nknown widths known of that CPU, is
 * disturbed, fast or slow: another thread SHARED its core.  A
 * throughput-bound benchmark runs up to twice as slow then, a latency-bound
 * one a few tenths of a percent, and either is the other thread's doing;
 * such trials count towards no benchmark's median or noise below.  Of the
 * others, a trial slower
 * than its benchmark's median by CBENCH_TRIAL_SLOW_MIN and
 * CBENCH_TRIAL_SLOW_SD robust standard deviations (those of the trials'
 * spread, their halves' noise and the floor, whichever is largest) is
 * disturbed by a MOMENT if a trial of another benchmark that ran beside it
 * (within one trial's length before or after) is slow too by half as much;
 * else by the CLOCK if its core clock was lower than the run's median by a
 * third of its slowdown; else by PART of it if its halves differ by a third
 * of its slowdown; else it is SLOW with no cause seen.  A trial as fast
 * beyond the noise whose core clock was higher by a third of its speed-up
 * is disturbed by the CLOCK (a boost); other fast trials are kept: a fast
 * trial is a lucky placement's, and delays only add.  Returns the trials
 * disturbed (SHARED, MOMENT, CLOCK or PART).
 */
size_t cbench_trials_classify(struct cbench_trial_obs *obs, size_t n, size_t nbench,
			      const struct cbench_core_width *known, size_t nknown);

/*
 * Marks SHARED, as cbench_trials_classify() does and nothing else, the n
 * trials whose core ran CBENCH_TRIAL_SHARED_MIN fewer adds a cycle than the
 * widest trial's on their CPU; how many (0 for want of memory).
 */
size_t cbench_trials_mark_shared(struct cbench_trial_obs *obs, size_t n,
				 const struct cbench_core_width *known, size_t nknown);

/* Whether a cause is a disturbance (SHARED, MOMENT, CLOCK, PART). */
bool cbench_trial_disturbed(enum cbench_trial_cause cause);

/* A cause's name in reports: "kept", "slow", "moment", "clock", "part",
 * "shared". */
const char *cbench_trial_cause_name(int cause);

#endif /* _CBENCH_TRIALS_H */
