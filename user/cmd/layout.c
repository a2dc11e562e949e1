// SPDX-License-Identifier: GPL-2.0
/*
 * `cbenchctl layout OBJECT`: how much each benchmark's time depends on
 * where its code lies.  We calibrate, tune each benchmark as `run` does,
 * then one LAYOUT worker per benchmark measures it as loaded and at drawn
 * layouts of its code (layout_worker.c), the arena and stack left where
 * they are; the spread over layouts, with its interval, the fastest and the
 * slowest layout (replayable from the seed) go to text, JSON or HTML.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/subcommands.h"
#include "object/layout.h"
#include "report/report_layout.h"
#include "report/outfile.h"
#include "session/options.h"
#include "session/collect.h"
#include "session/session.h"
#include "stats/sequential.h"
#include "stats/stats.h"
#include "worker/layout_worker.h"

/* Limit for loading the object and for each tuning worker, in seconds. */
#define LAYOUT_LOAD_TIME_LIMIT_S 10.0
/* Drawn layouts per benchmark: the default, and the limits. */
#define LAYOUTS_DEFAULT 40
#define LAYOUTS_MAX 10000
/* A LAYOUT worker's time: this much, plus this much per layout, seconds. */
#define LAYOUT_PHASE_S 30.0
#define LAYOUT_PHASE_PER_LAYOUT_S 1.0

enum layout_format { FORMAT_TEXT, FORMAT_JSON, FORMAT_HTML };

struct layout_options {
	const char *path, *filter, *output;
	uint32_t layouts;
	double confidence;
	uint64_t seed;
	bool have_seed;
	int cpu;
	enum cbench_backend_kind backend;
	enum layout_format format;
	bool format_given;
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %s layout [options] <bench.so>\n"
		"\n"
		"How much each benchmark's time depends on where its code lies: measures it as\n"
		"loaded, then with its code laid out anew at drawn offsets, layout after layout\n"
		"(functions moved by their own alignment, within cache lines and pages; the\n"
		"arena and stack stay), and reports the spread over layouts with an interval,\n"
		"the fastest and the slowest layout.  The object must let its code move: build\n"
		"it with -ffunction-sections and link it with -Wl,-q (--emit-relocs).\n"
		"\n"
		"Options:\n"
		"  --filter REGEX      only benchmarks whose name matches\n"
		"  --layouts N         drawn layouts per benchmark, 3 to %d (default %d)\n"
		"  --confidence C      of the spread's interval: 0.99 or 99 (%%) alike (default 0.99)\n"
		"  --seed N            seed of the layouts (default: from /dev/urandom; always\n"
		"                      reported: the same seed draws the same layouts)\n"
		"  --cpu N             measure on CPU N (default: the last CPU we may use)\n"
		"  --backend KIND      user (default; auto is user here) or kmod: in ring 0,\n"
		"                      each layout's image laid out anew before its upload\n"
		"  --format FMT        text, json or html (default: json for -o FILE.json, html\n"
		"                      for -o FILE.html, else text)\n"
		"  -o, --output FILE   write the report to FILE atomically (default stdout)\n"
		"  -h, --help          show this help\n"
		"\n"
		"Exit status: 0 when every benchmark was measured; 1 when one failed or the\n"
		"object cannot be laid out; 2 when the command line is wrong.\n",
		cbench_prog, LAYOUTS_MAX, LAYOUTS_DEFAULT);
}

enum { OPT_LAYOUTS = CBENCH_OPT_OWN, OPT_CONFIDENCE, OPT_SEED };

