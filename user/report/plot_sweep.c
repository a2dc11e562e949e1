// SPDX-License-Identifier: GPL-2.0
/*
 * The sweep view of `cbenchctl plot`.  Parameters come from the names, so
 * Go text and JSON draw alike: "BenchmarkHash/algo=fnv1a/len=64" is base
 * BenchmarkHash with keys algo and len.  A key is swept when every set of
 * its base gives it an integer and it takes two values or more; its chart
 * has a line per value of the other keys (a "set") and per side, a point at
 * each set's estimate (as compare counts it: the geometric mean of the
 * side's runs' medians of trials) and a bar from its fastest to its slowest
 * trial.  A set keeps one hue on both sides: the old side's line dashed
 * and pale, the new one's solid, so a pair reads as one.
 *
 * Nothing is cut or hidden: columns are as wide as their text, a key's sets
 * go ten to a chart, and lines that coincide say so in the legend.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/plot_svg.h"
#include "report/plot_sweep.h"

#define SW_PLOT_W 480		/* the plot area, px */
#define SW_PLOT_H 240
#define SW_TOP 30
#define SW_BOTTOM 48		/* the x axis's ticks and title */
#define SW_GAP 24		/* between the plot and the legend */
#define SW_PAD 8
#define SW_ENTRY 18		/* a legend line, px */
#define SW_SWATCH 22		/* a legend swatch and its gap */
#define SW_KEYS 8
#define SW_TEXT 64
#define SW_SETS 10		/* sets (a hue each) a chart draws */
#define SW_CHARTS 3		/* charts a key gets; the sets beyond are named */
#define SW_POINTS 64		/* a key's values (CBENCH_PARAMS_MAX) */
#define SW_TICKS 16
#define SW_X_DECADES 10.0	/* key values spanning more than a decade: a log axis */
#define SW_Y_DECADES 100.0	/* times spanning two decades or more: a log axis (auto) */
#define SW_SAME_PX 1.5		/* lines closer than this at every point coincide */

static const char *const palette[SW_SETS] = {
	"#1f77b4", "#d95f02", "#2ca02c", "#d62728", "#9467bd",
	"#8c564b", "#e377c2", "#4d4d4d", "#a6a61e", "#17a2b8",
};

/* A name split into its base and key=value parts. */
struct parts {
	char base[256];
	int n;
	char key[SW_KEYS][SW_TEXT];
	char val[SW_KEYS][SW_TEXT];
};

struct sw_point {
	double x, y, lo, hi;	/* the key's value; ns/op: estimate, fastest and slowest trial */
	double change;		/* on the new side: against the old side's point at x; NAN */
};

struct sw_line {
	size_t n;
	struct sw_point p[SW_POINTS];
};

/* A value of the other keys: its lines, one per side. */
struct sw_set {
	char label[SW_KEYS * (2 * SW_TEXT + 2)];
	struct sw_line side[2];
};

/* A set's note in the legend: two labels and some words. */
#define SW_NOTE (2 * sizeof(((struct sw_set *)0)->label) + 64)

struct sw_axis {
	double lo, hi;
	bool log;
};

struct sw_chart {
	const char *base, *key;
	const char *const *labels;	/* the sides' */
	size_t nsides;
	struct sw_set *sets;		/* every set of the key, in order first seen */
	size_t nsets, cap;
	size_t first, count;		/* the sets this chart draws */
	struct sw_axis x, y;
	enum cbench_plot_scale y_scale;
	double left, legend_w;		/* the plot's left edge; the legend's width */
	int width, height;
};

/* Copies [s, s + n) into out (SW_TEXT or base-sized); false if it does not fit. */
static bool take(char *out, size_t size, const char *s, size_t n)
{
	if (n >= size)
		return false;
	memcpy(out, s, n);
	out[n] = '\0';
	return true;
}

/* name's base and key=value parts; false for a part that is not key=value. */
static bool split_name(const char *name, struct parts *p)
{
	const char *s = strchr(name, '/');

	memset(p, 0, sizeof(*p));
	if (!take(p->base, sizeof(p->base), name, s ? (size_t)(s - name) : strlen(name)))
		return false;
	while (s) {
		const char *part = s + 1, *eq;
		size_t len;

		s = strchr(part, '/');
		len = s ? (size_t)(s - part) : strlen(part);
		eq = memchr(part, '=', len);
		if (p->n == SW_KEYS || !eq || eq == part ||
		    !take(p->key[p->n], SW_TEXT, part, (size_t)(eq - part)) ||
		    !take(p->val[p->n], SW_TEXT, eq + 1, len - (size_t)(eq - part) - 1))
			return false;
		p->n++;
	}
	return true;
}

