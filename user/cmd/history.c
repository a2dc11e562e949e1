// SPDX-License-Identifier: GPL-2.0
/*
 * `cbenchctl history`: which commit made a benchmark slower.  Per series
 * of a store (one benchmark of one object on one machine and backend), the
 * change points over its runs in commit order (store/history.h), each with
 * its step and interval, the commits between the runs either side that no
 * run measured, and, with --confirm, an audit of the objects kept either
 * side (session/confirm.h): a change counts only once the audit calls it
 * the same way.  --fail-on makes it a CI gate over a series; --next says
 * which untested commit to measure to narrow a change down to one.
 */
#include <errno.h>
#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/audit_parts.h"
#include "cmd/subcommands.h"
#include "error.h"
#include "report/report_audit.h"
#include "report/report_history.h"
#include "report/outfile.h"
#include "session/confirm.h"
#include "session/options.h"
#include "stats/change.h"
#include "store/history.h"
#include "store/objects.h"
#include "store/run.h"
#include "store/series.h"

enum history_format { FORMAT_TEXT, FORMAT_JSON, FORMAT_CSV, FORMAT_HTML };

static const char *const format_names[] = { "text", "json", "csv", "html", NULL };

struct history_options {
	const char *store, *machine, *object, *backend, *filter, *output, *commits, *since;
	int metric;
	struct cbench_cp_params params;
	bool confirm, next, undecided_pass;
	enum { GATE_NONE, GATE_SLOWER, GATE_CHANGED } fail_on;
	double budget_s;
	int cpu;
	enum history_format format;
	bool format_given;
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %s history [options] <store>\n"
		"\n"
		"Finds, in each series of the store (one benchmark of one object on one machine\n"
		"and backend, its runs in order), the change points: where its level moved, by\n"
		"how much (with an interval), and which commits no run measured between the last\n"
		"run before and the first after.  The whole series is segmented at once (PELT,\n"
		"each run weighed by its own uncertainty), and each change point tested against\n"
		"the segments either side (t test); a slow drift is no change point.\n"
		"\n"
		"Options:\n"
		"  --confirm           audit the objects kept either side of each change point\n"
		"                      (cbenchctl audit, here): confirmed only if the audit calls\n"
		"                      it the same way\n"
		"  --fail-on WHAT      slower or changed: a gate on the newest work (the newest\n"
		"                      commit, or every commit after --since): exit status 3\n"
		"                      when its level is slower (changed) than the runs before it\n"
		"                      by --min-effect or more, the whole interval past it; a\n"
		"                      slowdown later undone passes; with --confirm, only once\n"
		"                      the audit confirms it\n"
		"  --since ORDER|COMMIT  the newest work is every run after this order (commit)\n"
		"  --undecided WHAT    fail (default) or pass: the gate's answer where the\n"
		"                      interval reaches across --min-effect (exit status 4)\n"
		"  --next              print the untested commits to measure next (bisection),\n"
		"                      then the runs set aside to measure again: ORDER COMMIT\n"
		"                      and why, one line each\n"
		"  --commits FILE      lines \"ORDER COMMIT\": names the untested commits\n"
		"  --machine NAME      only this machine's series\n"
		"  --object NAME       only this object's (its file name)\n"
		"  --backend KIND      only user's or kmod's\n"
		"  --filter REGEX      only benchmarks whose name matches, as run and list take\n"
		"                      it: \"copy/size=64\", \"BenchmarkCopy/size=64\" or the\n"
		"                      store's \"Copy/size=64\"\n"
		"  --metric M          ns, est-cycles, instructions, cycles or ref-cycles\n"
		"                      (default est-cycles where every run has it, else ns)\n"
		"  --max-p P           the change points' significance (default %g)\n"
		"  --min-effect PCT    smallest change that counts, in percent, for the\n"
		"                      detector and the audits (default 0.2)\n"
		"  --window N          search in windows of N runs as Otava does (E-Divisive);\n"
		"                      default: the whole series at once (PELT)\n"
		"  --confidence C      of each step's interval and of the audits (default 0.99)\n"
		"  --budget SECS       per audit (default 30)\n"
		"  --cpu N             the audits' CPU\n"
		"  --format FMT        text, json, csv (Apache Otava's, one object on one machine)\n"
		"                      or html (a plot per series)\n"
		"  -o, --output FILE   write the report to FILE atomically (default stdout)\n"
		"  -h, --help          show this help\n"
		"\n"
		"Exit status: 0, 1 when the store cannot be read, an audit failed or the gate\n"
		"selected no series, 2 when the command line is wrong, 3 when --fail-on's gate\n"
		"failed, 4 when it could not judge a series (unless --undecided pass).\n",
		cbench_prog, CBENCH_CP_MAX_P);
}

