// SPDX-License-Identifier: GPL-2.0
/*
 * `cbenchctl history --format html`: a page with a plot per series.  Each
 * run is a point at its place in the series (its order below), with a bar
 * of two of its own standard uncertainties either side; each segment
 * between change points is a line at its weighted mean; each change point
 * a dashed line before its first run, red for a confirmed slowdown, green
 * for a confirmed speed-up, orange where no audit confirmed it, grey where
 * none was asked, labelled with its change, and a band over the runs
 * before it too noisy to tell their side.  A table of every change point
 * comes first; the series follow in their parameters' order (len=64
 * before len=512), runs of digits compared as numbers.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_history.h"
#include "report/plot_svg.h"

#define H_WIDTH 760
#define H_HEIGHT 280
#define H_LEFT 80
#define H_RIGHT 20
#define H_TOP 28
#define H_BOTTOM 40
#define H_XTICKS 10		/* order labels under the axis, at most */

struct frame {
	size_t n;
	double lo, hi;		/* the y axis, in the series' unit */
};

static double x_of(const struct frame *fr, double i)
{
	return H_LEFT + (i + 0.5) * (H_WIDTH - H_LEFT - H_RIGHT) / (double)fr->n;
}

static double y_of(const struct frame *fr, double v)
{
	return H_TOP + (fr->hi - v) / (fr->hi - fr->lo) * (H_HEIGHT - H_TOP - H_BOTTOM);
}

/* The y axis: every point and its bar, 5 % room either side. */
static void frame_of(const struct cbench_history_series *s, struct frame *fr)
{
	double lo = INFINITY, hi = -INFINITY, room;

	fr->n = s->npoints;
	for (size_t i = 0; i < s->npoints; i++) {
		double u = isfinite(s->points[i].u) ? s->points[i].u : 0;

		lo = fmin(lo, s->points[i].value * (1 - 2 * u));
		hi = fmax(hi, s->points[i].value * (1 + 2 * u));
	}
	room = hi > lo ? (hi - lo) * 0.05 : fabs(hi) * 0.001 + 1e-12;
	fr->lo = lo - room;
	fr->hi = hi + room;
}

static void axes(const struct cbench_history_series *s, const struct frame *fr, FILE *f)
{
	double step = cbench_plot_round_step((fr->hi - fr->lo) / 5);
	size_t every = (s->npoints + H_XTICKS - 1) / H_XTICKS;

	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" class=\"axis\"/>\n", H_LEFT,
		H_HEIGHT - H_BOTTOM, H_WIDTH - H_RIGHT, H_HEIGHT - H_BOTTOM);
	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" class=\"axis\"/>\n", H_LEFT, H_TOP,
		H_LEFT, H_HEIGHT - H_BOTTOM);
	for (double v = ceil(fr->lo / step) * step; v <= fr->hi; v += step) {
		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" class=\"grid\"/>", H_LEFT,
			y_of(fr, v), H_WIDTH - H_RIGHT, y_of(fr, v));
		fprintf(f, "<text x=\"%d\" y=\"%.1f\" class=\"tick\" text-anchor=\"end\">%.6g</text>\n",
			H_LEFT - 6, y_of(fr, v) + 4, v);
	}
	for (size_t i = 0; i < s->npoints; i += every ? every : 1)
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" class=\"tick\" text-anchor=\"middle\">%lld</text>\n",
			x_of(fr, (double)i), H_HEIGHT - H_BOTTOM + 16, s->points[i].order);
	fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"label\" text-anchor=\"middle\">order</text>\n",
		(H_LEFT + H_WIDTH - H_RIGHT) / 2, H_HEIGHT - 6);
	fprintf(f, "<text x=\"14\" y=\"%d\" class=\"label\" transform=\"rotate(-90 14 %d)\" "
		"text-anchor=\"middle\">", (H_TOP + H_HEIGHT - H_BOTTOM) / 2,
		(H_TOP + H_HEIGHT - H_BOTTOM) / 2);
	cbench_plot_html(f, s->unit);
	fputs("</text>\n", f);
}

/* Whether run i of s was set aside as one run's excursion. */
static bool excursion(const struct cbench_history_series *s, size_t i)
{
	for (size_t k = 0; k < s->nexcursions; k++) {
		if (s->excursions[k].index == i)
			return true;
	}
	return false;
}

