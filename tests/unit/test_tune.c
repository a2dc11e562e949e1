// SPDX-License-Identifier: GPL-2.0
/* The oracle and Alg. 1 against a synthetic timer. */
#include <errno.h>
#include <math.h>

#include <CUnit/CUnit.h>

#include "stats/tune.h"

static void params_floor_accuracy(void)
{
	struct cbench_tune_params p;

	/* A measured error bound of 3 steps is raised to 2000 steps. */
	cbench_tune_params_init(&p, 10, 30);
	CU_ASSERT_DOUBLE_EQUAL(p.accuracy_ns, 20000, 1e-9);
	CU_ASSERT_EQUAL(p.j, 2000);
	/* A larger measured bound is kept. */
	cbench_tune_params_init(&p, 1, 5000);
	CU_ASSERT_EQUAL(p.j, 5000);
	CU_ASSERT_DOUBLE_EQUAL(p.a * p.b * p.accuracy_ns, CBENCH_TUNE_STEEPNESS, 1e-9);
}

static void oracle_shape(void)
{
	struct cbench_tune_params p;
	uint64_t prev = UINT64_MAX;

	cbench_tune_params_init(&p, 0.5, 1000);	/* tau_acc = 1000 ns, j = 2000 */
	p.max_measure_ns = INFINITY;	/* Chen and Revels' oracle alone */
	/* nu(tau_prec) ~ j; nu(t >= tau_acc) ~ 1; never increasing. */
	CU_ASSERT(cbench_tune_oracle(&p, 0.5) >= 1960);
	CU_ASSERT(cbench_tune_oracle(&p, 0.5) <= 2000);
	CU_ASSERT(cbench_tune_oracle(&p, 1000) <= 24);
	CU_ASSERT_EQUAL(cbench_tune_oracle(&p, 5000), 1);
	CU_ASSERT_EQUAL(cbench_tune_oracle(&p, 1e12), 1);
	/* Midpoint: t = b tau_acc gives 1 + (j - 1) / 2. */
	CU_ASSERT_EQUAL(cbench_tune_oracle(&p, 500), 1000);
	for (double t = 0.5; t < 3000; t *= 1.1) {
		uint64_t n = cbench_tune_oracle(&p, t);

		CU_ASSERT(n <= prev);
		CU_ASSERT(n >= 1);
		prev = n;
	}
}

static void oracle_cap(void)
{
	struct cbench_tune_params p;

	cbench_tune_params_init(&p, 1, 1000);
	p.max_measure_ns = 10000;
	/* 100 ns per rep would get ~1000 reps; the cap allows 100. */
	CU_ASSERT_EQUAL(cbench_tune_oracle(&p, 100), 100);
	CU_ASSERT_EQUAL(cbench_tune_oracle(&p, 1e6), 1);
	/* No estimate (t = 0) is treated as t = tau_prec, not a division by 0. */
	CU_ASSERT(cbench_tune_oracle(&p, 0) >= 1);
}

struct fake {
	double per_rep_ns;
	double overhead_ns;	/* what the timer adds, shrinking with i */
	int calls;
	int disturb_every;
	uint64_t max_reps;
};

static int fake_time(void *arg, uint64_t reps, double *ns)
{
	struct fake *f = arg;

	f->calls++;
	if (reps > f->max_reps)
		f->max_reps = reps;
	*ns = f->per_rep_ns * (double)reps + f->overhead_ns;
	if (f->disturb_every && f->calls % f->disturb_every == 0) {
		*ns *= 0.5;	/* a disturbed time must not enter the estimate */
		return 1;
	}
	return 0;
}

/* 0.3 ns reps timed by a timer with 10 ns steps, reading 0 under one step as ours does. */
static int fake_time_steps(void *arg, uint64_t reps, double *ns)
{
	(void)arg;
	*ns = (double)(reps * 3 / 100 * 10);
	return 0;
}