enum { OPT_CONFIRM = CBENCH_OPT_OWN, OPT_FAIL_ON, OPT_NEXT, OPT_COMMITS, OPT_MACHINE, OPT_OBJECT,
       OPT_METRIC, OPT_MAX_P, OPT_MIN_EFFECT, OPT_WINDOW, OPT_CONFIDENCE, OPT_BUDGET, OPT_SINCE,
       OPT_UNDECIDED };

/* The options with a number; 0 or -EINVAL after saying why. */
static int number_option(struct history_options *o, int c, const char *arg, FILE *err)
{
	double v;

	if (c == OPT_CONFIDENCE)
		return cbench_option_confidence(arg, &o->params.confidence, err);
	if (cbench_parse_number(arg, &v))
		v = NAN;
	switch (c) {
	case OPT_MAX_P:
		if (!(v > 0 && v < 1))
			return cbench_option_refuse(err, "--max-p", "a probability above 0 and below 1", arg);
		o->params.max_p = v;
		return 0;
	case OPT_MIN_EFFECT:
		if (!(v >= 0 && v < 100))
			return cbench_option_refuse(err, "--min-effect", "a percentage from 0 to below 100",
						    arg);
		o->params.min_effect = v / 100;
		return 0;
	case OPT_WINDOW:
		if (!(v >= 4 && v <= CBENCH_CP_WINDOW_MAX) || v != floor(v))
			return cbench_option_refuse(err, "--window", "a whole number of runs from 4 to 2000",
						    arg);
		o->params.window = (size_t)v;
		return 0;
	default:
		if (!(v > 0 && v <= 86400))
			return cbench_option_refuse(err, "--budget", "a positive number of seconds (at most "
						    "a day)", arg);
		o->budget_s = v;
		return 0;
	}
}

static int take_option(void *opts, int c, const char *arg, FILE *err)
{
	struct history_options *o = opts;
	int i;

	switch (c) {
	case OPT_CONFIRM:
		o->confirm = true;
		return 0;
	case OPT_NEXT:
		o->next = true;
		return 0;
	case OPT_FAIL_ON:
		if (strcmp(arg, "slower") && strcmp(arg, "changed"))
			return cbench_option_refuse(err, "--fail-on", "slower or changed", arg);
		o->fail_on = arg[0] == 's' ? GATE_SLOWER : GATE_CHANGED;
		return 0;
	case OPT_COMMITS:
		o->commits = arg;
		return 0;
	case OPT_SINCE:
		return cbench_option_name("history", "--since", arg, &o->since, err);
	case OPT_UNDECIDED:
		if (strcmp(arg, "pass") && strcmp(arg, "fail"))
			return cbench_option_refuse(err, "--undecided", "pass or fail", arg);
		o->undecided_pass = arg[0] == 'p';
		return 0;
	case OPT_MACHINE:
		return cbench_option_name("history", "--machine", arg, &o->machine, err);
	case OPT_OBJECT:
		return cbench_option_name("history", "--object", arg, &o->object, err);
	case OPT_METRIC:
		o->metric = cbench_option_word("--metric", arg, cbench_metric_names, err);
		return o->metric < 0 ? -EINVAL : 0;
	case CBENCH_OPT_BACKEND:
		if (strcmp(arg, "user") && strcmp(arg, "kmod"))
			return cbench_option_refuse(err, "--backend", "user or kmod", arg);
		o->backend = arg;
		return 0;
	case CBENCH_OPT_FORMAT:
		i = cbench_option_word("--format", arg, format_names, err);
		if (i < 0)
			return i;
		o->format = (enum history_format)i;
		o->format_given = true;
		return 0;
	default:
		return number_option(o, c, arg, err);
	}
}

