// SPDX-License-Identifier: GPL-2.0
/*
 * `cbenchctl compare OLD... -- NEW...`: Go-format reports of two versions,
 * run against run.
 *
 * The trials of one run are not independent draws: they share the run's
 * moment (on a boosting or shared host the core clock moves by percents
 * between runs and stays put for a run's second), its timer calibration and
 * its tuning.  Measured on our development VM, 20 to 80 % of the variance
 * of a trial lies between runs, and a test over two runs' trials (the
 * Mann-Whitney U test we and benchstat used) called A/A pairs of runs
 * different in 7 to 15 of 40 pairs where alpha = 0.05 allows 2
 * (bench/compare_aa.sh).  So the unit here is the run: each run gives one
 * value per benchmark, its headline (the median of its trials, as `run`
 * reports it),
 * and Welch's t test compares the logs of those values, k runs a side (a
 * permutation test would need 4 runs a side to reach p < 0.05 at all).
 * With one run a side nothing measures how far runs wander, and we say so
 * instead of guessing.  The change printed is the one tested: between the
 * geometric means of the runs' headlines.
 *
 * Each benchmark is judged by est-cycles/op where both sides have it in
 * every run, else by ns/op (--metric chooses): ns/op is wall time and
 * moves with the core clock, which on a boosting or shared host jumps
 * between levels from run to run, while est-cycles/op, taken against the
 * reference chain within one clock level (stats/levels.c), does not.  On an
 * Intel VM whose clock jumped, three runs a side of a 1 % slowdown read
 * ns/op trials on three levels and a change of +0.17 % [-3.29 %, +3.76 %],
 * where est-cycles/op went from 1.0005 to 1.0106 in every trial.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session/options.h"
#include "report/report_compare.h"
#include "report/runs.h"
#include "results/runs_read.h"
#include "stats/change.h"
#include "cmd/subcommands.h"

#define COMPARE_ALPHA CBENCH_CHANGE_ALPHA
/* The smallest change that counts, in percent, unless --min-effect says
 * otherwise: audit's default, so both call the same changes real. */
#define COMPARE_MIN_EFFECT_PCT 0.2
/* Exit status of a failed gate (--fail-on): not 1, which is an error. */
#define COMPARE_GATE_FAILED CBENCH_EXIT_GATE
/* Exit status of a gate that found nothing but could not judge every row
 * (one run on a side), unless --undecided pass: a gate that passed what it
 * could not judge would be trusted for what it never looked at. */
#define COMPARE_GATE_UNDECIDED CBENCH_EXIT_UNDECIDED

/* What compare was asked; the files come from split(). */
struct compare_options {
	double min_effect;		/* a fraction: 0.002 for 0.2 % */
	int metric;			/* enum cbench_metric, or -1: est-cycles where both have it */
	enum { GATE_NONE, GATE_SLOWER, GATE_CHANGED } fail_on;
	bool undecided_pass;		/* --undecided pass: "?" rows pass the gate */
	bool mixed;			/* --mixed: runs of other machines or backends too */
	bool json;			/* --format json or junit: the report on stdout */
	bool junit;			/* --format junit */
};


/* As the table prints them; the legend below it says which rule each is. */
static const char *const verdict_names[] = {
	[CBENCH_CHANGE_UNDECIDED] = "?", [CBENCH_CHANGE_NONE] = "~", [CBENCH_CHANGE_UNSETTLED] = "~ real",
	[CBENCH_CHANGE_EQUAL] = "~ equal", [CBENCH_CHANGE_FASTER] = "faster", [CBENCH_CHANGE_SLOWER] = "slower",
};

/* The verdict as the row prints it: an equal one says what --min-effect
 * did, an unsettled one which way the difference goes. */
