// SPDX-License-Identifier: GPL-2.0
/*
 * What a run's trials say together (stats/trials.c): the median's
 * distribution-free interval against the binomial, and the classifier of
 * slow trials on synthetic runs whose causes are known: a busy moment over
 * a round of several benchmarks, a clock dip, a stretch within a trial, a
 * lone slow trial, and the spread a placement-sensitive benchmark has.
 */
#include <CUnit/CUnit.h>
#include <math.h>
#include <string.h>

#include "stats/trials.h"

#define CLOSE(a, b) CU_ASSERT(fabs((a) - (b)) < 1e-12)

static void median_interval(void)
{
	const double v[] = { 7, 3, 9, 1, 5, 10, 2, 8, 4, 6 };
	double m, lo, hi, cov;

	cbench_trials_median_ci(v, 10, 0.95, &m, &lo, &hi, &cov);
	CLOSE(m, 5.5);
	CLOSE(lo, 2);
	CLOSE(hi, 9);
	/* 1 - 2 P(Bin(10, 1/2) <= 1) = 1 - 2 * 11 / 1024 */
	CLOSE(cov, 1 - 22.0 / 1024);
	/* At 0.80, k = 3 covers 1 - 2 * 56 / 1024 = 0.89. */
	cbench_trials_median_ci(v, 10, 0.80, &m, &lo, &hi, &cov);
	CLOSE(lo, 3);
	CLOSE(hi, 8);
	/* Five values cover at most 1 - 2/32 = 0.9375: the range, saying so. */
	cbench_trials_median_ci(v, 5, 0.95, &m, &lo, &hi, &cov);
	CLOSE(m, 5);
	CLOSE(lo, 1);
	CLOSE(hi, 9);
	CLOSE(cov, 0.9375);
	cbench_trials_median_ci(v, 1, 0.95, &m, &lo, &hi, &cov);
	CLOSE(m, 7);
	CLOSE(lo, 7);
	CLOSE(cov, 1);
	cbench_trials_median_ci(v, 0, 0.95, &m, &lo, &hi, &cov);
	CU_ASSERT(isnan(m) && isnan(lo) && isnan(hi));
	/* Quantiles 3.25 and 7.75 (R's type 7) of 1..10. */
	CLOSE(cbench_trials_robust_sd(v, 10), 4.5 / 1.349);
	CLOSE(cbench_trials_robust_sd(v, 1), 0);
}

/*
 * A run of nb benchmarks by k trials, round-robin, each trial 25 ms with
 * 5 ms between: benchmark b's trial t at log(base_b) plus a small jitter,
 * halves agreeing, a steady clock.
 */
static void synthetic(struct cbench_trial_obs *obs, size_t nb, size_t k)
{
	static const double jitter[] = { 0, 1, -1, 2, -2, 0.5, -0.5, 1.5, -1.5, 0.2, -0.2, 0.7 };

	for (size_t t = 0; t < k; t++) {
		for (size_t b = 0; b < nb; b++) {
			struct cbench_trial_obs *o = &obs[t * nb + b];
			double start = 0.030 * (double)(t * nb + b);

			memset(o, 0, sizeof(*o));
			o->bench = b;
			o->log_ns = log(100.0 * (double)(b + 1)) + 1e-4 * jitter[(t + b) % 12];
			o->core_ghz = 3.0;
			o->half_diff = 5e-5;
			o->start_s = start;
			o->end_s = start + 0.025;
			o->floor = 1e-4;
			o->width = NAN;
		}
	}
}

static size_t count(const struct cbench_trial_obs *obs, size_t n, enum cbench_trial_cause c)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		k += obs[i].cause == c;
	return k;
}

/* The machine busy for one round: every benchmark's trial of it is slow. */
static void busy_moment(void)
{
	struct cbench_trial_obs obs[40];

	synthetic(obs, 4, 10);
	for (size_t b = 0; b < 4; b++)
		obs[3 * 4 + b].log_ns += log(1.6);
	CU_ASSERT_EQUAL(cbench_trials_classify(obs, 40, 4, NULL, 0), 4);
	for (size_t b = 0; b < 4; b++) {
		CU_ASSERT_EQUAL(obs[3 * 4 + b].cause, CBENCH_TRIAL_MOMENT);
		CU_ASSERT(obs[3 * 4 + b].beside >= 1);
	}
	CU_ASSERT_EQUAL(count(obs, 40, CBENCH_TRIAL_KEPT), 36);
}

