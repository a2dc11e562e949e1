// SPDX-License-Identifier: GPL-2.0
/*
 * The reports of `cbenchctl audit`: a text table, JSON, and the Go
 * benchmark data format.  Changes print in percent of A: positive is B
 * slower.  In Go format A's and B's result lines differ only in the `build`
 * configuration key, so `benchstat -col build` sets them side by side.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_audit.h"
#include "report/json_writer.h"
#include "report/context.h"
#include "report/report.h"
#include "stats/sequential.h"
#include "stats/stats.h"

const char *cbench_audit_verdict_name(const struct cbench_audit_pair *p)
{
	if (p->error)
		return "failed";
	switch (p->end.verdict) {
	case CBENCH_VERDICT_B_FASTER:
		return "faster";
	case CBENCH_VERDICT_B_SLOWER:
		return "slower";
	case CBENCH_VERDICT_EQUIVALENT:
		return "equivalent";
	default:
		return "inconclusive";
	}
}

const char *cbench_audit_under_min_effect(const struct cbench_audit_pair *p)
{
	const struct cbench_audit_end *e = &p->end;

	if (p->error || e->verdict != CBENCH_VERDICT_EQUIVALENT)
		return NULL;
	return e->lower > 0 ? "slower" : e->upper < 0 ? "faster" : NULL;
}

void cbench_audit_verdict_text(const struct cbench_audit_report *r, const struct cbench_audit_pair *p,
			       char *buf, size_t len)
{
	const struct cbench_audit_end *e = &p->end;
	double c = e->change * 100, lo = e->lower * 100, hi = e->upper * 100;

	if (p->error) {
		snprintf(buf, len, "failed: %s", p->reason);
		return;
	}
	switch (e->verdict) {
	case CBENCH_VERDICT_B_FASTER:
		/* Faster by a positive amount: the interval turns round too. */
		snprintf(buf, len, "B faster by %.2f %% [%.2f %%, %.2f %%]", -c, -hi, -lo);
		break;
	case CBENCH_VERDICT_B_SLOWER:
		snprintf(buf, len, "B slower by %.2f %% [%.2f %%, %.2f %%]", c, lo, hi);
		break;
	case CBENCH_VERDICT_EQUIVALENT:
		if (cbench_audit_under_min_effect(p))
			snprintf(buf, len, "equivalent within \u00b1%g %% (--min-effect), though B is %s by "
				 "%.2f %% [%.2f %%, %.2f %%]: a real change, under the threshold",
				 r->min_effect_pct, c > 0 ? "slower" : "faster", fabs(c),
				 c > 0 ? lo : -hi, c > 0 ? hi : -lo);
		else
			snprintf(buf, len, "equivalent within \u00b1%g %%", r->min_effect_pct);
		break;
	default:
		if (isnan(lo))
			snprintf(buf, len, "inconclusive after %g s (too few rounds for an interval)",
				 r->budget_s);
		else
			snprintf(buf, len, "inconclusive after %g s: B %+.2f %% [%+.2f %%, %+.2f %%] so far",
				 r->budget_s, c, lo, hi);
		break;
	}
}

static void pair_name(const struct cbench_audit_pair *p, char *buf, size_t len)
{
	if (!strcmp(p->a->id, p->b->id))
		snprintf(buf, len, "%s", p->a->id);
	else
		snprintf(buf, len, "%s vs %s", p->a->id, p->b->id);
}

/* How the timing points of a pair went. */
static void text_tp(const struct cbench_audit_report *r, const struct cbench_audit_pair *p, FILE *f)
{
	const struct cbench_tp_summary *a = &p->tp_side[0], *b = &p->tp_side[1];

	fprintf(f, "    timing points: per-iteration timings (%" PRIu64 " A / %" PRIu64
		" B recorded, stride %" PRIu64 "), MIN_TIMING %.1f ns, perturb A %.3g B %.3g\n",
		a->merged, b->merged, a->every, cbench_tp_min_timing_ns(a, r->timer.tsc_hz),
		a->perturb, b->perturb);
	if (a->perturb > CBENCH_TP_PERTURB_MAX || b->perturb > CBENCH_TP_PERTURB_MAX)
		fprintf(f, "    perturb score above 1: timings come close to the timing point's own cost\n");
}

