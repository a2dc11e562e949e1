// SPDX-License-Identifier: GPL-2.0
/*
 * `cbenchctl run`'s options: its usage, each option taken, the reports
 * -o and --format ask for, and what the options must agree on.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/run_parts.h"
#include "cmd/subcommands.h"
#include "machine/cpus.h"
#include "session/options.h"
#include "store/add.h"

/* run's options on where and in what trials measure, and the foot. */
static void usage_trials(FILE *f)
{
	fputs("  --seed N            seed of the code layouts: where bench.so was built with\n"
	      "                      -ffunction-sections and linked with -Wl,-q, every two\n"
	      "                      trials lay its code out anew at a drawn layout, so a\n"
	      "                      benchmark's figure is no one layout's (default: from\n"
	      "                      /dev/urandom; always reported: the same seed draws the\n"
	      "                      same layouts)\n"
	      "  --fresh-workers     start a worker process for every trial (slower): for\n"
	      "                      objects whose benchmarks leave state for the next\n"
	      "  --fixed-layout      keep the code where it was loaded: the figure is then\n"
	      "                      that layout's\n"
	      "  --keep-shared       keep trials whose core another thread shared (a\n"
	      "                      hyperthread's sibling, another tenant's vCPU): the\n"
	      "                      host as it is; by default they are set aside and\n"
	      "                      measured again\n"
	      "  --shared-wait SECS  how long to go on measuring again trials whose core\n"
	      "                      was shared, past --trials replacements, waiting for\n"
	      "                      the core to be the run's own (default auto: as long\n"
	      "                      as the run's rounds took, 2 s at least; 0: no longer;\n"
	      "                      none with --keep-shared)\n"
	      "  -h, --help          show this help\n"
	      "\n"
	      "On a terminal each benchmark's row is shown as it finishes.  Ctrl-C stops the run\n"
	      "and keeps the trials that finished, marked as interrupted (exit status 130).\n",
	      f);
}

