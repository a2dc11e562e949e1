// SPDX-License-Identifier: GPL-2.0
/* Summaries shared by every report format. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine/reference.h"
#include "report/report.h"
#include "report/report_jobs.h"
#include "stats/levels.h"
#include "stats/sequential.h"
#include "stats/stats.h"
#include "stats/trials.h"

double cbench_sample_ns_per_op(const struct cbench_report *r, const struct cbench_experiment *e,
			       const struct cbench_sample *s)
{
	uint64_t ops = e->desc->ops_per_rep ? e->desc->ops_per_rep : 1;

	return (double)s->ticks * 1e9 / r->timer.tsc_hz / ((double)s->reps * (double)ops);
}

const char *cbench_disturb_name(uint32_t d)
{
	/* The most telling first: a migration explains a context switch. */
	static const uint32_t order[] = { CBENCH_DISTURB_MIGRATION, CBENCH_DISTURB_CSWITCH,
					  CBENCH_DISTURB_FAULT, CBENCH_DISTURB_COUNTER,
					  CBENCH_DISTURB_SMI, CBENCH_DISTURB_NMI, CBENCH_DISTURB_IRQ,
					  CBENCH_DISTURB_OVER_BUDGET };

	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		if (d & order[i])
			return cbench_disturb_names[__builtin_ctz(order[i])];
	}
	return "";
}

/* The floor mean of the valid ticks of samples (all of one reps count). */
static double floor_ticks(const struct cbench_sample *s, size_t n, double step, double *v)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		if (!s[i].disturbed)
			v[k++] = (double)s[i].ticks;
	}
	return cbench_stats_floor_mean(v, k, step);
}

/*
 * Core cycles per tick from the trial's reference measurements (1 cycle
 * per add), over samples [from, to); NAN without valid ones.
 */
static double ref_cycles_per_tick(const struct cbench_report *r, const struct cbench_trial *t,
				  size_t from, size_t to, double *v)
{
	double ticks;

	if (to <= from)
		return NAN;
	ticks = floor_ticks(t->ref_samples + from, to - from, r->timer.step_ticks, v);
	if (!(ticks > 0))
		return NAN;
	return (double)t->ref_samples[from].reps * CBENCH_REF_ADDS_PER_REP / ticks;
}

const char *const cbench_clock_how_names[] = {
	[CBENCH_CLOCK_NONE] = "none", [CBENCH_CLOCK_MATCHED] = "matched",
	[CBENCH_CLOCK_TRIAL] = "trial", [CBENCH_CLOCK_UNSTEADY] = "unsteady",
};

/* The clock the trial saw over its whole length, and how much it moved
 * between its halves: where its references cannot be matched. */
static double trial_clock(const struct cbench_report *r, struct cbench_trial *t, double *v)
{
	size_t half = t->nref_samples / 2;
	double all = ref_cycles_per_tick(r, t, 0, t->nref_samples, v);
	double first = ref_cycles_per_tick(r, t, 0, half, v);
	double second = ref_cycles_per_tick(r, t, half, t->nref_samples, v);

	t->core_ghz = all * r->timer.tsc_hz * 1e-9;
	t->clock_moved = fabs(second - first) / ((first + second) / 2);
	return all;
}

/* Samples as the level matcher sees them (stats/levels.h). */
static struct cbench_level_point *level_points(const struct cbench_sample *s, size_t n)
{
	struct cbench_level_point *p = malloc((n ? n : 1) * sizeof(*p));

	for (size_t i = 0; p && i < n; i++) {
		p[i].ticks_per_rep = s[i].disturbed || !s[i].reps ? NAN :
				     (double)s[i].ticks / (double)s[i].reps;
		p[i].at = s[i].start_ticks;
	}
	return p;
}

/*
 * est-cycles/op of the trial t (struct cbench_trial.clock_how): within one
 * clock level, from the measurements with a steady clock on both sides and
 * the references around them, where the backend took a reference right
 * after each measurement; else from the trial's floors (the clock's whole
 * range), the calibration's clock without references.  ns_per_op: the
 * trial's own estimate, for the last two.
 */
static void trial_cycles(const struct cbench_report *r, const struct cbench_experiment *e,
			 struct cbench_trial *t, double *v)
{
	uint64_t ops = e->desc->ops_per_rep ? e->desc->ops_per_rep : 1;
	struct cbench_level_point *bench, *ref;
	double cycles_per_tick, ref_reps;
	struct cbench_levels l = { 0 };
	int ret = -ENODATA;

	t->clock_how = CBENCH_CLOCK_NONE;
	t->clock_matched = t->clock_levels = t->clock_jumps = 0;
	t->clock_tolerance = NAN;
	if (!t->nref_samples || !t->valid) {
		if (t->valid && r->timer.est_cycles_per_tick > 0)
			t->est_cycles_per_op = t->ns_per_op * r->timer.tsc_hz * 1e-9 *
					       r->timer.est_cycles_per_tick;
		return;
	}
	bench = level_points(t->samples, t->nsamples);
	ref = level_points(t->ref_samples, t->nref_samples);
	ref_reps = (double)t->ref_samples[0].reps;
	if (bench && ref && t->samples[0].reps && ref_reps > 0)
		ret = cbench_levels_match(bench, t->nsamples, ref, t->nref_samples,
					  r->timer.step_ticks / (double)t->samples[0].reps,
					  r->timer.step_ticks / ref_reps, &l);
	free(bench);
	free(ref);
	if (ret == 0 || ret == -ERANGE) {
		t->clock_matched = l.matched;
		t->clock_levels = l.levels;
		t->clock_jumps = l.jumps;
		t->clock_tolerance = l.tolerance;
	}
	if (ret == -ERANGE) {
		/* No level held long enough: what the clock did, no figure. */
		trial_clock(r, t, v);
		t->clock_how = CBENCH_CLOCK_UNSTEADY;
		return;
	}
	if (ret) {
		cycles_per_tick = trial_clock(r, t, v);
		t->clock_how = CBENCH_CLOCK_TRIAL;
		if (cycles_per_tick > 0)
			t->est_cycles_per_op = t->ns_per_op * r->timer.tsc_hz * 1e-9 * cycles_per_tick;
		return;
	}
	cycles_per_tick = CBENCH_REF_ADDS_PER_REP / l.ref_ticks;
	t->clock_how = CBENCH_CLOCK_MATCHED;
	t->core_ghz = cycles_per_tick * r->timer.tsc_hz * 1e-9;
	t->clock_moved = l.moved;
	t->est_cycles_per_op = l.bench_ticks / (double)ops * cycles_per_tick;
}