/* What the rounds compared: est-cycles/op at the clock's level, or ns/op. */
static void text_figure(const struct cbench_audit_end *e, FILE *f)
{
	if (e->figure == CBENCH_AUDIT_EST_CYCLES)
		fprintf(f, "    rounds in est-cycles/op: each timing at the core clock's level the reference "
			"chain measured beside it (one reference every %" PRIu32 " timings); %" PRIu64
			" timing%s beside a jump of the clock left out\n", e->ref_every, e->left_out,
			e->left_out == 1 ? "" : "s");
	else
		fprintf(f, "    rounds in ns/op: wall time, which a jump of the core clock moves\n");
}

/* How the pair's placements went: how many, and how much of the rounds'
 * spread they explain. */
static void text_placement(const struct cbench_audit_pair *p, FILE *f)
{
	const struct cbench_audit_end *e = &p->end;
	double share = cbench_seq_share_beyond(e->round_var, e->noise_var);

	if (!e->placements[0]) {
		fprintf(f, "    placement: fixed (--fixed-placement): what suits one side's arena "
			"and stack counts as speed\n");
		return;
	}
	fprintf(f, "    placements %" PRIu32 " A / %" PRIu32 " B, new for each side every round "
		"(%" PRIu32 " measurements a side)", e->placements[0], e->placements[1], e->per_round);
	if (!isnan(share))
		fprintf(f, "; rounds vary by %.3g %%, %.0f %% of their variance beyond timing noise",
			100 * sqrt(e->round_var), 100 * share);
	fputc('\n', f);
}

/* Why a side's code stayed where it was loaded, in a clause: in ring 0 as
 * in user mode, the object's reason where it is not an option's. */
static const char *layout_stayed(const struct cbench_audit_report *r, int side)
{
	if (r->fixed_placement)
		return "fixed (--fixed-placement)";
	if (r->fixed_layout)
		return "fixed (--fixed-layout)";
	return r->layout[side].text[0] ? r->layout[side].text : "not sampled";
}

/* Where the layouts were drawn, after "new every round": in ring 0, each
 * the image cbench.ko ran (object/kimage_layout.h). */
static const char *layout_where(const struct cbench_audit_report *r)
{
	return r->backend && !strcmp(r->backend, "kmod") ?
	       ", in ring 0: each side's image laid out anew before its upload" : "";
}

void cbench_audit_layout_text(const struct cbench_audit_report *r, const struct cbench_audit_pair *p,
			      char *buf, size_t len)
{
	const struct cbench_audit_end *e = &p->end;
	bool one = !strcmp(r->layout[0].text, r->layout[1].text);

	if (e->layouts[0] && e->layouts[1])
		snprintf(buf, len, "%" PRIu32 " A / %" PRIu32 " B, new for each side every round%s (%s%s%s)",
			 e->layouts[0], e->layouts[1], layout_where(r), r->layout[0].text, one ? "" : "; B: ",
			 one ? "" : r->layout[1].text);
	else if (e->layouts[0] || e->layouts[1])
		snprintf(buf, len, "%s's new every round (%" PRIu32 ")%s; %s's stays where it was loaded, "
			 "so what suits its layout counts as its speed: %s", e->layouts[0] ? "A" : "B",
			 e->layouts[0] ? e->layouts[0] : e->layouts[1], layout_where(r), e->layouts[0] ? "B" : "A",
			 layout_stayed(r, e->layouts[0] ? 1 : 0));
	else if (one || r->fixed_placement || r->fixed_layout)
		snprintf(buf, len, "where it was loaded, so what suits one side's layout counts as its "
			 "speed: %s", layout_stayed(r, 0));
	else
		snprintf(buf, len, "where it was loaded, so what suits one side's layout counts as its "
			 "speed: A: %s; B: %s", layout_stayed(r, 0), layout_stayed(r, 1));
}

/*
 * What the interval's half-width is made of (log scale, in percent): the
 * confidence sequence's order statistics over the rounds' spread, and the
 * timer step's bound (sequential.h, its mean over the rounds), which no
 * number of rounds narrows.  The interval need not be symmetric: the
 * half-width is half its length.
 */
static void text_interval(const struct cbench_audit_end *e, FILE *f)
{
	double half = (log1p(e->upper) - log1p(e->lower)) / 2;

	if (isnan(half) || isnan(e->step_bound))
		return;
	fprintf(f, "    interval \u00b1%.3g %%: \u00b1%.3g %% from the rounds' spread, \u00b1%.3g %% "
		"for the timer's step (one step of each side's quartile)\n", 100 * half,
		100 * (half - e->step_bound), 100 * e->step_bound);
}