void cbench_run_usage(FILE *f)
{
	fprintf(f,
		"Usage: %s run [options] <bench.so>\n"
		"\n"
		"Measures every benchmark in bench.so: tunes the reps per measurement (cached),\n"
		"then runs trials round-robin in worker processes and reports one line per\n"
		"trial.  A round's trials on a CPU run one after another in one worker, so\n"
		"each benchmark's trials are each in a worker of its own.\n"
		"\n"
		"Options:\n"
		"  --filter REGEX      run only benchmarks whose name matches (POSIX extended;\n"
		"                      matched against \"add_chain\", \"copy/size=64\" and\n"
		"                      \"BenchmarkCopy/size=64\" forms)\n"
		"  --backend KIND      user, kmod or auto (default auto: kmod if loaded, else\n"
		"                      user), or both: user mode, then ring 0, in one Go report\n"
		"                      (benchstat -col backend), and what ring 0 removes,\n"
		"                      the code where it was loaded in both\n"
		"  --cpu N             measure on CPU N (default: the last CPU we may use)\n"
		"  --jobs N            measure N benchmarks at once, each on a CPU of its own\n"
		"                      (isolated CPUs first, one per core; default 1); each\n"
		"                      benchmark's last trial runs alone, and one that measures\n"
		"                      differently beside the others is named\n"
		"  --cpus LIST         the CPUs to measure on, such as 2,4-5 (one per core):\n"
		"                      all of them at once, or --jobs of them\n"
		"  --quiet-mode MODE   kmod: how cbench.ko keeps a measurement quiet: cli\n"
		"                      (interrupts off) or lvt (interrupts on, the local APIC's\n"
		"                      LVT entries masked); default the module's quiet_mode\n"
		"  --trials K          exactly K trials per benchmark, each a result line\n"
		"                      (with --precision, the most)\n"
		"  --precision PCT     stop a benchmark's trials once its headline's interval is\n"
		"                      within PCT percent of it, after 5 at least; --trials is\n"
		"                      then the most (default 50).  Without --trials or\n"
		"                      --precision a run stops at 0.05%% within --budget\n"
		"                      auto, once a benchmark's trials span as much of the\n"
		"                      run as ten would; --precision off (and --resume,\n"
		"                      --backend both) takes 10 of each\n"
		"  --budget SECONDS    with --precision: no new round of trials after this long\n"
		"                      (auto, the default without --trials or --precision:\n"
		"                      as long as 10 rounds of every benchmark would take)\n"
		"  --retune            ignore the cached reps and tune again\n"
		"  --resume REPORT     go on with the run whose JSON report this is (stopped by a\n"
		"                      signal): measure only the trials it did not finish\n"
		"                      and report them all; refused unless the object, the\n"
		"                      options, machine, kernel, CPU and backend are the same\n"
		"  -o, --output FILE   write the report to FILE atomically (default stdout when\n"
		"                      it is not a terminal; -o - prints it on one too); its\n"
		"                      name says the format: .lnt.json LNT, .bmf.json Bencher,\n"
		"                      .junit.xml JUnit, .json JSON, .csv the raw measurements\n"
		"                      (as --samples), else Go; give -o once per format to\n"
		"                      write several\n"
		"  --format FMT        go (Go benchmark data format, for benchstat), json, lnt\n"
		"                      (an LNT server's report), bmf (Bencher Metric Format) or\n"
		"                      junit (JUnit XML for Jenkins and GitLab), whatever -o's\n"
		"                      name says\n"
		"  --machine NAME      the machine's name in an LNT report (default: the host's)\n"
		"  --order REV         the run's order in an LNT report, such as the benchmarked\n"
		"                      build's revision (default: the date and time, UTC);\n"
		"                      with --store, a whole number that sorts the commits\n"
		"  --store FILE        add the run to a results store (cbenchctl store), with\n"
		"                      --commit ID and --order N, for cbenchctl history\n"
		"  --commit ID         the commit the run measured, for --store\n"
		"  --keep-object DIR   with --store: keep a copy of the object in DIR (\"store\":\n"
		"                      in the store itself, where a fleet's machines reach it)\n"
		"  --samples FILE      also write every raw measurement as CSV\n"
		"  --time-limit SECS   a trial, the tuning or loading the object that takes longer\n"
		"                      fails (default 10)\n"
		"  --trial-time SECS   how long each trial measures (default auto: 0.004 to 0.02,\n"
		"                      so that each benchmark's trials span half a second)\n"
		"  --warmup SECS       warm-up before each trial (default auto: a quarter of the\n"
		"                      trial, 0.001 to 0.005)\n",
		cbench_prog);
	usage_trials(f);
}

void cbench_run_options_init(struct cbench_run_options *o)
{
	memset(o, 0, sizeof(*o));
	o->backend = CBENCH_BACKEND_AUTO;
	o->cpu = -1;
	o->trials = CBENCH_TRIALS_DEFAULT;
	o->format = CBENCH_FORMAT_GO;
	o->time_limit_s = 10;
	o->trial_time_s = 0;		/* auto: cbench_run_trial_time() */
	o->warmup_s = 0;
	o->quiet = -1;
	o->shared_wait_s = -1;		/* auto */
}

const char *const cbench_format_names[CBENCH_FORMATS + 1] = { "go", "json", "lnt", "bmf", "junit", NULL };

enum { OPT_TRIALS = CBENCH_OPT_OWN, OPT_RETUNE, OPT_SAMPLES, OPT_TIME_LIMIT, OPT_TRIAL_TIME,
       OPT_WARMUP, OPT_MACHINE, OPT_ORDER, OPT_QUIET, OPT_STORE, OPT_COMMIT, OPT_KEEP, OPT_RESUME,
       OPT_JOBS, OPT_CPUS, OPT_SEED, OPT_FIXED_LAYOUT, OPT_PRECISION, OPT_BUDGET,
       OPT_FRESH_WORKERS, OPT_KEEP_SHARED, OPT_SHARED_WAIT };

