// SPDX-License-Identifier: GPL-2.0
/*
 * `cbenchctl plot report.json [new.json] -o report.html`: a JSON report as
 * one self-contained HTML page, an inline SVG plot per benchmark, with no
 * script and nothing fetched.  Per trial we draw the range of its
 * measurements (minimum to maximum, a tick at the median) and its estimate
 * (the floor mean, a dot): the report keeps no raw measurements, and these
 * are what says how a trial's measurements spread and where it settled.
 * Given two reports, each benchmark's plot holds both, one above the other
 * on a shared axis, so a shift between them shows as one.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report/go_read.h"
#include "report/json.h"
#include "report/readfile.h"
#include "report/outfile.h"
#include "report/plot_audit.h"
#include "report/plot_svg.h"
#include "report/plot_sweep.h"
#include "cmd/subcommands.h"

/* Largest report we read, in bytes: far above what a run writes. */
#define PLOT_MAX_BYTES (64u << 20)

/* The SVG's geometry, in CSS pixels. */
#define SVG_WIDTH 760
#define MARGIN_LEFT 150
#define MARGIN_RIGHT 30
#define ROW_HEIGHT 16
#define AXIS_HEIGHT 34
#define HEADER_HEIGHT 8
#define AXIS_TICKS 6

static const char *const series_colour[2] = { "#1f6fb4", "#d9661f" };

struct input {
	const char *path;
	const char *label;		/* the file's base name */
	struct cbench_json *root;
	const struct cbench_json *benchmarks;
};

/* Reads and checks one report; the message on failure goes to stderr. */
static int load(struct input *in, const char *path)
{
	char *text = NULL, err[160];
	const struct cbench_json *config;
	size_t len = 0;
	bool is_json;
	int ret;

	memset(in, 0, sizeof(*in));
	in->path = path;
	in->label = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	ret = cbench_read_file(path, PLOT_MAX_BYTES, &text, &len);
	if (ret) {
		cbench_err("unable to read %s: %s\n", path,
			ret == -EFBIG ? "not a regular file of a report's size" : strerror(-ret));
		return ret;
	}
	/* JSON, or a run's Go text, by what the file holds. */
	is_json = text[strspn(text, " \t\r\n")] == '{';
	if (is_json)
		ret = cbench_json_parse(text, len, &in->root, err, sizeof(err));
	else
		ret = cbench_go_read(text, len, &in->root, err, sizeof(err));
	free(text);
	if (ret) {
		cbench_err("unable to read %s: %s%s\n", path, is_json ? "not JSON: " : "", err);
		return ret;
	}
	config = cbench_json_get(in->root, "config");
	if (cbench_plot_is_audit(in->root)) {
		ret = cbench_plot_audit_check(in->root, err, sizeof(err));
		if (ret) {
			cbench_err("unable to read %s: not a cbench audit: %s\n",
				path, err);
			cbench_json_free(in->root);
			in->root = NULL;
		}
		return ret;
	}
	in->benchmarks = cbench_json_get(in->root, "benchmarks");
	if (!config || config->type != CBENCH_JSON_OBJECT || !in->benchmarks ||
	    in->benchmarks->type != CBENCH_JSON_ARRAY) {
		cbench_err("unable to read %s: not a cbench report (no \"config\" "
			"and \"benchmarks\"; write one with `%s run --format json`)\n", path, cbench_prog);
		cbench_json_free(in->root);
		in->root = NULL;
		return -EINVAL;
	}
	for (size_t i = 0; i < in->benchmarks->n; i++) {
		const struct cbench_json *b = &in->benchmarks->items[i];
		const struct cbench_json *trials = cbench_json_get(b, "trials");

		if (!cbench_json_string(b, "name", NULL) || !trials || trials->type != CBENCH_JSON_ARRAY) {
			cbench_err("unable to read %s: not a cbench report (benchmark %zu "
				"has no name or trials)\n", path, i + 1);
			cbench_json_free(in->root);
			in->root = NULL;
			return -EINVAL;
		}
	}
	return 0;
}

static const struct cbench_json *find_benchmark(const struct input *in, const char *name)
{
	for (size_t i = 0; i < in->benchmarks->n; i++) {
		const struct cbench_json *b = &in->benchmarks->items[i];

		if (!strcmp(cbench_json_string(b, "name", ""), name))
			return b;
	}
	return NULL;
}

