// SPDX-License-Identifier: GPL-2.0
/* Loop timing points: merged timings, their split, the stride; see tpoints.h. */
#include <math.h>
#include <stdlib.h>

#include "stats/sequential.h"
#include "stats/stats.h"
#include "worker/tpoints.h"

const double cbench_tp_quantile_levels[CBENCH_TP_QUANTILES] = { 0.01, 0.25, 0.5, 0.75, 0.99 };

size_t cbench_tp_merge(const struct cbench_tp_record *rec, size_t n, uint64_t taken,
		       double min_timing, double scale, struct cbench_tp_split *out,
		       struct cbench_tp_calls *c)
{
	size_t k = 0;

	if (taken > n)
		c->dropped += taken - n;
	for (size_t i = 1; i < n; i++) {
		double raw = (double)(rec[i].tsc - rec[i - 1].tsc);
		uint64_t iters = rec[i].count - rec[i - 1].count;

		/* A counter that went back was reset (declared inside the
		 * reps loop, say): the pair spans a reset, not N iterations. */
		if (rec[i].count <= rec[i - 1].count || rec[i].tsc < rec[i - 1].tsc) {
			c->skipped++;
			continue;
		}
		c->perturb_sum += cbench_seq_perturb_term(raw, min_timing);
		out[k].value = raw > min_timing ? (raw - min_timing) * scale / (double)iters : 0;
		out[k].weight = iters;
		c->iterations += iters;
		k++;
	}
	c->merged += k;
	return k;
}

static int by_value(const void *x, const void *y)
{
	double a = ((const struct cbench_tp_split *)x)->value;
	double b = ((const struct cbench_tp_split *)y)->value;

	return (a > b) - (a < b);
}

void cbench_tp_sort(struct cbench_tp_split *s, size_t n)
{
	qsort(s, n, sizeof(*s), by_value);
}

/* The expanded timing at index j (from 0) of sorted splits, walking from
 * split *at, whose first expanded index is *base; both move on. */
static double expanded_at(const struct cbench_tp_split *s, size_t n, uint64_t j, size_t *at,
			  uint64_t *base)
{
	while (*at + 1 < n && j >= *base + s[*at].weight) {
		*base += s[*at].weight;
		(*at)++;
	}
	return s[*at].value;
}

double cbench_tp_quantile(const struct cbench_tp_split *s, size_t n, double q)
{
	uint64_t w = 0, lo, base = 0;
	double pos, frac, x0, x1;
	size_t at = 0;

	for (size_t i = 0; i < n; i++)
		w += s[i].weight;
	if (!w || !(q >= 0 && q <= 1))
		return NAN;
	/* Skip leading splits of no weight. */
	while (at < n && !s[at].weight)
		at++;
	pos = q * (double)(w - 1);
	lo = (uint64_t)pos;
	frac = pos - (double)lo;
	x0 = expanded_at(s, n, lo, &at, &base);
	if (lo + 1 >= w)
		return x0;
	x1 = expanded_at(s, n, lo + 1, &at, &base);
	return x0 + frac * (x1 - x0);
}

void cbench_tp_moments(const struct cbench_tp_split *s, size_t n, uint64_t *weight, double *mean,
		       double *m2)
{
	double w = 0, mu = 0, sq = 0;

	/* West's weighted form of Welford's update: stable when a few
	 * splits carry most of the weight. */
	for (size_t i = 0; i < n; i++) {
		double wi = (double)s[i].weight, delta, r;

		if (!s[i].weight)
			continue;
		w += wi;
		delta = s[i].value - mu;
		r = delta * wi / w;
		mu += r;
		sq += (w - wi) * delta * r;
	}
	*weight = (uint64_t)w;
	*mean = w > 0 ? mu : NAN;
	*m2 = w > 0 ? sq : NAN;
}

uint64_t cbench_tp_stride(double min_timing, double low_ticks, uint64_t points, uint64_t capacity)
{
	double work = low_ticks - min_timing, want, k;

	/* What a recorded timing must hold beyond MIN_TIMING: the factor's
	 * share, and enough that 100 / work keeps the perturb score down. */
	want = fmax((CBENCH_TP_MIN_FACTOR - 1) * fmax(min_timing, 1),
		    100 / CBENCH_TP_PERTURB_TARGET);
	/* Points so close that their spacing is lost in the timer's own
	 * noise: assume a tick of work each, the stride caps it anyway. */
	if (!(work >= 1))
		work = 1;
	k = ceil(want / work);
	if (capacity && points / capacity + 1 > k)
		k = (double)(points / capacity + 1);
	if (!(k >= 1))
		k = 1;
	return k > (double)CBENCH_TP_EVERY_MAX ? CBENCH_TP_EVERY_MAX : (uint64_t)k;
}

double cbench_tp_min_timing(double step_ticks)
{
	struct cbench_tp_record rec[2];
	struct cbench_ctx ctx = { 0 };
	double *d = malloc(CBENCH_TP_MIN_PAIRS * sizeof(*d)), min;

	if (!d)
		return NAN;
	ctx.tp.buf = rec;
	ctx.tp.capacity = 2;
	ctx.tp.every = 1;
	for (int i = 0; i < CBENCH_TP_MIN_PAIRS; i++) {
		ctx.tp.next = 0;
		ctx.tp.countdown = 1;
		cbench_tpoint(&ctx, 0);
		cbench_tpoint(&ctx, 1);
		d[i] = (double)(rec[1].tsc - rec[0].tsc);
	}
	min = cbench_stats_floor_mean(d, CBENCH_TP_MIN_PAIRS, step_ticks);
	free(d);
	return min;
}
