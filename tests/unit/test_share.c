// SPDX-License-Identifier: GPL-2.0
/*
 * Sampled shares: Wilson's interval against published values, the samples
 * a width needs, and Wen et al.'s simulation (section 4): running states of
 * tasks with several granularities, sampled at an interval with noise, show
 * that the estimated share is unbiased and that its 95 % interval covers
 * the true share as often as it claims.  Every random number comes from a
 * seeded generator, so the results, and the test, are the same on every run.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <CUnit/CUnit.h>

#include "stats/share.h"

static void z_values(void)
{
	CU_ASSERT_DOUBLE_EQUAL(cbench_share_z(0.95), 1.959963984540054, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(cbench_share_z(0.99), 2.575829303548901, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(cbench_share_z(0.6826894921370859), 1, 1e-9);
	CU_ASSERT(isnan(cbench_share_z(0)));
	CU_ASSERT(isnan(cbench_share_z(1)));
}

/* Newcombe, "Two-sided confidence intervals for the single proportion"
 * (Stat. Med. 1998), table I, method 3 (score interval, no continuity
 * correction), to the four places printed there. */
static void wilson_known_values(void)
{
	static const struct { uint64_t k, n; double lower, upper; } cases[] = {
		{ 81, 263, 0.2553, 0.3662 },
		{ 15, 148, 0.0624, 0.1605 },
		{ 0, 20, 0.0000, 0.1611 },
		{ 1, 29, 0.0061, 0.1718 },
	};
	double z = cbench_share_z(0.95), lo, hi;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		cbench_share_wilson(cases[i].k, cases[i].n, z, &lo, &hi);
		CU_ASSERT_DOUBLE_EQUAL(lo, cases[i].lower, 0.00005);
		CU_ASSERT_DOUBLE_EQUAL(hi, cases[i].upper, 0.00005);
	}
	/* Every sample in one place: the upper end is exactly 1. */
	cbench_share_wilson(20, 20, z, &lo, &hi);
	CU_ASSERT_DOUBLE_EQUAL(lo, 1 - 0.1611, 0.00005);
	CU_ASSERT_EQUAL(hi, 1);
	cbench_share_wilson(0, 0, z, &lo, &hi);
	CU_ASSERT_EQUAL(lo, 0);
	CU_ASSERT_EQUAL(hi, 1);
}

static void needed_samples(void)
{
	double z = cbench_share_z(0.95);
	uint64_t n = cbench_share_needed(0.5, 0.02, z);

	/* Wald says 1.96^2 / 0.01^2 / 4 = 9604 for +-1 point at 50 %; Wilson
	 * needs a few fewer, and n is the least that fits. */
	CU_ASSERT(n > 9590 && n <= 9604);
	CU_ASSERT(cbench_share_width(0.5, n, z) <= 0.02);
	CU_ASSERT(cbench_share_width(0.5, n - 1, z) > 0.02);
	/* A share of 0 still needs samples to show it is small. */
	n = cbench_share_needed(0, 0.02, z);
	CU_ASSERT(n > 100 && cbench_share_width(0, n, z) <= 0.02);
	CU_ASSERT_EQUAL(cbench_share_needed(0.5, 0, z), UINT64_MAX);
}

static void widest_interval(void)
{
	const uint64_t counts[] = { 500, 490, 10 };
	double z = cbench_share_z(0.95);

	CU_ASSERT_DOUBLE_EQUAL(cbench_share_widest(counts, 3, 1000, z, 0.02),
			       cbench_share_width(0.5, 1000, z), 1e-12);
	/* Only the one under the floor is left out. */
	CU_ASSERT_DOUBLE_EQUAL(cbench_share_widest(counts + 2, 1, 1000, z, 0.02), 0, 0);
	CU_ASSERT_EQUAL(cbench_share_widest(counts, 3, 0, z, 0.02), 1);
}

/* ---- Wen et al., section 4: simulated running states, simulated profiles ---- */

/* Units of resource in one running state (Wen et al. uses 1 million; a
 * fifth of that keeps the test well under a second). */
#define SIM_UNITS 200000
/* The sampling interval in units (Wen et al., section 5.2). */
#define SIM_INTERVAL 100.0
/* Profiles per running state (Wen et al.: 1000). */
#define SIM_PROFILES 1000
/* Task kinds in a state; kind 0 is idle. */
#define SIM_KINDS 5

static uint64_t rng_state;

