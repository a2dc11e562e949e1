// SPDX-License-Identifier: GPL-2.0
/* `cbenchctl run` argument parsing. */
#include <math.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "cmd/run_parts.h"

#define ARGC(a) ((int)(sizeof(a) / sizeof((a)[0])) - 1)

static FILE *sink;

static int suite_init(void)
{
	sink = fopen("/dev/null", "w");
	return sink ? 0 : -1;
}

static int suite_clean(void)
{
	return fclose(sink);
}

static void defaults(void)
{
	char *argv[] = { "run", "x.so", NULL };
	struct cbench_run_options o;

	CU_ASSERT_EQUAL(cbench_run_options_parse(&o, ARGC(argv), argv, sink), 0);
	CU_ASSERT_STRING_EQUAL(o.so_path, "x.so");
	CU_ASSERT_EQUAL(o.backend, CBENCH_BACKEND_AUTO);
	CU_ASSERT_EQUAL(o.cpu, -1);
	CU_ASSERT(o.trials >= 10);	/* benchstat wants 10 values */
	CU_ASSERT(!o.retune);
	CU_ASSERT_PTR_NULL(o.output);
	CU_ASSERT_PTR_NULL(o.samples);
	CU_ASSERT_PTR_NULL(o.filter);
	CU_ASSERT_EQUAL(o.format, CBENCH_FORMAT_GO);
	CU_ASSERT(o.time_limit_s > o.trial_time_s);
}

static void every_option(void)
{
	char *argv[] = { "run", "--filter", "add|mul", "--backend", "user", "--cpu", "1",
			 "--trials", "12", "--retune", "x.so", "-o", "out.txt", "--format", "json",
			 "--samples", "s.csv", "--time-limit", "2.5", "--trial-time", "0.1",
			 "--warmup", "0.02", NULL };
	struct cbench_run_options o;

	CU_ASSERT_EQUAL(cbench_run_options_parse(&o, ARGC(argv), argv, sink), 0);
	CU_ASSERT_STRING_EQUAL(o.filter, "add|mul");
	CU_ASSERT_EQUAL(o.backend, CBENCH_BACKEND_USER);
	CU_ASSERT_EQUAL(o.cpu, 1);
	CU_ASSERT_EQUAL(o.trials, 12);
	CU_ASSERT(o.retune);
	CU_ASSERT_STRING_EQUAL(o.output, "out.txt");
	CU_ASSERT_EQUAL(o.format, CBENCH_FORMAT_JSON);
	CU_ASSERT_STRING_EQUAL(o.samples, "s.csv");
	CU_ASSERT_DOUBLE_EQUAL(o.time_limit_s, 2.5, 0);
	CU_ASSERT_DOUBLE_EQUAL(o.trial_time_s, 0.1, 0);
	CU_ASSERT_DOUBLE_EQUAL(o.warmup_s, 0.02, 0);
	CU_ASSERT_STRING_EQUAL(o.so_path, "x.so");
}

static void help(void)
{
	char *argv[] = { "run", "--help", NULL };
	char *argv2[] = { "run", "-h", "x.so", NULL };
	struct cbench_run_options o;

	CU_ASSERT_EQUAL(cbench_run_options_parse(&o, ARGC(argv), argv, sink), 1);
	CU_ASSERT_EQUAL(cbench_run_options_parse(&o, ARGC(argv2), argv2, sink), 1);
}

static void bad(char **argv, int argc)
{
	struct cbench_run_options o;

	CU_ASSERT_EQUAL(cbench_run_options_parse(&o, argc, argv, sink), -EINVAL);
}

static void rejects(void)
{
	char *no_so[] = { "run", NULL };
	char *two_so[] = { "run", "a.so", "b.so", NULL };
	char *backend[] = { "run", "--backend", "fast", "x.so", NULL };
	char *trials0[] = { "run", "--trials", "0", "x.so", NULL };
	char *trials_x[] = { "run", "--trials", "3x", "x.so", NULL };
	char *cpu_neg[] = { "run", "--cpu", "-1", "x.so", NULL };
	char *format[] = { "run", "--format", "xml", "x.so", NULL };
	char *limit[] = { "run", "--time-limit", "0", "x.so", NULL };
	char *limit_nan[] = { "run", "--time-limit", "nan", "x.so", NULL };
	char *trial_inf[] = { "run", "--trial-time", "inf", "x.so", NULL };
	char *warmup_nan[] = { "run", "--warmup", "nan", "x.so", NULL };
	char *warmup_long[] = { "run", "--warmup", "20", "--time-limit", "15", "--trial-time", "1", "x.so", NULL };
	char *order[] = { "run", "--time-limit", "1", "--trial-time", "2", "x.so", NULL };
	char *unknown[] = { "run", "--frobnicate", "x.so", NULL };
	char *missing[] = { "run", "x.so", "--filter", NULL };

	bad(no_so, ARGC(no_so));
	bad(two_so, ARGC(two_so));
	bad(backend, ARGC(backend));
	bad(trials0, ARGC(trials0));
	bad(trials_x, ARGC(trials_x));
	bad(cpu_neg, ARGC(cpu_neg));
	bad(format, ARGC(format));
	bad(limit, ARGC(limit));
	bad(limit_nan, ARGC(limit_nan));
	bad(trial_inf, ARGC(trial_inf));
	bad(warmup_nan, ARGC(warmup_nan));
	bad(warmup_long, ARGC(warmup_long));
	bad(order, ARGC(order));
	bad(unknown, ARGC(unknown));
	bad(missing, ARGC(missing));
}

/* The message a rejected command line prints. */
static char *message(char **argv, int argc)
{
	struct cbench_run_options o;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	CU_ASSERT_EQUAL(cbench_run_options_parse(&o, argc, argv, f), -EINVAL);
	fclose(f);
	return text;
}