static int take_option(void *opts, int c, const char *arg, FILE *err)
{
	struct layout_options *o = opts;
	double v;

	switch (c) {
	case OPT_LAYOUTS:
		if (cbench_parse_number(arg, &v) || v != floor(v) || v < CBENCH_LAYOUTS_MIN || v > LAYOUTS_MAX)
			return cbench_option_refuse(err, "--layouts", "a whole number from 3 to 10000", arg);
		o->layouts = (uint32_t)v;
		return 0;
	case OPT_CONFIDENCE:
		return cbench_option_confidence(arg, &o->confidence, err);
	case OPT_SEED:
		o->have_seed = true;
		return cbench_option_seed(arg, &o->seed, err);
	default:
		if (!strcmp(arg, "text") || !strcmp(arg, "json") || !strcmp(arg, "html")) {
			o->format = arg[0] == 't' ? FORMAT_TEXT : arg[0] == 'j' ? FORMAT_JSON : FORMAT_HTML;
			o->format_given = true;
			return 0;
		}
		return cbench_option_refuse(err, "--format", "text, json or html", arg);
	}
}

static int parse_options(struct layout_options *o, int argc, char *argv[])
{
	static const struct option own[] = {
		{ "layouts", required_argument, NULL, OPT_LAYOUTS },
		{ "confidence", required_argument, NULL, OPT_CONFIDENCE },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ NULL, 0, NULL, 0 },
	};
	const struct cbench_option_fields fields = {
		.filter = &o->filter, .backend = &o->backend, .cpu = &o->cpu, .output = &o->output,
	};
	int ret;

	*o = (struct layout_options){ .layouts = LAYOUTS_DEFAULT, .confidence = 0.99, .cpu = -1 };
	ret = cbench_options_parse(argc, argv, &fields, own, take_option, o, stderr);
	if (ret)
		return ret;
	if (!o->format_given)
		o->format = cbench_path_has_ext(o->output, ".json") ? FORMAT_JSON :
			    cbench_path_has_ext(o->output, ".html") ? FORMAT_HTML : FORMAT_TEXT;
	if (argc - optind != 1) {
		cbench_err("layout wants one object\n");
		return -EINVAL;
	}
	o->path = argv[optind];
	return 0;
}

/* One benchmark: tuned, then measured at its layouts, summarized into x. */
static void measure(const struct layout_options *o, const struct cbench_session *s,
		    struct cbench_layout_result *x)
{
	double limit_s = LAYOUT_PHASE_S + LAYOUT_PHASE_PER_LAYOUT_S * o->layouts;
	struct cbench_worker_job job = cbench_session_job(s, CBENCH_WORKER_LAYOUT, x->exp, limit_s);
	size_t n = (size_t)o->layouts + 1;
	double *h1 = calloc(n, sizeof(*h1)), *h2 = calloc(n, sizeof(*h2));
	char why[600];

	x->q = calloc(n, sizeof(*x->q));
	x->run_offsets = calloc(n, sizeof(*x->run_offsets));
	x->error = !h1 || !h2 || !x->q || !x->run_offsets ? -ENOMEM :
		   cbench_session_tune(s, x->exp, LAYOUT_LOAD_TIME_LIMIT_S, &x->n, why, sizeof(why));
	if (x->error) {
		snprintf(x->reason, sizeof(x->reason), "tuning failed: %s",
			 x->error == -ENOMEM ? strerror(ENOMEM) : why);
		goto out;
	}
	x->nlayouts = n;
	job.warmup_ns = 5e6;
	job.n = x->n;
	job.seed = o->seed;
	job.layouts = o->layouts;
	if (cbench_collect_layout(&job, limit_s, x, h1, h2))
		goto out;
	if (cbench_layouts_summarize(x->q, h1, h2, n, o->confidence, o->seed, &x->stats))
		x->error = -ENOMEM;
	x->sensitive = !x->error && cbench_layout_sensitive(&x->stats);
out:
	free(h1);
	free(h2);
}

/* The object's code must be able to move: 0, or -1 after saying why not. */
static int check_layout(const struct layout_options *o, struct cbench_layout_report *r,
			struct cbench_layout *own)
{
	struct cbench_layout lay;
	char err[CBENCH_ERR_LEN];

