// SPDX-License-Identifier: GPL-2.0
/* A run on several CPUs: does a benchmark measure as it would alone? */
#include <CUnit/CUnit.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "report/report_jobs.h"

#define TRIALS 10

static struct cbench_trial trials[TRIALS];
static struct cbench_result res;
static struct cbench_report rep;

/* Trials of cycles c[0..TRIALS), the last alone; ns twice the cycles but
 * for a clock that ran 3 % slower in the trial alone. */
static void build(const double *c, bool cycles)
{
	memset(trials, 0, sizeof(trials));
	memset(&res, 0, sizeof(res));
	memset(&rep, 0, sizeof(rep));
	for (size_t i = 0; i < TRIALS; i++) {
		trials[i].est_cycles_per_op = cycles ? c[i] : NAN;
		trials[i].ns_per_op = c[i] / 2 * (i == TRIALS - 1 ? 1.03 : 1);
		trials[i].solo = i == TRIALS - 1;
	}
	res.trials = trials;
	res.ntrials = TRIALS;
	rep.results = &res;
	rep.nresults = 1;
	rep.jobs = 2;
}

static void compute_bound(void)
{
	const double c[TRIALS] = { 100.2, 100.1, 100.3, 100.2, 100.1, 100.4, 100.2, 100.2, 100.1, 100.0 };

	/* In cycles the trial alone is no faster: not named, whatever the
	 * clock did to its ns. */
	build(c, true);
	cbench_report_parallel(&rep);
	CU_ASSERT(fabs(res.parallel_gap - 0.001) < 1e-9);
	CU_ASSERT_FALSE(res.parallel_differs);
	CU_ASSERT_EQUAL(rep.parallel_differs_results, 0);
}

static void bandwidth_bound(void)
{
	const double c[TRIALS] = { 131, 129, 130, 133, 130, 128, 131, 132, 130, 100 };

	build(c, true);
	cbench_report_parallel(&rep);
	CU_ASSERT(fabs(res.parallel_gap - 0.28) < 1e-9);
	CU_ASSERT_TRUE(res.parallel_differs);
	CU_ASSERT_EQUAL(rep.parallel_differs_results, 1);
}

static void spread_beside_others(void)
{
	/* The trials beside others spread by 20 %: 5 % alone tells nothing. */
	const double c[TRIALS] = { 105, 140, 120, 130, 126, 110, 131, 132, 128, 100 };

	build(c, true);
	cbench_report_parallel(&rep);
	CU_ASSERT_FALSE(res.parallel_differs);
}

static void without_cycles(void)
{
	const double c[TRIALS] = { 131, 129, 130, 133, 130, 128, 131, 132, 130, 100 };

	/* ns then: the slow clock alone (3 %) still leaves it 24 % faster. */
	build(c, false);
	cbench_report_parallel(&rep);
	CU_ASSERT(fabs(res.parallel_gap - (128 / 103.0 - 1)) < 1e-9);
	CU_ASSERT_TRUE(res.parallel_differs);
}

static void one_cpu(void)
{
	const double c[TRIALS] = { 131, 129, 130, 133, 130, 128, 131, 132, 130, 100 };

	build(c, true);
	rep.jobs = 1;
	res.parallel_gap = 0;
	cbench_report_parallel(&rep);
	CU_ASSERT_FALSE(res.parallel_differs);
	/* No trial alone: nothing to tell. */
	build(c, true);
	trials[TRIALS - 1].solo = false;
	cbench_report_parallel(&rep);
	CU_ASSERT(isnan(res.parallel_gap));
	CU_ASSERT_FALSE(res.parallel_differs);
}

/*
 * Whether a trial ran alone is read from when the trials ran, not from
 * the round it was in: beside others where another CPU measured for half
 * its time or more.  A (CPU 0) and B (CPU 1) start together; B's second
 * trial ends early, so A's second runs mostly alone; A's third and B's
 * third run after the other's; a trial carried from a resumed run (no
 * times) keeps what it said.
 */
