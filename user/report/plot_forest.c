// SPDX-License-Identifier: GPL-2.0
/*
 * A forest of changes (see plot_forest.h): per row the benchmark's name in
 * a column as wide as the longest, its change as a dot with its interval on
 * a shared axis over the band of changes too small to count, and its
 * figures in words at the right.  Self-contained SVG; the page's CSS
 * colours each row by its verdict.
 */
#include <math.h>
#include <string.h>

#include "report/plot_forest.h"
#include "report/plot_svg.h"

#define FOREST_PLOT 360		/* the axis's length, px */
#define FOREST_PAD 8		/* around the drawing, and between columns */
#define FOREST_TOP 10
#define FOREST_ROW 20
#define FOREST_AXIS 44		/* under the rows: ticks, their labels, the title */
#define FOREST_TICKS 6

const char cbench_plot_forest_css[] =
	".forest text { font: " CBENCH_PLOT_FONT "; }\n"
	".forest .band { fill: #e8e8e8; }\n .forest .zero { stroke: #888; stroke-dasharray: 3 3; }\n"
	".forest .guide { stroke: #eee; }\n .forest .axis line { stroke: #888; }\n"
	".forest .interval { stroke: #1f6fb4; stroke-width: 3; }\n .forest .estimate { fill: #1f6fb4; }\n"
	".slower .interval { stroke: #b3312c; }\n .slower .estimate, .slower .label { fill: #b3312c; }\n"
	".faster .interval { stroke: #2a9d3a; }\n .faster .estimate, .faster .label { fill: #2a9d3a; }\n"
	".equal .interval, .equivalent .interval { stroke: #777; }\n"
	".equal .estimate, .equivalent .estimate { fill: #555; }\n"
	".unsettled .interval { stroke: #7a9cc0; }\n .unsettled .estimate { fill: #5b7fa6; }\n"
	".none .interval { stroke: #aaa; }\n .none .estimate { fill: #888; }\n"
	".undecided .estimate { fill: #fff; stroke: #555; stroke-width: 1.5; }\n"
	".undecided.up .estimate { stroke: #b3312c; }\n .undecided.up .label { fill: #b3312c; }\n"
	".undecided.down .estimate { stroke: #2a9d3a; }\n .undecided.down .label { fill: #2a9d3a; }\n"
	".inconclusive .interval { stroke: #d9661f; stroke-dasharray: 5 4; }\n"
	".inconclusive .estimate { fill: #fff; stroke: #d9661f; stroke-width: 2; }\n"
	".unsure { fill: #d9661f; }\n .forest .failed { fill: #b00; }\n";

struct layout {
	double left, right;		/* the axis's ends, px */
	double lo, hi, step;		/* the axis's range and ticks, as fractions */
	int width, height, axis_y;
};

static double x_of(const struct layout *l, double v)
{
	return l->left + (v - l->lo) / (l->hi - l->lo) * (l->right - l->left);
}

/* The axis's range: every change and interval, the band and 0, with room. */
static void extent(const struct cbench_plot_row *rows, size_t n, double min_effect, struct layout *l)
{
	double lo = -min_effect, hi = min_effect, pad;

	for (size_t i = 0; i < n; i++) {
		const double v[3] = { rows[i].change, rows[i].lo, rows[i].hi };

		for (int k = 0; k < 3; k++) {
			if (isfinite(v[k])) {
				lo = fmin(lo, v[k]);
				hi = fmax(hi, v[k]);
			}
		}
	}
	if (!(hi > lo))
		hi = lo + 0.01;
	pad = 0.1 * (hi - lo);
	lo -= pad;
	hi += pad;
	l->step = cbench_plot_round_step((hi - lo) / FOREST_TICKS);
	l->lo = floor(lo / l->step) * l->step;
	l->hi = ceil(hi / l->step) * l->step;
}

/* A tick's label: the ratio (1.05) or the change in percent (+5). */
static void tick_label(char *buf, size_t len, double v, double step, bool ratio)
{
	double scale = ratio ? 1 : 100;
	int decimals = (int)fmax(0, -floor(log10(step * scale) + 1e-9));

	if (fabs(v) < step / 2)
		v = 0;
	if (ratio)
		snprintf(buf, len, "%.*f", decimals, 1 + v);
	else
		snprintf(buf, len, "%+.*f", decimals, 100 * v);
	if (!ratio && v == 0)
		snprintf(buf, len, "0");
}

static void layout(const struct cbench_plot_row *rows, size_t n, double min_effect, const char *title,
		   struct layout *l)
{
	double names = 0, labels = 0;