static bool integer(const char *s, double *v)
{
	char *end;
	long long n = strtoll(s, &end, 10);

	if (!*s || *end)
		return false;
	*v = (double)n;
	return true;
}

static bool same_keys(const struct parts *a, const struct parts *b)
{
	if (strcmp(a->base, b->base) || a->n != b->n)
		return false;
	for (int k = 0; k < a->n; k++) {
		if (strcmp(a->key[k], b->key[k]))
			return false;
	}
	return true;
}

/*
 * The next series, from side *s's *i-th on, whose name has want's base and
 * keys, with its parts in p; NULL after the last.  *s is its side.
 */
static const struct cbench_series *next_set(const struct cbench_runs *const sides[], size_t nsides,
					    const struct parts *want, size_t *s, size_t *i, struct parts *p)
{
	for (; *s < nsides; (*s)++, *i = 0) {
		while (*i < sides[*s]->n) {
			const struct cbench_series *b = &sides[*s]->s[(*i)++];

			if (split_name(b->name, p) && same_keys(p, want))
				return b;
		}
	}
	return NULL;
}

/* Whether key k of base takes integers only, two values or more. */
static bool swept(const struct cbench_runs *const sides[], size_t nsides, const struct parts *want, int k)
{
	struct parts p;
	double first = NAN, v;
	bool two = false;
	size_t s = 0, i = 0;

	while (next_set(sides, nsides, want, &s, &i, &p)) {
		if (!integer(p.val[k], &v))
			return false;
		if (isnan(first))
			first = v;
		two |= v != first;
	}
	return two;
}

/* The set of p's other keys (key k aside), added if new; NULL without memory. */
static struct sw_set *set_of(struct sw_chart *c, const struct parts *p, int k)
{
	char label[sizeof(c->sets[0].label)] = "";
	size_t at = 0;

	for (int j = 0; j < p->n; j++) {
		if (j != k)
			at += (size_t)snprintf(label + at, sizeof(label) - at, "%s%s=%s", at ? " " : "",
					       p->key[j], p->val[j]);
		at = at < sizeof(label) ? at : sizeof(label) - 1;
	}
	for (size_t i = 0; i < c->nsets; i++) {
		if (!strcmp(c->sets[i].label, label))
			return &c->sets[i];
	}
	if (c->nsets == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 16;
		struct sw_set *sets = realloc(c->sets, cap * sizeof(*sets));

		if (!sets)
			return NULL;
		c->sets = sets;
		c->cap = cap;
	}
	memset(&c->sets[c->nsets], 0, sizeof(c->sets[0]));
	memcpy(c->sets[c->nsets].label, label, sizeof(label));
	return &c->sets[c->nsets++];
}

static int by_x(const void *a, const void *b)
{
	const struct sw_point *p = a, *q = b;

	return (p->x > q->x) - (p->x < q->x);
}

/* Each new point's change against the old point at its x. */
static void changes(struct sw_set *set)
{
	for (size_t i = 0; i < set->side[1].n; i++) {
		struct sw_point *q = &set->side[1].p[i];

		q->change = NAN;
		for (size_t j = 0; j < set->side[0].n; j++) {
			if (set->side[0].p[j].x == q->x)
				q->change = q->y / set->side[0].p[j].y - 1;
		}
	}
}

/* Every set of key k of want, its points per side; false without memory or points. */
static bool collect(struct sw_chart *c, const struct cbench_runs *const sides[], const struct parts *want, int k)
{
	const struct cbench_series *b;
	struct parts p;
	size_t s = 0, i = 0;

	c->nsets = 0;
	while ((b = next_set(sides, c->nsides, want, &s, &i, &p))) {
		struct sw_set *set = set_of(c, &p, k);
		struct sw_line *line;
		struct sw_point pt = { .lo = b->fastest, .hi = b->slowest, .change = NAN };

		if (!set)
			return false;
		line = &set->side[s];
		if (line->n == SW_POINTS || !integer(p.val[k], &pt.x) || !b->n)
			continue;
		pt.y = cbench_series_mean(b);
		line->p[line->n++] = pt;
	}
	for (size_t j = 0; j < c->nsets; j++) {
		for (size_t t = 0; t < 2; t++)
			qsort(c->sets[j].side[t].p, c->sets[j].side[t].n, sizeof(struct sw_point), by_x);
		changes(&c->sets[j]);
	}
	return c->nsets > 0;
}