/* One slow trial alone, nothing beside it slow: no cause seen, not disturbed. */
static void lone_slow_trial(void)
{
	struct cbench_trial_obs obs[40];

	synthetic(obs, 4, 10);
	obs[5 * 4 + 2].log_ns += log(1.723);
	CU_ASSERT_EQUAL(cbench_trials_classify(obs, 40, 4, NULL, 0), 0);
	CU_ASSERT_EQUAL(obs[5 * 4 + 2].cause, CBENCH_TRIAL_SLOW);
	CU_ASSERT_EQUAL(count(obs, 40, CBENCH_TRIAL_KEPT), 39);
	/* The same with its reference chain slow: the clock dipped. */
	obs[5 * 4 + 2].core_ghz = 3.0 / 1.5;
	CU_ASSERT_EQUAL(cbench_trials_classify(obs, 40, 4, NULL, 0), 1);
	CU_ASSERT_EQUAL(obs[5 * 4 + 2].cause, CBENCH_TRIAL_CLOCK);
	/* A trial fast by 6.6 %, its clock 6.6 % higher: a boost, set aside. */
	obs[5 * 4 + 2].log_ns -= log(1.723) + log(1.066);
	obs[5 * 4 + 2].core_ghz = 3.0 * 1.066;
	CU_ASSERT_EQUAL(cbench_trials_classify(obs, 40, 4, NULL, 0), 1);
	CU_ASSERT_EQUAL(obs[5 * 4 + 2].cause, CBENCH_TRIAL_CLOCK);
	/* As fast at the run's clock: a lucky placement's, kept. */
	obs[5 * 4 + 2].core_ghz = 3.0;
	CU_ASSERT_EQUAL(cbench_trials_classify(obs, 40, 4, NULL, 0), 0);
	CU_ASSERT_EQUAL(obs[5 * 4 + 2].cause, CBENCH_TRIAL_KEPT);
	obs[5 * 4 + 2].log_ns += log(1.723) + log(1.066);
	/* Or with its halves far apart: slow for part of the trial. */
	obs[5 * 4 + 2].core_ghz = 3.0;
	obs[5 * 4 + 2].half_diff = 0.4;
	CU_ASSERT_EQUAL(cbench_trials_classify(obs, 40, 4, NULL, 0), 1);
	CU_ASSERT_EQUAL(obs[5 * 4 + 2].cause, CBENCH_TRIAL_PART);
}

/*
 * A placement-sensitive benchmark (trials spread over 4 %, both ways, with
 * no time pattern) beside compute-only ones: nothing is slow beyond its
 * spread, nothing disturbed; and a slow trial of a neighbour does not make
 * its placement-sensitive neighbour's trials disturbed.
 */
static void placement_spread(void)
{
	static const double spread[] = { 0, 3.1, 0.4, 2.2, 3.9, 1.0, 0.1, 2.8, 1.7, 3.5 };
	struct cbench_trial_obs obs[30];

	synthetic(obs, 3, 10);
	for (size_t t = 0; t < 10; t++)
		obs[t * 3 + 1].log_ns += log(1 + spread[t] / 100);
	CU_ASSERT_EQUAL(cbench_trials_classify(obs, 30, 3, NULL, 0), 0);
	CU_ASSERT_EQUAL(count(obs, 30, CBENCH_TRIAL_KEPT), 30);
	/* Benchmark 0 slow in round 4: benchmark 1's trial beside it is not
	 * slow for its own spread, so benchmark 0's is slow alone. */
	obs[4 * 3].log_ns += log(1.3);
	CU_ASSERT_EQUAL(cbench_trials_classify(obs, 30, 3, NULL, 0), 0);
	CU_ASSERT_EQUAL(obs[4 * 3].cause, CBENCH_TRIAL_SLOW);
	CU_ASSERT_EQUAL(obs[4 * 3 + 1].cause, CBENCH_TRIAL_KEPT);
}

