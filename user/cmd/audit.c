// SPDX-License-Identifier: GPL-2.0
/*
 * `cbenchctl audit`: is B faster than A, by how much, and how sure are we.
 * Comparing two separate runs mixes the change with whatever drifted in
 * between; an audit holds both versions in one worker on one CPU and
 * measures them in a seeded random order, round after round, until the
 * confidence sequence of sequential.h decides or the budget is spent
 * (audit_worker.c).  We calibrate once, tune each side's reps as `run`
 * does and measure both at the smaller, then run one AUDIT phase per pair.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <regex.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/audit_parts.h"
#include "cmd/subcommands.h"
#include "report/report_audit.h"
#include "object/layout.h"
#include "report/report.h"
#include "session/collect.h"
#include "session/options.h"
#include "session/select.h"
#include "session/session.h"
#include "stats/change.h"
#include "stats/sequential.h"

/* Limit for loading an object and for each tuning worker, in seconds. */
#define AUDIT_LOAD_TIME_LIMIT_S 10.0
/* What an AUDIT phase may take beyond its budget: loading, preparing, the
 * warm-up and the round in progress when the budget runs out; seconds. */
#define AUDIT_MARGIN_S 30.0

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %s audit [options] <A.so> <B.so>\n"
		"       %s audit [options] <bench.so> --a NAME --b NAME\n"
		"\n"
		"Audits B against A: both versions run in one worker on one CPU, measured in a\n"
		"seeded random order, round after round, until B is confidently faster, slower\n"
		"or equivalent within --min-effect, or the budget is spent (inconclusive).\n"
		"With two objects, every benchmark present in both (same name and parameter)\n"
		"is audited; NAME is a benchmark's id, such as add_chain or copy/size=64.\n"
		"\n"
		"Options:\n"
		"  --a NAME            A, a benchmark of the one object\n"
		"  --b NAME            B, a benchmark of the one object\n"
		"  --filter REGEX      with two objects, audit only benchmarks whose name matches\n"
		"  --confidence C      confidence of the verdicts: 0.99 or 99 (%%) alike, from\n"
		"                      0.5 (50) to below 1 (100) (default 0.99)\n"
		"  --budget SECS       wall time per benchmark before it is inconclusive (default 30)\n"
		"  --min-effect PCT    smallest change that counts, in percent (default 0.2)\n"
		"  --fail-on WHAT      slower or changed: exit status 3 when B is slower (or\n"
		"                      either) by at least --min-effect, for a CI gate; 4 when\n"
		"                      none is but an audit was inconclusive\n"
		"  --undecided WHAT    fail (default) or pass: whether an inconclusive audit\n"
		"                      fails the gate (exit status 4) or passes it\n"
		"  --seed N            seed of the random order (default: from /dev/urandom;\n"
		"                      always reported, so a run can be replayed)\n"
		"  --cpu N             measure on CPU N (default: the last CPU we may use)\n"
		"  --quiet-mode MODE   kmod: cli (interrupts off) or lvt (the local APIC's LVT\n"
		"                      entries masked), as for run\n"
		"  --no-tpoints        compare whole measurements even where both benchmarks\n"
		"                      have loop timing points (by default their per-iteration\n"
		"                      timings are compared)\n"
		"  --fixed-placement   keep each side's arena and stack where they were first\n"
		"                      placed (by default every round places both anew, so that\n"
		"                      a placement that happens to suit one side cannot pass\n"
		"                      for a difference in speed)\n"
		"  --metric M          what the rounds compare: est-cycles (each timing at the\n"
		"                      clock level the reference chain measured beside it, so a\n"
		"                      jump of the core clock is no difference between the sides;\n"
		"                      the default where the backend measures the reference) or ns\n"
		"  --fixed-layout      keep each side's code where it was loaded (by default\n"
		"                      every round lays it out anew at drawn offsets, where the\n"
		"                      object was built with -ffunction-sections and linked\n"
		"                      with -Wl,-q, so that where code happens to lie cannot\n"
		"                      pass for a difference either)\n"
		"  --backend KIND      user, kmod or auto (default auto: kmod if loaded and both\n"
		"                      objects are kernel-safe, else user); kmod measures in\n"
		"                      ring 0, interrupts off, both sides in one run of cbench.ko\n"
		"  --format FMT        text, json, go or lnt (default: lnt for -o FILE.lnt.json,\n"
		"                      json for -o FILE.json, else text; go reads with\n"
		"                      benchstat -col build; lnt is for an LNT server: B's\n"
		"                      rounds as ps_per_op, A's beside, the change in bp)\n"
		"  --machine NAME      the machine's name in an LNT report (default: the host's)\n"
		"  --order REV         the run's order in an LNT report (default: the date)\n"
		"  -o, --output FILE   write the report to FILE atomically (default stdout)\n"
		"  -h, --help          show this help\n"
		"\n"
		"Exit status: 0 when every audit reached a verdict or was inconclusive (without\n"
		"--fail-on an inconclusive audit is not a failure); 1 when one failed (a crash,\n"
		"a time-out) or an object could not be loaded; 2 when the command line is\n"
		"wrong; 3 when --fail-on's gate failed; 4 when it could not judge (an audit\n"
		"was inconclusive) and --undecided pass was not given.\n",
		cbench_prog, cbench_prog);
}