	if (cbench_layout_scan(o->path, &lay, err, sizeof(err))) {
		cbench_err("unable to lay out %s: %s\n", o->path, err);
		return -1;
	}
	cbench_layout_describe(&lay, r->moves, sizeof(r->moves));
	if (lay.mode == CBENCH_LAYOUT_NONE)
		cbench_err("unable to lay out %s: its code cannot move: %s; %s\n", o->path, lay.why,
			   CBENCH_LAYOUT_FIX);
	else if (lay.mode == CBENCH_LAYOUT_SECTIONS)
		cbench_err("%s: %s\n", o->path, r->moves);
	if (lay.mode == CBENCH_LAYOUT_NONE) {
		cbench_layout_free(&lay);
		return -1;
	}
	*own = lay;
	r->lay = own;
	return 0;
}

static int write_report(const struct layout_options *o, const struct cbench_layout_report *r,
			struct cbench_outfile *out)
{
	int ret = o->format == FORMAT_JSON ? cbench_layout_report_json(r, out->file) :
		  o->format == FORMAT_HTML ? cbench_layout_report_html(r, out->file) :
		  cbench_layout_report_text(r, out->file);

	if (!ret)
		ret = cbench_outfile_commit(out);
	if (ret)
		cbench_err("unable to write %s: %s\n", o->output ? o->output : "the report",
			   cbench_outfile_error(out, ret));
	return ret;
}

int cbench_layout_main(int argc, char *argv[])
{
	struct layout_options opt;
	struct cbench_layout_report r = { 0 };
	struct cbench_layout lay = { 0 };
	struct cbench_session s = { 0 };
	struct cbench_session_config cfg;
	struct cbench_outfile *out;
	size_t failed = 0;
	int ret, status = CBENCH_EXIT_FAILED;

	ret = parse_options(&opt, argc, argv);
	if (ret)
		return ret < 0 ? cbench_usage_error("layout", NULL) : (usage(stdout), 0);
	if (!opt.have_seed && cbench_random_seed(&opt.seed)) {
		cbench_err("unable to read a seed from /dev/urandom; give one with --seed\n");
		return status;
	}
	r = (struct cbench_layout_report){ .path = opt.path, .seed = opt.seed, .layouts = opt.layouts,
					   .confidence = opt.confidence };
	if (check_layout(&opt, &r, &lay))
		return status;
	cfg = (struct cbench_session_config){
		.cmd = "lay out", .doing = "measuring", .objects = { opt.path }, .nobjects = 1,
		.select = true, .filter = opt.filter, .quiet = -1, .cpu = opt.cpu,
		/* Ring 0 only when asked for: auto keeps layout in user mode,
		 * as it measured before cbench.ko could lay code out. */
		.user_only = opt.backend != CBENCH_BACKEND_KMOD, .backend = opt.backend,
		.load_limit_s = LAYOUT_LOAD_TIME_LIMIT_S,
	};
	if (cbench_session_open(&s, &cfg) || !(out = cbench_session_output(&s, opt.output)))
		goto out;
	r.results = calloc(s.nchosen, sizeof(*r.results));
	if (!r.results) {
		cbench_err("unable to lay out: %s\n", strerror(ENOMEM));
		goto out;
	}
	if (cbench_session_start(&s))
		goto out;
	r.timer = s.lane[0].timer;
	r.backend = s.ops->name;
	r.machine = &s.machine;
	for (; r.nresults < s.nchosen; r.nresults++) {
		r.results[r.nresults].exp = s.chosen[r.nresults];
		cbench_session_progress(&s, r.nresults, s.nchosen,
					cbench_bench_title(s.chosen[r.nresults]->report_name), "laying out");
		measure(&opt, &s, &r.results[r.nresults]);
		failed += r.results[r.nresults].error != 0;
	}
	cbench_session_progress(&s, 0, 0, NULL, NULL);
	if (!write_report(&opt, &r, out))
		status = failed ? CBENCH_EXIT_FAILED : CBENCH_EXIT_OK;
	if (failed)
		cbench_err("%zu benchmark%s failed\n", failed, failed == 1 ? "" : "s");
out:
	for (size_t i = 0; i < r.nresults; i++) {
		free(r.results[i].q);
		free(r.results[i].run_offsets);
	}
	free(r.results);
	cbench_session_close(&s);
	cbench_layout_free(&lay);
	return status;
}