static uint64_t rng_next(void)
{
	/* splitmix64: small, fast, and good enough for a simulation. */
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static double rng_uniform(void)
{
	return (double)(rng_next() >> 11) * 0x1p-53;
}

static double rng_normal(void)
{
	double u = rng_uniform(), v = rng_uniform();

	return sqrt(-2 * log(1 - u)) * cos(2 * M_PI * v);
}

struct sim_state {
	unsigned char kind[SIM_UNITS];
	/* prefix[k][i]: units of kind k before unit i. */
	uint32_t prefix[SIM_KINDS][SIM_UNITS + 1];
};

/*
 * A running state: segments of work, each of one kind, of a length drawn
 * uniformly from 1 to 2g - 1 units (mean g, the kind's granularity); the
 * next segment's kind is drawn in proportion to share / granularity, so
 * that each kind's share of the units is its share.
 */
static void sim_generate(struct sim_state *s, const double share[SIM_KINDS],
			 const unsigned int granularity[SIM_KINDS])
{
	double weight[SIM_KINDS], total = 0;
	size_t at = 0;

	for (int k = 0; k < SIM_KINDS; k++) {
		weight[k] = granularity[k] ? share[k] / granularity[k] : 0;
		total += weight[k];
	}
	while (at < SIM_UNITS) {
		double pick = rng_uniform() * total;
		int k = 0;
		size_t len;

		while (k < SIM_KINDS - 1 && (pick -= weight[k]) >= 0)
			k++;
		while (!weight[k])
			k--;
		len = 1 + (size_t)(rng_uniform() * (2 * granularity[k] - 1));
		for (size_t i = 0; i < len && at < SIM_UNITS; i++)
			s->kind[at++] = (unsigned char)k;
	}
	for (int k = 0; k < SIM_KINDS; k++) {
		s->prefix[k][0] = 0;
		for (size_t i = 0; i < SIM_UNITS; i++)
			s->prefix[k][i + 1] = s->prefix[k][i] + (s->kind[i] == k);
	}
}

struct sim_tally {
	unsigned int covered, intervals;
	/* Over profiles of one state, per kind: sums of (estimate - truth)
	 * and of its square, for the bias and its standard error. */
	double diff[SIM_KINDS], diff2[SIM_KINDS];
	unsigned int profiles;
};

/* noise < 0: the interval is drawn uniformly from half to one and a half
 * SIM_INTERVAL, as cbench's sampler dithers its period (profile_worker.c). */
#define SIM_DITHER (-1.0)
/* noise SIM_RANDOM: each sample at a moment drawn uniformly over the span,
 * independently: Wen et al.'s Bernoulli model itself, where the interval's
 * coverage must come out near its nominal 95 %, not above. */
#define SIM_RANDOM (-2.0)

/*
 * One profile: a random start, then a sample every SIM_INTERVAL units plus
 * normal noise of sd `noise` (Wen et al., section 5.3), nsamples of them.  A
 * sample at moment t sees the kind of the unit running at t and stands for
 * the interval before it; the truth is each kind's share of the units from
 * the start to the last sample.
 */
static void sim_profile(const struct sim_state *s, size_t nsamples, double noise, double z,
			struct sim_tally *tally)
{
	double span = nsamples * (noise == SIM_DITHER ? 1.5 * SIM_INTERVAL :
				  noise == SIM_RANDOM ? SIM_INTERVAL : SIM_INTERVAL + 4 * noise);
	double start = rng_uniform() * (SIM_UNITS - span), t = start;
	uint64_t count[SIM_KINDS] = { 0 };
	size_t first, last;

	for (size_t j = 0; j < nsamples; j++) {
		if (noise == SIM_RANDOM) {
			count[s->kind[(size_t)(start + rng_uniform() * span)]]++;
			continue;
		}
		if (noise == SIM_DITHER)
			t += SIM_INTERVAL * (0.5 + rng_uniform());
		else
			t += SIM_INTERVAL + (noise > 0 ? noise * rng_normal() : 0);
		count[s->kind[(size_t)t]]++;
	}
	first = (size_t)start;
	last = noise == SIM_RANDOM ? (size_t)(start + span) : (size_t)t + 1;
	for (int k = 1; k < SIM_KINDS; k++) {
		double truth = (double)(s->prefix[k][last] - s->prefix[k][first]) / (double)(last - first);
		double estimate = (double)count[k] / (double)nsamples, lo, hi;

		if (truth == 0)
			continue;
		cbench_share_wilson(count[k], nsamples, z, &lo, &hi);
		tally->covered += lo <= truth && truth <= hi;
		tally->intervals++;
		tally->diff[k] += estimate - truth;
		tally->diff2[k] += (estimate - truth) * (estimate - truth);
	}
	tally->profiles++;
}

/* Runs SIM_PROFILES profiles of s; checks coverage and bias; adds to all. */
static void sim_check(const char *what, const struct sim_state *s, size_t nsamples, double noise,
		      struct sim_tally *all)
{
	struct sim_tally t = { 0 };
	double z = cbench_share_z(0.95), rate;

	for (int i = 0; i < SIM_PROFILES; i++)
		sim_profile(s, nsamples, noise, z, &t);
	rate = (double)t.covered / t.intervals;
	if (noise == SIM_RANDOM)
		printf("\n    %-44s n=%-5zu independent:     covered %5.1f %%", what, nsamples, 100 * rate);
	else if (noise == SIM_DITHER)
		printf("\n    %-44s n=%-5zu dithered 50-150: covered %5.1f %%", what, nsamples, 100 * rate);
	else
		printf("\n    %-44s n=%-5zu noise sd %.1f:     covered %5.1f %%", what, nsamples, noise,
		       100 * rate);
	CU_ASSERT(rate >= 0.93);
	/* Unbiased: the mean error over the profiles is within four of its
	 * standard errors of 0 (the runs are seeded, so this is a fixed
	 * check, not a chance). */
	for (int k = 1; k < SIM_KINDS; k++) {
		double mean, sd;

		if (!t.diff2[k])
			continue;
		mean = t.diff[k] / t.profiles;
		sd = sqrt(t.diff2[k] / t.profiles - mean * mean);
		CU_ASSERT(fabs(mean) <= 4 * sd / sqrt(t.profiles));
	}
	all->covered += t.covered;
	all->intervals += t.intervals;
}

static void sampling_simulation(void)
{
	static const unsigned int single_gran[] = { 30, 50, 100, 150, 200, 280 };
	static const double single_use[] = { 0.8, 0.5, 0.3 };
	/* Wen et al., section 5.2.2: 30 % task 1 at granularity 30, 20 % task 2
	 * at 50, 20 % task 3 at 150, 10 % task 4 at 280, 20 % idle. */
	static const double mixed_share[SIM_KINDS] = { 0.2, 0.3, 0.2, 0.2, 0.1 };
	static const unsigned int mixed_gran[SIM_KINDS] = { 100, 30, 50, 150, 280 };
	static const double noises[] = { 0, 0.5, 1, 2 };
	struct sim_state *s = malloc(sizeof(*s));
	struct sim_tally all = { 0 };
	char what[80];

	CU_ASSERT_FATAL(s != NULL);
	rng_state = 0x5eed004;
	/* Section 5.2.1: one task at three utilizations and six granularities,
	 * R = granularity / interval from 0.3 to 2.8. */
	for (size_t u = 0; u < sizeof(single_use) / sizeof(single_use[0]); u++) {
		for (size_t g = 0; g < sizeof(single_gran) / sizeof(single_gran[0]); g++) {
			double share[SIM_KINDS] = { 1 - single_use[u], single_use[u] };
			unsigned int gran[SIM_KINDS] = { single_gran[g], single_gran[g] };

			/* Idle runs as long as the task on average, so the
			 * state alternates at the task's granularity. */
			gran[0] = (unsigned int)(single_gran[g] * share[0] / share[1]) + 1;
			sim_generate(s, share, gran);
			snprintf(what, sizeof(what), "one task, %.0f %% at granularity %u",
				 100 * single_use[u], single_gran[g]);
			sim_check(what, s, 1000, 1, &all);
		}
	}
	/* Sections 5.2.2 and 5.3: four tasks mixed, with sampling noise, then
	 * with fewer samples. */
	sim_generate(s, mixed_share, mixed_gran);
	for (size_t i = 0; i < sizeof(noises) / sizeof(noises[0]); i++)
		sim_check("four tasks mixed", s, 1500, noises[i], &all);
	sim_check("four tasks mixed", s, 500, 1, &all);
	sim_check("four tasks mixed", s, 100, 2, &all);
	sim_check("four tasks mixed", s, 1200, SIM_DITHER, &all);
	sim_check("four tasks mixed", s, 1500, SIM_RANDOM, &all);
	printf("\n    Wen et al. simulation: 95 %% intervals covered the true share in %.1f %% of %u"
	       " (%u profiles)\n    ", 100.0 * all.covered / all.intervals, all.intervals,
	       (unsigned int)(SIM_PROFILES * (18 + 8)));
	CU_ASSERT((double)all.covered / all.intervals >= 0.93);
	free(s);
}

static CU_TestInfo share_tests[] = {
	{ "z of a two-sided interval", z_values },
	{ "Wilson interval: published values", wilson_known_values },
	{ "samples needed for a width", needed_samples },
	{ "widest interval above the floor", widest_interval },
	{ "Wen et al. simulation: unbiased, 95 % coverage", sampling_simulation },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_share_suites[] = {
	{ "share", NULL, NULL, NULL, NULL, share_tests },
	CU_SUITE_INFO_NULL,
};