static bool trial_ok(const struct cbench_json *t)
{
	return !strcmp(cbench_json_string(t, "status", ""), "ok") &&
	       isfinite(cbench_json_number(t, "ns_per_op", NAN));
}

/*
 * The axis: what it spans and its ticks.  It spans the trials' estimates,
 * medians and minima, and their slowest measurements unless they are
 * outliers: one outlier would squeeze every trial of a steady benchmark
 * into a dot.  A range that runs
 * past the axis is drawn to its edge and marked.  Ticks fall on round
 * values (1, 2 or 5 times a power of ten) in ns, µs, ms or s.
 */
struct axis {
	double lo, hi;		/* ns/op at the edges: multiples of step */
	double step;		/* between ticks, ns/op */
	double scale;		/* ns per unit of the labels */
	const char *unit;	/* "ns/op", "µs/op", ... */
};

/*
 * The slowest measurement that is no outlier: within two spreads of the
 * estimates' range (a spread at least 0.1 % of them) above its top.
 */
static double slowest_in_view(const struct cbench_json *const b[2], double lo, double hi)
{
	double spread = fmax(hi - lo, hi * 1e-3), top = hi;

	for (int s = 0; s < 2; s++) {
		const struct cbench_json *trials = b[s] ? cbench_json_get(b[s], "trials") : NULL;

		for (size_t i = 0; trials && i < trials->n; i++) {
			double v = cbench_json_number(&trials->items[i], "max_ns_per_op", NAN);

			if (isfinite(v) && v <= hi + 2 * spread)
				top = fmax(top, v);
		}
	}
	return top;
}

static void extent(const struct cbench_json *const b[2], struct axis *a)
{
	static const char *const keys[] = { "min_ns_per_op", "median_ns_per_op", "ns_per_op" };
	static const char *const units[] = { "ns/op", "µs/op", "ms/op", "s/op" };
	double lo = INFINITY, hi = -INFINITY, pad;
	int u = 0;

	for (int s = 0; s < 2; s++) {
		const struct cbench_json *trials = b[s] ? cbench_json_get(b[s], "trials") : NULL;

		for (size_t i = 0; trials && i < trials->n; i++) {
			for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
				double v = cbench_json_number(&trials->items[i], keys[k], NAN);

				if (isfinite(v)) {
					lo = fmin(lo, v);
					hi = fmax(hi, v);
				}
			}
		}
	}
	if (!isfinite(lo)) {
		lo = 0;
		hi = 1;
	}
	hi = fmax(hi, slowest_in_view(b, lo, hi));
	/* Some room either side, and a range even when every value is one. */
	pad = hi > lo ? (hi - lo) * 0.08 : fmax(fabs(lo) * 0.01, 1e-3);
	lo = fmax(0, lo - pad);
	hi += pad;
	a->step = cbench_plot_round_step((hi - lo) / AXIS_TICKS);
	a->lo = floor(lo / a->step) * a->step;
	a->hi = ceil(hi / a->step) * a->step;
	for (a->scale = 1; u < 3 && a->hi >= 1000 * a->scale; u++)
		a->scale *= 1000;
	a->unit = units[u];
}

static double x_of(double v, double lo, double hi)
{
	return MARGIN_LEFT + (v - lo) / (hi - lo) * (SVG_WIDTH - MARGIN_LEFT - MARGIN_RIGHT);
}

/* v on the axis, held to its edges. */
static double x_in(double v, const struct axis *a)
{
	return x_of(fmin(fmax(v, a->lo), a->hi), a->lo, a->hi);
}

static void axis(FILE *f, const struct axis *a, int y)
{
	/* Decimals enough to tell the ticks apart, in the labels' unit. */
	int decimals = (int)fmax(0, -floor(log10(a->step / a->scale) + 1e-9));

	fprintf(f, "<g class=\"axis\"><line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>",
		MARGIN_LEFT, y, SVG_WIDTH - MARGIN_RIGHT, y);
	for (double v = a->lo; v <= a->hi + a->step / 2; v += a->step) {
		double x = x_of(v, a->lo, a->hi);

		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>"
			"<text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%.*f</text>",
			x, y, x, y + 4, x, y + 16, decimals, v / a->scale);
	}
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text></g>",
		SVG_WIDTH - MARGIN_RIGHT, y + 30, a->unit);
}

