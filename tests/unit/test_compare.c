// SPDX-License-Identifier: GPL-2.0
/*
 * `cbenchctl compare` on small report files whose answer is known: the
 * table's rows, benchmarks present on one side only, and bad values that
 * must be refused with the file and line named.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "subcommands.h"

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

/* Runs compare OLD NEW with stdout and stderr in *out and *err (malloc'd). */
static int compare(const char *a, const char *b, char **out, char **err)
{
	char pa[128], pb[128], po[128], pe[128];
	char *argv[] = { "compare", pa, pb, NULL };
	int saved_out = dup(STDOUT_FILENO), saved_err = dup(STDERR_FILENO), ret;
	FILE *f;
	long len;

	snprintf(pa, sizeof(pa), "%s/%s", dir, a);
	snprintf(pb, sizeof(pb), "%s/%s", dir, b);
	snprintf(po, sizeof(po), "%s/stdout", dir);
	snprintf(pe, sizeof(pe), "%s/stderr", dir);
	fflush(stdout);
	fflush(stderr);
	dup2(open(po, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644), STDOUT_FILENO);
	dup2(open(pe, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644), STDERR_FILENO);
	ret = cbench_cmd_compare(3, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(saved_out, STDOUT_FILENO);
	dup2(saved_err, STDERR_FILENO);
	close(saved_out);
	close(saved_err);
	for (int k = 0; k < 2; k++) {
		char **dst = k ? err : out;

		f = fopen(k ? pe : po, "r");
		fseek(f, 0, SEEK_END);
		len = ftell(f);
		rewind(f);
		*dst = calloc(1, (size_t)len + 1);
		if (fread(*dst, 1, (size_t)len, f) != (size_t)len)
			(*dst)[0] = '\0';
		fclose(f);
	}
	return ret;
}

static void slower_and_absent(void)
{
	char *out, *err;

	/* Old: 10 trials at 1.00 ns/op; new: 10 at 2.00; Gone only old, Fresh only new. */
	put("old.txt", "goos: linux\n"
		"BenchmarkA 1 1.00 ns/op\nBenchmarkA 1 1.01 ns/op\nBenchmarkA 1 1.02 ns/op\n"
		"BenchmarkA 1 1.03 ns/op\nBenchmarkA 1 1.04 ns/op\nBenchmarkA 1 1.05 ns/op\n"
		"BenchmarkGone 1 5 ns/op\n");
	put("new.txt", "goos: linux\n"
		"BenchmarkA 1 2.00 ns/op\nBenchmarkA 1 2.01 ns/op\nBenchmarkA 1 2.02 ns/op\n"
		"BenchmarkA 1 2.03 ns/op\nBenchmarkA 1 2.04 ns/op\nBenchmarkA 1 2.05 ns/op\n"
		"BenchmarkFresh 1 7 ns/op\n");
	CU_ASSERT_EQUAL(compare("old.txt", "new.txt", &out, &err), 0);
	/* The change it prints is the one between the minima: +100 %. */
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "+100.00%"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "slower"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "Gone"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "(absent)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "Fresh"));
	free(out);
	free(err);
}

static void bad_values_refused(void)
{
	static const char *const bad[] = { "nan", "inf", "-1.5", "0", "1.0x" };
	char *out, *err;

	put("good.txt", "BenchmarkA 1 1.00 ns/op\n");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char text[64];

		snprintf(text, sizeof(text), "goos: linux\nBenchmarkA 1 %s ns/op\n", bad[i]);
		put("bad.txt", text);
		CU_ASSERT_NOT_EQUAL(compare("good.txt", "bad.txt", &out, &err), 0);
		/* Names the file and the line. */
		CU_ASSERT_PTR_NOT_NULL(strstr(err, "bad.txt"));
		CU_ASSERT_PTR_NOT_NULL(strstr(err, "line 2"));
		free(out);
		free(err);
	}
}

static CU_TestInfo compare_tests[] = {
	{ "a doubling is slower by +100%, absent names shown", slower_and_absent },
	{ "NaN, Inf, negative and zero ns/op refused", bad_values_refused },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_compare_suites[] = {
	{ "compare", setup, teardown, NULL, NULL, compare_tests },
	CU_SUITE_INFO_NULL,
};
