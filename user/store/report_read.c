// SPDX-License-Identifier: GPL-2.0
/* A run's JSON report into the store's run; see report_read.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/digest.h"
#include "report/json.h"
#include "report/json_writer.h"
#include "stats/stats.h"
#include "store/report_read.h"
#include "store/run.h"

/*
 * Strict reading: a member the report has must be of the type its writer
 * gives it; a number may be null (the writer's word for not finite).  The
 * member's path goes in err: "benchmarks[2].trials[1].ns_per_op".
 */
static const char *type_name(enum cbench_json_type t)
{
	static const char *const names[] = { "null", "true or false", "a number", "a string",
					     "an array", "an object" };

	return names[t];
}

static int wrong(const char *path, const char *member, const struct cbench_json *v,
		 const char *want, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s%s%s is %s, not %s: edited by hand? measure the run again", path,
		 path[0] ? "." : "", member, type_name(v->type), want);
	return -EINVAL;
}

/* Member key of o, if present, must have type t (a number may be null). */
static int expect(const struct cbench_json *o, const char *key, enum cbench_json_type t,
		  const char *path, char *err, size_t errlen)
{
	const struct cbench_json *v = cbench_json_get(o, key);

	if (!v || v->type == t || (t == CBENCH_JSON_NUMBER && v->type == CBENCH_JSON_NULL))
		return 0;
	return wrong(path, key, v, type_name(t), err, errlen);
}

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

/* Each trial of benchmark b is an object whose status is a string and whose
 * figures are numbers; path names b. */
static int check_trials(const struct cbench_json *trials, const char *path, char *err, size_t errlen)
{
	char at[96];
	int ret = 0;

	for (size_t i = 0; !ret && i < trials->n; i++) {
		const struct cbench_json *t = &trials->items[i];

		snprintf(at, sizeof(at), "%s.trials[%zu]", path, i);
		if (t->type != CBENCH_JSON_OBJECT) {
			snprintf(err, errlen, "%s is %s, not an object: edited by hand? measure the run again",
				 at, type_name(t->type));
			return -EINVAL;
		}
		ret = expect(t, "status", CBENCH_JSON_STRING, at, err, errlen);
		for (int m = 0; !ret && m < CBENCH_METRICS; m++)
			ret = expect(t, cbench_metric_members[m], CBENCH_JSON_NUMBER, at, err, errlen);
	}
	return ret;
}

/* Metric m of one benchmark, if any of its trials measured it. */
static int read_metric(const struct cbench_json *b, const char *name, enum cbench_metric m,
		       struct cbench_store_run *run)
{
	const struct cbench_json *trials = cbench_json_get(b, "trials");
	struct cbench_store_result res = { .metric = m };
	double *v;
	int ret;

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

/* One benchmark, checked member by member, then each metric it measured. */
static int read_benchmark(const struct cbench_json *b, size_t i, struct cbench_store_run *run,
			  char *err, size_t errlen)
{
	static const char *const numbers[] = { "quote_ns_per_op", "ns_per_op", "est_cycles_per_op" };
	const struct cbench_json *trials = cbench_json_get(b, "trials");
	const char *name;
	char path[64];
	int ret;

	snprintf(path, sizeof(path), "benchmarks[%zu]", i);
	if (b->type != CBENCH_JSON_OBJECT) {
		snprintf(err, errlen, "%s is %s, not an object", path, type_name(b->type));
		return -EINVAL;
	}
	ret = expect(b, "name", CBENCH_JSON_STRING, path, err, errlen);
	for (size_t k = 0; !ret && k < sizeof(numbers) / sizeof(numbers[0]); k++)
		ret = expect(b, numbers[k], CBENCH_JSON_NUMBER, path, err, errlen);
	ret = ret ? ret : expect(b, "trials", CBENCH_JSON_ARRAY, path, err, errlen);
	if (ret)
		return ret;
	name = cbench_json_string(b, "name", "");
	if (!strncmp(name, "Benchmark", 9))
		name += 9;
	if (!*name || !trials)
		return 0;
	ret = check_trials(trials, path, err, errlen);
	for (int m = 0; !ret && m < CBENCH_METRICS; m++)
		ret = read_metric(b, name, (enum cbench_metric)m, run);
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
	static const char *const strings[] = { "machine", "cpu", "cpu_model", "backend", "so",
					       "so_build_id", "date", "kernel", "cbench_version" };
	const char *so = cbench_json_string(c, "so", ""), *base = strrchr(so, '/');
	const struct cbench_json *stop = cbench_json_get(c, "interrupted");
	int ret = c->type == CBENCH_JSON_OBJECT ? 0 : wrong("", "config", c, "an object", err, errlen);

	for (size_t i = 0; !ret && i < sizeof(strings) / sizeof(strings[0]); i++)
		ret = expect(c, strings[i], CBENCH_JSON_STRING, "config", err, errlen);
	ret = ret ? ret : expect(c, "cpu_count", CBENCH_JSON_NUMBER, "config", err, errlen);
	if (ret)
		return ret;

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
	take(run->run_id, sizeof(run->run_id), c, "run_id");
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

/* Whether text is the report as cbenchctl wrote it (report/digest.h). */
static int whole(const char *text, size_t len, const struct cbench_json *doc, char *note,
		 size_t notelen, char *err, size_t errlen)
{
	const struct cbench_json *d = cbench_json_get(doc, "digest");

	switch (cbench_digest_check(text, len, d != NULL)) {
	case CBENCH_DIGEST_NONE:
		snprintf(note, notelen, "the report has no digest (an older cbenchctl wrote it): "
			 "nothing proves it is as it was measured");
		return 0;
	case CBENCH_DIGEST_WHOLE:
		return 0;
	case CBENCH_DIGEST_EDITED:
		snprintf(err, errlen, "edited after it was written: its digest does not match its "
			 "content (measure the run again)");
		return -EINVAL;
	default:
		snprintf(err, errlen, "its text was rewritten after it was written (the digest member is "
			 "not where cbenchctl writes it: last, on the report's own line)");
		return -EINVAL;
	}
}

int cbench_store_read_report(const char *text, size_t len, const struct cbench_json *doc,
			     struct cbench_store_run *run, char *note, size_t notelen, char *err,
			     size_t errlen)
{
	const char *what = kind(doc);
	const struct cbench_json *benchmarks;
	double version;
	int ret;

	note[0] = '\0';
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
	ret = whole(text, len, doc, note, notelen, err, errlen);
	ret = ret ? ret : expect(doc, "benchmarks", CBENCH_JSON_ARRAY, "", err, errlen);
	ret = ret ? ret : read_config(cbench_json_get(doc, "config"), run, err, errlen);
	benchmarks = cbench_json_get(doc, "benchmarks");
	for (size_t i = 0; !ret && i < benchmarks->n; i++)
		ret = read_benchmark(&benchmarks->items[i], i, run, err, errlen);
	if (!ret && !run->nresults) {
		snprintf(err, errlen, "no benchmark of this run measured anything (every trial failed)");
		ret = -EINVAL;
	}
	if (ret == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	return ret;
}
