// SPDX-License-Identifier: GPL-2.0
/*
 * The summaries of report.c on synthetic streams: cycles estimated against
 * the interleaved reference cancel a drifting core clock, and trials that
 * disagree beyond what the timer and the clock explain are flagged: as
 * placement where what sets them apart stays put for a whole trial (a
 * worker's pages), as a noisy machine where the noise within trials
 * explains it.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "machine/reference.h"
#include "report/report.h"
#include "stats/trials.h"

#define TRIALS 8
#define SAMPLES 200
#define STEP 26.0
#define TSC_HZ 2.6e9

static const struct cbench_desc chain = { .name = "chain", .ops_per_rep = 1000 };
static struct cbench_experiment experiment;
static struct cbench_sample bench[TRIALS][SAMPLES], ref[TRIALS][SAMPLES];
static struct cbench_trial trials[TRIALS];
static struct cbench_result result;
static struct cbench_report report;

static uint64_t state = 88172645463325252ULL;
/* Where not NULL, the clock the reference chain sees in trial t, relative
 * to the benchmark's: a chain disturbed alone. */
static const double *ref_seen;

static double uniform(void)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return (double)(state >> 11) * (1.0 / 9007199254740992.0);
}

/* ticks of a region of `cycles` core cycles at `ghz`, read on a TSC of
 * STEP-tick steps at a random phase. */
static uint64_t read_ticks(double cycles, double ghz)
{
	double ticks = cycles / ghz * (TSC_HZ * 1e-9), phase = uniform() * STEP;

	return (uint64_t)((floor((phase + ticks) / STEP) - floor(phase / STEP)) * STEP);
}

/*
 * TRIALS trials of a benchmark costing cycles_per_op, n reps of 1000 ops per
 * measurement, each measurement followed by the reference chain; the core
 * clock at trial t, sample i is ghz(t, i); every trial's time is scaled by
 * slow[t] (a difference the clock does not explain), its second half's by
 * slow2[t] instead where slow2 is given.
 */
static void build2(const struct cbench_desc *d, double cycles_per_op, double (*ghz)(int, int),
		   const double *slow, const double *slow2)
{
	const uint64_t n = 40, ref_reps = 80;

	memset(&report, 0, sizeof(report));
	report.timer.tsc_hz = TSC_HZ;
	report.timer.step_ticks = STEP;
	report.timer.ref_reps = ref_reps;
	experiment = (struct cbench_experiment){ .desc = d, .id = "chain", .report_name = "BenchmarkChain" };
	for (int t = 0; t < TRIALS; t++) {
		for (int i = 0; i < SAMPLES; i++) {
			double g = ghz(t, i), s = slow2 && i >= SAMPLES / 2 ? slow2[t] :
							 slow ? slow[t] : 1;

			bench[t][i] = (struct cbench_sample){
				.reps = n, .ticks = read_ticks(cycles_per_op * 1000 * (double)n * s, g) };
			ref[t][i] = (struct cbench_sample){
				.reps = ref_reps,
				.ticks = read_ticks((double)ref_reps * CBENCH_REF_ADDS_PER_REP,
						    g * (ref_seen ? ref_seen[t] : 1)) };
		}
		trials[t] = (struct cbench_trial){ .n = n, .samples = bench[t], .nsamples = SAMPLES,
						   .ref_samples = ref[t], .nref_samples = SAMPLES };
	}
	result = (struct cbench_result){ .exp = &experiment, .tuning = "tuned", .n = n, .trials = trials,
					 .ntrials = TRIALS };
	report.results = &result;
	report.nresults = 1;
	cbench_report_summarize(&report);
}

static void build(const struct cbench_desc *d, double cycles_per_op, double (*ghz)(int, int),
		  const double *slow)
{
	build2(d, cycles_per_op, ghz, slow, NULL);
}

