// SPDX-License-Identifier: GPL-2.0
/* Tuning n: Chen and Revels, Alg. 1 and the oracle; see tune.h. */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "stats/stats.h"
#include "stats/tune.h"

void cbench_tune_params_init(struct cbench_tune_params *p, double precision_ns, double accuracy_ns)
{
	double j;

	if (!(precision_ns > 0))
		precision_ns = 1;
	if (!(accuracy_ns >= precision_ns * CBENCH_TUNE_ACC_MIN_STEPS))
		accuracy_ns = precision_ns * CBENCH_TUNE_ACC_MIN_STEPS;
	j = floor(accuracy_ns / precision_ns);
	p->precision_ns = precision_ns;
	p->accuracy_ns = accuracy_ns;
	p->j = j < 1 ? 1 : (uint64_t)j;
	p->b = CBENCH_TUNE_B;
	p->a = CBENCH_TUNE_STEEPNESS / (p->b * accuracy_ns);
	p->max_measure_ns = CBENCH_TUNE_MAX_MEASURE_NS;
}

uint64_t cbench_tune_oracle(const struct cbench_tune_params *p, double t_ns)
{
	double y, cap;
	uint64_t n;

	if (!(t_ns > 0))
		t_ns = p->precision_ns;
	/* exp() overflows to inf for long benchmarks, giving y = 1 as wanted. */
	y = floor(1 + (double)(p->j - 1) / (1 + exp(p->a * (t_ns - p->b * p->accuracy_ns))));
	/*
	 * nu(t) <= j assumes a rep is at least one timer step long.  A shorter
	 * one would leave every measurement shorter than tau_acc, only tens of
	 * steps, each value rounded by a step, and the minimum would then pick
	 * the lucky roundings: we keep measurements tau_acc long instead.
	 */
	if (y < ceil(p->accuracy_ns / t_ns))
		y = ceil(p->accuracy_ns / t_ns);
	n = y < 1 ? 1 : (uint64_t)y;
	cap = floor(p->max_measure_ns / t_ns);
	if (cap < 1)
		cap = 1;
	if ((double)n > cap)
		n = (uint64_t)cap;
	return n;
}

/* The median of the finite values among v[0..n), or NAN; moves them to the front. */
static double finite_median(double *v, uint64_t n)
{
	size_t k = 0;

	for (uint64_t i = 0; i < n; i++)
		if (isfinite(v[i]))
			v[k++] = v[i];
	return cbench_stats_median(v, k);
}

/*
 * How far one pass's clean times of i reps, ns[1..top] (NAN: disturbed),
 * grow from the lowest quarter of the i measured to the highest (their
 * medians), over what a call that ignores reps may show: the timer's
 * half step, or 1 % (calls of the same reps differ by that).  Under 1:
 * flat.  Real work per rep grows a pass by the time of 3/4 of top reps,
 * most of a measurement.  NAN where the pass is too short to tell.
 * Reorders ns.
 */
static double pass_growth(const struct cbench_tune_params *p, double *ns, uint64_t top)
{
	uint64_t q = top / 4;
	double lo, hi;

	if (q < CBENCH_TUNE_FLAT_MIN_I)
		return NAN;
	lo = finite_median(ns + 1, q);
	hi = finite_median(ns + top - q + 1, q);
	if (!isfinite(lo) || !isfinite(hi))
		return NAN;
	return (hi - lo) / fmax(0.5 * p->precision_ns, CBENCH_TUNE_FLAT_SHARE * lo);
}

/*
 * Whether a call takes as long whatever its reps: the median pass is flat.
 * Each pass is judged on its own, from its own times: a core clock that
 * steps down in the middle of one pass and stays there would otherwise
 * make the fastest times of few reps (from before the step) and of many
 * (all after it) differ by the step, and a benchmark that ignores reps
 * pass for one that grows.
 */
static bool flat(const double *growth, size_t n)
{
	double v[CBENCH_TUNE_PASSES_MAX];
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (isfinite(growth[i]))
			v[k++] = growth[i];
	return k && cbench_stats_median(v, k) < 1;
}