int cbench_audit_report_text(const struct cbench_audit_report *r, FILE *f)
{
	fprintf(f, "audit: seed %" PRIu64 ", confidence %g, min-effect %g %%, budget %g s, backend %s%s%s\n",
		r->seed, r->confidence, r->min_effect_pct, r->budget_s, r->backend,
		r->quiet[0] ? ", quiet mode " : "", r->quiet);
	fprintf(f, "timer: %s\n", r->timer.name);
	fprintf(f, "run: %s on %s: %s\n", cbench_context()->date, cbench_context()->host,
		cbench_context()->command);
	for (size_t i = 0; i < r->npairs; i++) {
		const struct cbench_audit_pair *p = &r->pairs[i];
		char name[2 * CBENCH_ID_MAX + 8], verdict[800];

		pair_name(p, name, sizeof(name));
		cbench_audit_verdict_text(r, p, verdict, sizeof(verdict));
		fprintf(f, "%s: %s\n", name, verdict);
		if (p->error)
			continue;
		fprintf(f, "    timings %zu A / %zu B, rounds %" PRIu32 ", wall %.3g s, "
			"converge A %.3g B %.3g, reps A %" PRIu64 " B %" PRIu64 "\n",
			p->timings_a, p->timings_b, p->end.rounds, p->end.wall_s, p->converge_a,
			p->converge_b, p->n_a, p->n_b);
		text_interval(&p->end, f);
		text_figure(&p->end, f);
		text_placement(p, f);
		{
			char layout[1600];

			cbench_audit_layout_text(r, p, layout, sizeof(layout));
			fprintf(f, "    code layout: %s\n", layout);
		}
		if (p->tp)
			text_tp(r, p, f);
		if (p->tp_note[0])
			fprintf(f, "    %s\n", p->tp_note);
	}
	fflush(f);
	return ferror(f) ? -EIO : 0;
}

/*
 * "placement": the placements of each side (0: fixed), measurements a side
 * per round, the spread of the round statistic and the part of it noise
 * within rounds predicts (standard deviations in percent), and the share
 * of the round variance beyond that noise (a fraction).
 */
static void json_placement(struct cbench_jsonw *j, const struct cbench_audit_end *e)
{
	cbench_jsonw_object_start(j, "placement");
	cbench_jsonw_bool(j, "redrawn", e->placements[0] != 0);
	cbench_jsonw_uint(j, "a", e->placements[0]);
	cbench_jsonw_uint(j, "b", e->placements[1]);
	cbench_jsonw_uint(j, "per_round", e->per_round);
	cbench_jsonw_measured(j, "round_sd_pct", 100 * sqrt(e->round_var));
	cbench_jsonw_measured(j, "noise_sd_pct", 100 * sqrt(e->noise_var));
	cbench_jsonw_measured(j, "share", cbench_seq_share_beyond(e->round_var, e->noise_var));
	cbench_jsonw_object_end(j);
}

/* "code_layout": the layouts of each side (0: its code stayed where it
 * was loaded), what could move of each side's object, and the sentence. */
static void json_layout(struct cbench_jsonw *j, const struct cbench_audit_report *r,
			const struct cbench_audit_pair *p)
{
	static const char *const modes[] = { "none", "sections", "functions" };
	char text[1600];

	cbench_audit_layout_text(r, p, text, sizeof(text));
	cbench_jsonw_object_start(j, "code_layout");
	cbench_jsonw_bool(j, "sampled", p->end.layouts[0] || p->end.layouts[1]);
	cbench_jsonw_uint(j, "a", p->end.layouts[0]);
	cbench_jsonw_uint(j, "b", p->end.layouts[1]);
	for (int i = 0; i < 2; i++)
		cbench_jsonw_string(j, i ? "b_moves" : "a_moves",
				    modes[r->layout[i].mode >= 0 && r->layout[i].mode < 3 ? r->layout[i].mode : 0]);
	cbench_jsonw_string(j, "note", text);
	cbench_jsonw_object_end(j);
}

