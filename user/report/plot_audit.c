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

/* A row and the name it shows: the audit's, and its file's where there are several. */
struct audit_row {
	struct cbench_plot_row row;
	char name[320];
};

/* An audit as a row of the forest (changes in JSON are in percent). */
static void audit_row(const struct cbench_json *a, const char *file, struct audit_row *ar)
{
	struct cbench_plot_row *r = &ar->row;
	const char *verdict = cbench_json_string(a, "verdict", "inconclusive");

	snprintf(ar->name, sizeof(ar->name), "%s%s%s%s", cbench_json_string(a, "name", ""), file ? " (" : "",
		 file ? file : "", file ? ")" : "");
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
	snprintf(r->title, sizeof(r->title), "%s: %s%s%s, %g rounds", ar->name, r->label,
		 cbench_json_string(a, "error", NULL) ? ": " : "", cbench_json_string(a, "error", ""),
		 cbench_json_number(a, "rounds", NAN));
}

/* Larger changes first; audits without one (failed) last. */
static int by_change(const void *x, const void *y)
{
	const struct audit_row *a = x, *b = y;
	double ca = isfinite(a->row.change) ? a->row.change : -INFINITY;
	double cb = isfinite(b->row.change) ? b->row.change : -INFINITY;

	return (ca < cb) - (ca > cb);
}

/* Every file's audits in one forest, over the first file's band. */
static int plot(FILE *f, const char *const labels[], const struct cbench_json *const roots[], size_t n,
		double min_effect)
{
	struct audit_row *rows;
	struct cbench_plot_row *plain;
	size_t total = 0, k = 0;

	for (size_t i = 0; i < n; i++)
		total += cbench_json_get(roots[i], "audits")->n;
	rows = calloc(total ? total : 1, sizeof(*rows));
	plain = calloc(total ? total : 1, sizeof(*plain));
	if (!rows || !plain) {
		free(rows);
		free(plain);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		const struct cbench_json *audits = cbench_json_get(roots[i], "audits");

		for (size_t j = 0; j < audits->n; j++)
			audit_row(&audits->items[j], n > 1 ? labels[i] : NULL, &rows[k++]);
	}
	qsort(rows, total, sizeof(*rows), by_change);
	for (size_t i = 0; i < total; i++) {
		plain[i] = rows[i].row;
		plain[i].name = rows[i].name;
	}
	cbench_plot_forest(f, plain, total, min_effect / 100, false, "B's change against A, %", "audit");
	free(rows);
	free(plain);
	return 0;
}

/* A file's configuration: its confidence, min-effect and seed. */
static void config_line(FILE *f, const char *label, const struct cbench_json *root)
{
	const struct cbench_json *config = cbench_json_get(root, "config");
	uint64_t seed;

	fputs("<p class=\"config\"><strong>", f);
	cbench_plot_html(f, label);
	fprintf(f, "</strong>: confidence %g, min-effect &plusmn;%g %%, seed ",
		config ? cbench_json_number(config, "confidence", NAN) : NAN,
		config ? cbench_json_number(config, "min_effect", 0) : 0);
	if (config && cbench_json_u64(config, "seed", &seed))
		fprintf(f, "%" PRIu64 "</p>\n", seed);
	else
		fputs("unknown</p>\n", f);
}

static void list(FILE *f, const char *label, const struct cbench_json *root, bool named)
{
	const struct cbench_json *audits = cbench_json_get(root, "audits");

	for (size_t i = 0; i < audits->n; i++) {
		const struct cbench_json *a = &audits->items[i];

		fputs("<li>", f);
		cbench_plot_html(f, cbench_json_string(a, "name", ""));
		if (named) {
			fputs(" (", f);
			cbench_plot_html(f, label);
			fputs(")", f);
		}
		fputs(": ", f);
		cbench_plot_html(f, verdict_words(a));
		fprintf(f, ", %g rounds</li>\n", cbench_json_number(a, "rounds", NAN));
	}
}

int cbench_plot_audit_page(FILE *f, const char *const labels[], const struct cbench_json *const roots[], size_t n)
{
	const struct cbench_json *config = cbench_json_get(roots[0], "config");
	double min_effect = config ? cbench_json_number(config, "min_effect", 0) : 0;

	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>cbench audit: ", f);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ", " : "", f);
		cbench_plot_html(f, labels[i]);
	}
	fputs("</title>\n<style>\nbody { font: 14px sans-serif; margin: 2em; color: #222; }\n", f);
	fputs(cbench_plot_forest_css, f);
	fputs("</style></head><body>\n<h1>cbench audit: ", f);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ", " : "", f);
		cbench_plot_html(f, labels[i]);
	}
	fputs("</h1>\n", f);
	for (size_t i = 0; i < n; i++)
		config_line(f, labels[i], roots[i]);
	fprintf(f, "<p class=\"legend\">Each audit's change of B against A with its interval, sorted by "
		"change, slowest first. The grey band is &plusmn;%g %% (min-effect%s): an interval within it "
		"is equivalent, grey; slower red, faster green; inconclusive dashed, a hollow estimate and "
		"a ?.</p>\n", min_effect, n > 1 ? ", the first file's" : "");
	if (plot(f, labels, roots, n, min_effect))
		return -ENOMEM;
	fputs("<ul>\n", f);
	for (size_t i = 0; i < n; i++)
		list(f, labels[i], roots[i], n > 1);
	fputs("</ul>\n<footer id=\"end\">cbenchctl plot</footer>\n</body></html>\n", f);
	return ferror(f) ? -EIO : 0;
}
