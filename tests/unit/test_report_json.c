// SPDX-License-Identifier: GPL-2.0
/* The JSON writer: escaping, absent counters, failed trials, non-finite numbers. */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "report/report.h"
#include "results/doc_write.h"

static const struct cbench_desc desc = {
	.abi_version = CBENCH_ABI_VERSION, .desc_bytes = sizeof(struct cbench_desc),
	.name = "add_chain", .ops_per_rep = 10,
};

static char *render(struct cbench_report *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	CU_ASSERT_FATAL(f != NULL);
	CU_ASSERT_EQUAL(cbench_report_json(r, f), 0);
	fclose(f);
	return buf;
}

static void content(void)
{
	struct cbench_experiment e = { .desc = &desc, .id = "add_chain", .report_name = "BenchmarkAddChain" };
	struct cbench_sample s[2] = {
		{ .reps = 2, .ticks = 40 },
		{ .reps = 2, .ticks = 60, .disturbed = CBENCH_DISTURB_FAULT },
	};
	struct cbench_trial t[2] = {
		{ .n = 2, .samples = s, .nsamples = 2 },
		{ .n = 2, .error = -62 },
	};
	struct cbench_result res = { .exp = &e, .tuning = "cached", .n = 2, .trials = t, .ntrials = 2 };
	struct cbench_report r = { .backend = "user", .version = "v\"1\\", .so_path = "/a\nb.so",
				   .build_id = "ff", .results = &res, .nresults = 1 };
	char *out;

	r.timer.tsc_hz = 1e9;
	strcpy(r.env.disturb_source, "perf");
	strcpy(t[1].reason, "timeout after 1s");
	cbench_report_summarize(&r);
	out = render(&r);
	/* 40 ticks / (2 reps x 10 ops) = 2 ns/op; one sample discarded. */
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"ns_per_op\":2,"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"discarded\":1"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "{\"status\":\"failed\",\"reason\":\"timeout after 1s\"}"));
	/* Escapes: quote, backslash, control characters. */
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"cbench_version\":\"v\\\"1\\\\\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"so\":\"/a\\u000ab.so\""));
	/* No PMU, no calibrated add chain: those keys are absent, not 0. */
	CU_ASSERT_PTR_NULL(strstr(out, "cycles_per_op"));
	CU_ASSERT_PTR_NULL(strstr(out, "instructions_per_op"));
	CU_ASSERT_PTR_NULL(strstr(out, "mb_per_s"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"counters\":[]"));
	/* One good trial: its cv is 0 by the small-sample rule, not NaN text. */
	CU_ASSERT_PTR_NULL(strstr(out, "nan"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"failed_trials\":1"));
	/* One trial: no spread between trials; the headline is always the
	 * median of trials. */
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"placement_sensitive\":false,\"quote\":\"median_of_trials\","
				      "\"quote_ns_per_op\":2,\"quote_over\":\"trials\","));
	/* No code layout sampled: none of its keys. */
	CU_ASSERT_PTR_NULL(strstr(out, "layout"));
	CU_ASSERT_PTR_NULL(strstr(out, "placement_share"));
	CU_ASSERT_PTR_NULL(strstr(out, "between_trials"));
	/* Placement-sensitive: the median of trials is the quote. */
	res.between_var = 1e-4;
	res.within_var = 2.5e-5;
	res.placement_share = 0.75;
	res.placement_sensitive = true;
	res.ns_per_op = 2.5;
	free(out);
	out = render(&r);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"between_trials_sd_pct\":1,\"within_trials_sd_pct\":0.5,"
				      "\"placement_share\":0.75,\"placement_sensitive\":true,"
				      "\"quote\":\"median_of_trials\",\"quote_ns_per_op\":2.5,"
				      "\"quote_over\":\"placements\","));
	/* Code layouts sampled: how many, their share, what the median is of. */
	res.layouts = 5;
	res.layout_share = 0.5;
	res.layout_sensitive = true;
	t[0].layout = 3;
	t[0].run_offset = 4016;
	r.layouts_sampled = true;
	r.layout_seed = 5;
	r.layout_mode = 2;
	snprintf(r.layout_note, sizeof(r.layout_note), "laid out anew");
	free(out);
	out = render(&r);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"placement_sensitive\":true,\"layouts\":5,\"layout_share\":0.5,"
				      "\"layout_sensitive\":true,\"quote\":\"median_of_trials\","
				      "\"quote_ns_per_op\":2.5,\"quote_over\":\"layouts\","));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"code_layout\":{\"sampled\":true,\"seed\":5,"
				      "\"moves\":\"functions\",\"note\":\"laid out anew\"}"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"code_layout\":3,\"run_offset\":4016,"));
	free(out);
}

