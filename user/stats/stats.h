/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Statistics: pure functions over arrays of doubles, none of which modifies
 * its input.  Small-sample rules are part of each contract:
 *
 *   n == 0  every function returns NAN (there is no estimate)
 *   n == 1  min = max = mean = median = quantile = the value;
 *           stddev = 0 and cv = 0 (no spread is observable)
 *   n >= 2  stddev is the sample standard deviation (Bessel, n - 1)
 *
 * cv is stddev / mean; NAN where the mean is 0.
 */
#ifndef _CBENCH_STATS_H
#define _CBENCH_STATS_H

#include <stddef.h>
#include <stdint.h>

double cbench_stats_min(const double *v, size_t n);
double cbench_stats_max(const double *v, size_t n);
double cbench_stats_mean(const double *v, size_t n);
double cbench_stats_stddev(const double *v, size_t n);
double cbench_stats_cv(const double *v, size_t n);
/* Linear interpolation between order statistics (R type 7); q in [0, 1]. */
double cbench_stats_quantile(const double *v, size_t n, double q);
double cbench_stats_median(const double *v, size_t n);

/* qsort()'s order of doubles, ascending. */
int cbench_stats_compare(const void *a, const void *b);

/*
 * Student's t distribution with df > 0 degrees of freedom (df need not be
 * whole): P(T <= t), and the t with P(T <= t) = p for p in (0, 1).  NAN
 * outside those ranges.  Accurate to about 1e-12 in the cdf (the
 * regularized incomplete beta function by its continued fraction).
 */
double cbench_stats_t_cdf(double t, double df);
double cbench_stats_t_quantile(double p, double df);

/*
 * Welch's two-sample t test, for few values per side (2 and up) with
 * unequal variances: diff = mean(b) - mean(a), its standard error, the
 * Welch-Satterthwaite degrees of freedom, the two-sided p-value and the
 * confidence interval of diff at the given confidence.
 *
 * min_var is the least variance either side is taken to have: values
 * printed to a few digits can be equal on a side by rounding alone, and a
 * variance of 0 would make every difference "significant".  Pass the
 * rounding's own variance (ulp^2 / 12); 0 for none.  Every field is NAN
 * when a side has fewer than 2 values; p is 1 and the interval [0, 0] when
 * both sides are constant and equal (and min_var is 0).
 */
struct cbench_welch {
	double diff, se, df, p, lo, hi;
};

void cbench_stats_welch(const double *a, size_t na, const double *b, size_t nb, double min_var,
			double confidence, struct cbench_welch *w);

/*
 * The location of the fastest measurements on a timer of coarse step: the
 * mean of the values within 1.5 steps of the minimum, i.e. of the lowest
 * level and the one above it.  A duration T between two reads of a timer
 * that advances in steps of s, at a random phase, reads floor(T/s) or
 * floor(T/s) + 1 steps, the second with probability frac(T/s): their mean
 * is T, while their minimum is up to one step short of it (it picks the
 * lucky roundings).  Delays only add, so the levels above are left out as
 * the minimum leaves them out.  step <= 0 or NAN gives the minimum.  NAN
 * for n == 0.
 */
double cbench_stats_floor_mean(const double *v, size_t n, double step);

/*
 * The step of a counter from differences of its readings taken at spread-out
 * moments: the largest step that at least CBENCH_STEP_SHARE of the positive
 * differences are multiples of.  A stray value (a read that crossed an
 * update of a coarse counter half-way, say) does not make the step 1, as
 * the least positive difference would.  The differences must cover many
 * steps (differences of a fixed-length region are all equal and say
 * nothing about the step).  Returns 0 when no difference is positive.
 */
#define CBENCH_STEP_SHARE 0.9
uint64_t cbench_stats_step(const uint64_t *d, size_t n);

#endif /* _CBENCH_STATS_H */
