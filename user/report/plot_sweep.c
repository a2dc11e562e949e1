// SPDX-License-Identifier: GPL-2.0
/*
 * The sweep view of `cbenchctl plot`.  Parameters come from the names, so
 * Go text and JSON draw alike: "BenchmarkHash/algo=fnv1a/len=64" is base
 * BenchmarkHash with keys algo and len.  A key is swept when every set of
 * its base gives it an integer and it takes two values or more; its chart
 * has a line per value of the other keys (and per report), a point at each
 * set's estimate (its least trial, the figure a report leads with) and a
 * bar from its fastest to its slowest trial.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/plot_svg.h"
#include "report/plot_sweep.h"

#define SW_WIDTH 760
#define SW_HEIGHT 300
#define SW_LEFT 70
#define SW_RIGHT 200
#define SW_TOP 30
#define SW_BOTTOM 46
#define SW_KEYS 8
#define SW_TEXT 64
#define SW_LINES 12		/* lines a chart draws; it counts the rest */
#define SW_POINTS 64
#define SW_DECADES 100.0	/* a value range this wide or wider gets a log axis */

static const char *const palette[SW_LINES] = {
	"#1f6fb4", "#d9661f", "#2a9d3a", "#b3312c", "#7b52ab", "#8c564b",
	"#d4589f", "#6b6b6b", "#a8a020", "#17a2b8", "#1c3f95", "#9c6b00",
};

/* A name split into its base and key=value parts. */
struct parts {
	char base[256];
	int n;
	char key[SW_KEYS][SW_TEXT];
	char val[SW_KEYS][SW_TEXT];
};

struct sw_point {
	double x, y, lo, hi;	/* the key's value; ns/op: estimate, trials' least and most */
};

struct sw_line {
	size_t input;
	char label[SW_KEYS * (2 * SW_TEXT + 2)];
	size_t n;
	struct sw_point p[SW_POINTS];
};

struct sw_axis {
	double lo, hi;
	bool log;
};

