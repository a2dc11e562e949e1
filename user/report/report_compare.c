// SPDX-License-Identifier: GPL-2.0
/*
 * The JSON report of `cbenchctl compare --format json`, beside its text
 * table (cmd/compare.c prints that).  Changes are in percent of old, as in
 * audit's JSON: positive is slower.
 */
#include <math.h>

#include "report/report_compare.h"
#include "report/json_writer.h"

const char *cbench_compare_verdict_name(enum cbench_change_verdict v)
{
	static const char *const names[] = {
		[CBENCH_CHANGE_UNDECIDED] = "undecided", [CBENCH_CHANGE_NONE] = "none",
		[CBENCH_CHANGE_SMALL] = "small", [CBENCH_CHANGE_EQUAL] = "equal",
		[CBENCH_CHANGE_FASTER] = "faster", [CBENCH_CHANGE_SLOWER] = "slower",
	};

	return names[v];
}

/* A double member, absent where it is not known (NAN). */
static void maybe(struct cbench_jsonw *j, const char *key, double value)
{
	if (!isnan(value))
		cbench_jsonw_double(j, key, value);
}

static void row(struct cbench_jsonw *j, const struct cbench_compare_row *r)
{
	const struct cbench_change *c = &r->change;

	cbench_jsonw_object_start(j, NULL);
	cbench_jsonw_string(j, "name", r->old->name);
	cbench_jsonw_double(j, "old_ns_per_op", c->old_ns);
	cbench_jsonw_double(j, "new_ns_per_op", c->new_ns);
	cbench_jsonw_uint(j, "runs_old", r->old->n);
	cbench_jsonw_uint(j, "runs_new", r->new->n);
	cbench_jsonw_double(j, "change", 100 * c->change);
	maybe(j, "lower", 100 * c->lo);
	maybe(j, "upper", 100 * c->hi);
	maybe(j, "p", c->p);
	cbench_jsonw_string(j, "verdict", cbench_compare_verdict_name(c->verdict));
	/* An equal verdict --min-effect alone made: the change is real. */
	if (c->under_min_effect)
		cbench_jsonw_string(j, "under_min_effect", c->under_min_effect > 0 ? "slower" : "faster");
	cbench_jsonw_object_end(j);
}

/* The names of one side's benchmarks the other lacks. */
static void only(struct cbench_jsonw *j, const char *key, const struct cbench_runs *g,
		 const struct cbench_runs *other)
{
	cbench_jsonw_array_start(j, key);
	for (size_t i = 0; i < g->n; i++) {
		if (!cbench_runs_find(other, g->s[i].name))
			cbench_jsonw_string(j, NULL, g->s[i].name);
	}
	cbench_jsonw_array_end(j);
}

int cbench_compare_report_json(FILE *f, const struct cbench_compare_row *rows, size_t n,
			       const struct cbench_runs *old, const struct cbench_runs *new, double min_effect)
{
	struct cbench_jsonw j;

	cbench_jsonw_init(&j, f, true);
	cbench_jsonw_object_start(&j, NULL);
	cbench_jsonw_uint(&j, "schema_version", CBENCH_JSON_SCHEMA_VERSION);
	cbench_jsonw_object_start(&j, "config");
	cbench_jsonw_double(&j, "min_effect", 100 * min_effect);
	cbench_jsonw_double(&j, "confidence", 1 - CBENCH_CHANGE_ALPHA);
	cbench_jsonw_object_end(&j);
	cbench_jsonw_array_start(&j, "benchmarks");
	for (size_t i = 0; i < n; i++)
		row(&j, &rows[i]);
	cbench_jsonw_array_end(&j);
	only(&j, "only_old", old, new);
	only(&j, "only_new", new, old);
	cbench_jsonw_object_end(&j);
	return cbench_jsonw_finish(&j);
}
