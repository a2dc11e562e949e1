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