static void verdict_text(const struct cbench_change *c, double min_effect, char *buf, size_t len)
{
	if (c->verdict == CBENCH_CHANGE_UNSETTLED)
		snprintf(buf, len, "~ %s, not shown past ±%.2f%%", c->lo > 0 ? "slower" : "faster",
			 100 * min_effect);
	else if (c->verdict != CBENCH_CHANGE_EQUAL)
		snprintf(buf, len, "%s", verdict_names[c->verdict]);
	else if (c->under_min_effect)
		snprintf(buf, len, "~ equal: %s, under --min-effect %.2f%%",
			 c->under_min_effect > 0 ? "slower" : "faster", 100 * min_effect);
	else
		snprintf(buf, len, "~ equal: within --min-effect ±%.2f%%", 100 * min_effect);
}

/* Where the sides' core clocks differ by more than this, a row says so. */
#define COMPARE_CLOCKS_APART 0.01

static void print_row(const struct cbench_compare_row *r, double min_effect)
{
	const struct cbench_change *c = &r->change;
	char interval[48] = "-", p[16] = "n/a", runs[48], verdict[80], clocks[64] = "";

	if (!isnan(c->p)) {
		snprintf(interval, sizeof(interval), "[%+.2f%%,%+.2f%%]", 100 * c->lo, 100 * c->hi);
		snprintf(p, sizeof(p), "%.3f", c->p);
	}
	snprintf(runs, sizeof(runs), "%zu+%zu", r->old->n, r->new->n);
	verdict_text(c, min_effect, verdict, sizeof(verdict));
	if (fabs(r->new_ghz / r->old_ghz - 1) > COMPARE_CLOCKS_APART)
		snprintf(clocks, sizeof(clocks), " (clock %.2f -> %.2f GHz)", r->old_ghz, r->new_ghz);
	printf("%-40s %14.4f %14.4f %-13s %+8.2f%% %19s %7s %7s %s%s\n", cbench_bench_title(r->old->name),
	       c->old_ns, c->new_ns, cbench_metric_units[r->metric], 100 * c->change, interval, p, runs,
	       verdict, clocks);
}

/* What the table's rows leave to say below it. */
struct notes {
	size_t count[CBENCH_CHANGE_SLOWER + 1];		/* rows by verdict */
	size_t under;					/* equal rows of a real change */
	size_t by_metric[CBENCH_METRICS];		/* rows each metric judged */
	size_t lacking;					/* benchmarks without --metric's on a side */
	size_t clocks_apart;				/* rows whose sides' clocks differ */
	const char *gated[8];				/* the first rows that fail the gate */
	size_t ngated;
	const char *unjudged[8];			/* and the first it could not judge */
	const char *unjudged_why[8];
	size_t nunjudged;
	size_t undecided;				/* rows with one run on a side */
	size_t step_floored;				/* rows whose runs agree within the timer's step */
	double step_share;				/* the largest step share among them */
	size_t uneven;					/* rows whose runs have unequal trials */
	const struct cbench_series *first;		/* the first of those */
	size_t fewest, most;				/* and its trials per run */
};

/* How the row fares at the gate (stats/change.h): a gate fails on a change
 * shown past --min-effect and passes one shown within it. */
static enum cbench_gate_answer gate_answer(const struct compare_options *o, const struct cbench_change *c)
{
	if (o->fail_on == GATE_NONE)
		return CBENCH_GATE_PASS;
	return cbench_change_gate(c->lo, c->hi, o->min_effect, o->fail_on == GATE_CHANGED);
}

/* Why the gate could not judge a row, in a few words. */
static const char *unjudged_why(const struct cbench_change *c)
{
	return c->verdict == CBENCH_CHANGE_UNDECIDED ? "one run a side" :
	       c->verdict == CBENCH_CHANGE_UNSETTLED ? "a real difference, its size not settled" :
						       "no difference shown, nor within --min-effect";
}

