// SPDX-License-Identifier: GPL-2.0
/*
 * The JUnit writer: names and reasons are bytes nobody vetted, so every
 * one must come out as XML 1.0 can hold it, escaped, and a benchmark with
 * a failed trial must be an error case.  (The whole report, byte for byte:
 * test_golden.c; against the schema: tests/run/run.sh.)
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "object/loader.h"
#include "report/report.h"

static const struct cbench_desc desc = { .name = "odd", .ops_per_rep = 1 };

static char *render(const char *id, const char *reason)
{
	static struct cbench_experiment exp;
	static struct cbench_trial trials[2];
	static struct cbench_result res;
	static struct cbench_report r;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	CU_ASSERT_FATAL(f != NULL);
	memset(&r, 0, sizeof(r));
	memset(trials, 0, sizeof(trials));
	exp = (struct cbench_experiment){ .desc = &desc, .report_name = "BenchmarkOdd" };
	snprintf(exp.id, sizeof(exp.id), "%s", id);
	trials[0] = (struct cbench_trial){ .ns_per_op = 2, .start_s = 1, .end_s = 1.25 };
	trials[1] = (struct cbench_trial){ .error = -5, .start_s = 2, .end_s = 2.5 };
	snprintf(trials[1].reason, sizeof(trials[1].reason), "%s", reason);
	res = (struct cbench_result){ .exp = &exp, .tuning = "tuned", .trials = trials, .ntrials = 2,
				      .failed = 1, .ns_per_op = 2, .ns_lo = NAN, .ns_hi = NAN,
				      .ns_coverage = NAN, .least_ns_per_op = NAN, .cv = NAN,
				      .est_cycles_per_op = NAN, .mb_per_s = NAN, .step_share = NAN,
				      .core_ghz_min = NAN, .core_ghz_max = NAN, .placement_share = NAN };
	r.results = &res;
	r.nresults = 1;
	r.backend = "user";
	r.version = "test";
	r.so_path = "/lab/odd<1>.so";
	r.build_id = "ab";
	strcpy(r.machine.hostname, "lab&1");
	CU_ASSERT_EQUAL(cbench_report_junit(&r, f), 0);
	CU_ASSERT_FATAL(fclose(f) == 0);
	return text;
}

/* No byte XML 1.0 refuses: C0 controls but tab and line breaks, DEL is allowed. */
static bool xml_bytes(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p < 0x20 && *p != '\t' && *p != '\n' && *p != '\r')
			return false;
	}
	return true;
}

static void escaped(void)
{
	char *x = render("a<b>&\"c'\x01" "d\xff" "e\tf", "died: <\x02]]> & \"quoted\"\nsecond line");

	CU_ASSERT_PTR_NOT_NULL(strstr(x, " name=\"a&lt;b&gt;&amp;&quot;c&apos;\xef\xbf\xbd" "d\xef\xbf\xbd" "e&#9;f\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(x, "classname=\"odd&lt;1&gt;\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(x, "hostname=\"lab&amp;1\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(x, "message=\"1 of 2 trials failed: died: &lt;\xef\xbf\xbd]]&gt; &amp; &quot;quoted&quot;&#10;second line\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(x, ">trial 2: died: &lt;\xef\xbf\xbd]]&gt; &amp; \"quoted\"\nsecond line\n</error>"));
	CU_ASSERT(xml_bytes(x));
	free(x);
}

static void failed_is_error(void)
{
	char *x = render("ok", "worker killed by signal SIGSEGV");

	CU_ASSERT_PTR_NOT_NULL(strstr(x, "tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\" time=\"0.750000\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(x, "<testcase classname=\"odd&lt;1&gt;\" name=\"ok\" time=\"0.750000\">"));
	CU_ASSERT_PTR_NOT_NULL(strstr(x, "<error message=\"1 of 2 trials failed: worker killed by signal SIGSEGV\" type=\"cbench.trial_failed\">"));
	/* Not available is absent, never 0. */
	CU_ASSERT_PTR_NULL(strstr(x, "\"cv_of_trials\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(x, "<property name=\"ns_per_op\" value=\"2\"/>"));
	free(x);
}

static CU_TestInfo junit_tests[] = {
	{ "names, reasons and paths escaped, what XML cannot hold replaced", escaped },
	{ "a failed trial makes its benchmark an error case", failed_is_error },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_report_junit_suites[] = {
	{ "report: JUnit", NULL, NULL, NULL, NULL, junit_tests },
	CU_SUITE_INFO_NULL,
};