static void all_failed_gives_null(void)
{
	struct cbench_experiment e = { .desc = &desc, .id = "add_chain", .report_name = "BenchmarkAddChain" };
	struct cbench_trial t = { .n = 1, .error = -4 };
	struct cbench_result res = { .exp = &e, .tuning = "failed", .trials = &t, .ntrials = 1 };
	struct cbench_report r = { .backend = "user", .version = "v", .so_path = "x", .build_id = "y",
				   .results = &res, .nresults = 1 };
	char *out;

	r.timer.tsc_hz = 1e9;
	cbench_report_summarize(&r);
	out = render(&r);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"ns_per_op\":null"));
	CU_ASSERT_PTR_NULL(strstr(out, "nan"));
	free(out);
}

/* The text of key's value in out (the first occurrence), for parsing. */
static const char *value_of(const char *out, const char *key)
{
	char quoted[64];
	const char *at;

	snprintf(quoted, sizeof(quoted), "\"%s\":", key);
	at = strstr(out, quoted);
	return at ? at + strlen(quoted) : "";
}

/*
 * Parses key's value as an exact integer: a JSON number up to 2^53, a
 * string of its digits beyond (a double would round it), as the writer
 * puts them.
 */
static bool parse_uint(const char *out, const char *key, uint64_t *v)
{
	const char *text = value_of(out, key);
	bool quoted = *text == '"';
	char *end;

	errno = 0;
	*v = strtoull(text + quoted, &end, 10);
	if (end == text + quoted || errno || (quoted && *end++ != '"'))
		return false;
	/* A number beyond 2^53 is not exact for a reader; a string below is not ours. */
	if (quoted != (*v > (UINT64_C(1) << 53)))
		return false;
	return *end == ',' || *end == '}';
}

static bool parse_double(const char *out, const char *key, double *v)
{
	const char *text = value_of(out, key);
	char *end;

	*v = strtod(text, &end);
	return end != text && (*end == ',' || *end == '}');
}

/* Integers exact, doubles read back as the same double. */
static void numbers_exact(void)
{
	struct cbench_experiment e = { .desc = &desc, .id = "add_chain", .report_name = "BenchmarkAddChain" };
	struct cbench_sample s = { .reps = 2, .ticks = 40 };
	/* Past 2^53: no double holds it. */
	struct cbench_trial t = { .n = 9007199254740993ULL, .samples = &s, .nsamples = 1 };
	struct cbench_result res = { .exp = &e, .tuning = "tuned", .n = 9007199254740993ULL,
				     .trials = &t, .ntrials = 1 };
	struct cbench_report r = { .backend = "kmod", .version = "v", .so_path = "x", .build_id = "y",
				   .results = &res, .nresults = 1 };
	uint64_t u = 0;
	double d = 0;
	char *out;

	r.timer.tsc_hz = 2994373123.0;
	r.timer.precision_ns = 0.1 + 0.2;	/* 0.30000000000000004 */
	r.timer.accuracy_ns = 1.0 / 3.0;
	r.env.irqoff_budget_ns = 18446744073709551615ULL;
	cbench_report_summarize(&r);
	out = render(&r);
	CU_ASSERT(parse_uint(out, "timer_hz", &u));
	CU_ASSERT_EQUAL(u, 2994373123ULL);
	CU_ASSERT(parse_uint(out, "n", &u));
	CU_ASSERT_EQUAL(u, 9007199254740993ULL);
	CU_ASSERT(parse_uint(out, "irqoff_budget_ns", &u));
	CU_ASSERT_EQUAL(u, 18446744073709551615ULL);
	CU_ASSERT(parse_double(out, "timer_precision_ns", &d));
	CU_ASSERT_EQUAL(d, 0.1 + 0.2);
	CU_ASSERT(parse_double(out, "timer_accuracy_ns", &d));
	CU_ASSERT_EQUAL(d, 1.0 / 3.0);
	/* The first trial's n, after the result's. */
	CU_ASSERT(parse_uint(strstr(out, "\"trials\""), "n", &u));
	CU_ASSERT_EQUAL(u, 9007199254740993ULL);
	free(out);
}

static CU_TestInfo report_json_tests[] = {
	{ "integers exact, doubles round-trip", numbers_exact },
	{ "content, escapes, absent counters", content },
	{ "no estimate is null", all_failed_gives_null },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_report_json_suites[] = {
	{ "report_json", NULL, NULL, NULL, NULL, report_json_tests },
	CU_SUITE_INFO_NULL,
};