#define CHECK_MESSAGE(argv, want)						\
	do {									\
		char *text = message(argv, ARGC(argv));				\
										\
		CU_ASSERT(text && strstr(text, want));			\
		free(text);							\
	} while (0)

static void seconds_messages(void)
{
	char *trial0[] = { "run", "--trial-time", "0", "x.so", NULL };
	char *limit_inf[] = { "run", "--time-limit", "inf", "x.so", NULL };
	char *warmup_nan[] = { "run", "--warmup", "nan", "x.so", NULL };
	char *warmup_neg[] = { "run", "--warmup=-1", "x.so", NULL };

	CHECK_MESSAGE(trial0, ": --trial-time wants a positive number of seconds, or auto, not '0'");
	CHECK_MESSAGE(limit_inf, ": --time-limit wants a positive number of seconds, not 'inf'");
	CHECK_MESSAGE(warmup_nan, ": --warmup wants a positive number of seconds, or auto, not 'nan'");
	CHECK_MESSAGE(warmup_neg, ": --warmup wants a positive number of seconds, or auto, not '-1'");
}

/* auto: each benchmark's trials span about half a second, 4 to 20 ms a
 * trial; a given --trial-time stands. */
static void trial_time_auto(void)
{
	struct cbench_run_options o;
	double t, w;

	cbench_run_options_init(&o);
	cbench_run_trial_time(&o, 1, 1, false, &t, &w);
	CU_ASSERT(t == 0.02 && w == 0.005);
	cbench_run_trial_time(&o, 64, 1, false, &t, &w);
	CU_ASSERT(t == 0.004 && w == 0.001);
	/* 5 benchmarks: (0.5 / 50 - 0.0005) / 1.25 = 7.6 ms. */
	cbench_run_trial_time(&o, 5, 1, false, &t, &w);
	CU_ASSERT(fabs(t - 0.0076) < 1e-12 && fabs(w - 0.0019) < 1e-12);
	/* On 2 CPUs a round takes half as long: as 10 benchmarks on one. */
	cbench_run_trial_time(&o, 10, 2, false, &t, &w);
	CU_ASSERT(fabs(t - 0.0076) < 1e-12);
	/* A worker started for each trial costs more of the span:
	 * (0.5 / 50 - 0.004) / 1.25 = 4.8 ms. */
	cbench_run_trial_time(&o, 5, 1, true, &t, &w);
	CU_ASSERT(fabs(t - 0.0048) < 1e-12);
	o.trial_time_s = 0.05;
	cbench_run_trial_time(&o, 64, 1, false, &t, &w);
	CU_ASSERT(t == 0.05 && w == 0.005);
	o.time_limit_s = 0.01;
	o.trial_time_s = 0;
	cbench_run_trial_time(&o, 1, 1, false, &t, &w);
	CU_ASSERT(t <= 0.0025 && w <= 0.0025);
}

static void warmup_and_trial_fit_the_limit(void)
{
	char *over[] = { "run", "--warmup", "20", "--time-limit", "15", "--trial-time", "1", "x.so", NULL };
	char *equal[] = { "run", "--warmup", "1", "--time-limit", "3", "--trial-time", "2", "x.so", NULL };
	char *fits[] = { "run", "--warmup", "0.9", "--time-limit", "3", "--trial-time", "2", "x.so", NULL };
	struct cbench_run_options o;

	CHECK_MESSAGE(over, "--warmup (20s) plus --trial-time (1s) must be shorter than --time-limit (15s)");
	CHECK_MESSAGE(equal, "must be shorter than --time-limit");
	CU_ASSERT_EQUAL(cbench_run_options_parse(&o, ARGC(fits), fits, sink), 0);
}

static void backend_names(void)
{
	enum cbench_backend_kind k;
	const struct cbench_backend_ops *ops;

	CU_ASSERT(cbench_backend_parse("user", &k) == 0 && k == CBENCH_BACKEND_USER);
	CU_ASSERT(cbench_backend_parse("kmod", &k) == 0 && k == CBENCH_BACKEND_KMOD);
	CU_ASSERT(cbench_backend_parse("auto", &k) == 0 && k == CBENCH_BACKEND_AUTO);
	CU_ASSERT_EQUAL(cbench_backend_parse("User", &k), -EINVAL);
	CU_ASSERT(cbench_backend_select(CBENCH_BACKEND_USER, &ops) == 0 && ops == &cbench_backend_user);
	/* auto and kmod depend on whether cbench.ko is loaded here. */
	if (cbench_backend_kmod_available()) {
		CU_ASSERT(cbench_backend_select(CBENCH_BACKEND_AUTO, &ops) == 0 && ops == &cbench_backend_kmod);
		CU_ASSERT(cbench_backend_select(CBENCH_BACKEND_KMOD, &ops) == 0 && ops == &cbench_backend_kmod);
	} else {
		CU_ASSERT(cbench_backend_select(CBENCH_BACKEND_AUTO, &ops) == 0 && ops == &cbench_backend_user);
		CU_ASSERT_EQUAL(cbench_backend_select(CBENCH_BACKEND_KMOD, &ops), -ENODEV);
	}
}

static CU_TestInfo run_tests[] = {
	{ "defaults", defaults },
	{ "every option", every_option },
	{ "--help", help },
	{ "bad arguments are rejected", rejects },
	{ "bad seconds name their option", seconds_messages },
	{ "--trial-time auto: trials span half a second", trial_time_auto },
	{ "--warmup plus --trial-time within --time-limit", warmup_and_trial_fit_the_limit },
	{ "backend names", backend_names },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_run_suites[] = {
	{ "run options", suite_init, suite_clean, NULL, NULL, run_tests },
	CU_SUITE_INFO_NULL,
};