/* One of --time-limit, --trial-time, --warmup into its field. */
static int seconds_option(struct cbench_run_options *o, int c, const char *arg, FILE *err)
{
	double *dst = c == OPT_TIME_LIMIT ? &o->time_limit_s :
		      c == OPT_TRIAL_TIME ? &o->trial_time_s : &o->warmup_s;
	/* Not argv[optind - 1]: that is the value in "--warmup 0". */
	const char *name = c == OPT_TIME_LIMIT ? "--time-limit" :
			   c == OPT_TRIAL_TIME ? "--trial-time" : "--warmup";

	if (c != OPT_TIME_LIMIT && !strcmp(arg, "auto")) {
		*dst = 0;
		return 0;
	}
	if (cbench_parse_number(arg, dst) || !(*dst > 0))
		return cbench_option_refuse(err, name, c == OPT_TIME_LIMIT ? "a positive number of seconds" :
					    "a positive number of seconds, or auto", arg);
	return 0;
}

/* --precision ("0.05%" or "0.05": percent either way) or --budget into o. */
static int precision_option(struct cbench_run_options *o, int c, const char *arg, FILE *err)
{
	double pct;
	char num[64];
	size_t len = strlen(arg);

	if (c == OPT_BUDGET) {
		if (!strcmp(arg, "auto")) {
			o->budget_s = -1;
			return 0;
		}
		if (cbench_parse_number(arg, &o->budget_s) || !(o->budget_s > 0))
			return cbench_option_refuse(err, "--budget", "a positive number of seconds, or auto",
						    arg);
		return 0;
	}
	if (!strcmp(arg, "off")) {
		o->precision = 0;
		o->precision_off = true;
		return 0;
	}
	snprintf(num, sizeof(num), "%.*s", (int)(len && arg[len - 1] == '%' ? len - 1 : len), arg);
	if (len >= sizeof(num) || cbench_parse_number(num, &pct) || !(pct > 0) || pct >= 100)
		return cbench_option_refuse(err, "--precision", "a percent above 0 and under 100 "
					    "(0.05%, or 0.05), or off", arg);
	o->precision = pct / 100;
	o->precision_off = false;
	return 0;
}

/* --shared-wait: seconds, 0 or more, or auto (-1). */
static int shared_wait_option(struct cbench_run_options *o, const char *arg, FILE *err)
{
	if (!strcmp(arg, "auto")) {
		o->shared_wait_s = -1;
		return 0;
	}
	if (cbench_parse_number(arg, &o->shared_wait_s) || !(o->shared_wait_s >= 0) ||
	    !isfinite(o->shared_wait_s))
		return cbench_option_refuse(err, "--shared-wait", "a number of seconds, 0 or more, or auto",
					    arg);
	return 0;
}

