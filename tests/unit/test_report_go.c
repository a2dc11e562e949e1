// SPDX-License-Identifier: GPL-2.0
/* The Go benchmark data format writer: benchstat-valid lines. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "object/loader.h"
#include "report/report.h"

static const struct cbench_desc desc_plain = {
	.abi_version = CBENCH_ABI_VERSION, .desc_bytes = sizeof(struct cbench_desc),
	.name = "add_chain", .ops_per_rep = 1000,
};
static const struct cbench_desc desc_bytes = {
	.abi_version = CBENCH_ABI_VERSION, .desc_bytes = sizeof(struct cbench_desc),
	.name = "copy", .param_name = "size", .bytes_per_rep = 1, .flags = CBENCH_F_BYTES_PER_PARAM,
};

static struct cbench_experiment exps[2];
static struct cbench_sample samples[3][3];
static struct cbench_trial trials[2][2];
static struct cbench_result results[2];
static struct cbench_report report;

/* A report with: AddChain (2 good trials, est-cycles, one disturbed sample),
 * Copy/size=4096 (1 good trial with instructions counted, 1 failed). */
static void build(double est_cycles_per_tick)
{
	memset(&report, 0, sizeof(report));
	strcpy(report.machine.cpu_vendor, "AuthenticAMD");
	strcpy(report.machine.cpu_name, "AMD EPYC");
	strcpy(report.machine.kernel_release, "6.1.0-test");
	strcpy(report.machine.hostname, "host");
	report.machine.cpus_online = 2;
	report.backend = "user";
	report.version = "test";
	report.so_path = "/tmp/suite.so";
	report.build_id = "abcdef";
	report.timer.tsc_hz = 1e9;	/* 1 tick = 1 ns */
	report.timer.est_cycles_per_tick = est_cycles_per_tick;
	strcpy(report.timer.name, "tsc");
	strcpy(report.env.disturb_source, "perf");
	report.env.perf_hw_error = -2;

	exps[0] = (struct cbench_experiment){ .desc = &desc_plain, .id = "add_chain",
					      .report_name = "BenchmarkAddChain" };
	exps[1] = (struct cbench_experiment){ .desc = &desc_bytes, .param = 4096, .has_param = 1,
					      .args = { { .key = "size", .i = 4096 } }, .nargs = 1, .size_arg = 1,
					      .id = "copy/size=4096",
					      .report_name = "BenchmarkCopy/size=4096" };
	/* 10 reps x 1000 ops: ticks / 10000 ns per op. */
	samples[0][0] = (struct cbench_sample){ .reps = 10, .ticks = 3000 };
	samples[0][1] = (struct cbench_sample){ .reps = 10, .ticks = 3100 };
	samples[0][2] = (struct cbench_sample){ .reps = 10, .ticks = 100, .disturbed = CBENCH_DISTURB_CSWITCH };
	samples[1][0] = (struct cbench_sample){ .reps = 10, .ticks = 3300 };
	/* copy: 1 rep of 4096 bytes in 1024 ns = 4000 MB/s. */
	samples[2][0] = (struct cbench_sample){ .reps = 1, .ticks = 1024, .instructions = 2048,
						.have = CBENCH_HAVE_INSTRUCTIONS };
	trials[0][0] = (struct cbench_trial){ .n = 10, .samples = samples[0], .nsamples = 3 };
	trials[0][1] = (struct cbench_trial){ .n = 10, .samples = samples[1], .nsamples = 1 };
	trials[1][0] = (struct cbench_trial){ .n = 1, .samples = samples[2], .nsamples = 1 };
	trials[1][1] = (struct cbench_trial){ .n = 1, .error = -4 };
	strcpy(trials[1][1].reason, "worker killed by signal SIGSEGV (Segmentation fault)");
	results[0] = (struct cbench_result){ .exp = &exps[0], .tuning = "cached", .n = 10,
					     .trials = trials[0], .ntrials = 2 };
	results[1] = (struct cbench_result){ .exp = &exps[1], .tuning = "tuned", .n = 1,
					     .trials = trials[1], .ntrials = 2 };
	report.results = results;
	report.nresults = 2;
	cbench_report_summarize(&report);
}

