// SPDX-License-Identifier: GPL-2.0
/*
 * The audit's sequential statistics on synthetic timing streams: rounds of
 * 100 timings per side, A and B interleaved at random, a core clock that
 * drifts under both, jitter, delays that only add, and placements that
 * make a side faster or slower for a whole round (or, kept fixed, for a
 * whole audit).  Deterministic (a seeded generator), so each rate below is
 * the same on every run.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <CUnit/CUnit.h>

#include "stats/sequential.h"
#include "stats/stats.h"

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
	/* A placement scales a side's times by exp(place_sd * normal()), and
	 * one in place_slow_every (0: none) is 4 % slower besides (what a
	 * 4 KiB memcpy showed); drawn anew for each round, or once per
	 * audit where place_fixed. */
	double place_sd;
	int place_slow_every;
	bool place_fixed;
};

/* One side's placement factor. */
static double placement(const struct stream *st)
{
	double f = exp(st->place_sd * normal());

	if (st->place_slow_every && uniform() * st->place_slow_every < 1)
		f *= 1.04;
	return f;
}

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

/* One audit to a verdict or max_rounds (min_effect < 0: never decided);
 * *rounds used; seq as it ended. */
static enum cbench_verdict audit_seq(const struct stream *st, double min_effect, size_t max_rounds,
				     size_t *rounds, struct cbench_seq *seq)
{
	static double a[PER_SIDE], b[PER_SIDE];
	double clock = 1, place[2] = { placement(st), placement(st) }, d[2];
	enum cbench_verdict v = CBENCH_VERDICT_UNDECIDED;

	cbench_seq_init(seq, 0.99);
	for (*rounds = 0; *rounds < max_rounds && v == CBENCH_VERDICT_UNDECIDED; (*rounds)++) {
		size_t na = 0, nb = 0;

		if (!st->place_fixed && *rounds) {
			place[0] = placement(st);
			place[1] = placement(st);
		}
		/* A and B at random until each side has its share; the clock
		 * drifts by up to 0.05% between timings (2% over a round). */
		while (na < PER_SIDE || nb < PER_SIDE) {
			bool pick_b = nb < PER_SIDE && (na == PER_SIDE || uniform() < 0.5);

			clock *= 1 + 0.0005 * (uniform() - 0.5);
			if (pick_b)
				b[nb++] = timing(st, true, clock) * place[1];
			else
				a[na++] = timing(st, false, clock) * place[0];
		}
		cbench_seq_add(seq, cbench_seq_round_stat(a, na, b, nb));
		cbench_seq_round_halves(a, na, b, nb, d);
		cbench_seq_add_halves(seq, d[0], d[1]);
		if (min_effect >= 0)
			v = cbench_seq_verdict(seq, min_effect);
	}
	return v;
}

static enum cbench_verdict audit(const struct stream *st, double min_effect, size_t *rounds)
{
	struct cbench_seq seq;
	enum cbench_verdict v = audit_seq(st, min_effect, MAX_ROUNDS, rounds, &seq);

