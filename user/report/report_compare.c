// SPDX-License-Identifier: GPL-2.0
/*
 * The JSON report of `cbenchctl compare --format json`, beside its text
 * table (cmd/compare.c prints that).  Changes are in percent of old, as in
 * audit's JSON: positive is slower.
 */
#include <errno.h>
#include <math.h>

#include <string.h>

#include "report/context.h"
#include "report/json_writer.h"
#include "report/report_compare.h"
#include "report/xml.h"

const char *cbench_compare_verdict_name(enum cbench_change_verdict v)
{
	static const char *const names[] = {
		[CBENCH_CHANGE_UNDECIDED] = "undecided", [CBENCH_CHANGE_NONE] = "none",
		[CBENCH_CHANGE_UNSETTLED] = "unsettled", [CBENCH_CHANGE_EQUAL] = "equal",
		[CBENCH_CHANGE_FASTER] = "faster", [CBENCH_CHANGE_SLOWER] = "slower",
	};

	return names[v];
}

static void row(struct cbench_jsonw *j, const struct cbench_compare_row *r)
{
	const struct cbench_change *c = &r->change;

	cbench_jsonw_object_start(j, NULL);
	cbench_jsonw_string(j, "name", r->old->name);
	cbench_jsonw_string(j, "metric", cbench_metric_names[r->metric]);
	cbench_jsonw_string(j, "unit", cbench_metric_units[r->metric]);
	cbench_jsonw_double(j, "old", c->old_ns);
	cbench_jsonw_double(j, "new", c->new_ns);
	cbench_jsonw_measured(j, "old_core_ghz", r->old_ghz);
	cbench_jsonw_measured(j, "new_core_ghz", r->new_ghz);
	cbench_jsonw_uint(j, "runs_old", r->old->n);
	cbench_jsonw_uint(j, "runs_new", r->new->n);
	cbench_jsonw_double(j, "change", 100 * c->change);
	cbench_jsonw_measured(j, "lower", 100 * c->lo);
	cbench_jsonw_measured(j, "upper", 100 * c->hi);
	cbench_jsonw_measured(j, "p", c->p);
	cbench_jsonw_string(j, "verdict", cbench_compare_verdict_name(c->verdict));
	/* An equal verdict --min-effect alone made: the change is real. */
	if (c->under_min_effect)
		cbench_jsonw_string(j, "under_min_effect", c->under_min_effect > 0 ? "slower" : "faster");
	/* An unsettled one: which way the real difference goes. */
	if (c->verdict == CBENCH_CHANGE_UNSETTLED)
		cbench_jsonw_string(j, "direction", c->lo > 0 ? "slower" : "faster");
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
	cbench_jsonw_uint(&j, "schema_version", CBENCH_COMPARE_JSON_SCHEMA_VERSION);
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

/* ---- JUnit ---------------------------------------------------------- */

#define PROPERTY_INDENT "      "

static void property(FILE *f, const char *name, const char *value)
{
	cbench_xml_property(f, PROPERTY_INDENT, name, value);
}

static void figure(FILE *f, const char *name, double v)
{
	cbench_xml_figure(f, PROPERTY_INDENT, name, v);
}

/* How the row fares at the gate: "slower", "faster", "undecided" (a
 * failure), "skipped" (undecided, passed), or NULL (passed). */
static const char *at_gate(const struct cbench_change *c, const struct cbench_compare_gate *g)
{
	enum cbench_gate_answer a;

	if (!g->slower && !g->faster)
		return NULL;
	a = cbench_change_gate(c->lo, c->hi, g->min_effect, g->faster);
	if (a == CBENCH_GATE_FAIL)
		return cbench_compare_verdict_name(c->verdict);
	if (a == CBENCH_GATE_UNDECIDED)
		return g->undecided_pass ? "skipped" : "undecided";
	return NULL;
}

static void junit_row(FILE *f, const struct cbench_compare_row *r, double min_effect,
		      const struct cbench_compare_gate *g)
{
	const struct cbench_change *c = &r->change;
	const char *fails = at_gate(c, g);
	char msg[256];

	fputs("  <testcase classname=\"compare\"", f);
	cbench_xml_attr(f, "name", r->old->name);
	fputs(" time=\"0\">\n    <properties>\n", f);
	property(f, "metric", cbench_metric_units[r->metric]);
	figure(f, "old", c->old_ns);
	figure(f, "new", c->new_ns);
	figure(f, "runs_old", (double)r->old->n);
	figure(f, "runs_new", (double)r->new->n);
	figure(f, "change_pct", 100 * c->change);
	figure(f, "change_lower_pct", 100 * c->lo);
	figure(f, "change_upper_pct", 100 * c->hi);
	figure(f, "p", c->p);
	property(f, "verdict", cbench_compare_verdict_name(c->verdict));
	fputs("    </properties>\n", f);
	if (fails && !strcmp(fails, "skipped")) {
		fputs("    <skipped", f);
		cbench_xml_attr(f, "message", isnan(c->p) ?
				"one run a side: not judged (passed by --undecided pass)" :
				"the interval reaches across --min-effect: not judged (passed by "
				"--undecided pass)");
		fputs("/>\n", f);
	} else if (fails && !strcmp(fails, "undecided") && isnan(c->p)) {
		fputs("    <failure type=\"undecided\"", f);
		cbench_xml_attr(f, "message", "one run a side: a change cannot be told from the drift "
				"between runs; give each side 3 or more runs, or gate with audit");
		fputs("/>\n", f);
	} else if (fails && !strcmp(fails, "undecided")) {
		snprintf(msg, sizeof(msg), "%s %+.2f%% [%+.2f%%, %+.2f%%]: the interval reaches across "
			 "--min-effect %.2f%%, not judged; more runs a side narrow it",
			 cbench_metric_units[r->metric], 100 * c->change, 100 * c->lo, 100 * c->hi,
			 100 * min_effect);
		fputs("    <failure type=\"undecided\"", f);
		cbench_xml_attr(f, "message", msg);
		fputs("/>\n", f);
	} else if (fails) {
		snprintf(msg, sizeof(msg), "%s %s by %+.2f%% [%+.2f%%, %+.2f%%] (p %.3g), past "
			 "--min-effect %.2f%%", cbench_metric_units[r->metric], fails, 100 * c->change,
			 100 * c->lo, 100 * c->hi, c->p, 100 * min_effect);
		fprintf(f, "    <failure type=\"%s\"", fails);
		cbench_xml_attr(f, "message", msg);
		fputs("/>\n", f);
	}
	fputs("  </testcase>\n", f);
}

/* The benchmarks of g the other side lacks, as skipped cases; how many. */
static size_t junit_only(FILE *f, const struct cbench_runs *g, const struct cbench_runs *other,
			 const char *side, bool count_only)
{
	size_t k = 0;

	for (size_t i = 0; i < g->n; i++) {
		if (cbench_runs_find(other, g->s[i].name))
			continue;
		k++;
		if (count_only)
			continue;
		fputs("  <testcase classname=\"compare\"", f);
		cbench_xml_attr(f, "name", g->s[i].name);
		fprintf(f, " time=\"0\">\n    <skipped message=\"only in the %s reports\"/>\n"
			"  </testcase>\n", side);
	}
	return k;
}

int cbench_compare_report_junit(FILE *f, const struct cbench_compare_row *rows, size_t n,
				const struct cbench_runs *old, const struct cbench_runs *new,
				double min_effect, const struct cbench_compare_gate *gate)
{
	const char *date = cbench_context()->date;
	size_t failures = 0, skipped;
	char stamp[20], buf[40];

	skipped = junit_only(f, old, new, "old", true) + junit_only(f, new, old, "new", true);
	for (size_t i = 0; i < n; i++) {
		const char *fails = at_gate(&rows[i].change, gate);

		failures += fails && strcmp(fails, "skipped");
		skipped += fails && !strcmp(fails, "skipped");
	}
	snprintf(stamp, sizeof(stamp), "%.19s", date[0] ? date : "1970-01-01T00:00:00");
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite name=\"compare\"", f);
	cbench_xml_attr(f, "timestamp", stamp);
	cbench_xml_attr(f, "hostname", cbench_context()->host);
	fprintf(f, " tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\" time=\"0\">\n",
		n + junit_only(f, old, new, "old", true) + junit_only(f, new, old, "new", true),
		failures, skipped);
	fputs("  <properties>\n", f);
	property(f, "min_effect_pct", cbench_xml_number(100 * min_effect, buf, sizeof(buf)));
	property(f, "confidence", cbench_xml_number(1 - CBENCH_CHANGE_ALPHA, buf, sizeof(buf)));
	property(f, "fail_on", gate->faster ? "changed" : gate->slower ? "slower" : "none");
	property(f, "command", cbench_context()->command);
	fputs("  </properties>\n", f);
	for (size_t i = 0; i < n; i++)
		junit_row(f, &rows[i], min_effect, gate);
	junit_only(f, old, new, "old", false);
	junit_only(f, new, old, "new", false);
	fputs("</testsuite>\n", f);
	return ferror(f) ? -EIO : 0;
}
