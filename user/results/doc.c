// SPDX-License-Identifier: GPL-2.0
/* A run's report read back, strictly and once; see doc.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/digest.h"
#include "report/json.h"
#include "report/json_writer.h"
#include "report/readfile.h"
#include "results/report_check.h"
#include "results/doc.h"
#include "results/go_read.h"

/* What a JSON document is when it is not a run's report, for the refusal; NULL if it is one. */
static const char *not_a_run(const struct cbench_json *root, unsigned int flags)
{
	bool hint = flags & CBENCH_DOC_IMPORT_HINT;

	if (root->type != CBENCH_JSON_OBJECT)
		return "not a cbench run report (not a JSON object)";
	if (cbench_json_get(root, "format_version"))
		return hint ? "not a cbench run report but an LNT report: add it with 'store import --format lnt'" :
			      "not a cbench run report but an LNT report";
	if (cbench_json_get(root, "audits"))
		return "an audit's report, not a run's report (an audit compares two versions already)";
	if (cbench_json_get(root, "profile"))
		return "a profile's report, not a run's report";
	if (!cbench_json_get(root, "schema_version"))
		return hint ? "not a cbench run report (no schema_version); a Bencher report is added with "
			      "'store import --format bmf'" :
			      "not a cbench run report (no schema_version): write one with 'cbenchctl run -o NAME.json'";
	if (!cbench_json_get(root, "benchmarks") || !cbench_json_get(root, "config"))
		return "not a cbench run report (no config and benchmarks)";
	return NULL;
}