/* The range of the drawn sets' points: key values, and times (with their bars). */
static void ranges(const struct sw_chart *c, double x[2], double y[2])
{
	x[0] = y[0] = INFINITY;
	x[1] = y[1] = -INFINITY;
	for (size_t j = c->first; j < c->first + c->count; j++) {
		for (size_t t = 0; t < 2; t++) {
			const struct sw_line *line = &c->sets[j].side[t];

			for (size_t i = 0; i < line->n; i++) {
				x[0] = fmin(x[0], line->p[i].x);
				x[1] = fmax(x[1], line->p[i].x);
				y[0] = fmin(y[0], fmin(line->p[i].y, line->p[i].lo));
				y[1] = fmax(y[1], fmax(line->p[i].y, line->p[i].hi));
			}
		}
	}
}

/* A logarithmic axis over whole decades, or a linear one (from 0 if from_zero) over round steps. */
static void axis_range(struct sw_axis *a, double lo, double hi, bool log_scale, bool from_zero)
{
	a->log = log_scale && lo > 0;
	if (a->log) {
		a->lo = pow(10, floor(log10(lo)));
		a->hi = pow(10, ceil(log10(hi)));
		if (a->hi <= a->lo)
			a->hi = a->lo * 10;
		return;
	}
	if (from_zero && lo > 0)
		lo = 0;
	if (hi <= lo)
		hi = lo + fmax(fabs(lo), 1);
	double step = cbench_plot_round_step((hi - lo) / 5);

	a->lo = floor(lo / step) * step;
	a->hi = ceil(hi / step) * step;
}

static void axes_ranges(struct sw_chart *c)
{
	double x[2], y[2];
	bool y_log;

	ranges(c, x, y);
	y_log = c->y_scale == CBENCH_PLOT_LOG ||
		(c->y_scale == CBENCH_PLOT_AUTO && y[0] > 0 && y[1] / y[0] >= SW_Y_DECADES);
	axis_range(&c->y, y[0], y[1], y_log, true);
	/* The key's axis spans its values and 5 % more either side, so no
	 * point sits on the time axis. */
	c->x.log = x[0] > 0 && x[1] / x[0] > SW_X_DECADES;
	if (c->x.log) {
		double pad = pow(x[1] / x[0], 0.05);

		c->x.lo = x[0] / pad;
		c->x.hi = x[1] * pad;
	} else {
		double pad = x[1] > x[0] ? 0.05 * (x[1] - x[0]) : 1;

		c->x.lo = x[0] - pad;
		c->x.hi = x[1] + pad;
	}
}

static double pos(const struct sw_axis *a, double v, double from, double to)
{
	double t = a->log ? (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo)) :
			    (v - a->lo) / (a->hi - a->lo);

	return from + fmin(fmax(t, 0), 1) * (to - from);
}

/* A time in ns as a tick label in its own unit: "500 ns", "2 µs". */
static void time_label(char *buf, size_t len, double ns)
{
	static const char *const units[] = { "ns", "µs", "ms", "s" };
	double v = ns;
	int u = 0;

	while (u < 3 && fabs(v) >= 1000) {
		v /= 1000;
		u++;
	}
	if (ns == 0)
		snprintf(buf, len, "0");
	else
		snprintf(buf, len, "%.4g %s", v, units[u]);
}

/* A key's value as a tick label: 4096, 64k, 4M (exact multiples only). */
static void value_label(char *buf, size_t len, double v)
{
	static const char *const suffix[] = { "", "k", "M", "G", "T" };
	int u = 0;

	if (v == 0)
		v = 0;	/* not "-0" */

	while (u < 4 && v != 0 && fmod(v, 1000) == 0 && fabs(v) >= (u ? 1000 : 1e4)) {
		v /= 1000;
		u++;
	}
	snprintf(buf, len, "%.10g%s", v, suffix[u]);
}