/* A failure's reason, cut to what fits beside the labels (whole in its title). */
static void failure(FILE *f, const char *reason, int y)
{
	size_t fit = (SVG_WIDTH - MARGIN_LEFT) / 6, n = strlen(reason);

	fprintf(f, "<text class=\"failed\" x=\"%d\" y=\"%d\" stroke=\"none\"><title>",
		MARGIN_LEFT, y + 4);
	cbench_plot_html(f, reason);
	fputs("</title>failed: ", f);
	if (n <= fit) {
		cbench_plot_html(f, reason);
	} else {
		/* Cut before a UTF-8 continuation byte never splits a character. */
		while (fit && (reason[fit] & 0xc0) == 0x80)
			fit--;
		fprintf(f, "%.*s…", (int)fit, reason);
	}
	fputs("</text>", f);
}

/* One report's trials of one benchmark, from row `row` on. */
static void series(FILE *f, const struct cbench_json *b, int s, const char *label, int *row,
		   const struct axis *a)
{
	const struct cbench_json *trials = cbench_json_get(b, "trials");

	fprintf(f, "<g class=\"series\" fill=\"%s\" stroke=\"%s\">", series_colour[s],
		series_colour[s]);
	for (size_t i = 0; i < trials->n; i++, (*row)++) {
		const struct cbench_json *t = &trials->items[i];
		int y = HEADER_HEIGHT + *row * ROW_HEIGHT + ROW_HEIGHT / 2;

		fprintf(f, "<text class=\"label\" x=\"%d\" y=\"%d\" text-anchor=\"end\" stroke=\"none\">",
			MARGIN_LEFT - 8, y + 4);
		cbench_plot_html(f, label);
		fprintf(f, " trial %zu</text>", i + 1);
		if (!trial_ok(t)) {
			failure(f, cbench_json_string(t, "reason", "no estimate"), y);
			continue;
		}
		double est = cbench_json_number(t, "ns_per_op", NAN);
		double min = cbench_json_number(t, "min_ns_per_op", est);
		double med = cbench_json_number(t, "median_ns_per_op", est);
		double max = cbench_json_number(t, "max_ns_per_op", est);

		fprintf(f, "<line class=\"range\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>",
			x_in(min, a), y, x_in(max, a), y);
		/* Measurements beyond the axis: to its edge, and marked. */
		if (max > a->hi)
			fprintf(f, "<path class=\"clipped\" d=\"M%.1f %dl6 4l-6 4z\"><title>measurements "
				"up to %.6g ns/op, beyond the axis</title></path>", x_in(max, a), y - 4, max);
		fprintf(f, "<line class=\"median\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>",
			x_in(med, a), y - 5, x_in(med, a), y + 5);
		fprintf(f, "<circle class=\"estimate\" cx=\"%.1f\" cy=\"%d\" r=\"4\">"
			"<title>trial %zu: %.6g ns/op (measurements %.6g to %.6g, median %.6g)</title>"
			"</circle>", x_in(est, a), y, i + 1, est, min, max, med);
	}
	fputs("</g>", f);
}

static void summary(FILE *f, const struct cbench_json *b, const char *label)
{
	double ns = cbench_json_number(b, "ns_per_op", NAN), cv = cbench_json_number(b, "cv_of_trials", NAN);
	const struct cbench_json *unstable = cbench_json_get(b, "unstable");
	const struct cbench_json *trials = cbench_json_get(b, "trials");

	/* Go text has no headline: the least trial is it. */
	for (size_t i = 0; !cbench_json_get(b, "ns_per_op") && trials && i < trials->n; i++) {
		if (trial_ok(&trials->items[i]))
			ns = fmin(isfinite(ns) ? ns : INFINITY, cbench_json_number(&trials->items[i], "ns_per_op", NAN));
	}

	fputs("<li>", f);
	cbench_plot_html(f, label);
	if (isfinite(ns))
		fprintf(f, ": %.6g ns/op (least trial)", ns);
	else
		fputs(": no estimate", f);
	if (isfinite(cv))
		fprintf(f, ", trials' cv %.3g%%", 100 * cv);
	if (unstable && unstable->type == CBENCH_JSON_BOOL && unstable->boolean) {
		fputs(", <strong>unstable</strong>: ", f);
		cbench_plot_html(f, cbench_json_string(b, "unstable_reason", ""));
	}
	fputs("</li>", f);
}