static void note_row(const struct compare_options *o, const struct cbench_compare_row *r, struct notes *n)
{
	const struct cbench_series *a = r->old, *b = r->new;
	const struct cbench_change *c = &r->change;
	size_t fewest = a->fewest < b->fewest ? a->fewest : b->fewest;
	size_t most = a->most > b->most ? a->most : b->most;
	double step = cbench_series_step_floor(a, b);
	enum cbench_gate_answer at = gate_answer(o, c);

	n->count[c->verdict]++;
	n->by_metric[r->metric]++;
	n->under += c->under_min_effect != 0;
	n->clocks_apart += fabs(r->new_ghz / r->old_ghz - 1) > COMPARE_CLOCKS_APART;
	if (step > 0) {
		n->step_floored++;
		n->step_share = fmax(n->step_share, step);
	}
	if (at == CBENCH_GATE_FAIL && n->ngated++ < sizeof(n->gated) / sizeof(n->gated[0]))
		n->gated[n->ngated - 1] = a->name;
	if (at == CBENCH_GATE_UNDECIDED && n->nunjudged++ < sizeof(n->unjudged) / sizeof(n->unjudged[0])) {
		n->unjudged[n->nunjudged - 1] = a->name;
		n->unjudged_why[n->nunjudged - 1] = unjudged_why(c);
	}
	n->undecided += isnan(c->p);
	if (fewest == most)
		return;
	if (!n->uneven++) {
		n->first = a;
		n->fewest = fewest;
		n->most = most;
	}
}

/*
 * The rows: each benchmark of old that new has, judged by the metric
 * s->metric picks (cbench_sides_pick()), tested, in old's order.  0 or
 * -ENOMEM.
 */
static int test_all(const struct compare_options *o, const struct cbench_sides *s,
		    struct cbench_compare_row **rows, size_t *n, struct notes *notes)
{
	const struct cbench_runs *old = cbench_sides_runs(s, 0);

	*n = 0;
	*rows = calloc(old->n ? old->n : 1, sizeof(**rows));
	if (!*rows)
		return -ENOMEM;
	for (size_t i = 0; i < old->n; i++) {
		struct cbench_compare_row *r = &(*rows)[*n];
		int m;

		if (!cbench_runs_find(cbench_sides_runs(s, 1), old->s[i].name))
			continue;
		m = cbench_sides_pick(s, old->s[i].name, &r->old, &r->new);
		if (m < 0) {
			notes->lacking++;
			continue;
		}
		r->metric = m;
		r->old_ghz = cbench_series_ghz(r->old);
		r->new_ghz = cbench_series_ghz(r->new);
		if (cbench_series_change(r->old, r->new, o->min_effect, &r->change))
			return -ENOMEM;
		note_row(o, r, notes);
		(*n)++;
	}
	return 0;
}

static void print_table(const struct compare_options *o, const struct cbench_sides *s,
			const struct cbench_compare_row *rows, size_t n)
{
	const struct cbench_runs *old = cbench_sides_runs(s, 0), *new = cbench_sides_runs(s, 1);
	size_t k = 0;

	printf("%-40s %14s %14s %-13s %9s %19s %7s %7s\n", "benchmark", "old", "new", "figure", "change",
	       "95% interval", "p", "runs");
	for (size_t i = 0; i < old->n; i++) {
		const struct cbench_series *a = &old->s[i];

		if (k < n && !strcmp(rows[k].old->name, a->name)) {
			print_row(&rows[k], o->min_effect);
			k++;
		} else if (cbench_runs_find(new, a->name)) {
			printf("%-40s %14s %14s %s\n", cbench_bench_title(a->name), "-", "-",
			       o->metric >= 0 ? cbench_metric_units[o->metric] : "?");
		} else {
			printf("%-40s %14.4f %14s %-13s\n", cbench_bench_title(a->name), cbench_series_mean(a),
			       "(absent)", "ns/op");
		}
	}
	for (size_t i = 0; i < new->n; i++) {
		if (!cbench_runs_find(old, new->s[i].name))
			printf("%-40s %14s %14.4f %-13s\n", cbench_bench_title(new->s[i].name), "(absent)",
			       cbench_series_mean(&new->s[i]), "ns/op");
	}
}

