// SPDX-License-Identifier: GPL-2.0
/*
 * `cbenchctl profile`: where each benchmark's time goes.  As `run` does, we
 * load nothing of the benchmark's here but its list, and run each one in a
 * fresh worker (phase.c) pinned to the measuring CPU, under the same time
 * limit and crash containment; the worker samples its own instruction
 * pointer (profile_worker.c) and sends counts per function.  We turn the
 * counts into shares with Wilson intervals (share.h) and report them.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/subcommands.h"
#include "report/outfile.h"
#include "report/report_profile.h"
#include "session/collect.h"
#include "session/options.h"
#include "session/session.h"
#include "stats/share.h"
#include "worker/symbols.h"

/* Mean sampling interval, in ns: 10 kHz, a tenth of the kernel's default
 * perf_event_max_sample_rate, so the kernel has no cause to throttle us. */
#define PERIOD_NS 100000ULL
/* Samples per benchmark without --samples or --ci-width: enough for an
 * interval of +-1 point at a share of 50 % (9604). */
#define DEFAULT_SAMPLES 10000
/* The width "samples needed" is given for without --ci-width: 2 points
 * (+-1). */
#define DEFAULT_WIDTH 0.02
/* At most this many samples per benchmark (--samples). */
#define SAMPLES_MAX 100000000L

enum profile_format { FORMAT_TEXT, FORMAT_JSON, FORMAT_FOLDED };

struct profile_options {
	const char *so_path;
	const char *filter;
	enum cbench_backend_kind backend;
	int cpu;
	uint64_t samples;
	bool samples_given;
	double width;			/* 0 unless --ci-width */
	double level;
	bool by_line;
	enum profile_format format;
	bool format_given;
	const char *output;
	double time_limit_s;
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %s profile [options] <bench.so>\n"
		"\n"
		"Shows where each benchmark's time goes: runs it in a worker process while perf\n"
		"samples the instruction pointer, and reports each function's share of the\n"
		"samples with its confidence interval (Wilson score), the sample count and the\n"
		"samples a narrower interval needs.  Samples outside bench.so (the harness,\n"
		"libc, the kernel) are counted and shown as such.\n"
		"\n"
		"Options:\n"
		"  --filter REGEX      profile only benchmarks whose name matches (as for run)\n"
		"  --backend KIND      user, kmod or auto (default auto); profiles are always\n"
		"                      taken in user mode: kmod says why and falls back\n"
		"  --cpu N             run on CPU N (default: the last CPU we may use)\n"
		"  --min-samples N     at least N samples per benchmark (default %d)\n"
		"  --ci-width PCT      instead, sample until the widest interval of a share of\n"
		"                      %g %% or more is at most PCT points wide (upper - lower),\n"
		"                      or the time limit comes\n"
		"  --confidence C      the intervals' confidence: 0.95 or 95 (%%) alike, from\n"
		"                      0.5 (50) to below 1 (100) (default 0.95)\n"
		"  --by KIND           function (default) or line (needs bench.so built with -g)\n"
		"  --format FMT        text (a table, default), json (with stacks), or folded\n"
		"                      (whole stacks for flame-graph tools: \"Benchmark;run;\n"
		"                      helper;libc.so.6`memcpy count\"); an -o FILE.json or\n"
		"                      FILE.folded says it unless --format does\n"
		"  -o, --output FILE   write the report to FILE atomically (default stdout)\n"
		"  --time-limit SECS   per benchmark (default 10); sampling stops at 70 %% of it\n"
		"  -h, --help          show this help\n",
		cbench_prog, DEFAULT_SAMPLES, 100 * CBENCH_PROFILE_SHARE_FLOOR);
}

static int parse_number(const char *s, double lo, double hi, double *v)
{
	return cbench_parse_number(s, v) || !(*v >= lo && *v <= hi) ? -EINVAL : 0;
}

enum { OPT_SAMPLES = CBENCH_OPT_OWN, OPT_WIDTH, OPT_CONFIDENCE, OPT_BY, OPT_TIME_LIMIT,
       OPT_NOT_SAMPLES };