/* Whether text is the report as cbenchctl wrote it (report/digest.h). */
static int proved(struct cbench_doc *d, const char *text, size_t len, char *err, size_t errlen)
{
	switch (cbench_digest_check(text, len, cbench_json_get(d->root, "digest") != NULL)) {
	case CBENCH_DIGEST_NONE:
		snprintf(d->note, sizeof(d->note), "the report has no digest (an older cbenchctl wrote "
			 "it): nothing proves it is as it was measured");
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

static const char *text_of(const struct cbench_json *o, const char *key)
{
	return cbench_json_string(o, key, "");
}

static void read_options(const struct cbench_json *ro, struct cbench_doc_options *o)
{
	const struct cbench_json *a = cbench_json_get(ro, "trial_time_auto");
	const struct cbench_json *w = cbench_json_get(ro, "warmup_auto");
	const struct cbench_json *k = cbench_json_get(ro, "keep_shared");
	const struct cbench_json *p = cbench_json_get(ro, "precision_auto");

	o->known = ro != NULL;
	o->trials = cbench_json_number(ro, "trials", -1);
	o->trial_time_s = cbench_json_number(ro, "trial_time_s", -1);
	o->warmup_s = cbench_json_number(ro, "warmup_s", -1);
	o->time_limit_s = cbench_json_number(ro, "time_limit_s", -1);
	o->trial_time_auto = a && a->boolean;
	o->warmup_auto = w && w->boolean;
	o->keep_shared = k && k->boolean;
	o->precision = cbench_json_number(ro, "precision", 0);
	o->precision_auto = p && p->boolean;
	o->filter = cbench_json_string(ro, "filter", NULL);
}

/* The head, from "config". */
static void read_head(struct cbench_doc *d)
{
	const struct cbench_json *c = cbench_json_get(d->root, "config");
	const struct cbench_json *stop = cbench_json_get(c, "interrupted");
	struct cbench_doc_head *h = &d->head;

	h->format = cbench_json_string(c, "format", "json");
	h->machine = text_of(c, "machine");
	h->cpu = text_of(c, "cpu");
	h->cpu_model = text_of(c, "cpu_model");
	h->kernel = text_of(c, "kernel");
	h->backend = text_of(c, "backend");
	h->version = text_of(c, "cbench_version");
	h->date = text_of(c, "date");
	h->run_id = text_of(c, "run_id");
	h->so = text_of(c, "so");
	h->so_build_id = text_of(c, "so_build_id");
	h->command = text_of(c, "command");
	h->quiet_mode = text_of(c, "quiet_mode");
	h->cpu_count = cbench_json_number(c, "cpu_count", -1);
	h->worker_cpu = cbench_json_number(c, "worker_cpu", -1);
	h->interrupted = stop ? cbench_json_string(stop, "signal", "a signal") : NULL;
	read_options(cbench_json_get(c, "run_options"), &h->options);
	h->have_seed = cbench_json_u64(cbench_json_get(c, "code_layout"), "seed", &h->seed);
}

/* The benchmarks' names, ids and headlines; each must be named. */
static int by_name(const void *a, const void *b)
{
	const struct cbench_doc_bench *x = *(const struct cbench_doc_bench *const *)a;
	const struct cbench_doc_bench *y = *(const struct cbench_doc_bench *const *)b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x > y) - (x < y);
}

static int by_id(const void *a, const void *b)
{
	const struct cbench_doc_bench *x = *(const struct cbench_doc_bench *const *)a;
	const struct cbench_doc_bench *y = *(const struct cbench_doc_bench *const *)b;
	int c = strcmp(x->id, y->id);

	return c ? c : (x > y) - (x < y);
}

/* The benchmarks in order of name and of id, for cbench_doc_find(). */
static int sort_index(struct cbench_doc *d, char *err, size_t errlen)
{
	d->by_name = calloc(d->nbench + 1, sizeof(*d->by_name));
	d->by_id = calloc(d->nbench + 1, sizeof(*d->by_id));
	if (!d->by_name || !d->by_id) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (size_t i = 0; i < d->nbench; i++)
		d->by_name[i] = d->by_id[i] = &d->bench[i];
	qsort(d->by_name, d->nbench, sizeof(*d->by_name), by_name);
	qsort(d->by_id, d->nbench, sizeof(*d->by_id), by_id);
	return 0;
}

static int read_index(struct cbench_doc *d, char *err, size_t errlen)
{
	const struct cbench_json *list = cbench_json_get(d->root, "benchmarks");

	if (!list || list->type != CBENCH_JSON_ARRAY) {
		snprintf(err, errlen, "not a cbench run report (its benchmarks are not a list)");
		return -EINVAL;
	}
	d->bench = calloc(list->n + 1, sizeof(*d->bench));
	if (!d->bench) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (size_t i = 0; i < list->n; i++) {
		const struct cbench_json *b = &list->items[i], *t = cbench_json_get(b, "trials");
		struct cbench_doc_bench *x = &d->bench[d->nbench++];

		x->json = b;
		x->name = cbench_json_string(b, "name", NULL);
		x->id = text_of(b, "id");
		if (!x->name || !*x->name || !t || t->type != CBENCH_JSON_ARRAY) {
			snprintf(err, errlen, "not a cbench run report (benchmark %zu has no name or trials)",
				 i + 1);
			return -EINVAL;
		}
		/* Schema 1 quoted the least trial, or the median where
		 * placement moved them; schema 2 quotes ns_per_op. */
		x->quote_ns = cbench_json_number(b, "quote_ns_per_op", cbench_json_number(b, "ns_per_op", NAN));
	}
	return sort_index(d, err, errlen);
}

/* Whether the report is of a schema this cbenchctl reads. */
static int schema(struct cbench_doc *d, char *err, size_t errlen)
{
	double v = cbench_json_number(d->root, "schema_version", 0);

	/* Every schema up to ours: the members read here keep their
	 * meaning (a newer one would raise the version if one did not). */
	if (!(v >= 1 && v <= CBENCH_RUN_JSON_SCHEMA_VERSION) || v != floor(v)) {
		snprintf(err, errlen, "a report of schema %g; this cbenchctl reads schemas 1 to %d", v,
			 CBENCH_RUN_JSON_SCHEMA_VERSION);
		return -EINVAL;
	}
	d->head.schema = (int)v;
	return 0;
}

/* d->root, a run's report as JSON, checked and indexed. */
static int take(struct cbench_doc *d, const char *text, size_t len, unsigned int flags, char *err,
		size_t errlen)
{
	const char *what = not_a_run(d->root, flags);
	int ret;

	if (what) {
		snprintf(err, errlen, "%s", what);
		return -EINVAL;
	}
	ret = schema(d, err, errlen);
	ret = ret ? ret : (flags & CBENCH_DOC_DIGEST) ? proved(d, text, len, err, errlen) : 0;
	ret = ret ? ret : cbench_report_check(d->root, err, errlen);
	if (ret)
		return ret;
	read_head(d);
	if ((flags & CBENCH_DOC_WHOLE) && d->head.interrupted) {
		snprintf(err, errlen, "an interrupted run (%s): its benchmarks have fewer trials than asked, "
			 "and some none; measure it again", d->head.interrupted);
		return -EINVAL;
	}
	return read_index(d, err, errlen);
}

bool cbench_doc_looks_json(const char *text, size_t len)
{
	size_t lead = 0;

	while (lead < len && text[lead] && strchr(" \t\r\n", text[lead]))
		lead++;
	return lead < len && text[lead] == '{';
}

int cbench_doc_json(const char *text, size_t len, struct cbench_json **root, char *err, size_t errlen)
{
	char why[160];
	int ret = cbench_json_parse(text, len, root, why, sizeof(why));

	if (ret == -EINVAL)
		snprintf(err, errlen, CBENCH_DOC_NOT_JSON "%s", why);
	else if (ret)
		snprintf(err, errlen, "%s", why);
	return ret;
}

int cbench_doc_parse(struct cbench_doc *d, const char *text, size_t len, unsigned int flags, char *err,
		     size_t errlen)
{
	const char *path = d->path;
	int ret;

	memset(d, 0, sizeof(*d));
	d->path = path;
	/* Go text or JSON, by what the file holds, whatever its name. */
	if ((flags & CBENCH_DOC_GO) && !cbench_doc_looks_json(text, len)) {
		ret = cbench_go_read(text, len, &d->root, err, errlen);
		if (!ret) {
			read_head(d);
			ret = read_index(d, err, errlen);
		}
		return ret;
	}
	ret = cbench_doc_json(text, len, &d->root, err, errlen);
	return ret ? ret : take(d, text, len, flags, err, errlen);
}

int cbench_doc_adopt(struct cbench_doc *d, struct cbench_json *root, const char *text, size_t len,
		     unsigned int flags, char *err, size_t errlen)
{
	const char *path = d->path;

	memset(d, 0, sizeof(*d));
	d->path = path;
	d->root = root;
	return take(d, text, len, flags, err, errlen);
}

int cbench_doc_load(struct cbench_doc *d, const char *path, size_t max, unsigned int flags, char *err,
		    size_t errlen)
{
	char *text = NULL;
	size_t len = 0;
	int ret = cbench_read_file(path, max, &text, &len);

	memset(d, 0, sizeof(*d));
	d->path = path;
	if (ret) {
		snprintf(err, errlen, "%s", ret == -EFBIG ? "not a regular file of a report's size" :
			 strerror(-ret));
		return ret;
	}
	ret = cbench_doc_parse(d, text, len, flags, err, errlen);
	free(text);
	return ret;
}

void cbench_doc_free(struct cbench_doc *d)
{
	if (d->root)
		cbench_json_free(d->root);
	free(d->bench);
	free(d->by_name);
	free(d->by_id);
	d->root = NULL;
	d->bench = NULL;
	d->by_name = d->by_id = NULL;
	d->nbench = 0;
}

const struct cbench_doc_bench *cbench_doc_find(const struct cbench_doc *d, const char *key, bool id)
{
	const struct cbench_doc_bench **v = id ? d->by_id : d->by_name;
	size_t n = v ? d->nbench : 0, lo = 0, hi = n;

	/* The first whose key is not below key. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(id ? v[mid]->id : v[mid]->name, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == n || strcmp(id ? v[lo]->id : v[lo]->name, key))
		return NULL;
	return v[lo];
}
