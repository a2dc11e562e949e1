// SPDX-License-Identifier: GPL-2.0
/*
 * The reports of `cbenchctl layout`: text, JSON, and an HTML page with a
 * plot per benchmark (its layouts from fastest to slowest, the code as
 * loaded marked).  A layout is named by the seed and its index: `--seed S`
 * draws the same layouts again, layout k from cbench_placement_seed(S, k).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/context.h"
#include "report/json_writer.h"
#include "report/report_layout.h"
#include "report/plot_svg.h"
#include "report/report.h"
#include "machine/arena.h"

bool cbench_layout_sensitive(const struct cbench_layouts *s)
{
	return s->sd_lower > CBENCH_UNSTABLE_SD && s->share >= CBENCH_PLACEMENT_SHARE_MIN;
}

/* "layout 7 (run at page offset 0x1c8, line offset 8)" */
static void name_layout(const struct cbench_layout_result *x, size_t k, char *buf, size_t len)
{
	uint64_t at = k < x->nlayouts ? x->run_offsets[k] : 0;

	snprintf(buf, len, "layout %zu (run() at page offset 0x%03" PRIx64 ", line offset %" PRIu64 ")",
		 k, at % 4096, at % 64);
}

static void text_result(const struct cbench_layout_result *x, FILE *f)
{
	const struct cbench_layouts *s = &x->stats;
	char fast[96], slow[96];

	fprintf(f, "%s: ", x->exp->id);
	if (x->error) {
		fprintf(f, "failed: %s\n", x->reason);
		return;
	}
	if (isnan(s->sd)) {
		fprintf(f, "too few layouts measured (%zu) for a spread\n", s->n);
		return;
	}
	fprintf(f, "%s: layouts spread %.3g %% [%.3g %%, %.3g %%] (sd of log), median %.4g ns/op over "
		"%zu layouts\n", x->sensitive ? "layout-sensitive" : "not layout-sensitive",
		100 * s->sd, 100 * s->sd_lower, 100 * s->sd_upper, s->median_ns, s->n);
	name_layout(x, s->fastest, fast, sizeof(fast));
	name_layout(x, s->slowest, slow, sizeof(slow));
	fprintf(f, "    fastest %.4g ns/op, %s\n    slowest %.4g ns/op, %s (%+.1f %%)\n", s->fastest_ns,
		fast, s->slowest_ns, slow, 100 * (s->slowest_ns / s->fastest_ns - 1));
	if (!isnan(s->loaded_ns)) {
		name_layout(x, 0, fast, sizeof(fast));
		fprintf(f, "    as loaded %.4g ns/op, faster than %.0f %% of the layouts: what run measures "
			"is one of them\n", s->loaded_ns, 100 * (1 - s->loaded_rank));
	}
	if (!isnan(s->share))
		fprintf(f, "    noise within a layout %.3g %%: %.0f %% of the spread's variance is the "
			"layout's\n", 100 * s->noise_sd, 100 * s->share);
	fprintf(f, "    reps %" PRIu64 "\n", x->n);
}

/* How the layouts were made where that is not user mode's way. */
static const char *backend_how(const struct cbench_layout_report *r)
{
	return r->backend && !strcmp(r->backend, "kmod") ?
	       " (in ring 0: each layout's image laid out anew before its upload)" : "";
}

int cbench_layout_report_text(const struct cbench_layout_report *r, FILE *f)
{
	fprintf(f, "layout: %s, seed %" PRIu64 ", %" PRIu32 " layouts, confidence %g\n", r->path, r->seed,
		r->layouts, r->confidence);
	fprintf(f, "moves: %s\n", r->moves);
	fprintf(f, "backend: %s%s\n", r->backend ? r->backend : "user", backend_how(r));
	fprintf(f, "timer: %s\nrun: %s on %s: %s\n", r->timer.name, cbench_context()->date,
		cbench_context()->host, cbench_context()->command);
	for (size_t i = 0; i < r->nresults; i++)
		text_result(&r->results[i], f);
	fprintf(f, "replay: --seed %" PRIu64 " draws the same layouts; layout k alone is "
		"cbench_placement_seed(seed, k)'s draw\n", r->seed);
	fflush(f);
	return ferror(f) ? -EIO : 0;
}

static void maybe(struct cbench_jsonw *j, const char *key, double v)
{
	if (isnan(v))
		cbench_jsonw_null(j, key);
	else
		cbench_jsonw_double(j, key, v);
}

static uint64_t draw(void *pl, uint64_t n)
{
	return cbench_placement_draw(pl, n);
}