/* Which rule gave each verdict the table shows, and which figure judged. */
static void print_legend(const struct compare_options *o, const struct notes *n)
{
	double e = 100 * o->min_effect, conf = 100 * (1 - COMPARE_ALPHA);

	printf("\n");
	if (n->count[CBENCH_CHANGE_SLOWER] || n->count[CBENCH_CHANGE_FASTER])
		printf("slower, faster: the whole %.0f%% interval lies past +%.2f%% (or -%.2f%%, "
		       "--min-effect)\n", conf, e, e);
	if (n->count[CBENCH_CHANGE_EQUAL])
		printf("~ equal: the %.0f%% interval lies within ±%.2f%%: no change that counts\n", conf, e);
	if (n->under)
		printf("~ equal: slower (or faster), under --min-effect: a real difference (the interval\n"
		       "  excludes 0), but too small to count; --min-effect 0 would call it slower\n");
	if (n->count[CBENCH_CHANGE_UNSETTLED])
		printf("~ slower (or faster), not shown past ±%.2f%%: a real difference (the interval\n"
		       "  excludes 0) whose interval reaches across ±%.2f%%: how large is not settled;\n"
		       "  more runs a side narrow it\n", e, e);
	if (n->count[CBENCH_CHANGE_NONE])
		printf("~: the interval holds 0 and reaches past ±%.2f%%: no difference shown, nor\n"
		       "  equivalence\n", e);
	if (n->by_metric[CBENCH_METRIC_EST_CYCLES] && o->metric < 0)
		printf("figure: est-cycles/op where both sides have it in every run (the core clock cannot\n"
		       "  move it); ns/op for %zu benchmark%s; --metric chooses\n",
		       n->by_metric[CBENCH_METRIC_NS], n->by_metric[CBENCH_METRIC_NS] == 1 ? "" : "s");
	else if (o->metric < 0)
		printf("figure: ns/op (no benchmark has est-cycles/op on both sides in every run)\n");
	if (n->clocks_apart)
		printf("clock: the sides of %zu benchmark%s ran at core clocks more than %.0f%% apart: ns/op\n"
		       "  moved with them; est-cycles/op does not\n", n->clocks_apart,
		       n->clocks_apart == 1 ? "" : "s", 100 * COMPARE_CLOCKS_APART);
}

/*
 * The gate's one-line summary (on stderr beside JSON, which has stdout);
 * its exit status: 3 when a row fails it (whatever else the table holds: a
 * change that counts was found), else 4 when it could not judge a row (one
 * run on a side, or an interval across --min-effect) unless --undecided
 * pass, else 0.  A gate over no benchmark at all is an error.
 */
static int gate(const struct compare_options *o, const struct notes *n, size_t rows)
{
	const char *what = o->fail_on == GATE_SLOWER ? "slower" : "changed";
	const char *gap = o->json ? "" : "\n";
	FILE *f = o->json ? stderr : stdout;
	double e = 100 * o->min_effect;
	size_t most = sizeof(n->gated) / sizeof(n->gated[0]);

	if (o->fail_on == GATE_NONE)
		return 0;
	if (!rows) {
		cbench_err("unable to gate: no benchmark was compared (%s): a gate over nothing "
			"passes nothing\n", n->lacking ? "those on both sides lack --metric's figure" :
			"none is on both sides");
		return 1;
	}
	if (n->ngated) {
		fprintf(f, "%sgate (--fail-on %s): FAILED: %zu benchmark%s %s by %.2f%% or more:", gap, what,
			n->ngated, n->ngated == 1 ? "" : "s", what, e);
		for (size_t i = 0; i < n->ngated && i < most; i++)
			fprintf(f, " %s", cbench_bench_title(n->gated[i]));
		fprintf(f, "%s\n", n->ngated > most ? " ..." : "");
		return COMPARE_GATE_FAILED;
	}
	if (n->nunjudged && !o->undecided_pass) {
		fprintf(f, "%sgate (--fail-on %s): UNDECIDED: %zu benchmark%s not judged:", gap, what,
			n->nunjudged, n->nunjudged == 1 ? "" : "s");
		for (size_t i = 0; i < n->nunjudged && i < most; i++)
			fprintf(f, " %s (%s)%s", cbench_bench_title(n->unjudged[i]), n->unjudged_why[i],
				i + 1 < n->nunjudged && i + 1 < most ? "," : "");
		fprintf(f, "%s\n  (exit status %d): give each side 3 or more runs, or gate with %s audit\n"
			"  --fail-on %s; --undecided pass lets such rows pass\n", n->nunjudged > most ? " ..." : "",
			COMPARE_GATE_UNDECIDED, cbench_prog, what);
		return COMPARE_GATE_UNDECIDED;
	}
	fprintf(f, "%sgate (--fail-on %s): passed: no benchmark %s by %.2f%% or more", gap, what, what, e);
	if (n->nunjudged)
		fprintf(f, "; %zu undecided, passed by --undecided pass", n->nunjudged);
	fprintf(f, "\n");
	return 0;
}

