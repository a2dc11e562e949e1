// SPDX-License-Identifier: GPL-2.0
/*
 * A benchmark of a run's report read back as a result (doc.h): the
 * report's own figures, each as it was written, never computed again (its
 * trials' measurements are not in the report, and the moments they were
 * measured in are not this run's).  The JSON report writes the member
 * itself again where a run carries it over (result->carried); every other
 * writer and reader takes the fields filled here.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/figures.h"
#include "report/json.h"
#include "results/doc.h"
#include "stats/trials.h"

/* A member's number, NAN where absent or null: not available. */
static double figure(const struct cbench_json *v, const char *key)
{
	return cbench_json_number(v, key, NAN);
}

static uint64_t whole(const struct cbench_json *v, const char *key)
{
	uint64_t x = 0;

	return cbench_json_u64(v, key, &x) ? x : 0;
}

static bool flag(const struct cbench_json *v, const char *key)
{
	const struct cbench_json *b = cbench_json_get(v, key);

	return b && b->type == CBENCH_JSON_BOOL && b->boolean;
}

static void text(char *dst, size_t len, const struct cbench_json *v, const char *key)
{
	snprintf(dst, len, "%s", cbench_json_string(v, key, ""));
}

/* A cause by its name in reports (cbench_trial_cause_name); kept if unknown. */
static int cause_of(const char *name)
{
	for (int c = CBENCH_TRIAL_KEPT; c <= CBENCH_TRIAL_SHARED; c++) {
		if (!strcmp(cbench_trial_cause_name(c), name))
			return c;
	}
	return CBENCH_TRIAL_KEPT;
}

/* The figures of one "tpoints" member (cbench_report_json_tp). */
static void read_tp(const struct cbench_json *v, struct cbench_tp_summary *s)
{
	static const char *const names[CBENCH_TP_QUANTILES] = { "p1", "p25", "p50", "p75", "p99" };
	const struct cbench_json *q = cbench_json_get(v, "ns_per_iteration");

	memset(s, 0, sizeof(*s));
	s->every = whole(v, "every");
	s->calls = (uint32_t)whole(v, "calls");
	s->merged = whole(v, "timings");
	s->iterations = whole(v, "iterations");
	s->skipped = whole(v, "skipped");
	s->dropped = whole(v, "dropped");
	s->min_timing_ticks = figure(v, "min_timing_ticks");
	s->perturb = figure(v, "perturb_score");
	for (int i = 0; i < CBENCH_TP_QUANTILES; i++)
		s->q_ns[i] = figure(q, names[i]);
	s->mean_ns = figure(q, "mean");
	s->stddev_ns = figure(q, "stddev");
}

static void read_discarded_by(const struct cbench_json *v, struct cbench_trial *t)
{
	const struct cbench_json *by = cbench_json_get(v, "discarded_by");

	for (unsigned int k = 0; k < CBENCH_DISTURB_KINDS; k++)
		t->discarded_by[k] = (size_t)whole(by, cbench_disturb_names[k]);
}

/* A trial's "clock": how its est-cycles/op was formed. */
static void read_clock(const struct cbench_json *c, struct cbench_trial *t)
{
	const char *how = c ? cbench_json_string(c, "how", "") : "";

	t->clock_how = CBENCH_CLOCK_NONE;
	t->clock_tolerance = NAN;
	for (int k = CBENCH_CLOCK_NONE; k <= CBENCH_CLOCK_UNSTEADY; k++)
		if (!strcmp(how, cbench_clock_how_names[k]))
			t->clock_how = k;
	if (!c)
		return;
	t->clock_matched = (size_t)whole(c, "matched");
	t->clock_levels = (size_t)whole(c, "levels");
	t->clock_jumps = (size_t)whole(c, "jumps");
	t->clock_tolerance = figure(c, "tolerance");
}