/* The y axis's ticks: decades (with 2 and 5 where there are few), or round steps. */
static int y_ticks(const struct sw_axis *a, double *v)
{
	int n = 0;

	if (a->log) {
		bool few = a->hi / a->lo <= 100;

		for (double t = a->lo; t <= a->hi * 1.001 && n < SW_TICKS; t *= 10) {
			for (int m = 1; m <= (few ? 5 : 1) && n < SW_TICKS; m += m == 1 ? 1 : 3) {
				if (t * m <= a->hi * 1.001)
					v[n++] = t * m;
			}
		}
		return n;
	}
	double step = cbench_plot_round_step((a->hi - a->lo) / 5);

	for (double t = a->lo; t <= a->hi + step / 2 && n < SW_TICKS; t += step)
		v[n++] = t;
	return n;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The drawn sets' key values, each once, sorted; how many. */
static int key_values(const struct sw_chart *c, double *vals)
{
	int n = 0;

	for (size_t j = c->first; j < c->first + c->count; j++) {
		for (size_t t = 0; t < 2; t++) {
			const struct sw_line *line = &c->sets[j].side[t];

			for (size_t i = 0; i < line->n; i++) {
				int k = 0;

				while (k < n && vals[k] != line->p[i].x)
					k++;
				if (k == n && n < SW_POINTS)
					vals[n++] = line->p[i].x;
			}
		}
	}
	qsort(vals, (size_t)n, sizeof(vals[0]), by_value);
	return n;
}

/*
 * The x axis's ticks: the key's own values where they are few, else
 * decades or whole round steps (the values are integers), then thinned so
 * no two labels touch.
 */
static int x_ticks(const struct sw_chart *c, double *v, double right)
{
	double vals[SW_POINTS] = { 0 }, last_end = -INFINITY;
	int n = key_values(c, vals), kept = 0;

	if (n > SW_TICKS) {
		double step = fmax(1, cbench_plot_round_step((c->x.hi - c->x.lo) / 5));

		/* 1, 2 and 5 times the powers of ten on a log axis (integers:
		 * from 1 up), whole round steps on a linear one. */
		n = 0;
		if (c->x.log) {
			double d = fmax(1, pow(10, floor(log10(c->x.lo))));

			for (; d <= c->x.hi && n < SW_TICKS; d *= 10) {
				for (int m = 1; m <= 5 && n < SW_TICKS; m += m == 1 ? 1 : 3) {
					if (d * m >= c->x.lo && d * m <= c->x.hi)
						vals[n++] = d * m;
				}
			}
		} else {
			for (double t = ceil(c->x.lo / step) * step; t <= c->x.hi && n < SW_TICKS; t += step)
				vals[n++] = t;
		}
	}
	for (int i = 0; i < n; i++) {
		char label[32];
		double x = pos(&c->x, vals[i], c->left, right), w;

		value_label(label, sizeof(label), vals[i]);
		w = cbench_plot_text_width(label);
		if (x - w / 2 < last_end + 6)
			continue;
		v[kept++] = vals[i];
		last_end = x + w / 2;
	}
	return kept;
}

/* What a set is called in the legend: its other keys, or the key's base. */
static const char *set_label(const struct sw_chart *c, const struct sw_set *set)
{
	return set->label[0] ? set->label : c->base;
}

/* Whether two lines lie within SW_SAME_PX of each other at every point. */
static bool coincide(const struct sw_chart *c, const struct sw_line *a, const struct sw_line *b)
{
	if (!a->n || a->n != b->n)
		return false;
	for (size_t i = 0; i < a->n; i++) {
		if (a->p[i].x != b->p[i].x ||
		    fabs(pos(&c->y, a->p[i].y, 0, SW_PLOT_H) - pos(&c->y, b->p[i].y, 0, SW_PLOT_H)) >= SW_SAME_PX)
			return false;
	}
	return true;
}

/* The first set before j whose line on side u side t's line of set j lies on; SIZE_MAX for none. */
static size_t drawn_over(const struct sw_chart *c, size_t j, size_t t, size_t u)
{
	for (size_t i = c->first; i < j; i++) {
		if (coincide(c, &c->sets[j].side[t], &c->sets[i].side[u]))
			return i;
	}
	return SIZE_MAX;
}

/*
 * Set j's note: what its lines coincide with, so a line hidden under
 * another is said to be there: "drawn over algo=crc align=0" (a set drawn
 * before it), "old and new coincide", "new: drawn over algo=crc align=0
 * (old)"; "" if nothing.
 */
static void note_of(const struct sw_chart *c, size_t j, char *buf, size_t len)
{
	static const char *const side_word[2] = { "old", "new" };
	size_t over[2] = { SIZE_MAX, SIZE_MAX }, at = 0;
	bool pair = c->nsides > 1 && coincide(c, &c->sets[j].side[1], &c->sets[j].side[0]);

	buf[0] = '\0';
	for (size_t t = 0; t < c->nsides; t++)
		over[t] = drawn_over(c, j, t, t);
	if (c->nsides == 1 || (over[0] == over[1] && over[0] != SIZE_MAX)) {
		if (over[0] != SIZE_MAX)
			snprintf(buf, len, "drawn over %s", set_label(c, &c->sets[over[0]]));
		return;
	}
	/* The new line on another set's old one, where nothing else hides it. */
	if (over[1] == SIZE_MAX && !pair && drawn_over(c, j, 1, 0) != SIZE_MAX)
		at = (size_t)snprintf(buf, len, "new: drawn over %s (old)",
				      set_label(c, &c->sets[drawn_over(c, j, 1, 0)]));
	for (size_t t = 0; t < 2 && at < len; t++) {
		if (over[t] != SIZE_MAX)
			at += (size_t)snprintf(buf + at, len - at, "%s%s: drawn over %s", at ? "; " : "",
					       side_word[t], set_label(c, &c->sets[over[t]]));
	}
	if (pair && at < len)
		snprintf(buf + at, len - at, "%sold and new coincide", at ? "; " : "");
}

/* "old: " before a side's label in the legend, unless the label says it ("old (3 reports)"). */
static const char *side_prefix(const struct sw_chart *c, size_t t)
{
	return !strncmp(c->labels[t], t ? "new (" : "old (", 5) ? "" : t ? "new: " : "old: ";
}

/* Legend lines: a header per side when there are two, then a set and its note each. */
static int legend_lines(const struct sw_chart *c)
{
	int n = c->nsides > 1 ? (int)c->nsides : 0;

	char note[SW_NOTE];

	for (size_t j = c->first; j < c->first + c->count; j++) {
		note_of(c, j, note, sizeof(note));
		n += 1 + (note[0] != '\0');
	}
	return n;
}

/* The margins and the legend's column, from the widths of their text. */
static void layout(struct sw_chart *c)
{
	double v[SW_TICKS], w = 0;
	char label[32];
	int n = y_ticks(&c->y, v);

	for (int i = 0; i < n; i++) {
		time_label(label, sizeof(label), v[i]);
		w = fmax(w, cbench_plot_text_width(label));
	}
	c->left = ceil(fmax(SW_PAD + w + 10, SW_PAD + cbench_plot_text_width("time/op (log scale)") / 2));
	c->legend_w = 0;
	for (size_t t = 0; c->nsides > 1 && t < c->nsides; t++)
		c->legend_w = fmax(c->legend_w, SW_SWATCH + cbench_plot_text_width(side_prefix(c, t)) +
				   cbench_plot_text_width(c->labels[t]));
	for (size_t j = c->first; j < c->first + c->count; j++) {
		char note[SW_NOTE];

		note_of(c, j, note, sizeof(note));
		c->legend_w = fmax(c->legend_w, SW_SWATCH * (double)c->nsides +
				   cbench_plot_text_width(set_label(c, &c->sets[j])));
		c->legend_w = fmax(c->legend_w, SW_SWATCH + cbench_plot_text_width(note));
	}
	c->width = (int)ceil(c->left + SW_PLOT_W + SW_GAP + c->legend_w + SW_PAD);
	c->height = (int)fmax(SW_TOP + SW_PLOT_H + SW_BOTTOM, SW_TOP + legend_lines(c) * SW_ENTRY + SW_PAD);
}

static void axes(FILE *f, const struct sw_chart *c)
{
	double v[SW_TICKS], right = c->left + SW_PLOT_W, bottom = SW_TOP + SW_PLOT_H;
	char label[32];
	int n = x_ticks(c, v, right);

	fprintf(f, "<g class=\"axis\"><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
		"<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.1f\"/>", c->left, bottom, right, bottom, c->left,
		SW_TOP, c->left, bottom);
	for (int i = 0; i < n; i++) {
		double x = pos(&c->x, v[i], c->left, right);

		value_label(label, sizeof(label), v[i]);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>", x, bottom, x, bottom + 4);
		fprintf(f, "<text class=\"xtick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>", x,
			bottom + 16, label);
	}
	n = y_ticks(&c->y, v);
	for (int i = 0; i < n; i++) {
		double y = pos(&c->y, v[i], bottom, SW_TOP);

		time_label(label, sizeof(label), v[i]);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>", c->left - 4, y, c->left, y);
		fprintf(f, "<text class=\"ytick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>", c->left - 6,
			y + 4, label);
	}
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", c->left + SW_PLOT_W / 2, bottom + 36);
	cbench_plot_html(f, c->key);
	fprintf(f, "%s</text><text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">time/op%s</text></g>",
		c->x.log ? " (log scale)" : "", c->left, SW_TOP - 14, c->y.log ? " (log scale)" : "");
}

/* The tooltip of a point: the set, the side, its figures, and on the new side its change. */
static void point_title(FILE *f, const struct sw_chart *c, const struct sw_set *set, size_t t,
			const struct sw_point *p)
{
	fputs("<title>", f);
	cbench_plot_html(f, set_label(c, set));
	fputs(", ", f);
	cbench_plot_html(f, c->labels[t]);
	fputs(": ", f);
	cbench_plot_html(f, c->key);
	fprintf(f, "=%.10g: %.6g ns/op (trials %.6g to %.6g)", p->x, p->y, p->lo, p->hi);
	if (isfinite(p->change)) {
		fprintf(f, "; %+.2f %% against ", 100 * p->change);
		cbench_plot_html(f, c->labels[0]);
	}
	fputs("</title>", f);
}

/* A set's line on side t: dashed and pale on the old side of two. */
static void line(FILE *f, const struct sw_chart *c, const struct sw_set *set, size_t t, const char *hue)
{
	const struct sw_line *l = &set->side[t];
	double right = c->left + SW_PLOT_W, bottom = SW_TOP + SW_PLOT_H;
	bool old = c->nsides > 1 && t == 0;

	if (!l->n)
		return;
	fprintf(f, "<g class=\"line %s\" stroke=\"%s\" fill=\"%s\"%s><polyline fill=\"none\" stroke-width=\"2\"%s "
		"points=\"", old ? "old" : "new", hue, old ? "#fff" : hue, old ? " stroke-opacity=\"0.7\"" : "",
		old ? " stroke-dasharray=\"6 3\"" : "");
	for (size_t i = 0; i < l->n; i++)
		fprintf(f, "%s%.1f,%.1f", i ? " " : "", pos(&c->x, l->p[i].x, c->left, right),
			pos(&c->y, l->p[i].y, bottom, SW_TOP));
	fputs("\"/>", f);
	for (size_t i = 0; i < l->n; i++) {
		const struct sw_point *p = &l->p[i];
		double x = pos(&c->x, p->x, c->left, right);

		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/><circle cx=\"%.1f\" cy=\"%.1f\" "
			"r=\"3\" stroke-width=\"1.5\">", x, pos(&c->y, p->lo, bottom, SW_TOP), x,
			pos(&c->y, p->hi, bottom, SW_TOP), x, pos(&c->y, p->y, bottom, SW_TOP));
		point_title(f, c, set, t, p);
		fputs("</circle>", f);
	}
	fputs("</g>", f);
}

