// SPDX-License-Identifier: GPL-2.0
/*
 * `cbenchctl doctor`'s report (report/report_doctor.c), text and JSON, for
 * a fixed list of checks, against the golden files tests/golden/doctor-*:
 * every verdict, a fix shown and a fix only the JSON has (an ok check's),
 * each kind of extra member (a large integer, a fraction, a whole double,
 * a non-finite one, a boolean), text that JSON must escape, and no check.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <CUnit/CUnit.h>

#include "golden.h"
#include "report/report_doctor.h"

static struct cbench_doctor_report report;

static void fill(void)
{
	struct cbench_doctor_check *c;

	report = (struct cbench_doctor_report){ .cpu = 3 };
	cbench_doctor_add(&report, "cpu", "CPU", CBENCH_VERDICT_OK, NULL, "CPU %d is online", 3);
	c = cbench_doctor_add(&report, "module", "cbench.ko", CBENCH_VERDICT_FAIL,
			      "load the cbench.ko built from the same tree as this cbenchctl",
			      "%s runs benchmark ABI %d, this cbenchctl %d", "0.1.0", 2, 3);
	cbench_doctor_extra_int(c, "protocol", 1);
	cbench_doctor_extra_int(c, "abi", 2);
	c = cbench_doctor_add(&report, "taint", "kernel taint", CBENCH_VERDICT_OK,
			      "only the JSON shows an ok check's fix",
			      "no oops or warning since boot (tainted %llu)", 18014398509481985ULL);
	cbench_doctor_extra_int(c, "tainted", 18014398509481985LL);
	c = cbench_doctor_add(&report, "pmu", "PMU", CBENCH_VERDICT_WARN, NULL,
			      "no PMU: \"TSC\" only \\ a tab\there, caf\u00e9");
	cbench_doctor_extra_int(c, "pmu_version", 0);
	cbench_doctor_extra_bool(c, "perf_hardware", false);
	cbench_doctor_extra_bool(c, "isolcpus", true);
	c = cbench_doctor_add(&report, "clock_drift", "clock drift", CBENCH_VERDICT_WARN,
			      "governor performance and boost off (cbenchctl lab setup)",
			      "%.3f-%.3f GHz over %u readings in %.1f s: %.2f %%", 2.9, 3.1, 50u, 2.5,
			      6.9);
	cbench_doctor_extra_int(c, "readings", 50);
	cbench_doctor_extra_double(c, "ghz_min", 2.9);
	cbench_doctor_extra_double(c, "ghz_max", 3.0);
	cbench_doctor_extra_double(c, "spread", NAN);
	/* A fifth extra is dropped. */
	cbench_doctor_extra_int(c, "dropped", 5);
	cbench_doctor_add(&report, "a_check_with_a_long_key", "a title longer than its column",
			  CBENCH_VERDICT_WARN, "", "an empty fix is no fix");
}

struct render_arg {
	const struct cbench_doctor_report *r;
	bool json;
};

static void render(FILE *f, const void *arg)
{
	const struct render_arg *a = arg;

	cbench_doctor_print(a->r, f, a->json);
}

static void check(const char *name, const struct cbench_doctor_report *r)
{
	struct render_arg arg = { r, false };
	char path[64];
	char *text;

	snprintf(path, sizeof(path), "doctor-%s.txt", name);
	text = golden_render(render, &arg);
	golden_check(path, text);
	free(text);
	arg.json = true;
	snprintf(path, sizeof(path), "doctor-%s.json", name);
	text = golden_render(render, &arg);
	golden_check(path, text);
	free(text);
}

static void checks(void)
{
	fill();
	check("checks", &report);
}

static void no_check(void)
{
	struct cbench_doctor_report none = { .cpu = 0 };

	check("none", &none);
}

/* Past the last slot, the last check is overwritten. */
static void full(void)
{
	fill();
	for (int i = 0; i < CBENCH_DOCTOR_CHECKS_MAX + 2; i++)
		cbench_doctor_add(&report, "n", "n", CBENCH_VERDICT_OK, NULL, "%d", i);
	CU_ASSERT_EQUAL(report.nchecks, CBENCH_DOCTOR_CHECKS_MAX);
	CU_ASSERT_STRING_EQUAL(report.checks[CBENCH_DOCTOR_CHECKS_MAX - 1].detail, "33");
}

static CU_TestInfo doctor_tests[] = {
	{ "checks, text and JSON as the golden files", checks },
	{ "no check", no_check },
	{ "more checks than slots", full },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_report_doctor_suites[] = {
	{ "report_doctor", NULL, NULL, NULL, NULL, doctor_tests },
	CU_SUITE_INFO_NULL,
};