/* One member of "trials" (doc_write.c's put_trial). */
static void read_trial(const struct cbench_json *v, struct cbench_trial *t)
{
	const char *status = cbench_json_string(v, "status", "failed");
	const struct cbench_json *tp = cbench_json_get(v, "tpoints");

	memset(t, 0, sizeof(*t));
	t->summarized = true;
	t->ns_per_op = t->min_ns_per_op = t->median_ns_per_op = t->max_ns_per_op = NAN;
	t->cv = t->mb_per_s = t->est_cycles_per_op = t->step_share = NAN;
	t->core_ghz = t->clock_moved = NAN;
	t->instructions_per_op = t->cycles_per_op = t->ref_cycles_per_op = NAN;
	t->figures.bytes_per_op = t->figures.allocs_per_op = NAN;
	t->half_ns_per_op[0] = t->half_ns_per_op[1] = NAN;
	/* Its wall time, as a span from 0: when it ran is not this run's. */
	t->end_s = cbench_json_number(v, "wall_s", 0);
	if (!strcmp(status, "failed")) {
		t->error = -EIO;
		text(t->reason, sizeof(t->reason), v, "reason");
		return;
	}
	t->set_aside = !strcmp(status, "set_aside");
	t->cause = cause_of(cbench_json_string(v, "cause", ""));
	t->beside = (size_t)whole(v, "slow_beside");
	t->replacement = flag(v, "replacement");
	t->n = whole(v, "n");
	t->iterations = whole(v, "iterations");
	/* Where it ran: its CPU of a run on several, its code layout. */
	t->cpu = (int)cbench_json_number(v, "cpu", 0);
	t->solo = flag(v, "solo");
	t->layout = (uint32_t)whole(v, "code_layout");
	t->run_offset = whole(v, "run_offset");
	/* Every figure by its row's way in (figures.h): a new one is read
	 * back without a word here. */
	for (unsigned int i = 0; i < cbench_nfigures; i++) {
		const struct cbench_figure *f = &cbench_figures[i];

		if (f->set && cbench_json_get(v, f->name))
			f->set(t, figure(v, f->name));
	}
	t->min_ns_per_op = figure(v, "min_ns_per_op");
	t->median_ns_per_op = figure(v, "median_ns_per_op");
	t->max_ns_per_op = figure(v, "max_ns_per_op");
	t->cv = figure(v, "cv");
	t->nsamples = (size_t)whole(v, "measurements");
	t->discarded = (size_t)whole(v, "discarded");
	t->valid = t->nsamples - (t->discarded < t->nsamples ? t->discarded : t->nsamples);
	read_discarded_by(v, t);
	read_clock(cbench_json_get(v, "clock"), t);
	t->have_tp = tp != NULL;
	if (tp)
		read_tp(tp, &t->tp);
}

/* Why --precision ended its trials where it did ("stopped"). */
static void read_stopped(const struct cbench_json *v, struct cbench_result *res)
{
	const char *why = cbench_json_string(v, "why", "");

	res->stop = CBENCH_STOP_NONE;
	for (int k = CBENCH_STOP_PRECISE; v && k <= CBENCH_STOP_BUDGET; k++)
		if (!strcmp(why, cbench_stop_names[k]))
			res->stop = (enum cbench_stop)k;
	res->stop_est = !strcmp(cbench_json_string(v, "judged_by", ""), "est_cycles_per_op");
	res->stop_half = figure(v, "interval_pct") / 100;
}

/* Whether a row before m reads m's field: a number written twice. */
static bool read_before(const struct cbench_result_member *m)
{
	for (const struct cbench_result_member *p = cbench_result_members; p < m; p++)
		if (p->offset == m->offset && p->kind <= CBENCH_MEMBER_SD_PERCENT)
			return true;
	return false;
}

/* One member of a result, by its row (report/result_figures.c); where it
 * is absent, the field is as if not available (NAN, 0, false, ""). */
static void read_member(const struct cbench_json *b, const struct cbench_result_member *m,
			struct cbench_result *res)
{
	const struct cbench_json *v = cbench_json_get(b, m->name);
	char *at = (char *)res + m->offset;
	uint64_t count64;
	size_t count;
	double x;
	bool yes;

