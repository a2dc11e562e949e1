// SPDX-License-Identifier: GPL-2.0
/*
 * est-cycles/op under a core clock that jumps between levels (report.c and
 * stats/levels.c), on synthetic sample streams: each trial a sequence of
 * slots, a measurement of the benchmark then one of the reference chain,
 * each slot at the clock a schedule gives it, read on a TSC of coarse step
 * at a random phase, with delays that only add (most measurements clean,
 * some a little late, a few hit by an interrupt).  Whatever the schedule
 * (two and three levels, a jump every few measurements, once in a trial,
 * between trials, a level that lasts one measurement, a jump in the middle
 * of a measurement), every trial's est-cycles/op must lie within 0.01 % of
 * the truth.  A trial's floors taken over its whole length fail most of
 * these (a_level_of_one_measurement shows how far).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "machine/reference.h"
#include "report/report.h"
#include "stats/levels.h"
#include "stats/trials.h"

#define TRIALS 6
#define SAMPLES 160
#define TSC_HZ 2.6e9
/* Cycles of a benchmark rep, and the reps a measurement and a reference
 * take: both about 20 us. */
#define CYCLES_PER_OP 3.0
#define OPS 1000
#define BENCH_REPS 28
#define REF_REPS 84
/* The truth is within this of each trial's figure. */
#define WITHIN 1e-4

static const struct cbench_desc chain = { .name = "chain", .ops_per_rep = OPS };
static struct cbench_experiment experiment;
static struct cbench_sample bench[TRIALS][SAMPLES], ref[TRIALS][SAMPLES];
static struct cbench_trial trials[TRIALS];
static struct cbench_result result;
static struct cbench_report report;
static double step = 2;

static uint64_t state = 88172645463325252ULL;

static double uniform(void)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return (double)(state >> 11) * (1.0 / 9007199254740992.0);
}

/* A delay that only adds, relative: 70 % none, 25 % up to 1 %, 5 % an
 * interrupt of 5 to 30 %. */
static double delay(void)
{
	double u = uniform();

	if (u < 0.7)
		return 0;
	if (u < 0.95)
		return 0.01 * uniform();
	return 0.05 + 0.25 * uniform();
}

/* Ticks of `cycles` at ghz, read at a random phase of a step-tick timer. */
static uint64_t read_ticks(double cycles, double ghz)
{
	double ticks = cycles / ghz * (TSC_HZ * 1e-9), phase = uniform() * step;

	return (uint64_t)((floor((phase + ticks) / step) - floor(phase / step)) * step);
}

/*
 * Slot 2i of trial t is measurement i, slot 2i + 1 its reference; clock(t,
 * slot) the core clock there.  A measurement across a jump (mix: the share
 * of it at the next slot's clock) runs at both.
 */
static double (*clock_of)(int t, int slot);
static double mix;
/* The slot whose region gets exactly fixed_delay, not a drawn one (-1: none). */
static int fixed_delay_slot = -1;
static double fixed_delay;

static uint64_t region(int t, int slot, double cycles, uint64_t *at)
{
	double a = clock_of(t, slot), b = clock_of(t, slot + 1);
	double d = slot == fixed_delay_slot ? 1 + fixed_delay : 1 + delay(), ticks;

	/* At clock a for (1 - mix) of its cycles, then at b where they differ. */
	ticks = a == b ? (double)read_ticks(cycles * d, a) :
		(double)read_ticks(cycles * d * (1 - mix), a) + (double)read_ticks(cycles * d * mix, b);
	*at += (uint64_t)ticks + 400;
	return (uint64_t)ticks;
}

static void build(void)
{
	memset(&report, 0, sizeof(report));
	report.timer.tsc_hz = TSC_HZ;
	report.timer.step_ticks = step;
	report.timer.ref_reps = REF_REPS;
	experiment = (struct cbench_experiment){ .desc = &chain, .id = "chain", .report_name = "BenchmarkChain" };
	for (int t = 0; t < TRIALS; t++) {
		uint64_t at = 1000000;

		for (int i = 0; i < SAMPLES; i++) {
			bench[t][i] = (struct cbench_sample){ .reps = BENCH_REPS, .start_ticks = at };
			bench[t][i].ticks = region(t, 2 * i, CYCLES_PER_OP * OPS * BENCH_REPS, &at);
			ref[t][i] = (struct cbench_sample){ .reps = REF_REPS, .start_ticks = at };
			ref[t][i].ticks = region(t, 2 * i + 1, (double)REF_REPS * CBENCH_REF_ADDS_PER_REP, &at);
		}
		trials[t] = (struct cbench_trial){ .n = BENCH_REPS, .samples = bench[t], .nsamples = SAMPLES,
						   .ref_samples = ref[t], .nref_samples = SAMPLES };
	}
	result = (struct cbench_result){ .exp = &experiment, .tuning = "tuned", .n = BENCH_REPS,
					 .trials = trials, .ntrials = TRIALS };
	report.results = &result;
	report.nresults = 1;
	cbench_report_summarize(&report);
}

