// SPDX-License-Identifier: GPL-2.0
/* Sequential A/B statistics; see sequential.h. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/sequential.h"
#include "stats/stats.h"

void cbench_seq_init(struct cbench_seq *s, double confidence)
{
	double l;

	s->alpha = 1 - confidence;
	if (!(s->alpha > 0 && s->alpha < 1))
		s->alpha = 0.01;
	/* The rho that makes the boundary tightest at the target round, for
	 * counts of variance 1/4 a round, each end at alpha/2 (Howard et al.,
	 * section 3.5; Waudby-Smith et al., eq. after Theorem 2.2). */
	l = -2 * log(s->alpha / 2);
	s->rho = CBENCH_SEQ_TARGET_ROUNDS / (4 * (l + log(l + 1)));
	s->rounds = 0;
	s->sorted[0] = s->sorted[1] = s->sorted[2] = NULL;
	s->cap = 0;
	s->last = NAN;
	s->mean = s->m2 = 0;
	s->halves = 0;
	s->noise_sum = 0;
	s->bounds = 0;
	s->bound_sum = 0;
}

double cbench_seq_round_stat(const double *a, size_t na, const double *b, size_t nb)
{
	double qa = cbench_stats_quantile(a, na, CBENCH_SEQ_QUANTILE);
	double qb = cbench_stats_quantile(b, nb, CBENCH_SEQ_QUANTILE);

	if (!(qa > 0) || !(qb > 0))
		return NAN;
	return log(qb) - log(qa);
}

void cbench_seq_free(struct cbench_seq *s)
{
	for (int k = 0; k < 3; k++) {
		free(s->sorted[k]);
		s->sorted[k] = NULL;
	}
	s->cap = 0;
}

/* Where x goes in v[0..n), sorted: after every value not above it. */
static size_t place_of(const double *v, size_t n, double x)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t at = lo + (hi - lo) / 2;

		if (v[at] <= x)
			lo = at + 1;
		else
			hi = at;
	}
	return lo;
}

/* x into v[0..n), sorted, room for it made. */
static void insert(double *v, size_t n, double x)
{
	size_t at = place_of(v, n, x);

	memmove(v + at + 1, v + at, (n - at) * sizeof(*v));
	v[at] = x;
}

/* One value old of v[0..n), sorted, made x: the order kept. */
static void move_value(double *v, size_t n, double old, double x)
{
	size_t at = place_of(v, n, old) - 1;	/* the last equal to old */

	memmove(v + at, v + at + 1, (n - at - 1) * sizeof(*v));
	insert(v, n - 1, x);
}

int cbench_seq_add(struct cbench_seq *s, double d)
{
	double delta;

	if (isnan(d))
		return 0;
	if (s->rounds == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 256;

		for (int k = 0; k < 3; k++) {
			double *v = realloc(s->sorted[k], cap * sizeof(*v));

			if (!v)
				return -ENOMEM;
			s->sorted[k] = v;
		}
		s->cap = cap;
	}
	for (int k = 0; k < 3; k++)
		insert(s->sorted[k], s->rounds, d);
	s->last = d;
	s->rounds++;
	delta = d - s->mean;
	s->mean += delta / (double)s->rounds;
	s->m2 += delta * (d - s->mean);
	return 0;
}

void cbench_seq_round_halves(const double *a, size_t na, const double *b, size_t nb, double d[2])
{
	/* The first half of each side's timings, then the second. */
	d[0] = cbench_seq_round_stat(a, (na + 1) / 2, b, (nb + 1) / 2);
	d[1] = cbench_seq_round_stat(a + (na + 1) / 2, na / 2, b + (nb + 1) / 2, nb / 2);
}

void cbench_seq_add_halves(struct cbench_seq *s, double d1, double d2)
{
	if (isnan(d1) || isnan(d2))
		return;
	s->halves++;
	s->noise_sum += (d1 - d2) * (d1 - d2) / 4;
}