static void summarize_trial(const struct cbench_report *r, const struct cbench_experiment *e,
			    struct cbench_trial *t)
{
	const struct cbench_desc *d = e->desc;
	size_t most = t->nsamples > t->nref_samples ? t->nsamples : t->nref_samples;
	double *v = malloc((most ? most : 1) * sizeof(*v));
	const struct cbench_sample *fastest = NULL;
	uint64_t ops = d->ops_per_rep ? d->ops_per_rep : 1;
	double ticks_to_ns_per_op = 0;
	uint64_t n_ops;

	t->valid = t->discarded = 0;
	memset(t->discarded_by, 0, sizeof(t->discarded_by));
	t->iterations = 0;
	t->ns_per_op = t->min_ns_per_op = t->median_ns_per_op = t->max_ns_per_op = t->cv = NAN;
	t->half_ns_per_op[0] = t->half_ns_per_op[1] = NAN;
	t->mb_per_s = t->est_cycles_per_op = t->step_share = NAN;
	t->core_ghz = t->clock_moved = NAN;
	t->clock_how = CBENCH_CLOCK_NONE;
	t->clock_matched = t->clock_levels = t->clock_jumps = 0;
	t->clock_tolerance = NAN;
	t->instructions_per_op = t->cycles_per_op = t->ref_cycles_per_op = NAN;
	t->have = 0;
	if (!v)
		return;
	for (size_t i = 0; i < t->nsamples; i++) {
		const struct cbench_sample *s = &t->samples[i];

		if (s->disturbed) {
			t->discarded++;
			for (unsigned int k = 0; k < CBENCH_DISTURB_KINDS; k++)
				t->discarded_by[k] += (s->disturbed >> k) & 1;
			continue;
		}
		v[t->valid++] = cbench_sample_ns_per_op(r, e, s);
		/* Saturates: 2^40 ops a rep times 2^48 reps would wrap. */
		if (__builtin_mul_overflow(s->reps, ops, &n_ops) ||
		    __builtin_add_overflow(t->iterations, n_ops, &t->iterations))
			t->iterations = UINT64_MAX;
		if (!fastest || s->ticks * fastest->reps < fastest->ticks * s->reps)
			fastest = s;
	}
	if (fastest)
		ticks_to_ns_per_op = 1e9 / r->timer.tsc_hz / ((double)fastest->reps * (double)ops);
	if (t->valid) {
		double bytes;

		t->min_ns_per_op = cbench_stats_min(v, t->valid);
		t->median_ns_per_op = cbench_stats_median(v, t->valid);
		t->max_ns_per_op = cbench_stats_max(v, t->valid);
		t->cv = cbench_stats_cv(v, t->valid);
		/* Every measurement of a trial has the same reps, so the step in
		 * ns/op is one for all. */
		t->ns_per_op = cbench_stats_floor_mean(v, t->valid, r->timer.step_ticks * ticks_to_ns_per_op);
		if (t->valid >= 2) {
			t->half_ns_per_op[0] = cbench_stats_floor_mean(v, t->valid / 2,
								       r->timer.step_ticks * ticks_to_ns_per_op);
			t->half_ns_per_op[1] = cbench_stats_floor_mean(v + t->valid / 2, t->valid - t->valid / 2,
								       r->timer.step_ticks * ticks_to_ns_per_op);
		}
		t->step_share = r->timer.step_ticks * ticks_to_ns_per_op / t->median_ns_per_op;
		bytes = (double)d->bytes_per_rep / (double)ops;
		if (e->size_arg)
			bytes *= (double)e->args[e->size_arg - 1].i;
		if (bytes > 0 && t->ns_per_op > 0)
			t->mb_per_s = bytes * 1e3 / t->ns_per_op;
	}
	trial_cycles(r, e, t, v);
	if (fastest && fastest->have) {
		double per = (double)fastest->reps * (double)ops;

		t->have = fastest->have;
		if (t->have & CBENCH_HAVE_INSTRUCTIONS)
			t->instructions_per_op = (double)fastest->instructions / per;
		if (t->have & CBENCH_HAVE_CYCLES)
			t->cycles_per_op = (double)fastest->cycles / per;
		if (t->have & CBENCH_HAVE_REF_CYCLES)
			t->ref_cycles_per_op = (double)fastest->ref_cycles / per;
	}
	free(v);
}

/* Whether a trial counts towards its benchmark's figures. */
static bool kept(const struct cbench_trial *t)
{
	return !t->error && !t->set_aside && t->valid && t->ns_per_op > 0;
}

/* A trial as the classifier sees it (stats/trials.h). */
static void observe(const struct cbench_trial *t, size_t bench, struct cbench_trial_obs *o)
{
	memset(o, 0, sizeof(*o));
	o->bench = bench;
	o->log_ns = log(t->ns_per_op);
	o->core_ghz = t->core_ghz;
	o->half_diff = t->half_ns_per_op[0] > 0 && t->half_ns_per_op[1] > 0 ?
		       fabs(log(t->half_ns_per_op[0] / t->half_ns_per_op[1])) : NAN;
	o->start_s = t->start_s;
	o->end_s = t->end_s;
	o->floor = isnan(t->step_share) ? 0 : t->step_share;
	o->width = t->figures.have_width ? t->figures.core_width : NAN;
	o->cpu = t->cpu;
}