/* Every trial's figure within WITHIN of the truth, each matched. */
static void check(const char *what)
{
	double worst = 0;

	for (int t = 0; t < TRIALS; t++) {
		CU_ASSERT_EQUAL(trials[t].clock_how, CBENCH_CLOCK_MATCHED);
		worst = fmax(worst, fabs(trials[t].est_cycles_per_op / CYCLES_PER_OP - 1));
		if (getenv("LEVELS_DEBUG"))
			printf("\n      trial %d: %.5f matched %zu tol %g levels %zu moved %.4f ghz %.4f", t,
			       trials[t].est_cycles_per_op, trials[t].clock_matched, trials[t].clock_tolerance,
			       trials[t].clock_levels, trials[t].clock_moved, trials[t].core_ghz);
	}
	printf("\n    %s: est-cycles/op off by at most %.4f%% ", what, 100 * worst);
	CU_ASSERT(worst < WITHIN);
	CU_ASSERT_DOUBLE_EQUAL(result.est_cycles_per_op, CYCLES_PER_OP, CYCLES_PER_OP * WITHIN);
}

static const double levels[] = { 4.19, 4.09, 4.00, 3.79 };

/* Two levels, a jump every 3 to 7 measurements (stretches drawn once). */
static int stretch[TRIALS][2 * SAMPLES + 2];

static void draw_stretches(int nlevels, int lo, int hi)
{
	for (int t = 0; t < TRIALS; t++) {
		int level = 0, left = 0;

		for (int s = 0; s < 2 * SAMPLES + 2; s++) {
			if (!left) {
				level = (level + 1 + (int)(uniform() * (nlevels - 1))) % nlevels;
				left = 2 * (lo + (int)(uniform() * (hi - lo + 1)));
			}
			stretch[t][s] = level;
			left--;
		}
	}
}

static double stretches(int t, int slot)
{
	return levels[stretch[t][slot]];
}

static void two_levels_jumping(void)
{
	draw_stretches(2, 3, 7);
	clock_of = stretches;
	build();
	check("two levels, a jump every 3 to 7 measurements");
	for (int t = 0; t < TRIALS; t++) {
		CU_ASSERT_EQUAL(trials[t].clock_levels, 2);
		CU_ASSERT_DOUBLE_EQUAL(trials[t].clock_moved, 4.19 / 4.09 - 1, 0.002);
	}
}

static void three_levels_jumping(void)
{
	draw_stretches(3, 2, 10);
	clock_of = stretches;
	build();
	check("three levels, a jump every 2 to 10 measurements");
}

/* Once in each trial, at a point that moves with t. */
static double once(int t, int slot)
{
	return slot < 2 * SAMPLES * (t + 1) / (TRIALS + 2) ? 4.09 : 4.19;
}

static void one_jump_in_a_trial(void)
{
	clock_of = once;
	build();
	check("one jump within each trial");
}

/* Steady within each trial, each trial at another level. */
static double per_trial(int t, int slot)
{
	return levels[t % 4];
}

static void jumps_between_trials(void)
{
	clock_of = per_trial;
	build();
	check("a level per trial");
	for (int t = 0; t < TRIALS; t++) {
		CU_ASSERT_EQUAL(trials[t].clock_levels, 1);
		CU_ASSERT_DOUBLE_EQUAL(trials[t].core_ghz, levels[t % 4], 1e-3);
	}
}

/*
 * The benchmark at the slow level throughout, a few references at the fast
 * one for a single slot each (what one trial of a Xeon VM showed: every
 * measurement of the benchmark slow, a few of the chain's fast).  The
 * trial's floors take the benchmark's from the slow level and the chain's
 * from the fast one: 2.4 % high.
 */
static double one_slot_fast(int t, int slot)
{
	return (slot % 2 == 1 && slot % 37 == 11) ? 4.19 : 4.09;
}

static void a_level_of_one_measurement(void)
{
	double whole;

	clock_of = one_slot_fast;
	build();
	check("a level lasting one reference measurement");
	/* What the trial's floors would say. */
	for (int t = 0; t < TRIALS; t++)
		trials[t].samples[0].start_ticks = 0;
	cbench_report_summarize(&report);
	whole = trials[0].est_cycles_per_op / CYCLES_PER_OP - 1;
	printf("(the trial's floors: %+.2f%%) ", 100 * whole);
	CU_ASSERT_EQUAL(trials[0].clock_how, CBENCH_CLOCK_TRIAL);
	CU_ASSERT(whole > 0.02);
}

