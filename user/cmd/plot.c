// SPDX-License-Identifier: GPL-2.0
/*
 * `cbenchctl plot report.json -o report.html`, `plot old.json new.json -o
 * cmp.html`, `plot OLD... -- NEW... -o cmp.html`: run reports as one
 * self-contained HTML page, inline SVG plots, with no script and nothing
 * fetched.  A comparison opens with what changed (plot_change.c: compare's
 * runs, test and verdicts as a forest, slowest first), then the sweeps of
 * parameterized benchmarks (plot_sweep.c), then per benchmark each trial:
 * the range of its measurements (minimum to maximum, a tick at the median)
 * and its estimate (the floor mean, a dot).  The report keeps no raw
 * measurements, and these are what says how a trial's measurements spread
 * and where it settled.  An audit's JSON is drawn alone (plot_audit.c).
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report/json.h"
#include "report/readfile.h"
#include "report/outfile.h"
#include "report/plot_audit.h"
#include "report/plot_change.h"
#include "report/plot_forest.h"
#include "report/plot_svg.h"
#include "report/plot_sweep.h"
#include "report/runs.h"
#include "results/doc.h"
#include "results/runs_read.h"
#include "stats/stats.h"
#include "session/options.h"
#include "cmd/subcommands.h"

/* Largest report we read, in bytes: far above what a run writes. */
#define PLOT_MAX_BYTES (64u << 20)

/* Reports a side takes: runs to compare. */
#define PLOT_MAX_RUNS 32
/* The smallest change that counts, in percent, as compare's default. */
#define PLOT_MIN_EFFECT_PCT 0.2

/* The SVG's geometry, in CSS pixels: the axis's length (the labels' column
 * before it is as wide as they need), ... */
#define AXIS_WIDTH 610
#define MARGIN_RIGHT 30
#define ROW_HEIGHT 16
#define AXIS_HEIGHT 34
#define HEADER_HEIGHT 8
#define AXIS_TICKS 6

static const char *const series_colour[2] = { "#1f6fb4", "#d9661f" };

struct input {
	const char *path;
	const char *label;		/* the file's base name, or its path where two share one */
	int side;			/* 0 old (or the only one), 1 new */
	struct cbench_doc doc;		/* a run's report */
	struct cbench_json *audit;	/* or an audit's */
};

/* What plot was asked. */
struct plot_options {
	const char *output;
	double min_effect;		/* a fraction */
	int metric;			/* enum cbench_metric, or -1: as compare picks */
	enum cbench_plot_scale y_scale;
};

/* An audit's JSON into in->audit, or a run's report (JSON or Go text) into in->doc. */
static int read_input(struct input *in, const char *text, size_t len, char *err, size_t errlen)
{
	struct cbench_json *root = NULL;
	int ret;

	in->doc.path = in->path;
	if (!cbench_doc_looks_json(text, len))
		return cbench_doc_parse(&in->doc, text, len, CBENCH_DOC_GO, err, errlen);
	ret = cbench_doc_json(text, len, &root, err, errlen);
	if (ret)
		return ret;
	if (!cbench_plot_is_audit(root))
		return cbench_doc_adopt(&in->doc, root, text, len, 0, err, errlen);
	in->audit = root;
	return cbench_plot_audit_check(root, err, errlen);
}

/* Reads and checks one report; the message on failure goes to stderr. */
static int load(struct input *in, const char *path)
{
	char *text = NULL, err[CBENCH_ERR_LEN];
	size_t len = 0;
	int ret, side = in->side;

	memset(in, 0, sizeof(*in));
	in->side = side;
	in->path = path;
	in->label = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	ret = cbench_read_file(path, PLOT_MAX_BYTES, &text, &len);
	if (ret) {
		cbench_err("unable to read %s: %s\n", path,
			ret == -EFBIG ? "not a regular file of a report's size" : strerror(-ret));
		return ret;
	}
	ret = read_input(in, text, len, err, sizeof(err));
	free(text);
	if (ret)
		cbench_err("unable to read %s: %s%s\n", path, in->audit ? "not a cbench audit: " : "", err);
	return ret;
}