enum { OPT_A = CBENCH_OPT_OWN, OPT_B, OPT_CONFIDENCE, OPT_BUDGET, OPT_MIN_EFFECT, OPT_SEED,
       OPT_NO_TPOINTS, OPT_FIXED_PLACEMENT, OPT_FAIL_ON, OPT_MACHINE, OPT_ORDER, OPT_QUIET,
       OPT_UNDECIDED, OPT_FIXED_LAYOUT, OPT_METRIC };

/* One option with a number or a choice; 0 or -EINVAL after saying why. */
static int checked_option(struct cbench_audit_options *o, int c, const char *arg, FILE *err)
{
	switch (c) {
	case OPT_CONFIDENCE:
		return cbench_option_confidence(arg, &o->confidence, err);
	case OPT_BUDGET:
		if (cbench_parse_number(arg, &o->budget_s) || !(o->budget_s > 0) || o->budget_s > 86400)
			return cbench_option_refuse(err, "--budget",
						    "a positive number of seconds (at most a day)", arg);
		return 0;
	case OPT_MIN_EFFECT:
		if (cbench_parse_number(arg, &o->min_effect_pct) || !(o->min_effect_pct >= 0) ||
		    o->min_effect_pct >= 100)
			return cbench_option_refuse(err, "--min-effect", "a percentage from 0 to below 100",
						    arg);
		return 0;
	case OPT_SEED:
		o->have_seed = true;
		return cbench_option_seed(arg, &o->seed, err);
	case OPT_MACHINE:
		return cbench_option_name("audit", "--machine", arg, &o->machine_name, err);
	case OPT_ORDER:
		return cbench_option_name("audit", "--order", arg, &o->order, err);
	case OPT_QUIET:
		return cbench_option_quiet(arg, &o->quiet, err);
	case OPT_FAIL_ON:
		if (strcmp(arg, "slower") && strcmp(arg, "changed"))
			return cbench_option_refuse(err, "--fail-on", "slower or changed", arg);
		o->fail_on = arg[0] == 's' ? AUDIT_GATE_SLOWER : AUDIT_GATE_CHANGED;
		return 0;
	case OPT_METRIC:
		if (strcmp(arg, "ns") && strcmp(arg, "ns/op") && strcmp(arg, "est-cycles") &&
		    strcmp(arg, "est-cycles/op"))
			return cbench_option_refuse(err, "--metric", "est-cycles or ns (an audit compares "
						    "times)", arg);
		o->figure = arg[0] == 'n' ? CBENCH_AUDIT_NS : CBENCH_AUDIT_EST_CYCLES;
		return 0;
	case OPT_UNDECIDED:
		if (strcmp(arg, "pass") && strcmp(arg, "fail"))
			return cbench_option_refuse(err, "--undecided", "pass or fail", arg);
		o->undecided_pass = arg[0] == 'p';
		return 0;
	default:
		if (!strcmp(arg, "text") || !strcmp(arg, "json") || !strcmp(arg, "go") ||
		    !strcmp(arg, "lnt")) {
			o->format = arg[0] == 't' ? AUDIT_FORMAT_TEXT : arg[0] == 'j' ? AUDIT_FORMAT_JSON :
				    arg[0] == 'g' ? AUDIT_FORMAT_GO : AUDIT_FORMAT_LNT;
			o->format_given = true;
			return 0;
		}
		return cbench_option_refuse(err, "--format", "text, json, go or lnt", arg);
	}
}

