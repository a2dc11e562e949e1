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
 * We compare ns/op, not est-cycles/op (ns/op against the reference chain
 * each trial interleaves, which cancels the clock's drift within a trial):
 * on 120 runs its trials were as tied to their run (30 to 41 % of the
 * variance between runs, against 27 to 43 % for ns/op), and its runs'
 * headlines wandered more (0.13 % against 0.04 % for the add chain, 1.5 %
 * against 0.006 % for the imul chain), because the least ns/op already
 * picks a run's moments of fastest clock.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session/options.h"
#include "report/report_compare.h"
#include "report/runs.h"
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
	enum { GATE_NONE, GATE_SLOWER, GATE_CHANGED } fail_on;
	bool undecided_pass;		/* --undecided pass: "?" rows pass the gate */
	bool mixed;			/* --mixed: runs of other machines or backends too */
	bool json;			/* --format json or junit: the report on stdout */
	bool junit;			/* --format junit */
};


/* As the table prints them; the legend below it says which rule each is. */
static const char *const verdict_names[] = {
	[CBENCH_CHANGE_UNDECIDED] = "?", [CBENCH_CHANGE_NONE] = "~", [CBENCH_CHANGE_SMALL] = "~ small",
	[CBENCH_CHANGE_EQUAL] = "~ equal", [CBENCH_CHANGE_FASTER] = "faster", [CBENCH_CHANGE_SLOWER] = "slower",
};

/* The verdict as the row prints it: an equal one says what --min-effect did. */
static void verdict_text(const struct cbench_change *c, double min_effect, char *buf, size_t len)
{
	if (c->verdict != CBENCH_CHANGE_EQUAL)
		snprintf(buf, len, "%s", verdict_names[c->verdict]);
	else if (c->under_min_effect)
		snprintf(buf, len, "~ equal: %s, under --min-effect %.2f%%",
			 c->under_min_effect > 0 ? "slower" : "faster", 100 * min_effect);
	else
		snprintf(buf, len, "~ equal: within --min-effect ±%.2f%%", 100 * min_effect);
}

static void print_row(const struct cbench_series *a, const struct cbench_series *b, const struct cbench_change *c,
		      double min_effect)
{
	char interval[48] = "-", p[16] = "n/a", runs[48], verdict[80];

	if (!isnan(c->p)) {
		snprintf(interval, sizeof(interval), "[%+.2f%%,%+.2f%%]", 100 * c->lo, 100 * c->hi);
		snprintf(p, sizeof(p), "%.3f", c->p);
	}
	snprintf(runs, sizeof(runs), "%zu+%zu", a->n, b->n);
	verdict_text(c, min_effect, verdict, sizeof(verdict));
	printf("%-40s %14.4f %14.4f %+8.2f%% %19s %7s %7s %s\n", cbench_bench_title(a->name), c->old_ns, c->new_ns,
	       100 * c->change, interval, p, runs, verdict);
}

/* What the table's rows leave to say below it. */
struct notes {
	size_t count[CBENCH_CHANGE_SLOWER + 1];		/* rows by verdict */
	size_t under;					/* equal rows of a real change */
	const struct cbench_series *gated[8];		/* the first rows that fail the gate */
	size_t ngated;
	size_t undecided;				/* rows with one run on a side */
	size_t step_floored;				/* rows whose runs agree within the timer's step */
	double step_share;				/* the largest step share among them */
	size_t uneven;					/* rows whose runs have unequal trials */
	const struct cbench_series *first;		/* the first of those */
	size_t fewest, most;				/* and its trials per run */
};

static bool fails_gate(const struct compare_options *o, enum cbench_change_verdict v)
{
	return v == CBENCH_CHANGE_SLOWER ? o->fail_on != GATE_NONE :
					   v == CBENCH_CHANGE_FASTER && o->fail_on == GATE_CHANGED;
}

static void note_row(const struct compare_options *o, const struct cbench_series *a,
		     const struct cbench_series *b, const struct cbench_change *c, struct notes *n)
{
	size_t fewest = a->fewest < b->fewest ? a->fewest : b->fewest;
	size_t most = a->most > b->most ? a->most : b->most;

	double step = cbench_series_step_floor(a, b);

	n->count[c->verdict]++;
	n->under += c->under_min_effect != 0;
	if (step > 0) {
		n->step_floored++;
		n->step_share = fmax(n->step_share, step);
	}
	if (fails_gate(o, c->verdict) && n->ngated++ < sizeof(n->gated) / sizeof(n->gated[0]))
		n->gated[n->ngated - 1] = a;
	n->undecided += isnan(c->p);
	if (fewest == most)
		return;
	if (!n->uneven++) {
		n->first = a;
		n->fewest = fewest;
		n->most = most;
	}
}

