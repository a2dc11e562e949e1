// SPDX-License-Identifier: GPL-2.0
/* LNT and Bencher reports into the store and out of it; see interchange.h. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "report/json.h"
#include "report/json_writer.h"
#include "report/outfile.h"
#include "report/readfile.h"
#include "stats/stats.h"
#include "store/add.h"
#include "store/interchange.h"
#include "store/series.h"
#include "store/store.h"

/* The largest report we read. */
#define IMPORT_MAX_BYTES (256u << 20)

/* LNT's metrics of cbench's test suite: per-trial samples, the run's
 * estimate where there is one, all per 1000 ops or in ps. */
static const struct {
	const char *samples, *estimate;
	enum cbench_metric metric;
} lnt_metrics[] = {
	{ "ps_per_op", "ps_per_op_estimate", CBENCH_METRIC_NS },
	{ "est_cycles_per_kop", "est_cycles_per_kop_estimate", CBENCH_METRIC_EST_CYCLES },
	{ "instructions_per_kop", NULL, CBENCH_METRIC_INSTRUCTIONS },
	{ "cycles_per_kop", NULL, CBENCH_METRIC_CYCLES },
	{ "ref_cycles_per_kop", NULL, CBENCH_METRIC_REF_CYCLES },
};

/* Bencher's measure of each metric. */
static const char *const bmf_measures[CBENCH_METRICS] = {
	"latency", "est-cycles", "instructions", "cycles", "ref-cycles",
};

/* LNT scales both ps (for ns) and per-1000-op figures by 1000. */
#define LNT_SCALE 1000.0

/* One LNT metric of a test into run: its samples (a number or an array). */
static int lnt_metric(const struct cbench_json *test, const char *name, size_t m,
		      struct cbench_store_run *run)
{
	const struct cbench_json *v = cbench_json_get(test, lnt_metrics[m].samples);
	struct cbench_store_result res = { .metric = lnt_metrics[m].metric };
	size_t n = v ? (v->type == CBENCH_JSON_ARRAY ? v->n : 1) : 0;
	double estimate = lnt_metrics[m].estimate ?
			  cbench_json_number(test, lnt_metrics[m].estimate, NAN) : NAN;
	int ret;

	res.trials = malloc((n + 1) * sizeof(double));
	if (!res.trials)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const struct cbench_json *x = v->type == CBENCH_JSON_ARRAY ? &v->items[i] : v;

		if (x->type == CBENCH_JSON_NUMBER && isfinite(x->number) && x->number > 0)
			res.trials[res.ntrials++] = x->number / LNT_SCALE;
	}
	ret = 0;
	if (res.ntrials) {
		snprintf(res.name, sizeof(res.name), "%s", name);
		cbench_store_result_spread(&res);
		/* As the run quotes it: its estimate, else the least trial
		 * (ns) or the median of trials. */
		res.value = isfinite(estimate) && estimate > 0 ? estimate / LNT_SCALE :
			    m == 0 ? res.lower : cbench_stats_median(res.trials, res.ntrials);
		ret = cbench_store_run_push(run, &res);
	}
	free(res.trials);
	return ret;
}

/* "N.COMMIT" or "N" into the order and the commit, where not given. */
static int lnt_order(const char *field, struct cbench_store_import *im, char *err, size_t errlen)
{
	char *end;
	long long n = strtoll(field, &end, 10);
	bool numbered = end != field && n >= 0 && (!*end || *end == '.');

	if (im->order < 0) {
		if (!numbered) {
			snprintf(err, errlen, "the report's order '%s' is not N or N.COMMIT: give --order",
				 field);
			return -EINVAL;
		}
		im->order = n;
	}
	if (!im->commit) {
		snprintf(im->commit_buf, sizeof(im->commit_buf), "%s",
			 numbered && *end == '.' ? end + 1 : field);
		im->commit = im->commit_buf;
	}
	return 0;
}

/* A "MODEL (NAME)" CPU string, as the JSON reports' machines are keyed. */
static void lnt_machine(const struct cbench_json *m, struct cbench_store_run *run,
			const struct cbench_store_import *im)
{
	snprintf(run->machine, sizeof(run->machine), "%s",
		 im->machine ? im->machine : cbench_json_string(m, "name", ""));
	snprintf(run->cpu, sizeof(run->cpu), "%s (%s)", cbench_json_string(m, "cpu_model", "?"),
		 cbench_json_string(m, "cpu", "?"));
	run->cpu_count = atoi(cbench_json_string(m, "cpu_count", "0"));
	snprintf(run->backend, sizeof(run->backend), "%s", cbench_json_string(m, "backend", im->backend));
	snprintf(run->kernel, sizeof(run->kernel), "%s", cbench_json_string(m, "kernel", ""));
	snprintf(run->version, sizeof(run->version), "%s", cbench_json_string(m, "cbench_version", ""));
}

