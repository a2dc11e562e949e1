// SPDX-License-Identifier: GPL-2.0
/*
 * A run on several CPUs at once (run --jobs): does a benchmark measure as
 * it would alone?  Compute-bound code does; code bound by memory bandwidth,
 * a shared cache or a shared core's ports (SMT siblings of a VM's host)
 * does not.  Each benchmark's last trial runs alone (run.c), its others
 * beside trials on the other CPUs: alone clearly faster than the fastest
 * measured beside others, by more than those spread, names it.  In cycles
 * where the reference chain gives them: a host's clock moves with how many
 * of its cores are busy, which ns/op follows and the work does not.
 */
#include <math.h>
#include <stdlib.h>

#include "report/model.h"
#include "report/report_jobs.h"
#include "stats/stats.h"

/* The least gap we name, relative: within it, trials on one CPU differ too. */
#define PARALLEL_GAP_MIN 0.01

/* Whether every kept trial of res has a cycle estimate. */
static bool in_cycles(const struct cbench_result *res)
{
	for (size_t i = 0; i < res->ntrials; i++) {
		const struct cbench_trial *t = &res->trials[i];

		if (!t->error && !t->set_aside && !isfinite(t->est_cycles_per_op))
			return false;
	}
	return true;
}

static void one(struct cbench_result *res)
{
	double *beside, alone = INFINITY, least, median;
	bool cycles = in_cycles(res);
	size_t n = 0;

	res->parallel_gap = NAN;
	res->parallel_differs = false;
	beside = malloc(res->ntrials * sizeof(*beside));
	if (!beside)
		return;		/* nothing said, rather than a guess */
	for (size_t i = 0; i < res->ntrials; i++) {
		const struct cbench_trial *t = &res->trials[i];
		double v = cycles ? t->est_cycles_per_op : t->ns_per_op;

		if (t->error || t->set_aside || isnan(v))
			continue;
		if (t->solo)
			alone = fmin(alone, v);
		else
			beside[n++] = v;
	}
	if (isinf(alone) || n < 2) {
		free(beside);
		return;
	}
	median = cbench_stats_median(beside, n);
	least = beside[0];
	for (size_t i = 1; i < n; i++)
		least = fmin(least, beside[i]);
	free(beside);
	res->parallel_gap = least / alone - 1;
	res->parallel_differs = res->parallel_gap > fmax(PARALLEL_GAP_MIN, median / least - 1);
}

void cbench_report_parallel(struct cbench_report *r)
{
	r->parallel_differs_results = 0;
	for (size_t i = 0; r->jobs > 1 && i < r->nresults; i++) {
		if (r->results[i].carried)
			continue;
		one(&r->results[i]);
		r->parallel_differs_results += r->results[i].parallel_differs;
	}
}
