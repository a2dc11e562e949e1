// SPDX-License-Identifier: GPL-2.0
/*
 * The audit worker (audit_worker.c) with a backend that takes an audit's
 * rounds itself, as the kmod backend does in cbench.ko: the worker uses
 * those rounds, in batches, and checks each batch's sides against the
 * seeded order; a backend that took the sides otherwise fails the audit.
 * With placements, every round starts with a new placement of each side
 * and is one batch (a run of cbench.ko, with fresh arenas); kept fixed,
 * there are none and batches hold several rounds.  The fake backend's
 * times are fixed: A 1.00 ns per op, B 1.02 ns.
 */
#include <errno.h>
#include <math.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "../kmod/lib/order.h"
#include "report/report_audit.h"
#include "stats/sequential.h"
#include "worker/audit_worker.h"
#include "worker/worker.h"

static const struct cbench_desc desc = { .name = "fake", .ops_per_rep = 10 };
static const struct cbench_experiment exp_a = { .desc = &desc, .id = "a" };
static const struct cbench_experiment exp_b = { .desc = &desc, .id = "b" };

/* In the child: what the fake was asked for. */
static int lie_at = -1;		/* a sample whose side the fake flips; -1: none */
static int batches, measures_in_rounds, placed[2];
static bool warm;
/* The timer's step the child's backend was calibrated to, in ticks. */
static double step_ticks;

static int fake_open(struct cbench_backend *b, int cpu)
{
	(void)b;
	(void)cpu;
	return 0;
}

static int fake_prepare(struct cbench_backend *b, const struct cbench_experiment *e)
{
	b->priv = (void *)e;
	return 0;
}

/* A 100 ticks per rep of 10 ops, B 102; a tick in 37 jitters the timings. */
static void fake_sample(const struct cbench_experiment *e, uint64_t reps, uint32_t i,
			struct cbench_sample *s)
{
	memset(s, 0, sizeof(*s));
	s->reps = reps;
	s->ticks = reps * (e == &exp_b ? 102 : 100) + i % 37;
}

static int fake_measure(struct cbench_backend *b, uint64_t reps, struct cbench_sample *s)
{
	static uint32_t i;

	measures_in_rounds += warm;
	fake_sample(b->priv, reps, i++, s);
	return 0;
}

static int fake_measure_audit(struct cbench_backend *b, struct cbench_backend *other, uint64_t reps,
			      uint64_t reps_other, uint32_t per_side, uint32_t rounds, uint64_t seed,
			      struct cbench_sample *s, uint8_t *sides)
{
	uint64_t state = cbench_order_seed(seed);

	warm = true;		/* the warm-up is over once rounds are asked for */
	for (uint32_t r = 0; r < rounds; r++)
		cbench_order_round(sides + r * 2 * per_side, per_side, &state);
	if (lie_at >= 0)
		sides[lie_at] ^= 1;
	for (uint32_t i = 0; i < rounds * 2 * per_side; i++)
		fake_sample(sides[i] ? other->priv : b->priv, sides[i] ? reps_other : reps, i, &s[i]);
	batches++;
	return 0;
}

static void fake_close(struct cbench_backend *b)
{
	(void)b;
}

/* Counts the placements of each side; the draws must come from pl. */
static int fake_place(struct cbench_backend *b, struct cbench_placement *pl)
{
	placed[b->priv == &exp_b]++;
	return pl ? 0 : -EINVAL;
}

#define FAKE_OPS .name = "fake", .open = fake_open, .prepare = fake_prepare, \
	.measure = fake_measure, .measure_audit = fake_measure_audit, .close = fake_close

static const struct cbench_backend_ops fake_ops = { FAKE_OPS };
static const struct cbench_backend_ops fake_placing_ops = { FAKE_OPS, .place = fake_place };

struct outcome {
	int status;			/* the child's exit status */
	size_t timings, out_of_order;
	bool done;
	struct cbench_audit_end end;
};

/* How the audit went: what the fake was asked, from the child. */
struct asked {
	int batches, placed[2];
	uint32_t rounds;		/* rounds measured, counted or not */
};

/* One whole message: the worker writes them in bursts a read may split. */
static bool read_msg(int fd, struct cbench_msg *m)
{
	size_t got = 0;

	while (got < sizeof(*m)) {
		ssize_t n = read(fd, (char *)m + got, sizeof(*m) - got);

		if (n <= 0)
			return false;
		got += (size_t)n;
	}
	return true;
}