static void unload(struct input *in)
{
	cbench_doc_free(&in->doc);
	if (in->audit)
		cbench_json_free(in->audit);
	in->audit = NULL;
}

/* A trial that measured an estimate. */
static bool trial_ok(const struct cbench_trial *t)
{
	return !t->error && !t->set_aside && isfinite(t->ns_per_op);
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
	double left, right;	/* where it is drawn, px: after the labels' column */
};

/*
 * The slowest measurement that is no outlier: within two spreads of the
 * estimates' range (a spread at least 0.1 % of them) above its top.
 */
static double slowest_in_view(const struct cbench_result *const b[], size_t nb, double lo, double hi)
{
	double spread = fmax(hi - lo, hi * 1e-3), top = hi;

	for (size_t s = 0; s < nb; s++) {
		for (size_t i = 0; b[s] && i < b[s]->ntrials; i++) {
			double v = b[s]->trials[i].max_ns_per_op;

			if (isfinite(v) && v <= hi + 2 * spread)
				top = fmax(top, v);
		}
	}
	return top;
}

static void extent(const struct cbench_result *const b[], size_t nb, struct axis *a)
{
	static const char *const units[] = { "ns/op", "µs/op", "ms/op", "s/op" };
	double lo = INFINITY, hi = -INFINITY, pad;
	int u = 0;

	for (size_t s = 0; s < nb; s++) {
		for (size_t i = 0; b[s] && i < b[s]->ntrials; i++) {
			const struct cbench_trial *t = &b[s]->trials[i];
			const double keys[] = { t->min_ns_per_op, t->median_ns_per_op, t->ns_per_op };

			for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
				double v = keys[k];

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
	hi = fmax(hi, slowest_in_view(b, nb, lo, hi));
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

/* v on the axis, held to its edges. */
static double x_in(double v, const struct axis *a)
{
	double t = (fmin(fmax(v, a->lo), a->hi) - a->lo) / (a->hi - a->lo);

	return a->left + t * (a->right - a->left);
}

static void axis(FILE *f, const struct axis *a, int y)
{
	/* Decimals enough to tell the ticks apart, in the labels' unit. */
	int decimals = (int)fmax(0, -floor(log10(a->step / a->scale) + 1e-9));

	fprintf(f, "<g class=\"axis\"><line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>",
		a->left, y, a->right, y);
	for (double v = a->lo; v <= a->hi + a->step / 2; v += a->step) {
		double x = x_in(v, a);

		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>"
			"<text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%.*f</text>",
			x, y, x, y + 4, x, y + 16, decimals, v / a->scale);
	}
	fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"end\">%s</text></g>", a->right, y + 30, a->unit);
}

/* A failure's reason, cut to what fits beside the labels (whole in its title). */
static void failure(FILE *f, const char *reason, const struct axis *a, int y)
{
	double room = a->right + MARGIN_RIGHT - a->left - 4;
	char shown[512];
	size_t n = strlen(reason);

	fprintf(f, "<text class=\"failed\" x=\"%.1f\" y=\"%d\" stroke=\"none\"><title>", a->left, y + 4);
	cbench_plot_html(f, reason);
	fputs("</title>failed: ", f);
	snprintf(shown, sizeof(shown), "failed: %s", reason);
	if (cbench_plot_text_width(shown) <= room) {
		cbench_plot_html(f, reason);
		fputs("</text>", f);
		return;
	}
	/* Shorter until it fits with its ellipsis; never inside a UTF-8 character. */
	do {
		while (n && (reason[--n] & 0xc0) == 0x80)
			;
		snprintf(shown, sizeof(shown), "failed: %.*s…", (int)n, reason);
	} while (n && cbench_plot_text_width(shown) > room);
	fprintf(f, "%.*s…</text>", (int)n, reason);
}

/* One report's trials of one benchmark, from row `row` on. */
static void series(FILE *f, const struct cbench_result *b, const struct input *in, int *row,
		   const struct axis *a)
{
	fprintf(f, "<g class=\"series\" fill=\"%s\" stroke=\"%s\">", series_colour[in->side],
		series_colour[in->side]);
	for (size_t i = 0; i < b->ntrials; i++, (*row)++) {
		const struct cbench_trial *t = &b->trials[i];
		int y = HEADER_HEIGHT + *row * ROW_HEIGHT + ROW_HEIGHT / 2;

		fprintf(f, "<text class=\"label\" x=\"%.1f\" y=\"%d\" text-anchor=\"end\" stroke=\"none\">",
			a->left - 8, y + 4);
		cbench_plot_html(f, in->label);
		fprintf(f, " trial %zu</text>", i + 1);
		if (!trial_ok(t)) {
			failure(f, t->error && t->reason[0] ? t->reason : "no estimate", a, y);
			continue;
		}
		double est = t->ns_per_op;
		double min = isnan(t->min_ns_per_op) ? est : t->min_ns_per_op;
		double med = isnan(t->median_ns_per_op) ? est : t->median_ns_per_op;
		double max = isnan(t->max_ns_per_op) ? est : t->max_ns_per_op;

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

static void summary(FILE *f, const struct cbench_result *b, const char *label)
{
	double ns = b->ns_per_op, cv = b->cv;
	double v[256];
	size_t n = 0;

	/* Go text has no headline: the median of its trials, as run's is. */
	for (size_t i = 0; isnan(b->ns_per_op) && i < b->ntrials && n < 256; i++) {
		if (trial_ok(&b->trials[i]))
			v[n++] = b->trials[i].ns_per_op;
	}
	if (n)
		ns = cbench_stats_median(v, n);
	fputs("<li>", f);
	cbench_plot_html(f, label);
	if (isfinite(ns))
		fprintf(f, ": %.6g ns/op (median of trials)", ns);
	else
		fputs(": no estimate", f);
	if (isfinite(cv))
		fprintf(f, ", trials' cv %.3g%%", 100 * cv);
	if (b->unstable) {
		fputs(", <strong>unstable</strong>: ", f);
		cbench_plot_html(f, b->unstable_reason);
	}
	fputs("</li>", f);
}

/* Each report's benchmark of that name into res[] (b[s]: NULL where it has none). */
static int take_benchmark(const char *name, const struct input *in, size_t nin, struct cbench_result res[],
			  const struct cbench_result *b[])
{
	for (size_t s = 0; s < nin; s++) {
		const struct cbench_doc_bench *d = cbench_doc_find(&in[s].doc, name, false);

		b[s] = NULL;
		if (d && cbench_doc_result(d, &res[s]))
			return -ENOMEM;
		b[s] = d ? &res[s] : NULL;
	}
	return 0;
}

static int plot_benchmark(FILE *f, const char *name, const struct input *in, size_t nin)
{
	struct cbench_result res[2 * PLOT_MAX_RUNS] = { { 0 } };
	const struct cbench_result *b[2 * PLOT_MAX_RUNS] = { NULL };
	double labels = 0;
	int rows = 0, row = 0, height;
	struct axis a;
	char label[300];

	if (take_benchmark(name, in, nin, res, b)) {
		for (size_t s = 0; s < nin; s++)
			free(res[s].trials);
		return -ENOMEM;
	}
	for (size_t s = 0; s < nin; s++) {
		if (!b[s])
			continue;
		rows += (int)b[s]->ntrials;
		snprintf(label, sizeof(label), "%s trial %zu", in[s].label, b[s]->ntrials);
		labels = fmax(labels, cbench_plot_text_width(label));
	}
	if (!rows)
		rows = 1;
	extent(b, nin, &a);
	/* The labels' column is as wide as its widest label. */
	a.left = ceil(8 + labels + 8);
	a.right = a.left + AXIS_WIDTH;
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
		"height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\"><title>", (int)a.right + MARGIN_RIGHT, height,
		(int)a.right + MARGIN_RIGHT, height);
	cbench_plot_html(f, name);
	fputs(": each trial's measurements, minimum to maximum with the median marked, and its "
	      "estimate</title>", f);
	for (size_t s = 0; s < nin; s++) {
		if (b[s])
			series(f, b[s], &in[s], &row, &a);
	}
	axis(f, &a, HEADER_HEIGHT + rows * ROW_HEIGHT + 4);
	fputs("</svg></section>\n", f);
	for (size_t s = 0; s < nin; s++)
		free(res[s].trials);
	return 0;
}

static const char *known(const char *v, const char *otherwise)
{
	return v[0] ? v : otherwise;
}

static void config_line(FILE *f, const struct input *in)
{
	const struct cbench_doc_head *c = &in->doc.head;

	fputs("<p class=\"config\"><strong>", f);
	cbench_plot_html(f, in->label);
	fputs("</strong>: ", f);
	cbench_plot_html(f, known(c->cpu, "unknown CPU"));
	fputs(", kernel ", f);
	cbench_plot_html(f, known(c->kernel, "unknown"));
	fputs(", backend ", f);
	cbench_plot_html(f, known(c->backend, "unknown"));
	fputs(", cbench ", f);
	cbench_plot_html(f, known(c->version, "unknown"));
	fputs(", object ", f);
	cbench_plot_html(f, known(c->so, "unknown"));
	fputs("</p>\n", f);
}

static bool seen_before(const struct input *in, size_t s, size_t i, const char *name)
{
	for (size_t t = 0; t <= s; t++) {
		size_t end = t == s ? i : in[t].doc.nbench;

		for (size_t j = 0; j < end; j++) {
			if (!strcmp(in[t].doc.bench[j].name, name))
				return true;
		}
	}
	return false;
}

/* A comparison's or a report's page: its reports, and its sides' runs. */
struct page {
	struct input *in;
	size_t nin;
	struct cbench_runs *sides[2];	/* ns/op, every benchmark: the sweeps' */
	struct cbench_sides *both;	/* two sides: what the change view judges by */
	size_t nsides;
	const char *labels[2];		/* the sides' */
	char side_label[2][64];
	const struct plot_options *opt;
};

static void page_head(FILE *f, const struct page *pg)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>cbench: ", f);
	cbench_plot_html(f, pg->labels[0]);
	if (pg->nsides > 1) {
		fputs(" vs ", f);
		cbench_plot_html(f, pg->labels[1]);
	}
	fputs("</title>\n<style>\n"
	      "body { font: 14px sans-serif; margin: 2em; color: #222; }\n"
	      "h2 { font-size: 16px; margin: 1.5em 0 0.3em; }\n"
	      "ul { margin: 0.2em 0; padding-left: 1.2em; }\n"
	      ".plot text, .sweep text { font: " CBENCH_PLOT_FONT "; }\n"
	      ".axis line { stroke: #888; }\n .axis text { fill: #444; }\n"
	      ".range { stroke-width: 2; }\n .median { stroke-width: 2; }\n"
	      ".plot .failed { fill: #b00; }\n .clipped { fill: #b00; stroke: none; }\n .config { color: #555; }\n"
	      ".headline { font-size: 16px; }\n .note { color: #444; }\n .sweep .coincide { fill: #555; }\n"
	      "p.legend span { display: inline-block; width: 1em; height: 0.7em; margin: 0 0.3em 0 1em; }\n", f);
	fputs(cbench_plot_forest_css, f);
	fputs("</style></head><body>\n<h1>cbench: ", f);
	cbench_plot_html(f, pg->labels[0]);
	if (pg->nsides > 1) {
		fputs(" vs ", f);
		cbench_plot_html(f, pg->labels[1]);
	}
	fputs("</h1>\n", f);
}

static int write_page(FILE *f, const struct page *pg)
{
	const struct cbench_runs *const *sides = (const struct cbench_runs *const *)pg->sides;
	const struct input *in = pg->in;

	page_head(f, pg);
	for (size_t s = 0; s < pg->nin; s++)
		config_line(f, &in[s]);
	if (pg->nsides > 1 && cbench_plot_change(f, pg->both, pg->labels, pg->opt->min_effect))
		return -ENOMEM;
	cbench_plot_sweeps(f, sides, pg->labels, pg->nsides, pg->opt->y_scale);
	fputs("<p class=\"legend\">Per trial: a line from its fastest to its slowest measurement, a "
	      "tick at their median, a dot at its estimate (the floor mean). The axis spans the "
	      "estimates and the measurements but slow outliers, which run to its edge, marked "
	      "with a red arrowhead.", f);
	for (size_t s = 0; pg->nsides > 1 && s < pg->nsides; s++) {
		fprintf(f, "<span style=\"background: %s\"></span>", series_colour[s]);
		cbench_plot_html(f, pg->labels[s]);
	}
	fputs("</p>\n", f);
	for (size_t s = 0; s < pg->nin; s++) {
		for (size_t i = 0; i < in[s].doc.nbench; i++) {
			const char *name = in[s].doc.bench[i].name;

			if (!seen_before(in, s, i, name) && plot_benchmark(f, name, in, pg->nin))
				return -ENOMEM;
		}
	}
	fputs("<footer id=\"end\">cbenchctl plot</footer>\n</body></html>\n", f);
	return ferror(f) ? -EIO : 0;
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %s plot [options] <report> -o <report.html>\n"
		"       %s plot [options] <old> <new> -o <cmp.html>\n"
		"       %s plot [options] <old>... -- <new>... -o <cmp.html>\n"
		"\n"
		"Draws run reports, JSON (run --format json) or Go text, as one self-contained\n"
		"HTML page.  Two sides (old and new, one run or more each) open with what\n"
		"changed: per benchmark new/old with compare's 95%% interval (two runs a side or\n"
		"more), by compare's figure, sorted by change, slowest first, coloured by\n"
		"compare's verdict.  A\n"
		"benchmark with parameters gets a sweep per integer key: ns/op against it, a\n"
		"line per value of the other keys, old dashed and new solid in one colour, the\n"
		"change on hover; the key's axis logarithmic over more than a decade.  Then per\n"
		"benchmark each trial's measurements (minimum to maximum, the median marked; Go\n"
		"text keeps only the estimate) and its estimate.  Audits' JSON (audit --format\n"
		"json), one file or more, is drawn apart from runs: each audit's change of B\n"
		"against A with its interval, over the +-min-effect band, sorted by change.\n"
		"No script, nothing fetched; written atomically.\n"
		"\n"
		"Options:\n"
		"  -o, --output FILE   the HTML file to write (required; - for stdout)\n"
		"  --min-effect PCT    smallest change that counts, in percent (default %.1f, as\n"
		"                      compare's)\n"
		"  --metric M          what judges the change view: est-cycles, ns, instructions,\n"
		"                      cycles or ref-cycles (default, as compare: est-cycles where\n"
		"                      both sides have it in every run, else ns)\n"
		"  --y-scale SCALE     the sweeps' time axis: auto (logarithmic where times span\n"
		"                      two decades), linear (from 0) or log\n"
		"  -h, --help          show this help\n",
		cbench_prog, cbench_prog, cbench_prog, PLOT_MIN_EFFECT_PCT);
}

