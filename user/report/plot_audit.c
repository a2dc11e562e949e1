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
#include <string.h>

#include "report/plot_audit.h"
#include "report/plot_svg.h"

#define WIDTH 760
#define LEFT 220
#define RIGHT 30
#define ROW 22
#define AXIS 40
#define TICKS 6

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

static double x_of(double v, double lo, double hi)
{
	return LEFT + (v - lo) / (hi - lo) * (WIDTH - LEFT - RIGHT);
}

/* The axis's range: every interval, the band and zero, with a margin. */
static void extent(const struct cbench_json *audits, double min_effect, double *lo, double *hi)
{
	*lo = -min_effect;
	*hi = min_effect;
	for (size_t i = 0; i < audits->n; i++) {
		const struct cbench_json *a = &audits->items[i];
		double l = cbench_json_number(a, "lower", NAN), u = cbench_json_number(a, "upper", NAN);
		double c = cbench_json_number(a, "change", NAN);

		*lo = fmin(*lo, isnan(l) ? (isnan(c) ? *lo : c) : l);
		*hi = fmax(*hi, isnan(u) ? (isnan(c) ? *hi : c) : u);
	}
	if (!(*hi > *lo))
		*hi = *lo + 1;
	*lo -= 0.1 * (*hi - *lo);
	*hi += 0.1 * (*hi - *lo);
	/* Ends on round ticks (1, 2 or 5 times a power of ten). */
	double step = cbench_plot_round_step((*hi - *lo) / TICKS);

	*lo = floor(*lo / step) * step;
	*hi = ceil(*hi / step) * step;
}

/*
 * One audit's row, drawn by its verdict so none passes for another: an
 * equivalent change's interval solid grey within the band, a slower or
 * faster one's solid in its colour, an inconclusive one's dashed with a
 * hollow estimate and "?" at its end, a failed audit as text.
 */
static void row(FILE *f, const struct cbench_json *a, int y, double lo, double hi)
{
	double l = cbench_json_number(a, "lower", NAN), u = cbench_json_number(a, "upper", NAN);
	double c = cbench_json_number(a, "change", NAN);
	const char *verdict = cbench_json_string(a, "verdict", "inconclusive");
	bool unsure = !strcmp(verdict, "inconclusive");

	fprintf(f, "<g class=\"audit %s\"><title>", verdict);
	cbench_plot_html(f, cbench_json_string(a, "name", ""));
	fprintf(f, ": %s</title><text x=\"%d\" y=\"%d\" text-anchor=\"end\">", verdict, LEFT - 8, y + 4);
	cbench_plot_html(f, cbench_json_string(a, "name", ""));
	fputs("</text>", f);
	if (!strcmp(verdict, "failed"))
		fprintf(f, "<text class=\"failed\" x=\"%d\" y=\"%d\">failed</text>", LEFT + 4, y + 4);
	if (!isnan(l) && !isnan(u))
		fprintf(f, "<line class=\"interval\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>",
			x_of(l, lo, hi), y, x_of(u, lo, hi), y);
	if (!isnan(c))
		fprintf(f, "<circle class=\"estimate\" cx=\"%.1f\" cy=\"%d\" r=\"4\"/>", x_of(c, lo, hi), y);
	if (unsure && !isnan(u))
		fprintf(f, "<text class=\"unsure\" x=\"%.1f\" y=\"%d\">?</text>", x_of(u, lo, hi) + 5, y + 4);
	fputs("</g>", f);
}