double cbench_seq_round_var(const struct cbench_seq *s)
{
	return s->rounds < 2 ? NAN : s->m2 / (double)(s->rounds - 1);
}

double cbench_seq_noise_var(const struct cbench_seq *s)
{
	return s->halves ? s->noise_sum / (double)s->halves : NAN;
}

double cbench_seq_share_beyond(double var, double noise_var)
{
	if (!(var > 0) || isnan(noise_var))
		return NAN;
	return noise_var >= var ? 0 : 1 - noise_var / var;
}

/* -log(1 - rel): how far log(q) may be from log(q') for |q - q'| < rel q. */
static double side_bound(double rel)
{
	if (isnan(rel) || rel < 0)
		return NAN;
	return rel >= 1 ? INFINITY : -log1p(-rel);
}

double cbench_seq_step_bound(double rel_a, double rel_b)
{
	return side_bound(rel_a) + side_bound(rel_b);
}

void cbench_seq_add_bound(struct cbench_seq *s, double bound)
{
	if (isnan(bound))
		return;
	s->bounds++;
	s->bound_sum += bound;
	/* The round's d, widened by its own bound either way. */
	if (!isnan(s->last)) {
		move_value(s->sorted[1], s->rounds, s->last, s->last - bound);
		move_value(s->sorted[2], s->rounds, s->last, s->last + bound);
		s->last = NAN;
	}
}

double cbench_seq_bound(const struct cbench_seq *s)
{
	return s->bounds ? s->bound_sum / (double)s->bounds : 0;
}

/* The median of the n sorted values v. */
static double median_of(const double *v, size_t n)
{
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void cbench_seq_interval(const struct cbench_seq *s, double *change, double *lo, double *hi)
{
	double t = (double)s->rounds, v = t / 4, u, first, last;

	*change = s->rounds ? expm1(median_of(s->sorted[0], s->rounds)) : NAN;
	*lo = *hi = NAN;
	if (!s->rounds)
		return;
	/* Each end's count within u of t/2 at alpha/2 (sequential.h). */
	u = sqrt((v + s->rho) * log((v + s->rho) / (s->rho * (s->alpha / 2) * (s->alpha / 2))));
	first = ceil(t / 2 - u);		/* 1-based ranks */
	last = floor(t / 2 + u) + 1;
	if (first < 1 || last > t)
		return;
	/* The sequence covers the median of the statistic the timings give.
	 * The durations' statistic of a round is within its bound b of the
	 * timings' (sequential.h), so its k-th least is within the k-th least
	 * of d - b and of d + b: the interval for the durations' median. */
	*lo = expm1(s->sorted[1][(size_t)first - 1]);
	*hi = expm1(s->sorted[2][(size_t)last - 1]);
}

enum cbench_verdict cbench_seq_verdict(const struct cbench_seq *s, double min_effect)
{
	double change, lo, hi;

	if (s->rounds < CBENCH_SEQ_MIN_ROUNDS)
		return CBENCH_VERDICT_UNDECIDED;
	cbench_seq_interval(s, &change, &lo, &hi);
	if (isnan(lo))
		return CBENCH_VERDICT_UNDECIDED;
	if (lo >= -min_effect && hi <= min_effect && min_effect > 0)
		return CBENCH_VERDICT_EQUIVALENT;
	/* As compare's rule (stats/change.h): the whole interval past the bound. */
	if (hi < 0 && hi <= -min_effect)
		return CBENCH_VERDICT_B_FASTER;
	if (lo > 0 && lo >= min_effect)
		return CBENCH_VERDICT_B_SLOWER;
	return CBENCH_VERDICT_UNDECIDED;
}

double cbench_seq_converge_score(const double *v, size_t n)
{
	double sd = cbench_stats_stddev(v, n);

	return n && sd > 0 ? (double)n / (sd * sd) : NAN;
}

double cbench_seq_perturb_term(double ticks, double min_timing)
{
	double over = ticks - (min_timing - 0.1);

	/* A timing at or under MIN_TIMING times nothing at all. */
	return over > 0.1 ? 100 / over : 1000;
}
