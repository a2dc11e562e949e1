// SPDX-License-Identifier: GPL-2.0
/*
 * `cbenchctl compare` on small report files whose answer is known: runs,
 * not trials, are what is compared; one run a side decides nothing; the
 * change printed is the one tested; benchmarks present on one side only;
 * bad values and bad usage refused with the file, line or argument named.
 */
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "cmd/subcommands.h"

static char dir[64];

static int setup(void)
{
	strcpy(dir, "/tmp/cbench-compare-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void put(const char *name, const char *text)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	CU_ASSERT_FATAL(f != NULL);
	fputs(text, f);
	fclose(f);
}

/* A file's contents, malloc'd. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text;
	long len;

	CU_ASSERT_FATAL(f != NULL);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	text = calloc(1, (size_t)len + 1);
	if (fread(text, 1, (size_t)len, f) != (size_t)len)
		text[0] = '\0';
	fclose(f);
	return text;
}

/*
 * Runs compare with args, a NULL-terminated list of file names in dir and
 * bare "--" or options, with stdout and stderr in *out and *err (malloc'd).
 */
static int compare(const char *const args[], char **out, char **err)
{
	char paths[8][128], po[128], pe[128];
	char *argv[10] = { "compare" };
	int saved_out = dup(STDOUT_FILENO), saved_err = dup(STDERR_FILENO), argc = 1, ret;

	for (; args[argc - 1]; argc++) {
		const char *a = args[argc - 1];

		if (a[0] == '-')
			snprintf(paths[argc - 1], sizeof(paths[0]), "%s", a);
		else
			snprintf(paths[argc - 1], sizeof(paths[0]), "%s/%s", dir, a);
		argv[argc] = paths[argc - 1];
	}
	snprintf(po, sizeof(po), "%s/stdout", dir);
	snprintf(pe, sizeof(pe), "%s/stderr", dir);
	fflush(stdout);
	fflush(stderr);
	dup2(open(po, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644), STDOUT_FILENO);
	dup2(open(pe, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644), STDERR_FILENO);
	ret = cbench_compare_main(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(saved_out, STDOUT_FILENO);
	dup2(saved_err, STDERR_FILENO);
	close(saved_out);
	close(saved_err);
	*out = slurp(po);
	*err = slurp(pe);
	return ret;
}

/* The row of benchmark name (without "Benchmark") in a table. */
static const char *row(const char *out, const char *name)
{
	size_t len = strlen(name);

	for (const char *p = out; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		if (!strncmp(p, name, len) && p[len] == ' ')
			return p;
	}
	return "";
}

static bool row_has(const char *out, const char *name, const char *what)
{
	const char *r = row(out, name), *end = strchr(r, '\n'), *hit = strstr(r, what);

	return hit && (!end || hit < end);
}

#define TEN_SLOW "BenchmarkA 1 2.00 ns/op\nBenchmarkA 1 2.01 ns/op\nBenchmarkA 1 2.02 ns/op\n"
#define TEN_FAST "BenchmarkA 1 1.00 ns/op\nBenchmarkA 1 1.01 ns/op\nBenchmarkA 1 1.02 ns/op\n"

/* The old behaviour, and the issue: one run a side used to be called
 * "slower" by a U test over its trials.  Now it prints the change of the
 * headlines and says it cannot decide, pointing to audit. */
static void one_run_a_side_cannot_decide(void)
{
	static const char *const args[] = { "old.txt", "new.txt", NULL };
	char *out, *err;

	put("old.txt", "goos: linux\n" TEN_FAST "BenchmarkGone 1 5 ns/op\n");
	put("new.txt", "goos: linux\n" TEN_SLOW "BenchmarkFresh 1 7 ns/op\n");
	CU_ASSERT_EQUAL(compare(args, &out, &err), 0);
	/* The medians of the runs' trials, 2.01 against 1.01. */
	CU_ASSERT(row_has(out, "A", "+99.01%"));
	CU_ASSERT(row_has(out, "A", " 1+1 ?"));
	CU_ASSERT(!strstr(out, "slower"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "cbenchctl audit"));
	CU_ASSERT(row_has(out, "Gone", "(absent)"));
	CU_ASSERT(row_has(out, "Fresh", "(absent)"));
	free(out);
	free(err);
}

/* Two runs a side, clearly apart: slower, the change between the
 * geometric means of the runs' headlines (the medians of their trials), an
 * interval around it. */
static void runs_a_side_decide(void)
{
	static const char *const args[] = { "o1.txt", "o2.txt", "--", "n1.txt", "n2.txt", NULL };
	static const char *const back[] = { "n1.txt", "n2.txt", "--", "o1.txt", "o2.txt", NULL };
	char *out, *err;

	put("o1.txt", "BenchmarkA 1 1.00 ns/op\nBenchmarkA 1 1.70 ns/op\nBenchmarkA 1 1.00 ns/op\n");
	put("o2.txt", "BenchmarkA 1 1.02 ns/op\nBenchmarkA 1 3.00 ns/op\nBenchmarkA 1 1.02 ns/op\n");
	put("n1.txt", "BenchmarkA 1 2.00 ns/op\nBenchmarkA 1 2.50 ns/op\nBenchmarkA 1 2.00 ns/op\n");
	put("n2.txt", "BenchmarkA 1 2.04 ns/op\n");
	CU_ASSERT_EQUAL(compare(args, &out, &err), 0);
	/* sqrt(2.00 * 2.04) / sqrt(1.00 * 1.02) = 2: +100 %, whatever the
	 * odd slow trial of each run says. */
	CU_ASSERT(row_has(out, "A", "+100.00%"));
	CU_ASSERT(row_has(out, "A", " 2+2 slower"));
	/* Welch over log(1.00), log(1.02) against log(2.00), log(2.04): the
	 * interval is exp(log 2 +- 4.3027 * 0.014003) - 1, df 2. */
	CU_ASSERT(row_has(out, "A", "[+88.31%,+112.42%]"));
	CU_ASSERT(!strstr(out, "audit"));
	free(out);
	free(err);
	CU_ASSERT_EQUAL(compare(back, &out, &err), 0);
	CU_ASSERT(row_has(out, "A", "-50.00%"));
	CU_ASSERT(row_has(out, "A", " 2+2 faster"));
	free(out);
	free(err);
}

/* Runs that wander as far as the change: no verdict, and the change
 * printed is between geometric means of runs (+100 %), not minima (+300 %). */
static void wandering_runs_are_no_difference(void)
{
	static const char *const args[] = { "w1.txt", "w2.txt", "--", "w3.txt", "w4.txt", NULL };
	char *out, *err;

	put("w1.txt", "BenchmarkA 1 1 ns/op\n");
	put("w2.txt", "BenchmarkA 1 4 ns/op\n");
	put("w3.txt", "BenchmarkA 1 4 ns/op\n");
	put("w4.txt", "BenchmarkA 1 4.0 ns/op\n");
	CU_ASSERT_EQUAL(compare(args, &out, &err), 0);
	CU_ASSERT(row_has(out, "A", "+100.00%"));
	CU_ASSERT(row_has(out, "A", " 2+2 ~"));
	free(out);
	free(err);
}

/* Reports written one after another into one file are that many runs: a
 * configuration line after result lines starts the next; comments do not. */
static void concatenated_runs(void)
{
	static const char *const args[] = { "cat_old.txt", "cat_new.txt", NULL };
	char *out, *err;

	put("cat_old.txt", "goos: linux\ncpu: x\n" TEN_FAST "# note: not a run\n" TEN_FAST
		"goos: linux\ncpu: x\n" TEN_FAST);
	put("cat_new.txt", "goos: linux\n" TEN_FAST "goos: linux\n" TEN_FAST "goos: linux\n" TEN_FAST);
	CU_ASSERT_EQUAL(compare(args, &out, &err), 0);
	CU_ASSERT(row_has(out, "A", " 2+3 ~"));
	/* Identical values: no change, p = 1. */
	CU_ASSERT(row_has(out, "A", "+0.00%"));
	CU_ASSERT(row_has(out, "A", "1.000"));
	free(out);
	free(err);
}

/* A line longer than compare's buffer is read in parts: a part that looks
 * like a configuration line does not start a run. */
static void long_line_is_one_line(void)
{
	static const char *const args[] = { "long.txt", "o1.txt", NULL };
	char *text = malloc(8192), *out, *err;
	int at;

	CU_ASSERT_FATAL(text != NULL);
	at = snprintf(text, 8192, "goos: linux\nBenchmarkA 1 1.00 ns/op");
	/* The result line fills the 4095 bytes fgets() gives at once. */
	at += snprintf(text + at, 8192 - (size_t)at, "%*s", 4095 - 23, "");
	snprintf(text + at, 8192 - (size_t)at, "goos: linux\nBenchmarkA 1 1.00 ns/op\n");
	put("long.txt", text);
	put("o1.txt", "BenchmarkA 1 1.00 ns/op\n");
	CU_ASSERT_EQUAL(compare(args, &out, &err), 0);
	CU_ASSERT(row_has(out, "A", " 1+1 ?"));
	free(out);
	free(err);
	free(text);
}

/* A run's headline is its least trial: runs of unequal trials are noted;
 * equal ones are not. */
static void uneven_trials_noted(void)
{
	static const char *const uneven[] = { "u1.txt", "u2.txt", "--", "u3.txt", "u4.txt", NULL };
	static const char *const even[] = { "u1.txt", "u3.txt", NULL };
	char *out, *err;

	put("u1.txt", TEN_FAST);
	put("u2.txt", TEN_FAST);
	put("u3.txt", TEN_FAST);
	put("u4.txt", "BenchmarkA 1 1.01 ns/op\n");
	CU_ASSERT_EQUAL(compare(uneven, &out, &err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "runs of A have from 1 to 3 trials"));
	free(out);
	free(err);
	CU_ASSERT_EQUAL(compare(even, &out, &err), 0);
	CU_ASSERT_PTR_NULL(strstr(out, "trials"));
	free(out);
	free(err);
}

/*
 * The gate never passes what it could not judge: one run a side on a 5 %
 * slowdown is "?", and --fail-on exits 4 (not 0, not 3) unless told
 * --undecided pass; a row that fails the gate still gives 3 beside
 * undecided ones; a gate with every row judged and none failing gives 0.
 */
static void gate_undecided(void)
{
	static const char *const one[] = { "--fail-on=slower", "g_old.txt", "g_new.txt", NULL };
	static const char *const pass[] = { "--fail-on=slower", "--undecided=pass", "g_old.txt",
					     "g_new.txt", NULL };
	static const char *const told[] = { "--undecided=fail", "--fail-on=changed", "g_old.txt",
					    "g_new.txt", NULL };
	static const char *const none[] = { "g_old.txt", "g_new.txt", NULL };
	static const char *const mixed[] = { "--fail-on=slower", "m1.txt", "m2.txt", "--", "m3.txt",
					     "m4.txt", NULL };
	static const char *const judged[] = { "--fail-on=slower", "m1.txt", "m2.txt", "--", "m1.txt",
					      "m2.txt", NULL };
	char *out, *err;

	put("g_old.txt", "goos: linux\nBenchmarkA 1 100.00 ns/op\nBenchmarkB 1 10.00 ns/op\n");
	put("g_new.txt", "goos: linux\nBenchmarkA 1 105.04 ns/op\nBenchmarkB 1 10.00 ns/op\n");
	CU_ASSERT_EQUAL(compare(one, &out, &err), 4);
	CU_ASSERT(row_has(out, "A", "+5.04%"));
	CU_ASSERT(row_has(out, "A", " 1+1 ?"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\ngate (--fail-on slower): UNDECIDED: 2 benchmarks not judged: "
					   "A (one run a side), B (one run a side)\n  (exit status 4)"));
	CU_ASSERT_PTR_NULL(strstr(out, "passed"));
	free(out);
	free(err);
	CU_ASSERT_EQUAL(compare(pass, &out, &err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "gate (--fail-on slower): passed: no benchmark slower by "
					   "0.20% or more; 2 undecided, passed by --undecided pass"));
	free(out);
	free(err);
	CU_ASSERT_EQUAL(compare(told, &out, &err), 4);
	free(out);
	free(err);
	/* No gate: the table only. */
	CU_ASSERT_EQUAL(compare(none, &out, &err), 0);
	CU_ASSERT_PTR_NULL(strstr(out, "gate"));
	free(out);
	free(err);
	/* A slower by 100 % over two runs a side, B in one run a side. */
	put("m1.txt", "BenchmarkA 1 1.00 ns/op\nBenchmarkB 1 1.00 ns/op\n");
	put("m2.txt", "BenchmarkA 1 1.02 ns/op\n");
	put("m3.txt", "BenchmarkA 1 2.00 ns/op\nBenchmarkB 1 1.00 ns/op\n");
	put("m4.txt", "BenchmarkA 1 2.04 ns/op\n");
	CU_ASSERT_EQUAL(compare(mixed, &out, &err), 3);
	CU_ASSERT(row_has(out, "A", " 2+2 slower"));
	CU_ASSERT(row_has(out, "B", " 1+1 ?"));
	free(out);
	free(err);
	/* The same two runs on both sides, 2 % apart (and B's to two
	 * digits: the rounding is its spread): every row has an interval
	 * (2+2), each reaching across --min-effect: not judged. */
	put("m2.txt", "BenchmarkA 1 1.02 ns/op\nBenchmarkB 1 1.00 ns/op\n");
	CU_ASSERT_EQUAL(compare(judged, &out, &err), 4);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "UNDECIDED: 2 benchmarks not judged: A (no difference shown, "
					   "nor within --min-effect), B (no difference shown"));
	free(out);
	free(err);
	/* 0.01 % apart, to five digits: both shown within it: passed. */
	put("m1.txt", "BenchmarkA 1 1.0000 ns/op\nBenchmarkB 1 1.0000 ns/op\n");
	put("m2.txt", "BenchmarkA 1 1.0001 ns/op\nBenchmarkB 1 1.0000 ns/op\n");
	CU_ASSERT_EQUAL(compare(judged, &out, &err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "gate (--fail-on slower): passed"));
	free(out);
	free(err);
}