/* Replaced, or carried from the run this one resumed (its moments are not
 * this run's): what it was said to be stands, and classify() leaves it. */
static bool settled(const struct cbench_trial *t)
{
	return t->replaced || t->carried;
}

/*
 * Trials a shared core set aside come back, the widest first, only where
 * res keeps no unshared trial at all and nothing more will be measured in
 * their place: its replacements are spent (run.c measures --trials of them
 * at most, more for shared trials while --shared-wait lasts:
 * r->waiting_shared), --precision ended its trials (res->stop) or the run
 * was stopped; then up to half the trials it
 * asked for, as for a slowdown.  One unshared trial is the code's figure,
 * if an imprecise one; a median of shared trials is another thread's
 * (xxHash's vector code read 15-60 % slow in them, a one-cycle chain
 * 0.1-0.5 %), and a headline that mixes the two is neither.  Failed trials
 * are not made up for.  A trial a replacement stands for stays aside,
 * however wide: the replacement has its place.
 */
static void shared_back(const struct cbench_report *r, struct cbench_result *res)
{
	size_t asked = 0, kept = 0, replacements = 0;

	for (size_t j = 0; j < res->ntrials; j++) {
		const struct cbench_trial *t = &res->trials[j];

		asked += !t->replacement && !t->error;
		replacements += t->replacement;
		kept += !t->error && t->valid && !t->set_aside;
	}
	if (kept || (!r->interrupted &&
		     (r->waiting_shared || (!res->stop && replacements < r->settings.trials))))
		return;
	for (; 2 * kept < asked; kept++) {
		struct cbench_trial *back = NULL;

		for (size_t j = 0; j < res->ntrials; j++) {
			struct cbench_trial *t = &res->trials[j];

			if (!t->replaced && t->set_aside && t->cause == CBENCH_TRIAL_SHARED &&
			    (!back || t->figures.core_width > back->figures.core_width))
				back = t;
		}
		if (!back)
			break;
		back->set_aside = false;
	}
}

/*
 * Marks the trials a busy moment, a clock dip or a stretch within them
 * slowed, or another thread on their core disturbed (stats/trials.c), as
 * set aside, over every benchmark of the run at once: a moment shows
 * across the benchmarks measured beside it.  A benchmark never loses more
 * than half its trials to a slowdown: where most were slowed, the machine
 * was, and they all stay (its result then says so).  A shared core is seen
 * in each trial, apart from its benchmark's others, so its trials are set
 * aside however many they are, until shared_back() says.
 */
static void classify(struct cbench_report *r)
{
	size_t n = 0, k = 0;
	struct cbench_trial_obs *obs;
	struct cbench_trial **of;

	for (size_t i = 0; i < r->nresults; i++)
		for (size_t j = 0; j < r->results[i].ntrials && !r->results[i].carried; j++)
			n += !r->results[i].trials[j].error && r->results[i].trials[j].valid &&
			     !settled(&r->results[i].trials[j]);
	obs = calloc(n ? n : 1, sizeof(*obs));
	of = calloc(n ? n : 1, sizeof(*of));
	/* A carried-over result keeps what its own run said of its trials:
	 * the moments they were measured in are not this run's. */
	for (size_t i = 0; obs && of && i < r->nresults; i++) {
		for (size_t j = 0; j < r->results[i].ntrials && !r->results[i].carried; j++) {
			struct cbench_trial *t = &r->results[i].trials[j];

			if (settled(t))
				continue;
			t->cause = CBENCH_TRIAL_KEPT;
			t->beside = 0;
			t->set_aside = false;
			if (t->error || !t->valid || !(t->ns_per_op > 0))
				continue;
			observe(t, i, &obs[k]);
			of[k++] = t;
		}
	}
	r->shared_trials = 0;
	if (obs && of && r->settings.keep_shared) {
		/* Kept, so judged as if nobody had asked: only counted. */
		r->shared_trials = cbench_trials_mark_shared(obs, k, r->known_width, r->nknown_width);
		for (size_t i = 0; i < k; i++)
			obs[i].width = NAN;
	}
	if (obs && of)
		cbench_trials_classify(obs, k, r->nresults, r->known_width, r->nknown_width);
	for (size_t i = 0; obs && of && i < k; i++) {
		of[i]->cause = obs[i].cause;
		of[i]->beside = obs[i].beside;
		/* A trial whose clock held across too few measurements has no
		 * est-cycles/op: measured again, as a trial a dip slowed. */
		if (of[i]->clock_how == CBENCH_CLOCK_UNSTEADY && !cbench_trial_disturbed(of[i]->cause))
			of[i]->cause = CBENCH_TRIAL_CLOCK;
		of[i]->set_aside = cbench_trial_disturbed(of[i]->cause);
	}
	for (size_t i = 0; i < r->nresults; i++) {
		struct cbench_result *res = &r->results[i];
		size_t ok = 0, slowed = 0;

		if (res->carried)
			continue;
		for (size_t j = 0; j < res->ntrials; j++) {
			const struct cbench_trial *t = &res->trials[j];

			if (settled(t))
				continue;
			ok += !t->error && t->valid && t->cause != CBENCH_TRIAL_SHARED;
			slowed += t->set_aside && t->cause != CBENCH_TRIAL_SHARED;
		}
		for (size_t j = 0; 2 * slowed > ok && j < res->ntrials; j++) {
			struct cbench_trial *t = &res->trials[j];

			if (!settled(t) && t->cause != CBENCH_TRIAL_SHARED)
				t->set_aside = false;
		}
		shared_back(r, res);
	}
	free(obs);
	free(of);
}