/* A clock that ramps by 3% over the run, trial by trial. */
static double ramp(int t, int i)
{
	return 3.6 * (1 + 0.03 * (t * SAMPLES + i) / (TRIALS * SAMPLES));
}

static double steady(int t, int i)
{
	return 3.6;
}

/* Steady across trials, but 2% faster in each trial's second half. */
static double jumps(int t, int i)
{
	return i < SAMPLES / 2 ? 3.6 : 3.672;
}

static void drift_cancels(void)
{
	double lo = INFINITY, hi = 0, worst = 0;

	build(&chain, 3.0, ramp, NULL);
	for (int t = 0; t < TRIALS; t++) {
		CU_ASSERT_EQUAL(trials[t].error, 0);
		lo = fmin(lo, trials[t].ns_per_op);
		hi = fmax(hi, trials[t].ns_per_op);
		worst = fmax(worst, fabs(trials[t].est_cycles_per_op / 3.0 - 1));
		CU_ASSERT_DOUBLE_EQUAL(trials[t].core_ghz, ramp(t, SAMPLES / 2), 0.01);
	}
	printf("\n    clock ramping 3%%: ns/op moves %.2f%%, est-cycles/op off by at most %.4f%% ",
	       100 * (hi / lo - 1), 100 * worst);
	/* The wall time follows the clock; the cycles do not. */
	CU_ASSERT(hi / lo - 1 > 0.02);
	CU_ASSERT(worst < 0.001);
	CU_ASSERT_DOUBLE_EQUAL(result.est_cycles_per_op, 3.0, 0.003);
	/* The clock explains the spread: not unstable. */
	CU_ASSERT_FALSE(result.unstable);
	CU_ASSERT(report.core_ghz_max / report.core_ghz_min - 1 > 0.02);
	CU_ASSERT_EQUAL(report.clock_moved_trials, 0);
}

static void clock_moved_within_trial(void)
{
	build(&chain, 1.0, jumps, NULL);
	for (int t = 0; t < TRIALS; t++)
		CU_ASSERT_DOUBLE_EQUAL(trials[t].clock_moved, 0.02, 0.002);
	CU_ASSERT_EQUAL(report.clock_moved_trials, TRIALS);
	build(&chain, 1.0, steady, NULL);
	CU_ASSERT_EQUAL(report.clock_moved_trials, 0);
}

/*
 * est-cycles/op is each trial's ns/op at the clock its reference chain
 * saw; where the chain saw another clock than the benchmark in some of
 * them, est-cycles/op parts from ns/op at the median clock, and the row
 * says so.  Trials 4-6 are placement-slow by 3%, trials 3-4's chains
 * disturbed by 3%: est-cycles/op's median comes from another trial than
 * ns/op's.
 */
static void cycles_gap_told(void)
{
	static const double slow[TRIALS] = { 1, 1, 1, 1, 1.03, 1.03, 1.03, 1.03 };
	static const double seen[TRIALS] = { 1, 1, 1, 0.97, 0.97, 1, 1, 1 };

	build(&chain, 1.0, steady, slow);
	CU_ASSERT(fabs(result.cycles_gap) < CBENCH_CYCLES_GAP_MAX);
	CU_ASSERT_STRING_EQUAL(result.cycles_note, "");
	ref_seen = seen;
	build(&chain, 1.0, steady, slow);
	ref_seen = NULL;
	printf("\n    chains disturbed in 2 of 8 trials: est-cycles/op %.4f, gap %+.2f%% ",
	       result.est_cycles_per_op, 100 * result.cycles_gap);
	CU_ASSERT(fabs(result.cycles_gap) > CBENCH_CYCLES_GAP_MAX);
	CU_ASSERT_PTR_NOT_NULL(strstr(result.cycles_note, "trust ns/op"));
}