/*
 * The timer's step in compare's interval: runs that agree to the last
 * digit on each side, old 100.0000 and new 100.0200 ns/op (+0.02 %), with
 * a step of 0.01 % of a measurement.  Each run's figure is then known to a
 * step, a uniform rounding of variance (1e-4)^2 / 12 on the log scale:
 * Welch's se is sqrt(1e-8 / 12) over two runs a side (df 2, t 4.303), an
 * interval of +0.02 % +- 0.0124 %, where the printed digits alone left
 * +- 0.0001 %.  The same from JSON reports' step_share.
 */
static void step_in_interval(void)
{
	/* What every run report's head has (docs/schema/run.schema.json requires it). */
	static const char config[] =
		"\"config\": {\"cpu\": \"Test CPU\", \"cpu_model\": \"GenuineIntel family 6 model 1\", "
		"\"cpu_count\": 2, \"machine\": \"lab1\", \"virtual_machine\": false, \"kernel\": \"6.1\", "
		"\"cbench_version\": \"1.0\", \"backend\": \"user\", \"timer\": \"tsc\", \"timer_hz\": 2.3e9, "
		"\"timer_overhead_ticks\": 34, \"timer_step_ticks\": 2, \"counters\": [], \"date\": "
		"\"2026-01-01T00:00:00Z\", \"host\": \"lab1\", \"command\": \"cbenchctl run\", "
		"\"so\": \"/build/bench.so\"}";
	static const char *const go[] = { "s1.txt", "s2.txt", "--", "s3.txt", "s4.txt", NULL };
	static const char *const bare[] = { "t1.txt", "t2.txt", "--", "t3.txt", "t4.txt", NULL };
	static const char *const json[] = { "j1.json", "j2.json", "--", "j3.json", "j4.json", NULL };
	static const char step[] = "# BenchmarkA: one timer step is 0.01% of a measurement\n";
	char *out, *err, text[2048];

	for (int i = 1; i <= 4; i++) {
		const char *v = i <= 2 ? "100.0000" : "100.0200";
		char name[16];

		snprintf(text, sizeof(text), "goos: linux\nBenchmarkA 1 %s ns/op\n%s", v, step);
		snprintf(name, sizeof(name), "s%d.txt", i);
		put(name, text);
		snprintf(text, sizeof(text), "goos: linux\nBenchmarkA 1 %s ns/op\n", v);
		name[0] = 't';
		put(name, text);
		snprintf(text, sizeof(text), "{\"schema_version\": 2, %s, \"benchmarks\": [{\"name\": "
			 "\"BenchmarkA\", \"id\": \"a\", \"tuning\": \"tuned\", \"instrument\": \"reps\", "
			 "\"n\": 1, \"ns_per_op\": %s, \"unstable\": false, \"placement_sensitive\": false, "
			 "\"quote\": \"median_of_trials\", \"failed_trials\": 0, \"trials\": "
			 "[{\"status\": \"ok\", \"n\": 1, \"iterations\": 1, \"measurements\": 1, "
			 "\"discarded\": 0, \"ns_per_op\": %s, \"step_share\": 0.0001}]}]}", config, v, v);
		snprintf(name, sizeof(name), "j%d.json", i);
		put(name, text);
	}
	CU_ASSERT_EQUAL(compare(go, &out, &err), 0);
	CU_ASSERT(row_has(out, "A", "+0.02% "));
	CU_ASSERT(row_has(out, "A", "[+0.01%,+0.03%]"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "note: the runs of 1 benchmark agree more closely than the "
					   "timer resolves (a\n  step is up to 0.01% of a measurement)"));
	free(out);
	free(err);
	CU_ASSERT_EQUAL(compare(json, &out, &err), 0);
	CU_ASSERT(row_has(out, "A", "[+0.01%,+0.03%]"));
	free(out);
	free(err);
	/* Reports that do not say (older ones): the printed rounding only. */
	CU_ASSERT_EQUAL(compare(bare, &out, &err), 0);
	CU_ASSERT(row_has(out, "A", "[+0.02%,+0.02%]"));
	CU_ASSERT_PTR_NULL(strstr(out, "timer"));
	free(out);
	free(err);
}