enum { OPT_MIN_EFFECT = 256, OPT_Y_SCALE, OPT_METRIC };

/* The options into o; the operands are left from optind on.  0, 1 for --help, or a usage error's status. */
static int parse_options(struct plot_options *o, int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "min-effect", required_argument, NULL, OPT_MIN_EFFECT },
		{ "y-scale", required_argument, NULL, OPT_Y_SCALE },
		{ "metric", required_argument, NULL, OPT_METRIC },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const scales[] = { "auto", "linear", "log", NULL };
	double pct;
	int c, i;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			o->output = optarg;
			break;
		case OPT_MIN_EFFECT:
			if (cbench_parse_number(optarg, &pct) || !(pct >= 0) || pct >= 100) {
				cbench_option_refuse(stderr, "--min-effect", "a percentage from 0 to below 100",
						     optarg);
				return cbench_usage_error("plot", NULL);
			}
			o->min_effect = pct / 100;
			break;
		case OPT_METRIC:
			o->metric = cbench_metric_of(optarg);
			if (o->metric < 0) {
				cbench_option_refuse(stderr, "--metric", "est-cycles, ns, instructions, cycles "
						     "or ref-cycles", optarg);
				return cbench_usage_error("plot", NULL);
			}
			break;
		case OPT_Y_SCALE:
			i = cbench_option_word("--y-scale", optarg, scales, stderr);
			if (i < 0)
				return cbench_usage_error("plot", NULL);
			o->y_scale = (enum cbench_plot_scale)i;
			break;
		case 'h':
			usage(stdout);
			return 1;
		default:
			return cbench_usage_error("plot", "unknown or incomplete option '%s'", argv[optind - 1]);
		}
	}
	return 0;
}