static int read_lnt(const struct cbench_json *doc, struct cbench_store_run *run,
		    struct cbench_store_import *im, char *err, size_t errlen)
{
	const struct cbench_json *m = cbench_json_get(doc, "machine"), *r = cbench_json_get(doc, "run");
	const struct cbench_json *tests = cbench_json_get(doc, "tests");
	const char *so = cbench_json_string(r, "so", NULL), *base = so ? strrchr(so, '/') : NULL;
	int ret;

	if (strcmp(cbench_json_string(doc, "format_version", ""), "2") || !m || !r || !tests ||
	    tests->type != CBENCH_JSON_ARRAY) {
		snprintf(err, errlen, "not an LNT report of format version 2 (machine, run, tests)");
		return -EINVAL;
	}
	ret = lnt_order(cbench_json_string(r, "llvm_project_revision", ""), im, err, errlen);
	if (ret)
		return ret;
	lnt_machine(m, run, im);
	snprintf(run->object, sizeof(run->object), "%s",
		 im->name ? im->name : base ? base + 1 : so ? so : "lnt");
	snprintf(run->build_id, sizeof(run->build_id), "%s",
		 cbench_json_string(r, "so_build_id", "unknown"));
	snprintf(run->date, sizeof(run->date), "%.19sZ", cbench_json_string(r, "start_time", ""));
	run->source = "lnt";
	for (size_t i = 0; !ret && i < tests->n; i++) {
		const char *name = cbench_json_string(&tests->items[i], "name", "");

		if (cbench_json_get(&tests->items[i], "audit_change_bp")) {
			snprintf(err, errlen, "test %s is an audit's (its samples are rounds, not runs)", name);
			return -EINVAL;
		}
		for (size_t k = 0; !ret && *name && k < sizeof(lnt_metrics) / sizeof(lnt_metrics[0]); k++)
			ret = lnt_metric(&tests->items[i], name, k, run);
	}
	if (!ret && (!run->nresults || !run->machine[0] || strlen(run->date) < 20)) {
		snprintf(err, errlen, "%s", !run->nresults ? "no test has a metric of cbench's suite "
			 "(docs/lnt/cbench.yaml)" : !run->machine[0] ? "the machine has no name" :
			 "the run has no start_time");
		ret = -EINVAL;
	}
	return ret;
}

/* One Bencher benchmark's measures into run. */
static int bmf_benchmark(const struct cbench_json *b, const char *name,
			 struct cbench_store_run *run, char *err, size_t errlen)
{
	for (int m = 0; m < CBENCH_METRICS; m++) {
		const struct cbench_json *x = cbench_json_get(b, bmf_measures[m]);
		struct cbench_store_result res = { .metric = (enum cbench_metric)m };
		int ret;

		if (!x)
			continue;
		res.value = cbench_json_number(x, "value", NAN);
		res.lower = cbench_json_number(x, "lower_value", res.value);
		res.upper = cbench_json_number(x, "upper_value", res.value);
		if (!(res.value > 0 && isfinite(res.value)) || !(res.lower > 0) || !(res.upper >= res.lower)) {
			snprintf(err, errlen, "%s's %s has no positive value between its lower and upper "
				 "values", name, bmf_measures[m]);
			return -EINVAL;
		}
		res.u = res.upper > res.lower ? log(res.upper / res.lower) / 4 : NAN;
		snprintf(res.name, sizeof(res.name), "%s", name);
		ret = cbench_store_run_push(run, &res);
		if (ret)
			return ret;
	}
	return 0;
}

