/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Change points in a series of runs taken in commit order: where the level
 * of a benchmark moved, and by how much.
 *
 * The search is E-Divisive means (Matteson and James): in an interval of
 * the series, the split tau and end kappa that make the two sides
 * [start, tau) and [tau, kappa) most unlike by the energy statistic Q-hat
 * (distances |y_i - y_j|, alpha = 1) give the candidate tau.  Its
 * significance is a two-sample t test of the whole interval's two sides in
 * place of the permutation test, and the series is walked in overlapping
 * windows with a weak first pass and a merge, as Apache Otava (formerly
 * Hunter; Fleming et al.) does it: split at 10 times max_p, then remove the
 * weakest change point (the largest p above max_p, else the smallest
 * change under min_effect), recompute its neighbours, and again, until
 * every one passes.
 *
 * One departure, which is the reason to have our own: each point carries
 * its run's own standard uncertainty u_i (relative: the points are logs of
 * the runs' figures), and the t test weighs each point by
 * 1 / (tau^2 + u_i^2), tau^2 the variance between runs that no run's own
 * uncertainty explains (a random-effects model).  A noisy run then counts
 * for less, a steady one for more, and with every u_i equal the test is
 * Student's pooled t test, Otava's.
 *
 * Small-sample rules: fewer than CBENCH_CP_MIN_POINTS points give no change
 * point; a test needs three points over both sides (one degree of freedom)
 * and otherwise has p = 1; an unknown u_i (NAN, or not positive: a run of
 * one trial) is the median of the known ones, and all equal when none is
 * known.
 */
#ifndef _CBENCH_CHANGEPOINT_H
#define _CBENCH_CHANGEPOINT_H

#include <stdbool.h>
#include <stddef.h>

/* Fewer points than this give no change point (Otava's rule: two points
 * that differ say nothing about how much they may differ). */
#define CBENCH_CP_MIN_POINTS 3
/* The search's window by default: 0, the whole series at once (PELT); a
 * window of 4 or more points walks it as Otava does (E-Divisive).  The
 * final test's threshold, Otava's. */
#define CBENCH_CP_WINDOW 0
#define CBENCH_CP_MAX_P 0.001
/* The least scale of the weighted model (variance phi / w_i): a series
 * whose runs read alike keeps a finite cost. */
#define CBENCH_CP_PHI_MIN 1e-6
/* The widest window we take; its search costs window^2 doubles. */
#define CBENCH_CP_WINDOW_MAX 2000
/* The least relative uncertainty a point is given: a tenth of the
 * smallest change cbench claims to resolve (0.01 %), so that no point,
 * however steady its trials, weighs without limit. */
#define CBENCH_CP_U_MIN 1e-5
/* No point weighs more than this many times a typical one: u_i is at least
 * the median u over this ratio's square root (trials that agree by chance,
 * or that sit on the same timer steps, would otherwise let one run decide). */
#define CBENCH_CP_WEIGHT_RATIO 16

struct cbench_cp_params {
	/* 0: PELT over the whole series; else E-Divisive in windows of this
	 * many points, 4 to CBENCH_CP_WINDOW_MAX (Otava's search) */
	size_t window;
	double max_p;		/* the final threshold, in (0, 1) */
	double min_effect;	/* smallest |change| kept, a fraction (0.002 is 0.2 %); >= 0 */
	double confidence;	/* of each change's interval, in (0, 1) */
};

/* A change point, or one test of two adjacent segments. */
struct cbench_cp {
	size_t index;		/* the first point after the change */
	/* The last point before it that tells its side (cbench_cp_detect());
	 * those between weigh too little to say which side they are on. */
	size_t last;
	double qhat;		/* the energy statistic that chose it */
	double p, t, df;	/* the weighted t test of its two sides */
	double before, after;	/* the sides' weighted means (of the logs) */
	/* after / before - 1 in the original units (exp of the difference of
	 * the logs), and its interval at the confidence asked */
	double change, lower, upper;
	/* A straight line explains its two sides at least as well as the
	 * step does: a point on a slow drift (PELT's search drops it). */
	bool ramp;
	/*
	 * Not a change point but one run that read apart from the runs on
	 * both sides (or the first run from all after it), set aside before
	 * the search (cbench_cp_detect()): index is that run, before the
	 * level of the runs around it (the median of their logs), after its
	 * own, change the difference; p, t, df and the interval are NAN.
	 */
	bool excursion;
};