static void points(const struct cbench_history_series *s, const struct frame *fr, FILE *f)
{
	for (size_t i = 0; i < s->npoints; i++) {
		const struct cbench_history_point *p = &s->points[i];
		double x = x_of(fr, (double)i), u = isfinite(p->u) ? p->u : 0;
		bool aside = excursion(s, i);

		if (u > 0)
			fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"bar\"/>", x,
				y_of(fr, p->value * (1 + 2 * u)), x, y_of(fr, p->value * (1 - 2 * u)));
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%d\" class=\"run%s\"><title>order %lld, "
			"commit ", x, y_of(fr, p->value), aside ? 4 : 3, aside ? " excursion" : "", p->order);
		cbench_plot_html(f, p->commit);
		fprintf(f, ": %.6g ", p->value);
		cbench_plot_html(f, s->unit);
		fputs(aside ? "; set aside: one run apart from those around it, measure it again" : "", f);
		fputs("</title></circle>\n", f);
	}
}

/* Each segment's weighted mean as a line across its runs. */
static void segments(const struct cbench_history_series *s, const struct frame *fr, FILE *f)
{
	for (size_t k = 0; k <= s->nchanges; k++) {
		size_t a = k ? s->changes[k - 1].cp.index : 0;
		size_t b = k < s->nchanges ? s->changes[k].cp.index : s->npoints;
		double mean = 0;

		if (s->nchanges)
			mean = exp(k ? s->changes[k - 1].cp.after : s->changes[0].cp.before);
		else
			for (size_t i = 0; i < s->npoints; i++)
				mean += s->points[i].value / (double)s->npoints;
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"segment\"/>\n",
			x_of(fr, (double)a - 0.4), y_of(fr, mean), x_of(fr, (double)b - 0.6), y_of(fr, mean));
	}
}

static const char *change_class(const struct cbench_history_change *c)
{
	if (c->confirm == CBENCH_CONFIRM_YES)
		return c->cp.change > 0 ? "slower" : "faster";
	return c->confirm == CBENCH_CONFIRM_NO ? "unconfirmed" : "unasked";
}

static void changes(const struct cbench_history_series *s, const struct frame *fr, FILE *f)
{
	for (size_t k = 0; k < s->nchanges; k++) {
		const struct cbench_history_change *c = &s->changes[k];
		double x = x_of(fr, (double)c->cp.index - 0.5);

		/* Runs between too noisy to tell their side: a band. */
		if (c->unclear)
			fprintf(f, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" class=\"unclear\">"
				"<title>%zu run%s too noisy to tell its side</title></rect>\n",
				x_of(fr, (double)c->cp.last + 0.5), H_TOP, x - x_of(fr, (double)c->cp.last + 0.5),
				H_HEIGHT - H_TOP - H_BOTTOM, c->unclear, c->unclear == 1 ? "" : "s");
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" class=\"change %s\"/>", x,
			H_TOP - 4, x, H_HEIGHT - H_BOTTOM, change_class(c));
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" class=\"tick %s\" text-anchor=\"middle\">%+.2f %%%s"
			"</text>\n", x, H_TOP - 8, change_class(c), 100 * c->cp.change,
			c->confirm == CBENCH_CONFIRM_YES ? ", confirmed" : "");
	}
}

static void series(const struct cbench_history_series *s, FILE *f)
{
	struct frame fr;

	fputs("<h2>", f);
	cbench_plot_html(f, s->name);
	fputs(" <small>", f);
	cbench_plot_html(f, s->object);
	fputs(" on ", f);
	cbench_plot_html(f, s->machine);
	fprintf(f, " (%s backend), %zu runs</small></h2>\n", s->backend, s->npoints);
	if (!s->npoints)
		return;
	frame_of(s, &fr);
	fprintf(f, "<svg width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">\n", H_WIDTH,
		H_HEIGHT, H_WIDTH, H_HEIGHT);
	axes(s, &fr, f);
	changes(s, &fr, f);
	segments(s, &fr, f);
	points(s, &fr, f);
	fputs("</svg>\n", f);
}

/*
 * Names in their parameters' order: "Hash/len=64" before "Hash/len=512",
 * runs of digits compared as numbers, the rest as text.
 */