static void plot_benchmark(FILE *f, const char *name, const struct input *in, size_t nin)
{
	const struct cbench_json *b[2] = { NULL, NULL };
	int rows = 0, row = 0, height;
	struct axis a;

	for (size_t s = 0; s < nin; s++) {
		b[s] = find_benchmark(&in[s], name);
		if (b[s])
			rows += (int)cbench_json_get(b[s], "trials")->n;
	}
	if (!rows)
		rows = 1;
	extent(b, &a);
	height = HEADER_HEIGHT + rows * ROW_HEIGHT + AXIS_HEIGHT + 8;

	fputs("<section class=\"benchmark\"><h2>", f);
	cbench_plot_html(f, name);
	fputs("</h2><ul>", f);
	for (size_t s = 0; s < nin; s++) {
		if (b[s]) {
			summary(f, b[s], in[s].label);
		} else {
			fputs("<li>", f);
			cbench_plot_html(f, in[s].label);
			fputs(": not in this report</li>", f);
		}
	}
	fprintf(f, "</ul>\n<svg class=\"plot\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\"><title>", SVG_WIDTH, height,
		SVG_WIDTH, height);
	cbench_plot_html(f, name);
	fputs(": each trial's measurements, minimum to maximum with the median marked, and its "
	      "estimate</title>", f);
	for (size_t s = 0; s < nin; s++) {
		if (b[s])
			series(f, b[s], (int)s, in[s].label, &row, &a);
	}
	axis(f, &a, HEADER_HEIGHT + rows * ROW_HEIGHT + 4);
	fputs("</svg></section>\n", f);
}

static void config_line(FILE *f, const struct input *in)
{
	const struct cbench_json *c = cbench_json_get(in->root, "config");

	fputs("<p class=\"config\"><strong>", f);
	cbench_plot_html(f, in->label);
	fputs("</strong>: ", f);
	cbench_plot_html(f, cbench_json_string(c, "cpu", "unknown CPU"));
	fputs(", kernel ", f);
	cbench_plot_html(f, cbench_json_string(c, "kernel", "unknown"));
	fputs(", backend ", f);
	cbench_plot_html(f, cbench_json_string(c, "backend", "unknown"));
	fputs(", cbench ", f);
	cbench_plot_html(f, cbench_json_string(c, "cbench_version", "unknown"));
	fputs(", object ", f);
	cbench_plot_html(f, cbench_json_string(c, "so", "unknown"));
	fputs("</p>\n", f);
}

static bool seen_before(const struct input *in, size_t s, size_t i, const char *name)
{
	for (size_t t = 0; t <= s; t++) {
		size_t end = t == s ? i : in[t].benchmarks->n;

		for (size_t j = 0; j < end; j++) {
			if (!strcmp(cbench_json_string(&in[t].benchmarks->items[j], "name", ""), name))
				return true;
		}
	}
	return false;
}

