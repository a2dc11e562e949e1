// SPDX-License-Identifier: GPL-2.0
/* Summaries shared by every report format. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine/reference.h"
#include "report/report.h"
#include "stats/sequential.h"
#include "stats/stats.h"

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

/* The clock the trial saw, and how much it moved between its halves. */
static double trial_clock(const struct cbench_report *r, struct cbench_trial *t, double *v)
{
	size_t half = t->nref_samples / 2;
	double all = ref_cycles_per_tick(r, t, 0, t->nref_samples, v);
	double first = ref_cycles_per_tick(r, t, 0, half, v);
	double second = ref_cycles_per_tick(r, t, half, t->nref_samples, v);

	t->core_ghz = all * r->timer.tsc_hz * 1e-9;
	t->clock_moved = fabs(second - first) / ((first + second) / 2);
	if (isnan(all) && r->timer.est_cycles_per_tick > 0)
		all = r->timer.est_cycles_per_tick;	/* no reference: the calibration's */
	return all;
}

static void summarize_trial(const struct cbench_report *r, const struct cbench_experiment *e,
			    struct cbench_trial *t)
{
	const struct cbench_desc *d = e->desc;
	size_t most = t->nsamples > t->nref_samples ? t->nsamples : t->nref_samples;
	double *v = malloc((most ? most : 1) * sizeof(*v));
	const struct cbench_sample *fastest = NULL;
	uint64_t ops = d->ops_per_rep ? d->ops_per_rep : 1;
	double cycles_per_tick, ticks_to_ns_per_op = 0;
	uint64_t n_ops;

