// SPDX-License-Identifier: GPL-2.0
/* The spread over code layouts (stats/layouts.c), on known figures. */
#include <math.h>

#include <CUnit/CUnit.h>

#include "stats/layouts.h"

/* Two speeds, 10 and 20 ns, half the layouts each; the code as loaded at 20. */
static void two_speeds(void)
{
	double q[9] = { 20, 10, 20, 10, 20, 10, 20, 10, 20 };
	double h1[9], h2[9];
	struct cbench_layouts s;

	for (int i = 0; i < 9; i++) {
		h1[i] = q[i] * 1.01;
		h2[i] = q[i] / 1.01;
	}
	CU_ASSERT_EQUAL_FATAL(cbench_layouts_summarize(q, h1, h2, 9, 0.99, 1, &s), 0);
	CU_ASSERT_EQUAL(s.n, 8);
	/* log 2 apart, half and half: sd = log 2 / 2 * sqrt(8 / 7). */
	CU_ASSERT_DOUBLE_EQUAL(s.sd, log(2) / 2 * sqrt(8.0 / 7), 1e-12);
	CU_ASSERT(s.sd_lower <= s.sd && s.sd <= s.sd_upper);
	/* 8 layouts: a resample of one speed alone (0.8 %) is within 99 %. */
	CU_ASSERT(s.sd_lower >= 0);
	CU_ASSERT_DOUBLE_EQUAL(s.median_ns, sqrt(200), 1e-9);
	CU_ASSERT_EQUAL(s.fastest, 1);
	CU_ASSERT_EQUAL(s.slowest, 2);
	CU_ASSERT_DOUBLE_EQUAL(s.fastest_ns, 10, 0);
	CU_ASSERT_DOUBLE_EQUAL(s.loaded_ns, 20, 0);
	CU_ASSERT_DOUBLE_EQUAL(s.loaded_rank, 0.5, 1e-12);
	/* Halves 2 % apart: noise sd log(1.0201) / 2, a small share of it. */
	CU_ASSERT_DOUBLE_EQUAL(s.noise_sd, log(1.01 * 1.01) / 2, 1e-12);
	CU_ASSERT(s.share > 0.99);
}

/* A layout without a figure is left out; too few layouts give no spread. */
static void missing(void)
{
	double q[4] = { NAN, 10, NAN, 12 }, h[4] = { NAN, NAN, NAN, NAN };
	struct cbench_layouts s;

	CU_ASSERT_EQUAL_FATAL(cbench_layouts_summarize(q, h, h, 4, 0.99, 1, &s), 0);
	CU_ASSERT_EQUAL(s.n, 2);
	CU_ASSERT(isnan(s.sd) && isnan(s.sd_lower) && isnan(s.share) && isnan(s.loaded_ns));
	CU_ASSERT_EQUAL(s.slowest, 3);
	CU_ASSERT(isnan(s.noise_sd));
}

/* The same figures, the same seed: the same interval. */
static void replays(void)
{
	double q[7] = { 5, 5, 6, 7, 5.5, 6.5, 8 };
	struct cbench_layouts a, b;

	cbench_layouts_summarize(q, q, q, 7, 0.9, 42, &a);
	cbench_layouts_summarize(q, q, q, 7, 0.9, 42, &b);
	CU_ASSERT_DOUBLE_EQUAL(a.sd_lower, b.sd_lower, 0);
	CU_ASSERT_DOUBLE_EQUAL(a.sd_upper, b.sd_upper, 0);
	/* Halves equal to the whole: no noise, all of it the layouts'. */
	CU_ASSERT_DOUBLE_EQUAL(a.noise_sd, 0, 0);
	CU_ASSERT_DOUBLE_EQUAL(a.share, 1, 0);
}

static CU_TestInfo layouts_tests[] = {
	{ "two speeds: spread, interval, fastest, as loaded", two_speeds },
	{ "layouts without a figure, too few for a spread", missing },
	{ "a seed replays its interval", replays },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_layouts_suites[] = {
	{ "layouts", NULL, NULL, NULL, NULL, layouts_tests },
	CU_SUITE_INFO_NULL,
};
