// SPDX-License-Identifier: GPL-2.0
/*
 * The change view of `cbenchctl plot` (see plot_change.h).  It is
 * compare's table as a picture: the same runs (report/runs.c), the same
 * test and verdicts (stats/change.c), so a page and `compare` never
 * disagree.  A lab asks first what changed: the rows are sorted by change,
 * slowest first, and a headline names the largest slowdown and speed-up.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/plot_change.h"
#include "report/plot_forest.h"
#include "report/plot_svg.h"

static const char *const verdict_class[] = {
	[CBENCH_CHANGE_UNDECIDED] = "undecided", [CBENCH_CHANGE_NONE] = "none",
	[CBENCH_CHANGE_UNSETTLED] = "unsettled", [CBENCH_CHANGE_EQUAL] = "equal",
	[CBENCH_CHANGE_FASTER] = "faster", [CBENCH_CHANGE_SLOWER] = "slower",
};

/* As compare's table says them, and in a few words more. */
static const char *const verdict_words[] = {
	[CBENCH_CHANGE_UNDECIDED] = "?", [CBENCH_CHANGE_NONE] = "~", [CBENCH_CHANGE_UNSETTLED] = "~ real",
	[CBENCH_CHANGE_EQUAL] = "~ equal", [CBENCH_CHANGE_FASTER] = "faster", [CBENCH_CHANGE_SLOWER] = "slower",
};
static const char *const verdict_meaning[] = {
	[CBENCH_CHANGE_UNDECIDED] = "one run a side: no interval, no verdict",
	[CBENCH_CHANGE_NONE] = "no difference shown, nor within --min-effect",
	[CBENCH_CHANGE_UNSETTLED] = "real, but not shown past --min-effect",
	[CBENCH_CHANGE_EQUAL] = "within --min-effect", [CBENCH_CHANGE_FASTER] = "faster",
	[CBENCH_CHANGE_SLOWER] = "slower",
};

struct change_row {
	struct cbench_plot_row row;
	struct cbench_change c;
	int metric;
};

static const char *short_name(const char *name)
{
	return name + (strncmp(name, "Benchmark", 9) ? 0 : 9);
}

/* The row's words: the change, its interval, the verdict; more on hover. */
static void describe(struct change_row *r, const struct cbench_series *a, const struct cbench_series *b)
{
	const struct cbench_change *c = &r->c;
	char interval[64] = "", p[32] = "", verdict[64];

	if (c->under_min_effect)
		snprintf(verdict, sizeof(verdict), "~ equal: %s, under --min-effect",
			 c->under_min_effect > 0 ? "slower" : "faster");
	else if (c->verdict == CBENCH_CHANGE_UNSETTLED)
		snprintf(verdict, sizeof(verdict), "~ %s, not shown past --min-effect",
			 c->lo > 0 ? "slower" : "faster");
	else
		snprintf(verdict, sizeof(verdict), "%s", verdict_words[c->verdict]);
	if (isfinite(c->lo)) {
		snprintf(interval, sizeof(interval), " [%+.2f, %+.2f]", 100 * c->lo, 100 * c->hi);
		snprintf(p, sizeof(p), ", p %.3f", c->p);
	}
	snprintf(r->row.label, sizeof(r->row.label), "%+.2f %%%s %s", 100 * c->change, interval, verdict);
	snprintf(r->row.title, sizeof(r->row.title), "%s: %+.2f %%%s (new/old %.4f)%s; old %.6g %s, %zu "
		 "run%s; new %.6g %s, %zu run%s: %s (%s)", a->name, 100 * c->change, interval,
		 c->new_ns / c->old_ns, p, c->old_ns, cbench_metric_units[r->metric], a->n,
		 a->n == 1 ? "" : "s", c->new_ns, cbench_metric_units[r->metric], b->n,
		 b->n == 1 ? "" : "s", verdict, c->under_min_effect ? "a real change, too small to count" :
		 verdict_meaning[c->verdict]);
	r->row.name = short_name(a->name);
	r->row.verdict = verdict_class[c->verdict];
	r->row.change = c->change;
	r->row.lo = c->lo;
	r->row.hi = c->hi;
}

static int by_change(const void *x, const void *y)
{
	const struct change_row *a = x, *b = y;

	return (a->c.change < b->c.change) - (a->c.change > b->c.change);
}

static void headline_one(FILE *f, const char *what, const struct change_row *r)
{
	fprintf(f, "%s: <strong>", what);
	cbench_plot_html(f, r->row.name);
	fprintf(f, "</strong>, %+.2f %% (%s)", 100 * r->c.change,
		r->c.under_min_effect ? "equal: real, but under --min-effect" : verdict_meaning[r->c.verdict]);
}

/* The largest slowdown and speed-up, first and last of the sorted rows. */
static void headline(FILE *f, const struct change_row *rows, size_t n)
{
	fputs("<p class=\"headline\">", f);
	if (n && rows[0].c.change > 0)
		headline_one(f, "Largest slowdown", &rows[0]);
	else
		fputs("Nothing slower", f);
	if (n && rows[n - 1].c.change < 0) {
		fputs(". ", f);
		headline_one(f, "Largest speed-up", &rows[n - 1]);
	}
	fputs(".</p>\n", f);
}

