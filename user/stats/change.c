// SPDX-License-Identifier: GPL-2.0
/* A benchmark's change between two sides' runs; see change.h. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "stats/change.h"
#include "stats/stats.h"

enum cbench_change_verdict cbench_change_verdict_of(double lo, double hi, double e)
{
	if (isnan(lo) || isnan(hi))
		return CBENCH_CHANGE_UNDECIDED;
	if (e > 0 && lo >= -e && hi <= e)
		return CBENCH_CHANGE_EQUAL;
	if (lo > 0 && lo >= e)
		return CBENCH_CHANGE_SLOWER;
	if (hi < 0 && hi <= -e)
		return CBENCH_CHANGE_FASTER;
	return lo > 0 || hi < 0 ? CBENCH_CHANGE_UNSETTLED : CBENCH_CHANGE_NONE;
}

enum cbench_gate_answer cbench_change_gate(double lo, double hi, double e, bool changed)
{
	enum cbench_change_verdict v = cbench_change_verdict_of(lo, hi, e);

	if (v == CBENCH_CHANGE_SLOWER || (changed && v == CBENCH_CHANGE_FASTER))
		return CBENCH_GATE_FAIL;
	if (v == CBENCH_CHANGE_UNDECIDED)
		return CBENCH_GATE_UNDECIDED;
	/* Not slower by e: the whole interval under it (and, for changed,
	 * not faster by e either). */
	if (hi < e && (!changed || lo > -e))
		return CBENCH_GATE_PASS;
	if (!changed && v == CBENCH_CHANGE_FASTER)
		return CBENCH_GATE_PASS;
	return CBENCH_GATE_UNDECIDED;
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
	c->verdict = isnan(w.p) ? CBENCH_CHANGE_UNDECIDED : cbench_change_verdict_of(c->lo, c->hi, min_effect);
	c->under_min_effect = 0;
	if (c->verdict == CBENCH_CHANGE_EQUAL && w.p < CBENCH_CHANGE_ALPHA && (c->lo > 0 || c->hi < 0))
		c->under_min_effect = c->lo > 0 ? 1 : -1;
	return 0;
}
