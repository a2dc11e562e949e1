// SPDX-License-Identifier: GPL-2.0
/* Statistics against values computed by hand (and checked with R). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "stats/stats.h"

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
	/* Six equal values sum to a little under six of them: the mean is
	 * never under the minimum for it. */
	for (int i = 0; i < 6; i++)
		v[i] = 0.3082499691294892;
	CU_ASSERT(cbench_stats_floor_mean(v, 6, 1e-3) >= cbench_stats_min(v, 6));
}

static void t_distribution(void)
{
	static const double ts[] = { -30, -2.5, -0.3, 0, 0.7, 1.9, 12 };
	static const double ps[] = { 0.001, 0.05, 0.3, 0.5, 0.9, 0.975, 0.9995 };

	/* One and two degrees of freedom have closed forms: Cauchy, and
	 * 1/2 + t / (2 sqrt(2 + t^2)), the root by hypot(). */
	for (size_t i = 0; i < sizeof(ts) / sizeof(ts[0]); i++) {
		double t = ts[i];

		CU_ASSERT_DOUBLE_EQUAL(cbench_stats_t_cdf(t, 1), 0.5 + atan(t) / M_PI, 1e-12);
		CU_ASSERT_DOUBLE_EQUAL(cbench_stats_t_cdf(t, 2), 0.5 + t / (2 * hypot(M_SQRT2, t)), 1e-12);
	}
	/* R: qt(0.975, c(1, 2, 5, 10, 30)) */
	CU_ASSERT_DOUBLE_EQUAL(cbench_stats_t_quantile(0.975, 1), 12.7062047361747, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(cbench_stats_t_quantile(0.975, 2), 4.30265272974946, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(cbench_stats_t_quantile(0.975, 5), 2.57058183563631, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(cbench_stats_t_quantile(0.975, 10), 2.22813885198627, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(cbench_stats_t_quantile(0.025, 30), -2.04227245630124, 1e-9);
	/* Many degrees of freedom: the normal distribution. */
	CU_ASSERT_DOUBLE_EQUAL(cbench_stats_t_cdf(1.959963984540054, 1e9), 0.975, 1e-7);
	/* The quantile inverts the cdf, whole or not. */
	for (size_t i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
		for (double df = 1.3; df < 60; df *= 2.7)
			CU_ASSERT_DOUBLE_EQUAL(cbench_stats_t_cdf(cbench_stats_t_quantile(ps[i], df), df),
					       ps[i], 1e-11);
	}
	CU_ASSERT(isnan(cbench_stats_t_cdf(1, 0)));
	CU_ASSERT(isnan(cbench_stats_t_quantile(1, 4)));
	CU_ASSERT(isnan(cbench_stats_t_quantile(0.5, -1)));
	CU_ASSERT_DOUBLE_EQUAL(cbench_stats_t_cdf(-INFINITY, 3), 0, 0);
}

static void welch_known(void)
{
	/* Student's sleep data, both groups. */
	static const double g1[] = { 0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0 };
	static const double g2[] = { 1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4 };
	static const double two[] = { 1, 1 }, other[] = { 2, 2 };
	struct cbench_welch w;

	/* R: t.test(g2, g1): t = 1.8608, df = 17.776, p = 0.07939,
	 * 95 percent interval -0.2054832 to 3.3654832. */
	cbench_stats_welch(g1, 10, g2, 10, 0, 0.95, &w);
	CU_ASSERT_DOUBLE_EQUAL(w.diff, 1.58, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(w.diff / w.se, 1.860813, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(w.df, 17.77647, 1e-5);
	CU_ASSERT_DOUBLE_EQUAL(w.p, 0.07939414, 1e-7);
	CU_ASSERT_DOUBLE_EQUAL(w.lo, -0.2054832, 1e-7);
	CU_ASSERT_DOUBLE_EQUAL(w.hi, 3.3654832, 1e-7);
	/* Swapped: the same test, the other sign. */
	cbench_stats_welch(g2, 10, g1, 10, 0, 0.95, &w);
	CU_ASSERT_DOUBLE_EQUAL(w.lo, -3.3654832, 1e-7);
	CU_ASSERT_DOUBLE_EQUAL(w.p, 0.07939414, 1e-7);
	/* One value on a side: no test. */
	cbench_stats_welch(g1, 1, g2, 10, 0, 0.95, &w);
	CU_ASSERT(isnan(w.p) && isnan(w.diff) && isnan(w.lo));
	/* Constant sides: equal is p = 1; apart is p = 0 without min_var,
	 * and weighed against min_var with it. */
	cbench_stats_welch(two, 2, two, 2, 0, 0.95, &w);
	CU_ASSERT(w.p == 1 && w.lo == 0 && w.hi == 0);
	cbench_stats_welch(two, 2, other, 2, 0, 0.95, &w);
	CU_ASSERT(w.p == 0);
	/* min_var 1: se = 1, df = 2, t = 1: p = 1 - 1 / sqrt(3). */
	cbench_stats_welch(two, 2, other, 2, 1, 0.95, &w);
	CU_ASSERT_DOUBLE_EQUAL(w.p, 1 - 1 / sqrt(3), 1e-12);
}

static double gaussian(void)
{
	return sqrt(-2 * log(1 - uniform())) * cos(2 * M_PI * uniform());
}

/*
 * What compare faces: runs whose trials share a run effect (the clock of
 * the moment) as large as the trials' own spread.  Each run's value is its
 * least trial; Welch's test over k such values per side must call at most
 * alpha of A/A pairs different, and still see a true shift.
 */
static void welch_on_runs(void)
{
	enum { SIMS = 20000, TRIALS = 10 };

	for (size_t k = 2; k <= 5; k++) {
		size_t false_calls = 0, found = 0;

		for (int s = 0; s < SIMS; s++) {
			double side[2][5];
			struct cbench_welch w;

			for (int b = 0; b < 2; b++) {
				for (size_t r = 0; r < k; r++) {
					double run = gaussian(), best = INFINITY;

					for (int t = 0; t < TRIALS; t++)
						best = fmin(best, run + gaussian());
					side[b][r] = best;
				}
			}
			cbench_stats_welch(side[0], k, side[1], k, 0, 0.95, &w);
			false_calls += w.p < 0.05;
			/* The same runs with B shifted by 4 run spreads. */
			for (size_t r = 0; r < k; r++)
				side[1][r] += 4;
			cbench_stats_welch(side[0], k, side[1], k, 0, 0.95, &w);
			found += w.p < 0.05 && w.lo > 0;
		}
		printf("\n    %zu runs a side: A/A called different in %.2f%%, a shift found in %.1f%% ", k,
		       100.0 * (double)false_calls / SIMS, 100.0 * (double)found / SIMS);
		CU_ASSERT((double)false_calls / SIMS <= 0.055);
		CU_ASSERT((double)found / SIMS >= (k == 2 ? 0.2 : 0.6));
	}
}

static CU_TestInfo stats_tests[] = {
	{ "timer step from spread-out deltas", step_detection },
	{ "floor mean: rounding bias under 0.05%", floor_mean_bias },
	{ "Student's t distribution", t_distribution },
	{ "Welch's t test: known values", welch_known },
	{ "Welch's t test over runs holds alpha", welch_on_runs },
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