/* The benchmarks of one side only. */
static void only_in(FILE *f, const struct cbench_runs *g, const struct cbench_runs *other, const char *label)
{
	size_t k = 0;

	for (size_t i = 0; i < g->n; i++) {
		if (cbench_runs_find(other, g->s[i].name))
			continue;
		if (!k++) {
			fputs("<p class=\"only\">Only in ", f);
			cbench_plot_html(f, label);
			fputs(":", f);
		}
		fputs(k > 1 ? ", " : " ", f);
		cbench_plot_html(f, short_name(g->s[i].name));
	}
	if (k)
		fputs(".</p>\n", f);
}

/* What the colours and the axis say, and what one run a side cannot. */
static void legend(FILE *f, const char *const labels[2], double min_effect, size_t undecided, bool mixed,
		   const size_t by_metric[CBENCH_METRICS])
{
	fputs("<p class=\"legend\">Per benchmark, ", f);
	cbench_plot_html(f, labels[1]);
	fputs(" against ", f);
	cbench_plot_html(f, labels[0]);
	fprintf(f, " as <code>compare</code> tests it: each run's headline (the median of its trials), each "
		"side's geometric mean of those, and Welch's 95 %% interval over the runs. The grey "
		"band is &plusmn;%.2f %% (<code>--min-effect</code>): slower red, faster green (the whole "
		"interval past the band), equal grey (within it), real blue (the interval excludes 0 but "
		"reaches across the band), no difference shown light grey. "
		"Slowest first; hover for the figures.</p>\n", 100 * min_effect);
	fputs("<p class=\"note\">Judged by ", f);
	for (int m = 0, k = 0; m < CBENCH_METRICS; m++) {
		if (!by_metric[m])
			continue;
		fprintf(f, "%s%s (%zu benchmark%s)", k++ ? ", " : "", cbench_metric_units[m], by_metric[m],
			by_metric[m] == 1 ? "" : "s");
	}
	fputs(": est-cycles/op where both sides have it in every run, for the core clock cannot move "
	      "it; <code>--metric</code> chooses.</p>\n", f);
	if (undecided)
		fprintf(f, "<p class=\"note\">%zu benchmark%s with one run a side: the change without an "
			"interval or a verdict (hollow; red or green where it is past the band), for a run's "
			"trials move together and the core clock drifts between runs. Give each side two or "
			"more runs, taken alternately "
			"(<code>plot OLD1 OLD2 -- NEW1 NEW2</code>), or interleave both versions with "
			"<code>audit</code>.</p>\n", undecided, undecided == 1 ? "" : "s");
	if (mixed)
		fputs("<p class=\"note\">The runs were measured on different machines or backends: their "
		      "difference is not only the change's.</p>\n", f);
}

int cbench_plot_change(FILE *f, const struct cbench_sides *sides, const char *const labels[2],
		       double min_effect)
{
	const struct cbench_runs *old = cbench_sides_runs(sides, 0), *new = cbench_sides_runs(sides, 1);
	struct change_row *rows = calloc(old->n ? old->n : 1, sizeof(*rows));
	size_t n = 0, undecided = 0, by_metric[CBENCH_METRICS] = { 0 };

	if (!rows)
		return -ENOMEM;
	for (size_t i = 0; i < old->n; i++) {
		const struct cbench_series *a, *b;
		int m = cbench_sides_pick(sides, old->s[i].name, &a, &b);

		if (m < 0)
			continue;
		if (cbench_series_change(a, b, min_effect, &rows[n].c)) {
			free(rows);
			return -ENOMEM;
		}
		rows[n].metric = m;
		by_metric[m]++;
		undecided += rows[n].c.verdict == CBENCH_CHANGE_UNDECIDED;
		describe(&rows[n++], a, b);
	}
	qsort(rows, n, sizeof(*rows), by_change);
	fputs("<section class=\"change\"><h2>What changed: ", f);
	cbench_plot_html(f, labels[1]);
	fputs(" against ", f);
	cbench_plot_html(f, labels[0]);
	fputs("</h2>\n", f);
	headline(f, rows, n);
	if (n) {
		/* The forest takes rows; ours carry their change beside. */
		struct cbench_plot_row *plain = malloc(n * sizeof(*plain));

		if (!plain) {
			free(rows);
			return -ENOMEM;
		}
		for (size_t i = 0; i < n; i++)
			plain[i] = rows[i].row;
		cbench_plot_forest(f, plain, n, min_effect, true, "new/old (1: no change)", "change");
		free(plain);
	}
	legend(f, labels, min_effect, undecided, old->differed || new->differed, by_metric);
	only_in(f, old, new, labels[0]);
	only_in(f, new, old, labels[1]);
	fputs("</section>\n", f);
	free(rows);
	return 0;
}
