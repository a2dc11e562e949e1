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
 * Whether a call takes as long whatever its reps: the least clean time at
 * each i, least[1..top], grows from the lowest quarter of the i measured to
 * the highest by less than the timer can tell (half a step) or than calls
 * of the same reps differ (1 %).  Real work per rep grows it by the time of
 * 3/4 of top reps, which is most of a measurement.  Reorders least.
 */
static bool flat(const struct cbench_tune_params *p, double *least, uint64_t top)
{
	uint64_t q = top / 4;
	double lo, hi;

	if (q < CBENCH_TUNE_FLAT_MIN_I)
		return false;
	lo = finite_median(least + 1, q);
	hi = finite_median(least + top - q + 1, q);
	if (!isfinite(lo) || !isfinite(hi))
		return false;
	return hi - lo < fmax(0.5 * p->precision_ns, CBENCH_TUNE_FLAT_SHARE * lo);
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
	uint64_t top = 0, slots = p->j < CBENCH_TUNE_FLAT_MAX_J ? p->j : 0;
	/* least[i]: the least clean time of i reps; slots 0: not kept. */
	double *least = slots ? malloc((slots + 1) * sizeof(*least)) : NULL;
	uint64_t last_n = 0;
	int ret = 0, same = 0;
	bool clean = false;

	if (slots && !least)
		return -ENOMEM;
	for (uint64_t i = 0; least && i <= slots; i++)
		least[i] = INFINITY;
	for (int pass = 0; pass < CBENCH_TUNE_PASSES_MAX; pass++) {
		bool more = pass < CBENCH_TUNE_PASSES && spent_ns < CBENCH_TUNE_BUDGET_NS &&
			    (pass < CBENCH_TUNE_PASSES_MIN || same < CBENCH_TUNE_STABLE_PASSES);

		/* A busy machine may disturb every measurement of a slow
		 * benchmark: we keep going until one is clean. */
		if (!more && !isinf(best))
			break;
		for (uint64_t i = 1; i <= p->j; i++) {
			double ns = 0;

			ret = time_fn(arg, i, &ns);
			if (ret < 0)
				goto out;
			spent_ns += ns;
			clean |= !ret;
			if (!ret && least && ns < least[i])
				least[i] = ns;
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
	if (least && flat(p, least, top)) {
		ret = -EDOM;
		goto out;
	}
	*t_ns = best;
	*n = cbench_tune_oracle(p, best);
	ret = 0;
out:
	free(least);
	return ret;
}

uint64_t cbench_tune_ref_reps(double step_ticks, double tsc_hz, double cycles_per_tick,
			      unsigned int adds_per_rep)
{
	double want_ticks = fmax(CBENCH_TUNE_ACC_MIN_STEPS * step_ticks, CBENCH_REF_MIN_NS * 1e-9 * tsc_hz);
	double rep_ticks = (double)adds_per_rep / cycles_per_tick;

	if (!(rep_ticks > 0) || !isfinite(rep_ticks) || !(want_ticks > 0))
		return 1;
	return (uint64_t)ceil(want_ticks / rep_ticks);
}
