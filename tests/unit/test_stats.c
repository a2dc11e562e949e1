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

static CU_TestInfo stats_tests[] = {
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
