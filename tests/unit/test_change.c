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
	/* A real +5 % whose interval reaches across 5.01 %: not slower by it
	 * for sure, nor within it: unsettled. */
	c = test(a, 3, b, 3, 0.0501);
	CU_ASSERT_TRUE(c.lo > 0 && c.lo < 0.0501 && c.hi > 0.0501);
	CU_ASSERT_EQUAL(c.verdict, CBENCH_CHANGE_UNSETTLED);
	/* Slower means the whole interval past the bound: at 4.5 % it is. */
	c = test(a, 3, b, 3, 0.045);
	CU_ASSERT_TRUE(c.lo >= 0.045);
	CU_ASSERT_EQUAL(c.verdict, CBENCH_CHANGE_SLOWER);
	/* No difference, within the threshold: equal, and no real change. */
	c = test(same, 3, turned, 3, 0.002);
	CU_ASSERT_DOUBLE_EQUAL(c.p, 1.0, 1e-12);
	CU_ASSERT_EQUAL(c.verdict, CBENCH_CHANGE_EQUAL);
	CU_ASSERT_EQUAL(c.under_min_effect, 0);
	/* Without a threshold nothing is equal: no difference shown. */
	c = test(same, 3, turned, 3, 0);
	CU_ASSERT_EQUAL(c.verdict, CBENCH_CHANGE_NONE);
}

/*
 * The rule and the words are one: slower only where the whole interval lies
 * past +min_effect, as an audit's "B slower by 0.20 % [0.03 %, 0.37 %]" at
 * 0.2 % is not; and a gate fails on that, passes what the interval shows
 * within the bound, and is undecided about the rest.
 */
static void interval_rule_and_gate(void)
{
	const double e = 0.002;

	CU_ASSERT_EQUAL(cbench_change_verdict_of(0.0003, 0.0037, e), CBENCH_CHANGE_UNSETTLED);
	CU_ASSERT_EQUAL(cbench_change_verdict_of(0.0021, 0.0037, e), CBENCH_CHANGE_SLOWER);
	CU_ASSERT_EQUAL(cbench_change_verdict_of(-0.0037, -0.0021, e), CBENCH_CHANGE_FASTER);
	CU_ASSERT_EQUAL(cbench_change_verdict_of(-0.0019, 0.0019, e), CBENCH_CHANGE_EQUAL);
	CU_ASSERT_EQUAL(cbench_change_verdict_of(-0.001, 0.003, e), CBENCH_CHANGE_NONE);
	CU_ASSERT_EQUAL(cbench_change_verdict_of(NAN, NAN, e), CBENCH_CHANGE_UNDECIDED);
	/* With no bound, any interval clear of 0. */
	CU_ASSERT_EQUAL(cbench_change_verdict_of(0.00001, 0.0001, 0), CBENCH_CHANGE_SLOWER);
	CU_ASSERT_EQUAL(cbench_change_verdict_of(-0.0001, 0.0001, 0), CBENCH_CHANGE_NONE);
	/* The gate, for slower. */
	CU_ASSERT_EQUAL(cbench_change_gate(0.0021, 0.0037, e, false), CBENCH_GATE_FAIL);
	CU_ASSERT_EQUAL(cbench_change_gate(0.0003, 0.0037, e, false), CBENCH_GATE_UNDECIDED);
	CU_ASSERT_EQUAL(cbench_change_gate(-0.001, 0.003, e, false), CBENCH_GATE_UNDECIDED);
	CU_ASSERT_EQUAL(cbench_change_gate(-0.001, 0.0019, e, false), CBENCH_GATE_PASS);
	CU_ASSERT_EQUAL(cbench_change_gate(-0.01, 0.001, e, false), CBENCH_GATE_PASS);
	CU_ASSERT_EQUAL(cbench_change_gate(-0.01, -0.005, e, false), CBENCH_GATE_PASS);
	CU_ASSERT_EQUAL(cbench_change_gate(NAN, NAN, e, false), CBENCH_GATE_UNDECIDED);
	/* For changed: a speed-up fails it, and only an interval within
	 * +-min_effect passes. */
	CU_ASSERT_EQUAL(cbench_change_gate(-0.01, -0.005, e, true), CBENCH_GATE_FAIL);
	CU_ASSERT_EQUAL(cbench_change_gate(-0.01, 0.001, e, true), CBENCH_GATE_UNDECIDED);
	CU_ASSERT_EQUAL(cbench_change_gate(-0.001, 0.0019, e, true), CBENCH_GATE_PASS);
	/* Without a bound a gate can fail or be undecided, never pass an
	 * interval that holds 0. */
	CU_ASSERT_EQUAL(cbench_change_gate(-0.0001, 0.0001, 0, false), CBENCH_GATE_UNDECIDED);
}

static CU_TestInfo change_tests[] = {
	{ "the interval decides: verdicts and the gate", interval_rule_and_gate },
	{ "geometric means, the change and its interval on the logs", means_and_interval },
	{ "one run a side: a change, no interval, no verdict", one_run_a_side },
	{ "verdicts by --min-effect, and what it alone made equal", verdicts_by_min_effect },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_change_suites[] = {
	{ "change", NULL, NULL, NULL, NULL, change_tests },
	CU_SUITE_INFO_NULL,
};
