// SPDX-License-Identifier: GPL-2.0
/*
 * Audits drawn as a forest plot: one row per audit, B's change against A
 * with its interval, on one axis in percent, over the band of changes too
 * small to count (--min-effect) and the zero line.  Self-contained SVG, as
 * plot.c draws reports.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "report/plot_audit.h"
#include "report/plot_forest.h"
#include "report/plot_svg.h"


bool cbench_plot_is_audit(const struct cbench_json *root)
{
	const struct cbench_json *a = cbench_json_get(root, "audits");

	return a && a->type == CBENCH_JSON_ARRAY;
}

int cbench_plot_audit_check(const struct cbench_json *root, char *err, size_t errlen)
{
	const struct cbench_json *audits = cbench_json_get(root, "audits");

	for (size_t i = 0; i < audits->n; i++) {
		const struct cbench_json *a = &audits->items[i];

		if (!cbench_json_string(a, "name", NULL) || !cbench_json_string(a, "verdict", NULL)) {
			snprintf(err, errlen, "audit %zu has no name or verdict", i + 1);
			return -EINVAL;
		}
	}
	return 0;
}

/* The verdict in words, as the row's label ends. */
static const char *verdict_words(const struct cbench_json *a)
{
	const char *verdict = cbench_json_string(a, "verdict", "inconclusive");
	const char *under = cbench_json_string(a, "under_min_effect", NULL);

	if (under && !strcmp(under, "slower"))
		return "equivalent: slower, under --min-effect";
	if (under && !strcmp(under, "faster"))
		return "equivalent: faster, under --min-effect";
	return verdict;
}

/* An audit as a row of the forest (changes in JSON are in percent). */
static void audit_row(const struct cbench_json *a, struct cbench_plot_row *r)
{
	const char *verdict = cbench_json_string(a, "verdict", "inconclusive");

	r->name = cbench_json_string(a, "name", "");
	r->verdict = verdict;
	r->change = cbench_json_number(a, "change", NAN) / 100;
	r->lo = cbench_json_number(a, "lower", NAN) / 100;
	r->hi = cbench_json_number(a, "upper", NAN) / 100;
	if (!strcmp(verdict, "failed"))
		snprintf(r->label, sizeof(r->label), "failed");
	else if (isfinite(r->lo) && isfinite(r->hi))
		snprintf(r->label, sizeof(r->label), "%+.2f %% [%+.2f, %+.2f] %s", 100 * r->change,
			 100 * r->lo, 100 * r->hi, verdict_words(a));
	else if (isfinite(r->change))
		snprintf(r->label, sizeof(r->label), "%+.2f %% %s", 100 * r->change, verdict_words(a));
	else
		snprintf(r->label, sizeof(r->label), "%s", verdict_words(a));
	snprintf(r->title, sizeof(r->title), "%s: %s%s%s, %g rounds", r->name, r->label,
		 cbench_json_string(a, "error", NULL) ? ": " : "", cbench_json_string(a, "error", ""),
		 cbench_json_number(a, "rounds", NAN));
}

/* Larger changes first; audits without one (failed) last. */
static int by_change(const void *x, const void *y)
{
	const struct cbench_plot_row *a = x, *b = y;
	double ca = isfinite(a->change) ? a->change : -INFINITY;
	double cb = isfinite(b->change) ? b->change : -INFINITY;

	return (ca < cb) - (ca > cb);
}

static int plot(FILE *f, const struct cbench_json *audits, double min_effect)
{
	struct cbench_plot_row *rows = calloc(audits->n ? audits->n : 1, sizeof(*rows));

	if (!rows)
		return -ENOMEM;
	for (size_t i = 0; i < audits->n; i++)
		audit_row(&audits->items[i], &rows[i]);
	qsort(rows, audits->n, sizeof(*rows), by_change);
	cbench_plot_forest(f, rows, audits->n, min_effect / 100, false, "B's change against A, %", "audit");
	free(rows);
	return 0;
}

int cbench_plot_audit_page(FILE *f, const char *label, const struct cbench_json *root)
{
	const struct cbench_json *audits = cbench_json_get(root, "audits");
	const struct cbench_json *config = cbench_json_get(root, "config");
	double min_effect = config ? cbench_json_number(config, "min_effect", 0) : 0;
	uint64_t seed;

	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>cbench audit: ", f);
	cbench_plot_html(f, label);
	fputs("</title>\n<style>\nbody { font: 14px sans-serif; margin: 2em; color: #222; }\n", f);
	fputs(cbench_plot_forest_css, f);
	fputs("</style></head><body>\n<h1>cbench audit: ", f);
	cbench_plot_html(f, label);
	fprintf(f, "</h1>\n<p class=\"config\">confidence %g, min-effect &plusmn;%g %% (the grey "
		"band; an interval within it is equivalent, grey; slower red, faster green; inconclusive "
		"dashed, a hollow estimate and a ?; sorted by change, slowest first), seed ",
		config ? cbench_json_number(config, "confidence", NAN) : NAN, min_effect);
	if (config && cbench_json_u64(config, "seed", &seed))
		fprintf(f, "%" PRIu64 "</p>\n", seed);
	else
		fputs("unknown</p>\n", f);
	if (plot(f, audits, min_effect))
		return -ENOMEM;
	fputs("<ul>\n", f);
	for (size_t i = 0; i < audits->n; i++) {
		const struct cbench_json *a = &audits->items[i];

		fputs("<li>", f);
		cbench_plot_html(f, cbench_json_string(a, "name", ""));
		fputs(": ", f);
		cbench_plot_html(f, verdict_words(a));
		fprintf(f, ", %g rounds</li>\n", cbench_json_number(a, "rounds", NAN));
	}
	fputs("</ul>\n<footer id=\"end\">cbenchctl plot</footer>\n</body></html>\n", f);
	return ferror(f) ? -EIO : 0;
}