static int natural(const char *a, const char *b)
{
	while (*a && *b) {
		if (*a >= '0' && *a <= '9' && *b >= '0' && *b <= '9') {
			char *ea, *eb;
			double x = strtod(a, &ea), y = strtod(b, &eb);

			if (x != y)
				return x < y ? -1 : 1;
			a = ea;
			b = eb;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a - (unsigned char)*b;
		a++;
		b++;
	}
	return (unsigned char)*a - (unsigned char)*b;
}

static int by_name(const void *x, const void *y)
{
	const struct cbench_history_series *a = *(const struct cbench_history_series *const *)x;
	const struct cbench_history_series *b = *(const struct cbench_history_series *const *)y;
	int c = strcmp(a->machine, b->machine);

	if (!c)
		c = strcmp(a->object, b->object);
	return c ? c : natural(a->name, b->name);
}

/* What changed, on top: a line per change point, in the series' order. */
static void summary(const struct cbench_history_series *const *v, size_t n, FILE *f)
{
	size_t lines = 0;

	for (size_t i = 0; i < n; i++) {
		const struct cbench_history_series *s = v[i];

		for (size_t k = 0; k < s->nchanges; k++) {
			const struct cbench_history_change *c = &s->changes[k];

			fputs(lines++ ? "" : "<table class=\"summary\"><tr><th>benchmark</th><th>machine</th>"
			      "<th>change</th><th>from order (commit)</th><th>after</th></tr>\n", f);
			fputs("<tr><td>", f);
			cbench_plot_html(f, s->name);
			fputs("</td><td>", f);
			cbench_plot_html(f, s->machine);
			fprintf(f, "</td><td class=\"%s\">%+.2f %%</td><td>%lld (", change_class(c),
				100 * c->cp.change, s->points[c->cp.index].order);
			cbench_plot_html(f, s->points[c->cp.index].commit);
			fprintf(f, ")</td><td>%lld</td></tr>\n", s->points[c->cp.last].order);
		}
	}
	fputs(lines ? "</table>\n" : "<p>No series changed.</p>\n", f);
	lines = 0;
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < v[i]->nexcursions; k++) {
			const struct cbench_history_point *p = &v[i]->points[v[i]->excursions[k].index];

			fputs(lines++ ? ", " : "<p>Set aside, one run apart from those around it (measure "
			      "its commit again): ", f);
			cbench_plot_html(f, v[i]->name);
			fprintf(f, " at order %lld (%+.2f %%)", p->order, 100 * v[i]->excursions[k].change);
		}
	}
	fputs(lines ? ".</p>\n" : "", f);
}

int cbench_history_report_html(const struct cbench_history *h, FILE *f)
{
	const struct cbench_history_series **v = calloc(h->nseries + 1, sizeof(*v));
	size_t n, confirmed, slower;

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < h->nseries; i++)
		v[i] = &h->series[i];
	qsort(v, h->nseries, sizeof(*v), by_name);

	cbench_history_count(h, &n, &confirmed, &slower);
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>History of ", f);
	cbench_plot_html(f, h->store);
	fputs("</title>\n<style>\n"
	      "body { font-family: 'DejaVu Sans', sans-serif; margin: 2em; color: #222; }\n"
	      "h2 small { font-weight: normal; color: #666; }\n"
	      "svg text { font-size: 11px; fill: #333; }\n"
	      ".axis { stroke: #444; } .grid { stroke: #e4e4e4; } .bar { stroke: #8aa9c8; }\n"
	      ".run { fill: #1f6fb4; } .run.excursion { fill: #fff; stroke: #b4541f; stroke-width: 2; }\n"
	      ".segment { stroke: #1c3f95; stroke-width: 2; }\n"
	      ".change { stroke-width: 2; stroke-dasharray: 5 3; } .unclear { fill: #f1e4d3; }\n"
	      "line.slower { stroke: #b3312c; } line.faster { stroke: #2a9d3a; }\n"
	      "line.unconfirmed { stroke: #d9661f; } line.unasked { stroke: #6b6b6b; }\n"
	      "text.slower { fill: #b3312c; } text.faster { fill: #2a9d3a; }\n"
	      "text.unconfirmed { fill: #d9661f; } text.unasked { fill: #6b6b6b; }\n"
	      "table.summary { border-collapse: collapse; } .summary td, .summary th { padding: 2px 10px; "
	      "text-align: left; }\n"
	      "td.slower { color: #b3312c; } td.faster { color: #2a9d3a; }\n"
	      "td.unconfirmed { color: #d9661f; }\n"
	      "</style></head><body>\n<h1>History of ", f);
	cbench_plot_html(f, h->store);
	fprintf(f, "</h1>\n<p>%zu series, %zu change point%s", h->nseries, n, n == 1 ? "" : "s");
	if (h->confirm)
		fprintf(f, ", %zu confirmed by an audit (%zu slower)", confirmed, slower);
	fprintf(f, "; max p %g, min effect %g %%.</p>\n", h->params.max_p, 100 * h->params.min_effect);
	summary(v, h->nseries, f);
	for (size_t i = 0; i < h->nseries; i++)
		series(v[i], f);
	fputs("</body></html>\n", f);
	free(v);
	return ferror(f) ? -EIO : 0;
}