	cbench_seq_free(&seq);
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

/* False verdicts of A/A audits of st at min-effect 0.2 %, 150 rounds at most. */
static size_t aa_wrong(const struct stream *st, int audits)
{
	struct cbench_seq seq;
	size_t wrong = 0, rounds;

	for (int i = 0; i < audits; i++) {
		enum cbench_verdict v = audit_seq(st, 0.002, 150, &rounds, &seq);

		cbench_seq_free(&seq);
		wrong += v == CBENCH_VERDICT_B_FASTER || v == CBENCH_VERDICT_B_SLOWER;
	}
	return wrong;
}

/*
 * Placements that differ by 1 % (sd) per side: kept for a whole audit they
 * are a difference the interval cannot see, and most A/A audits call one;
 * drawn anew each round they are variance, and at most alpha do.  The
 * same with a placement one time in ten 4 % slower.
 */
static void placement_is_variance(void)
{
	struct stream st = { .b_scale = 1, .delay_share = 0.05, .place_sd = 0.01, .place_fixed = true };
	size_t fixed = aa_wrong(&st, 200), redrawn, bimodal;

	st.place_fixed = false;
	redrawn = aa_wrong(&st, 400);
	st.place_sd = 0.001;
	st.place_slow_every = 10;
	bimodal = aa_wrong(&st, 400);
	printf("\n    A/A with placement: %zu of 200 false verdicts with it fixed per side, %zu of "
	       "400 drawn anew each round, %zu of 400 with a 4%% slower placement in ten ", fixed,
	       redrawn, bimodal);
	CU_ASSERT(fixed >= 100);
	CU_ASSERT(redrawn <= 4);
	CU_ASSERT(bimodal <= 4);
}

/* The share of the round variance beyond the noise within rounds, over
 * 1000 rounds, against what as many rounds without placements vary by. */
static double share_of(double place_sd, double *truth)
{
	struct stream st = { .b_scale = 1, .delay_share = 0.05 };
	struct cbench_seq quiet, placed;
	size_t rounds;
	double share;

	audit_seq(&st, -1, 1000, &rounds, &quiet);
	st.place_sd = place_sd;
	audit_seq(&st, -1, 1000, &rounds, &placed);
	*truth = 1 - cbench_seq_round_var(&quiet) / cbench_seq_round_var(&placed);
	share = cbench_seq_share_beyond(cbench_seq_round_var(&placed), cbench_seq_noise_var(&placed));
	cbench_seq_free(&quiet);
	cbench_seq_free(&placed);
	return share;
}

static void placement_share(void)
{
	static const double sds[] = { 0, 0.0003, 0.001, 0.005 };
	double truth, share;

	for (size_t i = 0; i < sizeof(sds) / sizeof(sds[0]); i++) {
		share = share_of(sds[i], &truth);
		printf("\n    placement sd %.2f%%: share beyond noise %.2f, by rounds without "
		       "placements %.2f ", 100 * sds[i], share, truth);
		/* Without placements the rounds vary by their noise alone; with
		 * them, the noise within rounds predicts the rest. */
		CU_ASSERT(sds[i] ? fabs(share - truth) < 0.15 : share < 0.15);
	}
	CU_ASSERT(share > 0.9);
	/* The rules: a share of a variance, NAN where there is none. */
	CU_ASSERT_DOUBLE_EQUAL(cbench_seq_share_beyond(4, 1), 0.75, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(cbench_seq_share_beyond(1, 2), 0, 1e-12);
	CU_ASSERT(isnan(cbench_seq_share_beyond(0, 0)));
	CU_ASSERT(isnan(cbench_seq_share_beyond(NAN, 1)));
	CU_ASSERT(isnan(cbench_seq_share_beyond(1, NAN)));
}

/* Halves are each side's first and second half; NAN where one is empty. */
static void halves(void)
{
	static const double a[] = { 1, 1, 1, 1, 100, 100, 100 };
	static const double b[] = { 2, 2, 2, 2, 100, 100, 100 };
	struct cbench_seq seq;
	double d[2];

	cbench_seq_round_halves(a, 7, b, 7, d);
	CU_ASSERT_DOUBLE_EQUAL(d[0], log(2), 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(d[1], 0, 1e-12);
	cbench_seq_round_halves(a, 1, b, 1, d);
	CU_ASSERT_DOUBLE_EQUAL(d[0], log(2), 1e-12);
	CU_ASSERT(isnan(d[1]));
	cbench_seq_init(&seq, 0.99);
	CU_ASSERT(isnan(cbench_seq_noise_var(&seq)));
	cbench_seq_add_halves(&seq, 0.1, NAN);
	CU_ASSERT(isnan(cbench_seq_noise_var(&seq)));
	cbench_seq_add_halves(&seq, 0.3, 0.1);
	cbench_seq_add_halves(&seq, 0.1, 0.1);
	CU_ASSERT_DOUBLE_EQUAL(cbench_seq_noise_var(&seq), 0.005, 1e-12);
	CU_ASSERT(isnan(cbench_seq_round_var(&seq)));
	cbench_seq_free(&seq);
}

/* The step's bound of a round, known values, and what it does to the
 * interval of rounds that all sit on the same steps. */
static void step_bound(void)
{
	struct cbench_seq seq;
	double d = log(1.0002), change, lo, hi;

	CU_ASSERT_DOUBLE_EQUAL(cbench_seq_step_bound(0, 0), 0, 0);
	CU_ASSERT_DOUBLE_EQUAL(cbench_seq_step_bound(0.001, 0.002), -log(0.999) - log(0.998), 1e-15);
	CU_ASSERT(isinf(cbench_seq_step_bound(1, 0.001)));
	CU_ASSERT(isnan(cbench_seq_step_bound(NAN, 0.001)));
	CU_ASSERT(isnan(cbench_seq_step_bound(0.001, -1)));
	/* Identical rounds, each with a bound of 2e-4: no spread, so the
	 * interval is the bound's, d +- 2e-4, not [d, d]; none before the
	 * sequence has an order statistic each side. */
	cbench_seq_init(&seq, 0.99);
	CU_ASSERT_DOUBLE_EQUAL(cbench_seq_bound(&seq), 0, 0);
	for (int i = 0; i < 12; i++) {
		cbench_seq_add(&seq, d);
		cbench_seq_add_bound(&seq, 2e-4);
	}
	cbench_seq_interval(&seq, &change, &lo, &hi);
	CU_ASSERT(isnan(lo) && isnan(hi));
	CU_ASSERT_DOUBLE_EQUAL(change, 0.0002, 1e-15);
	CU_ASSERT_EQUAL(cbench_seq_verdict(&seq, 0.0001), CBENCH_VERDICT_UNDECIDED);
	for (int i = 0; i < 38; i++) {
		cbench_seq_add(&seq, d);
		cbench_seq_add_bound(&seq, 2e-4);
	}
	cbench_seq_add_bound(&seq, NAN);
	CU_ASSERT_DOUBLE_EQUAL(cbench_seq_bound(&seq), 2e-4, 1e-15);
	cbench_seq_interval(&seq, &change, &lo, &hi);
	CU_ASSERT_DOUBLE_EQUAL(change, 0.0002, 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(lo, expm1(d - 2e-4), 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(hi, expm1(d + 2e-4), 1e-15);
	/* +0.02 % at two steps of 0.01 %: not shown slower at --min-effect
	 * 0.01, nor equivalent within it. */
	CU_ASSERT_EQUAL(cbench_seq_verdict(&seq, 0.0001), CBENCH_VERDICT_UNDECIDED);
	cbench_seq_free(&seq);
	/* Without the bound the interval has no width, and a verdict. */
	cbench_seq_init(&seq, 0.99);
	for (int i = 0; i < 50; i++)
		cbench_seq_add(&seq, d);
	cbench_seq_interval(&seq, &change, &lo, &hi);
	CU_ASSERT_DOUBLE_EQUAL(hi - lo, 0, 1e-18);
	CU_ASSERT_EQUAL(cbench_seq_verdict(&seq, 0.0001), CBENCH_VERDICT_B_SLOWER);
	cbench_seq_free(&seq);
	/* Bounds of 1e-4 and 3e-4 in turn (mean 2e-4): an order statistic of
	 * the durations' can be any round's, so the interval takes the
	 * larger, d +- 3e-4, not the mean's d +- 2e-4. */
	cbench_seq_init(&seq, 0.99);
	for (int i = 0; i < 50; i++) {
		cbench_seq_add(&seq, d);
		cbench_seq_add_bound(&seq, i % 2 ? 1e-4 : 3e-4);
	}
	CU_ASSERT_DOUBLE_EQUAL(cbench_seq_bound(&seq), 2e-4, 1e-15);
	cbench_seq_interval(&seq, &change, &lo, &hi);
	CU_ASSERT_DOUBLE_EQUAL(lo, expm1(d - 3e-4), 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(hi, expm1(d + 3e-4), 1e-15);
	cbench_seq_free(&seq);
}

/*
 * The sequence's order statistics, by rank: rounds 1..t in a shuffled
 * order, the interval [rank first, rank last] of them at 99 %, as the
 * boundary gives them (u(t) of sequential.h, rho for 30 rounds): none at
 * 14 rounds, ranks 1 and 15 at 15, 2 and 19 at 20, 9 and 32 at 40.
 */
static void ranks(void)
{
	static const struct { int t, first, last; } want[] = {
		{ 14, 0, 0 }, { 15, 1, 15 }, { 20, 2, 19 }, { 40, 9, 32 },
	};
	double v[40], change, lo, hi;
	struct cbench_seq seq;

	for (size_t w = 0; w < sizeof(want) / sizeof(want[0]); w++) {
		int t = want[w].t;

		for (int i = 0; i < t; i++)
			v[i] = (i + 1) * 1e-3;
		for (int i = t - 1; i > 0; i--) {
			int j = (int)(uniform() * (i + 1));
			double x = v[i];

			v[i] = v[j];
			v[j] = x;
		}
		cbench_seq_init(&seq, 0.99);
		for (int i = 0; i < t; i++)
			cbench_seq_add(&seq, v[i]);
		cbench_seq_interval(&seq, &change, &lo, &hi);
		if (!want[w].first) {
			CU_ASSERT(isnan(lo) && isnan(hi));
		} else {
			CU_ASSERT_DOUBLE_EQUAL(lo, expm1(want[w].first * 1e-3), 1e-12);
			CU_ASSERT_DOUBLE_EQUAL(hi, expm1(want[w].last * 1e-3), 1e-12);
		}
		CU_ASSERT_DOUBLE_EQUAL(change, expm1(t % 2 ? (t + 1) / 2 * 1e-3 : (t + 1) * 0.5e-3), 1e-12);
		cbench_seq_free(&seq);
	}
}

/*
 * A timer that steps coarsely: timings of 7000 to 13000 steps (a step is
 * 0.008 to 0.014 % of one, as 10 ns of a 100 us measurement), jitter of a
 * twentieth of a step, placements of a fiftieth, 5 % of timings delayed,
 * and each timing read as a whole number of steps: the reads' phase drawn
 * for every read (lock_phase false), or fixed per side for the audit, as
 * reads that keep time with the timer's updates.  B is 0.02 % slower, a
 * step or two.  Audits at --min-effect 0.01 to a verdict or 60 rounds.
 */
struct coarse {
	size_t zero_width, missed, false_equivalent, slower, audits;
};

static double coarse_read(double duration, double phase)
{
	return floor(phase + duration) - floor(phase);
}

static void coarse_audit(bool lock_phase, bool bound, struct coarse *c)
{
	static double a[PER_SIDE], b[PER_SIDE];
	const double change = 0.0002, length = 7000 + 6000 * uniform();
	double phase[2] = { uniform(), uniform() }, lo, hi, est;
	enum cbench_verdict v = CBENCH_VERDICT_UNDECIDED;
	struct cbench_seq seq;

	cbench_seq_init(&seq, 0.99);
	for (int round = 0; round < 60 && v == CBENCH_VERDICT_UNDECIDED; round++) {
		double place[2] = { 1 + 0.02 / length * normal(), 1 + 0.02 / length * normal() };

		for (int i = 0; i < PER_SIDE; i++) {
			for (int side = 0; side < 2; side++) {
				double t = length * (side ? 1 + change : 1) * place[side] + 0.05 * normal();

				if (uniform() < 0.05)
					t += -log(1 - uniform()) * 20;
				(side ? b : a)[i] = coarse_read(t, lock_phase ? phase[side] : uniform());
			}
		}
		cbench_seq_add(&seq, cbench_seq_round_stat(a, PER_SIDE, b, PER_SIDE));
		if (bound)
			cbench_seq_add_bound(&seq, cbench_seq_step_bound(
				1 / cbench_stats_quantile(a, PER_SIDE, CBENCH_SEQ_QUANTILE),
				1 / cbench_stats_quantile(b, PER_SIDE, CBENCH_SEQ_QUANTILE)));
		v = cbench_seq_verdict(&seq, 0.0001);
	}
	cbench_seq_interval(&seq, &est, &lo, &hi);
	cbench_seq_free(&seq);
	c->audits++;
	c->zero_width += !(hi > lo);
	c->missed += !(lo <= change && change <= hi);
	c->false_equivalent += v == CBENCH_VERDICT_EQUIVALENT;
	c->slower += v == CBENCH_VERDICT_B_SLOWER;
}

static void coarse_timer(void)
{
	struct coarse with[2] = { { 0 } }, without[2] = { { 0 } };

	for (int lock = 0; lock < 2; lock++) {
		for (int i = 0; i < 200; i++) {
			coarse_audit(lock, false, &without[lock]);
			coarse_audit(lock, true, &with[lock]);
		}
	}
	for (int lock = 0; lock < 2; lock++) {
		printf("\n    coarse timer, +0.02 %%, reads %s: %zu of %zu intervals of zero width, "
		       "%zu missing the change, %zu equivalent, %zu slower (without the step's bound: "
		       "%zu, %zu, %zu, %zu) ", lock ? "at a fixed phase" : "at random phases",
		       with[lock].zero_width, with[lock].audits, with[lock].missed,
		       with[lock].false_equivalent, with[lock].slower, without[lock].zero_width,
		       without[lock].missed, without[lock].false_equivalent, without[lock].slower);
		CU_ASSERT_EQUAL(with[lock].zero_width, 0);
		/* At 99 %: at most 1 % of intervals may miss. */
		CU_ASSERT(with[lock].missed <= with[lock].audits / 100);
		CU_ASSERT_EQUAL(with[lock].false_equivalent, 0);
	}
}

/*
 * Rounds with heavy tails, drawn directly: d = change + 0.03 % noise, and
 * one round in ten hit by ten times as much (the rounds' sd is then 3.4
 * times their core's, as on the Emerald Rapids VM of 2026-11-29).  And
 * rounds that tie: each d rounded to a whole 0.01 %, so that A/A audits
 * give d = 0 exactly in a third of their rounds.  A/A: at most alpha
 * false verdicts; +0.02 % at --min-effect 0.01: every interval covers it
 * (at 99 %: at most 1 % may miss), and most audits find it in 400 rounds.
 */
static enum cbench_verdict tail_audit(double change, bool ties, size_t *rounds, bool *covered)
{
	enum cbench_verdict v = CBENCH_VERDICT_UNDECIDED;
	struct cbench_seq seq;
	double est, lo, hi;

	cbench_seq_init(&seq, 0.99);
	for (*rounds = 0; *rounds < MAX_ROUNDS && v == CBENCH_VERDICT_UNDECIDED; (*rounds)++) {
		double d = change + 0.0003 * normal();

		if (uniform() < 0.1)
			d += 0.003 * normal();
		if (ties)
			d = round(d / 0.0001) * 0.0001;
		cbench_seq_add(&seq, d);
		v = cbench_seq_verdict(&seq, 0.0001);
	}
	cbench_seq_interval(&seq, &est, &lo, &hi);
	*covered = lo <= expm1(change) && expm1(change) <= hi;
	cbench_seq_free(&seq);
	return v;
}

static void heavy_tails(void)
{
	size_t aa_false = 0, aa_tied = 0, slower = 0, missed = 0, rounds, most = 0;
	bool covered;

	for (int i = 0; i < AUDITS; i++) {
		enum cbench_verdict v = tail_audit(0, false, &rounds, &covered);

		aa_false += v == CBENCH_VERDICT_B_FASTER || v == CBENCH_VERDICT_B_SLOWER;
		v = tail_audit(0, true, &rounds, &covered);
		aa_tied += v == CBENCH_VERDICT_B_FASTER || v == CBENCH_VERDICT_B_SLOWER;
	}
	for (int i = 0; i < 200; i++) {
		slower += tail_audit(0.0002, false, &rounds, &covered) == CBENCH_VERDICT_B_SLOWER;
		missed += !covered;
		most = rounds > most ? rounds : most;
	}
	printf("\n    heavy-tailed rounds: A/A %zu of %d false (%zu with ties); +0.02 %% at "
	       "--min-effect 0.01: %zu of 200 slower, %zu intervals missing it, %zu rounds at most ",
	       aa_false, AUDITS, aa_tied, slower, missed, most);
	CU_ASSERT(aa_false <= AUDITS / 100);
	CU_ASSERT(aa_tied <= AUDITS / 100);
	CU_ASSERT(missed <= 2);
	CU_ASSERT(slower >= 150);
}

static void scores(void)
{
	static const double v[] = { 10, 12, 14 };	/* variance 4 */

	CU_ASSERT_DOUBLE_EQUAL(cbench_seq_converge_score(v, 3), 0.75, 1e-12);
	/* Lau et al.: a timing at MIN_TIMING gives the maximum term, 1000. */
	CU_ASSERT_DOUBLE_EQUAL(cbench_seq_perturb_term(88, 88), 1000, 1e-9);
	/* ...and a timing of 187.9 for MIN_TIMING 88 gives 1. */
	CU_ASSERT_DOUBLE_EQUAL(cbench_seq_perturb_term(187.9, 88), 1, 1e-9);
}

static CU_TestInfo sequential_tests[] = {
	{ "A/A audits: false verdicts at most alpha", aa_false_alarms },
	{ "a 1% shift is found with its sign", one_percent_found },
	{ "1% of B's timings delayed is not 'slower'", delays_are_not_slowness },
	{ "placement drawn per round is variance, fixed per side a bias", placement_is_variance },
	{ "the share of the round variance beyond the noise within rounds", placement_share },
	{ "halves of a round", halves },
	{ "the timer step's bound widens the interval", step_bound },
	{ "the sequence's ranks", ranks },
	{ "a coarse timer: no zero-width interval, the change covered", coarse_timer },
	{ "heavy-tailed and tied rounds: alpha kept, power kept", heavy_tails },
	{ "converge and perturb scores", scores },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_sequential_suites[] = {
	{ "sequential", NULL, NULL, NULL, NULL, sequential_tests },
	CU_SUITE_INFO_NULL,
};