static void alone_by_time(void)
{
	struct cbench_trial a[4] = { 0 }, b[3] = { 0 };
	struct cbench_result two[2] = { { .trials = a, .ntrials = 4 }, { .trials = b, .ntrials = 3 } };
	const double at[3][2] = { { 1.0, 2.0 }, { 2.0, 3.0 }, { 3.0, 4.0 } };
	const double bt[3][2] = { { 1.0, 1.9 }, { 2.0, 2.3 }, { 4.0, 5.0 } };

	memset(&rep, 0, sizeof(rep));
	for (size_t i = 0; i < 3; i++) {
		a[i] = (struct cbench_trial){ .cpu = 0, .start_s = at[i][0], .end_s = at[i][1],
					      .solo = i == 1, .est_cycles_per_op = 100 };
		b[i] = (struct cbench_trial){ .cpu = 1, .start_s = bt[i][0], .end_s = bt[i][1],
					      .solo = false, .est_cycles_per_op = 100 };
	}
	a[3] = (struct cbench_trial){ .cpu = 1, .carried = true, .solo = true, .est_cycles_per_op = 100 };
	rep.results = two;
	rep.nresults = 2;
	rep.jobs = 2;
	cbench_report_parallel(&rep);
	CU_ASSERT_FALSE(a[0].solo);	/* B measured 90 % of it */
	CU_ASSERT_TRUE(a[1].solo);	/* B measured 30 % of it */
	CU_ASSERT_TRUE(a[2].solo);
	CU_ASSERT_TRUE(a[3].solo);	/* carried: as it was */
	CU_ASSERT_FALSE(b[0].solo);
	CU_ASSERT_FALSE(b[1].solo);	/* all of it beside A's second */
	CU_ASSERT_TRUE(b[2].solo);
	/* On one CPU nothing is read from the times. */
	a[0].solo = true;
	rep.jobs = 1;
	cbench_report_parallel(&rep);
	CU_ASSERT_TRUE(a[0].solo);
}

static void shares_core_verdict(void)
{
	/* Beside others 28 %, alone 1 %: the CPUs share a core. */
	CU_ASSERT_TRUE(cbench_beside_shares_core(&(struct cbench_beside){ 100, 28, 50, 1, false }));
	/* 27 % against 19 %: the host shares the core whatever we run. */
	CU_ASSERT_FALSE(cbench_beside_shares_core(&(struct cbench_beside){ 100, 27, 100, 19, false }));
	/* Too few beside others, however many shared. */
	CU_ASSERT_FALSE(cbench_beside_shares_core(&(struct cbench_beside){ 19, 19, 50, 0, false }));
	CU_ASSERT_TRUE(cbench_beside_shares_core(&(struct cbench_beside){ 20, 20, 50, 0, false }));
	/* Too few alone. */
	CU_ASSERT_FALSE(cbench_beside_shares_core(&(struct cbench_beside){ 100, 50, 9, 0, false }));
	/* 10 % of 20 against none of 10: chance can do that. */
	CU_ASSERT_FALSE(cbench_beside_shares_core(&(struct cbench_beside){ 20, 2, 10, 0, false }));
	/* 9 points apart, significant: under the 10 the verdict asks; 10
	 * points exactly, whatever the fractions round to. */
	CU_ASSERT_FALSE(cbench_beside_shares_core(&(struct cbench_beside){ 1000, 150, 1000, 60, false }));
	CU_ASSERT_TRUE(cbench_beside_shares_core(&(struct cbench_beside){ 1000, 160, 1000, 60, false }));
	CU_ASSERT_TRUE(cbench_beside_shares_core(&(struct cbench_beside){ 1000, 180, 1000, 80, false }));
	/* Twice the rate alone exactly: enough; just under: not. */
	CU_ASSERT_TRUE(cbench_beside_shares_core(&(struct cbench_beside){ 1000, 400, 1000, 200, false }));
	CU_ASSERT_FALSE(cbench_beside_shares_core(&(struct cbench_beside){ 1000, 399, 1000, 200, false }));
	/* 40 % against 25 %: significant, 15 points, not twice: the host. */
	CU_ASSERT_FALSE(cbench_beside_shares_core(&(struct cbench_beside){ 1000, 400, 1000, 250, false }));
	/* Nothing shared either way. */
	CU_ASSERT_FALSE(cbench_beside_shares_core(&(struct cbench_beside){ 100, 0, 100, 0, false }));
}

