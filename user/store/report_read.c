// SPDX-License-Identifier: GPL-2.0
/* A run's JSON report into the store's run; see report_read.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/json.h"
#include "report/json_writer.h"
#include "stats/stats.h"
#include "store/report_read.h"
#include "store/run.h"

/*
 * The headline of metric m for a benchmark, as the run quotes it: ns per
 * op is the figure the report leads with (quote_ns_per_op: schema 2's the
 * median of the kept trials; schema 1's the least trial, or the median of
 * trials where they differ by placement), est-cycles the benchmark's own
 * (the median of trials); the counters, which the report gives per trial
 * only, the median of trials.  Trials set aside as disturbed (schema 2:
 * status "set_aside") count in none of them.
 */
static double headline(const struct cbench_json *b, enum cbench_metric m,
		       const double *trials, size_t n)
{
	double v = NAN;

	if (m == CBENCH_METRIC_NS)
		v = cbench_json_number(b, "quote_ns_per_op", cbench_json_number(b, "ns_per_op", NAN));
	else if (m == CBENCH_METRIC_EST_CYCLES)
		v = cbench_json_number(b, "est_cycles_per_op", NAN);
	return isfinite(v) && v > 0 ? v : cbench_stats_median(trials, n);
}

/* Metric m of one benchmark, if any of its trials measured it. */
static int read_metric(const struct cbench_json *b, const char *name, enum cbench_metric m,
		       struct cbench_store_run *run)
{
	const struct cbench_json *trials = cbench_json_get(b, "trials");
	struct cbench_store_result res = { .metric = m };
	double *v;
	int ret;

	if (!trials || trials->type != CBENCH_JSON_ARRAY)
		return 0;
	v = malloc((trials->n + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < trials->n; i++) {
		const struct cbench_json *t = &trials->items[i];
		double x = cbench_json_number(t, cbench_metric_members[m], NAN);

		if (!strcmp(cbench_json_string(t, "status", ""), "ok") && isfinite(x) && x > 0)
			v[res.ntrials++] = x;
	}
	if (!res.ntrials) {
		free(v);
		return 0;
	}
	snprintf(res.name, sizeof(res.name), "%s", name);
	res.trials = v;
	cbench_store_result_spread(&res);
	res.value = headline(b, m, v, res.ntrials);
	ret = cbench_store_run_push(run, &res);
	free(v);
	return ret;
}

/* What a JSON file is when it is not a run report, for a refusal. */
static const char *kind(const struct cbench_json *doc)
{
	if (doc->type != CBENCH_JSON_OBJECT)
		return "not a cbench report (not a JSON object)";
	if (cbench_json_get(doc, "format_version"))
		return "an LNT report: add it with 'store import --format lnt'";
	if (cbench_json_get(doc, "audits"))
		return "an audit's report, not a run's";
	if (!cbench_json_get(doc, "schema_version"))
		return "not a cbench run report (no schema_version); a Bencher report is added with "
		       "'store import --format bmf'";
	if (!cbench_json_get(doc, "benchmarks") || !cbench_json_get(doc, "config"))
		return "not a cbench run report (no config and benchmarks)";
	return NULL;
}

/* A string member into dst, "" if absent. */
static void take(char *dst, size_t len, const struct cbench_json *v, const char *key)
{
	snprintf(dst, len, "%s", cbench_json_string(v, key, ""));
}

/* The machine, the object and the run's facts from "config". */
static int read_config(const struct cbench_json *c, struct cbench_store_run *run, char *err,
		       size_t errlen)
{
	const char *so = cbench_json_string(c, "so", ""), *base = strrchr(so, '/');
	const struct cbench_json *stop = cbench_json_get(c, "interrupted");

	if (stop) {
		snprintf(err, errlen, "an interrupted run (%s): its benchmarks have fewer trials than "
			 "asked, and some none; measure it again",
			 cbench_json_string(stop, "signal", "a signal"));
		return -EINVAL;
	}
	take(run->machine, sizeof(run->machine), c, "machine");
	snprintf(run->cpu, sizeof(run->cpu), "%s (%s)", cbench_json_string(c, "cpu_model", "?"),
		 cbench_json_string(c, "cpu", "?"));
	run->cpu_count = (int)cbench_json_number(c, "cpu_count", 0);
	take(run->backend, sizeof(run->backend), c, "backend");
	take(run->object_path, sizeof(run->object_path), c, "so");
	snprintf(run->object, sizeof(run->object), "%s", base ? base + 1 : so);
	take(run->build_id, sizeof(run->build_id), c, "so_build_id");
	take(run->date, sizeof(run->date), c, "date");
	take(run->kernel, sizeof(run->kernel), c, "kernel");
	take(run->version, sizeof(run->version), c, "cbench_version");
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

int cbench_store_read_report(const struct cbench_json *doc, struct cbench_store_run *run, char *err,
			     size_t errlen)
{
	const char *what = kind(doc);
	const struct cbench_json *benchmarks;
	double version;
	int ret;

	if (what) {
		snprintf(err, errlen, "%s", what);
		return -EINVAL;
	}
	/* Every schema up to ours: the members read here keep their meaning
	 * (a newer schema would raise the version if one did not). */
	version = cbench_json_number(doc, "schema_version", 0);
	if (!(version >= 1 && version <= CBENCH_RUN_JSON_SCHEMA_VERSION) || version != floor(version)) {
		snprintf(err, errlen, "a report of schema %g; this cbenchctl reads schemas 1 to %d",
			 version, CBENCH_RUN_JSON_SCHEMA_VERSION);
		return -EINVAL;
	}
	ret = read_config(cbench_json_get(doc, "config"), run, err, errlen);
	benchmarks = cbench_json_get(doc, "benchmarks");
	for (size_t i = 0; !ret && benchmarks->type == CBENCH_JSON_ARRAY && i < benchmarks->n; i++) {
		const struct cbench_json *b = &benchmarks->items[i];
		const char *name = cbench_json_string(b, "name", "");

		if (!strncmp(name, "Benchmark", 9))
			name += 9;
		if (!*name)
			continue;
		for (int m = 0; !ret && m < CBENCH_METRICS; m++)
			ret = read_metric(b, name, (enum cbench_metric)m, run);
	}
	if (!ret && !run->nresults) {
		snprintf(err, errlen, "no benchmark of this run measured anything (every trial failed)");
		ret = -EINVAL;
	}
	if (ret == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	return ret;
}
