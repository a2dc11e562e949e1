// SPDX-License-Identifier: GPL-2.0
/*
 * `cbenchctl selftest`'s report (report/report_selftest.c), text and JSON,
 * for fixed outcomes and fixed runs, against the golden files
 * tests/golden/selftest-*: the core judged as, every verdict, an expected
 * range, a cause shown and one only JSON has, a value not measured (null in
 * JSON), a table row without cores, the counts judged, one backend and two
 * side by side.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "golden.h"
#include "report/report_selftest.h"

static const struct cbench_machine machine = {
	.cpu_vendor = "AuthenticAMD", .cpu_name = "AMD EPYC 9454P 48-Core Processor",
	.cpu_family = 25, .cpu_model = 17, .cpu_stepping = 1,
};

static const struct cbench_core core = {
	.cpu = { .vendor = "AuthenticAMD", .family = 25, .model = 17 },
	.l1d_bytes = 32 << 10, .l2_bytes = 1 << 20, .l3_bytes = 32 << 20, .stlb_entries = 3072,
	.hypervisor = "KVMKVMKVM", .line = CBENCH_LINE_AMD_ZEN, .uarch = CBENCH_UARCH_ZEN4,
	.how = "family 19h with AVX-512; model 0x11 agrees",
};

/* What each backend's run said of its quiet, as selftest takes it from the run. */
static struct cbench_quietness user_rows[] = {
	{ .id = "latency_add", .ns_per_op = 0.27, .discarded = 0.04, .cv = 0.002, .gap = 0.27 / 0.269 - 1 },
	{ .id = "latency_imul", .ns_per_op = 0.81, .discarded = 0, .cv = 0.01, .gap = 0.81 / 0.8 - 1 },
};
static struct cbench_quietness kmod_rows[] = {
	{ .id = "latency_add", .ns_per_op = 0.2701, .discarded = 0.01, .cv = 0.0001,
	  .gap = 0.2701 / 0.27 - 1 },
};

static const struct cbench_backend_run user_run = {
	.label = "user", .timer = { .name = "tsc", .tsc_hz = 2994373000, .step_ticks = 26,
				    .overhead_ticks = 30.5 },
	.core_ghz_min = 3.6812, .core_ghz_max = 3.7049,
	.discarded_by = { [0] = 3, [2] = 1 },	/* context-switch, page-fault */
	.rows = user_rows, .n = 2,
};
static const struct cbench_backend_run kmod_run = {
	.label = "kmod (lvt)", .quiet = "lvt", .timer = { .name = "tsc", .tsc_hz = 2994373000,
							 .step_ticks = 1, .overhead_ticks = 24 },
	.core_ghz_min = 3.7, .core_ghz_max = 3.7,
	.discarded_by = { [4] = 1 },		/* nmi */
	.rows = kmod_rows, .n = 1,
};

static void add(struct cbench_selftest_backend *b, struct cbench_selftest_outcome c,
		const char *kernel, const char *cause)
{
	snprintf(c.kernel, sizeof(c.kernel), "%s", kernel);
	snprintf(c.cause, sizeof(c.cause), "%s", cause);
	b->checks[b->nchecks++] = c;
	b->judged += c.verdict == CBENCH_KNOWN_PASS || c.verdict == CBENCH_KNOWN_FAIL;
	b->passed += c.verdict == CBENCH_KNOWN_PASS;
	b->failed += c.verdict == CBENCH_KNOWN_FAIL || c.verdict == CBENCH_KNOWN_NOT_MEASURED;
	b->not_judged += c.verdict == CBENCH_KNOWN_NOT_JUDGED || c.verdict == CBENCH_KNOWN_UNSUPPORTED ||
			 c.verdict == CBENCH_KNOWN_NOT_RUN;
}