/* A jump in the middle of a measurement: it runs at two clocks. */
static void jumps_within_measurements(void)
{
	mix = 0.4;
	draw_stretches(2, 4, 9);
	clock_of = stretches;
	build();
	check("jumps in the middle of measurements");
	mix = 0;
}

/*
 * The chain slowed alone, not the clock: another tenant on the core's
 * sibling thread contends for the ALU ports a one-cycle chain needs and an
 * imul chain barely uses, 0.3 % for stretches of most of the trial.  The
 * references then sit on two "levels" the benchmark does not share; its
 * figure must still come from the chain undisturbed.
 */
static double contended_ref;

static double contention(int t, int slot)
{
	/* References (odd slots) in a stretch of 2 in 3 are slowed. */
	return slot % 2 == 1 && (slot / 16) % 3 ? 4.19 / contended_ref : 4.19;
}

static void a_chain_slowed_alone(void)
{
	contended_ref = 1.003;
	clock_of = contention;
	build();
	check("the reference chain slowed alone, 2 stretches in 3");
	contended_ref = 1;
}

/*
 * A short fast stretch (a measurement and the references either side)
 * whose one measurement of the benchmark an interrupt delayed by as much as
 * the levels are apart: it reads as fast as the slow level's floor, between
 * two references of the fast level, steady.  The references of that
 * stretch must not set the reference's floor (they did, 2.4 % high, when
 * the level was the fastest of the floor's measurements').
 */
static double delayed_fast(int t, int slot)
{
	return slot >= 41 && slot <= 43 ? 4.19 : 4.09;
}

static void a_delayed_measurement_of_a_fast_stretch(void)
{
	clock_of = delayed_fast;
	fixed_delay_slot = 42;
	fixed_delay = 4.19 / 4.09 - 1;
	build();
	check("a fast stretch whose one measurement was delayed to the slow floor");
	fixed_delay_slot = -1;
}

/*
 * One measurement that outran its references: the clock rose for it alone
 * (two jumps between one reference and the next, as a host that moves its
 * clock every few milliseconds does), 7 % faster, undelayed.  Its
 * references agree, so it is steady, and it is the benchmark's least: alone
 * it would set the floor at its clock and the level at theirs, 7 % low (a
 * crc32 chain read 1.67 cycles through such trials where it takes 3).
 */
static double outran(int t, int slot)
{
	return slot == 40 || (t % 2 && slot == 100) ? 4.19 * 1.07 : 4.19;
}

static void a_measurement_that_outran_its_references(void)
{
	clock_of = outran;
	fixed_delay_slot = 40;
	fixed_delay = 0;
	build();
	check("a measurement faster than its references");
	fixed_delay_slot = -1;
}

/* The same on a timer of 26-tick steps (10 ns). */
static void coarse_timer(void)
{
	step = 26;
	draw_stretches(3, 3, 8);
	clock_of = stretches;
	build();
	check("three levels on a 26-tick timer");
	step = 2;
}

/* A clock that jumps beside every measurement leaves no steady one: no
 * figure, and the trial is set aside (measured again). */
static double every_slot(int t, int slot)
{
	return levels[(slot / 2) % 3];
}

static void too_unsteady(void)
{
	clock_of = every_slot;
	build();
	for (int t = 0; t < TRIALS; t++) {
		CU_ASSERT_EQUAL(trials[t].clock_how, CBENCH_CLOCK_UNSTEADY);
		CU_ASSERT(isnan(trials[t].est_cycles_per_op));
		CU_ASSERT_EQUAL(trials[t].cause, CBENCH_TRIAL_CLOCK);
	}
	/* Never more than half a benchmark's trials set aside: here all of
	 * them qualify, so none is, and the row has no est-cycles/op. */
	CU_ASSERT(isnan(result.est_cycles_per_op));
}

