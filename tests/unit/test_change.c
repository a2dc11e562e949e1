// SPDX-License-Identifier: GPL-2.0
/*
 * A benchmark's change run against run (stats/change.c), on runs whose
 * answer is known: the geometric means, Welch's interval on the logs, and
 * each verdict by audit's rules, including what --min-effect alone made
 * equal.
 */
#include <math.h>

#include <CUnit/CUnit.h>

#include "stats/change.h"

static struct cbench_change test(const double *a, size_t na, const double *b, size_t nb, double e)
{
	struct cbench_change c;

	CU_ASSERT_EQUAL_FATAL(cbench_change_test(a, na, b, nb, 0, e, &c), 0);
	return c;
}

static void means_and_interval(void)
{
	static const double a[] = { 1.0, 1.0201, 0.9801 }, b[] = { 2.0, 2.0402, 1.9602 };
	struct cbench_change c = test(a, 3, b, 3, 0.002);

	/* b is a exactly doubled: the change is +100 %, tested on the logs. */
	CU_ASSERT_DOUBLE_EQUAL(c.change, 1.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(c.new_ns / c.old_ns, 2.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(c.old_ns, cbrt(1.0 * 1.0201 * 0.9801), 1e-12);
	CU_ASSERT_TRUE(c.lo < 1.0 && c.hi > 1.0 && c.lo > 0.9 && c.hi < 1.1);
	CU_ASSERT_TRUE(c.p < 1e-4);
	CU_ASSERT_EQUAL(c.verdict, CBENCH_CHANGE_SLOWER);
	CU_ASSERT_EQUAL(c.under_min_effect, 0);
	/* And turned round: faster by half. */
	c = test(b, 3, a, 3, 0.002);
	CU_ASSERT_DOUBLE_EQUAL(c.change, -0.5, 1e-12);
	CU_ASSERT_EQUAL(c.verdict, CBENCH_CHANGE_FASTER);
}

static void one_run_a_side(void)
{
	static const double a[] = { 1.0 }, b[] = { 1.05, 1.06 };
	struct cbench_change c = test(a, 1, b, 2, 0.002);

	CU_ASSERT_DOUBLE_EQUAL(c.change, expm1(0.5 * (log(1.05) + log(1.06))), 1e-12);
	CU_ASSERT_TRUE(isnan(c.lo) && isnan(c.hi) && isnan(c.p));
	CU_ASSERT_EQUAL(c.verdict, CBENCH_CHANGE_UNDECIDED);
}

static void verdicts_by_min_effect(void)
{
	/* +5 % with a narrow interval: slower, and at --min-effect 10 equal,
	 * only because of the threshold. */
	static const double a[] = { 1.000, 1.001, 1.002 }, b[] = { 1.050, 1.051, 1.052 };
	static const double same[] = { 1.0001, 1.0002, 1.0003 }, turned[] = { 1.0003, 1.0002, 1.0001 };
	struct cbench_change c = test(a, 3, b, 3, 0.002);

	CU_ASSERT_EQUAL(c.verdict, CBENCH_CHANGE_SLOWER);
	c = test(a, 3, b, 3, 0.10);
	CU_ASSERT_EQUAL(c.verdict, CBENCH_CHANGE_EQUAL);
	CU_ASSERT_EQUAL(c.under_min_effect, 1);
	c = test(b, 3, a, 3, 0.10);
	CU_ASSERT_EQUAL(c.verdict, CBENCH_CHANGE_EQUAL);
	CU_ASSERT_EQUAL(c.under_min_effect, -1);
	/* Smaller than 10 % but the interval reaches past it: small. */
	c = test(a, 3, b, 3, 0.0501);
	CU_ASSERT_EQUAL(c.verdict, CBENCH_CHANGE_SMALL);
	/* No difference, within the threshold: equal, and no real change. */
	c = test(same, 3, turned, 3, 0.002);
	CU_ASSERT_DOUBLE_EQUAL(c.p, 1.0, 1e-12);
	CU_ASSERT_EQUAL(c.verdict, CBENCH_CHANGE_EQUAL);
	CU_ASSERT_EQUAL(c.under_min_effect, 0);
	/* Without a threshold nothing is equal: no difference shown. */
	c = test(same, 3, turned, 3, 0);
	CU_ASSERT_EQUAL(c.verdict, CBENCH_CHANGE_NONE);
}

static CU_TestInfo change_tests[] = {
	{ "geometric means, the change and its interval on the logs", means_and_interval },
	{ "one run a side: a change, no interval, no verdict", one_run_a_side },
	{ "verdicts by --min-effect, and what it alone made equal", verdicts_by_min_effect },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_change_suites[] = {
	{ "change", NULL, NULL, NULL, NULL, change_tests },
	CU_SUITE_INFO_NULL,
};