static void print_notes(const struct compare_options *o, const struct notes *n)
{
	if (n->undecided)
		printf("\n? %zu benchmark%s with one run on a side: a change cannot be told from the\n"
		       "  drift between separate runs. Give each side two or more runs, taken\n"
		       "  alternately (compare OLD1 OLD2 ... -- NEW1 NEW2 ...), or interleave both\n"
		       "  versions in one run: %s audit.\n", n->undecided, n->undecided == 1 ? "" : "s",
		       cbench_prog);
	if (n->lacking)
		printf("\nnote: %zu benchmark%s on both sides lack%s %s on a side: not compared.\n",
		       n->lacking, n->lacking == 1 ? "" : "s", n->lacking == 1 ? "s" : "",
		       o->metric >= 0 ? cbench_metric_units[o->metric] : "the figure");
	if (n->step_floored)
		printf("\nnote: the runs of %zu benchmark%s agree more closely than the timer resolves (a\n"
		       "  step is up to %.3g%% of a measurement): their intervals take a step's rounding\n"
		       "  as the runs' spread.\n", n->step_floored, n->step_floored == 1 ? "" : "s",
		       100 * n->step_share);
	/* A run's headline is the median of its trials: runs of unequal
	 * trials have headlines of unequal precision. */
	if (n->uneven)
		printf("\nnote: runs of %s%s have from %zu to %zu trials; the median of fewer\n"
		       "  trials wanders further, so give every run the same --trials.\n",
		       cbench_bench_title(n->first->name), n->uneven > 1 ? " and other benchmarks" : "", n->fewest,
		       n->most);
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %s compare [options] <old.txt> <new.txt>\n"
		"       %s compare [options] <old.txt>... -- <new.txt>...\n"
		"\n"
		"Compares run's reports, in the Go benchmark data format or JSON (either, by\n"
		"what the file holds), run against run.  A file holds one run, or in Go text\n"
		"several written one after another (a configuration line after result lines\n"
		"starts the next run).\n"
		"\n"
		"Per benchmark, each run counts with its headline, the median of its trials:\n"
		"the table gives each side's geometric mean of those, the change between them\n"
		"with its %.0f%% interval, and Welch's t test over the runs (p < %.2f where the\n"
		"interval excludes 0).  Each is judged by est-cycles/op where both sides have it\n"
		"in every run (the core clock cannot move it), else by ns/op; --metric chooses.\n"
		"As in audit, a change is slower (faster) when the whole interval lies past\n"
		"+min-effect (-min-effect), \"~ equal\" when it lies within +-min-effect;\n"
		"otherwise it is not settled: \"~ slower, not shown past ...\" for a real\n"
		"difference whose interval reaches across the bound, \"~\" when the interval holds\n"
		"0.  A run's trials move together\n"
		"(the core clock drifts between runs), so one run a side cannot tell a change\n"
		"from that drift: such rows say \"?\".  Give each side two or more runs, taken\n"
		"alternately (old, new, old, new, ...), or interleave both versions in one\n"
		"run with `%s audit`.\n"
		"\n"
		"Options:\n"
		"  --min-effect PCT    smallest change that counts, in percent (default %.1f,\n"
		"                      as audit's)\n"
		"  --metric M          the figure that judges: est-cycles, ns, instructions,\n"
		"                      cycles or ref-cycles (default: est-cycles where both sides\n"
		"                      have it in every run, else ns); the table says which\n"
		"  --fail-on WHAT      slower or changed: exit status %d when a benchmark is\n"
		"                      slower (or either) by at least --min-effect, for a CI\n"
		"                      gate; status %d when none is but a row could not be\n"
		"                      judged (one run on a side, or an interval reaching across\n"
		"                      --min-effect); a gate over no benchmark is an error\n"
		"  --undecided WHAT    fail (default) or pass: whether the gate fails, with\n"
		"                      status %d, when rows could not be judged, or lets them\n"
		"                      pass\n"
		"  --mixed             compare runs measured on different machines or backends\n"
		"                      (refused otherwise: their difference is not the change's)\n"
		"  --format FMT        text (the table, default), json (a member per benchmark,\n"
		"                      the same figures and verdicts) or junit (JUnit XML for\n"
		"                      Jenkins and GitLab: a case per benchmark, one that fails\n"
		"                      the gate a failure); the gate's line then on stderr\n"
		"  -h, --help          show this help\n"
		"\n"
		"Exit status: 0 when compared (and the gate, if any, passed); 1 when a file\n"
		"cannot be read; 2 when the arguments are wrong; %d when --fail-on's gate\n"
		"failed; %d when it found nothing to fail on but could not judge every row.\n",
		cbench_prog, cbench_prog, 100 * (1 - COMPARE_ALPHA), COMPARE_ALPHA, cbench_prog,
		COMPARE_MIN_EFFECT_PCT, COMPARE_GATE_FAILED, COMPARE_GATE_UNDECIDED,
		COMPARE_GATE_UNDECIDED, COMPARE_GATE_FAILED, COMPARE_GATE_UNDECIDED);
}