static void fill_user(struct cbench_selftest_backend *b)
{
	memset(b, 0, sizeof(*b));
	b->backend = "user";
	b->run = user_run;
	add(b, (struct cbench_selftest_outcome){ .name = "add", .what = "dependent add r64, r64 latency",
		.unit = "cycles", .source = "uops.info", .cores = "an AMD Zen", .expected = 1,
		.expected_hi = 1, .tolerance = 0.02, .measured = 1.0003, .verdict = CBENCH_KNOWN_PASS },
	    "latency_add", "");
	add(b, (struct cbench_selftest_outcome){ .name = "add", .what = "instructions per op (counted)",
		.unit = "instructions", .source = "the kernel's code", .cores = "any", .expected = 1,
		.expected_hi = 1, .tolerance = 0.01, .measured = 1.002, .verdict = CBENCH_KNOWN_PASS },
	    "", "a cause a passing check does not show");
	add(b, (struct cbench_selftest_outcome){ .name = "imul", .what = "dependent imul r64, r64 latency",
		.unit = "cycles", .source = "--expect", .cores = "as given", .expected = 4,
		.expected_hi = 4, .tolerance = 0.02, .measured = 2.9991, .verdict = CBENCH_KNOWN_FAIL },
	    "latency_imul", "2.999 cycles is -25.0% off 4 (tolerance 2%)");
	add(b, (struct cbench_selftest_outcome){ .name = "crc32", .what = "dependent crc32 r64, r64 latency",
		.unit = "cycles", .source = "no expectation", .cores = "", .expected = NAN,
		.expected_hi = NAN, .tolerance = 0.02, .measured = 3.01,
		.verdict = CBENCH_KNOWN_NOT_JUDGED }, "latency_crc32", "no value for AMD Zen 4 in the table");
	add(b, (struct cbench_selftest_outcome){ .name = "popcnt", .what = "dependent popcnt r64, r64 latency",
		.unit = "cycles", .source = "uops.info", .cores = "an AMD Zen", .expected = 1,
		.expected_hi = 1, .tolerance = 0.02, .measured = NAN, .verdict = CBENCH_KNOWN_UNSUPPORTED },
	    "latency_popcnt", "this CPU lacks an instruction of its kernel (CPUID)");
	add(b, (struct cbench_selftest_outcome){ .name = "l1", .what = "L1 load-to-use latency",
		.unit = "cycles", .source = "uops.info", .cores = "an AMD Zen", .expected = 4,
		.expected_hi = 4, .tolerance = 0.03, .measured = NAN, .verdict = CBENCH_KNOWN_NOT_MEASURED },
	    "latency_l1", "latency_l1: no trial measured it");
	add(b, (struct cbench_selftest_outcome){ .name = "l3", .what = "L3 load-to-use latency",
		.unit = "cycles", .source = "InstLatx64; range", .cores = "AMD Zen 4", .expected = 48,
		.expected_hi = 56, .tolerance = 0.1, .measured = 51.2, .verdict = CBENCH_KNOWN_PASS },
	    "latency_random_4096k", "");
	add(b, (struct cbench_selftest_outcome){ .name = "memory", .what = "memory load-to-use latency",
		.unit = "ns", .source = "no expectation", .cores = "", .expected = NAN,
		.expected_hi = NAN, .tolerance = 0, .measured = NAN, .verdict = CBENCH_KNOWN_NOT_RUN },
	    "latency_memory_64m", "latency_memory_64m: its arena is over cbench.ko's arena_max_bytes");
}

static void fill_kmod(struct cbench_selftest_backend *b)
{
	memset(b, 0, sizeof(*b));
	b->backend = "kmod";
	b->run = kmod_run;
	add(b, (struct cbench_selftest_outcome){ .name = "add", .what = "dependent add r64, r64 latency",
		.unit = "cycles", .source = "uops.info", .cores = "an AMD Zen", .expected = 1,
		.expected_hi = 1, .tolerance = 0.02, .measured = 1, .verdict = CBENCH_KNOWN_PASS },
	    "latency_add", "");
}

struct render_arg {
	const struct cbench_selftest_backend *b;
	int n;
	bool json;
};

static void render(FILE *f, const void *arg)
{
	const struct render_arg *a = arg;

	cbench_selftest_print(f, &machine, &core, a->b, a->n, a->json);
}

static void check(const char *name, const struct cbench_selftest_backend *b, int n)
{
	struct render_arg arg = { b, n, false };
	char path[64];
	char *text;

	snprintf(path, sizeof(path), "selftest-%s.txt", name);
	text = golden_render(render, &arg);
	golden_check(path, text);
	free(text);
	arg.json = true;
	snprintf(path, sizeof(path), "selftest-%s.json", name);
	text = golden_render(render, &arg);
	golden_check(path, text);
	free(text);
}

static void one_backend(void)
{
	struct cbench_selftest_backend b[1];

	fill_user(&b[0]);
	check("user", b, 1);
}

static void both_backends(void)
{
	struct cbench_selftest_backend b[2];

	fill_user(&b[0]);
	fill_kmod(&b[1]);
	check("both", b, 2);
}

static CU_TestInfo selftest_tests[] = {
	{ "one backend, text and JSON as the golden files", one_backend },
	{ "two backends side by side", both_backends },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_report_selftest_suites[] = {
	{ "report_selftest", NULL, NULL, NULL, NULL, selftest_tests },
	CU_SUITE_INFO_NULL,
};