/* The options; 0, 1 for --help, or -EINVAL after saying why. */
static int parse(struct history_options *o, int argc, char *argv[])
{
	static const struct option own[] = {
		{ "confirm", no_argument, NULL, OPT_CONFIRM },
		{ "fail-on", required_argument, NULL, OPT_FAIL_ON },
		{ "next", no_argument, NULL, OPT_NEXT },
		{ "commits", required_argument, NULL, OPT_COMMITS },
		{ "machine", required_argument, NULL, OPT_MACHINE },
		{ "object", required_argument, NULL, OPT_OBJECT },
		{ "metric", required_argument, NULL, OPT_METRIC },
		{ "max-p", required_argument, NULL, OPT_MAX_P },
		{ "min-effect", required_argument, NULL, OPT_MIN_EFFECT },
		{ "window", required_argument, NULL, OPT_WINDOW },
		{ "confidence", required_argument, NULL, OPT_CONFIDENCE },
		{ "budget", required_argument, NULL, OPT_BUDGET },
		{ "since", required_argument, NULL, OPT_SINCE },
		{ "undecided", required_argument, NULL, OPT_UNDECIDED },
		{ NULL, 0, NULL, 0 },
	};
	const struct cbench_option_fields fields = { .filter = &o->filter, .cpu = &o->cpu,
						     .output = &o->output };
	int ret;

	*o = (struct history_options){
		.metric = -1, .budget_s = 30, .cpu = -1,
		.params = CBENCH_HISTORY_PARAMS_DEFAULT,
	};
	ret = cbench_options_parse(argc, argv, &fields, own, take_option, o, stderr);
	if (ret)
		return ret;
	if (optind != argc - 1) {
		cbench_err("history wants one store\n");
		return -EINVAL;
	}
	o->store = argv[optind];
	if (o->fail_on == GATE_NONE && o->since) {
		cbench_err("history --since says what the gate looks at: give --fail-on too\n");
		return -EINVAL;
	}
	if (o->next && o->format != FORMAT_TEXT) {
		cbench_err("history --next prints lines of text; --format goes without it\n");
		return -EINVAL;
	}
	if (!o->format_given && cbench_path_has_ext(o->output, ".json"))
		o->format = FORMAT_JSON;
	else if (!o->format_given && cbench_path_has_ext(o->output, ".csv"))
		o->format = FORMAT_CSV;
	else if (!o->format_given && (cbench_path_has_ext(o->output, ".html")))
		o->format = FORMAT_HTML;
	return 0;
}

/* --commits FILE: "ORDER COMMIT" lines; names each change's next commit. */
static int name_commits(const char *path, struct cbench_history *h)
{
	FILE *f = fopen(path, "re");
	char line[1024], commit[512];
	long long order;

	if (!f) {
		cbench_err("unable to read %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lld %511s", &order, commit) != 2)
			continue;
		for (size_t i = 0; i < h->nseries; i++) {
			for (size_t k = 0; k < h->series[i].nchanges; k++) {
				struct cbench_history_change *c = &h->series[i].changes[k];

				if (c->next_order == order && !c->next_commit)
					c->next_commit = strdup(commit);
			}
		}
	}
	fclose(f);
	return 0;
}

/* The audit's first pair (the one benchmark audited) into its verdict. */
static int take_audit(const struct cbench_audit_report *r, void *arg)
{
	struct cbench_confirm_audit *v = arg;
	const struct cbench_audit_pair *p = r->npairs ? &r->pairs[0] : NULL;

	v->ran = true;
	if (!p) {
		snprintf(v->error, sizeof(v->error), "the audit has no pair of this benchmark");
		return 0;
	}
	snprintf(v->verdict, sizeof(v->verdict), "%s", cbench_audit_verdict_name(p));
	if (p->error) {
		snprintf(v->error, sizeof(v->error), "%s", p->reason);
		return 0;
	}
	v->change = p->end.change * 100;
	v->lower = p->end.lower * 100;
	v->upper = p->end.upper * 100;
	return 0;
}

/* A change point's audit, in this process (session/confirm.h). */
static int audit_sides(const struct cbench_confirm_options *co, const char *backend,
		       const char *filter, const char *a, const char *b, struct cbench_confirm_audit *v)
{
	struct cbench_audit_options ao;
	const struct cbench_audit_taker taker = { .take = take_audit, .arg = v, .quiet = true };

	cbench_audit_options_init(&ao);
	ao.paths[0] = a;
	ao.paths[1] = b;
	ao.npaths = 2;
	ao.filter = filter;
	cbench_backend_parse(backend, &ao.backend);
	ao.min_effect_pct = co->min_effect_pct;
	ao.confidence = co->confidence;
	ao.budget_s = co->budget_s;
	ao.cpu = co->cpu;
	cbench_err_take(NULL, 0);
	cbench_audit(&ao, &taker);
	/* An audit that could not begin said why: that is the reason. */
	if (!v->ran) {
		cbench_err_take(v->error, sizeof(v->error));
		if (!*v->error)
			snprintf(v->error, sizeof(v->error), "no audit ran");
	}
	return v->ran ? 0 : -1;
}

