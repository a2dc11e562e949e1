/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The statistics of an audit (Lau et al., section 2): is B faster than A,
 * looking again after every round of timings, without the false alarms
 * that testing after every round would add up to.
 *
 * Each round gives m timings per side, interleaved in a random order, so
 * whatever drifts (the core clock, the cache's content) drifts for both,
 * and measures each side on a placement of its own (arena.h), so that
 * where memory lies cannot stay with one side.  Its statistic is
 * d = log q(B) - log q(A), q the lower quartile of the round's timings:
 * delays only add, into the right tail, and a quartile is blind to up to a
 * quarter of a side's timings being delayed.  Rounds are then independent
 * draws of d, placement and noise together.
 *
 * What an audit estimates is the median of d, and we keep a confidence
 * sequence for it (Howard and Ramdas, "Sequential estimation of quantiles
 * with applications to A/B-testing and best-arm identification"): for the
 * median m, the count of rounds with d <= m after t rounds is a sum of t
 * Bernoulli draws of mean 1/2 at the least, each 1/4-sub-Gaussian, so with
 * the normal-mixture boundary (Howard et al., "Time-uniform, nonparametric,
 * nonasymptotic confidence sequences")
 *
 *	u(t) = sqrt((t/4 + rho) log((t/4 + rho) / (rho (alpha/2)^2)))
 *
 * it stays above t/2 - u(t) at every t at once with probability 1 - alpha/2
 * at the least, and the count of rounds with d < m, whose draws have mean
 * 1/2 at the most, stays under t/2 + u(t) alike: the sequence is the order
 * statistics [d_(ceil(t/2 - u)), d_(floor(t/2 + u) + 1)], valid at every
 * round (not asymptotically: conservative, each end's bound being a
 * two-sided one), whatever the rounds' distribution, ties included.
 * Stopping at the first round where it excludes 0 keeps the false-alarm
 * rate under alpha.  Why the median and not the mean: A and B are
 * measured alike, in a random order, so d should be as likely above the
 * change as below it, and then the two are the same number (where it is
 * not, each estimates its own; results.md, 2026-11-29, has audits whose
 * median read +0.016 % for +0.02 % in adds); but rounds come with heavy tails (a
 * round whose quartile a burst moved reads ten times the spread of the
 * others: on an Emerald Rapids VM the rounds' standard deviation was 0.11 %
 * and their median absolute deviation 0.03 %), and the mean's interval
 * pays for every tail while the median's does not.  The timer's step adds
 * a bound of its own to each round (cbench_seq_step_bound(),
 * cbench_seq_interval()).  Why not
 * alpha spending over a fixed number of looks: an audit does not know in
 * advance how many rounds its budget allows, and a confidence sequence
 * needs no such plan.
 */
#ifndef _CBENCH_SEQUENTIAL_H
#define _CBENCH_SEQUENTIAL_H

#include <stddef.h>

/* Rounds before the first look (at 99 % the sequence has no interval
 * before 15). */
#define CBENCH_SEQ_MIN_ROUNDS 8
/* The round count the boundary is tightest at (rho chosen for it). */
#define CBENCH_SEQ_TARGET_ROUNDS 30
/* The quantile of a round's timings that its statistic compares. */
#define CBENCH_SEQ_QUANTILE 0.25

struct cbench_seq {
	double alpha;		/* 1 - confidence */
	double rho;		/* the mixture's rho, in the counts' intrinsic time */
	size_t rounds;
	/* The rounds' statistics d, each in order (malloc): d, d - b and
	 * d + b, b a round's timer step bound (0 until it is counted), and
	 * the last round's d until its bound is (NAN after). */
	double *sorted[3];
	size_t cap;
	double last;
	double mean, m2;	/* Welford's running mean and sum of squares */
	/* Rounds whose two halves had a statistic each, and the sum of their
	 * (d1 - d2)^2 / 4 (cbench_seq_noise_var()). */
	size_t halves;
	double noise_sum;
	/* Rounds whose timer step bound was counted, and the sum of those
	 * bounds (cbench_seq_step_bound()). */
	size_t bounds;
	double bound_sum;
};

enum cbench_verdict {
	CBENCH_VERDICT_UNDECIDED,	/* keep going */
	CBENCH_VERDICT_B_FASTER,
	CBENCH_VERDICT_B_SLOWER,
	CBENCH_VERDICT_EQUIVALENT,	/* within +-min_effect, confidently */
};

void cbench_seq_init(struct cbench_seq *s, double confidence);
/* What init took; s can be initialised again after. */
void cbench_seq_free(struct cbench_seq *s);

/* The statistic of one round: log q(b) - log q(a); NAN if either side
 * has no timing or a non-positive one at the quantile. */
double cbench_seq_round_stat(const double *a, size_t na, const double *b, size_t nb);

/* Counts a round's statistic (NAN: not counted); 0 or -ENOMEM. */
int cbench_seq_add(struct cbench_seq *s, double d);

/*
 * How much of the round statistic's variance is more than the noise within
 * rounds (docs/placement.md).  Each side's timings of a round are split in
 * two halves, the first and the second in the order they were taken, and
 * d1 and d2 are the statistic of each (cbench_seq_round_halves()).  What
 * is fixed for the round, its placements, is in both; what varies within
 * it (jitter, the clock's drift, a neighbour's burst) differs between
 * them.  A quantile's variance falls as 1/n, so E[(d1 - d2)^2] =
 * 2 var(d of a half) = 4 var(d | the round's placements), and the mean of
 * (d1 - d2)^2 / 4 over rounds estimates the variance the noise within
 * rounds gives the statistic.  What the rounds' statistics vary by beyond
 * it is what stays put within a round and changes between rounds: where
 * each side's memory lies.
 */
void cbench_seq_round_halves(const double *a, size_t na, const double *b, size_t nb, double d[2]);
/* Counts a round's halves (either NAN: not counted). */
void cbench_seq_add_halves(struct cbench_seq *s, double d1, double d2);
/* The rounds' statistic's sample variance (about their mean, whatever the
 * interval is about); NAN before two rounds. */
double cbench_seq_round_var(const struct cbench_seq *s);
/* The variance the noise within rounds gives it; NAN without halves. */
double cbench_seq_noise_var(const struct cbench_seq *s);
/* The share of a variance beyond what noise predicts of it:
 * max(0, 1 - noise_var / var), in [0, 1]; NAN if either is unknown or var
 * is 0.  Of the round variance: the share placement (and what else
 * changes from round to round) explains. */
double cbench_seq_share_beyond(double var, double noise_var);

/*
 * What the timer's step can do to a round's statistic.  A timing is a
 * difference of two reads of a counter that advances in steps of s, so it
 * lies within one step of the duration it times (strictly, whatever the
 * phase of the reads), and so does any quantile of a side's timings of the
 * same quantile of their durations.  With rel_a and rel_b each side's step
 * over its quantile (s / q), the statistic log q(B) - log q(A) lies within
 *
 *	-log(1 - rel_a) - log(1 - rel_b)
 *
 * of the one the durations would give.  That is a bound, not a variance:
 * where the reads keep their phase (timings that sit on the same steps
 * round after round), the rounding is the same in every round and no
 * number of rounds averages it away, so it widens the interval by as much,
 * however many rounds there are (cbench_seq_interval()).  INFINITY where a
 * step is as long as the quantile (nothing resolved); NAN where either is
 * NAN or negative; 0 for steps of 0.
 */
double cbench_seq_step_bound(double rel_a, double rel_b);
/* Counts the bound of the round cbench_seq_add() counted last (NAN: not
 * counted; that round's statistic taken as exact). */
void cbench_seq_add_bound(struct cbench_seq *s, double bound);
/* The mean of the counted rounds' bounds, on the log scale; 0 without
 * any (timings taken as exact): what the report calls the step's part of
 * the interval. */
double cbench_seq_bound(const struct cbench_seq *s);

/*
 * The current estimate of B's change relative to A and its confidence
 * interval, as fractions (0.01 is B 1% slower), from the log-scale
 * sequence: the rounds' median, and the confidence sequence's order
 * statistics, the lower one of the rounds' d - b and the upper of their
 * d + b, b each round's own step bound: a round's statistic of the
 * durations lies within b of the timings', so the k-th least of them lies
 * between the k-th least of d - b and of d + b, and the interval is never
 * narrower than the timer can resolve.  NAN bounds until the sequence has
 * an order statistic on either side (15 rounds at 99 %, 12 at 95 %).
 */
void cbench_seq_interval(const struct cbench_seq *s, double *change, double *lo, double *hi);

/*
 * What the sequence says so far, with min_effect (a fraction, >= 0) the
 * smallest change that counts: faster or slower once the interval lies on
 * one side of 0 with the estimate beyond min_effect; equivalent once it
 * lies within +-min_effect; undecided before CBENCH_SEQ_MIN_ROUNDS.
 */
enum cbench_verdict cbench_seq_verdict(const struct cbench_seq *s, double min_effect);

/* Lau et al.'s converge score: timings / variance(timings). */
double cbench_seq_converge_score(const double *v, size_t n);

/*
 * One timing's term (in ticks) of Lau et al.'s perturb score against
 * MIN_TIMING, the least time between two back-to-back timer reads:
 * 100 / (timing - (min_timing - 0.1)).  The score, the mean of the terms,
 * is summed as timings come (tpoints.c); above 1, timings come close
 * enough to the timer's own cost to be perturbed by it.
 */
double cbench_seq_perturb_term(double ticks, double min_timing);

#endif /* _CBENCH_SEQUENTIAL_H */