/* What slowed a result's set-aside trials, in words, into its note. */
static void note_set_aside(struct cbench_result *res)
{
	size_t cause[CBENCH_TRIAL_SHARED + 1] = { 0 }, beside = 0, unsteady = 0, shared_kept = 0;
	int len;

	res->set_aside_note[0] = '\0';
	for (size_t j = 0; j < res->ntrials; j++) {
		const struct cbench_trial *t = &res->trials[j];

		shared_kept += !t->set_aside && t->cause == CBENCH_TRIAL_SHARED;
		if (!t->set_aside)
			continue;
		if (t->clock_how == CBENCH_CLOCK_UNSTEADY && t->cause == CBENCH_TRIAL_CLOCK)
			unsteady++;
		else
			cause[t->cause]++;
		beside += t->beside;
	}
	if (!res->set_aside && !shared_kept)
		return;
	len = res->set_aside ? snprintf(res->set_aside_note, sizeof(res->set_aside_note),
					"%zu trial%s set aside as disturbed and measured again:",
					res->set_aside, res->set_aside == 1 ? "" : "s") :
			       snprintf(res->set_aside_note, sizeof(res->set_aside_note), "of its trials:");
	if (cause[CBENCH_TRIAL_MOMENT] && len > 0 && (size_t)len < sizeof(res->set_aside_note))
		len += snprintf(res->set_aside_note + len, sizeof(res->set_aside_note) - (size_t)len,
				" %zu by a busy moment of the machine (%zu trial%s of other benchmarks "
				"measured beside %s %s slow too);", cause[CBENCH_TRIAL_MOMENT], beside,
				beside == 1 ? "" : "s", cause[CBENCH_TRIAL_MOMENT] == 1 ? "it" : "them",
				beside == 1 ? "was" : "were");
	if (cause[CBENCH_TRIAL_CLOCK] && len > 0 && (size_t)len < sizeof(res->set_aside_note))
		len += snprintf(res->set_aside_note + len, sizeof(res->set_aside_note) - (size_t)len,
				" %zu by a dip of the core clock (the reference chain was slow too);",
				cause[CBENCH_TRIAL_CLOCK]);
	if (unsteady && len > 0 && (size_t)len < sizeof(res->set_aside_note))
		len += snprintf(res->set_aside_note + len, sizeof(res->set_aside_note) - (size_t)len,
				" %zu by a core clock that jumped beside most of its measurements (too "
				"few at one level for est-cycles/op);", unsteady);
	if (cause[CBENCH_TRIAL_PART] && len > 0 && (size_t)len < sizeof(res->set_aside_note))
		len += snprintf(res->set_aside_note + len, sizeof(res->set_aside_note) - (size_t)len,
				" %zu slow for part of the trial (its halves disagree);",
				cause[CBENCH_TRIAL_PART]);
	if (cause[CBENCH_TRIAL_SHARED] && len > 0 && (size_t)len < sizeof(res->set_aside_note))
		len += snprintf(res->set_aside_note + len, sizeof(res->set_aside_note) - (size_t)len,
				" %zu on a core another thread shared (it ran at least %.0f%% fewer adds "
				"a cycle than the widest seen on its CPU);", cause[CBENCH_TRIAL_SHARED],
				100 * CBENCH_TRIAL_SHARED_MIN);
	if (shared_kept && len > 0 && (size_t)len < sizeof(res->set_aside_note))
		snprintf(res->set_aside_note + len, sizeof(res->set_aside_note) - (size_t)len,
			 " %zu kept though its core was shared, for want of others (--trials "
			 "replacements and --shared-wait spent, or the run stopped): its figures are partly a shared "
			 "core's;", shared_kept);
	len = (int)strlen(res->set_aside_note);
	if (len && res->set_aside_note[len - 1] == ';')
		res->set_aside_note[len - 1] = '\0';
}

/*
 * Why the trials of a placement-sensitive res differ, which its median is
 * typical of, and whether it is the code's layout: where the run laid the
 * code out anew for each pair of trials (res->layouts), the trials that
 * share a layout differ only by where their memory lies; if they agree,
 * most of the spread is between layouts.  sd: the trials' robust spread.
 */
static void placement_reason(struct cbench_result *res, double sd)
{
	char *why = res->unstable_reason;
	size_t len = sizeof(res->unstable_reason);

	res->placement_sensitive = true;
	res->layout_sensitive = res->layouts && res->layout_share >= CBENCH_LAYOUT_SHARE_MIN;
	if (res->layout_sensitive)
		snprintf(why, len, "trials spread %.2f%% by code layout (%.0f%% of their variance is "
			 "beyond the noise within them, %.0f%% between layouts: the two trials at each "
			 "layout, on other pages, agree): the median of trials, quoted, is the median "
			 "over %zu layouts; the least, %.4g ns/op, one lucky layout's", 100 * sd,
			 100 * res->placement_share, 100 * res->layout_share, res->layouts,
			 res->least_ns_per_op);
	else if (res->layouts && !isnan(res->layout_share))
		snprintf(why, len, "trials spread %.2f%% by placement of memory, not of code (%.0f%% "
			 "of their variance is beyond the noise within them; the two trials at each "
			 "code layout differ as much): the median of trials, quoted, is a typical "
			 "placement's; the least, %.4g ns/op, one lucky placement's", 100 * sd,
			 100 * res->placement_share, res->least_ns_per_op);
	else if (res->layouts)
		snprintf(why, len, "trials spread %.2f%% by placement or code layout (%.0f%% of their "
			 "variance is beyond the noise within them; too few trials share a layout to "
			 "tell which): the median of trials, quoted, is a typical placement's and "
			 "layout's; the least, %.4g ns/op, one lucky trial's", 100 * sd,
			 100 * res->placement_share, res->least_ns_per_op);
	else
		snprintf(why, len, "trials spread %.2f%% by placement (%.0f%% of their variance is "
			 "beyond the noise within them; each trial is a worker on other pages): the "
			 "median of trials, quoted, is a typical placement's; the least, %.4g ns/op, "
			 "one lucky placement's", 100 * sd, 100 * res->placement_share,
			 res->least_ns_per_op);
}