static int write_page(FILE *f, const struct input *in, size_t nin)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>cbench: ", f);
	cbench_plot_html(f, in[0].label);
	if (nin > 1) {
		fputs(" vs ", f);
		cbench_plot_html(f, in[1].label);
	}
	fputs("</title>\n<style>\n"
	      "body { font: 14px sans-serif; margin: 2em; color: #222; }\n"
	      "h2 { font-size: 16px; margin: 1.5em 0 0.3em; }\n"
	      "ul { margin: 0.2em 0; padding-left: 1.2em; }\n"
	      ".plot text, .sweep text { font: 11px sans-serif; }\n"
	      ".axis line { stroke: #888; }\n .axis text { fill: #444; }\n"
	      ".range { stroke-width: 2; }\n .median { stroke-width: 2; }\n"
	      ".failed { fill: #b00; }\n .clipped { fill: #b00; stroke: none; }\n .config { color: #555; }\n"
	      ".legend span { display: inline-block; width: 1em; height: 0.7em; margin: 0 0.3em 0 1em; }\n"
	      "</style></head><body>\n<h1>cbench: ", f);
	cbench_plot_html(f, in[0].label);
	if (nin > 1) {
		fputs(" vs ", f);
		cbench_plot_html(f, in[1].label);
	}
	fputs("</h1>\n", f);
	for (size_t s = 0; s < nin; s++)
		config_line(f, &in[s]);
	fputs("<p class=\"legend\">Per trial: a line from its fastest to its slowest measurement, a "
	      "tick at their median, a dot at its estimate (the floor mean). The axis spans the "
	      "estimates and the measurements but slow outliers, which run to its edge, marked "
	      "with a red arrowhead.", f);
	for (size_t s = 0; nin > 1 && s < nin; s++) {
		fprintf(f, "<span style=\"background: %s\"></span>", series_colour[s]);
		cbench_plot_html(f, in[s].label);
	}
	fputs("</p>\n", f);
	{
		const struct cbench_json *benchmarks[2] = { in[0].benchmarks, nin > 1 ? in[1].benchmarks : NULL };
		const char *labels[2] = { in[0].label, nin > 1 ? in[1].label : NULL };

		cbench_plot_sweeps(f, benchmarks, labels, nin);
	}
	for (size_t s = 0; s < nin; s++) {
		for (size_t i = 0; i < in[s].benchmarks->n; i++) {
			const char *name = cbench_json_string(&in[s].benchmarks->items[i], "name", "");

			if (!seen_before(in, s, i, name))
				plot_benchmark(f, name, in, nin);
		}
	}
	fputs("<footer id=\"end\">cbenchctl plot</footer>\n</body></html>\n", f);
	return ferror(f) ? -EIO : 0;
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %s plot <report.json> [<new.json>] -o <report.html>\n"
		"\n"
		"Draws run reports, JSON (run --format json) or Go text, as one self-contained\n"
		"HTML page: per benchmark an SVG plot of each trial's measurements (minimum to\n"
		"maximum, the median marked; Go text keeps only the estimate) and its\n"
		"estimate.  Two reports are drawn side by side on a\n"
		"shared axis.  A benchmark with parameters also gets a sweep: ns/op against each\n"
		"integer key, a line per value of the other keys, log axes over two decades.  An audit's JSON (audit --format json) is drawn alone: each\n"
		"audit's change of B against A with its interval, over the +-min-effect band.\n"
		"No script, nothing fetched; written atomically.\n"
		"\n"
		"Options:\n"
		"  -o, --output FILE   the HTML file to write (required; - for stdout)\n"
		"  -h, --help          show this help\n",
		cbench_prog);
}

int cbench_plot_main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct input in[2] = { { 0 } };
	struct cbench_outfile out;
	const char *output = NULL;
	size_t nin;
	int c, ret = 0;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			output = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			return cbench_usage_error("plot", "unknown or incomplete option '%s'",
						  argv[optind - 1]);
		}
	}
	nin = (size_t)(argc - optind);
	if (nin < 1 || nin > 2)
		return cbench_usage_error("plot", "it wants one or two reports, not %zu", nin);
	if (!output)
		return cbench_usage_error("plot", "it wants -o FILE.html: the page is written there, "
					  "never to a terminal");
	for (size_t s = 0; s < nin && !ret; s++)
		ret = load(&in[s], argv[optind + (int)s]);
	/* An audit compares two versions already: it is drawn alone. */
	if (!ret && nin > 1 && (cbench_plot_is_audit(in[0].root) || cbench_plot_is_audit(in[1].root))) {
		cbench_err("unable to plot: an audit is drawn alone, not beside another file\n");
		ret = -EINVAL;
	}
	if (!ret) {
		ret = cbench_outfile_open(&out, output);
		if (ret)
			cbench_err("unable to write %s: %s\n", output,
				strerror(-ret));
	}
	if (!ret) {
		ret = cbench_plot_is_audit(in[0].root) ? cbench_plot_audit_page(out.file, in[0].label, in[0].root) :
							 write_page(out.file, in, nin);
		if (ret) {
			cbench_outfile_abort(&out);
		} else {
			ret = cbench_outfile_commit(&out);
		}
		if (ret)
			cbench_err("unable to write %s: %s\n", output,
				strerror(-ret));
	}
	for (size_t s = 0; s < nin; s++)
		cbench_json_free(in[s].root);
	return ret ? 1 : 0;
}