/* One option into o; 0 or -EINVAL after saying why. */
static int take_option(void *opts, int c, const char *arg, FILE *err)
{
	struct cbench_audit_options *o = opts;

	if (c == OPT_A || c == OPT_B) {
		*(c == OPT_A ? &o->name_a : &o->name_b) = arg;
		return 0;
	}
	if (c == OPT_FIXED_LAYOUT) {
		o->fixed_layout = true;
		return 0;
	}
	if (c == OPT_NO_TPOINTS || c == OPT_FIXED_PLACEMENT) {
		*(c == OPT_NO_TPOINTS ? &o->no_tpoints : &o->fixed_placement) = true;
		return 0;
	}
	return checked_option(o, c, arg, err);
}

/* What the options must agree on once all are read. */
static int check_options(struct cbench_audit_options *o, int argc, char *argv[])
{
	for (int i = optind; i < argc && o->npaths < 3; i++)
		o->paths[o->npaths < 2 ? o->npaths++ : 1] = argv[i];
	if (argc - optind == 2 && !o->name_a && !o->name_b)
		return 0;
	if (argc - optind == 1 && o->name_a && o->name_b) {
		if (o->filter) {
			cbench_err("--filter goes with two objects, not with --a and --b\n");
			return -EINVAL;
		}
		return 0;
	}
	cbench_err("audit wants two objects, or one object with --a and --b\n");
	return -EINVAL;
}

int cbench_audit_options_parse(struct cbench_audit_options *o, int argc, char *argv[])
{
	static const struct option own[] = {
		{ "a", required_argument, NULL, OPT_A },
		{ "b", required_argument, NULL, OPT_B },
		{ "confidence", required_argument, NULL, OPT_CONFIDENCE },
		{ "budget", required_argument, NULL, OPT_BUDGET },
		{ "min-effect", required_argument, NULL, OPT_MIN_EFFECT },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "no-tpoints", no_argument, NULL, OPT_NO_TPOINTS },
		{ "fixed-placement", no_argument, NULL, OPT_FIXED_PLACEMENT },
		{ "fixed-layout", no_argument, NULL, OPT_FIXED_LAYOUT },
		{ "fail-on", required_argument, NULL, OPT_FAIL_ON },
		{ "machine", required_argument, NULL, OPT_MACHINE },
		{ "order", required_argument, NULL, OPT_ORDER },
		{ "quiet-mode", required_argument, NULL, OPT_QUIET },
		{ "undecided", required_argument, NULL, OPT_UNDECIDED },
		{ "metric", required_argument, NULL, OPT_METRIC },
		{ NULL, 0, NULL, 0 },
	};
	const struct cbench_option_fields fields = {
		.filter = &o->filter, .backend = &o->backend, .cpu = &o->cpu, .output = &o->output,
	};
	int ret;

	cbench_audit_options_init(o);
	ret = cbench_options_parse(argc, argv, &fields, own, take_option, o, stderr);
	if (!ret && cbench_option_quiet_check(o->quiet, o->backend, stderr))
		ret = -EINVAL;
	if (!ret && !o->format_given && cbench_path_has_ext(o->output, ".lnt.json"))
		o->format = AUDIT_FORMAT_LNT;
	else if (!ret && !o->format_given && cbench_path_has_ext(o->output, ".json"))
		o->format = AUDIT_FORMAT_JSON;
	return ret ? ret : check_options(o, argc, argv);
}