/* Slowdowns under CBENCH_TRIAL_SLOW_MIN are noise, whatever the spread. */
static void small_slowdowns(void)
{
	struct cbench_trial_obs obs[20];

	synthetic(obs, 2, 10);
	obs[2 * 2].log_ns += 0.004;
	obs[2 * 2 + 1].log_ns += 0.004;
	CU_ASSERT_EQUAL(cbench_trials_classify(obs, 20, 2, NULL, 0), 0);
	CU_ASSERT_EQUAL(count(obs, 20, CBENCH_TRIAL_KEPT), 20);
}

/*
 * Widths as a 2-vCPU VM's trials read them when the other hyperthread of
 * the core is sometimes busy (measured on an Emerald Rapids guest: 4.46 to
 * 4.48 adds a cycle alone, 2.4 to 3.5 shared).
 */
static void set_widths(struct cbench_trial_obs *obs, size_t n)
{
	static const double jitter[] = { 0, 0.002, -0.002, 0.001, -0.001, 0.003, -0.003 };

	for (size_t i = 0; i < n; i++)
		obs[i].width = 4.47 * (1 + jitter[i % 7]);
}

/*
 * Another thread on the core: every trial whose core ran fewer adds a cycle
 * is set aside, the throughput-bound benchmark's (slowed by half) as well
 * as the latency-bound one's (slowed by a tenth of a percent, under any
 * slowdown a trial is suspected for), even where it is most of the
 * benchmark's trials; the rest are judged among themselves and kept.
 */
static void shared_core(void)
{
	static const size_t shared_rounds[] = { 1, 4, 5, 6, 8, 9 };
	struct cbench_trial_obs obs[30];

	synthetic(obs, 3, 10);
	set_widths(obs, 30);
	CU_ASSERT_EQUAL(cbench_trials_classify(obs, 30, 3, NULL, 0), 0);
	for (size_t k = 0; k < 6; k++) {
		struct cbench_trial_obs *lat = &obs[shared_rounds[k] * 3], *thr = lat + 2;

		thr->width = 2.7 + 0.1 * (double)k;
		thr->log_ns += log(1.5);
		if (k < 2) {
			lat->width = 2.9;
			lat->log_ns += 0.001;
		}
	}
	CU_ASSERT_EQUAL(cbench_trials_classify(obs, 30, 3, NULL, 0), 8);
	CU_ASSERT_EQUAL(count(obs, 30, CBENCH_TRIAL_SHARED), 8);
	CU_ASSERT_EQUAL(obs[1 * 3].cause, CBENCH_TRIAL_SHARED);
	CU_ASSERT_EQUAL(obs[4 * 3].cause, CBENCH_TRIAL_SHARED);
	CU_ASSERT_EQUAL(obs[5 * 3].cause, CBENCH_TRIAL_KEPT);
	for (size_t t = 0; t < 10; t++)
		if (t != 1 && t != 4 && t != 5 && t != 6 && t != 8 && t != 9)
			CU_ASSERT_EQUAL(obs[t * 3 + 2].cause, CBENCH_TRIAL_KEPT);
	/* Nothing unshared was slow: no moment. */
	CU_ASSERT_EQUAL(count(obs, 30, CBENCH_TRIAL_MOMENT), 0);
	CU_ASSERT_EQUAL(count(obs, 30, CBENCH_TRIAL_KEPT), 22);
}

/*
 * How much narrower counts: 9 % is kept, 11 % shared; widths compare on one
 * CPU only (an efficiency core has fewer ALUs than a performance core); a
 * run whose every trial was as narrow shows nothing to compare with; and a
 * trial without a width is never shared.
 */