/* A rep shorter than one timer step: measurements still last tau_acc. */
static void oracle_below_resolution(void)
{
	struct cbench_tune_params p;
	uint64_t n;

	cbench_tune_params_init(&p, 10, 30);	/* tau_acc = 20 us, j = 2000 */
	n = cbench_tune_oracle(&p, 0.3);
	CU_ASSERT((double)n * 0.3 >= p.accuracy_ns);
	CU_ASSERT((double)n * 0.3 < p.accuracy_ns + 1);
	/* Still under the cap. */
	CU_ASSERT((double)n * 0.3 <= p.max_measure_ns);
	/* Alg. 1 ignores the times under one step (they read 0 once the
	 * overhead is off), which would otherwise make t = 0. */
	{
		double t;

		cbench_tune_params_init(&p, 10, 30);
		CU_ASSERT_EQUAL(cbench_tune(&p, fake_time_steps, NULL, &n, &t), 0);
		/* Rounding down biases t low (0.15 here), which errs toward
		 * longer measurements: what counts is that t is not 0 and that
		 * a measurement of true 0.3 ns reps lasts tau_acc, under the cap. */
		CU_ASSERT(t > 0.1 && t <= 0.3);
		CU_ASSERT((double)n * 0.3 >= p.accuracy_ns);
		CU_ASSERT((double)n * 0.3 <= p.max_measure_ns);
	}
	/* At and above one step, Chen and Revels' oracle alone. */
	p.max_measure_ns = INFINITY;
	CU_ASSERT(cbench_tune_oracle(&p, 10) <= p.j);
}


static int always_disturbed(void *arg, uint64_t reps, double *ns)
{
	*ns = (double)reps;
	return 1;
}

static int broken(void *arg, uint64_t reps, double *ns)
{
	return -EIO;
}

static void alg1_estimates_minimum(void)
{
	struct cbench_tune_params p;
	struct fake f = { .per_rep_ns = 20, .overhead_ns = 50, .disturb_every = 7 };
	uint64_t n;
	double t;

	cbench_tune_params_init(&p, 1, 1000);
	CU_ASSERT_EQUAL(cbench_tune(&p, fake_time, &f, &n, &t), 0);
	/* min T_i / i is reached at the largest i measured. */
	CU_ASSERT(t > 20 && t < 20.2);
	CU_ASSERT_EQUAL(n, cbench_tune_oracle(&p, t));
	CU_ASSERT(n > 900);
}

static void alg1_stops_long_measurements(void)
{
	struct cbench_tune_params p;
	struct fake f = { .per_rep_ns = 50000 };
	uint64_t n;
	double t;

	cbench_tune_params_init(&p, 1, 1000);
	CU_ASSERT_EQUAL(cbench_tune(&p, fake_time, &f, &n, &t), 0);
	CU_ASSERT_EQUAL(n, 1);
	/* 50 us per rep: a pass stops at i = 3 (150 us > 100 us); n settles
	 * at once, so only the least number of passes runs. */
	CU_ASSERT_EQUAL(f.max_reps, 3);
	CU_ASSERT_EQUAL(f.calls, 3 * CBENCH_TUNE_PASSES_MIN);
}

/*
 * A pass stops once a clean measurement is CBENCH_TUNE_PASS_ACC tau_acc
 * long (and twice one rep's call); a large fixed cost per call keeps it
 * going, since T_i / i still falls with i.  And passes stop once n settles.
 */
static void alg1_stops_at_accuracy(void)
{
	struct cbench_tune_params p;
	struct fake f = { .per_rep_ns = 20 }, costly = { .per_rep_ns = 20, .overhead_ns = 5000 };
	uint64_t n;
	double t;

	cbench_tune_params_init(&p, 1, 1000);	/* tau_acc = 2000 ns, j = 2000 */
	CU_ASSERT_EQUAL(cbench_tune(&p, fake_time, &f, &n, &t), 0);
	/* 20 ns a rep: past 8000 ns at i = 401. */
	CU_ASSERT_EQUAL(f.max_reps, 401);
	CU_ASSERT_EQUAL(f.calls, 401 * CBENCH_TUNE_PASSES_MIN);
	CU_ASSERT_EQUAL(n, cbench_tune_oracle(&p, 20));
	/* 5 us a call besides: twice a one-rep call (10040 ns) at i = 253. */
	CU_ASSERT_EQUAL(cbench_tune(&p, fake_time, &costly, &n, &t), 0);
	CU_ASSERT_EQUAL(costly.max_reps, 253);
}

static void alg1_budget(void)
{
	struct cbench_tune_params p;
	struct fake f = { .per_rep_ns = 150e6 };
	uint64_t n;
	double t;

	/* 150 ms per rep: each pass stops at i = 1; the second pass spends the
	 * 200 ms budget, so there is no third. */
	cbench_tune_params_init(&p, 1, 1000);
	CU_ASSERT_EQUAL(cbench_tune(&p, fake_time, &f, &n, &t), 0);
	CU_ASSERT_EQUAL(n, 1);
	CU_ASSERT_EQUAL(f.calls, 2);
}