/* A legend swatch for side t of two (old dashed and pale), or the only one. */
static void swatch(FILE *f, const struct sw_chart *c, size_t t, const char *hue, double x, double y)
{
	bool old = c->nsides > 1 && t == 0;

	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\"%s/>", x,
		y, x + 16, y, hue, old ? " stroke-opacity=\"0.7\" stroke-dasharray=\"6 3\"" : "");
}

static void legend(FILE *f, const struct sw_chart *c)
{
	double x = c->left + SW_PLOT_W + SW_GAP, y = SW_TOP + 6;

	fputs("<g class=\"legend\">", f);
	for (size_t t = 0; c->nsides > 1 && t < c->nsides; t++, y += SW_ENTRY) {
		swatch(f, c, t, "#555", x, y);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">%s", x + SW_SWATCH, y + 4, side_prefix(c, t));
		cbench_plot_html(f, c->labels[t]);
		fputs("</text>", f);
	}
	for (size_t j = c->first; j < c->first + c->count; j++, y += SW_ENTRY) {
		const char *hue = palette[j - c->first];
		char note[SW_NOTE];

		for (size_t t = 0; t < c->nsides; t++)
			swatch(f, c, t, hue, x + SW_SWATCH * (double)t, y);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">", x + SW_SWATCH * (double)c->nsides, y + 4);
		cbench_plot_html(f, set_label(c, &c->sets[j]));
		fputs("</text>", f);
		note_of(c, j, note, sizeof(note));
		if (!note[0])
			continue;
		y += SW_ENTRY;
		fprintf(f, "<text class=\"coincide\" x=\"%.1f\" y=\"%.1f\">", x + SW_SWATCH, y + 4);
		cbench_plot_html(f, note);
		fputs("</text>", f);
	}
	fputs("</g>", f);
}