/*
 * Whether the kept trials of res disagree beyond what the timer's step
 * explains, robustly (one odd trial does not make a spread), and the
 * likely cause.  ns/op is wall time and moves with the clock;
 * est-cycles/op, against the trial's own reference, does not: if it agrees
 * where ns/op does not, the clock is to blame.
 */
static void judge_stability(struct cbench_result *res, const double *logs, const double *cycles,
			    size_t k, size_t ncycles, double clock, size_t discarded, size_t total,
			    double moved)
	/* cycles: the logs of the kept trials' est-cycles/op, ncycles of them;
	 * clock: the robust spread of the logs of their core clocks */
{
	double timer = 2 * (isnan(res->step_share) ? 0 : res->step_share);
	double sd = cbench_trials_robust_sd(logs, k);

	res->unstable = false;
	res->placement_sensitive = res->layout_sensitive = false;
	res->unstable_reason[0] = '\0';
	/* A core clock that moved across the trials explains as much of their
	 * spread: est-cycles/op agree where ns/op follows the clock. */
	if (k < 3 || sd <= CBENCH_UNSTABLE_SD + timer + clock)
		return;
	res->unstable = true;
	if (ncycles == k && cbench_trials_robust_sd(cycles, k) <= CBENCH_UNSTABLE_SD + timer)
		snprintf(res->unstable_reason, sizeof(res->unstable_reason),
			 "trials spread %.2f%%: the core clock moved (est-cycles/op agree)", 100 * sd);
	else if (total && (double)discarded / (double)total > 0.05)
		snprintf(res->unstable_reason, sizeof(res->unstable_reason),
			 "trials spread %.2f%%: disturbances (%.1f%% of measurements discarded)",
			 100 * sd, 100.0 * (double)discarded / (double)total);
	/* A clock that moved by some percent within trials moves their
	 * estimates by about as much, not by more. */
	else if (moved > 0 && sd <= CBENCH_UNSTABLE_SD + timer + moved)
		snprintf(res->unstable_reason, sizeof(res->unstable_reason),
			 "trials spread %.2f%%: the core clock moved during trials", 100 * sd);
	else if (res->placement_share >= CBENCH_PLACEMENT_SHARE_MIN)
		placement_reason(res, sd);
	else
		snprintf(res->unstable_reason, sizeof(res->unstable_reason),
			 "trials spread %.2f%%: a noisy machine (no cause cbench can see)", 100 * sd);
}

/*
 * Between trials and within them (struct cbench_result): the log estimates
 * of the kept trials in logs, their halves' in halves (two per trial).
 */
static void placement_figures(struct cbench_result *res, const double *logs,
			      const double *halves, size_t k)
{
	double noise = 0, sd;
	size_t n = 0;

	res->between_var = res->within_var = res->placement_share = NAN;
	if (k < 3)
		return;
	for (size_t i = 0; i < k; i++) {
		double d = log(halves[2 * i]) - log(halves[2 * i + 1]);

		if (!isnan(d)) {
			noise += d * d / 4;
			n++;
		}
	}
	sd = cbench_trials_robust_sd(logs, k);
	res->between_var = sd * sd;
	res->within_var = n ? noise / (double)n : NAN;
	res->placement_share = cbench_seq_share_beyond(res->between_var, res->within_var);
}

/*
 * The code's layouts among the kept trials of res (struct cbench_result),
 * where the run sampled them: how many, and the share of the trials'
 * variance beyond what trials at one layout differ by.
 */
static void layout_figures(const struct cbench_report *r, struct cbench_result *res)
{
	double *logs = malloc((res->ntrials + 1) * sizeof(*logs));
	uint32_t *layout = malloc((res->ntrials + 1) * sizeof(*layout));
	size_t k = 0;

	res->layouts = 0;
	res->layout_share = NAN;
	for (size_t i = 0; logs && layout && r->layouts_sampled && i < res->ntrials; i++) {
		if (!kept(&res->trials[i]) || !res->trials[i].layout)
			continue;
		logs[k] = log(res->trials[i].ns_per_op);
		layout[k++] = res->trials[i].layout;
	}
	if (k) {
		double within = cbench_trials_within_groups(logs, layout, k, &res->layouts);

		res->layout_share = cbench_seq_share_beyond(res->between_var, within);
	}
	free(logs);
	free(layout);
}

/* The kept trials' figures, one array each (struct summary). */
enum { V_NS, V_LOG, V_CYC, V_LOG_CYC, V_LOG_GHZ, V_MB, V_INS, V_CYCLES, V_REF, V_HALVES,
       V_ARRAYS };

struct summary {
	double *v[V_ARRAYS];
	size_t n[V_ARRAYS];
	size_t discarded, total;
	double moved;		/* the most any trial's clock moved within it */
	size_t nclock;
};

static void add_value(struct summary *s, int which, double value)
{
	if (!isnan(value))
		s->v[which][s->n[which]++] = value;
}