/* Drawn layout k's offset of every function from its region's page, as
 * the worker drew it: the same seed, the same draws. */
static void json_units(struct cbench_jsonw *j, const struct cbench_layout_report *r, size_t k)
{
	uint64_t *off = r->lay ? calloc(cbench_layout_slots(r->lay) + 1, sizeof(*off)) : NULL;
	struct cbench_placement pl;
	uint64_t bytes;

	cbench_placement_init(&pl, cbench_placement_seed(r->seed, k));
	if (off && k && !cbench_layout_draw(r->lay, draw, &pl, off, &bytes)) {
		cbench_jsonw_array_start(j, "functions");
		for (uint32_t i = 0; i < r->lay->nunits; i++) {
			cbench_jsonw_object_start(j, NULL);
			cbench_jsonw_string(j, "name", r->lay->units[i].name);
			cbench_jsonw_uint(j, "offset", off[i]);
			cbench_jsonw_object_end(j);
		}
		cbench_jsonw_array_end(j);
	}
	free(off);
}

static void json_layout(struct cbench_jsonw *j, const struct cbench_layout_report *r, const char *key,
			const struct cbench_layout_result *x, size_t k)
{
	cbench_jsonw_object_start(j, key);
	cbench_jsonw_uint(j, "index", k);
	maybe(j, "ns_per_op", k < x->nlayouts ? x->q[k] : NAN);
	cbench_jsonw_uint(j, "run_offset", k < x->nlayouts ? x->run_offsets[k] : 0);
	json_units(j, r, k);
	cbench_jsonw_object_end(j);
}

static void json_result(struct cbench_jsonw *j, const struct cbench_layout_report *r,
			const struct cbench_layout_result *x)
{
	const struct cbench_layouts *s = &x->stats;

	cbench_jsonw_object_start(j, NULL);
	cbench_jsonw_string(j, "name", x->exp->report_name);
	cbench_jsonw_string(j, "id", x->exp->id);
	if (x->error) {
		cbench_jsonw_string(j, "error", x->reason);
		cbench_jsonw_object_end(j);
		return;
	}
	cbench_jsonw_uint(j, "reps", x->n);
	cbench_jsonw_bool(j, "layout_sensitive", x->sensitive);
	cbench_jsonw_uint(j, "layouts", s->n);
	maybe(j, "median_ns_per_op", s->median_ns);
	maybe(j, "spread_pct", 100 * s->sd);
	maybe(j, "spread_lower_pct", 100 * s->sd_lower);
	maybe(j, "spread_upper_pct", 100 * s->sd_upper);
	maybe(j, "noise_pct", 100 * s->noise_sd);
	maybe(j, "share", s->share);
	maybe(j, "loaded_faster_than", isnan(s->loaded_rank) ? NAN : 1 - s->loaded_rank);
	json_layout(j, r, "as_loaded", x, 0);
	json_layout(j, r, "fastest", x, s->fastest);
	json_layout(j, r, "slowest", x, s->slowest);
	cbench_jsonw_array_start(j, "ns_per_op");
	for (size_t k = 0; k < x->nlayouts; k++)
		maybe(j, NULL, x->q[k]);
	cbench_jsonw_array_end(j);
	cbench_jsonw_array_start(j, "run_offsets");
	for (size_t k = 0; k < x->nlayouts; k++)
		cbench_jsonw_uint(j, NULL, x->run_offsets[k]);
	cbench_jsonw_array_end(j);
	cbench_jsonw_object_end(j);
}

