// SPDX-License-Identifier: GPL-2.0
/* Statistics; contracts and small-sample rules in stats.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

double cbench_stats_min(const double *v, size_t n)
{
	double m;

	if (!n)
		return NAN;
	m = v[0];
	for (size_t i = 1; i < n; i++)
		m = v[i] < m ? v[i] : m;
	return m;
}

double cbench_stats_max(const double *v, size_t n)
{
	double m;

	if (!n)
		return NAN;
	m = v[0];
	for (size_t i = 1; i < n; i++)
		m = v[i] > m ? v[i] : m;
	return m;
}

double cbench_stats_mean(const double *v, size_t n)
{
	double sum = 0;

	if (!n)
		return NAN;
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	return sum / (double)n;
}

double cbench_stats_stddev(const double *v, size_t n)
{
	double mean, sum = 0;

	if (!n)
		return NAN;
	if (n == 1)
		return 0;
	/* Two passes: the one-pass sum-of-squares form cancels badly when the
	 * spread is tiny next to the mean, which is exactly our case. */
	mean = cbench_stats_mean(v, n);
	for (size_t i = 0; i < n; i++)
		sum += (v[i] - mean) * (v[i] - mean);
	return sqrt(sum / (double)(n - 1));
}

double cbench_stats_cv(const double *v, size_t n)
{
	double mean;

	if (!n)
		return NAN;
	if (n == 1)
		return 0;
	mean = cbench_stats_mean(v, n);
	if (mean == 0)
		return NAN;
	return cbench_stats_stddev(v, n) / fabs(mean);
}

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double cbench_stats_quantile(const double *v, size_t n, double q)
{
	double *sorted, pos, frac, result;
	size_t lo;

	if (!n || !(q >= 0 && q <= 1))
		return NAN;
	if (n == 1)
		return v[0];
	sorted = malloc(n * sizeof(*sorted));
	if (!sorted)
		return NAN;
	memcpy(sorted, v, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), compare_doubles);
	pos = q * (double)(n - 1);
	lo = (size_t)pos;
	frac = pos - (double)lo;
	result = lo + 1 < n ? sorted[lo] + frac * (sorted[lo + 1] - sorted[lo]) : sorted[lo];
	free(sorted);
	return result;
}

double cbench_stats_median(const double *v, size_t n)
{
	return cbench_stats_quantile(v, n, 0.5);
}

struct ranked {
	double v;
	int from_a;
};

static int compare_ranked(const void *x, const void *y)
{
	return compare_doubles(&((const struct ranked *)x)->v, &((const struct ranked *)y)->v);
}

double cbench_stats_mann_whitney_p(const double *a, size_t na, const double *b, size_t nb)
{
	size_t n = na + nb;
	struct ranked *r;
	double rank_sum_a = 0, ties = 0, u, mu, var, z;

	if (na < 2 || nb < 2)
		return NAN;
	r = malloc(n * sizeof(*r));
	if (!r)
		return NAN;
	for (size_t i = 0; i < na; i++)
		r[i] = (struct ranked){ a[i], 1 };
	for (size_t i = 0; i < nb; i++)
		r[na + i] = (struct ranked){ b[i], 0 };
	qsort(r, n, sizeof(*r), compare_ranked);
	/* Midranks for ties; t^3 - t summed for the variance correction. */
	for (size_t i = 0; i < n;) {
		size_t j = i;
		double mid, t;

		while (j + 1 < n && r[j + 1].v == r[i].v)
			j++;
		mid = (double)(i + j) / 2 + 1;
		for (size_t k = i; k <= j; k++)
			rank_sum_a += r[k].from_a ? mid : 0;
		t = (double)(j - i + 1);
		ties += t * t * t - t;
		i = j + 1;
	}
	free(r);
	u = rank_sum_a - (double)na * (double)(na + 1) / 2;
	mu = (double)na * (double)nb / 2;
	var = (double)na * (double)nb / 12 * ((double)(n + 1) - ties / ((double)n * (double)(n - 1)));
	if (!(var > 0))
		return NAN;
	z = u - mu;
	z = (z > 0 ? z - 0.5 : z < 0 ? z + 0.5 : 0) / sqrt(var);
	return erfc(fabs(z) / sqrt(2));
}

double cbench_stats_floor_mean(const double *v, size_t n, double step)
{
	double m = cbench_stats_min(v, n), sum = 0, limit;
	size_t k = 0;

	if (!n || !(step > 0))
		return m;
	/* Half a step of slack: overhead subtraction and float arithmetic
	 * leave levels a little off exact multiples. */
	limit = m + 1.5 * step;
	for (size_t i = 0; i < n; i++) {
		if (v[i] <= limit) {
			sum += v[i];
			k++;
		}
	}
	return sum / (double)k;
}

static int compare_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* Share of the positive values of d that are multiples of g. */
static double multiples(const uint64_t *d, size_t n, uint64_t g)
{
	size_t pos = 0, hit = 0;

	for (size_t i = 0; i < n; i++) {
		if (!d[i])
			continue;
		pos++;
		hit += d[i] % g == 0;
	}
	return pos ? (double)hit / (double)pos : 0;
}

uint64_t cbench_stats_step(const uint64_t *d, size_t n)
{
	uint64_t *sorted, pick[3], best = 0;
	size_t pos = 0;

	sorted = malloc((n ? n : 1) * sizeof(*sorted));
	if (!sorted)
		return 0;
	for (size_t i = 0; i < n; i++) {
		if (d[i])
			sorted[pos++] = d[i];
	}
	if (!pos) {
		free(sorted);
		return 0;
	}
	qsort(sorted, pos, sizeof(*sorted), compare_u64);
	/*
	 * The step divides at least 90% of the values, so it divides at least
	 * one of the quartiles unless strays sit at all three: its candidates
	 * are their divisors.  That keeps the search to a few hundred tests
	 * of the share, whatever the values' size.
	 */
	pick[0] = sorted[pos / 4];
	pick[1] = sorted[pos / 2];
	pick[2] = sorted[pos * 3 / 4];
	free(sorted);
	for (int q = 0; q < 3; q++) {
		for (uint64_t f = 1; f * f <= pick[q]; f++) {
			uint64_t pair[2] = { f, pick[q] / f };

			if (pick[q] % f)
				continue;
			for (int k = 0; k < 2; k++) {
				if (pair[k] > best && multiples(d, n, pair[k]) >= CBENCH_STEP_SHARE)
					best = pair[k];
			}
		}
	}
	return best ? best : 1;
}