static const struct cbench_experiment *find(const struct cbench_library *lib, const char *id)
{
	for (size_t i = 0; i < lib->nexperiments; i++) {
		if (!strcmp(lib->experiments[i].id, id))
			return &lib->experiments[i];
	}
	return NULL;
}

/* The pairs of --a/--b, or of every benchmark in both objects that the
 * filter lets through.  Returns 0, or -1 after saying why. */
static int make_pairs(const struct cbench_audit_options *o, const struct cbench_library lib[2],
		      struct cbench_audit_report *r)
{
	const struct cbench_library *lb = &lib[o->npaths - 1];
	struct cbench_filter filter;

	r->pairs = calloc(lib[0].nexperiments + 1, sizeof(*r->pairs));
	if (!r->pairs) {
		cbench_err("unable to audit: out of memory\n");
		return -1;
	}
	if (o->name_a) {
		r->pairs[0].a = find(&lib[0], o->name_a);
		r->pairs[0].b = find(&lib[0], o->name_b);
		if (!r->pairs[0].a || !r->pairs[0].b) {
			cbench_err("unable to audit: no benchmark '%s' in %s (see %s list)\n", r->pairs[0].a ? o->name_b : o->name_a, o->paths[0],
				cbench_prog);
			return -1;
		}
		r->npairs = 1;
		return 0;
	}
	if (cbench_filter_init(&filter, o->filter))
		return -1;
	for (size_t i = 0; i < lib[0].nexperiments; i++) {
		const struct cbench_experiment *a = &lib[0].experiments[i];
		const struct cbench_experiment *b = find(lb, a->id);

		if (!cbench_filter_match(&filter, a))
			continue;
		if (!b) {
			cbench_err("%s is only in %s: not audited\n", a->id,
				o->paths[0]);
		} else {
			r->pairs[r->npairs].a = a;
			r->pairs[r->npairs++].b = b;
		}
	}
	for (size_t i = 0; i < lb->nexperiments; i++) {
		if (cbench_filter_match(&filter, &lb->experiments[i]) && !find(&lib[0], lb->experiments[i].id))
			cbench_err("%s is only in %s: not audited\n",
				lb->experiments[i].id, o->paths[1]);
	}
	cbench_filter_free(&filter);
	if (!r->npairs) {
		cbench_err("unable to audit: no benchmark is in both %s and %s%s%s\n", o->paths[0], o->paths[1], o->filter ? " and matches " : "",
			o->filter ? o->filter : "");
		return -1;
	}
	return 0;
}

struct audit_state {
	const struct cbench_audit_options *opt;
	struct cbench_session s;
	struct cbench_audit_report report;
};

/* Each side's converge score over the per-iteration timings of all its
 * rounds, their moments pooled (Chan et al.'s parallel update). */
static void tp_converge(struct cbench_audit_pair *p)
{
	double w[2] = { 0, 0 }, mean[2] = { 0, 0 }, m2[2] = { 0, 0 };

	for (size_t i = 0; i < p->ntp_rounds; i++) {
		const struct cbench_tp_round *r = &p->tp_rounds[i];
		uint32_t s = r->side != 0;
		double n = (double)r->iterations, delta = r->mean_ns - mean[s];

		if (!r->iterations)
			continue;
		m2[s] += r->m2 + delta * delta * w[s] * n / (w[s] + n);
		mean[s] += delta * n / (w[s] + n);
		w[s] += n;
	}
	p->timings_a = (size_t)w[0];
	p->timings_b = (size_t)w[1];
	p->converge_a = w[0] > 1 && m2[0] > 0 ? w[0] / (m2[0] / (w[0] - 1)) : NAN;
	p->converge_b = w[1] > 1 && m2[1] > 0 ? w[1] / (m2[1] / (w[1] - 1)) : NAN;
}

