// SPDX-License-Identifier: GPL-2.0
/*
 * Two backends side by side (report/backends.c) on small JSON reports whose
 * answer is known: shares discarded, the spread and gap of trials, and the
 * disturbances summed by cause over every benchmark and trial.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "report/backends.h"

static const char user_report[] =
	"{\"config\":{\"backend\":\"user\"},\"benchmarks\":["
	"{\"id\":\"a\",\"ns_per_op\":2.2,\"least_trial_ns_per_op\":2,\"cv_of_trials\":0.05,"
	"\"trials\":[{\"measurements\":100,\"discarded\":10,\"discarded_by\":{\"context-switch\":8,"
	"\"page-fault\":3}},{\"measurements\":100,\"discarded\":0,\"discarded_by\":{}}]},"
	"{\"id\":\"b\",\"ns_per_op\":4,\"median_of_trials_ns_per_op\":4,\"cv_of_trials\":0,"
	"\"trials\":[{\"measurements\":50,\"discarded\":1,\"discarded_by\":{\"context-switch\":1}}]}]}";
static const char kmod_report[] =
	"{\"config\":{\"backend\":\"kmod\",\"quiet_mode\":\"lvt\"},\"benchmarks\":["
	"{\"id\":\"a\",\"ns_per_op\":1.9,\"median_of_trials_ns_per_op\":1.9,\"cv_of_trials\":0.001,"
	"\"trials\":[{\"measurements\":200,\"discarded\":2,\"discarded_by\":{\"nmi\":1,\"interrupt\":1}}]}]}";

static struct cbench_json *parse(const char *text)
{
	struct cbench_json *j = NULL;
	char err[128];

	CU_ASSERT_FATAL(cbench_json_parse(text, strlen(text), &j, err, sizeof(err)) == 0);
	return j;
}

static void quietness(void)
{
	struct cbench_json *u = parse(user_report);
	struct cbench_quietness q;

	cbench_quietness_of(u, "a", &q);
	CU_ASSERT_DOUBLE_EQUAL(q.ns_per_op, 2.2, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(q.discarded, 0.05, 1e-12);	/* 10 of 200 */
	CU_ASSERT_DOUBLE_EQUAL(q.cv, 0.05, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(q.gap, 0.1, 1e-12);
	/* Not in the report: every figure unknown. */
	cbench_quietness_of(u, "absent", &q);
	CU_ASSERT(isnan(q.ns_per_op) && isnan(q.discarded) && isnan(q.cv));
	cbench_json_free(u);
}

static void disturbances(void)
{
	struct cbench_json *u = parse(user_report), *k = parse(kmod_report);
	double c[CBENCH_DISTURB_KINDS];
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	cbench_discarded_by(u, c);
	CU_ASSERT_EQUAL(c[0], 9);	/* context-switch: 8 + 1, over benchmarks */
	CU_ASSERT_EQUAL(c[2], 3);	/* page-fault */
	CU_ASSERT_EQUAL(c[4], 0);	/* nmi */
	cbench_backends_print(f, u, k, NULL, NULL, 0);
	fclose(f);
	CU_ASSERT(strstr(text, "what kmod (lvt) removes against user") != NULL);
	/* A row per benchmark of the first report, b missing from the second. */
	CU_ASSERT(strstr(text, "\na ") != NULL && strstr(text, "\nb ") != NULL);
	CU_ASSERT(strstr(text, "user        context-switch 9, page-fault 3\n") != NULL);
	CU_ASSERT(strstr(text, "kmod (lvt)  nmi 1, interrupt 1\n") != NULL);
	free(text);
	cbench_json_free(u);
	cbench_json_free(k);
}

static CU_TestInfo backends_tests[] = {
	{ "a benchmark's quiet from its trials", quietness },
	{ "disturbances by cause, side by side", disturbances },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_backends_suites[] = {
	{ "backends", NULL, NULL, NULL, NULL, backends_tests },
	CU_SUITE_INFO_NULL,
};