static void plot(FILE *f, const struct cbench_json *audits, double min_effect)
{
	int height = (int)audits->n * ROW + AXIS + 10, y0 = 14, axis_y = y0 + (int)audits->n * ROW;
	double lo, hi;

	extent(audits, min_effect, &lo, &hi);
	fprintf(f, "<svg class=\"plot\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\">",
		WIDTH, height);
	fprintf(f, "<rect class=\"band\" x=\"%.1f\" y=\"0\" width=\"%.1f\" height=\"%d\"/>",
		x_of(-min_effect, lo, hi), x_of(min_effect, lo, hi) - x_of(-min_effect, lo, hi), axis_y);
	fprintf(f, "<line class=\"zero\" x1=\"%.1f\" y1=\"0\" x2=\"%.1f\" y2=\"%d\"/>",
		x_of(0, lo, hi), x_of(0, lo, hi), axis_y);
	for (size_t i = 0; i < audits->n; i++)
		row(f, &audits->items[i], y0 + (int)i * ROW, lo, hi);
	fprintf(f, "<g class=\"axis\"><line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>", LEFT, axis_y,
		WIDTH - RIGHT, axis_y);
	double step = cbench_plot_round_step((hi - lo) / TICKS);
	int decimals = (int)fmax(0, -floor(log10(step) + 1e-9));

	for (double v = ceil(lo / step - 1e-9) * step; v <= hi + step / 2; v += step)
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%.*f</text>",
			x_of(v, lo, hi), axis_y + 16, decimals, fabs(v) < step / 2 ? 0 : v);
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">B's change against A, %%</text></g>"
		"</svg>\n", WIDTH - RIGHT, axis_y + 32);
}

int cbench_plot_audit_page(FILE *f, const char *label, const struct cbench_json *root)
{
	const struct cbench_json *audits = cbench_json_get(root, "audits");
	const struct cbench_json *config = cbench_json_get(root, "config");
	double min_effect = config ? cbench_json_number(config, "min_effect", 0) : 0;
	uint64_t seed;

	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>cbench audit: ", f);
	cbench_plot_html(f, label);
	fputs("</title>\n<style>\nbody { font: 14px sans-serif; margin: 2em; color: #222; }\n"
	      ".plot text { font: 11px sans-serif; }\n.axis line { stroke: #888; }\n"
	      ".band { fill: #e8e8e8; }\n.zero { stroke: #888; stroke-dasharray: 3 3; }\n"
	      ".interval { stroke: #1f6fb4; stroke-width: 3; }\n.estimate { fill: #d9661f; }\n"
	      ".equivalent .interval { stroke: #777; }\n .equivalent .estimate { fill: #555; }\n"
	      ".slower .interval { stroke: #b3312c; }\n .faster .interval { stroke: #2a9d3a; }\n"
	      ".inconclusive .interval { stroke: #d9661f; stroke-dasharray: 5 4; }\n"
	      ".inconclusive .estimate { fill: #fff; stroke: #d9661f; stroke-width: 2; }\n"
	      ".unsure { fill: #d9661f; font-weight: bold; }\n .failed { fill: #b00; }\n"
	      "</style></head><body>\n<h1>cbench audit: ", f);
	cbench_plot_html(f, label);
	fprintf(f, "</h1>\n<p class=\"config\">confidence %g, min-effect &plusmn;%g %% (the grey "
		"band; an interval within it is equivalent, grey; slower red, faster green; inconclusive "
		"dashed, a hollow estimate and a ?), seed ", config ? cbench_json_number(config, "confidence", NAN) : NAN, min_effect);
	if (config && cbench_json_u64(config, "seed", &seed))
		fprintf(f, "%" PRIu64 "</p>\n", seed);
	else
		fputs("unknown</p>\n", f);
	plot(f, audits, min_effect);
	fputs("<ul>\n", f);
	for (size_t i = 0; i < audits->n; i++) {
		const struct cbench_json *a = &audits->items[i];

		fputs("<li>", f);
		cbench_plot_html(f, cbench_json_string(a, "name", ""));
		fputs(": ", f);
		cbench_plot_html(f, cbench_json_string(a, "verdict", ""));
		fprintf(f, ", %g rounds</li>\n", cbench_json_number(a, "rounds", NAN));
	}
	fputs("</ul>\n<footer id=\"end\">cbenchctl plot</footer>\n</body></html>\n", f);
	return ferror(f) ? -EIO : 0;
}
