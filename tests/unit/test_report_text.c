// SPDX-License-Identifier: GPL-2.0
/*
 * The summary table (report_table.c) and the raw-samples CSV
 * (report_csv.c), rendered from a small report whose every line is known.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "machine/reference.h"
#include "report/report.h"

static const struct cbench_desc chain = { .name = "add_chain", .ops_per_rep = 1000 };
static struct cbench_experiment experiment;
static struct cbench_sample samples[2], refs[1];
static struct cbench_trial trials[2];
static struct cbench_result result;
static struct cbench_report report;

/* AddChain: one good trial (two measurements, one disturbed; one reference
 * measurement), one failed trial. */
static void build(void)
{
	memset(&report, 0, sizeof(report));
	report.timer.tsc_hz = 1e9;	/* a tick is a nanosecond */
	report.timer.step_ticks = 1;
	report.timer.ref_reps = 2;
	experiment = (struct cbench_experiment){ .desc = &chain, .id = "add_chain",
						 .report_name = "BenchmarkAddChain" };
	samples[0] = (struct cbench_sample){ .reps = 10, .ticks = 5000 };
	samples[1] = (struct cbench_sample){ .reps = 10, .ticks = 9000, .disturbed = CBENCH_DISTURB_CSWITCH };
	refs[0] = (struct cbench_sample){ .reps = 2, .ticks = 1000 };
	trials[0] = (struct cbench_trial){ .n = 10, .samples = samples, .nsamples = 2,
					   .ref_samples = refs, .nref_samples = 1 };
	trials[1] = (struct cbench_trial){ .n = 10, .error = -4 };
	strcpy(trials[1].reason, "worker killed by signal SIGSEGV");
	result = (struct cbench_result){ .exp = &experiment, .tuning = "tuned", .n = 10,
					 .trials = trials, .ntrials = 2 };
	report.results = &result;
	report.nresults = 1;
	cbench_report_summarize(&report);
}

static char *render(bool table, bool colour)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	CU_ASSERT_FATAL(f != NULL);
	if (table)
		cbench_report_table(&report, f, colour);
	else
		CU_ASSERT_EQUAL(cbench_report_csv(&report, f), 0);
	fclose(f);
	return buf;
}

static void table_lines(void)
{
	char *out;

	build();
	out = render(true, false);
	/* 5000 ns / 10 reps / 1000 ops; one of two measurements discarded; the
	 * interval is one trial's, one timer step (1 ns) of 5000 either way. */
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "benchmark    time/op  interval       cv  cycles/op discarded  trials tuning\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "AddChain      0.5 ns   \u00b10.020%   0.000%"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "50.00%   1/2   tuned\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "  trial 2 failed: worker killed by signal SIGSEGV\n"));
	/* The reference: 2 reps of 1000 adds in 1000 ns, 2 GHz. */
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "core clock 2.000 to 2.000 GHz over the run (0.00%)\n"));
	CU_ASSERT_PTR_NULL(strchr(out, '\033'));
	free(out);
	out = render(true, true);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\033[31m  1/2  \033[0m"));
	free(out);
}

static void colour_rules(void)
{
	int fds[2];

	CU_ASSERT_FATAL(pipe(fds) == 0);
	CU_ASSERT_FALSE(cbench_colour(fds[1]));		/* not a terminal */
	close(fds[0]);
	close(fds[1]);
	setenv("NO_COLOR", "1", 1);
	CU_ASSERT_FALSE(cbench_colour(STDIN_FILENO));	/* even if it were one */
	unsetenv("NO_COLOR");
}

static void csv_rows(void)
{
	static const char *const want =
		"benchmark,trial,measurement,reps,ticks,ns_per_op,disturbed,instructions,cycles,ref_cycles,kind,"
		"base,params\n"
		"BenchmarkAddChain,1,1,10,5000,0.500000,,,,,benchmark,BenchmarkAddChain,\n"
		"BenchmarkAddChain,1,2,10,9000,0.900000,context-switch,,,,benchmark,BenchmarkAddChain,\n"
		"BenchmarkAddChain,1,1,2,1000,0.500000,,,,,reference,BenchmarkAddChain,\n";
	char *out;

	build();
	out = render(false, false);
	CU_ASSERT_STRING_EQUAL(out, want);
	free(out);
}

static void scaled_units(void)
{
	static const struct {
		double ns;
		const char *want;
	} cases[] = {
		{ 0.308224, "0.30822 ns" }, { 999.994, "999.99 ns" }, { 40435.2, "40.435 µs" },
		{ 1.5e6, "1.5 ms" }, { 2.5e9, "2.5 s" }, { 7.2e12, "7200 s" }, { NAN, "-" },
	};
	char buf[32];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		CU_ASSERT_STRING_EQUAL(cbench_scale_ns(cases[i].ns, buf, sizeof(buf)), cases[i].want);
}

static CU_TestInfo report_text_tests[] = {
	{ "summary table", table_lines },
	{ "times scaled to ns, µs, ms, s", scaled_units },
	{ "colour: terminals only, never with NO_COLOR", colour_rules },
	{ "samples CSV", csv_rows },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_report_text_suites[] = {
	{ "report table and CSV", NULL, NULL, NULL, NULL, report_text_tests },
	CU_SUITE_INFO_NULL,
};
