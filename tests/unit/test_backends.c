// SPDX-License-Identifier: GPL-2.0
/*
 * Two backends side by side (report/backends.c) on small runs held in
 * memory whose answer is known: shares discarded, the spread and gap of
 * trials, and the disturbances summed by cause over every benchmark and
 * trial (a failed trial's counted nowhere).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "report/backends.h"
#include "report/report.h"

static struct cbench_experiment exp_a = { .id = "a" }, exp_b = { .id = "b" };

/* User mode: a (two trials and a failed one) and b; ring 0 in LVT mode: a. */
static void runs(struct cbench_report *u, struct cbench_report *k, struct cbench_result ur[2],
		 struct cbench_result *kr, struct cbench_trial ut[4], struct cbench_trial *kt)
{
	memset(ut, 0, 4 * sizeof(*ut));
	ut[0] = (struct cbench_trial){ .nsamples = 100, .discarded = 10 };
	ut[0].discarded_by[0] = 8;	/* context-switch */
	ut[0].discarded_by[2] = 3;	/* page-fault */
	ut[1] = (struct cbench_trial){ .nsamples = 100 };
	ut[2] = (struct cbench_trial){ .error = -EIO, .nsamples = 1000, .discarded = 1000 };
	ut[2].discarded_by[0] = 1000;
	ut[3] = (struct cbench_trial){ .nsamples = 50, .discarded = 1 };
	ut[3].discarded_by[0] = 1;
	ur[0] = (struct cbench_result){ .exp = &exp_a, .trials = ut, .ntrials = 3, .ns_per_op = 2.2,
					.least_ns_per_op = 2, .cv = 0.05 };
	ur[1] = (struct cbench_result){ .exp = &exp_b, .trials = ut + 3, .ntrials = 1, .ns_per_op = 4,
					.least_ns_per_op = NAN, .cv = 0 };
	*kt = (struct cbench_trial){ .nsamples = 200, .discarded = 2 };
	kt->discarded_by[4] = 1;	/* nmi */
	kt->discarded_by[6] = 1;	/* interrupt */
	*kr = (struct cbench_result){ .exp = &exp_a, .trials = kt, .ntrials = 1, .ns_per_op = 1.9,
				      .least_ns_per_op = 1.9, .cv = 0.001 };
	memset(u, 0, sizeof(*u));
	memset(k, 0, sizeof(*k));
	u->backend = "user";
	u->results = ur;
	u->nresults = 2;
	u->core_ghz_min = u->core_ghz_max = NAN;
	k->backend = "kmod";
	snprintf(k->env.quiet, sizeof(k->env.quiet), "lvt");
	k->results = kr;
	k->nresults = 1;
	k->core_ghz_min = k->core_ghz_max = NAN;
}

static void quietness(void)
{
	struct cbench_report u, k;
	struct cbench_result ur[2], kr;
	struct cbench_trial ut[4], kt;
	struct cbench_backend_run bu;
	const struct cbench_quietness *q;

	runs(&u, &k, ur, &kr, ut, &kt);
	CU_ASSERT_EQUAL_FATAL(cbench_backend_run_of(&u, &bu), 0);
	q = cbench_backend_row(&bu, "a");
	CU_ASSERT_FATAL(q != NULL);
	CU_ASSERT_DOUBLE_EQUAL(q->ns_per_op, 2.2, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(q->discarded, 0.05, 1e-12);	/* 10 of 200: the failed trial's not */
	CU_ASSERT_DOUBLE_EQUAL(q->cv, 0.05, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(q->gap, 0.1, 1e-12);
	/* No least trial: no gap below the headline. */
	CU_ASSERT_DOUBLE_EQUAL(cbench_backend_row(&bu, "b")->gap, 0, 1e-12);
	CU_ASSERT_PTR_NULL(cbench_backend_row(&bu, "absent"));
	CU_ASSERT_STRING_EQUAL(bu.label, "user");
	cbench_backend_run_free(&bu);
}

static void disturbances(void)
{
	struct cbench_report u, k;
	struct cbench_result ur[2], kr;
	struct cbench_trial ut[4], kt;
	struct cbench_backend_run bu, bk;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	runs(&u, &k, ur, &kr, ut, &kt);
	CU_ASSERT_EQUAL_FATAL(cbench_backend_run_of(&u, &bu), 0);
	CU_ASSERT_EQUAL_FATAL(cbench_backend_run_of(&k, &bk), 0);
	CU_ASSERT_EQUAL(bu.discarded_by[0], 9);	/* context-switch: 8 + 1, over benchmarks */
	CU_ASSERT_EQUAL(bu.discarded_by[2], 3);	/* page-fault */
	CU_ASSERT_EQUAL(bu.discarded_by[4], 0);	/* nmi */
	CU_ASSERT_STRING_EQUAL(bk.label, "kmod (lvt)");
	cbench_backends_print(f, &bu, &bk, NULL, NULL, 0);
	fclose(f);
	CU_ASSERT(strstr(text, "what kmod (lvt) removes against user") != NULL);
	/* A row per benchmark of the first run, b missing from the second. */
	CU_ASSERT(strstr(text, "\na ") != NULL && strstr(text, "\nb ") != NULL);
	CU_ASSERT(strstr(text, "user        context-switch 9, page-fault 3\n") != NULL);
	CU_ASSERT(strstr(text, "kmod (lvt)  nmi 1, interrupt 1\n") != NULL);
	free(text);
	cbench_backend_run_free(&bu);
	cbench_backend_run_free(&bk);
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