/* The rows: each benchmark of old that new has, tested, in old's order.  0 or -ENOMEM. */
static int test_all(const struct compare_options *o, const struct cbench_runs *old, const struct cbench_runs *new,
		    struct cbench_compare_row **rows, size_t *n, struct notes *notes)
{
	*n = 0;
	*rows = calloc(old->n ? old->n : 1, sizeof(**rows));
	if (!*rows)
		return -ENOMEM;
	for (size_t i = 0; i < old->n; i++) {
		struct cbench_compare_row *r = &(*rows)[*n];

		r->old = &old->s[i];
		r->new = cbench_runs_find(new, r->old->name);
		if (!r->new)
			continue;
		if (cbench_series_change(r->old, r->new, o->min_effect, &r->change))
			return -ENOMEM;
		note_row(o, r->old, r->new, &r->change, notes);
		(*n)++;
	}
	return 0;
}

static void print_table(const struct compare_options *o, const struct cbench_runs *old,
			const struct cbench_runs *new, const struct cbench_compare_row *rows, size_t n)
{
	size_t k = 0;

	printf("%-40s %14s %14s %9s %19s %7s %7s\n", "benchmark", "old ns/op", "new ns/op", "change",
	       "95% interval", "p", "runs");
	for (size_t i = 0; i < old->n; i++) {
		const struct cbench_series *a = &old->s[i];

		if (k < n && rows[k].old == a) {
			print_row(a, rows[k].new, &rows[k].change, o->min_effect);
			k++;
		} else {
			printf("%-40s %14.4f %14s\n", cbench_bench_title(a->name), cbench_series_mean(a), "(absent)");
		}
	}
	for (size_t i = 0; i < new->n; i++) {
		if (!cbench_runs_find(old, new->s[i].name))
			printf("%-40s %14s %14.4f\n", cbench_bench_title(new->s[i].name), "(absent)",
			       cbench_series_mean(&new->s[i]));
	}
}

/* Which rule gave each verdict the table shows. */
static void print_legend(const struct compare_options *o, const struct notes *n)
{
	double e = 100 * o->min_effect, conf = 100 * (1 - COMPARE_ALPHA);

	if (n->count[CBENCH_CHANGE_SLOWER] || n->count[CBENCH_CHANGE_FASTER])
		printf("\nslower, faster: a difference (p < %.2f) of ±%.2f%% (--min-effect) or more\n",
		       COMPARE_ALPHA, e);
	else
		printf("\n");
	if (n->count[CBENCH_CHANGE_EQUAL])
		printf("~ equal: the %.0f%% interval lies within ±%.2f%%: no change that counts\n", conf, e);
	if (n->under)
		printf("~ equal: slower (or faster), under --min-effect: a real difference (p < %.2f), but\n"
		       "  too small to count; --min-effect 0 would call it slower (or faster)\n", COMPARE_ALPHA);
	if (n->count[CBENCH_CHANGE_SMALL])
		printf("~ small: a difference (p < %.2f) smaller than ±%.2f%%: not called faster or\n"
		       "  slower (--min-effect sets the bound)\n", COMPARE_ALPHA, e);
	if (n->count[CBENCH_CHANGE_NONE])
		printf("~: no difference shown (p >= %.2f), nor equivalence within ±%.2f%%\n",
		       COMPARE_ALPHA, e);
}

/*
 * The gate's one-line summary (on stderr beside JSON, which has stdout);
 * its exit status: 3 when a row fails it (whatever else the table holds: a
 * change that counts was found), else 4 when a row could not be judged (one
 * run on a side) unless --undecided pass, else 0.
 */
static int gate(const struct compare_options *o, const struct notes *n)
{
	const char *what = o->fail_on == GATE_SLOWER ? "slower" : "changed";
	const char *gap = o->json ? "" : "\n";
	FILE *f = o->json ? stderr : stdout;
	double e = 100 * o->min_effect;

	if (o->fail_on == GATE_NONE)
		return 0;
	if (n->ngated) {
		fprintf(f, "%sgate (--fail-on %s): FAILED: %zu benchmark%s %s by %.2f%% or more:", gap, what,
			n->ngated, n->ngated == 1 ? "" : "s", what, e);
		for (size_t i = 0; i < n->ngated && i < sizeof(n->gated) / sizeof(n->gated[0]); i++)
			fprintf(f, " %s", cbench_bench_title(n->gated[i]->name));
		fprintf(f, "%s\n", n->ngated > sizeof(n->gated) / sizeof(n->gated[0]) ? " ..." : "");
		return COMPARE_GATE_FAILED;
	}
	if (n->undecided && !o->undecided_pass) {
		fprintf(f, "%sgate (--fail-on %s): UNDECIDED: %zu benchmark%s with one run a side not "
			"judged\n  (exit status %d): give each side 3 or more runs, or gate with %s "
			"audit\n  --fail-on %s; --undecided pass lets such rows pass\n", gap, what,
			n->undecided, n->undecided == 1 ? "" : "s", COMPARE_GATE_UNDECIDED, cbench_prog,
			what);
		return COMPARE_GATE_UNDECIDED;
	}
	fprintf(f, "%sgate (--fail-on %s): passed: no benchmark %s by %.2f%% or more", gap, what, what, e);
	if (n->undecided)
		fprintf(f, "; %zu undecided (one run a side), passed by --undecided pass", n->undecided);
	fprintf(f, "\n");
	return 0;
}