/* One option into o; 0 or -EINVAL after saying why. */
static int take_option(void *opts, int c, const char *arg, FILE *err)
{
	struct cbench_run_options *o = opts;
	char *end;
	long v;
	int i;

	switch (c) {
	case OPT_SAMPLES:
	case OPT_RESUME:
	case OPT_CPUS:
		*(c == OPT_SAMPLES ? &o->samples : c == OPT_RESUME ? &o->resume : &o->cpus) = arg;
		return 0;
	case OPT_JOBS:
		errno = 0;
		v = strtol(arg, &end, 10);
		if (errno || end == arg || *end || v < 1 || v > CBENCH_JOBS_MAX)
			return cbench_option_refuse(err, "--jobs", "a count from 1 to 64", arg);
		o->jobs = (unsigned int)v;
		return 0;
	case OPT_RETUNE:
	case OPT_FIXED_LAYOUT:
	case OPT_FRESH_WORKERS:
	case OPT_KEEP_SHARED:
		*(c == OPT_RETUNE ? &o->retune : c == OPT_FIXED_LAYOUT ? &o->fixed_layout :
		  c == OPT_FRESH_WORKERS ? &o->fresh_workers : &o->keep_shared) = true;
		return 0;
	case OPT_SHARED_WAIT:
		return shared_wait_option(o, arg, err);
	case OPT_SEED:
		o->have_seed = true;
		return cbench_option_seed(arg, &o->seed, err);
	case OPT_TRIALS:
		errno = 0;
		v = strtol(arg, &end, 10);
		if (errno || end == arg || *end || v < 1 || v > 100000)
			return cbench_option_refuse(err, "--trials", "a count from 1 to 100000", arg);
		o->trials = (unsigned int)v;
		o->trials_given = true;
		return 0;
	case OPT_PRECISION:
	case OPT_BUDGET:
		return precision_option(o, c, arg, err);
	case CBENCH_OPT_FORMAT:
		i = cbench_option_word("--format", arg, cbench_format_names, err);
		if (i < 0)
			return i;
		o->format = (enum cbench_format)i;
		o->format_given = true;
		return 0;
	case CBENCH_OPT_OUTPUT:
		if (o->noutputs == sizeof(o->outputs) / sizeof(o->outputs[0])) {
			fprintf(err, "%s: run: -o at most %zu times (one report per format, and the "
				"raw measurements)\n", cbench_prog, sizeof(o->outputs) / sizeof(o->outputs[0]));
			return -EINVAL;
		}
		o->outputs[o->noutputs++] = arg;
		return 0;
	case OPT_MACHINE:
		return cbench_option_name("run", "--machine", arg, &o->machine_name, err);
	case OPT_ORDER:
		return cbench_option_name("run", "--order", arg, &o->order, err);
	case OPT_QUIET:
		return cbench_option_quiet(arg, &o->quiet, err);
	case OPT_STORE:
	case OPT_COMMIT:
	case OPT_KEEP:
		*(c == OPT_STORE ? &o->store : c == OPT_COMMIT ? &o->commit : &o->keep_dir) = arg;
		return 0;
	case CBENCH_OPT_BACKEND:
		o->both = !strcmp(arg, "both");
		if (o->both) {
			o->backend = CBENCH_BACKEND_KMOD;
			return 0;
		}
		return cbench_option_backend(arg, &o->backend, err);
	default:
		return seconds_option(o, c, arg, err);
	}
}

/* The format -o's name says, or -1 for none (then --format's, or Go). */
static int format_of_name(const char *path)
{
	if (cbench_path_has_ext(path, ".junit.xml"))
		return CBENCH_FORMAT_JUNIT;
	if (cbench_path_has_ext(path, ".lnt.json"))
		return CBENCH_FORMAT_LNT;
	if (cbench_path_has_ext(path, ".bmf.json"))
		return CBENCH_FORMAT_BMF;
	if (cbench_path_has_ext(path, ".json"))
		return CBENCH_FORMAT_JSON;
	return -1;
}

static const char *format_title(enum cbench_format f)
{
	static const char *const titles[CBENCH_FORMATS] = { "Go", "JSON", "LNT", "BMF", "JUnit" };

	return titles[f];
}

/*
 * Each -o by its name: .csv the raw measurements, .lnt.json, .bmf.json and
 * .json the report in that format (unless --format says otherwise), any
 * other name the report in --format (Go by default); one of each at most.
 * Without -o, one report in --format to stdout.  0, or -EINVAL after
 * saying why.
 */
static int sort_outputs(struct cbench_run_options *o, FILE *err)
{
	for (unsigned int i = 0; i < o->noutputs; i++) {
		const char *p = o->outputs[i];
		int named = format_of_name(p);
		enum cbench_format f = o->format_given || named < 0 ? o->format :
								      (enum cbench_format)named;

		if (cbench_path_has_ext(p, ".csv")) {
			if (o->samples) {
				fprintf(err, "%s: run: %s and %s are both raw measurements (CSV): give "
					"one\n", cbench_prog, o->samples, p);
				return -EINVAL;
			}
			o->samples = p;
			continue;
		}
		for (unsigned int k = 0; k < o->nreports; k++) {
			if (o->reports[k].format == f) {
				fprintf(err, "%s: run: %s and %s would both be %s reports: give one -o per "
					"format (.json for JSON, .lnt.json for LNT, .bmf.json for Bencher, "
					".junit.xml for JUnit, .csv for the raw measurements)\n", cbench_prog,
					o->reports[k].path, p, format_title(f));
				return -EINVAL;
			}
		}
		o->reports[o->nreports++] = (struct cbench_run_report){ .path = p, .format = f };
	}
	if (!o->nreports)
		o->reports[o->nreports++] = (struct cbench_run_report){ .format = o->format };
	o->output = o->reports[0].path;
	return 0;
}