/*
 * The reports into in[] with their sides: OLD... -- NEW..., or OLD NEW, or
 * one report.  getopt would take "--" for the end of the options and
 * move it, so we hide it from getopt behind a marker it does not know.
 */
static int parse(struct plot_options *o, int argc, char *argv[], struct input *in, size_t *nin, size_t *nsides)
{
	static char marker[] = "\x1f--";
	size_t nold = 0, nnew = 0;
	int sep = -1, ret;
	bool after = false;

	for (int i = 1; i < argc && sep < 0; i++) {
		if (!strcmp(argv[i], "--")) {
			sep = i;
			argv[i] = marker;
		}
	}
	ret = parse_options(o, argc, argv);
	if (ret)
		return ret;
	if (sep < 0 && argc - optind > 2)
		return cbench_usage_error("plot", "more than two reports want '--' between the old and the "
					  "new ones");
	for (int i = optind; i < argc; i++) {
		if (argv[i] == marker) {
			after = true;
			continue;
		}
		if ((after ? nnew : nold) == PLOT_MAX_RUNS)
			return cbench_usage_error("plot", "at most %d reports a side", PLOT_MAX_RUNS);
		in[nold + nnew].path = argv[i];
		in[nold + nnew].side = after;
		if (after)
			nnew++;
		else
			nold++;
	}
	*nin = nold + nnew;
	if (sep < 0 && *nin == 2)
		in[1].side = 1;
	*nsides = sep >= 0 || *nin == 2 ? 2 : 1;
	if (sep >= 0 && (!nold || !nnew))
		return cbench_usage_error("plot", "no %s report beside '--'", nold ? "new" : "old");
	if (!*nin)
		return cbench_usage_error("plot", "it wants a report");
	if (!o->output)
		return cbench_usage_error("plot", "it wants -o FILE.html: the page is written there, "
					  "never to a terminal");
	return 0;
}