/*
 * A point's robust standard deviation from the successive differences
 * d_i = y_{i+1} - y_i: 1.4826 MAD(d) / sqrt(2) (a step moves one
 * difference, which the median ignores).  NAN under three points.
 */
double cbench_cp_spread(const double *y, size_t n);

/*
 * PELT's penalty per change point, on twice the Gaussian negative log
 * likelihood: the chi-square (1 df) quantile at 1 - max_p / places, so
 * that noise alone puts a change at any of places places with a chance
 * of at most max_p (Bonferroni).  A series of n runs has n - 1 places;
 * a change at the newest run alone is the one place CI asks about after
 * every commit, and costs the quantile at 1 - max_p (places = 1).
 */
double cbench_cp_penalty(double max_p, size_t places);

/*
 * The weights: w_i = 1 / (tau^2 + u_i^2) with the rules above, into w[n];
 * returns tau^2: cbench_cp_spread()'s square less the typical u^2, at
 * least 0.  n < 3 gives tau^2 = 0.
 */
double cbench_cp_weights(const double *y, const double *u, size_t n, double *w);

/*
 * The candidate of E-Divisive in [a, c), c - a >= 2: the tau in (a, c)
 * whose best kappa in (tau, c] maximizes Q-hat(y[a:tau], y[tau:kappa]),
 * the first such on ties (smallest tau, then kappa).  Its Q-hat in *qhat.
 * Returns tau, or 0 when c - a < 2 or memory ran out.
 */
size_t cbench_cp_candidate(const double *y, size_t a, size_t c, double *qhat);

/*
 * The weighted two-sample t test of [a, b) against [b, c): weighted means,
 * their difference over its standard error sqrt(phi (1/W_ab + 1/W_bc)),
 * phi the weighted residual variance with c - a - 2 degrees of freedom,
 * the two-sided p, and the change with its interval at confidence.  p = 1
 * and NAN interval with fewer than one degree of freedom; p = 0 when
 * both sides are constant and differ.  Sets every field of cp but qhat.
 */
void cbench_cp_test(const double *y, const double *w, size_t a, size_t b, size_t c,
		    double confidence, struct cbench_cp *cp);

/*
 * The change points of y[0..n) (logs) with uncertainties u (NULL: all
 * unknown), into a malloc'd array in index order (*out NULL when none);
 * each tested against its neighbours' segments.  A point that weighs less
 * than a CBENCH_CP_WEIGHT_RATIO-th of the median weight cannot place a
 * change unless the change is large beside its own spread (its likelihood
 * on one side beyond the other's at max_p): one next to a change point
 * that cannot is passed over, so that index is the first point after the
 * change that weighs enough or tells its side, and last the last one
 * before it (the light ones between belong to neither side for sure).
 * Searching the whole series (window 0), a run that the change points
 * leave alone in a segment of its own, but the newest, is set aside and
 * the rest searched again (a few rounds at most): one run cannot tell a
 * change of one commit from a moment of the host, and a second run of
 * its commit that agrees makes a segment of two.  Each such run is in the
 * array too, marked excursion.  Windows (Otava's search) set none aside.
 * Returns 0, or -ENOMEM, or -EINVAL for parameters out of range.
 */
int cbench_cp_detect(const double *y, const double *u, size_t n, const struct cbench_cp_params *p,
		     struct cbench_cp **out, size_t *nout);

#endif /* _CBENCH_CHANGEPOINT_H */