/* What the options must agree on once all are read. */
static int check_options(struct cbench_run_options *o, int argc, char *argv[], FILE *err)
{
	if (sort_outputs(o, err))
		return -EINVAL;
	if (optind != argc - 1) {
		fprintf(err, "%s: run wants exactly one benchmark object\n", cbench_prog);
		return -EINVAL;
	}
	o->so_path = argv[optind];
	if (cbench_option_quiet_check(o->quiet, o->backend, err))
		return -EINVAL;
	if (o->both && o->have_seed) {
		fprintf(err, "%s: run --backend both measures the code where it was loaded in both "
			"sections, so that they compare alike: --seed has no layouts to draw\n", cbench_prog);
		return -EINVAL;
	}
	if (o->both && (o->samples || o->nreports > 1 || o->reports[0].format != CBENCH_FORMAT_GO ||
			o->store)) {
		fprintf(err, "%s: run --backend both writes one Go report (a section per backend, which "
			"benchstat compares with -col backend); for JSON, LNT, BMF or the raw measurements, "
			"run each backend on its own (as for --store)\n", cbench_prog);
		return -EINVAL;
	}
	if (cbench_store_options_check(o->store, o->commit, o->order, o->keep_dir, err) ||
	    cbench_resume_options_check(o, err))
		return -EINVAL;
	if (o->cpu >= 0 && (o->jobs > 1 || o->cpus)) {
		fprintf(err, "%s: run: --cpu names one CPU; with --jobs or --cpus, give the CPUs "
			"with --cpus\n", cbench_prog);
		return -EINVAL;
	}
	if (o->both && (o->jobs > 1 || o->cpus)) {
		fprintf(err, "%s: run --backend both measures on one CPU: drop --jobs and --cpus\n",
			cbench_prog);
		return -EINVAL;
	}
	/* The default: stop where the answer is known, within the time ten
	 * trials of each would take; --trials K asks for K, and --backend
	 * both and --resume go by trials. */
	if (!o->trials_given && !(o->precision > 0) && !o->precision_off && !o->both && !o->resume) {
		o->precision = CBENCH_PRECISION_DEFAULT;
		o->precision_auto = true;
		if (!o->budget_s)
			o->budget_s = -1;
	}
	if (o->budget_s && !(o->precision > 0)) {
		fprintf(err, "%s: run --budget bounds the trials --precision adds: give --precision "
			"too (without it a run takes --trials trials of each benchmark)\n", cbench_prog);
		return -EINVAL;
	}
	if (o->precision > 0 && (o->both || o->resume)) {
		fprintf(err, "%s: run --precision cannot go with %s: give --trials instead\n", cbench_prog,
			o->both ? "--backend both" : "--resume");
		return -EINVAL;
	}
	if (o->precision > 0 && !o->trials_given)
		o->trials = CBENCH_PRECISION_MAX_TRIALS;
	if (o->precision > 0 && o->trials < CBENCH_PRECISION_MIN_TRIALS) {
		fprintf(err, "%s: run --precision takes at least %d trials a benchmark to judge its "
			"interval: give --trials %d or more (the most it may take)\n", cbench_prog,
			CBENCH_PRECISION_MIN_TRIALS, CBENCH_PRECISION_MIN_TRIALS);
		return -EINVAL;
	}
	if (o->trial_time_s >= o->time_limit_s) {
		fprintf(err, "%s: --trial-time must be shorter than --time-limit\n", cbench_prog);
		return -EINVAL;
	}
	/* A trial warms up, then measures, all within its time limit. */
	if (o->warmup_s + o->trial_time_s >= o->time_limit_s) {
		fprintf(err, "%s: --warmup (%gs) plus --trial-time (%gs) must be shorter than --time-limit (%gs)\n",
			cbench_prog, o->warmup_s, o->trial_time_s, o->time_limit_s);
		return -EINVAL;
	}
	return 0;
}