/* Where two reports share a base name, each is named by its path. */
static void name_inputs(struct input *in, size_t nin)
{
	for (size_t i = 0; i < nin; i++) {
		for (size_t j = 0; j < nin; j++) {
			if (i != j && !strcmp(in[i].label, in[j].label) && strcmp(in[i].path, in[j].path))
				in[i].label = in[i].path;
		}
	}
}

/* Each side's runs, as compare reads them.  0, or -errno after saying why. */
static int read_sides(struct page *pg, struct cbench_origin *first)
{
	char *paths[2][PLOT_MAX_RUNS];
	size_t n[2] = { 0 };
	struct cbench_runs like = { .first = first, .mixed = true, .empty_ok = true, .cmd = "plot" };

	for (size_t s = 0; s < pg->nsides; s++) {
		const char *label = NULL;

		for (size_t i = 0; i < pg->nin; i++) {
			if ((size_t)pg->in[i].side == s) {
				paths[s][n[s]++] = (char *)pg->in[i].path;
				label = pg->in[i].label;
			}
		}
		snprintf(pg->side_label[s], sizeof(pg->side_label[s]), "%s (%zu reports)", s ? "new" : "old", n[s]);
		pg->labels[s] = n[s] == 1 ? label : pg->side_label[s];
	}
	if (pg->nsides == 1) {
		pg->sides[0] = calloc(1, sizeof(*pg->sides[0]));
		if (!pg->sides[0])
			return -ENOMEM;
		*pg->sides[0] = like;
		return cbench_runs_read(pg->sides[0], paths[0], n[0]) ? -EINVAL : 0;
	}
	pg->both = calloc(1, sizeof(*pg->both));
	if (!pg->both)
		return -ENOMEM;
	pg->both->metric = pg->opt->metric;
	if (cbench_sides_read(pg->both, &like, paths[0], n[0], paths[1], n[1]))
		return -EINVAL;
	for (size_t s = 0; s < 2; s++)
		pg->sides[s] = (struct cbench_runs *)cbench_sides_runs(pg->both, (int)s);
	return 0;
}