/*
 * An option at argv[*i] (taking its value from the next word, or after
 * '='): 1 when it was one, 0 when not, -1 after saying what is wrong.
 */
static int take_option(struct compare_options *o, int argc, char *argv[], int *i)
{
	const char *names[] = { "--min-effect", "--fail-on", "--format", "--undecided", "--metric" }, *arg = NULL;
	size_t len = 0;
	int k;
	double pct;

	if (!strcmp(argv[*i], "--mixed")) {
		o->mixed = true;
		return 1;
	}
	for (k = 0; k < 5; k++) {
		len = strlen(names[k]);
		if (!strncmp(argv[*i], names[k], len) && (!argv[*i][len] || argv[*i][len] == '='))
			break;
	}
	if (k == 5)
		return 0;
	if (argv[*i][len] == '=')
		arg = argv[*i] + len + 1;
	else if (*i + 1 < argc)
		arg = argv[++*i];
	if (!arg) {
		cbench_err("compare: %s wants a value; see '%s compare --help'\n",
			names[k], cbench_prog);
		return -1;
	}
	if (k == 0) {
		if (cbench_parse_number(arg, &pct) || !(pct >= 0) || pct >= 100) {
			cbench_option_refuse(stderr, "--min-effect", "a percentage from 0 to below 100", arg);
			return -1;
		}
		o->min_effect = pct / 100;
	} else if (k == 2) {
		if (strcmp(arg, "text") && strcmp(arg, "json") && strcmp(arg, "junit")) {
			cbench_option_refuse(stderr, "--format", "text, json or junit", arg);
			return -1;
		}
		o->json = arg[0] == 'j';
		o->junit = !strcmp(arg, "junit");
	} else if (k == 4) {
		o->metric = cbench_metric_of(arg);
		if (o->metric < 0) {
			cbench_option_refuse(stderr, "--metric", "est-cycles, ns, instructions, cycles or "
					     "ref-cycles", arg);
			return -1;
		}
	} else if (k == 3) {
		if (strcmp(arg, "pass") && strcmp(arg, "fail")) {
			cbench_option_refuse(stderr, "--undecided", "pass or fail", arg);
			return -1;
		}
		o->undecided_pass = arg[0] == 'p';
	} else if (!strcmp(arg, "slower") || !strcmp(arg, "changed")) {
		o->fail_on = arg[0] == 's' ? GATE_SLOWER : GATE_CHANGED;
	} else {
		cbench_option_refuse(stderr, "--fail-on", "slower or changed", arg);
		return -1;
	}
	return 1;
}