int cbench_layout_report_json(const struct cbench_layout_report *r, FILE *f)
{
	const struct cbench_report_head head = { .machine = r->machine, .version = CBENCH_VERSION,
						 .backend = r->backend ? r->backend : "user",
						 .timer = r->timer.name };
	struct cbench_jsonw j;

	cbench_jsonw_init(&j, f, true);
	cbench_jsonw_object_start(&j, NULL);
	cbench_jsonw_uint(&j, "schema_version", CBENCH_JSON_SCHEMA_VERSION);
	cbench_jsonw_object_start(&j, "config");
	cbench_report_head_put(&j, &head);
	cbench_jsonw_string(&j, "object", r->path);
	cbench_jsonw_uint(&j, "seed", r->seed);
	cbench_jsonw_uint(&j, "layouts", r->layouts);
	cbench_jsonw_double(&j, "confidence", r->confidence);
	cbench_jsonw_string(&j, "moves", r->moves);
	cbench_jsonw_object_end(&j);
	cbench_jsonw_array_start(&j, "benchmarks");
	for (size_t i = 0; i < r->nresults; i++)
		json_result(&j, r, &r->results[i]);
	cbench_jsonw_array_end(&j);
	cbench_jsonw_object_end(&j);
	return cbench_jsonw_finish(&j);
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Plot geometry, in pixels. */
#define PLOT_W 640
#define PLOT_H 240
#define PLOT_LEFT 70
#define PLOT_BOTTOM 36
#define PLOT_TOP 12

/* One benchmark's layouts, fastest to slowest, and the code as loaded. */
static void svg_result(const struct cbench_layout_result *x, FILE *f)
{
	const struct cbench_layouts *s = &x->stats;
	double *v = malloc((x->nlayouts ? x->nlayouts : 1) * sizeof(*v)), lo, hi, step;
	double w = PLOT_W - PLOT_LEFT - 10, h = PLOT_H - PLOT_BOTTOM - PLOT_TOP;
	size_t n = 0;

	for (size_t k = 1; v && k < x->nlayouts; k++)
		if (x->q[k] > 0)
			v[n++] = x->q[k];
	if (!n) {
		free(v);
		return;
	}
	qsort(v, n, sizeof(*v), by_value);
	lo = fmin(v[0], isnan(s->loaded_ns) ? v[0] : s->loaded_ns);
	hi = fmax(v[n - 1], isnan(s->loaded_ns) ? v[n - 1] : s->loaded_ns);
	step = cbench_plot_round_step((hi - lo > 0 ? hi - lo : hi * 0.01 + 1e-9) / 4);
	lo = floor(lo / step) * step;
	hi = fmax(ceil(hi / step) * step, lo + step);
	fprintf(f, "<svg width=\"%d\" height=\"%d\" role=\"img\"><title>", PLOT_W, PLOT_H);
	cbench_plot_html(f, x->exp->id);
	fprintf(f, ": ns/op at each layout, fastest to slowest</title>\n");
	for (double t = lo; t <= hi + step / 2; t += step) {
		double y = PLOT_TOP + h * (1 - (t - lo) / (hi - lo));

		fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
			"<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.4g</text>\n", PLOT_LEFT, PLOT_W - 10,
			y, y, PLOT_LEFT - 6, y + 4, t);
	}
	for (size_t i = 0; i < n; i++)
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"#1f77b4\"/>\n",
			PLOT_LEFT + w * ((double)i + 0.5) / (double)n, PLOT_TOP + h * (1 - (v[i] - lo) / (hi - lo)));
	if (!isnan(s->loaded_ns)) {
		double y = PLOT_TOP + h * (1 - (s->loaded_ns - lo) / (hi - lo));

		fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#d62728\" "
			"stroke-dasharray=\"4 3\"/><text x=\"%d\" y=\"%.1f\" fill=\"#d62728\">as loaded</text>\n",
			PLOT_LEFT, PLOT_W - 10, y, y, PLOT_LEFT + 4, y - 4);
	}
	fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%zu layouts, fastest to slowest "
		"(ns/op)</text>\n</svg>\n", PLOT_LEFT + w / 2, PLOT_H - 10, n);
	free(v);
}

int cbench_layout_report_html(const struct cbench_layout_report *r, FILE *f)
{
	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>cbenchctl layout: ");
	cbench_plot_html(f, r->path);
	fprintf(f, "</title>\n<style>body{font:" CBENCH_PLOT_FONT ";margin:16px}svg text{font:"
		CBENCH_PLOT_FONT "}pre{white-space:pre-wrap}</style></head><body>\n<h1>");
	cbench_plot_html(f, r->path);
	fprintf(f, "</h1>\n<p>seed %" PRIu64 ", %" PRIu32 " layouts; ", r->seed, r->layouts);
	cbench_plot_html(f, r->moves);
	fprintf(f, "; backend %s%s", r->backend ? r->backend : "user", backend_how(r));
	fprintf(f, "</p>\n");
	for (size_t i = 0; i < r->nresults; i++) {
		const struct cbench_layout_result *x = &r->results[i];
		char *text = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&text, &len);

		fprintf(f, "<h2>");
		cbench_plot_html(f, x->exp->id);
		fprintf(f, "</h2>\n<pre>");
		if (m) {
			text_result(x, m);
			fclose(m);
			cbench_plot_html(f, text);
		}
		free(text);
		fprintf(f, "</pre>\n");
		if (!x->error)
			svg_result(x, f);
	}
	fprintf(f, "</body></html>\n");
	fflush(f);
	return ferror(f) ? -EIO : 0;
}