static void alg1_disturbed_long(void)
{
	struct cbench_tune_params p;
	struct fake f = { .per_rep_ns = 150e6, .disturb_every = 1 };
	uint64_t n;
	double t;

	/* Every measurement disturbed: each pass still stops at the cap (one
	 * call, not j); we try up to CBENCH_TUNE_PASSES_MAX passes for a clean
	 * one, then give up. */
	cbench_tune_params_init(&p, 1, 1000);
	CU_ASSERT_EQUAL(cbench_tune(&p, fake_time, &f, &n, &t), -EAGAIN);
	CU_ASSERT_EQUAL(f.calls, CBENCH_TUNE_PASSES_MAX);
}

/* A benchmark that does nothing: every clean measurement reads under one
 * step, at any reps.  That is no measurable work, not a disturbance. */
static int no_work(void *arg, uint64_t reps, double *ns)
{
	(void)arg;
	(void)reps;
	*ns = 0;
	return 0;
}

static void alg1_no_work(void)
{
	struct cbench_tune_params p;
	uint64_t n;
	double t;

	cbench_tune_params_init(&p, 10, 30);
	CU_ASSERT_EQUAL(cbench_tune(&p, no_work, NULL, &n, &t), -ERANGE);
}

/*
 * A benchmark that ignores reps on a fine timer: a call's fixed cost is
 * above a step, the same at any reps.  Jitter of +-0.4 % (a fixed
 * sequence) does not make it grow; real work per rep does, even work that
 * is a small part of a call with a large fixed cost.
 */
struct flat_fake {
	double fixed_ns, per_rep_ns, jitter;
	uint32_t seed;
};

static int flat_time(void *arg, uint64_t reps, double *ns)
{
	struct flat_fake *f = arg;

	f->seed = f->seed * 1103515245u + 12345u;
	*ns = (f->fixed_ns + f->per_rep_ns * (double)reps) *
	      (1 + f->jitter * ((double)(f->seed >> 16 & 0x7fff) / 0x7fff * 2 - 1));
	return 0;
}

static void alg1_ignores_reps(void)
{
	struct cbench_tune_params p;
	struct flat_fake nothing = { .fixed_ns = 12 }, jittery = { .fixed_ns = 1000, .jitter = 0.004 };
	struct flat_fake fixed = { .fixed_ns = 10000, .per_rep_ns = 1, .jitter = 0.004 };
	struct flat_fake quick = { .per_rep_ns = 0.05 };
	uint64_t n;
	double t;

	cbench_tune_params_init(&p, 0.4, 0);	/* a 1-tick step at 2.5 GHz; j = 2000 */
	CU_ASSERT_EQUAL(cbench_tune(&p, flat_time, &nothing, &n, &t), -EDOM);
	CU_ASSERT_EQUAL(cbench_tune(&p, flat_time, &jittery, &n, &t), -EDOM);
	CU_ASSERT_EQUAL(cbench_tune(&p, flat_time, &fixed, &n, &t), 0);
	CU_ASSERT(t > 1 && t < 20);
	/* 0.05 ns a rep (a vectorized byte loop): 100 ns over 2000 reps. */
	CU_ASSERT_EQUAL(cbench_tune(&p, flat_time, &quick, &n, &t), 0);
	/* On a coarse timer, 0.3 ns reps read in 10 ns steps grow too. */
	cbench_tune_params_init(&p, 10, 30);
	CU_ASSERT_EQUAL(cbench_tune(&p, fake_time_steps, NULL, &n, &t), 0);
}

/*
 * A benchmark that ignores reps while the core clock steps down 4 % in the
 * middle of the first pass and stays there: the fastest times of few reps
 * come from before the step, those of many from after.  Still flat; and
 * real work per rep under the same step still grows.
 */
struct stepped_fake {
	struct flat_fake f;
	uint64_t calls, step_at;
};

static int stepped_time(void *arg, uint64_t reps, double *ns)
{
	struct stepped_fake *s = arg;
	int ret = flat_time(&s->f, reps, ns);

	if (++s->calls > s->step_at)
		*ns *= 1.04;
	return ret;
}