/* Audits every change point; the count of audits that failed. */
static size_t confirm_all(const struct history_options *o, struct cbench_history *h)
{
	char dir[] = "/tmp/cbench-history.XXXXXX";
	struct cbench_confirm_options co = { .min_effect_pct = 100 * o->params.min_effect,
					     .confidence = o->params.confidence, .budget_s = o->budget_s,
					     .cpu = o->cpu, .dir = dir, .store = o->store,
					     .audit = audit_sides };
	size_t failed = 0, serial = 0;

	h->confirm = true;
	if (!mkdtemp(dir)) {
		cbench_err("unable to make a directory for the audits: %s\n", strerror(errno));
		return 1;
	}
	for (size_t i = 0; i < h->nseries; i++) {
		for (size_t k = 0; k < h->series[i].nchanges; k++)
			failed += (size_t)cbench_session_confirm(&co, &h->series[i],
								 &h->series[i].changes[k], serial++);
	}
	cbench_store_scratch_remove(dir);
	return failed;
}

/* --next's lines for the runs set aside (one run alone): each order once,
 * to measure again; how many. */
static size_t next_again(const struct cbench_history *h, FILE *f)
{
	size_t lines = 0;

	for (size_t i = 0; i < h->nseries; i++) {
		const struct cbench_history_series *s = &h->series[i];

		for (size_t k = 0; k < s->nexcursions; k++) {
			const struct cbench_history_point *x = &s->points[s->excursions[k].index];
			bool seen = false;

			for (size_t j = 0; j <= i && !seen; j++) {
				const struct cbench_history_series *t = &h->series[j];

				for (size_t l = 0; l < (j < i ? t->nexcursions : k) && !seen; l++)
					seen = t->points[t->excursions[l].index].order == x->order;
			}
			if (seen)
				continue;
			fprintf(f, "%lld %s  %s on %s: %+.2f %% alone at order %lld, set aside: measure it "
				"again\n", x->order, x->commit, s->name, s->machine,
				100 * s->excursions[k].change, x->order);
			lines++;
		}
	}
	return lines;
}

/* --next: one line per order to measure, the first change point it narrows;
 * then each run set aside, to measure again. */
static void next(const struct history_options *o, const struct cbench_history *h, FILE *f)
{
	size_t lines = 0;

	for (size_t i = 0; i < h->nseries; i++) {
		const struct cbench_history_series *s = &h->series[i];

		for (size_t k = 0; k < s->nchanges; k++) {
			const struct cbench_history_change *c = &s->changes[k];
			const struct cbench_history_point *a = &s->points[c->cp.last];
			const struct cbench_history_point *b = &s->points[c->cp.index];
			bool seen = false;

			if (c->next_order < 0 || (o->confirm && c->confirm != CBENCH_CONFIRM_YES))
				continue;
			for (size_t j = 0; j <= i && !seen; j++) {
				for (size_t l = 0; l < (j < i ? h->series[j].nchanges : k) && !seen; l++)
					seen = h->series[j].changes[l].next_order == c->next_order;
			}
			if (seen)
				continue;
			fprintf(f, "%lld %s  %s on %s: %+.2f %% between order %lld (%s) and %lld (%s), %lld "
				"untested\n", c->next_order, c->next_commit ? c->next_commit : "-", s->name,
				s->machine, 100 * c->cp.change, a->order, a->commit, b->order, b->commit,
				c->untested);
			lines++;
		}
	}
	lines += next_again(h, f);
	if (!lines)
		fprintf(stderr, "%s: history: nothing to measure next: every %schange point is pinned "
			"to one commit\n", cbench_prog, o->confirm ? "confirmed " : "");
}

