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

double cbench_stats_min(const double *v, size_t n);
double cbench_stats_max(const double *v, size_t n);
double cbench_stats_mean(const double *v, size_t n);
double cbench_stats_stddev(const double *v, size_t n);
double cbench_stats_cv(const double *v, size_t n);
/* Linear interpolation between order statistics (R type 7); q in [0, 1]. */
double cbench_stats_quantile(const double *v, size_t n, double q);
double cbench_stats_median(const double *v, size_t n);

/*
 * Two-sided p-value of the Mann-Whitney U test that a and b come from the
 * same distribution (normal approximation with tie and continuity
 * corrections, as R's wilcox.test(exact = FALSE)).  NAN when either sample
 * has fewer than 2 values or every value is tied; use with >= 4 each.
 */
double cbench_stats_mann_whitney_p(const double *a, size_t na, const double *b, size_t nb);

#endif /* _CBENCH_STATS_H */