/* Takes in the kept trial t (and its clock into the result's range). */
static void add_trial(struct cbench_report *r, struct cbench_result *res, struct summary *s,
		      const struct cbench_trial *t)
{
	add_value(s, V_NS, t->ns_per_op);
	add_value(s, V_LOG, log(t->ns_per_op));
	s->v[V_HALVES][s->n[V_HALVES]++] = t->half_ns_per_op[0];
	s->v[V_HALVES][s->n[V_HALVES]++] = t->half_ns_per_op[1];
	add_value(s, V_CYC, t->est_cycles_per_op);
	add_value(s, V_LOG_CYC, log(t->est_cycles_per_op));
	add_value(s, V_LOG_GHZ, log(t->core_ghz));
	add_value(s, V_MB, t->mb_per_s);
	add_value(s, V_INS, t->have & CBENCH_HAVE_INSTRUCTIONS ? t->instructions_per_op : NAN);
	add_value(s, V_CYCLES, t->have & CBENCH_HAVE_CYCLES ? t->cycles_per_op : NAN);
	add_value(s, V_REF, t->have & CBENCH_HAVE_REF_CYCLES ? t->ref_cycles_per_op : NAN);
	if (!(t->step_share <= res->step_share))
		res->step_share = t->step_share;
	if (!isnan(t->core_ghz)) {
		s->nclock++;
		res->core_ghz_min = fmin(isnan(res->core_ghz_min) ? INFINITY : res->core_ghz_min, t->core_ghz);
		res->core_ghz_max = fmax(isnan(res->core_ghz_max) ? 0 : res->core_ghz_max, t->core_ghz);
	}
	if (t->clock_moved > CBENCH_CLOCK_MOVED_MAX) {
		s->moved = fmax(s->moved, t->clock_moved);
		r->clock_moved_trials++;
	}
}

/*
 * Whether est-cycles/op (the median of the trials' own: each trial's
 * ns/op at the clock its reference chain saw) agrees with ns/op at the
 * trials' median clock.  They part when the chain and the benchmark saw
 * different clocks in some trials: the clock moved within them, or the
 * chain alone was disturbed.  The row then says so and which to trust.
 */
static void cycles_agreement(struct cbench_result *res, const struct summary *s)
{
	double ghz = exp(cbench_stats_median(s->v[V_LOG_GHZ], s->n[V_LOG_GHZ]));

	res->cycles_gap = res->est_cycles_per_op / (res->ns_per_op * ghz) - 1;
	if (!(fabs(res->cycles_gap) > CBENCH_CYCLES_GAP_MAX))
		return;
	snprintf(res->cycles_note, sizeof(res->cycles_note),
		 "est-cycles/op is %+.2f%% off ns/op at the median clock (%.4g GHz): in some trials "
		 "the reference chain saw another clock than the benchmark (%s); trust ns/op",
		 100 * res->cycles_gap, ghz, s->moved > 0 ? "it moved within them" : "a disturbance");
}

/* The headline and the figures of res from its kept trials in s. */
static void headline(const struct cbench_report *r, struct cbench_result *res, struct summary *s)
{
	double q = isnan(res->step_share) ? 0 : res->step_share;
	size_t k = s->n[V_NS];

	cbench_trials_median_ci(s->v[V_NS], k, r->confidence > 0 ? r->confidence :
				CBENCH_REPORT_CONFIDENCE, &res->ns_per_op, &res->ns_lo, &res->ns_hi,
				&res->ns_coverage);
	/* Each trial's estimate lies within a step of its measurements'
	 * durations (the floor mean's levels): the interval carries it. */
	res->ns_lo *= 1 - q;
	res->ns_hi *= 1 + q;
	res->least_ns_per_op = cbench_stats_min(s->v[V_NS], k);
	res->cv = cbench_stats_cv(s->v[V_NS], k);
	res->est_cycles_per_op = cbench_stats_median(s->v[V_CYC], s->n[V_CYC]);
	res->est_lo = res->est_hi = NAN;
	if (s->n[V_CYC] == k && k > 1) {
		double median, coverage;

		cbench_trials_median_ci(s->v[V_CYC], k, r->confidence > 0 ? r->confidence :
					CBENCH_REPORT_CONFIDENCE, &median, &res->est_lo, &res->est_hi, &coverage);
	}
	res->mb_per_s = cbench_stats_median(s->v[V_MB], s->n[V_MB]);
	res->instructions_per_op = cbench_stats_median(s->v[V_INS], s->n[V_INS]);
	res->cycles_per_op = cbench_stats_median(s->v[V_CYCLES], s->n[V_CYCLES]);
	res->ref_cycles_per_op = cbench_stats_median(s->v[V_REF], s->n[V_REF]);
	res->have = (s->n[V_INS] == k ? CBENCH_HAVE_INSTRUCTIONS : 0) |
		    (s->n[V_CYCLES] == k ? CBENCH_HAVE_CYCLES : 0) |
		    (s->n[V_REF] == k ? CBENCH_HAVE_REF_CYCLES : 0);
	cycles_agreement(res, s);
	placement_figures(res, s->v[V_LOG], s->v[V_HALVES], k);
	layout_figures(r, res);
	judge_stability(res, s->v[V_LOG], s->v[V_LOG_CYC], k, s->n[V_LOG_CYC],
			cbench_trials_robust_sd(s->v[V_LOG_GHZ], s->n[V_LOG_GHZ]), s->discarded,
			s->total, s->moved);
}

/* What a result adds to the run's own figures. */
static void add_to_run(struct cbench_report *r, const struct cbench_result *res)
{
	if (!isnan(res->core_ghz_min)) {
		r->core_ghz_min = fmin(isnan(r->core_ghz_min) ? INFINITY : r->core_ghz_min, res->core_ghz_min);
		r->core_ghz_max = fmax(isnan(r->core_ghz_max) ? 0 : r->core_ghz_max, res->core_ghz_max);
	}
	r->unstable_results += res->unstable;
	r->placement_sensitive_results += res->placement_sensitive;
	r->layout_sensitive_results += res->layout_sensitive;
	r->failed_trials += res->failed;
	r->set_aside_trials += res->set_aside;
}