static int write_report(const struct history_options *o, const struct cbench_history *h)
{
	struct cbench_outfile out = { 0 };
	int ret = cbench_outfile_open(&out, o->output);

	if (ret) {
		cbench_err("unable to write %s: %s\n", o->output, cbench_outfile_error(&out, ret));
		return -1;
	}
	if (o->next) {
		next(o, h, out.file);
		ret = ferror(out.file) ? -EIO : 0;
	} else if (o->format == FORMAT_JSON) {
		ret = cbench_history_report_json(h, out.file);
	} else if (o->format == FORMAT_CSV) {
		ret = cbench_history_report_csv(h, out.file);
	} else if (o->format == FORMAT_HTML) {
		ret = cbench_history_report_html(h, out.file);
	} else {
		ret = cbench_history_report_text(h, out.file);
	}
	if (ret == -EINVAL) {
		cbench_outfile_abort(&out);
		cbench_err("unable to write Otava's CSV: it holds one object on one machine and backend; "
			   "choose with --machine, --object and --backend\n");
		return -1;
	}
	ret = ret ? ret : cbench_outfile_commit(&out);
	if (ret) {
		cbench_err("unable to write %s: %s\n", o->output ? o->output : "the report",
			   cbench_outfile_error(&out, ret));
		cbench_outfile_abort(&out);
		return -1;
	}
	return 0;
}

/* How the gate answers series s: --confirm's audit has the last word on a
 * change point the newest level began at. */
static int answer(const struct history_options *o, const struct cbench_history_series *s,
		  const char **why)
{
	const struct cbench_history_gate *g = &s->gate;

	*why = g->why;
	if (g->answer != CBENCH_GATE_FAIL || !o->confirm)
		return g->answer;
	for (size_t k = 0; k < s->nchanges; k++) {
		const struct cbench_history_change *c = &s->changes[k];

		if (c->cp.index == g->after_a && c->confirm != CBENCH_CONFIRM_YES) {
			*why = "the audit did not confirm it";
			return CBENCH_GATE_UNDECIDED;
		}
	}
	return g->answer;
}

/* One series' line under the gate's verdict. */
static void gate_line(const struct cbench_history_series *s, const char *why, FILE *f)
{
	const struct cbench_history_gate *g = &s->gate;
	const struct cbench_history_point *after = &s->points[g->after_a];

	fprintf(f, "  %s on %s: ", s->name, s->machine);
	if (isfinite(g->test.lower))
		fprintf(f, "%+.2f %% [%+.2f %%, %+.2f %%] ", 100 * g->test.change, 100 * g->test.lower,
			100 * g->test.upper);
	fprintf(f, "at order %lld (commit %s)", after->order, after->commit);
	if (g->before_b > g->before_a) {
		const struct cbench_history_point *last = &s->points[g->before_b - 1];

		fprintf(f, " against orders %lld to %lld (commit %s the last before)",
			s->points[g->before_a].order, last->order, last->commit);
	}
	fprintf(f, "%s%s%s\n", why ? " (" : "", why ? why : "", why ? ")" : "");
}

/* The gate over nothing: an error naming what could have been chosen. */
static int gate_over_nothing(const struct history_options *o, const struct cbench_store_history *sh)
{
	size_t listed = 0;

	if (sh->h.nseries) {
		cbench_err("unable to gate: no series of %s has a run after order %lld: a gate over "
			   "nothing passes nothing\n", o->store, sh->h.since);
		return CBENCH_EXIT_FAILED;
	}
	cbench_err("unable to gate: no series of %s matches%s%s%s%s%s%s%s%s: a gate over nothing "
		   "passes nothing; its series:", o->store, o->filter ? " --filter " : "",
		   o->filter ? o->filter : "", o->machine ? " --machine " : "", o->machine ? o->machine : "",
		   o->object ? " --object " : "", o->object ? o->object : "", o->backend ? " --backend " : "",
		   o->backend ? o->backend : "");
	for (size_t i = 0; i < sh->nseries && listed < 12; i++) {
		if (i && !strcmp(sh->series[i].name, sh->series[i - 1].name) &&
		    !strcmp(sh->series[i].machine, sh->series[i - 1].machine))
			continue;
		fprintf(stderr, "%s %s on %s", listed ? "," : "", sh->series[i].name,
			sh->series[i].machine);
		listed++;
	}
	fprintf(stderr, "%s\n", listed ? (listed == 12 ? " ..." : "") : " none");
	return CBENCH_EXIT_FAILED;
}

/*
 * --fail-on's gate (report_history.h: the newest work against what came
 * before it), said on stdout beside text and on stderr beside the other
 * formats: 3 when a series fails it, else 4 when one could not be judged
 * (unless --undecided pass), else 0; an error when it looked at nothing.
 */