static void unstable_flagged(void)
{
	static const double slow[TRIALS] = { 1, 1.1, 1, 1.05, 1, 1, 1.08, 1 };
	static const double other[TRIALS] = { 1.12, 1.2, 1.14, 1.17, 1.1, 1.16, 1.19, 1.13 };
	static const double calm[TRIALS] = { 1, 1.002, 1, 1.001, 1, 1, 1.003, 1 };

	/* A steady clock, three trials in eight 5 to 10% slow and each the
	 * same throughout, nothing beside them slow: what sets them apart
	 * stays put for a trial, its placement.  The headline is the median
	 * of trials, the least one lucky placement's. */
	build(&chain, 1.0, steady, slow);
	CU_ASSERT_TRUE(result.unstable);
	CU_ASSERT_TRUE(result.placement_sensitive);
	CU_ASSERT(result.placement_share > 0.95);
	CU_ASSERT_EQUAL(result.set_aside, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(result.unstable_reason, "placement"));
	CU_ASSERT_PTR_NOT_NULL(strstr(result.unstable_reason, "the median of trials, quoted"));
	CU_ASSERT(result.ns_per_op >= result.least_ns_per_op);
	CU_ASSERT(result.ns_lo <= result.ns_per_op && result.ns_per_op <= result.ns_hi);
	CU_ASSERT_EQUAL(report.unstable_results, 1);
	CU_ASSERT_EQUAL(report.placement_sensitive_results, 1);
	/* Halves of a trial further apart than the trials: the noise within
	 * trials explains the spread, and nothing cbench can see does. */
	build2(&chain, 1.0, steady, slow, other);
	CU_ASSERT_TRUE(result.unstable);
	CU_ASSERT_FALSE(result.placement_sensitive);
	CU_ASSERT(result.placement_share < CBENCH_PLACEMENT_SHARE_MIN);
	CU_ASSERT_PTR_NOT_NULL(strstr(result.unstable_reason, "noisy machine"));
	/* Trials within a few tenths of a percent are stable, whatever the
	 * share: the least and the median hardly differ. */
	build(&chain, 1.0, steady, calm);
	CU_ASSERT_FALSE(result.unstable);
	CU_ASSERT_FALSE(result.placement_sensitive);
	CU_ASSERT(!isnan(result.placement_share));
	CU_ASSERT_EQUAL(report.unstable_results, 0);
	/* Two trials say nothing of the variance between trials. */
	result.ntrials = 2;
	cbench_report_summarize(&report);
	CU_ASSERT(isnan(result.placement_share));
	CU_ASSERT_FALSE(result.placement_sensitive);
}

/*
 * Trials 2x apart, fixed per trial, under a clock that moves 2 % within
 * each: the clock's move cannot explain a 2x spread, so it is put down to
 * placement, not to the clock (as a shared host once had it).
 */
static void placement_under_a_moving_clock(void)
{
	static const double twice[TRIALS] = { 1, 2, 1, 2, 1, 2, 1, 2 };

	build(&chain, 1.0, jumps, twice);
	CU_ASSERT_EQUAL(report.clock_moved_trials, TRIALS);
	CU_ASSERT_TRUE(result.unstable);
	CU_ASSERT_TRUE(result.placement_sensitive);
	CU_ASSERT_PTR_NOT_NULL(strstr(result.unstable_reason, "placement"));
	CU_ASSERT_PTR_NULL(strstr(result.unstable_reason, "clock"));
}

/* The run sampled code layouts: trial t at layout layout_of(t), then the
 * report summarized again. */
static void sample_layouts(uint32_t (*layout_of)(int))
{
	report.layouts_sampled = true;
	for (int t = 0; t < TRIALS; t++)
		trials[t].layout = layout_of(t);
	cbench_report_summarize(&report);
}

/* As run.c draws them: two trials a layout. */
static uint32_t in_pairs(int t)
{
	return (uint32_t)(t / 2 + 1);
}

/* Only trials 0 and 1 share a layout: one degree of freedom. */
static uint32_t one_pair(int t)
{
	return (uint32_t)(t ? t : 1);
}