/* The page (or the audit's) into output, atomically.  0, or -errno after saying why. */
static int draw(const struct page *pg, const char *output)
{
	struct cbench_outfile out;
	int ret = cbench_outfile_open(&out, output);

	if (ret) {
		cbench_err("unable to write %s: %s\n", output, strerror(-ret));
		return ret;
	}
	if (pg->in[0].audit) {
		const char *labels[2 * PLOT_MAX_RUNS];
		const struct cbench_json *roots[2 * PLOT_MAX_RUNS];

		for (size_t i = 0; i < pg->nin; i++) {
			labels[i] = pg->in[i].label;
			roots[i] = pg->in[i].audit;
		}
		ret = cbench_plot_audit_page(out.file, labels, roots, pg->nin);
	} else {
		ret = write_page(out.file, pg);
	}
	if (ret)
		cbench_outfile_abort(&out);
	else
		ret = cbench_outfile_commit(&out);
	if (ret)
		cbench_err("unable to write %s: %s\n", output, strerror(-ret));
	return ret;
}

int cbench_plot_main(int argc, char *argv[])
{
	struct plot_options opt = { .min_effect = PLOT_MIN_EFFECT_PCT / 100, .metric = -1 };
	struct input in[2 * PLOT_MAX_RUNS] = { { 0 } };
	struct cbench_origin first = { 0 };
	struct page pg = { .in = in, .opt = &opt };
	size_t audits = 0;
	int ret;

	ret = parse(&opt, argc, argv, in, &pg.nin, &pg.nsides);
	if (ret)
		return ret == 1 ? 0 : ret;
	for (size_t s = 0; s < pg.nin && !ret; s++) {
		ret = load(&in[s], in[s].path);
		audits += !ret && in[s].audit;
	}
	/* An audit compares two versions already: audits are drawn together,
	 * never beside runs. */
	if (!ret && audits && audits < pg.nin) {
		cbench_err("unable to plot: an audit is drawn alone or beside audits, not beside a run's "
			   "report\n");
		ret = -EINVAL;
	}
	if (!ret) {
		name_inputs(in, pg.nin);
		pg.labels[0] = in[0].label;
	}
	if (!ret && !audits)
		ret = read_sides(&pg, &first);
	if (!ret)
		ret = draw(&pg, opt.output);
	for (size_t s = 0; s < pg.nin; s++)
		unload(&in[s]);
	if (pg.both) {
		cbench_sides_release(pg.both);
		free(pg.both);
	} else if (pg.sides[0]) {
		cbench_runs_release(pg.sides[0]);
		free(pg.sides[0]);
	}
	return ret ? 1 : 0;
}