static void chart(FILE *f, struct sw_chart *c, size_t charts)
{
	axes_ranges(c);
	layout(c);
	fputs("<section class=\"sweep\"><h2>", f);
	cbench_plot_html(f, c->base);
	fputs(": ns/op by ", f);
	cbench_plot_html(f, c->key);
	if (charts > 1)
		fprintf(f, " (sets %zu to %zu of %zu)", c->first + 1, c->first + c->count, c->nsets);
	fprintf(f, "</h2>\n<svg class=\"sweep\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" role=\"img\"><title>", c->width, c->height, c->width, c->height);
	cbench_plot_html(f, c->base);
	fputs(": each set's estimate (the geometric mean of its runs' medians of trials) against ", f);
	cbench_plot_html(f, c->key);
	fputs(", a bar from its fastest to its slowest trial, a line per value of the other keys</title>", f);
	axes(f, c);
	for (size_t t = 0; t < c->nsides; t++) {
		for (size_t j = c->first; j < c->first + c->count; j++)
			line(f, c, &c->sets[j], t, palette[j - c->first]);
	}
	legend(f, c);
	fputs("</svg></section>\n", f);
}

/* The sets no chart of the key draws, by name, and why. */
static void not_drawn(FILE *f, const struct sw_chart *c, size_t from)
{
	fprintf(f, "<p class=\"note\">Not in the charts of ");
	cbench_plot_html(f, c->base);
	fputs(" by ", f);
	cbench_plot_html(f, c->key);
	fprintf(f, ", which draw %d sets at most (each has its own plot below): %zu sets, ", SW_SETS * SW_CHARTS,
		c->nsets - from);
	for (size_t j = from; j < c->nsets; j++) {
		fputs(j > from ? ", " : "", f);
		cbench_plot_html(f, set_label(c, &c->sets[j]));
	}
	fputs(".</p>\n", f);
}