/*
 * Runs the audit in a child, as a worker would, with ops (fixed: with
 * --fixed-placement), and reads what it sends; asked (if not NULL) gets
 * what the fake was asked.
 */
static void audit_in_child(int lie, const struct cbench_backend_ops *ops, bool fixed,
			   struct outcome *o, struct asked *asked)
{
	struct cbench_worker_job job = {
		.mode = CBENCH_WORKER_AUDIT, .ops = ops, .exp = &exp_a, .exp_b = &exp_b,
		.n = 100, .n_b = 100, .seed = 1234, .confidence = 0.99, .min_effect = 0.002,
		.budget_ns = 10e9, .fixed_placement = fixed,
	};
	int report[2];
	uint64_t state = cbench_order_seed(job.seed);
	uint8_t order[2 * CBENCH_AUDIT_PER_SIDE];
	uint32_t round = UINT32_MAX;
	struct cbench_msg m;
	int fd[2];
	pid_t pid;

	memset(o, 0, sizeof(*o));
	CU_ASSERT_FATAL(pipe(fd) == 0);
	CU_ASSERT_FATAL(pipe(report) == 0);
	pid = fork();
	CU_ASSERT_FATAL(pid >= 0);
	if (pid == 0) {
		struct cbench_backend a = { .ops = ops,
					    .timer = { .tsc_hz = 1e9, .step_ticks = step_ticks } };
		struct asked got;
		int ret;

		close(fd[0]);
		close(report[0]);
		lie_at = lie;
		fake_prepare(&a, &exp_a);
		ret = cbench_worker_audit(&a, &job, fd[1]);
		got = (struct asked){ .batches = batches, .placed = { placed[0], placed[1] } };
		if (write(report[1], &got, sizeof(got)) != sizeof(got))
			_exit(5);
		/* 3: refused for the order, as it must be; 4: the rounds were measured
		 * one by one, not taken from the backend. */
		_exit(ret == -EPROTO && strstr(a.error, "seeded order") ? 3 : ret ? 1 :
		      measures_in_rounds || batches < 2 ? 4 : 0);
	}
	close(fd[1]);
	close(report[1]);
	while (read_msg(fd[0], &m)) {
		if (m.type == CBENCH_MSG_AUDIT_DONE) {
			o->done = true;
			o->end = m.u.audit;
		} else if (m.type == CBENCH_MSG_AUDIT_TIMING) {
			/* Timings come in order, none disturbed: the i-th of a
			 * round has the side the seeded order puts there. */
			if (m.u.timing.round != round ||
			    o->timings % (2 * CBENCH_AUDIT_PER_SIDE) == 0) {
				round = m.u.timing.round;
				cbench_audit_shuffle(order, &state);
			}
			o->out_of_order += m.u.timing.side != order[o->timings % (2 * CBENCH_AUDIT_PER_SIDE)];
			o->timings++;
		}
	}
	close(fd[0]);
	if (asked) {
		memset(asked, 0, sizeof(*asked));
		CU_ASSERT(read(report[0], asked, sizeof(*asked)) == sizeof(*asked));
		asked->rounds = round + 1;
	}
	close(report[0]);
	waitpid(pid, &o->status, 0);
}

static void takes_the_backends_rounds(void)
{
	struct outcome o;

	audit_in_child(-1, &fake_ops, false, &o, NULL);
	CU_ASSERT(WIFEXITED(o.status) && WEXITSTATUS(o.status) == 0);
	CU_ASSERT(o.done);
	CU_ASSERT_EQUAL(o.end.verdict, CBENCH_VERDICT_B_SLOWER);
	CU_ASSERT(fabs(o.end.change - 0.02) < 0.002);
	CU_ASSERT(o.end.rounds >= CBENCH_SEQ_MIN_ROUNDS);
	CU_ASSERT_EQUAL(o.timings, (size_t)o.end.rounds * 2 * CBENCH_AUDIT_PER_SIDE);
	CU_ASSERT_EQUAL(o.out_of_order, 0);
}

static void refuses_sides_out_of_order(void)
{
	struct outcome o;

	/* The first round is right; a side flipped in the second is not. */
	audit_in_child(2 * CBENCH_AUDIT_PER_SIDE + 17, &fake_ops, false, &o, NULL);
	CU_ASSERT(WIFEXITED(o.status) && WEXITSTATUS(o.status) == 3);
	CU_ASSERT(!o.done);
	/* At most the first round's timings: what was queued when it failed may be lost. */
	CU_ASSERT(o.timings <= 2 * CBENCH_AUDIT_PER_SIDE);
	CU_ASSERT_EQUAL(o.out_of_order, 0);
}