/*
 * Whether a clean measurement of i reps, ns long, ends the pass
 * (CBENCH_TUNE_PASS_ACC): past the i the flat check needs, long next to
 * tau_acc, and at least twice the time of one rep (one), so that a call's
 * fixed cost is not most of it: T_i / i still falls with i while it is.
 */
static bool enough(const struct cbench_tune_params *p, uint64_t i, double ns, double one)
{
	return i >= 4 * CBENCH_TUNE_FLAT_MIN_I && ns > CBENCH_TUNE_PASS_ACC * p->accuracy_ns &&
	       ns > 2 * one;
}

int cbench_tune(const struct cbench_tune_params *p, cbench_tune_time_fn time_fn, void *arg,
		uint64_t *n, double *t_ns)
{
	double best = INFINITY, spent_ns = 0, one = INFINITY;
	uint64_t slots = p->j < CBENCH_TUNE_FLAT_MAX_J ? p->j : 0;
	/* times[i]: this pass's clean time of i reps (NAN: none); slots 0:
	 * not kept.  growth: each pass's, for flat(). */
	double *times = slots ? malloc((slots + 1) * sizeof(*times)) : NULL;
	double growth[CBENCH_TUNE_PASSES_MAX];
	uint64_t last_n = 0;
	size_t passes = 0;
	int ret = 0, same = 0;
	bool clean = false;

	if (slots && !times)
		return -ENOMEM;
	for (int pass = 0; pass < CBENCH_TUNE_PASSES_MAX; pass++) {
		uint64_t top = 0;

		bool more = pass < CBENCH_TUNE_PASSES && spent_ns < CBENCH_TUNE_BUDGET_NS &&
			    (pass < CBENCH_TUNE_PASSES_MIN || same < CBENCH_TUNE_STABLE_PASSES);

		/* A busy machine may disturb every measurement of a slow
		 * benchmark: we keep going until one is clean. */
		if (!more && !isinf(best))
			break;
		for (uint64_t i = 0; times && i <= slots; i++)
			times[i] = NAN;
		for (uint64_t i = 1; i <= p->j; i++) {
			double ns = 0;

			ret = time_fn(arg, i, &ns);
			if (ret < 0)
				goto out;
			spent_ns += ns;
			clean |= !ret;
			if (!ret && times && i <= slots)
				times[i] = ns;
			if (!ret && i == 1)
				one = fmin(one, ns);
			top = i > top ? i : top;
			/* Under one timer step (0 once the overhead is off), a time
			 * says only that i reps are short: it bounds t from no side. */
			if (!ret && ns >= p->precision_ns && ns / (double)i < best)
				best = ns / (double)i;
			if (ns > p->max_measure_ns || (!ret && enough(p, i, ns, one)))
				break;
		}
		if (times)
			growth[passes++] = pass_growth(p, times, top);
		if (!isinf(best)) {
			uint64_t now = cbench_tune_oracle(p, best);

			same = now == last_n ? same + 1 : 0;
			last_n = now;
		}
	}
	/* Clean measurements, every one under a timer step whatever the
	 * reps: the benchmark does nothing that takes time. */
	if (isinf(best)) {
		ret = clean ? -ERANGE : -EAGAIN;
		goto out;
	}
	/* Above a step, but no longer for more reps: it ignores them. */
	if (flat(growth, passes)) {
		ret = -EDOM;
		goto out;
	}
	*t_ns = best;
	*n = cbench_tune_oracle(p, best);
	ret = 0;
out:
	free(times);
	return ret;
}

uint64_t cbench_tune_ref_reps(double step_ticks, double tsc_hz, double cycles_per_tick,
			      unsigned int adds_per_rep, double min_ns)
{
	double want_ticks = fmax(CBENCH_TUNE_ACC_MIN_STEPS * step_ticks, min_ns * 1e-9 * tsc_hz);
	double rep_ticks = (double)adds_per_rep / cycles_per_tick;

	if (!(rep_ticks > 0) || !isfinite(rep_ticks) || !(want_ticks > 0))
		return 1;
	return (uint64_t)ceil(want_ticks / rep_ticks);
}