/* The options that take a number; 0 or -EINVAL after saying why. */
static int parse_number_option(struct profile_options *o, int c, const char *arg, FILE *err)
{
	double v;

	switch (c) {
	case OPT_SAMPLES:
		if (parse_number(arg, 1, SAMPLES_MAX, &v) || v != floor(v)) {
			fprintf(err, "%s: --min-samples wants a count from 1 to %ld, not '%s'\n", cbench_prog,
				SAMPLES_MAX, arg);
			return -EINVAL;
		}
		o->samples = (uint64_t)v;
		o->samples_given = true;
		return 0;
	case OPT_WIDTH:
		if (parse_number(arg, 0, 100, &v) || !(v > 0))
			return cbench_option_refuse(err, "--ci-width", "a width in percentage points, "
						    "above 0 and at most 100", arg);
		o->width = v / 100;
		return 0;
	case OPT_CONFIDENCE:
		return cbench_option_confidence(arg, &o->level, err);
	case OPT_NOT_SAMPLES:
		/* One option, one meaning: run's --samples is a file. */
		fprintf(err, "%s: profile: the samples per benchmark are --min-samples N (--samples "
			"FILE is run's, for raw measurements)\n", cbench_prog);
		return -EINVAL;
	default:
		if (parse_number(arg, 0, 1e6, &v) || !(v > 0))
			return cbench_option_refuse(err, "--time-limit", "a positive number of seconds",
						    arg);
		o->time_limit_s = v;
		return 0;
	}
}

/* One option into o; 0 or -EINVAL after saying why. */
static int take_option(void *opts, int c, const char *arg, FILE *err)
{
	static const char *const bys[] = { "function", "line", NULL };
	static const char *const formats[] = { "text", "json", "folded", NULL };
	static const enum profile_format format_of[] = { FORMAT_TEXT, FORMAT_JSON, FORMAT_FOLDED };
	struct profile_options *o = opts;
	int i;

	switch (c) {
	case OPT_BY:
		i = cbench_option_word("--by", arg, bys, err);
		o->by_line = i == 1;
		return i < 0 ? i : 0;
	case CBENCH_OPT_FORMAT:
		i = cbench_option_word("--format", arg, formats, err);
		if (i >= 0)
			o->format = format_of[i];
		o->format_given = true;
		return i < 0 ? i : 0;
	default:
		return parse_number_option(o, c, arg, err);
	}
}

static int parse_options(struct profile_options *o, int argc, char *argv[], FILE *err)
{
	static const struct option own[] = {
		{ "min-samples", required_argument, NULL, OPT_SAMPLES },
		{ "samples", required_argument, NULL, OPT_NOT_SAMPLES },
		{ "ci-width", required_argument, NULL, OPT_WIDTH },
		{ "confidence", required_argument, NULL, OPT_CONFIDENCE },
		{ "by", required_argument, NULL, OPT_BY },
		{ "time-limit", required_argument, NULL, OPT_TIME_LIMIT },
		{ NULL, 0, NULL, 0 },
	};
	const struct cbench_option_fields fields = {
		.filter = &o->filter, .backend = &o->backend, .cpu = &o->cpu, .output = &o->output,
	};
	int ret;

	memset(o, 0, sizeof(*o));
	o->backend = CBENCH_BACKEND_AUTO;
	o->cpu = -1;
	o->samples = DEFAULT_SAMPLES;
	o->level = 0.95;
	o->time_limit_s = 10;
	ret = cbench_options_parse(argc, argv, &fields, own, take_option, o, err);
	if (ret)
		return ret;
	/* -o's name says the format unless --format does. */
	if (!o->format_given && cbench_path_has_ext(o->output, ".json"))
		o->format = FORMAT_JSON;
	else if (!o->format_given && cbench_path_has_ext(o->output, ".folded"))
		o->format = FORMAT_FOLDED;
	if (o->samples_given && o->width > 0) {
		fprintf(err, "%s: --min-samples and --ci-width are two ways to say when to stop: give one\n",
			cbench_prog);
		return -EINVAL;
	}
	if (o->width > 0)
		o->samples = 0;
	if (optind != argc - 1) {
		fprintf(err, "%s: profile wants exactly one benchmark object\n", cbench_prog);
		return -EINVAL;
	}
	o->so_path = argv[optind];
	return 0;
}

/* Whether perf has a core PMU here: "cpu" (or a hybrid core's) among its
 * event sources.  VMs without a virtual PMU have none. */
static bool pmu_exposed(void)
{
	return !access("/sys/bus/event_source/devices/cpu", F_OK) ||
	       !access("/sys/bus/event_source/devices/cpu_core", F_OK);
}

static int by_count(const void *a, const void *b)
{
	const struct cbench_profile_share *x = a, *y = b;

	if (x->group->count != y->group->count)
		return (x->group->count < y->group->count) - (x->group->count > y->group->count);
	return strcmp(x->group->name, y->group->name);
}