	t->valid = t->discarded = 0;
	memset(t->discarded_by, 0, sizeof(t->discarded_by));
	t->iterations = 0;
	t->ns_per_op = t->min_ns_per_op = t->median_ns_per_op = t->max_ns_per_op = t->cv = NAN;
	t->half_ns_per_op[0] = t->half_ns_per_op[1] = NAN;
	t->mb_per_s = t->est_cycles_per_op = t->step_share = NAN;
	t->core_ghz = t->clock_moved = NAN;
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
	cycles_per_tick = trial_clock(r, t, v);
	if (t->valid && cycles_per_tick > 0)
		t->est_cycles_per_op = t->ns_per_op * r->timer.tsc_hz * 1e-9 * cycles_per_tick;
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

static double spread(const double *v, size_t n)
{
	double lo = cbench_stats_min(v, n);

	return n < 2 ? 0 : (cbench_stats_max(v, n) - lo) / lo;
}

/*
 * Whether the trials of res disagree beyond what the timer's step and the
 * core clock explain, and the likely cause.  ns/op is wall time and moves
 * with the clock; est-cycles/op, against the trial's own reference, does
 * not: if it agrees where ns/op does not, the clock is to blame.
 */
static void judge_stability(struct cbench_result *res, const double *ns, const double *cycles,
			    size_t k, size_t nclock, size_t discarded, size_t total, double moved)
{
	double clock = nclock ? (res->core_ghz_max - res->core_ghz_min) / res->core_ghz_min : 0;
	double timer = 2 * (isnan(res->step_share) ? 0 : res->step_share);
	double ns_spread = spread(ns, k);

	res->unstable = false;
	res->placement_sensitive = false;
	res->unstable_reason[0] = '\0';
	if (k < 2 || ns_spread <= CBENCH_UNSTABLE_SPREAD + timer + clock)
		return;
	res->unstable = true;
	if (nclock == k && spread(cycles, k) <= CBENCH_UNSTABLE_SPREAD + timer)
		snprintf(res->unstable_reason, sizeof(res->unstable_reason),
			 "trials differ by %.1f%%: the core clock moved (est-cycles/op agree)",
			 100 * ns_spread);
	else if (total && (double)discarded / (double)total > 0.05)
		snprintf(res->unstable_reason, sizeof(res->unstable_reason),
			 "trials differ by %.1f%%: disturbances (%.1f%% of measurements discarded)",
			 100 * ns_spread, 100.0 * (double)discarded / (double)total);
	/* A clock that moved by some percent within trials moves their
	 * estimates by about as much, not by more: trials twice as far
	 * apart have another cause. */
	else if (moved > 0 && ns_spread <= CBENCH_UNSTABLE_SPREAD + timer + 2 * moved)
		snprintf(res->unstable_reason, sizeof(res->unstable_reason),
			 "trials differ by %.1f%%: the core clock moved during trials", 100 * ns_spread);
	else if (res->placement_share >= CBENCH_PLACEMENT_SHARE_MIN) {
		res->placement_sensitive = true;
		snprintf(res->unstable_reason, sizeof(res->unstable_reason),
			 "trials differ by %.1f%%: placement (%.0f%% of their variance is beyond the "
			 "noise within them; each trial is a worker on other pages): quote the median "
			 "of trials, %.4g ns/op; the least, %.4g ns/op, is one lucky placement",
			 100 * ns_spread, 100 * res->placement_share, res->median_ns_per_op,
			 res->ns_per_op);
	} else
		snprintf(res->unstable_reason, sizeof(res->unstable_reason),
			 "trials differ by %.1f%%: a noisy machine (no cause cbench can see)",
			 100 * ns_spread);
}

/*
 * Between trials and within them (struct cbench_result): the log estimates
 * of the ok trials' in ns, their halves' in halves (two per trial).
 */
static void placement_figures(struct cbench_result *res, const double *ns, const double *halves,
			      size_t k)
{
	double noise = 0;
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
	res->between_var = cbench_stats_stddev(ns, k);
	res->between_var *= res->between_var;
	res->within_var = n ? noise / (double)n : NAN;
	res->placement_share = cbench_seq_share_beyond(res->between_var, res->within_var);
}

static void summarize_result(struct cbench_report *r, struct cbench_result *res)
{
	size_t n = res->ntrials ? res->ntrials : 1, k = 0, nclock = 0, ncycles = 0;
	size_t discarded = 0, total = 0;
	double *ns = malloc(n * sizeof(*ns)), *cycles = malloc(n * sizeof(*cycles));
	double *logs = malloc(n * sizeof(*logs)), *halves = malloc(2 * n * sizeof(*halves));
	double moved = 0;		/* the most any trial's clock moved within it */

	res->failed = 0;
	res->ns_per_op = res->median_ns_per_op = res->cv = res->est_cycles_per_op = NAN;
	res->step_share = res->core_ghz_min = res->core_ghz_max = NAN;
	for (size_t j = 0; j < res->ntrials; j++) {
		struct cbench_trial *t = &res->trials[j];

		summarize_trial(r, res->exp, t);
		if (!t->error && !t->valid) {
			t->error = -EAGAIN;
			snprintf(t->reason, sizeof(t->reason), "no valid measurement");
		}
		discarded += t->discarded;
		total += t->nsamples;
		if (t->error) {
			res->failed++;
			continue;
		}
		if (!ns || !cycles || !logs || !halves)
			continue;
		logs[k] = log(t->ns_per_op);
		halves[2 * k] = t->half_ns_per_op[0];
		halves[2 * k + 1] = t->half_ns_per_op[1];
		ns[k++] = t->ns_per_op;
		if (!isnan(t->est_cycles_per_op))
			cycles[ncycles++] = t->est_cycles_per_op;
		if (!(t->step_share <= res->step_share))
			res->step_share = t->step_share;
		if (!isnan(t->core_ghz)) {
			nclock++;
			res->core_ghz_min = fmin(isnan(res->core_ghz_min) ? INFINITY : res->core_ghz_min, t->core_ghz);
			res->core_ghz_max = fmax(isnan(res->core_ghz_max) ? 0 : res->core_ghz_max, t->core_ghz);
		}
		if (t->clock_moved > CBENCH_CLOCK_MOVED_MAX) {
			moved = fmax(moved, t->clock_moved);
			r->clock_moved_trials++;
		}
	}
	res->between_var = res->within_var = res->placement_share = res->quote_ns_per_op = NAN;
	if (ns && cycles && logs && halves) {
		res->ns_per_op = cbench_stats_min(ns, k);
		res->median_ns_per_op = cbench_stats_median(ns, k);
		res->cv = cbench_stats_cv(ns, k);
		placement_figures(res, logs, halves, k);
		/* Not the least: a trial whose reference was delayed reads low,
		 * one whose benchmark was delayed reads high; the median of the
		 * trials' floor-level figures shrugs off both. */
		res->est_cycles_per_op = cbench_stats_median(cycles, ncycles);
		judge_stability(res, ns, cycles, k, ncycles == k ? nclock : 0, discarded, total, moved);
		res->quote_ns_per_op = res->placement_sensitive ? res->median_ns_per_op : res->ns_per_op;
	}
	if (nclock) {
		r->core_ghz_min = fmin(isnan(r->core_ghz_min) ? INFINITY : r->core_ghz_min, res->core_ghz_min);
		r->core_ghz_max = fmax(isnan(r->core_ghz_max) ? 0 : r->core_ghz_max, res->core_ghz_max);
	}
	r->unstable_results += res->unstable;
	r->placement_sensitive_results += res->placement_sensitive;
	r->failed_trials += res->failed;
	free(ns);
	free(cycles);
	free(logs);
	free(halves);
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
	double *v = malloc((res->ntrials + 1) * sizeof(*v));

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

void cbench_report_summarize_one(struct cbench_report *r, struct cbench_result *res)
{
	summarize_result(r, res);
	summarize_tp(res);
}

void cbench_report_summarize(struct cbench_report *r)
{
	r->failed_trials = r->clock_moved_trials = r->unstable_results = 0;
	r->placement_sensitive_results = 0;
	r->core_ghz_min = r->core_ghz_max = NAN;
	for (size_t i = 0; i < r->nresults; i++) {
		summarize_result(r, &r->results[i]);
		summarize_tp(&r->results[i]);
	}
}

const char *cbench_arena_pages_text(const struct cbench_result *res, char *buf, size_t len)
{
	uint32_t flags = res->exp->desc->flags;
	uint64_t bytes = 0, huge = 0;
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

double cbench_trial_figure(const struct cbench_trial *t, enum cbench_figure f)
{
	switch (t->error ? -1 : (int)f) {
	case CBENCH_FIG_NS:
		return t->ns_per_op;
	case CBENCH_FIG_EST_CYCLES:
		return t->est_cycles_per_op;
	case CBENCH_FIG_INSTRUCTIONS:
		return t->have & CBENCH_HAVE_INSTRUCTIONS ? t->instructions_per_op : NAN;
	case CBENCH_FIG_CYCLES:
		return t->have & CBENCH_HAVE_CYCLES ? t->cycles_per_op : NAN;
	case CBENCH_FIG_REF_CYCLES:
		return t->have & CBENCH_HAVE_REF_CYCLES ? t->ref_cycles_per_op : NAN;
	default:
		return NAN;
	}
}
