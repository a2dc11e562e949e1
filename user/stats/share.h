/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sampled shares (Wen et al.): a profile of n samples, k of which landed in a
 * function, estimates that function's share of the time by k/n.  Wen et al.
 * (sections 3.4, 3.5) shows the estimate is unbiased whatever the ratio R of
 * running granularity to sampling interval, with a binomial variance, so we
 * give each share a binomial confidence interval: Wilson's score interval,
 * which, unlike the normal approximation, stays inside [0, 1] and keeps its
 * coverage for the small shares most functions of a profile have.
 */
#ifndef _CBENCH_SHARE_H
#define _CBENCH_SHARE_H

#include <stddef.h>
#include <stdint.h>

/* The z of a two-sided interval at confidence `level` in (0, 1):
 * 0.95 -> 1.959964.  NAN outside (0, 1). */
double cbench_share_z(double level);

/*
 * Wilson's score interval for k successes in n trials at z: *lower and
 * *upper in [0, 1].  n = 0 gives [0, 1], which is all we know.
 */
void cbench_share_wilson(uint64_t k, uint64_t n, double z, double *lower, double *upper);

/* The full width (upper - lower) of Wilson's interval for a share p
 * estimated from n samples. */
double cbench_share_width(double p, uint64_t n, double z);

/*
 * The fewest samples for which a share p gets an interval no wider than
 * width (upper - lower, in [0, 1]): what "samples needed" reports.  We
 * solve Wilson's width, not the normal approximation's, so the answer stays
 * right for shares near 0.  UINT64_MAX where width is not positive.
 */
uint64_t cbench_share_needed(double p, double width, double z);

/*
 * The widest interval among shares of at least floor (counts[i] / n >=
 * floor): what --ci-width holds to.  Shares under the floor are left out
 * because a rule that waited for every 0.01 % function would never stop,
 * and such intervals are narrow anyway.  1 when n is 0.
 */
double cbench_share_widest(const uint64_t *counts, size_t ncounts, uint64_t n, double z, double floor);

#endif /* _CBENCH_SHARE_H */
