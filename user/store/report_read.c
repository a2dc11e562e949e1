// SPDX-License-Identifier: GPL-2.0
/* A run's JSON report into the store's run; see report_read.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/figures.h"
#include "results/doc.h"
#include "stats/stats.h"
#include "store/report_read.h"
#include "store/run.h"

/*
 * The headline of metric m for a benchmark, as the run quotes it: ns per
 * op is the figure the report leads with (schema 2's the median of the
 * kept trials; schema 1's the least trial, or the median of trials where
 * they differ by placement), est-cycles the benchmark's own (the median of
 * trials); the counters, which the report gives per trial only, the median
 * of trials.  Trials set aside as disturbed count in none of them.
 */
static double headline(const struct cbench_doc_bench *b, const struct cbench_result *res,
		       enum cbench_metric m, const double *trials, size_t n)
{
	double v = m == CBENCH_METRIC_NS ? b->quote_ns : m == CBENCH_METRIC_EST_CYCLES ?
		   res->est_cycles_per_op : NAN;

	return isfinite(v) && v > 0 ? v : cbench_stats_median(trials, n);
}

/* Metric m of one benchmark, if any of its trials measured it. */
static int read_metric(const struct cbench_doc_bench *b, const struct cbench_result *res,
		       const char *name, enum cbench_metric m, double *v, struct cbench_store_run *run)
{
	struct cbench_store_result r = { .metric = m };

	for (size_t i = 0; i < res->ntrials; i++)
		if (cbench_doc_trial_value(&res->trials[i], m, &v[r.ntrials]))
			r.ntrials++;
	if (!r.ntrials)
		return 0;
	snprintf(r.name, sizeof(r.name), "%s", name);
	r.trials = v;
	cbench_store_result_spread(&r);
	r.value = headline(b, res, m, v, r.ntrials);
	return cbench_store_run_push(run, &r);
}

/*
 * Whether every trial res kept ran on a core another thread shared: kept
 * for want of any other once replacements and --shared-wait were spent
 * (report.c's shared_back()), so its figures are another thread's as much
 * as the code's (xxHash's vector code read 15-60 % slow in them).  Such a
 * figure in a series is a change point of nothing; left out, the commit is
 * one history says to measure again.
 */
static bool all_shared(const struct cbench_result *res)
{
	size_t kept = 0, shared = 0;

	for (size_t i = 0; i < res->ntrials; i++) {
		const struct cbench_trial *t = &res->trials[i];

		if (t->error || !t->valid || t->set_aside)
			continue;
		kept++;
		shared += t->cause == CBENCH_TRIAL_SHARED;
	}
	return kept && shared == kept;
}

/* Benchmarks left out of the run (all_shared()): how many, the first. */
struct left_out {
	size_t n;
	char first[128];
};

/* One benchmark: each metric it measured. */
static int read_benchmark(const struct cbench_doc_bench *b, struct cbench_store_run *run,
			  struct left_out *out)
{
	struct cbench_result res = { 0 };
	const char *name = b->name;
	double *v;
	int ret;

	if (!strncmp(name, "Benchmark", 9))
		name += 9;
	if (!*name)
		return 0;
	ret = cbench_doc_result(b, &res);
	if (!ret && all_shared(&res)) {
		if (!out->n++)
			snprintf(out->first, sizeof(out->first), "%s", name);
		free(res.trials);
		return 0;
	}
	v = ret ? NULL : malloc((res.ntrials + 1) * sizeof(*v));
	if (!v) {
		free(res.trials);
		return -ENOMEM;
	}
	for (int m = 0; !ret && m < CBENCH_METRICS; m++)
		ret = read_metric(b, &res, name, (enum cbench_metric)m, v, run);
	free(v);
	free(res.trials);
	return ret;
}

/* The machine, the object and the run's facts from the report's head. */
static int read_head(const struct cbench_doc_head *h, struct cbench_store_run *run, char *err,
		     size_t errlen)
{
	const char *base = strrchr(h->so, '/');

	snprintf(run->machine, sizeof(run->machine), "%s", h->machine);
	snprintf(run->cpu, sizeof(run->cpu), "%s (%s)", h->cpu_model[0] ? h->cpu_model : "?",
		 h->cpu[0] ? h->cpu : "?");
	run->cpu_count = h->cpu_count > 0 ? (int)h->cpu_count : 0;
	snprintf(run->backend, sizeof(run->backend), "%s", h->backend);
	snprintf(run->object_path, sizeof(run->object_path), "%s", h->so);
	snprintf(run->object, sizeof(run->object), "%s", base ? base + 1 : h->so);
	snprintf(run->build_id, sizeof(run->build_id), "%s", h->so_build_id);
	snprintf(run->date, sizeof(run->date), "%s", h->date);
	snprintf(run->run_id, sizeof(run->run_id), "%s", h->run_id);
	snprintf(run->kernel, sizeof(run->kernel), "%s", h->kernel);
	snprintf(run->version, sizeof(run->version), "%s", h->version);
	run->source = "json";
	if (!run->machine[0] || !run->backend[0] || !run->object[0] || !run->build_id[0] ||
	    !run->date[0]) {
		snprintf(err, errlen, "the report's config lacks %s", !run->machine[0] ? "the machine" :
			 !run->backend[0] ? "the backend" : !run->object[0] ? "the object (so)" :
			 !run->build_id[0] ? "the object's build ID" : "the date");
		return -EINVAL;
	}
	return 0;
}

int cbench_store_read_report(const char *text, size_t len, struct cbench_store_run *run, char *note,
			     size_t notelen, char *err, size_t errlen)
{
	struct cbench_doc d = { 0 };
	struct left_out out = { 0 };
	int ret;

	memset(run, 0, sizeof(*run));
	/* A report edited after it was written is refused as that (its
	 * digest), before any member it changed is judged (results/doc.h). */
	ret = cbench_doc_parse(&d, text, len, CBENCH_DOC_DIGEST | CBENCH_DOC_WHOLE | CBENCH_DOC_IMPORT_HINT,
			       err, errlen);

	snprintf(note, notelen, "%s", ret ? "" : d.note);
	ret = ret ? ret : read_head(&d.head, run, err, errlen);
	for (size_t i = 0; !ret && i < d.nbench; i++)
		ret = read_benchmark(&d.bench[i], run, &out);
	if (!ret && out.n) {
		size_t at = strlen(note);

		snprintf(note + at, notelen - at, "%s%zu benchmark%s left out (%s%s): every trial "
			 "kept ran on a core another thread shared, a figure of that thread's as much as "
			 "the code's; measure again at a quieter moment, or keep them with --keep-shared",
			 at ? "; " : "", out.n, out.n > 1 ? "s" : "", out.first, out.n > 1 ? ", ..." : "");
	}
	if (!ret && !run->nresults) {
		snprintf(err, errlen, out.n ? "no benchmark of this run has a figure to add: every trial "
			 "kept ran on a core another thread shared (measure again at a quieter moment, or "
			 "with --keep-shared)" : "no benchmark of this run measured anything (every trial "
			 "failed)");
		ret = out.n ? -EAGAIN : -EINVAL;
	}
	if (ret == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	if (ret)
		cbench_store_run_free(run);
	cbench_doc_free(&d);
	return ret;
}