/* Key k's charts: its sets ten to a chart, three charts at most. */
static void key_charts(FILE *f, struct sw_chart *c)
{
	size_t charts = (c->nsets + SW_SETS - 1) / SW_SETS;

	charts = charts > SW_CHARTS ? SW_CHARTS : charts;
	for (size_t i = 0; i < charts; i++) {
		c->first = i * SW_SETS;
		c->count = c->nsets - c->first < SW_SETS ? c->nsets - c->first : SW_SETS;
		chart(f, c, charts);
	}
	if (c->nsets > SW_SETS * SW_CHARTS)
		not_drawn(f, c, SW_SETS * SW_CHARTS);
}

/* Whether a series before (s, i) has want's base and keys: its sweeps are drawn. */
static bool drawn_before(const struct cbench_runs *const sides[], size_t s, size_t i, const struct parts *want)
{
	struct parts p;

	for (size_t t = 0; t <= s; t++) {
		for (size_t j = 0; j < (t == s ? i : sides[t]->n); j++) {
			if (split_name(sides[t]->s[j].name, &p) && same_keys(&p, want))
				return true;
		}
	}
	return false;
}

void cbench_plot_sweeps(FILE *f, const struct cbench_runs *const sides[], const char *const labels[],
			size_t nsides, enum cbench_plot_scale y_scale)
{
	struct sw_chart c = { .labels = labels, .nsides = nsides, .y_scale = y_scale };
	struct parts want;

	for (size_t s = 0; s < nsides; s++) {
		for (size_t i = 0; i < sides[s]->n; i++) {
			if (!split_name(sides[s]->s[i].name, &want) || !want.n || drawn_before(sides, s, i, &want))
				continue;
			c.base = want.base;
			for (int k = 0; k < want.n; k++) {
				c.key = want.key[k];
				if (swept(sides, nsides, &want, k) && collect(&c, sides, &want, k))
					key_charts(f, &c);
			}
		}
	}
	free(c.sets);
}
