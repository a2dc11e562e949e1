// SPDX-License-Identifier: GPL-2.0
/*
 * The audit's sequential statistics on synthetic timing streams: rounds of
 * 100 timings per side, A and B interleaved at random, a core clock that
 * drifts under both, jitter, and delays that only add.  Deterministic (a
 * seeded generator), so each rate below is the same on every run.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <CUnit/CUnit.h>

#include "sequential.h"

#define PER_SIDE 100
#define MAX_ROUNDS 400
#define AUDITS 1000

static uint64_t state = 0x2545f4914f6cdd1dULL;

static double uniform(void)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return (double)(state >> 11) * (1.0 / 9007199254740992.0);
}

/* Close enough to a standard normal for jitter, and cheap: the sum of
 * four uniforms, centred and scaled to unit variance. */
static double normal(void)
{
	return (uniform() + uniform() + uniform() + uniform() - 2) * sqrt(3);
}

struct stream {
	double b_scale;		/* B's true time over A's */
	double delay_share;	/* of each side's timings, delayed */
	double b_extra_share;	/* of B's timings only, hit by a large delay */
};

/* One timing: 1000 units at the clock of the moment, jitter, and delays. */
static double timing(const struct stream *st, bool b, double clock)
{
	double t = 1000 * (b ? st->b_scale : 1) / clock * (1 + 0.002 * normal());

	if (uniform() < st->delay_share)
		t += -log(1 - uniform()) * 200;
	if (b && uniform() < st->b_extra_share)
		t *= 5;
	return t;
}

/* One audit to a verdict or MAX_ROUNDS; *rounds used. */
static enum cbench_verdict audit(const struct stream *st, double min_effect, size_t *rounds)
{
	static double a[PER_SIDE], b[PER_SIDE];
	struct cbench_seq seq;
	double clock = 1;
	enum cbench_verdict v = CBENCH_VERDICT_UNDECIDED;

	cbench_seq_init(&seq, 0.99);
	for (*rounds = 0; *rounds < MAX_ROUNDS && v == CBENCH_VERDICT_UNDECIDED; (*rounds)++) {
		size_t na = 0, nb = 0;

		/* A and B at random until each side has its share; the clock
		 * drifts by up to 0.05% between timings (2% over a round). */
		while (na < PER_SIDE || nb < PER_SIDE) {
			bool pick_b = nb < PER_SIDE && (na == PER_SIDE || uniform() < 0.5);

			clock *= 1 + 0.0005 * (uniform() - 0.5);
			if (pick_b)
				b[nb++] = timing(st, true, clock);
			else
				a[na++] = timing(st, false, clock);
		}
		cbench_seq_add(&seq, cbench_seq_round_stat(a, na, b, nb));
		v = cbench_seq_verdict(&seq, min_effect);
	}
	return v;
}

static void aa_false_alarms(void)
{
	const struct stream st = { .b_scale = 1, .delay_share = 0.05 };
	size_t wrong = 0, equivalent = 0, rounds;

	for (int i = 0; i < AUDITS; i++) {
		enum cbench_verdict v = audit(&st, 0, &rounds);

		wrong += v == CBENCH_VERDICT_B_FASTER || v == CBENCH_VERDICT_B_SLOWER;
	}
	for (int i = 0; i < AUDITS; i++)
		equivalent += audit(&st, 0.002, &rounds) == CBENCH_VERDICT_EQUIVALENT;
	printf("\n    A/A: %zu of %d audits called faster or slower (alpha 0.01, %d looks each); "
	       "%zu of %d equivalent within 0.2%% ", wrong, AUDITS, MAX_ROUNDS, equivalent, AUDITS);
	CU_ASSERT(wrong <= AUDITS / 100);
	CU_ASSERT(equivalent >= AUDITS * 99 / 100);
}

static void one_percent_found(void)
{
	struct stream st = { .b_scale = 1.01, .delay_share = 0.05 };
	size_t right = 0, rounds, most = 0;

	for (int i = 0; i < 100; i++) {
		right += audit(&st, 0.002, &rounds) == CBENCH_VERDICT_B_SLOWER;
		most = rounds > most ? rounds : most;
	}
	st.b_scale = 0.99;
	for (int i = 0; i < 100; i++) {
		right += audit(&st, 0.002, &rounds) == CBENCH_VERDICT_B_FASTER;
		most = rounds > most ? rounds : most;
	}
	printf("\n    1%% shifts: %zu of 200 found with the right sign, within %zu rounds ", right, most);
	CU_ASSERT_EQUAL(right, 200);
}

/* B's timings hit by large delays 1% of the time: B is not slower. */
static void delays_are_not_slowness(void)
{
	const struct stream st = { .b_scale = 1, .delay_share = 0.05, .b_extra_share = 0.01 };
	size_t slower = 0, rounds;

	for (int i = 0; i < 200; i++)
		slower += audit(&st, 0.002, &rounds) == CBENCH_VERDICT_B_SLOWER;
	printf("\n    B delayed 1%% of the time: %zu of 200 audits called B slower ", slower);
	CU_ASSERT(slower <= 2);
}

static void scores(void)
{
	static const double v[] = { 10, 12, 14 };	/* variance 4 */
	static const double at_min[] = { 88, 88 };

	CU_ASSERT_DOUBLE_EQUAL(cbench_seq_converge_score(v, 3), 0.75, 1e-12);
	/* Seed 001: every timing at MIN_TIMING gives the maximum, 1000. */
	CU_ASSERT_DOUBLE_EQUAL(cbench_seq_perturb_score(at_min, 2, 88), 1000, 1e-9);
	/* ...and an average timing of 187.9 for MIN_TIMING 88 gives 1. */
	CU_ASSERT_DOUBLE_EQUAL(cbench_seq_perturb_score((const double[]){ 187.9 }, 1, 88), 1, 1e-9);
}

static CU_TestInfo sequential_tests[] = {
	{ "A/A audits: false verdicts at most alpha", aa_false_alarms },
	{ "a 1% shift is found with its sign", one_percent_found },
	{ "1% of B's timings delayed is not 'slower'", delays_are_not_slowness },
	{ "converge and perturb scores", scores },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_sequential_suites[] = {
	{ "sequential", NULL, NULL, NULL, NULL, sequential_tests },
	CU_SUITE_INFO_NULL,
};