struct sw_chart {
	const char *key;
	size_t nlines, more;
	struct sw_line lines[SW_LINES];
	struct sw_axis x, y;
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
 * The next benchmark, from report *s's *i-th on, whose name has want's base
 * and keys, with its parts in p; NULL after the last.  *s is its report.
 */
static const struct cbench_json *next_set(const struct cbench_json *const benchmarks[], size_t nin,
					  const struct parts *want, size_t *s, size_t *i, struct parts *p)
{
	for (; *s < nin; (*s)++, *i = 0) {
		while (benchmarks[*s] && *i < benchmarks[*s]->n) {
			const struct cbench_json *b = &benchmarks[*s]->items[(*i)++];

			if (split_name(cbench_json_string(b, "name", ""), p) && same_keys(p, want))
				return b;
		}
	}
	return NULL;
}

/* Whether key k of base takes integers only, two values or more. */
static bool swept(const struct cbench_json *const benchmarks[], size_t nin, const struct parts *want, int k)
{
	struct parts p;
	double first = NAN, v;
	bool two = false;
	size_t s = 0, i = 0;

	while (next_set(benchmarks, nin, want, &s, &i, &p)) {
		if (!integer(p.val[k], &v))
			return false;
		if (isnan(first))
			first = v;
		two |= v != first;
	}
	return two;
}

/* A set's estimate and its trials' range, in ns/op; false without one. */
static bool estimate(const struct cbench_json *b, struct sw_point *pt)
{
	const struct cbench_json *trials = cbench_json_get(b, "trials");

	pt->lo = INFINITY;
	pt->hi = -INFINITY;
	for (size_t i = 0; trials && trials->type == CBENCH_JSON_ARRAY && i < trials->n; i++) {
		double v = cbench_json_number(&trials->items[i], "ns_per_op", NAN);

		if (isfinite(v) && v > 0 && !strcmp(cbench_json_string(&trials->items[i], "status", "ok"), "ok")) {
			pt->lo = fmin(pt->lo, v);
			pt->hi = fmax(pt->hi, v);
		}
	}
	pt->y = cbench_json_number(b, "ns_per_op", NAN);
	if (!isfinite(pt->y) || pt->y <= 0)
		pt->y = pt->lo;
	if (!isfinite(pt->lo)) {
		pt->lo = pt->hi = pt->y;
	}
	return isfinite(pt->y) && pt->y > 0;
}

/* The line of report s whose other keys are p's (key k aside); NULL once full. */
static struct sw_line *line_of(struct sw_chart *c, size_t s, size_t nin, const char *const labels[],
			       const struct parts *p, int k)
{
	char label[sizeof(c->lines[0].label)] = "";
	size_t at = 0;

	for (int j = 0; j < p->n; j++) {
		if (j != k)
			at += (size_t)snprintf(label + at, sizeof(label) - at, "%s%s=%s", at ? " " : "",
					       p->key[j], p->val[j]);
		at = at < sizeof(label) ? at : sizeof(label) - 1;
	}
	if (nin > 1)
		snprintf(label + at, sizeof(label) - at, "%s%s", at ? " " : "", labels[s]);
	for (size_t l = 0; l < c->nlines; l++) {
		if (c->lines[l].input == s && !strcmp(c->lines[l].label, label))
			return &c->lines[l];
	}
	if (c->nlines == SW_LINES)
		return NULL;
	c->lines[c->nlines].input = s;
	memcpy(c->lines[c->nlines].label, label, sizeof(label));
	return &c->lines[c->nlines++];
}

static int by_x(const void *a, const void *b)
{
	const struct sw_point *p = a, *q = b;

	return (p->x > q->x) - (p->x < q->x);
}

/* An axis over [lo, hi]: logarithmic over two decades or more, else linear (from 0 if from_zero). */
static void axis_range(struct sw_axis *a, double lo, double hi, bool from_zero)
{
	a->log = lo > 0 && hi / lo >= SW_DECADES;
	if (a->log) {
		a->lo = pow(10, floor(log10(lo)));
		a->hi = pow(10, ceil(log10(hi)));
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

static double pos(const struct sw_axis *a, double v, double from, double to)
{
	double t = a->log ? (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo)) :
			    (v - a->lo) / (a->hi - a->lo);

	return from + fmin(fmax(t, 0), 1) * (to - from);
}

/* Fills c with key k's chart of base; false if it has no point. */
static bool fill(struct sw_chart *c, const struct cbench_json *const benchmarks[], const char *const labels[],
		 size_t nin, const struct parts *want, int k)
{
	const struct cbench_json *b;
	struct parts p;
	double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
	size_t s = 0, i = 0;

	memset(c, 0, sizeof(*c));
	c->key = want->key[k];
	while ((b = next_set(benchmarks, nin, want, &s, &i, &p))) {
		struct sw_line *line = line_of(c, s, nin, labels, &p, k);
		struct sw_point pt;

		if (!line) {
			c->more++;
			continue;
		}
		if (line->n == SW_POINTS || !estimate(b, &pt) || !integer(p.val[k], &pt.x))
			continue;
		line->p[line->n++] = pt;
		xlo = fmin(xlo, pt.x);
		xhi = fmax(xhi, pt.x);
		ylo = fmin(ylo, pt.lo);
		yhi = fmax(yhi, pt.hi);
	}
	for (size_t l = 0; l < c->nlines; l++)
		qsort(c->lines[l].p, c->lines[l].n, sizeof(c->lines[l].p[0]), by_x);
	if (!isfinite(xlo))
		return false;
	axis_range(&c->x, xlo, xhi, false);
	axis_range(&c->y, ylo, yhi, true);
	return true;
}

/* The ticks of an axis: powers of ten, or round steps. */
static void ticks(const struct sw_axis *a, double *v, int *n)
{
	*n = 0;
	if (a->log) {
		for (double t = a->lo; t <= a->hi * 1.001 && *n < 12; t *= 10)
			v[(*n)++] = t;
		return;
	}
	double step = cbench_plot_round_step((a->hi - a->lo) / 5);

	for (double t = a->lo; t <= a->hi + step / 2 && *n < 12; t += step)
		v[(*n)++] = t;
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

	while (u < 4 && v != 0 && fmod(v, 1000) == 0 && fabs(v) >= (u ? 1000 : 1e4)) {
		v /= 1000;
		u++;
	}
	snprintf(buf, len, "%.10g%s", v, suffix[u]);
}

static void axes(FILE *f, const struct sw_chart *c)
{
	int bottom = SW_HEIGHT - SW_BOTTOM, right = SW_WIDTH - SW_RIGHT, n;
	double v[12];
	char label[32];

	fprintf(f, "<g class=\"axis\"><line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>"
		"<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>", SW_LEFT, bottom, right, bottom,
		SW_LEFT, SW_TOP, SW_LEFT, bottom);
	ticks(&c->x, v, &n);
	for (int i = 0; i < n; i++) {
		double x = pos(&c->x, v[i], SW_LEFT, right);

		value_label(label, sizeof(label), v[i]);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/><text x=\"%.1f\" y=\"%d\" "
			"text-anchor=\"middle\">%s</text>", x, bottom, x, bottom + 4, x, bottom + 16, label);
	}
	ticks(&c->y, v, &n);
	for (int i = 0; i < n; i++) {
		double y = pos(&c->y, v[i], bottom, SW_TOP);

		time_label(label, sizeof(label), v[i]);
		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/><text x=\"%d\" y=\"%.1f\" "
			"text-anchor=\"end\">%s</text>", SW_LEFT - 4, y, SW_LEFT, y, SW_LEFT - 6, y + 4, label);
	}
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">", (SW_LEFT + right) / 2, bottom + 34);
	cbench_plot_html(f, c->key);
	fprintf(f, "%s</text><text x=\"%d\" y=\"%d\">time/op%s</text></g>", c->x.log ? " (log scale)" : "",
		SW_LEFT - 40, SW_TOP - 12, c->y.log ? " (log scale)" : "");
}