/*
 * Placement or code layout: with layouts sampled two trials a layout,
 * trials that share a layout and agree spread by the layout, and the
 * median is the median over layouts; trials at one layout that differ
 * as much spread by where memory lies; with one pair, cbench cannot tell.
 */
static void layout_told_apart(void)
{
	static const double by_layout[TRIALS] = { 1, 1, 1.1, 1.1, 1, 1, 1.2, 1.2 };
	static const double by_memory[TRIALS] = { 1, 1.1, 1, 1.2, 1, 1.1, 1, 1.2 };

	/* Layouts not sampled: placement, as ever. */
	build(&chain, 1.0, steady, by_layout);
	CU_ASSERT_TRUE(result.placement_sensitive);
	CU_ASSERT_FALSE(result.layout_sensitive);
	CU_ASSERT_EQUAL(result.layouts, 0);
	sample_layouts(in_pairs);
	CU_ASSERT_TRUE(result.placement_sensitive);
	CU_ASSERT_TRUE(result.layout_sensitive);
	CU_ASSERT_EQUAL(result.layouts, 4);
	CU_ASSERT(result.layout_share > 0.95);
	CU_ASSERT_PTR_NOT_NULL(strstr(result.unstable_reason, "by code layout"));
	CU_ASSERT_PTR_NOT_NULL(strstr(result.unstable_reason, "the median over 4 layouts"));
	CU_ASSERT_EQUAL(report.layout_sensitive_results, 1);
	CU_ASSERT_EQUAL(report.placement_sensitive_results, 1);
	/* Trials at one layout differ as much as any: memory. */
	build(&chain, 1.0, steady, by_memory);
	sample_layouts(in_pairs);
	CU_ASSERT_TRUE(result.placement_sensitive);
	CU_ASSERT_FALSE(result.layout_sensitive);
	CU_ASSERT(result.layout_share < CBENCH_LAYOUT_SHARE_MIN);
	CU_ASSERT_PTR_NOT_NULL(strstr(result.unstable_reason, "placement of memory, not of code"));
	CU_ASSERT_EQUAL(report.layout_sensitive_results, 0);
	/* One pair says too little: either. */
	build(&chain, 1.0, steady, by_layout);
	sample_layouts(one_pair);
	CU_ASSERT_TRUE(result.placement_sensitive);
	CU_ASSERT_FALSE(result.layout_sensitive);
	CU_ASSERT(isnan(result.layout_share));
	CU_ASSERT_EQUAL(result.layouts, 7);
	CU_ASSERT_PTR_NOT_NULL(strstr(result.unstable_reason, "placement or code layout"));
	/* Stable trials are neither, whatever the layouts. */
	build(&chain, 1.0, steady, NULL);
	sample_layouts(in_pairs);
	CU_ASSERT_FALSE(result.placement_sensitive);
	CU_ASSERT_FALSE(result.layout_sensitive);
}

/* Each trial's core width, then the report summarized again. */
static void widths(const double *w)
{
	for (int t = 0; t < TRIALS; t++)
		trials[t].figures = (struct cbench_trial_figures){ .have_width = true, .core_width = w[t] };
	cbench_report_summarize(&report);
}

static size_t count_set_aside(void)
{
	size_t n = 0;

	for (int t = 0; t < TRIALS; t++)
		n += trials[t].set_aside;
	return n;
}

/*
 * Trials on a core another thread shared (fewer adds a cycle than the
 * run's widest, and twice as slow, as a throughput-bound benchmark runs
 * there) are set aside, however many; the headline is the others'.  Where
 * nothing more will be measured in their place (the run stopped, or its
 * replacements are spent) and no unshared trial is left, they come back,
 * the widest first, until the benchmark keeps half what it asked for, and
 * its note says so; --keep-shared keeps them all and only counts them.
 */