/*
 * A new placement of each side before every round (and one before the
 * first, which maps the pool), each round one batch: a run of cbench.ko
 * takes one round, on its own fresh arenas.
 */
/* An audit with the placing fake that must end well, fixed or not. */
static void audit_placing(bool fixed, struct outcome *o, struct asked *asked)
{
	audit_in_child(-1, &fake_placing_ops, fixed, o, asked);
	CU_ASSERT(WIFEXITED(o->status) && WEXITSTATUS(o->status) == 0);
	CU_ASSERT(o->done);
	CU_ASSERT_EQUAL(o->end.verdict, CBENCH_VERDICT_B_SLOWER);
	CU_ASSERT_EQUAL(o->out_of_order, 0);
}

static void places_every_round(void)
{
	struct outcome o;
	struct asked asked;

	audit_placing(false, &o, &asked);
	CU_ASSERT_EQUAL(o.end.placements[0], asked.rounds);
	CU_ASSERT_EQUAL(o.end.placements[1], asked.rounds);
	CU_ASSERT_EQUAL(asked.placed[0], asked.rounds + 1);
	CU_ASSERT_EQUAL(asked.placed[1], asked.rounds + 1);
	CU_ASSERT_EQUAL(asked.batches, (int)asked.rounds);
	/* A round measures at least CBENCH_AUDIT_PER_SIDE a side, sub-rounds
	 * of them where placing costs more than measuring. */
	CU_ASSERT(o.end.per_round >= CBENCH_AUDIT_PER_SIDE);
	CU_ASSERT_EQUAL(o.end.per_round % CBENCH_AUDIT_PER_SIDE, 0);
	CU_ASSERT_EQUAL(o.timings, (size_t)asked.rounds * 2 * o.end.per_round);
	/* The fake's times are fixed: the rounds agree to the last digit, and
	 * nothing varies beyond what noise within them predicts. */
	CU_ASSERT(o.end.noise_var >= 0 && o.end.round_var >= 0);
}

/* --fixed-placement: no placements, batches of several rounds. */
static void fixed_placement(void)
{
	struct outcome o;
	struct asked asked;

	audit_placing(true, &o, &asked);
	CU_ASSERT_EQUAL(o.end.placements[0], 0);
	CU_ASSERT_EQUAL(o.end.placements[1], 0);
	CU_ASSERT_EQUAL(asked.placed[0] + asked.placed[1], 0);
	CU_ASSERT(asked.batches < (int)asked.rounds);
	CU_ASSERT_EQUAL(o.end.per_round, CBENCH_AUDIT_PER_SIDE);
}

/*
 * The timer's step in the interval: a step of 20 ticks in timings of about
 * 10,000 (A) and 10,200 (B), 0.2 % of each, is a bound of
 * -log(1 - 0.002) - log(1 - 0.00196) on the statistic, which the interval
 * carries beside the rounds' spread; a step of 0 (an exact timer) none.
 */
static void step_in_interval(void)
{
	double expect = -log1p(-20.0 / 10009) - log1p(-20.0 / 10209), half;
	struct outcome o;

	step_ticks = 20;
	audit_in_child(-1, &fake_ops, true, &o, NULL);
	step_ticks = 0;
	CU_ASSERT(WIFEXITED(o.status) && WEXITSTATUS(o.status) == 0);
	CU_ASSERT_DOUBLE_EQUAL(o.end.step_bound, expect, 2e-6);
	half = (log1p(o.end.upper) - log1p(o.end.lower)) / 2;
	CU_ASSERT(half > o.end.step_bound);
	CU_ASSERT_EQUAL(o.end.verdict, CBENCH_VERDICT_B_SLOWER);
	audit_in_child(-1, &fake_ops, true, &o, NULL);
	CU_ASSERT_DOUBLE_EQUAL(o.end.step_bound, 0, 0);
}

static CU_TestInfo audit_worker_tests[] = {
	{ "the timer's step is part of the interval", step_in_interval },
	{ "a new placement for each side every round, a run each", places_every_round },
	{ "--fixed-placement: none", fixed_placement },
	{ "a backend's own rounds, in the seeded order", takes_the_backends_rounds },
	{ "a backend's sides out of the seeded order are refused", refuses_sides_out_of_order },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_audit_worker_suites[] = {
	{ "audit worker", NULL, NULL, NULL, NULL, audit_worker_tests },
	CU_SUITE_INFO_NULL,
};
