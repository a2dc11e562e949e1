// SPDX-License-Identifier: GPL-2.0
/*
 * A run on several CPUs at once (run --jobs): does a benchmark measure as
 * it would alone?  Compute-bound code does; code bound by memory bandwidth,
 * a shared cache or a shared core's ports (SMT siblings of a VM's host)
 * does not.  Each benchmark's last trial runs alone (run.c), its others
 * beside trials on the other CPUs (as the times they ran say:
 * alone_by_time()): alone clearly faster than the fastest
 * measured beside others, by more than those spread, names it.  In cycles
 * where the reference chain gives them: a host's clock moves with how many
 * of its cores are busy, which ns/op follows and the work does not.
 */
#include <math.h>
#include <stdlib.h>

#include "report/model.h"
#include "report/report_jobs.h"
#include "stats/stats.h"
#include "stats/trials.h"

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

/* A trial's time on its CPU, for alone_by_time(). */
struct span {
	struct cbench_trial *t;
	int cpu;
	double start, end;
};

static int by_cpu_start(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	if (x->cpu != y->cpu)
		return (x->cpu > y->cpu) - (x->cpu < y->cpu);
	return (x->start > y->start) - (x->start < y->start);
}

/* How much of [start, end) the spans v[a..b) of one CPU (in order, never
 * overlapping: a CPU runs a trial at a time) cover. */
static double covered(const struct span *v, size_t a, size_t b, double start, double end)
{
	size_t lo = a, hi = b;
	double sum = 0;

	while (lo < hi) {		/* the first that ends after start */
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].end <= start)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t k = lo; k < b && v[k].start < end; k++)
		sum += fmin(end, v[k].end) - fmax(start, v[k].start);
	return sum;
}

/*
 * Whether each trial this run measured ran alone, from when the trials
 * ran: beside others where, for half its time or more, another CPU was
 * measuring a trial.  A round's trials are meant to run beside others,
 * but a CPU that has no trial left in a round waits for the round's end
 * (--precision's rounds, a round's last trials, one benchmark on two
 * CPUs), and a trial then alone must not count as measured beside others.
 * Trials carried from the run resumed keep what it said.  Leaves the flags
 * as they were if out of memory.
 */
static void alone_by_time(struct cbench_report *r)
{
	struct span *v;
	size_t n = 0, cpus = 0, *first;

	for (size_t i = 0; i < r->nresults; i++)
		n += r->results[i].carried ? 0 : r->results[i].ntrials;
	v = malloc((n ? n : 1) * sizeof(*v));
	first = malloc((n + 1) * sizeof(*first));
	if (!v || !first) {
		free(v);
		free(first);
		return;
	}
	n = 0;
	for (size_t i = 0; i < r->nresults; i++) {
		struct cbench_result *res = &r->results[i];

		for (size_t j = 0; !res->carried && j < res->ntrials; j++) {
			struct cbench_trial *t = &res->trials[j];

			if (!t->carried && t->start_s > 0 && t->end_s > t->start_s)
				v[n++] = (struct span){ t, t->cpu, t->start_s, t->end_s };
		}
	}
	qsort(v, n, sizeof(*v), by_cpu_start);
	/* Each CPU's spans: v[first[c] .. first[c + 1]). */
	for (size_t k = 0; k < n; k++)
		if (!k || v[k].cpu != v[k - 1].cpu)
			first[cpus++] = k;
	first[cpus] = n;
	for (size_t k = 0; k < n; k++) {
		double most = 0;

		for (size_t c = 0; c < cpus; c++)
			if (v[first[c]].cpu != v[k].cpu)
				most = fmax(most, covered(v, first[c], first[c + 1], v[k].start,
							  v[k].end));
		v[k].t->solo = most < (v[k].end - v[k].start) / 2;
	}
	free(first);
	free(v);
}

/* The least trials each way for a verdict on sharing. */
#define BESIDE_MIN_TRIALS 20
#define ALONE_MIN_TRIALS 10
/* z of a one-sided p of 0.001 */
#define BESIDE_Z 3.09

bool cbench_beside_shares_core(const struct cbench_beside *b)
{
	/* The rates' difference and ratio in whole numbers (s/t against a/n:
	 * s n - a t over t n), so that 10 points are 10 points exactly. */
	double sn = (double)b->shared * (double)b->alone, at = (double)b->alone_shared * (double)b->trials;
	double tn = (double)b->trials * (double)b->alone, pooled, se;

	if (b->trials < BESIDE_MIN_TRIALS || b->alone < ALONE_MIN_TRIALS)
		return false;
	if (!(10 * (sn - at) >= tn && sn >= 2 * at))
		return false;
	pooled = (double)(b->shared + b->alone_shared) / (double)(b->trials + b->alone);
	se = sqrt(pooled * (1 - pooled) * (1 / (double)b->trials + 1 / (double)b->alone));
	return se > 0 && (sn - at) / tn / se >= BESIDE_Z;
}

/* r->beside (zeroed), from the trials this run measured (flags as alone_by_time() set them). */
static void count_beside(struct cbench_report *r)
{
	struct cbench_beside *b = &r->beside;

	for (size_t i = 0; i < r->nresults; i++) {
		const struct cbench_result *res = &r->results[i];

		for (size_t j = 0; !res->carried && j < res->ntrials; j++) {
			const struct cbench_trial *t = &res->trials[j];
			bool shared = t->cause == CBENCH_TRIAL_SHARED;

			if (t->carried || t->error || !t->valid || !t->figures.have_width)
				continue;
			if (t->solo) {
				b->alone++;
				b->alone_shared += shared;
			} else {
				b->trials++;
				b->shared += shared;
			}
		}
	}
	b->shares_core = cbench_beside_shares_core(b);
}

void cbench_report_parallel(struct cbench_report *r)
{
	r->parallel_differs_results = 0;
	r->beside = (struct cbench_beside){ 0 };
	if (r->jobs > 1) {
		alone_by_time(r);
		count_beside(r);
	}
	for (size_t i = 0; r->jobs > 1 && i < r->nresults; i++) {
		if (r->results[i].carried)
			continue;
		one(&r->results[i]);
		r->parallel_differs_results += r->results[i].parallel_differs;
	}
}