static void shared_core_bounds(void)
{
	struct cbench_trial_obs obs[20];

	synthetic(obs, 2, 10);
	set_widths(obs, 20);
	obs[3 * 2].width = 4.47 * 0.91;
	obs[6 * 2].width = 4.47 * 0.89;
	CU_ASSERT_EQUAL(cbench_trials_classify(obs, 20, 2, NULL, 0), 1);
	CU_ASSERT_EQUAL(obs[3 * 2].cause, CBENCH_TRIAL_KEPT);
	CU_ASSERT_EQUAL(obs[6 * 2].cause, CBENCH_TRIAL_SHARED);
	/* Benchmark 1's trials on another CPU, a third narrower: its own. */
	for (size_t t = 0; t < 10; t++) {
		obs[t * 2 + 1].cpu = 1;
		obs[t * 2 + 1].width = 3.0 * (1 + 0.001 * (double)(t % 3));
	}
	obs[6 * 2].width = 4.47;
	CU_ASSERT_EQUAL(cbench_trials_classify(obs, 20, 2, NULL, 0), 0);
	CU_ASSERT_EQUAL(count(obs, 20, CBENCH_TRIAL_KEPT), 20);
	/* All on one CPU again: the 3.0s are shared. */
	for (size_t t = 0; t < 10; t++)
		obs[t * 2 + 1].cpu = 0;
	CU_ASSERT_EQUAL(cbench_trials_classify(obs, 20, 2, NULL, 0), 10);
	/* Every trial as narrow: nothing wider to tell it by. */
	for (size_t i = 0; i < 20; i++)
		obs[i].width = 2.8;
	CU_ASSERT_EQUAL(cbench_trials_classify(obs, 20, 2, NULL, 0), 0);
	/* Unless runs before saw the CPU wider: then every one was shared;
	 * what they saw of another CPU says nothing of this one. */
	CU_ASSERT_EQUAL(cbench_trials_classify(obs, 20, 2, &(struct cbench_core_width){ 1, 4.47 }, 1), 0);
	CU_ASSERT_EQUAL(cbench_trials_classify(obs, 20, 2, &(struct cbench_core_width){ 0, 4.47 }, 1), 20);
	CU_ASSERT_EQUAL(cbench_trials_mark_shared(obs, 20, &(struct cbench_core_width){ 0, 4.47 }, 1), 20);
	CU_ASSERT_EQUAL(cbench_trials_mark_shared(obs, 20, &(struct cbench_core_width){ 0, 3.0 }, 1), 0);
	/* Widths unmeasured (NAN, or 0 from an old report) beside a wide one. */
	for (size_t i = 0; i < 20; i++)
		obs[i].width = i % 2 ? NAN : 0;
	obs[0].width = 4.47;
	CU_ASSERT_EQUAL(cbench_trials_classify(obs, 20, 2, NULL, 0), 0);
}

/* The pooled variance within groups, against values worked by hand. */
static void within_groups(void)
{
	/* Groups 7: {1, 3}, 2: {4, 4, 7}, 9: {10}: squares 2 + 6 over 1 + 2. */
	static const double v[] = { 1, 4, 3, 4, 10, 7 };
	static const uint32_t g[] = { 7, 2, 7, 2, 9, 2 };
	size_t groups;

	CU_ASSERT_DOUBLE_EQUAL(cbench_trials_within_groups(v, g, 6, &groups), 8.0 / 3, 1e-12);
	CU_ASSERT_EQUAL(groups, 3);
	/* One pair is one degree of freedom: too little. */
	CU_ASSERT(isnan(cbench_trials_within_groups(v, g, 3, &groups)));
	CU_ASSERT_EQUAL(groups, 2);
	/* No group of two at all. */
	CU_ASSERT(isnan(cbench_trials_within_groups(v, g, 2, &groups)));
	CU_ASSERT(isnan(cbench_trials_within_groups(v, g, 0, &groups)));
	CU_ASSERT_EQUAL(groups, 0);
}

static CU_TestInfo trials_tests[] = {
	{ "the variance within groups, pooled", within_groups },
	{ "the median's interval from order statistics", median_interval },
	{ "a busy moment over a round is a disturbance", busy_moment },
	{ "a lone slow trial, a clock dip, a stretch within a trial", lone_slow_trial },
	{ "a placement's spread is not a disturbance", placement_spread },
	{ "slowdowns too small to matter are kept", small_slowdowns },
	{ "a core another thread shared is a disturbance", shared_core },
	{ "how much narrower a shared core is, on one CPU", shared_core_bounds },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_trials_suites[] = {
	{ "trials: headline, interval, disturbances", NULL, NULL, NULL, NULL, trials_tests },
	CU_SUITE_INFO_NULL,
};