static int read_bmf(const struct cbench_json *doc, struct cbench_store_run *run,
		    const struct cbench_store_import *im, char *err, size_t errlen)
{
	time_t t = time(NULL);
	struct tm tm;

	if (!im->machine || !im->commit || im->order < 0) {
		snprintf(err, errlen, "Bencher's format names no machine, commit or order: give --machine, "
			 "--commit and --order");
		return -EINVAL;
	}
	if (doc->type != CBENCH_JSON_OBJECT || !doc->n) {
		snprintf(err, errlen, "not Bencher Metric Format (an object of benchmarks)");
		return -EINVAL;
	}
	snprintf(run->machine, sizeof(run->machine), "%s", im->machine);
	snprintf(run->cpu, sizeof(run->cpu), "unknown");
	snprintf(run->backend, sizeof(run->backend), "%s", im->backend);
	snprintf(run->object, sizeof(run->object), "%s", im->name ? im->name : "bmf");
	snprintf(run->build_id, sizeof(run->build_id), "unknown");
	gmtime_r(&t, &tm);
	strftime(run->date, sizeof(run->date), "%Y-%m-%dT%H:%M:%SZ", &tm);
	run->source = "bmf";
	for (size_t i = 0; i < doc->n; i++) {
		int ret;

		if (doc->items[i].type != CBENCH_JSON_OBJECT) {
			snprintf(err, errlen, "not Bencher Metric Format: %s is not an object of measures",
				 doc->keys[i]);
			return -EINVAL;
		}
		ret = bmf_benchmark(&doc->items[i], doc->keys[i], run, err, errlen);
		if (ret)
			return ret;
	}
	if (!run->nresults) {
		snprintf(err, errlen, "no benchmark has a measure cbench knows (latency, est-cycles, ...)");
		return -EINVAL;
	}
	return 0;
}

int cbench_store_import(const char *store, const char *path, struct cbench_store_import *im,
			struct cbench_store_added *out, char *err, size_t errlen)
{
	struct cbench_store_add a = { 0 };
	struct cbench_store_run run = { 0 };
	struct cbench_json *doc = NULL;
	struct cbench_store s;
	char *text;
	size_t len;
	int ret = cbench_read_file(path, IMPORT_MAX_BYTES, &text, &len);

	if (ret) {
		snprintf(err, errlen, "%s", ret == -EFBIG ? "not a regular file, or too large" : strerror(-ret));
		return ret;
	}
	ret = cbench_json_parse(text, len, &doc, err, errlen);
	free(text);
	if (ret == -EINVAL)
		snprintf(err + strlen(err), errlen - strlen(err), ": not JSON, or cut short");
	if (!ret)
		ret = !strcmp(im->format, "lnt") ? read_lnt(doc, &run, im, err, errlen) :
						   read_bmf(doc, &run, im, err, errlen);
	cbench_json_free(doc);
	if (!ret) {
		snprintf(run.commit, sizeof(run.commit), "%s", im->commit);
		run.order = im->order;
		ret = cbench_store_open(&s, store, true, err, errlen);
	}
	if (!ret) {
		ret = cbench_store_add(&s, &run, &a, out, err, errlen);
		cbench_store_close(&s);
	}
	cbench_store_run_free(&run);
	return ret;
}

/* "MODEL (NAME)" back into its two parts: NAME is what the last
 * parenthesis holds, its own parentheses ("(R)") included. */
static void split_cpu(const char *cpu, char *model, size_t mlen, char *name, size_t nlen)
{
	size_t n = strlen(cpu), depth = 0, i = n;

	while (n && cpu[n - 1] == ')' && i-- > 0) {
		depth += cpu[i] == ')';
		depth -= cpu[i] == '(';
		if (!depth)
			break;
	}
	if (!n || cpu[n - 1] != ')' || i == 0 || i >= n || cpu[i - 1] != ' ') {
		snprintf(model, mlen, "%s", cpu);
		snprintf(name, nlen, "%s", cpu);
		return;
	}
	snprintf(model, mlen, "%.*s", (int)(i - 1), cpu);
	snprintf(name, nlen, "%.*s", (int)(n - i - 2), cpu + i + 1);
}

static void lnt_head(struct cbench_jsonw *j, const struct cbench_store_listed *r)
{
	char model[256], name[256], count[16], order[CBENCH_STORE_NAME_MAX + 32];

	split_cpu(r->cpu, model, sizeof(model), name, sizeof(name));
	snprintf(count, sizeof(count), "%d", r->cpu_count);
	snprintf(order, sizeof(order), "%lld.%s", r->order, r->commit);
	cbench_jsonw_string(j, "format_version", "2");
	cbench_jsonw_object_start(j, "machine");
	cbench_jsonw_string(j, "name", r->machine);
	cbench_jsonw_string(j, "cpu", name);
	cbench_jsonw_string(j, "cpu_model", model);
	cbench_jsonw_string(j, "cpu_count", count);
	cbench_jsonw_string(j, "kernel", r->kernel);
	cbench_jsonw_string(j, "backend", r->backend);
	cbench_jsonw_string(j, "cbench_version", r->version);
	cbench_jsonw_object_end(j);
	cbench_jsonw_object_start(j, "run");
	snprintf(name, sizeof(name), "%.19s", r->date);
	cbench_jsonw_string(j, "start_time", name);
	cbench_jsonw_string(j, "end_time", name);
	cbench_jsonw_string(j, "llvm_project_revision", order);
	cbench_jsonw_string(j, "so", r->object);
	cbench_jsonw_string(j, "so_build_id", r->build_id);
	cbench_jsonw_object_end(j);
}

