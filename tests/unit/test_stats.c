// SPDX-License-Identifier: GPL-2.0
/* Statistics against values computed by hand (and checked with R). */
#include <math.h>

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

static CU_TestInfo stats_tests[] = {
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