static void summarize_result(struct cbench_report *r, struct cbench_result *res)
{
	struct summary s = { 0 };
	size_t n = res->ntrials ? res->ntrials : 1;
	bool ok = true;

	/* Figures as its own run summarized them (results/bench_read.c). */
	if (res->carried) {
		for (size_t j = 0; j < res->ntrials; j++)
			r->clock_moved_trials += kept(&res->trials[j]) &&
						 res->trials[j].clock_moved > CBENCH_CLOCK_MOVED_MAX;
		add_to_run(r, res);
		return;
	}
	res->failed = res->set_aside = res->replacements = 0;
	res->ns_per_op = res->ns_lo = res->ns_hi = res->ns_coverage = res->least_ns_per_op = NAN;
	res->cv = res->est_cycles_per_op = res->mb_per_s = NAN;
	res->instructions_per_op = res->cycles_per_op = res->ref_cycles_per_op = NAN;
	res->have = 0;
	res->step_share = res->core_ghz_min = res->core_ghz_max = NAN;
	res->between_var = res->within_var = res->placement_share = NAN;
	res->unstable = res->placement_sensitive = res->layout_sensitive = false;
	res->layouts = 0;
	res->layout_share = NAN;
	res->unstable_reason[0] = '\0';
	res->cycles_gap = NAN;
	res->cycles_note[0] = '\0';
	for (int i = 0; i < V_ARRAYS; i++)
		ok &= (s.v[i] = malloc(2 * n * sizeof(double))) != NULL;
	for (size_t j = 0; ok && j < res->ntrials; j++) {
		const struct cbench_trial *t = &res->trials[j];

		s.discarded += t->discarded;
		s.total += t->nsamples;
		res->failed += t->error != 0;
		res->set_aside += t->set_aside;
		res->replacements += t->replacement;
		if (kept(t))
			add_trial(r, res, &s, t);
	}
	if (ok && s.n[V_NS])
		headline(r, res, &s);
	note_set_aside(res);
	add_to_run(r, res);
	for (int i = 0; i < V_ARRAYS; i++)
		free(s.v[i]);
}

/* The median over the trials with usable timing points of one field. */
static double tp_median(const struct cbench_result *res, size_t offset, double *v)
{
	size_t k = 0;

	for (size_t i = 0; i < res->ntrials; i++) {
		const struct cbench_trial *t = &res->trials[i];

		if (!t->error && t->have_tp && t->tp.every)
			memcpy(&v[k++], (const char *)&t->tp + offset, sizeof(*v));
	}
	return cbench_stats_median(v, k);
}

/* The result's timing points, from its trials' (see struct cbench_result). */
static void summarize_tp(struct cbench_result *res)
{
	struct cbench_tp_summary *s = &res->tp;
	double *v;

	if (res->carried)
		return;
	v = malloc((res->ntrials + 1) * sizeof(*v));
	memset(s, 0, sizeof(*s));
	res->have_tp = false;
	s->perturb = NAN;
	for (size_t i = 0; i < res->ntrials; i++) {
		const struct cbench_trial *t = &res->trials[i];

		if (t->error || !t->have_tp)
			continue;
		res->have_tp = true;
		s->calls += t->tp.calls;
		s->every = t->tp.every > s->every ? t->tp.every : s->every;
		s->merged += t->tp.merged;
		s->iterations += t->tp.iterations;
		s->skipped += t->tp.skipped;
		s->dropped += t->tp.dropped;
		if (t->tp.every && !isnan(t->tp.perturb) && !(t->tp.perturb <= s->perturb))
			s->perturb = t->tp.perturb;
	}
	for (int q = 0; v && q < CBENCH_TP_QUANTILES; q++)
		s->q_ns[q] = tp_median(res, offsetof(struct cbench_tp_summary, q_ns[q]), v);
	if (v) {
		s->min_timing_ticks = tp_median(res, offsetof(struct cbench_tp_summary, min_timing_ticks), v);
		s->mean_ns = tp_median(res, offsetof(struct cbench_tp_summary, mean_ns), v);
		s->stddev_ns = tp_median(res, offsetof(struct cbench_tp_summary, stddev_ns), v);
	}
	free(v);
}

const char *cbench_signal_name(int sig, char *buf, size_t len)
{
	const char *abbrev = sigabbrev_np(sig);

	if (abbrev)
		snprintf(buf, len, "SIG%s", abbrev);
	else
		snprintf(buf, len, "signal %d", sig);
	return buf;
}

/* Every trial's own figures, each once: a trial's measurements never change. */
static void summarize_trials(const struct cbench_report *r)
{
	for (size_t i = 0; i < r->nresults; i++) {
		struct cbench_result *res = &r->results[i];

		for (size_t j = 0; j < res->ntrials && !res->carried; j++) {
			struct cbench_trial *t = &res->trials[j];

			/* Summarized already, or not measured yet (a row streamed
			 * while later benchmarks' trials of its round wait). */
			if (t->summarized || t->carried || (!t->error && !t->samples && !(t->start_s > 0)))
				continue;
			summarize_trial(r, res->exp, t);
			t->summarized = true;
			if (!t->error && !t->valid) {
				t->error = -EAGAIN;
				snprintf(t->reason, sizeof(t->reason), "no valid measurement");
			}
		}
	}
}

void cbench_report_summarize_one(struct cbench_report *r, struct cbench_result *res)
{
	summarize_trials(r);
	classify(r);
	summarize_result(r, res);
	summarize_tp(res);
}

size_t cbench_result_kept(const struct cbench_result *res)
{
	return res->ntrials - res->failed - res->set_aside;
}