static void print_notes(const struct notes *n)
{
	if (n->undecided)
		printf("\n? %zu benchmark%s with one run on a side: a change cannot be told from the\n"
		       "  drift between separate runs. Give each side two or more runs, taken\n"
		       "  alternately (compare OLD1 OLD2 ... -- NEW1 NEW2 ...), or interleave both\n"
		       "  versions in one run: %s audit.\n", n->undecided, n->undecided == 1 ? "" : "s",
		       cbench_prog);
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
		"with its %.0f%% interval, and Welch's t test over the runs.  As in audit, a\n"
		"change is faster or slower when it is shown (p < %.2f) and reaches --min-effect;\n"
		"\"~ small\" when shown but smaller, \"~ equal\" when the whole interval lies\n"
		"within +-min-effect, \"~\" when no difference is shown.  A run's trials move together\n"
		"(the core clock drifts between runs), so one run a side cannot tell a change\n"
		"from that drift: such rows say \"?\".  Give each side two or more runs, taken\n"
		"alternately (old, new, old, new, ...), or interleave both versions in one\n"
		"run with `%s audit`.\n"
		"\n"
		"Options:\n"
		"  --min-effect PCT    smallest change that counts, in percent (default %.1f,\n"
		"                      as audit's)\n"
		"  --fail-on WHAT      slower or changed: exit status %d when a benchmark is\n"
		"                      slower (or either) by at least --min-effect, for a CI\n"
		"                      gate; status %d when none is but a row says \"?\" (one\n"
		"                      run on a side: not judged)\n"
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
	const char *names[] = { "--min-effect", "--fail-on", "--format", "--undecided" }, *arg = NULL;
	size_t len = 0;
	int k;
	double pct;

	if (!strcmp(argv[*i], "--mixed")) {
		o->mixed = true;
		return 1;
	}
	for (k = 0; k < 4; k++) {
		len = strlen(names[k]);
		if (!strncmp(argv[*i], names[k], len) && (!argv[*i][len] || argv[*i][len] == '='))
			break;
	}
	if (k == 4)
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
	struct cbench_runs *old = calloc(1, sizeof(*old)), *new = calloc(1, sizeof(*new));
	struct compare_options opt = { .min_effect = COMPARE_MIN_EFFECT_PCT / 100 };
	struct notes notes = { 0 };
	struct cbench_origin first = { 0 };
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
	if (!old || !new)
		goto out;
	old->first = new->first = &first;
	old->mixed = new->mixed = opt.mixed;
	old->cmd = new->cmd = "compare";
	if (cbench_runs_read(old, argv + 1, (size_t)nold) || cbench_runs_read(new, newv, (size_t)nnew))
		goto out;
	if (test_all(&opt, old, new, &rows, &nrows, &notes)) {
		cbench_err("unable to compare: %s\n", strerror(ENOMEM));
		goto out;
	}
	if (opt.junit) {
		struct cbench_compare_gate g = { .slower = opt.fail_on != GATE_NONE,
						 .faster = opt.fail_on == GATE_CHANGED,
						 .undecided_pass = opt.undecided_pass };

		if (cbench_compare_report_junit(stdout, rows, nrows, old, new, opt.min_effect, &g)) {
			cbench_err("unable to write the report: %s\n", strerror(EIO));
			goto out;
		}
	} else if (opt.json) {
		if (cbench_compare_report_json(stdout, rows, nrows, old, new, opt.min_effect)) {
			cbench_err("unable to write the report: %s\n", strerror(EIO));
			goto out;
		}
	} else {
		print_table(&opt, old, new, rows, nrows);
		print_legend(&opt, &notes);
		print_notes(&notes);
	}
	status = gate(&opt, &notes);
out:
	free(rows);
	if (old)
		cbench_runs_release(old);
	if (new)
		cbench_runs_release(new);
	free(old);
	free(new);
	return status;
}