static void alg1_ignores_reps_clock_step(void)
{
	struct cbench_tune_params p;
	struct stepped_fake flat = { .f = { .fixed_ns = 1300, .jitter = 0.002 }, .step_at = 1000 };
	struct stepped_fake fixed = { .f = { .fixed_ns = 10000, .per_rep_ns = 1, .jitter = 0.002 },
				      .step_at = 1000 };
	uint64_t n;
	double t;

	cbench_tune_params_init(&p, 0.4, 0);	/* j = 2000: the step halfway through pass 1 */
	CU_ASSERT_EQUAL(cbench_tune(&p, stepped_time, &flat, &n, &t), -EDOM);
	CU_ASSERT_EQUAL(cbench_tune(&p, stepped_time, &fixed, &n, &t), 0);
}

static void alg1_errors(void)
{
	struct cbench_tune_params p;
	uint64_t n;
	double t;

	cbench_tune_params_init(&p, 1, 10);
	CU_ASSERT_EQUAL(cbench_tune(&p, always_disturbed, NULL, &n, &t), -EAGAIN);
	CU_ASSERT_EQUAL(cbench_tune(&p, broken, NULL, &n, &t), -EIO);
}

/* The reference chain's measurements: 2000 steps and 80 us, whichever is longer. */
static void reference_reps(void)
{
	/* A 120-tick step at 2.6 GHz, 1.6 cycles per tick: 1000 adds are 625
	 * ticks; 2000 steps are 240000 ticks, over 80 us: 384 reps. */
	CU_ASSERT_EQUAL(cbench_tune_ref_reps(120, 2.6e9, 1.6, 1000, CBENCH_REF_MIN_NS), 384);
	/* A 1-tick step: 80 us (208000 ticks, 332.8 reps) wins over 2000 ticks. */
	CU_ASSERT_EQUAL(cbench_tune_ref_reps(1, 2.6e9, 1.6, 1000, CBENCH_REF_MIN_NS), 333);
	/* A 400-tick step: 2000 steps (800000 ticks) win over 80 us. */
	CU_ASSERT_EQUAL(cbench_tune_ref_reps(400, 2.6e9, 1.6, 1000, CBENCH_REF_MIN_NS), 1280);
	CU_ASSERT_EQUAL(cbench_tune_ref_reps(1, 1e9, 1.0, 1000, CBENCH_REF_MIN_NS), 80);
	/* An audit's: 20 us (52000 ticks), 84 reps; 2000 steps still win. */
	CU_ASSERT_EQUAL(cbench_tune_ref_reps(1, 2.6e9, 1.6, 1000, CBENCH_REF_AUDIT_MIN_NS), 84);
	CU_ASSERT_EQUAL(cbench_tune_ref_reps(120, 2.6e9, 1.6, 1000, CBENCH_REF_AUDIT_MIN_NS), 384);
	/* No cycle estimate: one rep, never a division by zero. */
	CU_ASSERT_EQUAL(cbench_tune_ref_reps(1, 1e9, 0, 1000, CBENCH_REF_MIN_NS), 1);
}

static CU_TestInfo tune_tests[] = {
	{ "accuracy floor and parameters", params_floor_accuracy },
	{ "oracle below the timer's step", oracle_below_resolution },
	{ "reference chain reps", reference_reps },
	{ "oracle: Chen and Revels' shape", oracle_shape },
	{ "oracle: measurement cap", oracle_cap },
	{ "Alg. 1 estimates min T_i/i", alg1_estimates_minimum },
	{ "Alg. 1 stops a pass at long measurements", alg1_stops_long_measurements },
	{ "Alg. 1 stops a pass once it is long next to tau_acc", alg1_stops_at_accuracy },
	{ "Alg. 1 stops at its budget", alg1_budget },
	{ "Alg. 1 stops on disturbed long measurements", alg1_disturbed_long },
	{ "Alg. 1 errors", alg1_errors },
	{ "Alg. 1 on a benchmark that does no work", alg1_no_work },
	{ "Alg. 1 on a benchmark that ignores reps", alg1_ignores_reps },
	{ "Alg. 1 on a benchmark that ignores reps, the clock stepping down mid-pass", alg1_ignores_reps_clock_step },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_tune_suites[] = {
	{ "tune", NULL, NULL, NULL, NULL, tune_tests },
	CU_SUITE_INFO_NULL,
};