/* The matcher's contract on its own. */
static void matcher_refuses(void)
{
	struct cbench_level_point b[16], r[16];
	struct cbench_levels l;

	for (int i = 0; i < 16; i++) {
		b[i] = (struct cbench_level_point){ 1000, (uint64_t)(100 + 20 * i) };
		r[i] = (struct cbench_level_point){ 500, (uint64_t)(110 + 20 * i) };
	}
	CU_ASSERT_EQUAL(cbench_levels_match(b, 16, r, 16, 1, 1, &l), 0);
	CU_ASSERT_EQUAL(l.matched, 15);
	CU_ASSERT_EQUAL(l.levels, 1);
	CU_ASSERT_DOUBLE_EQUAL(l.bench_ticks / l.ref_ticks, 2, 1e-12);
	/* Too few to match: the trial's floors stand. */
	CU_ASSERT_EQUAL(cbench_levels_match(b, 9, r, 9, 1, 1, &l), -EDOM);
	/* A start unknown, or a reference before its measurement: not
	 * taken beside them. */
	b[3].at = 0;
	CU_ASSERT_EQUAL(cbench_levels_match(b, 16, r, 16, 1, 1, &l), -ENODATA);
	b[3].at = 115;
	CU_ASSERT_EQUAL(cbench_levels_match(b, 16, r, 16, 1, 1, &l), -ENODATA);
	b[3].at = 160;
	/* Every other reference 5 % off: no steady measurement. */
	for (int i = 0; i < 16; i += 2)
		r[i].ticks_per_rep = 525;
	CU_ASSERT_EQUAL(cbench_levels_match(b, 16, r, 16, 1, 1, &l), -ERANGE);
	CU_ASSERT_EQUAL(l.matched, 0);
	CU_ASSERT_EQUAL(l.jumps, 15);
	/* References that agree pairwise but scatter too widely for a core
	 * (a noisy chain): one level, at the fastest. */
	for (int i = 0; i < 16; i++)
		r[i].ticks_per_rep = 500 * (1 + 0.005 * (i / 2));
	CU_ASSERT_EQUAL(cbench_levels_match(b, 16, r, 16, 1, 1, &l), 0);
	CU_ASSERT_EQUAL(l.levels, 1);
	CU_ASSERT_DOUBLE_EQUAL(l.ref_ticks, 500, 1e-9);
}

/*
 * An audit's round: references between groups of timings.  Two levels, a
 * jump after group 9: each group at its level's clock, the group beside the
 * jump left out; one level with a delayed reference: every group at it.
 */
static void groups_at_their_level(void)
{
	double r[21], clock[20];

	for (int i = 0; i < 21; i++)
		r[i] = i < 10 ? 620.0 : 635.2;
	r[4] = 621.3;	/* delayed: groups 3 and 4 beside it disagree */
	CU_ASSERT_EQUAL(cbench_levels_of_groups(r, 21, 0.01, clock), 0);
	for (int g = 0; g < 20; g++) {
		if (g == 9) {
			CU_ASSERT(isnan(clock[g]));
		} else if (g == 3 || g == 4) {
			CU_ASSERT(isnan(clock[g]) || fabs(clock[g] - 620) < 0.02);
		} else {
			CU_ASSERT_DOUBLE_EQUAL(clock[g], g < 9 ? 620.0 : 635.2, 0.02);
		}
	}
	for (int i = 0; i < 21; i++)
		r[i] = 620.0;
	r[7] = 626.0;
	CU_ASSERT_EQUAL(cbench_levels_of_groups(r, 21, 0.01, clock), 0);
	for (int g = 0; g < 20; g++)
		CU_ASSERT_DOUBLE_EQUAL(clock[g], 620.0, 0.02);
	/* Every reference 5 % off the next: nothing steady. */
	for (int i = 0; i < 21; i++)
		r[i] = i % 2 ? 620.0 : 651.0;
	CU_ASSERT_EQUAL(cbench_levels_of_groups(r, 21, 0.01, clock), -ERANGE);
	CU_ASSERT(isnan(clock[0]) && isnan(clock[19]));
}

static CU_TestInfo levels_tests[] = {
	{ "an audit's groups of timings at their levels", groups_at_their_level },
	{ "two levels, a jump every few measurements", two_levels_jumping },
	{ "three levels, a jump every few measurements", three_levels_jumping },
	{ "one jump within a trial", one_jump_in_a_trial },
	{ "jumps between trials", jumps_between_trials },
	{ "a level that lasts one measurement", a_level_of_one_measurement },
	{ "the reference chain slowed alone", a_chain_slowed_alone },
	{ "a fast stretch's one measurement delayed", a_delayed_measurement_of_a_fast_stretch },
	{ "jumps within measurements", jumps_within_measurements },
	{ "a measurement faster than its references", a_measurement_that_outran_its_references },
	{ "three levels on a coarse timer", coarse_timer },
	{ "a clock that never holds: no figure, set aside", too_unsteady },
	{ "the matcher's refusals", matcher_refuses },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_levels_suites[] = {
	{ "est-cycles within a clock level", NULL, NULL, NULL, NULL, levels_tests },
	CU_SUITE_INFO_NULL,
};