/* Each side's converge score over all of its timings. */
static void converge(struct cbench_audit_pair *p)
{
	if (p->tp) {
		tp_converge(p);
		return;
	}
	double *v[2];
	size_t n[2] = { 0, 0 };

	v[0] = malloc((p->ntimings + 1) * sizeof(double));
	v[1] = malloc((p->ntimings + 1) * sizeof(double));
	for (size_t i = 0; v[0] && v[1] && i < p->ntimings; i++) {
		uint32_t s = p->timings[i].side != 0;

		v[s][n[s]++] = p->timings[i].ns_per_op;
	}
	p->timings_a = n[0];
	p->timings_b = n[1];
	p->converge_a = v[0] && v[1] ? cbench_seq_converge_score(v[0], n[0]) : NAN;
	p->converge_b = v[0] && v[1] ? cbench_seq_converge_score(v[1], n[1]) : NAN;
	free(v[0]);
	free(v[1]);
}

/* Tunes both sides, then audits them in one AUDIT phase. */
static void audit_pair(struct audit_state *st, size_t i)
{
	const struct cbench_audit_options *o = st->opt;
	struct cbench_audit_pair *p = &st->report.pairs[i];
	double limit_s = o->budget_s + AUDIT_MARGIN_S;
	struct cbench_worker_job job;
	char why[600];
	int ret;

	cbench_session_progress(&st->s, i, st->report.npairs, cbench_bench_title(p->a->report_name), "tuning");
	ret = cbench_session_tune(&st->s, p->a, AUDIT_LOAD_TIME_LIMIT_S, &p->n_a, why, sizeof(why));
	if (ret) {
		p->error = ret;
		snprintf(p->reason, sizeof(p->reason), "tuning A failed: %s", why);
		return;
	}
	ret = cbench_session_tune(&st->s, p->b, AUDIT_LOAD_TIME_LIMIT_S, &p->n_b, why, sizeof(why));
	if (ret) {
		p->error = ret;
		snprintf(p->reason, sizeof(p->reason), "tuning B failed: %s", why);
		return;
	}
	/*
	 * Both sides at the same reps.  Where a benchmark's time per op
	 * depends on how long a measurement is (a cache refilled at the start
	 * of each call, a cursor that walks on), reps tuned apart would be a
	 * difference of their own: examples/suite.c's 1 MiB pointer chase,
	 * tuned to 8125 reps on one side and 6500 on the other, was called 4 %
	 * slower than itself.  The smaller keeps each side's measurements
	 * within every limit its own tuning kept them in.
	 */
	p->n_a = p->n_b = p->n_a < p->n_b ? p->n_a : p->n_b;
	cbench_session_progress(&st->s, i, st->report.npairs, cbench_bench_title(p->a->report_name), "auditing");
	job = cbench_session_job(&st->s, CBENCH_WORKER_AUDIT, p->a, limit_s);
	job.warmup_ns = 5e6;
	job.n = p->n_a;
	job.exp_b = p->b;
	job.n_b = p->n_b;
	job.seed = st->report.seed;
	job.confidence = o->confidence;
	job.min_effect = o->min_effect_pct / 100;
	job.budget_ns = o->budget_s * 1e9;
	job.no_tpoints = o->no_tpoints;
	job.fixed_placement = o->fixed_placement;
	job.fixed_layout = o->fixed_layout;
	job.figure = o->figure;
	if (!cbench_collect_audit(&job, limit_s, p))
		converge(p);
}

static int write_report(const struct audit_state *st, struct cbench_outfile *out)
{
	const struct cbench_audit_report *r = &st->report;
	int ret;

	switch (st->opt->format) {
	case AUDIT_FORMAT_JSON:
		ret = cbench_audit_report_json(r, out->file);
		break;
	case AUDIT_FORMAT_GO:
		ret = cbench_audit_report_go(r, out->file);
		break;
	case AUDIT_FORMAT_LNT: {
		const struct cbench_lnt_run l = { .machine = st->opt->machine_name,
						  .order = st->opt->order };

		ret = cbench_audit_report_lnt(r, &l, out->file);
		break;
	}
	default:
		ret = cbench_audit_report_text(r, out->file);
		break;
	}
	if (ret) {
		cbench_outfile_abort(out);
		return ret;
	}
	return cbench_outfile_commit(out);
}

/* What of each object's code can move (object/layout.h), for the report:
 * reading the file runs none of it. */