static void json_pair(struct cbench_jsonw *j, const struct cbench_audit_report *r,
		      const struct cbench_audit_pair *p, double tsc_hz)
{
	cbench_jsonw_object_start(j, NULL);
	cbench_jsonw_string(j, "name", p->a->report_name);
	cbench_jsonw_string(j, "id", p->a->id);
	cbench_jsonw_string(j, "a", p->a->id);
	cbench_jsonw_string(j, "b", p->b->id);
	cbench_jsonw_string(j, "verdict", cbench_audit_verdict_name(p));
	/* An equivalent verdict --min-effect alone made: the change is real. */
	if (cbench_audit_under_min_effect(p))
		cbench_jsonw_string(j, "under_min_effect", cbench_audit_under_min_effect(p));
	if (p->error) {
		cbench_jsonw_string(j, "error", p->reason);
		cbench_jsonw_object_end(j);
		return;
	}
	/* In percent of A, like min_effect; null where not known yet. */
	cbench_jsonw_double(j, "change", p->end.change * 100);
	cbench_jsonw_double(j, "lower", p->end.lower * 100);
	cbench_jsonw_double(j, "upper", p->end.upper * 100);
	/* Of the interval's half-width on the log scale, what the timer's
	 * step accounts for (sequential.h), in percent. */
	cbench_jsonw_measured(j, "step_bound_pct", p->end.step_bound * 100);
	cbench_jsonw_uint(j, "rounds", p->end.rounds);
	cbench_jsonw_uint(j, "timings_a", p->timings_a);
	cbench_jsonw_uint(j, "timings_b", p->timings_b);
	cbench_jsonw_double(j, "wall_s", p->end.wall_s);
	cbench_jsonw_double(j, "converge_a", p->converge_a);
	cbench_jsonw_double(j, "converge_b", p->converge_b);
	cbench_jsonw_uint(j, "reps_a", p->n_a);
	cbench_jsonw_uint(j, "reps_b", p->n_b);
	cbench_jsonw_string(j, "figure", p->end.figure == CBENCH_AUDIT_EST_CYCLES ? "est-cycles/op" : "ns/op");
	if (p->end.figure == CBENCH_AUDIT_EST_CYCLES) {
		cbench_jsonw_uint(j, "reference_every", p->end.ref_every);
		cbench_jsonw_uint(j, "left_out", p->end.left_out);
	}
	json_placement(j, &p->end);
	json_layout(j, r, p);
	/* Present when the audit compared per-iteration timings. */
	if (p->tp) {
		cbench_jsonw_object_start(j, "tpoints");
		cbench_report_json_tp(j, "a", &p->tp_side[0], tsc_hz);
		cbench_report_json_tp(j, "b", &p->tp_side[1], tsc_hz);
		cbench_jsonw_object_end(j);
	}
	if (p->tp_note[0])
		cbench_jsonw_string(j, "tpoints_note", p->tp_note);
	cbench_jsonw_object_end(j);
}

int cbench_audit_report_json(const struct cbench_audit_report *r, FILE *f)
{
	const struct cbench_report_head head = { .machine = &r->machine, .version = CBENCH_VERSION,
						 .backend = r->backend, .quiet = r->quiet,
						 .timer = r->timer.name };
	struct cbench_jsonw j;

	cbench_jsonw_init(&j, f, true);
	cbench_jsonw_object_start(&j, NULL);
	cbench_jsonw_uint(&j, "schema_version", CBENCH_JSON_SCHEMA_VERSION);
	cbench_jsonw_object_start(&j, "config");
	cbench_report_head_put(&j, &head);
	cbench_jsonw_uint(&j, "seed", r->seed);
	cbench_jsonw_double(&j, "confidence", r->confidence);
	cbench_jsonw_double(&j, "budget", r->budget_s);
	cbench_jsonw_double(&j, "min_effect", r->min_effect_pct);
	cbench_jsonw_bool(&j, "tpoints", !r->no_tpoints);
	cbench_jsonw_bool(&j, "fixed_placement", r->fixed_placement);
	cbench_jsonw_bool(&j, "fixed_layout", r->fixed_layout);
	cbench_jsonw_object_end(&j);
	cbench_jsonw_array_start(&j, "audits");
	for (size_t i = 0; i < r->npairs; i++)
		json_pair(&j, r, &r->pairs[i], r->timer.tsc_hz);
	cbench_jsonw_array_end(&j);
	cbench_jsonw_object_end(&j);
	return cbench_jsonw_finish(&j);
}