static void shared_core_set_aside(void)
{
	static const double slow[TRIALS] = { 1, 2, 2, 2, 2, 1, 1, 1 };
	static const double w[TRIALS] = { 4.47, 2.6, 3.0, 2.8, 2.7, 4.46, 4.48, 4.47 };
	double w2[TRIALS];

	build(&chain, 1.0, steady, slow);
	/* No widths measured: half the trials 2x slow is placement. */
	CU_ASSERT_EQUAL(count_set_aside(), 0);
	CU_ASSERT_TRUE(result.placement_sensitive);
	/* --trials 10: replacements to come. */
	report.settings.trials = 10;
	widths(w);
	CU_ASSERT_EQUAL(count_set_aside(), 4);
	for (int t = 1; t <= 4; t++) {
		CU_ASSERT_EQUAL(trials[t].cause, CBENCH_TRIAL_SHARED);
		CU_ASSERT_TRUE(trials[t].set_aside);
	}
	CU_ASSERT_EQUAL(report.shared_trials, 4);
	CU_ASSERT_EQUAL(report.shared_kept, 0);
	CU_ASSERT_DOUBLE_EQUAL(report.core_width_max, 4.48, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(result.est_cycles_per_op, 1.0, 0.002);
	CU_ASSERT_FALSE(result.unstable);
	CU_ASSERT_PTR_NOT_NULL(strstr(result.set_aside_note, "4 on a core another thread shared"));
	/* Three of them replacements, and --trials 3: replacements spent,
	 * five asked, four kept: half of them and more, none back. */
	for (int t = 5; t < TRIALS; t++)
		trials[t].replacement = true;
	report.settings.trials = 3;
	cbench_report_summarize(&report);
	CU_ASSERT_EQUAL(count_set_aside(), 4);
	CU_ASSERT_EQUAL(report.shared_kept, 0);
	/* Two replacements shared too: the two unshared trials left (under
	 * half of five) stand alone; no shared one comes back. */
	memcpy(w2, w, sizeof(w2));
	w2[5] = w2[6] = 2.5;
	widths(w2);
	CU_ASSERT_EQUAL(count_set_aside(), 6);
	CU_ASSERT_EQUAL(report.shared_kept, 0);
	CU_ASSERT_PTR_NULL(strstr(result.set_aside_note, "kept though"));
	CU_ASSERT_DOUBLE_EQUAL(result.est_cycles_per_op, 1.0, 0.002);
	/* One unshared trial left (a failed one is not made up for): it stands
	 * alone too. */
	trials[0].error = -5;
	cbench_report_summarize(&report);
	CU_ASSERT_EQUAL(count_set_aside(), 6);
	CU_ASSERT_EQUAL(report.shared_kept, 0);
	trials[0].error = 0;
	/* None unshared (runs before saw a wider core, 5.0): the widest
	 * shared ones come back, until half of the five asked are kept. */
	report.known_width[0] = (struct cbench_core_width){ 0, 5.0 };
	report.nknown_width = 1;
	widths(w);
	CU_ASSERT_EQUAL(count_set_aside(), 5);
	CU_ASSERT_EQUAL(report.shared_kept, 3);
	CU_ASSERT_FALSE(trials[6].set_aside);		/* 4.48 */
	CU_ASSERT_FALSE(trials[0].set_aside);		/* 4.47 */
	CU_ASSERT_FALSE(trials[7].set_aside);		/* 4.47 */
	CU_ASSERT_TRUE(trials[5].set_aside);		/* 4.46 */
	CU_ASSERT_PTR_NOT_NULL(strstr(result.set_aside_note, "3 kept though its core was shared"));
	/* Replacements spent, but the run still waits for the core
	 * (--shared-wait): none back yet. */
	report.waiting_shared = true;
	cbench_report_summarize(&report);
	CU_ASSERT_EQUAL(count_set_aside(), 8);
	CU_ASSERT_EQUAL(report.shared_kept, 0);
	report.waiting_shared = false;
	/* A budget not spent: all stay aside, replacements will come. */
	report.settings.trials = 10;
	cbench_report_summarize(&report);
	CU_ASSERT_EQUAL(count_set_aside(), 8);
	/* Stopped: nothing more will come. */
	report.interrupted = 2;
	cbench_report_summarize(&report);
	CU_ASSERT_EQUAL(count_set_aside(), 5);
	report.nknown_width = 0;
	/* One trial asked, shared by what runs before saw of the CPU (alone,
	 * it is its run's widest): back, and said so though none is set aside. */
	result.trials = &trials[1];
	result.ntrials = 1;
	report.known_width[0] = (struct cbench_core_width){ 0, 4.47 };
	report.nknown_width = 1;
	cbench_report_summarize(&report);
	report.nknown_width = 0;
	CU_ASSERT_FALSE(trials[1].set_aside);
	CU_ASSERT_EQUAL(report.shared_kept, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(result.set_aside_note, "of its trials: 1 kept though its core was shared"));
	result.trials = trials;
	result.ntrials = TRIALS;
	report.interrupted = 0;
	widths(w);
	/* --keep-shared: kept, judged as without widths, and counted. */
	report.settings.keep_shared = true;
	cbench_report_summarize(&report);
	CU_ASSERT_EQUAL(count_set_aside(), 0);
	CU_ASSERT_EQUAL(report.shared_trials, 4);
	CU_ASSERT_TRUE(result.placement_sensitive);
	for (int t = 0; t < TRIALS; t++)
		CU_ASSERT_NOT_EQUAL(trials[t].cause, CBENCH_TRIAL_SHARED);
}

/*
 * Why a benchmark's trials stopped where they did (--precision), in words:
 * the most trials counts the rounds' (not the trials measured again, nor
 * the trial alone on several CPUs); a precise stop whose interval the
 * trials after the rounds widened says so rather than "within".
 */
static void stop_text(void)
{
	struct cbench_trial t[7] = { 0 };
	struct cbench_result res = { .trials = t, .ntrials = 7, .stop_half = 0.0007,
				     .stop_est = true };
	char buf[512];

	t[5].replacement = true;
	t[6].alone = true;
	res.stop = CBENCH_STOP_MOST;
	cbench_stop_text(&res, buf, sizeof(buf));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "stopped at the most trials, 5 (--trials): its "
					 "est-cycles/op interval 0.07% of its headline, wider than"));
	res.stop = CBENCH_STOP_PRECISE;
	res.stop_close = true;
	res.stop_half = 0.0004;
	cbench_stop_text(&res, buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "stopped after 7 trials: its est-cycles/op interval within "
			       "0.04% of its headline, as --precision asked");
	res.stop_close = false;
	res.stop_half = 0.0007;
	res.stop_auto = true;
	cbench_stop_text(&res, buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "stopped after 7 trials: its est-cycles/op interval was within "
			       "what the default precision (without --trials) asked, and is 0.07% "
			       "of its headline with the trials measured after the rounds");
}

static CU_TestInfo report_tests[] = {
	{ "trials on a shared core are set aside, and back for want of others", shared_core_set_aside },
	{ "placement of memory or code layout, told apart", layout_told_apart },
	{ "est-cycles/op cancel a clock ramping 3%", drift_cancels },
	{ "a clock that moves within a trial is flagged", clock_moved_within_trial },
	{ "trials that disagree are flagged unstable", unstable_flagged },
	{ "est-cycles/op apart from ns/op at the clock: the row says why", cycles_gap_told },
	{ "a 2x spread under a clock moving 2% is placement", placement_under_a_moving_clock },
	{ "why a benchmark's trials stopped, in words", stop_text },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_report_suites[] = {
	{ "report summaries", NULL, NULL, NULL, NULL, report_tests },
	CU_SUITE_INFO_NULL,
};