/* Most samples first, then by frames: the same profile, the same order. */
static int by_stack_count(const void *a, const void *b)
{
	const struct cbench_profile_stack *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return strcmp(x->frames, y->frames);
}

static bool in_object_group(const struct cbench_profile_group *g)
{
	return g->where == CBENCH_PROFILE_FUNCTION || g->where == CBENCH_PROFILE_NO_SYMBOL;
}

int cbench_profile_summarize(struct cbench_profile_report *r)
{
	for (size_t i = 0; i < r->nresults; i++) {
		struct cbench_profile_result *res = &r->results[i];
		uint64_t n = 0, in_object = 0;

		res->widest = 0;
		res->needed = 0;
		if (res->error)
			continue;
		if (res->nstacks)
			qsort(res->stacks, res->nstacks, sizeof(*res->stacks), by_stack_count);
		for (size_t g = 0; g < res->ngroups; g++) {
			n += res->groups[g].count;
			if (in_object_group(&res->groups[g]))
				in_object += res->groups[g].count;
		}
		res->shares = calloc(res->ngroups ? res->ngroups : 1, sizeof(*res->shares));
		if (!res->shares)
			return -ENOMEM;
		for (size_t g = 0; g < res->ngroups; g++) {
			struct cbench_profile_share *s = &res->shares[g];

			s->group = &res->groups[g];
			s->share = n ? (double)s->group->count / (double)n : 0;
			cbench_share_wilson(s->group->count, n, r->z, &s->lower, &s->upper);
			s->needed = cbench_share_needed(s->share, r->width, r->z);
			s->object_share = s->object_lower = s->object_upper = NAN;
			if (in_object_group(s->group) && in_object) {
				s->object_share = (double)s->group->count / (double)in_object;
				cbench_share_wilson(s->group->count, in_object, r->z, &s->object_lower,
						    &s->object_upper);
			}
			if (s->share >= CBENCH_PROFILE_SHARE_FLOOR) {
				if (s->upper - s->lower > res->widest)
					res->widest = s->upper - s->lower;
				if (s->needed > res->needed)
					res->needed = s->needed;
			}
		}
		qsort(res->shares, res->ngroups, sizeof(*res->shares), by_count);
	}
	return 0;
}

struct profile_state {
	const struct profile_options *opt;
	struct cbench_session s;
	struct cbench_profile_job job;
	struct cbench_profile_report report;
};

static void profile_one(struct profile_state *st, size_t index)
{
	struct cbench_profile_result *res = &st->report.results[index];
	struct cbench_worker_job job = cbench_session_job(&st->s, CBENCH_WORKER_PROFILE, res->exp,
							  st->opt->time_limit_s);

	cbench_session_progress(&st->s, index, st->s.nchosen, cbench_bench_title(res->exp->report_name), "profiling");
	job.profile = &st->job;
	if (!cbench_collect_profile(&job, st->opt->time_limit_s, res) && !res->info.samples) {
		res->error = -ENODATA;
		snprintf(res->reason, sizeof(res->reason), "no sample arrived in %.3g s of sampling",
			 res->info.sampling_ns * 1e-9);
	}
}

static int write_report(const struct profile_options *opt, const struct cbench_profile_report *r, FILE *f)
{
	switch (opt->format) {
	case FORMAT_JSON:
		return cbench_profile_report_json(r, f);
	case FORMAT_FOLDED:
		return cbench_profile_report_folded(r, f);
	default:
		return cbench_profile_report_text(r, f);
	}
}

/*
 * In ring 0 with interrupts off, only the PMU's overflow NMIs could
 * sample, and cbench.ko takes none: profiles are user mode's.  We never
 * make up samples for a backend that cannot take them.
 */
static void backend_note(const struct profile_options *opt, struct cbench_profile_report *report)
{
	report->backend = "user";
	if (opt->backend != CBENCH_BACKEND_KMOD)
		return;
	report->backend_note = pmu_exposed() ?
		"cbench.ko does not sample in ring 0 (it would take the PMU's overflow NMIs, "
		"which it does not yet): profiling in user mode" :
		"ring-0 profiling needs a PMU (with interrupts off only its overflow NMIs can "
		"sample), and this machine exposes none: profiling in user mode";
	cbench_err("%s\n", report->backend_note);
}

/* Reading the symbols (and lines) before any worker makes an object without
 * debug information a clear error, not one per worker.  0, or -1 after
 * saying why. */