static int by_value(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

/* With timing points: the round's lower quartile of per-iteration times. */
static void go_tp_side(const struct cbench_audit_pair *p, uint32_t side, FILE *f)
{
	uint64_t n = side ? p->n_b : p->n_a;

	for (size_t i = 0; i < p->ntp_rounds; i++) {
		if (p->tp_rounds[i].side == side && !isnan(p->tp_rounds[i].q_ns))
			fprintf(f, "%s %" PRIu64 " %.4f ns/iter\n", p->a->report_name, n,
				p->tp_rounds[i].q_ns);
	}
}

/* One result line per round of one side: the round's lower quartile, the
 * statistic the audit compares. */
static int go_side(const struct cbench_audit_pair *p, uint32_t side, FILE *f)
{
	double *v = malloc((p->ntimings ? p->ntimings : 1) * sizeof(*v));
	double *c = malloc((p->ntimings ? p->ntimings : 1) * sizeof(*c));
	uint64_t n = side ? p->n_b : p->n_a, iterations;
	const struct cbench_desc *d = side ? p->b->desc : p->a->desc;
	uint64_t ops = d && d->ops_per_rep ? d->ops_per_rep : 1;
	size_t i = 0;

	if (!v || !c) {
		free(v);
		free(c);
		return -ENOMEM;
	}
	if (p->tp)
		go_tp_side(p, side, f);
	while (i < p->ntimings) {
		uint32_t round = p->timings[i].round;
		size_t k = 0, kc = 0;

		for (; i < p->ntimings && p->timings[i].round == round; i++) {
			if (p->timings[i].side != side)
				continue;
			v[k++] = p->timings[i].ns_per_op;
			if (!isnan(p->timings[i].est_cycles_per_op))
				c[kc++] = p->timings[i].est_cycles_per_op;
		}
		if (!k)
			continue;
		qsort(v, k, sizeof(*v), by_value);
		/* Go's b.N: the operations of the round's timings of this side. */
		if (__builtin_mul_overflow(n, (uint64_t)k * ops, &iterations))
			iterations = UINT64_MAX;
		fprintf(f, "%s %" PRIu64 " %.4f ns/op", p->a->report_name, iterations,
			cbench_stats_quantile(v, k, CBENCH_SEQ_QUANTILE));
		/* The figure the audit compared, where it was est-cycles. */
		if (kc) {
			qsort(c, kc, sizeof(*c), by_value);
			fprintf(f, " %.6g est-cycles/op", cbench_stats_quantile(c, kc, CBENCH_SEQ_QUANTILE));
		}
		fprintf(f, "\n");
	}
	free(c);
	free(v);
	return 0;
}

/* A pair's placements, as a comment. */
static void go_placement(const struct cbench_audit_pair *p, FILE *f)
{
	const struct cbench_audit_end *e = &p->end;
	double share = cbench_seq_share_beyond(e->round_var, e->noise_var);

	if (!e->placements[0]) {
		fprintf(f, "# %s: placement fixed (--fixed-placement)\n", p->a->report_name);
		return;
	}
	fprintf(f, "# %s: placements A %" PRIu32 ", B %" PRIu32 ", new each round", p->a->report_name,
		e->placements[0], e->placements[1]);
	if (!isnan(share))
		fprintf(f, "; %.0f%% of the round variance beyond timing noise", 100 * share);
	fputc('\n', f);
}

int cbench_audit_report_go(const struct cbench_audit_report *r, FILE *f)
{
	int ret = 0;

	fprintf(f, "goos: linux\ngoarch: amd64\nbackend: %s\n", r->backend);
	if (r->quiet[0])
		fprintf(f, "quiet-mode: %s\n", r->quiet);
	fprintf(f, "# date: %s\n# host: %s\n# command: %s\n", cbench_context()->date,
		cbench_context()->host, cbench_context()->command);
	fprintf(f, "# seed: %" PRIu64 "\n# confidence: %g\n# timer: %s\n", r->seed, r->confidence,
		r->timer.name);
	if (r->fixed_placement)
		fprintf(f, "# placement: fixed\n");
	for (uint32_t side = 0; side < 2 && !ret; side++) {
		fprintf(f, "build: %s\n", side ? "B" : "A");
		for (size_t i = 0; i < r->npairs && !ret; i++) {
			const struct cbench_audit_pair *p = &r->pairs[i];

			/* One name for both sides, A's: benchstat pairs lines by
			 * name, and an audit of two benchmarks of one object
			 * compares two names. */
			if (side == 0 && strcmp(p->a->id, p->b->id))
				fprintf(f, "# %s: A is %s, B is %s\n", p->a->report_name, p->a->id,
					p->b->id);
			if (side == 0 && p->tp_note[0])
				fprintf(f, "# %s: %s\n", p->a->report_name, p->tp_note);
			if (side == 0 && !p->error) {
				char layout[1600];

				go_placement(p, f);
				cbench_audit_layout_text(r, p, layout, sizeof(layout));
				fprintf(f, "# %s: code layout: %s\n", p->a->report_name, layout);
			}
			if (!p->error)
				ret = go_side(p, side, f);
		}
	}
	fflush(f);
	return ret ? ret : ferror(f) ? -EIO : 0;
}