/* The foot of rep's table, as text to free. */
static char *foot_text(void)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	cbench_report_table_foot(&rep, f, false);
	fclose(f);
	return text;
}

/*
 * The run's counts: 40 trials beside others (20 shared) and 30 alone (none
 * shared) across two benchmarks, besides a failed trial, one without a
 * width, one without a valid measurement and one carried, which count
 * nowhere; the foot names the CPUs.
 */
static void shares_core_counted(void)
{
	struct cbench_trial a[37] = { 0 }, b[37] = { 0 };
	struct cbench_result two[2] = { { .trials = a, .ntrials = 37 }, { .trials = b, .ntrials = 37 } };
	char *text;

	for (size_t i = 0; i < 35; i++) {
		struct cbench_trial *t = &a[i];

		*t = (struct cbench_trial){ .solo = i >= 20, .est_cycles_per_op = 100, .valid = 40 };
		t->figures.have_width = true;
		t->cause = i < 10 ? CBENCH_TRIAL_SHARED : CBENCH_TRIAL_KEPT;
		b[i] = *t;
	}
	a[35] = a[0];
	a[35].error = -EIO;
	a[36] = a[0];
	a[36].figures.have_width = false;
	b[36] = a[0];
	b[36].valid = 0;
	b[35] = a[0];
	b[35].carried = true;
	memset(&rep, 0, sizeof(rep));
	rep.results = two;
	rep.nresults = 2;
	rep.jobs = 2;
	rep.cpus[0] = 3;
	rep.cpus[1] = 1;
	rep.core_ghz_min = NAN;
	cbench_report_parallel(&rep);
	CU_ASSERT_EQUAL(rep.beside.trials, 40);
	CU_ASSERT_EQUAL(rep.beside.shared, 20);
	CU_ASSERT_EQUAL(rep.beside.alone, 30);
	CU_ASSERT_EQUAL(rep.beside.alone_shared, 0);
	CU_ASSERT_TRUE(rep.beside.shares_core);
	text = foot_text();
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "50% of the 40 trials measured beside others ran on a "
					  "shared core, against 0% of the 30 measured alone: CPUs 3 "
					  "and 1 share a core at times"));
	free(text);
	/* As many shared alone: the host's doing, not ours; nothing said. */
	for (size_t i = 20; i < 35; i++)
		a[i].cause = b[i].cause = i < 30 ? CBENCH_TRIAL_SHARED : CBENCH_TRIAL_KEPT;
	cbench_report_parallel(&rep);
	CU_ASSERT_EQUAL(rep.beside.alone_shared, 20);
	CU_ASSERT_FALSE(rep.beside.shares_core);
	text = foot_text();
	CU_ASSERT_PTR_NULL(strstr(text, "share a core"));
	free(text);
	/* One CPU: nothing counted, nothing said. */
	rep.jobs = 1;
	cbench_report_parallel(&rep);
	CU_ASSERT_EQUAL(rep.beside.trials, 0);
	CU_ASSERT_FALSE(rep.beside.shares_core);
}

static CU_TestInfo jobs_tests[] = {
	{ "compute-bound: the same alone, in cycles", compute_bound },
	{ "bandwidth-bound: faster alone, named", bandwidth_bound },
	{ "a spread beside others hides a small gap", spread_beside_others },
	{ "in ns without the reference chain", without_cycles },
	{ "one CPU, or no trial alone: nothing said", one_cpu },
	{ "alone or beside others: as the trials ran", alone_by_time },
	{ "CPUs that share a core: the verdict", shares_core_verdict },
	{ "CPUs that share a core: counted, and said", shares_core_counted },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_report_jobs_suites[] = {
	{ "run on several CPUs: measured alone and beside others", NULL, NULL, NULL, NULL, jobs_tests },
	CU_SUITE_INFO_NULL,
};