size_t cbench_result_rounds(const struct cbench_result *res)
{
	size_t rounds = 0;

	for (size_t j = 0; j < res->ntrials; j++)
		rounds += !res->trials[j].replacement && !res->trials[j].alone;
	return rounds;
}

const char *const cbench_stop_names[] = { "", "precise", "most", "budget" };

const char *cbench_stop_text(const struct cbench_result *res, char *buf, size_t len)
{
	double half = 100 * res->stop_half;
	size_t kept = cbench_result_kept(res), rounds = cbench_result_rounds(res);
	const char *which = res->stop_est ? "est-cycles/op" : "ns/op";
	const char *asked = res->stop_auto ? "the default precision (without --trials)" :
				 "--precision";

	switch (res->stop) {
	case CBENCH_STOP_PRECISE:
		if (res->stop_close)
			snprintf(buf, len, "stopped after %zu trials: its %s interval within %.3g%% of "
				 "its headline, as %s asked", kept, which, half, asked);
		else
			snprintf(buf, len, "stopped after %zu trials: its %s interval was within what "
				 "%s asked, and is %.3g%% of its headline with the trials measured after "
				 "the rounds", kept, which, asked, half);
		break;
	case CBENCH_STOP_MOST:
		snprintf(buf, len, "stopped at the most trials, %zu%s: its %s interval %.3g%% of its "
			 "headline, %s %s asked", rounds, res->stop_auto ? "" : " (--trials)", which, half,
			 res->stop_close ? "within what" : "wider than", asked);
		break;
	case CBENCH_STOP_BUDGET:
		snprintf(buf, len, "stopped after %zu trials when the run's %s ran out: its %s "
			 "interval %.3g%% of its headline, %s %s asked%s", kept,
			 res->stop_auto ? "time (--budget auto: as long as 10 trials of each would take)" :
			 "--budget", which, half, res->stop_close ? "within what" : "wider than", asked,
			 res->stop_close ? ", but from too few trials kept, or trials too close together "
			 "in the run" : "");
		break;
	default:
		*buf = '\0';
	}
	return buf;
}

void cbench_report_summarize_round(struct cbench_report *r)
{
	summarize_trials(r);
	classify(r);
	for (size_t i = 0; i < r->nresults; i++)
		summarize_result(r, &r->results[i]);
}

/* The widest core the run's trials saw or runs before knew, and (but under
 * --keep-shared, which classify() counts) the trials another thread's set
 * aside. */
static void core_width(struct cbench_report *r)
{
	r->core_width_max = NAN;
	r->shared_kept = 0;
	for (size_t k = 0; k < r->nknown_width; k++)
		if (!(r->known_width[k].width <= r->core_width_max))
			r->core_width_max = r->known_width[k].width;
	for (size_t i = 0; i < r->nresults; i++) {
		for (size_t j = 0; j < r->results[i].ntrials; j++) {
			const struct cbench_trial *t = &r->results[i].trials[j];

			if (t->figures.have_width && !(t->figures.core_width <= r->core_width_max))
				r->core_width_max = t->figures.core_width;
			r->shared_trials += !r->settings.keep_shared && t->cause == CBENCH_TRIAL_SHARED;
			r->shared_kept += t->cause == CBENCH_TRIAL_SHARED && !t->set_aside;
		}
	}
}

void cbench_report_summarize(struct cbench_report *r)
{
	r->failed_trials = r->clock_moved_trials = r->unstable_results = 0;
	r->placement_sensitive_results = r->layout_sensitive_results = r->set_aside_trials = 0;
	r->core_ghz_min = r->core_ghz_max = NAN;
	/* Everything anew: the streamed rows' summaries may predate the timer. */
	for (size_t i = 0; i < r->nresults; i++)
		for (size_t j = 0; j < r->results[i].ntrials; j++)
			r->results[i].trials[j].summarized = false;
	summarize_trials(r);
	classify(r);
	core_width(r);
	for (size_t i = 0; i < r->nresults; i++) {
		summarize_result(r, &r->results[i]);
		summarize_tp(&r->results[i]);
	}
	cbench_report_parallel(r);
}

const char *cbench_arena_pages_text(const struct cbench_result *res, char *buf, size_t len)
{
	uint32_t flags = res->exp->desc->flags;
	uint64_t bytes = 0, huge = 0;

	/* Read back from a report (its trials' arenas are not in it). */
	if (res->carried_arena_pages[0]) {
		snprintf(buf, len, "%s", res->carried_arena_pages);
		return buf;
	}
	const char *asked = flags & CBENCH_F_ARENA_HUGE ? "huge pages" :
			    flags & CBENCH_F_ARENA_BASE ? "base pages" : NULL;

	/* The trials' workers each got an arena: the least huge share counts. */
	for (size_t i = 0; i < res->ntrials; i++) {
		const struct cbench_trial *t = &res->trials[i];

		if (t->error || !t->arena_bytes)
			continue;
		if (!bytes || t->arena_huge_bytes < huge)
			huge = t->arena_huge_bytes;
		bytes = t->arena_bytes;
	}
	buf[0] = '\0';
	if (!bytes)
		return buf;
	if (huge >= bytes)
		snprintf(buf, len, "huge pages");
	else if (huge)
		snprintf(buf, len, "huge pages for %.0f%% of it", 100.0 * (double)huge / (double)bytes);
	else
		snprintf(buf, len, "base pages");
	if (asked) {
		size_t at = strlen(buf);

		snprintf(buf + at, len - at, " (asked for %s)", asked);
	}
	return buf;
}

const struct cbench_result *cbench_report_find(const struct cbench_report *r, const char *id)
{
	for (size_t i = 0; i < r->nresults; i++) {
		if (!strcmp(r->results[i].exp->id, id))
			return &r->results[i];
	}
	return NULL;
}
