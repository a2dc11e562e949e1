// SPDX-License-Identifier: GPL-2.0
/*
 * The spread of a benchmark over drawn code layouts (layouts.h).
 *
 * Layouts are independent draws, so the standard deviation of their log
 * figures estimates the spread a layout brings; its distribution is far
 * from normal (layouts fall into a few speeds: a loop across a line or
 * not), so the interval is a percentile bootstrap, not a chi-square one.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "stats/layouts.h"
#include "stats/sequential.h"
#include "stats/stats.h"

/* splitmix64, for the resamples. */
static uint64_t next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* The sample standard deviation of x[idx[i]] (or x[i] without idx). */
static double sd_of(const double *x, const size_t *idx, size_t n)
{
	double mean = 0, m2 = 0;

	for (size_t i = 0; i < n; i++) {
		double v = x[idx ? idx[i] : i], d = v - mean;

		mean += d / (double)(i + 1);
		m2 += d * (v - mean);
	}
	return n > 1 ? sqrt(m2 / (double)(n - 1)) : NAN;
}

/* The bootstrap interval of sd_of(x, n) at confidence. */
static int bootstrap(const double *x, size_t n, double confidence, uint64_t seed, double *lo,
		     double *hi)
{
	size_t *idx = malloc(n * sizeof(*idx));
	double *sds = malloc(CBENCH_LAYOUTS_BOOTSTRAP * sizeof(*sds));
	uint64_t state = seed;

	if (!idx || !sds) {
		free(idx);
		free(sds);
		return -ENOMEM;
	}
	for (size_t b = 0; b < CBENCH_LAYOUTS_BOOTSTRAP; b++) {
		for (size_t i = 0; i < n; i++)
			idx[i] = (size_t)(next(&state) % n);
		sds[b] = sd_of(x, idx, n);
	}
	*lo = cbench_stats_quantile(sds, CBENCH_LAYOUTS_BOOTSTRAP, (1 - confidence) / 2);
	*hi = cbench_stats_quantile(sds, CBENCH_LAYOUTS_BOOTSTRAP, (1 + confidence) / 2);
	free(idx);
	free(sds);
	return 0;
}

/* The drawn layouts' log figures into x, and the noise their halves show. */
static size_t logs_of(const double *q, const double *h1, const double *h2, size_t n, double *x,
		      struct cbench_layouts *out)
{
	double noise = 0;
	size_t k = 0, halves = 0;

	for (size_t i = 1; i < n; i++) {
		if (!(q[i] > 0))
			continue;
		x[k++] = log(q[i]);
		if (i == 1 || q[i] < out->fastest_ns) {
			out->fastest = i;
			out->fastest_ns = q[i];
		}
		if (i == 1 || q[i] > out->slowest_ns) {
			out->slowest = i;
			out->slowest_ns = q[i];
		}
		if (h1[i] > 0 && h2[i] > 0) {
			double d = log(h1[i]) - log(h2[i]);

			/* A figure of the whole has half the variance of a half's. */
			noise += d * d / 4;
			halves++;
		}
	}
	out->noise_sd = halves ? sqrt(noise / (double)halves) : NAN;
	return k;
}

int cbench_layouts_summarize(const double *q, const double *h1, const double *h2, size_t n,
			     double confidence, uint64_t seed, struct cbench_layouts *out)
{
	double *x = malloc((n ? n : 1) * sizeof(*x)), faster = 0;
	int ret = 0;

	if (!x)
		return -ENOMEM;
	*out = (struct cbench_layouts){ .sd = NAN, .sd_lower = NAN, .sd_upper = NAN, .noise_sd = NAN,
					.share = NAN, .median_ns = NAN, .fastest_ns = NAN,
					.slowest_ns = NAN, .loaded_ns = NAN, .loaded_rank = NAN };
	out->n = logs_of(q, h1, h2, n, x, out);
	if (out->n)
		out->median_ns = exp(cbench_stats_median(x, out->n));
	if (out->n >= CBENCH_LAYOUTS_MIN) {
		out->sd = sd_of(x, NULL, out->n);
		ret = bootstrap(x, out->n, confidence, seed, &out->sd_lower, &out->sd_upper);
		out->share = cbench_seq_share_beyond(out->sd * out->sd, out->noise_sd * out->noise_sd);
	}
	if (n && q[0] > 0) {
		out->loaded_ns = q[0];
		for (size_t i = 1; i < n; i++)
			faster += q[i] > 0 && q[i] < q[0];
		out->loaded_rank = out->n ? faster / (double)out->n : NAN;
	}
	free(x);
	return ret;
}