	switch (m->kind) {
	case CBENCH_MEMBER_COUNT:
		count = (size_t)whole(b, m->name);
		memcpy(at, &count, sizeof(count));
		return;
	case CBENCH_MEMBER_COUNT64:
		count64 = whole(b, m->name);
		memcpy(at, &count64, sizeof(count64));
		return;
	case CBENCH_MEMBER_FLAG:
		yes = flag(b, m->name);
		memcpy(at, &yes, sizeof(yes));
		return;
	case CBENCH_MEMBER_TEXT:
	case CBENCH_MEMBER_ARENA_PAGES:
		text(at, m->size, b, m->name);
		return;
	case CBENCH_MEMBER_STOPPED:
		read_stopped(v, res);
		return;
	case CBENCH_MEMBER_WORD:
		return;		/* formed from the others */
	default:
		break;
	}
	/* A figure under another name too (the headline's): the last present wins. */
	if (!v && read_before(m))
		return;
	x = figure(b, m->name);
	if (m->kind == CBENCH_MEMBER_PERCENT)
		x /= 100;
	else if (m->kind == CBENCH_MEMBER_SD_PERCENT)
		x = x / 100 * (x / 100);
	memcpy(at, &x, sizeof(x));
	if (m->counter && !isnan(x))
		res->have |= m->counter;
}

/* The result's own figures, and its timing points. */
static void read_figures(const struct cbench_json *b, struct cbench_result *res)
{
	const struct cbench_json *tp = cbench_json_get(b, "tpoints");

	res->have = 0;
	for (unsigned int i = 0; i < cbench_nresult_members; i++)
		read_member(b, &cbench_result_members[i], res);
	res->have_tp = tp != NULL;
	if (tp)
		read_tp(tp, &res->tp);
}

int cbench_doc_result(const struct cbench_doc_bench *d, struct cbench_result *res)
{
	static const char *const tunings[] = { "cached", "tuned", "failed", "per-rep" };
	const struct cbench_json *b = d->json, *trials = cbench_json_get(b, "trials");
	const char *tuning = cbench_json_string(b, "tuning", "");

	res->tuning = "cached";
	for (size_t i = 0; i < sizeof(tunings) / sizeof(tunings[0]); i++)
		res->tuning = !strcmp(tuning, tunings[i]) ? tunings[i] : res->tuning;
	res->ntrials = trials && trials->type == CBENCH_JSON_ARRAY ? trials->n : 0;
	res->trials = calloc(res->ntrials ? res->ntrials : 1, sizeof(*res->trials));
	if (!res->trials)
		return -ENOMEM;
	for (size_t i = 0; i < res->ntrials; i++)
		read_trial(&trials->items[i], &res->trials[i]);
	read_figures(b, res);
	for (size_t i = 0; i < res->ntrials; i++)
		res->replacements += res->trials[i].replacement;
	res->carried = b;
	return 0;
}

void cbench_doc_trials_carry(const struct cbench_doc_bench *d, struct cbench_result *res, size_t most)
{
	const struct cbench_json *trials = cbench_json_get(d->json, "trials");
	size_t n = 0;

	for (size_t i = 0; trials && trials->type == CBENCH_JSON_ARRAY && i < trials->n && n < most; i++) {
		struct cbench_trial *t = &res->trials[n];

		read_trial(&trials->items[i], t);
		/* Its replacements are this run's business, as its own are. */
		if (t->replacement)
			continue;
		/* Kept on a shared core only because that run stopped (report.c's
		 * shared_back()): this one measures it again. */
		if (t->cause == CBENCH_TRIAL_SHARED)
			t->set_aside = true;
		t->carried = true;
		n++;
	}
	res->carried_trials = n;
}

size_t cbench_doc_trials_done(const struct cbench_doc_bench *d)
{
	const struct cbench_json *trials = cbench_json_get(d->json, "trials");
	size_t done = 0;

	for (size_t i = 0; trials && trials->type == CBENCH_JSON_ARRAY && i < trials->n; i++)
		done += !flag(&trials->items[i], "replacement");
	return done;
}

bool cbench_doc_trial_value(const struct cbench_trial *t, int m, double *v)
{
	const struct cbench_figure *f = cbench_metric_figure((enum cbench_metric)m);

	*v = NAN;
	if (t->error || t->set_aside || !f || !f->get(t, v))
		return false;
	return isfinite(*v) && *v > 0;
}