/*
 * A trial's length where --trial-time is auto: each benchmark's trials
 * should span about CBENCH_RUN_SPAN_S of the run, so that one moment of a busy
 * machine or a dip of the host's clock (a tenth of a second, often) meets
 * few of them.  A big suite's round-robin spreads them that far at the
 * shortest trials; a run of a benchmark or two needs longer ones.
 */
#define TRIAL_AUTO_MIN_S 0.004
#define TRIAL_AUTO_MAX_S 0.02
/* What a trial costs besides its warm-up and measurements, in a standing
 * worker and in one of its own (--fresh-workers): bench/night_scale.sh. */
#define TRIAL_OVERHEAD_S 0.0005
#define TRIAL_OVERHEAD_FRESH_S 0.004

void cbench_run_trial_time(const struct cbench_run_options *o, size_t benchmarks, size_t cpus,
			   bool fresh,
			   double *trial_s, double *warmup_s)
{
	/* Under --precision without --trials, the trials a benchmark
	 * takes as a rule, not the most it may. */
	double trials = o->precision > 0 && !o->trials_given ? CBENCH_TRIALS_DEFAULT : o->trials;
	double units = trials * (double)benchmarks / (double)(cpus ? cpus : 1);
	double t = o->trial_time_s;

	if (!(t > 0)) {
		/* A trial costs about 1.25 t + the overhead. */
		t = (CBENCH_RUN_SPAN_S / (units > 1 ? units : 1) -
		     (fresh ? TRIAL_OVERHEAD_FRESH_S : TRIAL_OVERHEAD_S)) / 1.25;
		t = fmin(fmax(t, TRIAL_AUTO_MIN_S), TRIAL_AUTO_MAX_S);
		t = fmin(t, o->time_limit_s / 4);
	}
	*trial_s = t;
	*warmup_s = o->warmup_s > 0 ? o->warmup_s : fmin(fmax(t / 4, 0.001), 0.005);
	*warmup_s = fmin(*warmup_s, o->time_limit_s / 4);
}

int cbench_run_options_parse(struct cbench_run_options *o, int argc, char *argv[], FILE *err)
{
	static const struct option own[] = {
		{ "trials", required_argument, NULL, OPT_TRIALS },
		{ "retune", no_argument, NULL, OPT_RETUNE },
		{ "samples", required_argument, NULL, OPT_SAMPLES },
		{ "time-limit", required_argument, NULL, OPT_TIME_LIMIT },
		{ "trial-time", required_argument, NULL, OPT_TRIAL_TIME },
		{ "warmup", required_argument, NULL, OPT_WARMUP },
		{ "machine", required_argument, NULL, OPT_MACHINE },
		{ "order", required_argument, NULL, OPT_ORDER },
		{ "quiet-mode", required_argument, NULL, OPT_QUIET },
		{ "store", required_argument, NULL, OPT_STORE },
		{ "commit", required_argument, NULL, OPT_COMMIT },
		{ "keep-object", required_argument, NULL, OPT_KEEP },
		{ "resume", required_argument, NULL, OPT_RESUME },
		{ "jobs", required_argument, NULL, OPT_JOBS },
		{ "cpus", required_argument, NULL, OPT_CPUS },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "fixed-layout", no_argument, NULL, OPT_FIXED_LAYOUT },
		{ "fresh-workers", no_argument, NULL, OPT_FRESH_WORKERS },
		{ "keep-shared", no_argument, NULL, OPT_KEEP_SHARED },
		{ "shared-wait", required_argument, NULL, OPT_SHARED_WAIT },
		{ "precision", required_argument, NULL, OPT_PRECISION },
		{ "budget", required_argument, NULL, OPT_BUDGET },
		{ NULL, 0, NULL, 0 },
	};
	/* -o may come more than once: take_option() keeps each. */
	/* --backend is ours: it takes "both" as well. */
	const struct cbench_option_fields fields = { .filter = &o->filter, .cpu = &o->cpu };
	int ret;

	cbench_run_options_init(o);
	ret = cbench_options_parse(argc, argv, &fields, own, take_option, o, err);
	return ret ? ret : check_options(o, argc, argv, err);
}