/* One run as an LNT report: a test per benchmark, each metric's trials and estimate. */
static void write_lnt(struct cbench_jsonw *j, const struct cbench_store_listed *r,
		      const struct cbench_store_run *run)
{
	lnt_head(j, r);
	cbench_jsonw_array_start(j, "tests");
	for (size_t i = 0; i < run->nresults; i++) {
		const struct cbench_store_result *x = &run->results[i];

		if (!i || strcmp(x->name, run->results[i - 1].name)) {
			if (i)
				cbench_jsonw_object_end(j);
			cbench_jsonw_object_start(j, NULL);
			cbench_jsonw_string(j, "name", x->name);
		}
		for (size_t k = 0; k < sizeof(lnt_metrics) / sizeof(lnt_metrics[0]); k++) {
			if (lnt_metrics[k].metric != x->metric || !x->ntrials)
				continue;
			cbench_jsonw_array_start(j, lnt_metrics[k].samples);
			for (size_t t = 0; t < x->ntrials; t++)
				cbench_jsonw_double(j, NULL, x->trials[t] * LNT_SCALE);
			cbench_jsonw_array_end(j);
			if (lnt_metrics[k].estimate)
				cbench_jsonw_double(j, lnt_metrics[k].estimate, x->value * LNT_SCALE);
		}
	}
	if (run->nresults)
		cbench_jsonw_object_end(j);
	cbench_jsonw_array_end(j);
}

/* One run as Bencher Metric Format: a measure per metric. */
static void write_bmf(struct cbench_jsonw *j, const struct cbench_store_run *run)
{
	for (size_t i = 0; i < run->nresults; i++) {
		const struct cbench_store_result *x = &run->results[i];

		if (!i || strcmp(x->name, run->results[i - 1].name)) {
			if (i)
				cbench_jsonw_object_end(j);
			cbench_jsonw_object_start(j, x->name);
		}
		cbench_jsonw_object_start(j, bmf_measures[x->metric]);
		cbench_jsonw_double(j, "value", x->value);
		cbench_jsonw_double(j, "lower_value", x->lower);
		cbench_jsonw_double(j, "upper_value", x->upper);
		cbench_jsonw_object_end(j);
	}
	if (run->nresults)
		cbench_jsonw_object_end(j);
}

static int export_run(struct cbench_store *s, const struct cbench_store_listed *r,
		      const char *format, const char *dir, char *err, size_t errlen)
{
	struct cbench_store_run run = { 0 };
	struct cbench_outfile out = { 0 };
	struct cbench_jsonw j;
	char path[PATH_MAX];
	int ret;

	snprintf(path, sizeof(path), "%s/run-%lld.%s.json", dir, r->id, format);
	ret = cbench_store_run_results(s, r->id, &run);
	if (ret) {
		cbench_store_run_free(&run);
		return cbench_store_error(s, "cannot read the store", err, errlen);
	}
	ret = cbench_outfile_open(&out, path);
	if (!ret) {
		cbench_jsonw_init(&j, out.file, true);
		cbench_jsonw_object_start(&j, NULL);
		if (!strcmp(format, "lnt"))
			write_lnt(&j, r, &run);
		else
			write_bmf(&j, &run);
		cbench_jsonw_object_end(&j);
		ret = cbench_jsonw_finish(&j);
		ret = ret ? ret : cbench_outfile_commit(&out);
	}
	if (ret)
		snprintf(err, errlen, "cannot write %s: %s", path, cbench_outfile_error(&out, ret));
	cbench_outfile_abort(&out);
	cbench_store_run_free(&run);
	return ret;
}

int cbench_store_export(const char *store, const char *format, const char *dir, size_t *written,
			char *err, size_t errlen)
{
	struct cbench_store_listed *v = NULL;
	struct cbench_store s;
	size_t n = 0;
	int ret;

	*written = 0;
	if (mkdir(dir, 0777) && errno != EEXIST) {
		snprintf(err, errlen, "cannot make %s: %s", dir, strerror(errno));
		return -errno;
	}
	ret = cbench_store_open(&s, store, false, err, errlen);
	if (ret)
		return ret;
	ret = cbench_store_runs(&s, &v, &n, err, errlen);
	for (size_t i = 0; !ret && i < n; i++) {
		ret = export_run(&s, &v[i], format, dir, err, errlen);
		*written += !ret;
	}
	cbench_store_runs_free(v, n);
	cbench_store_close(&s);
	return ret;
}