static void scan_layouts(const struct cbench_audit_options *o, const struct cbench_library lib[2],
			 struct cbench_audit_report *r)
{
	for (size_t i = 0; i < 2; i++) {
		struct cbench_layout lay;
		char err[CBENCH_ERR_LEN];

		if (cbench_layout_scan(lib[i < o->npaths ? i : 0].path, &lay, err, sizeof(err))) {
			r->layout[i].mode = CBENCH_LAYOUT_NONE;
			snprintf(r->layout[i].text, sizeof(r->layout[i].text), "not moved: %s", err);
			continue;
		}
		r->layout[i].mode = (int)lay.mode;
		cbench_layout_describe(&lay, r->layout[i].text, sizeof(r->layout[i].text));
		cbench_layout_free(&lay);
	}
}

/* Everything between good options and the report; 0, or -1 after saying why. */
static int audit_all(struct audit_state *st)
{
	struct cbench_session *s = &st->s;
	struct cbench_audit_report *r = &st->report;

	if (cbench_session_start(s))
		return -1;
	r->backend = s->ops->name;
	r->machine = s->machine;
	r->cpuenv = s->lane[0].cpuenv;
	r->timer = s->lane[0].timer;
	/* How cbench.ko kept the measurements quiet: what it told the
	 * calibration's worker. */
	snprintf(r->quiet, sizeof(r->quiet), "%s", s->lane[0].env.quiet);
	for (size_t i = 0; i < r->npairs; i++)
		audit_pair(st, i);
	cbench_session_progress(s, 0, 0, NULL, NULL);
	return 0;
}

static size_t count_failed(const struct cbench_audit_report *r)
{
	size_t failed = 0;

	for (size_t i = 0; i < r->npairs; i++)
		failed += r->pairs[i].error != 0;
	return failed;
}

/*
 * How an audit fares at the gate, by its interval as compare's rows do
 * (stats/change.h): it fails on B past --min-effect, passes B shown within
 * it (an inconclusive audit whose interval lies under the bound too), and
 * is undecided about the rest.
 */
static enum cbench_gate_answer answer(const struct cbench_audit_options *o, const struct cbench_audit_pair *p)
{
	enum cbench_verdict v = p->end.verdict;

	if (v == CBENCH_VERDICT_B_SLOWER || (v == CBENCH_VERDICT_B_FASTER && o->fail_on == AUDIT_GATE_CHANGED))
		return CBENCH_GATE_FAIL;
	if (v != CBENCH_VERDICT_UNDECIDED)
		return CBENCH_GATE_PASS;
	return cbench_change_gate(p->end.lower, p->end.upper, o->min_effect_pct / 100,
				  o->fail_on == AUDIT_GATE_CHANGED);
}

/*
 * The gate of --fail-on, in one line on stderr: which audits fail it, and
 * which it could not judge.  Returns the exit status it asks for: 3 when
 * failed; 4 when none failed but some were inconclusive, which a gate must
 * not pass as if it had judged them, unless --undecided pass; else 0.
 */
static int gate(const struct cbench_audit_options *o, const struct cbench_audit_report *r)
{
	const char *what = o->fail_on == AUDIT_GATE_SLOWER ? "slower" : "changed";
	size_t failing = 0, open = 0;

	if (o->fail_on == AUDIT_GATE_NONE)
		return 0;
	for (size_t i = 0; i < r->npairs; i++) {
		enum cbench_gate_answer a = answer(o, &r->pairs[i]);

		if (r->pairs[i].error)
			continue;
		failing += a == CBENCH_GATE_FAIL;
		open += a == CBENCH_GATE_UNDECIDED;
	}
	fprintf(stderr, "gate (--fail-on %s): %s: %zu of %zu audit%s %s by %g %% or more",
		what, failing ? "FAILED" : open && !o->undecided_pass ? "UNDECIDED" : "passed",
		failing, r->npairs, r->npairs == 1 ? "" : "s", what, o->min_effect_pct);
	for (size_t i = 0, named = 0; i < r->npairs; i++) {
		const struct cbench_audit_pair *p = &r->pairs[i];

		if (!p->error && answer(o, p) == CBENCH_GATE_UNDECIDED && named++ < 4)
			fprintf(stderr, "%s%s", named == 1 ? "; not judged: " : ", ", p->b->id);
	}
	fprintf(stderr, "%s\n", open > 4 ? ", ..." : "");
	if (failing)
		return CBENCH_EXIT_GATE;
	if (open && !o->undecided_pass) {
		fprintf(stderr, "gate: %zu inconclusive audit%s not judged (the interval reaches across "
			"--min-effect; exit status %d): give it a longer --budget, a larger --min-effect, "
			"or --undecided pass to let it pass\n",
			open, open == 1 ? "" : "s", CBENCH_EXIT_UNDECIDED);
		return CBENCH_EXIT_UNDECIDED;
	}
	return CBENCH_EXIT_OK;
}