static int check_symbols(const struct profile_options *opt, const struct cbench_library *lib)
{
	struct cbench_symbols *symbols = NULL;
	char err[CBENCH_ERR_LEN];

	if (cbench_symbols_open(&symbols, lib->path, opt->by_line, err, sizeof(err))) {
		cbench_err("unable to profile --by %s: %s\n", opt->by_line ? "line" : "function", err);
		return -1;
	}
	cbench_symbols_close(symbols);
	return 0;
}

/* Estimates, the table, the report into place.  Returns 0 or -1 after
 * saying why. */
static int finish(const struct profile_options *opt, struct cbench_profile_report *report,
		  struct cbench_outfile *out)
{
	int ret = cbench_profile_summarize(report);

	if (ret) {
		cbench_err("unable to profile: %s\n", strerror(-ret));
		return -1;
	}
	/* The table goes to the terminal whenever the report itself is not it. */
	if (opt->format != FORMAT_TEXT || opt->output)
		cbench_profile_report_text(report, stderr);
	ret = write_report(opt, report, out->file);
	ret = ret ? ret : cbench_outfile_commit(out);
	if (ret) {
		cbench_err("unable to write %s: %s\n",
			opt->output ? opt->output : "the report", strerror(-ret));
		return -1;
	}
	for (size_t i = 0; i < report->nresults; i++) {
		if (report->results[i].error)
			cbench_err("unable to profile %s: %s\n",
				report->results[i].exp->report_name, report->results[i].reason);
	}
	return 0;
}

static void report_init(struct cbench_profile_report *report, const struct profile_options *opt,
			const struct cbench_library *lib, int cpu)
{
	report->nresults = 0;
	report->so_path = lib->path;
	report->build_id = lib->build_id;
	report->version = CBENCH_VERSION;
	report->cpu = cpu;
	report->level = opt->level;
	report->z = cbench_share_z(opt->level);
	report->width = opt->width > 0 ? opt->width : DEFAULT_WIDTH;
	report->width_requested = opt->width > 0;
	report->samples_requested = opt->samples;
	report->by_line = opt->by_line;
	/* Flame graphs and tools want stacks; the table is by leaf. */
	report->stacks = opt->format != FORMAT_TEXT;
}

int cbench_profile_main(int argc, char *argv[])
{
	struct profile_options opt;
	struct profile_state st = { .opt = &opt };
	struct cbench_profile_report *report = &st.report;
	struct cbench_session_config cfg;
	struct cbench_outfile *out;
	size_t failed = 0;
	int ret, status = 1;

	ret = parse_options(&opt, argc, argv, stderr);
	if (ret) {
		if (ret < 0)
			return cbench_usage_error("profile", NULL);
		usage(stdout);
		return 0;
	}
	backend_note(&opt, report);
	cfg = (struct cbench_session_config){
		.cmd = "profile", .doing = "profiling", .objects = { opt.so_path }, .nobjects = 1,
		.select = true, .filter = opt.filter, .user_only = true, .quiet = -1, .cpu = opt.cpu,
		.load_limit_s = opt.time_limit_s, .no_timer = true,
	};
	if (cbench_session_open(&st.s, &cfg) || check_symbols(&opt, &st.s.lib[0]))
		goto out;
	out = cbench_session_output(&st.s, opt.output);
	if (!out)
		goto out;
	report->results = calloc(st.s.nchosen, sizeof(*report->results));
	if (!report->results) {
		cbench_err("unable to profile: out of memory\n");
		goto out;
	}
	if (cbench_session_start(&st.s))
		goto out;
	report_init(report, &opt, &st.s.lib[0], st.s.lane[0].cpu);
	report->machine = &st.s.machine;
	st.job = (struct cbench_profile_job){
		.samples = opt.samples,
		.width = opt.width,
		.z = report->z,
		.by_line = opt.by_line,
		.stacks = report->stacks,
		.period_ns = PERIOD_NS,
	};
	for (; report->nresults < st.s.nchosen; report->nresults++) {
		report->results[report->nresults].exp = st.s.chosen[report->nresults];
		profile_one(&st, report->nresults);
		failed += report->results[report->nresults].error != 0;
	}
	cbench_session_progress(&st.s, 0, 0, NULL, NULL);
	if (!finish(&opt, report, out))
		status = failed ? 1 : 0;
out:
	for (size_t i = 0; i < report->nresults; i++) {
		free(report->results[i].groups);
		free(report->results[i].stacks);
		free(report->results[i].shares);
	}
	free(report->results);
	cbench_session_close(&st.s);
	return status;
}