static void lines(FILE *f, const struct sw_chart *c)
{
	int bottom = SW_HEIGHT - SW_BOTTOM, right = SW_WIDTH - SW_RIGHT;

	for (size_t l = 0; l < c->nlines; l++) {
		const struct sw_line *line = &c->lines[l];

		fprintf(f, "<g class=\"line\" stroke=\"%s\" fill=\"%s\"><polyline fill=\"none\" "
			"stroke-width=\"2\"%s points=\"", palette[l], palette[l],
			line->input ? " stroke-dasharray=\"6 3\"" : "");
		for (size_t i = 0; i < line->n; i++)
			fprintf(f, "%s%.1f,%.1f", i ? " " : "", pos(&c->x, line->p[i].x, SW_LEFT, right),
				pos(&c->y, line->p[i].y, bottom, SW_TOP));
		fputs("\"/>", f);
		for (size_t i = 0; i < line->n; i++) {
			const struct sw_point *p = &line->p[i];
			double x = pos(&c->x, p->x, SW_LEFT, right);

			fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
				"<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\"><title>", x, pos(&c->y, p->lo, bottom, SW_TOP),
				x, pos(&c->y, p->hi, bottom, SW_TOP), x, pos(&c->y, p->y, bottom, SW_TOP));
			cbench_plot_html(f, line->label);
			fprintf(f, " %s=%.10g: %.6g ns/op (trials %.6g to %.6g)</title></circle>", c->key, p->x,
				p->y, p->lo, p->hi);
		}
		fputs("</g>", f);
	}
}

static void legend(FILE *f, const struct sw_chart *c)
{
	int x = SW_WIDTH - SW_RIGHT + 16;

	for (size_t l = 0; l < c->nlines; l++) {
		int y = SW_TOP + 8 + (int)l * 18;

		fprintf(f, "<g class=\"legend\"><line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" "
			"stroke-width=\"2\"%s/><text x=\"%d\" y=\"%d\">", x, y, x + 18, y, palette[l],
			c->lines[l].input ? " stroke-dasharray=\"6 3\"" : "", x + 24, y + 4);
		cbench_plot_html(f, c->lines[l].label[0] ? c->lines[l].label : c->key);
		fputs("</text></g>", f);
	}
	if (c->more)
		fprintf(f, "<text class=\"more\" x=\"%d\" y=\"%d\">and %zu sets on lines not drawn</text>", x,
			SW_TOP + 8 + (int)c->nlines * 18 + 4, c->more);
}

static void chart(FILE *f, const struct sw_chart *c, const char *base)
{
	fputs("<section class=\"sweep\"><h2>", f);
	cbench_plot_html(f, base);
	fputs(": ns/op by ", f);
	cbench_plot_html(f, c->key);
	fprintf(f, "</h2>\n<svg class=\"sweep\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" role=\"img\"><title>", SW_WIDTH, SW_HEIGHT, SW_WIDTH, SW_HEIGHT);
	cbench_plot_html(f, base);
	fputs(": each set's estimate (its least trial) against ", f);
	cbench_plot_html(f, c->key);
	fputs(", a bar from its fastest to its slowest trial, a line per value of the other keys</title>", f);
	axes(f, c);
	lines(f, c);
	legend(f, c);
	fputs("</svg></section>\n", f);
}

/* Whether a benchmark before (s, i) has want's base and keys: its sweeps are drawn. */
static bool drawn_before(const struct cbench_json *const benchmarks[], size_t s, size_t i,
			 const struct parts *want)
{
	struct parts p;

	for (size_t t = 0; t <= s; t++) {
		for (size_t j = 0; benchmarks[t] && j < (t == s ? i : benchmarks[t]->n); j++) {
			if (split_name(cbench_json_string(&benchmarks[t]->items[j], "name", ""), &p) &&
			    same_keys(&p, want))
				return true;
		}
	}
	return false;
}

void cbench_plot_sweeps(FILE *f, const struct cbench_json *const benchmarks[], const char *const labels[],
			size_t nin)
{
	struct sw_chart *c = malloc(sizeof(*c));
	struct parts want;

	if (!c)
		return;
	for (size_t s = 0; s < nin; s++) {
		for (size_t i = 0; benchmarks[s] && i < benchmarks[s]->n; i++) {
			if (!split_name(cbench_json_string(&benchmarks[s]->items[i], "name", ""), &want) ||
			    !want.n || drawn_before(benchmarks, s, i, &want))
				continue;
			for (int k = 0; k < want.n; k++) {
				if (swept(benchmarks, nin, &want, k) && fill(c, benchmarks, labels, nin, &want, k))
					chart(f, c, want.base);
			}
		}
	}
	free(c);
}