	for (size_t i = 0; i < n; i++) {
		names = fmax(names, cbench_plot_text_width(rows[i].name));
		labels = fmax(labels, cbench_plot_text_width(rows[i].label));
	}
	extent(rows, n, min_effect, l);
	l->left = ceil(FOREST_PAD + names + FOREST_PAD);
	l->right = l->left + FOREST_PLOT;
	l->width = (int)ceil(l->right + FOREST_PAD + labels + FOREST_PAD);
	/* The title is centred under the axis: room for it either side. */
	l->width = (int)fmax(l->width, (l->left + l->right) / 2 + cbench_plot_text_width(title) / 2 + FOREST_PAD);
	l->axis_y = FOREST_TOP + (int)n * FOREST_ROW;
	l->height = l->axis_y + FOREST_AXIS;
}

static void row(FILE *f, const struct cbench_plot_row *r, const struct layout *l, int y, const char *kind,
		double min_effect)
{
	bool unsure = !strcmp(r->verdict, "inconclusive");

	/* Undecided, but past the band: hollow, in the colour of its direction. */
	const char *tint = strcmp(r->verdict, "undecided") ? "" : r->change > min_effect ? " up" :
			   r->change < -min_effect ? " down" : "";

	fprintf(f, "<g class=\"%s %s%s\"><title>", kind, r->verdict, tint);
	cbench_plot_html(f, r->title);
	fprintf(f, "</title><line class=\"guide\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>"
		"<text class=\"name\" x=\"%.1f\" y=\"%d\" text-anchor=\"end\">", l->left - FOREST_PAD / 2, y,
		l->right, y, l->left - FOREST_PAD, y + 4);
	cbench_plot_html(f, r->name);
	fputs("</text>", f);
	if (!strcmp(r->verdict, "failed"))
		fprintf(f, "<text class=\"failed\" x=\"%.1f\" y=\"%d\">failed</text>", l->left + 4, y + 4);
	if (isfinite(r->lo) && isfinite(r->hi))
		fprintf(f, "<line class=\"interval\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>",
			x_of(l, r->lo), y, x_of(l, r->hi), y);
	if (isfinite(r->change))
		fprintf(f, "<circle class=\"estimate\" cx=\"%.1f\" cy=\"%d\" r=\"4\"/>", x_of(l, r->change), y);
	if (unsure && isfinite(r->hi))
		fprintf(f, "<text class=\"unsure\" x=\"%.1f\" y=\"%d\">?</text>", x_of(l, r->hi) + 5, y + 4);
	fprintf(f, "<text class=\"label\" x=\"%.1f\" y=\"%d\">", l->right + FOREST_PAD, y + 4);
	cbench_plot_html(f, r->label);
	fputs("</text></g>", f);
}

static void axis(FILE *f, const struct layout *l, bool ratio, const char *title)
{
	char label[32];

	fprintf(f, "<g class=\"axis\"><line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>", l->left, l->axis_y,
		l->right, l->axis_y);
	for (double v = l->lo; v <= l->hi + l->step / 2; v += l->step) {
		tick_label(label, sizeof(label), v, l->step, ratio);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/><text class=\"tick\" x=\"%.1f\" "
			"y=\"%d\" text-anchor=\"middle\">%s</text>", x_of(l, v), l->axis_y, x_of(l, v),
			l->axis_y + 4, x_of(l, v), l->axis_y + 16, label);
	}
	fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">", (l->left + l->right) / 2, l->axis_y + 34);
	cbench_plot_html(f, title);
	fputs("</text></g>", f);
}

void cbench_plot_forest(FILE *f, const struct cbench_plot_row *rows, size_t n, double min_effect, bool ratio,
			const char *axis_title, const char *kind)
{
	struct layout l;

	layout(rows, n, min_effect, axis_title, &l);
	fprintf(f, "<svg class=\"forest\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" role=\"img\">", l.width, l.height, l.width, l.height);
	if (min_effect > 0)
		fprintf(f, "<rect class=\"band\" x=\"%.1f\" y=\"0\" width=\"%.1f\" height=\"%d\"/>",
			x_of(&l, -min_effect), x_of(&l, min_effect) - x_of(&l, -min_effect), l.axis_y);
	fprintf(f, "<line class=\"zero\" x1=\"%.1f\" y1=\"0\" x2=\"%.1f\" y2=\"%d\"/>", x_of(&l, 0),
		x_of(&l, 0), l.axis_y);
	for (size_t i = 0; i < n; i++)
		row(f, &rows[i], &l, FOREST_TOP + (int)i * FOREST_ROW + FOREST_ROW / 2, kind, min_effect);
	axis(f, &l, ratio, axis_title);
	fputs("</svg>\n", f);
}