static void bad_values_refused(void)
{
	static const char *const bad[] = { "nan", "inf", "-1.5", "0", "1.0x", "0x10" };
	static const char *const args[] = { "good.txt", "bad.txt", NULL };
	char *out, *err;

	put("good.txt", "BenchmarkA 1 1.00 ns/op\n");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char text[64];

		snprintf(text, sizeof(text), "goos: linux\nBenchmarkA 1 %s ns/op\n", bad[i]);
		put("bad.txt", text);
		CU_ASSERT_NOT_EQUAL(compare(args, &out, &err), 0);
		/* Names the file and the line. */
		CU_ASSERT_PTR_NOT_NULL(strstr(err, "bad.txt"));
		CU_ASSERT_PTR_NOT_NULL(strstr(err, "line 2"));
		CU_ASSERT_EQUAL(out[0], '\0');
		free(out);
		free(err);
	}
}

static void bad_usage_refused(void)
{
	static const char *const twice[] = { "good.txt", "good.txt", "--", "o1.txt", NULL };
	static const char *const seps[] = { "good.txt", "--", "o1.txt", "--", "o2.txt", NULL };
	static const char *const opt[] = { "good.txt", "-x", "o1.txt", NULL };
	static const char *const empty_new[] = { "good.txt", "o1.txt", "--", NULL };
	static const char *const three[] = { "good.txt", "o1.txt", "o2.txt", NULL };
	static const char *const *const cases[] = { twice, seps, opt, empty_new, three };
	static const char *const says[] = { "given twice", "second '--'", "unknown option -x",
					    "no new report beside '--'",
					    "more than two reports want '--' between the old and the new ones" };
	char *out, *err;

	put("good.txt", "BenchmarkA 1 1.00 ns/op\n");
	put("o1.txt", "BenchmarkA 1 1.00 ns/op\n");
	put("o2.txt", "BenchmarkA 1 1.00 ns/op\n");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CU_ASSERT_NOT_EQUAL(compare(cases[i], &out, &err), 0);
		CU_ASSERT_PTR_NOT_NULL(strstr(err, says[i]));
		CU_ASSERT_EQUAL(out[0], '\0');
		free(out);
		free(err);
	}
}

static CU_TestInfo compare_tests[] = {
	{ "one run a side: the change, no verdict, audit named", one_run_a_side_cannot_decide },
	{ "two runs a side: slower, change and interval tested", runs_a_side_decide },
	{ "runs wandering as far as the change: ~", wandering_runs_are_no_difference },
	{ "reports one after another in a file are runs", concatenated_runs },
	{ "a line longer than the buffer is one line", long_line_is_one_line },
	{ "runs of unequal trials are noted", uneven_trials_noted },
	{ "--fail-on with rows one run a side: exit 4 unless --undecided pass", gate_undecided },
	{ "the timer's step is a floor of the runs' variance", step_in_interval },
	{ "NaN, Inf, negative, zero and hex ns/op refused", bad_values_refused },
	{ "a file twice on a side, two '--', unknown options refused", bad_usage_refused },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_compare_suites[] = {
	{ "compare", setup, teardown, NULL, NULL, compare_tests },
	CU_SUITE_INFO_NULL,
};