static char *render(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	CU_ASSERT_FATAL(f != NULL);
	CU_ASSERT_EQUAL(cbench_report_go(&report, f), 0);
	fclose(f);
	return buf;
}

static int count_fields(const char *line, char fields[][64], int max)
{
	int n = 0;

	while (*line) {
		int len = 0;

		while (isspace((unsigned char)*line))
			line++;
		if (!*line)
			break;
		while (line[len] && !isspace((unsigned char)line[len]))
			len++;
		if (n < max)
			snprintf(fields[n], 64, "%.*s", len, line);
		n++;
		line += len;
	}
	return n;
}

static void summary_numbers(void)
{
	build(2.0);
	CU_ASSERT_EQUAL(trials[0][0].valid, 2);
	CU_ASSERT_EQUAL(trials[0][0].discarded, 1);
	CU_ASSERT_DOUBLE_EQUAL(trials[0][0].min_ns_per_op, 0.3, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(trials[0][0].median_ns_per_op, 0.305, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(trials[0][0].est_cycles_per_op, 0.6, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(trials[1][0].mb_per_s, 4000, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(trials[1][0].instructions_per_op, 2048, 1e-9);
	CU_ASSERT(isnan(trials[0][0].mb_per_s));
	CU_ASSERT(isnan(trials[0][0].cycles_per_op));
	/* The headline: the median of the trials' 0.3 and 0.33. */
	CU_ASSERT_DOUBLE_EQUAL(results[0].ns_per_op, 0.315, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(results[0].least_ns_per_op, 0.3, 1e-12);
	CU_ASSERT(results[0].ns_lo <= 0.3 && results[0].ns_hi >= 0.33);
	CU_ASSERT_DOUBLE_EQUAL(trials[0][0].ns_per_op, 0.3, 1e-12);
	CU_ASSERT_EQUAL(results[1].failed, 1);
	CU_ASSERT_EQUAL(report.failed_trials, 1);
}

static void lines_are_valid(void)
{
	char *out, *save = NULL;
	int results_seen = 0, comments = 0, configs = 0, units = 0;

	build(2.0);
	out = render();
	for (char *line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char fields[16][64];
		int n = count_fields(line, fields, 16);

		if (line[0] == '#') {
			comments++;
			continue;
		}
		if (!strncmp(line, "Benchmark", 9)) {
			results_seen++;
			CU_ASSERT(cbench_go_valid_name(fields[0]));
			CU_ASSERT(n >= 4 && n % 2 == 0);
			CU_ASSERT_STRING_EQUAL(fields[3], "ns/op");
			for (int i = 2; i < n && i < 16; i += 2) {
				char *end;

				CU_ASSERT(strtod(fields[i], &end) > 0 && *end == '\0');
				/* No counter is printed as a zero, and none that is absent. */
				CU_ASSERT(strcmp(fields[i + 1], "cycles/op") != 0);
			}
			continue;
		}
		/* benchfmt's unit metadata: "Unit <unit> <key>=<value>". */
		if (!strncmp(line, "Unit ", 5)) {
			CU_ASSERT_STRING_EQUAL(line, "Unit instructions/op assume=exact");
			units++;
			continue;
		}
		{
			char *colon = strchr(line, ':');
			char key[64];

			CU_ASSERT_FATAL(colon != NULL);
			snprintf(key, sizeof(key), "%.*s", (int)(colon - line), line);
			CU_ASSERT(cbench_go_valid_key(key));
			CU_ASSERT(colon[1] == ' ' || colon[1] == '\0');
			configs++;
		}
	}
	CU_ASSERT_EQUAL(results_seen, 3);	/* one line per good trial */
	CU_ASSERT_EQUAL(units, 1);		/* Copy counted its instructions */
	CU_ASSERT(configs >= 15);
	CU_ASSERT(comments >= 1);
	free(out);
}

static void content(void)
{
	char *out;

	build(2.0);
	out = render();
	/* Go's b.N: 2 kept measurements x 10 reps x 1000 ops. */
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\nBenchmarkAddChain 20000 0.300000 ns/op 0.600000 est-cycles/op\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\nBenchmarkCopy/size=4096 1 1024.00 ns/op 4000.00 MB/s 2048.00 instructions/op"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "# BenchmarkCopy/size=4096 trial 2 failed: worker killed by signal SIGSEGV"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\n# tuning: cached\nBenchmarkAddChain"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\n# tuning: tuned\nBenchmarkCopy"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\nbackend: user\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\ncounters: none"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "1 of 4 measurements discarded"));
	free(out);
}

/* A placement-sensitive result: its placement figures and the headline,
 * with its interval, are comments; its result lines stay one per trial. */
static void placement_comments(void)
{
	char *out;

	build(2.0);
	results[0].between_var = 1e-4;
	results[0].within_var = 2.5e-5;
	results[0].placement_share = 0.75;
	results[0].placement_sensitive = results[0].unstable = true;
	results[0].ns_per_op = 0.315;
	results[0].ns_lo = 0.3;
	results[0].ns_hi = 0.33;
	results[0].ns_coverage = 0.5;
	strcpy(results[0].unstable_reason, "trials spread 10.00% by placement");
	out = render();
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\n# BenchmarkAddChain: trials vary by 1% (sd), the noise "
				      "within them by 0.5%: 75% of their variance is placement\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\n# BenchmarkAddChain: headline: the median of 2 trials, "
				      "0.315 ns/op, 50% interval [0.3, 0.33]\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\nBenchmarkAddChain 20000 0.300000 ns/op"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\nBenchmarkAddChain 10000 0.330000 ns/op"));
	/* Two trials tell no variance between trials: no such comment. */
	CU_ASSERT_PTR_NULL(strstr(out, "# BenchmarkCopy/size=4096: trials vary"));
	free(out);
}

/*
 * Code layouts sampled: a configuration line (runs at sampled layouts and
 * runs as loaded in other tables), the seed's sentence and each result's
 * layouts as comments; none of it where the run said nothing.
 */
static void code_layout_lines(void)
{
	char *out;

	build(2.0);
	out = render();
	CU_ASSERT_PTR_NULL(strstr(out, "code-layout"));
	CU_ASSERT_PTR_NULL(strstr(out, "code layouts"));
	free(out);
	report.layouts_sampled = true;
	report.layout_seed = 5;
	strcpy(report.layout_note, "laid out anew for every two trials, at layouts drawn from seed 5");
	results[0].layouts = 4;
	results[0].layout_share = 0.9;
	results[1].layouts = 1;
	results[1].layout_share = NAN;
	out = render();
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\ncode-layout: sampled\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\n# code-layout: laid out anew for every two trials, at "
				      "layouts drawn from seed 5\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\n# BenchmarkAddChain: 4 code layouts, two trials each: 90% "
				      "of the trials' variance is between layouts\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\n# BenchmarkCopy/size=4096: 1 code layout, two trials each: "
				      "too few trials share one to tell what layouts do\n"));
	free(out);
	report.layouts_sampled = false;
	out = render();
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\ncode-layout: as loaded\n"));
	free(out);
}

/*
 * benchstat makes one table per set of configuration lines: what is
 * measured anew each run, or names the build, must be a comment.
 */
static void per_run_facts_are_comments(void)
{
	static const char *const per_run[] = {
		"so", "so-build-id", "timer-frequency", "timer-overhead", "timer-step",
		"timer-precision", "timer-accuracy", "est-cycles-per-tick", "tuning-oracle", "tuning",
	};
	char *out, line[64];

	build(2.0);
	report.timer.counters = CBENCH_HAVE_INSTRUCTIONS | CBENCH_HAVE_CYCLES | CBENCH_HAVE_REF_CYCLES;
	report.env.rdpmc = true;
	out = render();
	for (size_t i = 0; i < sizeof(per_run) / sizeof(per_run[0]); i++) {
		snprintf(line, sizeof(line), "\n%s:", per_run[i]);
		CU_ASSERT_PTR_NULL(strstr(out, line));
		snprintf(line, sizeof(line), "\n# %s: ", per_run[i]);
		CU_ASSERT_PTR_NOT_NULL(strstr(out, line));
	}
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\ncounters: instructions cycles ref-cycles via rdpmc\n"));
	free(out);
}

/* Every result says what a timer step is of its measurements, in a
 * comment compare reads back (cbench_go_step_share()). */
static void step_share_comment(void)
{
	static const char *const not_it[] = {
		"BenchmarkAddChain 20000 0.300000 ns/op", "# timer-step: 1 ticks (1.000 ns)",
		"# BenchmarkX: one timer step is nan% of a measurement",
		"# BenchmarkX: one timer step is -1% of a measurement",
		"# BenchmarkX: one timer step is 0.01 of a measurement",
	};
	char *out, name[64];
	double share;

	build(2.0);
	/* No step known: no comment. */
	out = render();
	CU_ASSERT_PTR_NULL(strstr(out, "timer step is"));
	free(out);
	/* A step of 1 tick (1 ns): 1e-4 ns/op over AddChain's median
	 * measurement of 0.305 ns/op, and 1 ns of Copy's 1024. */
	report.timer.step_ticks = 1;
	cbench_report_summarize(&report);
	out = render();
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\n# BenchmarkAddChain: one timer step is 0.0328% of a "
				      "measurement\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\n# BenchmarkCopy/size=4096: one timer step is 0.0977% of "
				      "a measurement (measurements are capped at 100 us); the floor "
				      "mean takes most of its rounding off\n"));
	free(out);
	CU_ASSERT(cbench_go_step_share("# BenchmarkAddChain: one timer step is 0.0328% of a "
				       "measurement\n", name, sizeof(name), &share));
	CU_ASSERT_STRING_EQUAL(name, "BenchmarkAddChain");
	CU_ASSERT_DOUBLE_EQUAL(share, 0.000328, 1e-12);
	CU_ASSERT(cbench_go_step_share("# BenchmarkCopy/size=4096: one timer step is 1.2e-05% of a call, "
				       "and ...", name, sizeof(name), &share));
	CU_ASSERT_STRING_EQUAL(name, "BenchmarkCopy/size=4096");
	CU_ASSERT_DOUBLE_EQUAL(share, 1.2e-7, 1e-15);
	for (size_t i = 0; i < sizeof(not_it) / sizeof(not_it[0]); i++)
		CU_ASSERT(!cbench_go_step_share(not_it[i], name, sizeof(name), &share));
}

static void no_est_cycles_without_calibration(void)
{
	char *out;

	build(0);
	out = render();
	CU_ASSERT_PTR_NULL(strstr(out, "est-cycles"));
	free(out);
}

static void key_and_name_rules(void)
{
	CU_ASSERT(cbench_go_valid_key("cpu-count"));
	CU_ASSERT(cbench_go_valid_key("timer"));
	CU_ASSERT(!cbench_go_valid_key("Cpu"));
	CU_ASSERT(!cbench_go_valid_key("cpu count"));
	CU_ASSERT(!cbench_go_valid_key("-cpu"));
	CU_ASSERT(!cbench_go_valid_key(""));
	CU_ASSERT(cbench_go_valid_name("Benchmark"));
	CU_ASSERT(cbench_go_valid_name("BenchmarkAddChain/size=64"));
	CU_ASSERT(!cbench_go_valid_name("Benchmarkadd"));
	CU_ASSERT(!cbench_go_valid_name("BenchAdd"));
	CU_ASSERT(!cbench_go_valid_name("BenchmarkA b"));
}

static CU_TestInfo report_go_tests[] = {
	{ "summary numbers", summary_numbers },
	{ "every line is a valid config or result line", lines_are_valid },
	{ "content and failures", content },
	{ "placement figures and the figure to quote are comments", placement_comments },
	{ "code layouts: a configuration line and comments", code_layout_lines },
	{ "no est-cycles without calibration", no_est_cycles_without_calibration },
	{ "the timer step's share of a measurement, written and read", step_share_comment },
	{ "per-run facts are comments, not configuration", per_run_facts_are_comments },
	{ "key and name rules", key_and_name_rules },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_report_go_suites[] = {
	{ "report_go", NULL, NULL, NULL, NULL, report_go_tests },
	CU_SUITE_INFO_NULL,
};
