// SPDX-License-Identifier: GPL-2.0
/* Statistics; contracts and small-sample rules in stats.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"

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

int cbench_stats_compare(const void *a, const void *b)
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
	qsort(sorted, n, sizeof(*sorted), cbench_stats_compare);
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

/*
 * The regularized incomplete beta function I_x(a, b), by its continued
 * fraction evaluated with the modified Lentz method; the fraction
 * converges fast for x < (a + 1) / (a + b + 2), and I_x(a, b) =
 * 1 - I_(1-x)(b, a) covers the rest.
 */
static double beta_fraction(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;

	d = 1 / (fabs(d) < tiny ? tiny : d);
	h = d;
	for (int m = 1; m <= 1000; m++) {
		double num[2] = {
			m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
			-(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
		};
		double delta = 1;

		for (int k = 0; k < 2; k++) {
			d = 1 + num[k] * d;
			c = 1 + num[k] / c;
			d = 1 / (fabs(d) < tiny ? tiny : d);
			c = fabs(c) < tiny ? tiny : c;
			delta = d * c;
			h *= delta;
		}
		if (fabs(delta - 1) < 1e-15)
			break;
	}
	return h;
}

static double incomplete_beta(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_fraction(a, b, x) / a;
	return 1 - front * beta_fraction(b, a, 1 - x) / b;
}

double cbench_stats_t_cdf(double t, double df)
{
	double tail;

	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return t > 0 ? 1 : 0;
	/* P(|T| > |t|) = I_x(df / 2, 1 / 2) with x = df / (df + t^2). */
	tail = incomplete_beta(df / 2, 0.5, df / (df + t * t)) / 2;
	return t > 0 ? 1 - tail : tail;
}

double cbench_stats_t_quantile(double p, double df)
{
	double lo = 0, hi = 1;

	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	if (p < 0.5)
		return -cbench_stats_t_quantile(1 - p, df);
	/* The cdf rises monotonically: bracket, then bisect to the last bit. */
	while (cbench_stats_t_cdf(hi, df) < p && hi < 1e300)
		hi *= 2;
	for (int i = 0; i < 2000 && hi - lo > 1e-15 * hi; i++) {
		double mid = (lo + hi) / 2;

		if (cbench_stats_t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

void cbench_stats_welch(const double *a, size_t na, const double *b, size_t nb, double min_var,
			double confidence, struct cbench_welch *w)
{
	double sa, sb, q;

	w->diff = w->se = w->df = w->p = w->lo = w->hi = NAN;
	if (na < 2 || nb < 2)
		return;
	w->diff = cbench_stats_mean(b, nb) - cbench_stats_mean(a, na);
	/* Each side's variance of its mean, the side's variance at least min_var. */
	sa = fmax(pow(cbench_stats_stddev(a, na), 2), min_var) / (double)na;
	sb = fmax(pow(cbench_stats_stddev(b, nb), 2), min_var) / (double)nb;
	w->se = sqrt(sa + sb);
	if (!(w->se > 0)) {
		/* Both sides constant: no spread to weigh the difference by. */
		w->df = (double)(na + nb - 2);
		w->p = w->diff == 0 ? 1 : 0;
		w->lo = w->hi = w->diff;
		return;
	}
	w->df = (sa + sb) * (sa + sb) / (sa * sa / (double)(na - 1) + sb * sb / (double)(nb - 1));
	w->p = 2 * cbench_stats_t_cdf(-fabs(w->diff) / w->se, w->df);
	q = cbench_stats_t_quantile(1 - (1 - confidence) / 2, w->df);
	w->lo = w->diff - q * w->se;
	w->hi = w->diff + q * w->se;
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
	/* A mean of values at least m is at least m, but its rounding may
	 * fall an ulp under: a report would show an estimate below its own
	 * minimum. */
	return fmax(m, sum / (double)k);
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