/*
 * Splits [options] OLD NEW or OLD... -- NEW... into the two sides, the
 * options into o and out of argv; -1 on bad usage, after saying why.
 */
static int split(struct compare_options *o, int argc, char *argv[], int *nold, char ***newv,
		 int *nnew)
{
	int sep = 0, kept = 1;

	for (int i = 1; i < argc; i++) {
		int opt = sep ? 0 : take_option(o, argc, argv, &i);

		if (opt < 0)
			return -1;
		if (opt == 0)
			argv[kept++] = argv[i];
	}
	argc = kept;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--") && !sep) {
			sep = i;
		} else if (!strcmp(argv[i], "--")) {
			cbench_err("compare: a second '--': one separates OLD from NEW\n");
			return -1;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			cbench_err("compare: unknown option %s (a file of that name: ./%s)\n", argv[i], argv[i]);
			return -1;
		}
	}
	if (sep) {
		*nold = sep - 1;
		*newv = argv + sep + 1;
	} else if (argc == 3) {
		/* Without "--", exactly OLD NEW: a run, or a file of runs, a side. */
		*nold = 1;
		*newv = argv + 2;
	} else {
		cbench_err("compare: %s; see '%s compare --help'\n",
			argc < 3 ? "it wants an old and a new report" :
				   "more than two reports want '--' between the old and the new ones",
			cbench_prog);
		return -1;
	}
	*nnew = argc - (int)(*newv - argv);
	if (*nold >= 1 && *nnew >= 1)
		return 0;
	cbench_err("compare: no %s report beside '--'; see '%s compare --help'\n",
		*nold < 1 ? "old" : "new", cbench_prog);
	return -1;
}

int cbench_compare_main(int argc, char *argv[])
{
	struct cbench_sides *sides = calloc(1, sizeof(*sides));
	struct compare_options opt = { .min_effect = COMPARE_MIN_EFFECT_PCT / 100, .metric = -1 };
	struct notes notes = { 0 };
	struct cbench_origin first = { 0 };
	struct cbench_runs like = { .first = &first, .cmd = "compare" };
	struct cbench_compare_row *rows = NULL;
	int nold, nnew, status = 1;
	size_t nrows = 0;
	char **newv;

	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		usage(stdout);
		status = 0;
		goto out;
	}
	if (split(&opt, argc, argv, &nold, &newv, &nnew)) {
		status = CBENCH_EXIT_USAGE;
		goto out;
	}
	if (!sides)
		goto out;
	like.mixed = opt.mixed;
	sides->metric = opt.metric;
	if (cbench_sides_read(sides, &like, argv + 1, (size_t)nold, newv, (size_t)nnew))
		goto out;
	if (test_all(&opt, sides, &rows, &nrows, &notes)) {
		cbench_err("unable to compare: %s\n", strerror(ENOMEM));
		goto out;
	}
	if (opt.junit) {
		struct cbench_compare_gate g = { .slower = opt.fail_on != GATE_NONE,
						 .faster = opt.fail_on == GATE_CHANGED,
						 .undecided_pass = opt.undecided_pass,
						 .min_effect = opt.min_effect };

		if (cbench_compare_report_junit(stdout, rows, nrows, cbench_sides_runs(sides, 0),
						cbench_sides_runs(sides, 1), opt.min_effect, &g)) {
			cbench_err("unable to write the report: %s\n", strerror(EIO));
			goto out;
		}
	} else if (opt.json) {
		if (cbench_compare_report_json(stdout, rows, nrows, cbench_sides_runs(sides, 0),
					       cbench_sides_runs(sides, 1), opt.min_effect)) {
			cbench_err("unable to write the report: %s\n", strerror(EIO));
			goto out;
		}
	} else {
		print_table(&opt, sides, rows, nrows);
		print_legend(&opt, &notes);
		print_notes(&opt, &notes);
	}
	status = gate(&opt, &notes, nrows);
out:
	free(rows);
	if (sides)
		cbench_sides_release(sides);
	free(sides);
	return status;
}