void cbench_audit_options_init(struct cbench_audit_options *o)
{
	*o = (struct cbench_audit_options){ .confidence = 0.99, .budget_s = 30, .min_effect_pct = 0.2,
					    .cpu = -1, .quiet = -1, .figure = -1 };
}

int cbench_audit(const struct cbench_audit_options *o, const struct cbench_audit_taker *taker)
{
	struct cbench_audit_options opt = *o;
	struct audit_state st = { .opt = &opt };
	struct cbench_session_config cfg;
	struct cbench_outfile *out = NULL;
	size_t failed;
	int ret, status = 1;

	if (!opt.have_seed && cbench_random_seed(&opt.seed)) {
		cbench_err("unable to read a seed from /dev/urandom; give one with --seed\n");
		return 1;
	}
	st.report = (struct cbench_audit_report){ .seed = opt.seed, .confidence = opt.confidence,
		.budget_s = opt.budget_s, .min_effect_pct = opt.min_effect_pct,
		.no_tpoints = opt.no_tpoints, .fixed_placement = opt.fixed_placement,
		.fixed_layout = opt.fixed_layout };
	cfg = (struct cbench_session_config){
		.cmd = "audit", .doing = "auditing", .objects = { opt.paths[0], opt.paths[1] },
		.nobjects = opt.npaths, .backend = opt.backend, .quiet = opt.quiet, .cpu = opt.cpu,
		.load_limit_s = AUDIT_LOAD_TIME_LIMIT_S,
	};
	if (cbench_session_open(&st.s, &cfg) || make_pairs(&opt, st.s.lib, &st.report))
		goto out;
	if (taker && taker->quiet)
		st.s.tty = false;
	scan_layouts(&opt, st.s.lib, &st.report);
	/* A composite writes its own report from the audit's. */
	if (!taker) {
		out = cbench_session_output(&st.s, opt.output);
		if (!out)
			goto out;
	}
	if (audit_all(&st))
		goto out;
	/* The text report is the table; the others get it on stderr too. */
	if (!taker && opt.format != AUDIT_FORMAT_TEXT)
		cbench_audit_report_text(&st.report, stderr);
	ret = out ? write_report(&st, out) : 0;
	if (ret) {
		cbench_err("unable to write %s: %s\n",
			opt.output ? opt.output : "the report", cbench_outfile_error(out, ret));
		goto out;
	}
	failed = count_failed(&st.report);
	if (failed && (!taker || !taker->quiet))
		cbench_err("%zu audit%s failed\n", failed, failed == 1 ? "" : "s");
	else if (!failed)
		status = gate(&opt, &st.report);
	if (taker && taker->take(&st.report, taker->arg))
		status = 1;
out:
	for (size_t i = 0; i < st.report.npairs; i++) {
		free(st.report.pairs[i].timings);
		free(st.report.pairs[i].tp_rounds);
	}
	free(st.report.pairs);
	cbench_session_close(&st.s);
	return status;
}

int cbench_audit_main(int argc, char *argv[])
{
	struct cbench_audit_options opt;
	int ret = cbench_audit_options_parse(&opt, argc, argv);

	if (ret) {
		if (ret < 0)
			return cbench_usage_error("audit", NULL);
		usage(stdout);
		return 0;
	}
	return cbench_audit(&opt, NULL);
}
