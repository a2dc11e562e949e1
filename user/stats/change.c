// SPDX-License-Identifier: GPL-2.0
/* A benchmark's change between two sides' runs; see change.h. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "stats/change.h"
#include "stats/stats.h"

/*
 * The verdict of a change with its interval [lo, hi] and p value, against
 * the smallest change that counts (e), by audit's rules: equal when the
 * whole interval lies within +-e; faster or slower when the difference is
 * real (p < alpha, the interval excludes 0) and the change reaches e;
 * small when it is real but smaller.  Two objects that differ only in code
 * layout differ by +0.00 % with a narrow interval, and that is not a
 * slowdown anyone should act on.
 */
static enum cbench_change_verdict decide(double change, double lo, double hi, double p, double e)
{
	if (isnan(p))
		return CBENCH_CHANGE_UNDECIDED;
	if (e > 0 && lo >= -e && hi <= e)
		return CBENCH_CHANGE_EQUAL;
	if (p >= CBENCH_CHANGE_ALPHA)
		return CBENCH_CHANGE_NONE;
	if (fabs(change) < e)
		return CBENCH_CHANGE_SMALL;
	return change > 0 ? CBENCH_CHANGE_SLOWER : CBENCH_CHANGE_FASTER;
}

/* The geometric mean of v, and the logs of v into lv. */
static double log_mean(const double *v, size_t n, double *lv)
{
	for (size_t i = 0; i < n; i++)
		lv[i] = log(v[i]);
	return cbench_stats_mean(lv, n);
}

int cbench_change_test(const double *old, size_t nold, const double *new, size_t nnew, double min_var,
		       double min_effect, struct cbench_change *c)
{
	double *la = malloc((nold + nnew) * sizeof(*la)), *lb, ma, mb;
	struct cbench_welch w;

	if (!la)
		return -ENOMEM;
	lb = la + nold;
	ma = log_mean(old, nold, la);
	mb = log_mean(new, nnew, lb);
	c->old_ns = exp(ma);
	c->new_ns = exp(mb);
	c->change = expm1(mb - ma);
	cbench_stats_welch(la, nold, lb, nnew, min_var, 1 - CBENCH_CHANGE_ALPHA, &w);
	free(la);
	c->lo = expm1(w.lo);
	c->hi = expm1(w.hi);
	c->p = w.p;
	c->verdict = decide(c->change, c->lo, c->hi, w.p, min_effect);
	c->under_min_effect = 0;
	if (c->verdict == CBENCH_CHANGE_EQUAL && w.p < CBENCH_CHANGE_ALPHA && (c->lo > 0 || c->hi < 0))
		c->under_min_effect = c->lo > 0 ? 1 : -1;
	return 0;
}