static int gate(const struct history_options *o, const struct cbench_store_history *sh)
{
	const struct cbench_history *h = &sh->h;
	const char *what = o->fail_on == GATE_SLOWER ? "slower" : "changed", *why;
	FILE *f = o->format == FORMAT_TEXT && !o->output ? stdout : stderr;
	size_t count[3] = { 0 }, asked = 0;
	int want;

	if (o->fail_on == GATE_NONE)
		return 0;
	for (size_t i = 0; i < h->nseries; i++) {
		if (h->series[i].gate.asked) {
			asked++;
			count[answer(o, &h->series[i], &why)]++;
		}
	}
	if (!asked)
		return gate_over_nothing(o, sh);
	want = count[CBENCH_GATE_FAIL] ? CBENCH_GATE_FAIL :
	       count[CBENCH_GATE_UNDECIDED] && !o->undecided_pass ? CBENCH_GATE_UNDECIDED : -1;
	fprintf(f, "\ngate (--fail-on %s, ", what);
	if (h->since >= 0)
		fprintf(f, "everything after order %lld", h->since);
	else
		fprintf(f, "the newest commit");
	if (want == CBENCH_GATE_FAIL)
		fprintf(f, "): FAILED: %zu series %s by %.2f%% or more:\n", count[want], what,
			100 * o->params.min_effect);
	else if (want == CBENCH_GATE_UNDECIDED)
		fprintf(f, "): UNDECIDED: %zu series not judged (exit status %d; --undecided pass lets "
			"them pass):\n", count[want], CBENCH_EXIT_UNDECIDED);
	else
		fprintf(f, "): passed: %zu series, none %s by %.2f%% or more%s\n", asked, what,
			100 * o->params.min_effect, count[CBENCH_GATE_UNDECIDED] ?
			"; undecided ones passed by --undecided pass" : "");
	for (size_t i = 0; want >= 0 && i < h->nseries; i++) {
		if (h->series[i].gate.asked && answer(o, &h->series[i], &why) == want)
			gate_line(&h->series[i], why, f);
	}
	return want == CBENCH_GATE_FAIL ? CBENCH_EXIT_GATE :
	       want == CBENCH_GATE_UNDECIDED ? CBENCH_EXIT_UNDECIDED : CBENCH_EXIT_OK;
}

int cbench_history_main(int argc, char *argv[])
{
	struct history_options o;
	struct cbench_store_history sh;
	struct cbench_history_select sel;
	regex_t filter;
	char err[CBENCH_ERR_LEN];
	size_t failed = 0;
	int ret, status = CBENCH_EXIT_FAILED;

	ret = parse(&o, argc, argv);
	if (ret) {
		if (ret > 0)
			usage(stdout);
		return ret > 0 ? 0 : cbench_usage_error("history", NULL);
	}
	if (o.filter && regcomp(&filter, o.filter, REG_EXTENDED | REG_NOSUB)) {
		cbench_err("--filter '%s' is not a regular expression (POSIX extended)\n", o.filter);
		return CBENCH_EXIT_USAGE;
	}
	sel = (struct cbench_history_select){ .machine = o.machine, .object = o.object,
		.backend = o.backend, .filter = o.filter ? &filter : NULL, .metric = o.metric,
		.fail_on = o.fail_on == GATE_SLOWER ? "slower" : o.fail_on == GATE_CHANGED ? "changed" :
			   NULL, .since = o.since, .min_effect = o.params.min_effect };
	ret = cbench_store_history(o.store, &sel, &o.params, &sh, err, sizeof(err));
	if (ret) {
		cbench_err("unable to read the history of %s: %s\n", o.store, err);
		goto out;
	}
	if (o.commits && name_commits(o.commits, &sh.h))
		goto out;
	if (o.confirm)
		failed = confirm_all(&o, &sh.h);
	for (size_t i = 0; o.confirm && sel.fail_on && i < sh.h.nseries; i++)
		if (sh.h.series[i].gate.asked &&
		    cbench_history_regate(&sh.h.series[i], &sel, sh.h.since, &o.params))
			failed++;
	if (write_report(&o, &sh.h))
		goto out;
	if (failed)
		cbench_err("%zu audit%s failed\n", failed, failed == 1 ? "" : "s");
	status = failed ? CBENCH_EXIT_FAILED : gate(&o, &sh);
out:
	for (size_t i = 0; i < sh.h.nseries; i++) {
		for (size_t k = 0; k < sh.h.series[i].nchanges; k++)
			free((char *)sh.h.series[i].changes[k].next_commit);
	}
	cbench_store_history_free(&sh);
	if (o.filter)
		regfree(&filter);
	return status;
}
