// SPDX-License-Identifier: GPL-2.0
/* Statistics against values computed by hand (and checked with R). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "stats.h"

static const double five[] = { 4, 1, 3, 2, 5 };
static const double six[] = { 10, 2, 4, 4, 4, 6 };

static void empty_is_nan(void)
{
	CU_ASSERT(isnan(cbench_stats_min(five, 0)));
	CU_ASSERT(isnan(cbench_stats_max(five, 0)));
	CU_ASSERT(isnan(cbench_stats_mean(five, 0)));
	CU_ASSERT(isnan(cbench_stats_median(five, 0)));
	CU_ASSERT(isnan(cbench_stats_stddev(five, 0)));
	CU_ASSERT(isnan(cbench_stats_cv(five, 0)));
}

static void one_value(void)
{
	double v = 7.5;

	CU_ASSERT_DOUBLE_EQUAL(cbench_stats_min(&v, 1), 7.5, 0);
	CU_ASSERT_DOUBLE_EQUAL(cbench_stats_median(&v, 1), 7.5, 0);
	CU_ASSERT_DOUBLE_EQUAL(cbench_stats_quantile(&v, 1, 0.9), 7.5, 0);
	CU_ASSERT_DOUBLE_EQUAL(cbench_stats_stddev(&v, 1), 0, 0);
	CU_ASSERT_DOUBLE_EQUAL(cbench_stats_cv(&v, 1), 0, 0);
}

static void known_values(void)
{
	CU_ASSERT_DOUBLE_EQUAL(cbench_stats_min(five, 5), 1, 0);
	CU_ASSERT_DOUBLE_EQUAL(cbench_stats_max(five, 5), 5, 0);
	CU_ASSERT_DOUBLE_EQUAL(cbench_stats_mean(five, 5), 3, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(cbench_stats_median(five, 5), 3, 1e-12);
	/* sd(c(4,1,3,2,5)) = sqrt(2.5) */
	CU_ASSERT_DOUBLE_EQUAL(cbench_stats_stddev(five, 5), sqrt(2.5), 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(cbench_stats_cv(five, 5), sqrt(2.5) / 3, 1e-12);
	/* Even count: median averages the middle two. */
	CU_ASSERT_DOUBLE_EQUAL(cbench_stats_median(six, 6), 4, 1e-12);
	/* quantile(c(10,2,4,4,4,6), 0.9, type = 7) = 8 */
	CU_ASSERT_DOUBLE_EQUAL(cbench_stats_quantile(six, 6, 0.9), 8, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(cbench_stats_quantile(six, 6, 0), 2, 0);
	CU_ASSERT_DOUBLE_EQUAL(cbench_stats_quantile(six, 6, 1), 10, 0);
	CU_ASSERT(isnan(cbench_stats_quantile(six, 6, 1.5)));
	/* sd(c(10,2,4,4,4,6)) = sqrt(7.6) */
	CU_ASSERT_DOUBLE_EQUAL(cbench_stats_stddev(six, 6), sqrt(7.6), 1e-12);
}

static void input_untouched(void)
{
	double v[] = { 3, 1, 2 };

	cbench_stats_median(v, 3);
	CU_ASSERT(v[0] == 3 && v[1] == 1 && v[2] == 2);
}

static void tiny_spread_is_exact(void)
{
	/* A one-pass formula loses this spread to cancellation. */
	double v[] = { 1e9 + 1, 1e9 + 2, 1e9 + 3 };

	CU_ASSERT_DOUBLE_EQUAL(cbench_stats_stddev(v, 3), 1, 1e-6);
}

static void zero_mean_cv_is_nan(void)
{
	double v[] = { -1, 1 };

	CU_ASSERT(isnan(cbench_stats_cv(v, 2)));
}

static void mann_whitney(void)
{
	static const double lo[] = { 1, 2, 3, 4, 5 }, hi[] = { 6, 7, 8, 9, 10 };
	static const double x[] = { 1.1, 2.2, 3.3, 4.4 }, y[] = { 0.8, 2.2, 2.5, 5.0, 3.9 };
	static const double same[] = { 2, 2, 2 };
	static const double ta[] = { 1, 2, 2, 3, 7, 8 }, tb[] = { 4, 5, 6, 6, 9, 10, 11 };

	/* R: wilcox.test(1:5, 6:10, exact = FALSE)$p.value = 0.01219 */
	CU_ASSERT_DOUBLE_EQUAL(cbench_stats_mann_whitney_p(lo, 5, hi, 5), 0.0121851, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(cbench_stats_mann_whitney_p(hi, 5, lo, 5), 0.0121851, 1e-6);
	/* U = 9.5 is within the continuity correction of its mean 10: p = 1. */
	CU_ASSERT_DOUBLE_EQUAL(cbench_stats_mann_whitney_p(x, 4, y, 5), 1.0, 1e-12);
	/* Ties: ranks by hand give U = 8, mean 21, variance
	 * 3.5 (14 - 12 / 156): z = -12.5 / 6.98074, p = 0.0733510. */
	CU_ASSERT_DOUBLE_EQUAL(cbench_stats_mann_whitney_p(ta, 6, tb, 7), 0.0733510, 1e-6);
	/* Too few values, or nothing but ties: no answer. */
	CU_ASSERT(isnan(cbench_stats_mann_whitney_p(lo, 1, hi, 5)));
	CU_ASSERT(isnan(cbench_stats_mann_whitney_p(same, 3, same, 3)));
}


/* A deterministic generator for the synthetic streams below. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static double uniform(void)
{
	return (double)(rng() >> 11) * (1.0 / 9007199254740992.0);
}

/*
 * Reads of a counter that advances in steps of `step` around regions of
 * spread-out length (as calibration times a spin of varying length), with
 * one read in `stray_every` landing off the grid.
 */
static void stepped_deltas(uint64_t *d, size_t n, uint64_t step, size_t stray_every)
{
	for (size_t i = 0; i < n; i++) {
		double start = uniform() * 1e6, len = 40 + uniform() * 5000;
		uint64_t a = (uint64_t)(start / (double)step) * step;
		uint64_t z = (uint64_t)((start + len) / (double)step) * step;

		d[i] = z - a;
		if (stray_every && i % stray_every == stray_every / 2)
			d[i] = 1 + rng() % (step > 1 ? step - 1 : 1);
	}
}

static void step_detection(void)
{
	static uint64_t d[20000];
	static const uint64_t steps[] = { 1, 26, 36 };

	for (size_t s = 0; s < sizeof(steps) / sizeof(steps[0]); s++) {
		stepped_deltas(d, 20000, steps[s], 0);
		CU_ASSERT_EQUAL(cbench_stats_step(d, 20000), steps[s]);
		/* One stray in a thousand, and one in twenty: the step stays. */
		stepped_deltas(d, 20000, steps[s], 1000);
		CU_ASSERT_EQUAL(cbench_stats_step(d, 20000), steps[s]);
		stepped_deltas(d, 20000, steps[s], 20);
		CU_ASSERT_EQUAL(cbench_stats_step(d, 20000), steps[s]);
	}
	/* The histogram the issue saw: 26 and 52, and one stray 1. */
	for (size_t i = 0; i < 1000; i++)
		d[i] = i % 3 ? 26 : 52;
	d[500] = 1;
	CU_ASSERT_EQUAL(cbench_stats_step(d, 1000), 26);
	/* Zeros say nothing; nothing positive gives 0. */
	memset(d, 0, 10 * sizeof(d[0]));
	CU_ASSERT_EQUAL(cbench_stats_step(d, 10), 0);
	d[3] = 7;
	CU_ASSERT_EQUAL(cbench_stats_step(d, 10), 7);
	CU_ASSERT_EQUAL(cbench_stats_step(d, 0), 0);
}

/*
 * A region of true length T read on a timer of step s at a random phase,
 * plus the delays a busy machine adds to 30% of the reads.  The minimum
 * of the rounded values is short by frac(T/s) steps; the floor mean must
 * be within 0.05% of T, for many fractions.
 */
static void floor_mean_bias(void)
{
	enum { N = 4000 };
	static double v[N];
	const double step = 26;
	double worst_min = 0, worst_floor = 0;

	for (int f = 1; f < 10; f++) {
		double t = (400 + f / 10.0) * step;

		for (size_t i = 0; i < N; i++) {
			double phase = uniform() * step, len = t;

			if (uniform() < 0.3)
				len += -log(1 - uniform()) * 5 * step;	/* exponential delay */
			v[i] = (floor((phase + len) / step) - floor(phase / step)) * step;
		}
		worst_min = fmax(worst_min, fabs(cbench_stats_min(v, N) / t - 1));
		worst_floor = fmax(worst_floor, fabs(cbench_stats_floor_mean(v, N, step) / t - 1));
	}
	printf("\n    rounding bias on a 26-tick step, 400 steps long: min %.4f%%, floor mean %.4f%% ",
	       100 * worst_min, 100 * worst_floor);
	CU_ASSERT(worst_min > 0.0005);		/* the problem is real */
	CU_ASSERT(worst_floor < 0.0005);	/* and solved */
	/* No step: the minimum. */
	CU_ASSERT_DOUBLE_EQUAL(cbench_stats_floor_mean(v, N, 0), cbench_stats_min(v, N), 0);
	CU_ASSERT(isnan(cbench_stats_floor_mean(v, 0, step)));
}

static CU_TestInfo stats_tests[] = {
	{ "timer step from spread-out deltas", step_detection },
	{ "floor mean: rounding bias under 0.05%", floor_mean_bias },
	{ "Mann-Whitney U p-values", mann_whitney },
	{ "empty input gives NAN", empty_is_nan },
	{ "one value", one_value },
	{ "known values", known_values },
	{ "input is not modified", input_untouched },
	{ "tiny spread next to a large mean", tiny_spread_is_exact },
	{ "cv of zero mean is NAN", zero_mean_cv_is_nan },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_stats_suites[] = {
	{ "stats", NULL, NULL, NULL, NULL, stats_tests },
	CU_SUITE_INFO_NULL,
};
