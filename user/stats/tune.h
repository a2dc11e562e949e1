/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Choosing n, the reps per measurement: Chen and Revels' Alg. 1 with the
 * generalized logistic oracle
 *
 *	nu(t) = floor(1 + (j - 1) / (1 + exp(a (t - b tau_acc)))),  j = tau_acc / tau_prec
 *
 * raised, for a rep shorter than the timer's step, so that a measurement
 * still lasts tau_acc (Chen and Revels' nu never exceeds j, which presumes
 * t >= tau_prec), then capped so one measurement stays short next to the
 * scheduler tick.
 */
#ifndef _CBENCH_TUNE_H
#define _CBENCH_TUNE_H

#include <stdint.h>

/*
 * Chen and Revels let tau_acc be an overestimate.  Our TSC's measured error bound
 * is a few ticks, which would give j of 2 or 3 and measurements short enough
 * for a timer step to be a percent of them.  We take tau_acc to be at least
 * this many steps, so a measurement is at least 2000 steps long where the
 * cap below allows (one step is then at most 0.05% of it; the floor-mean
 * estimator takes the rounding off that too).
 */
#define CBENCH_TUNE_ACC_MIN_STEPS 2000.0
/*
 * Names the rules below in the tuning cache's key: change it whenever they
 * change what n a benchmark gets.
 */
#define CBENCH_TUNE_METHOD "alg1 logistic b0.5 s4.5 acc2000 floor-tau-acc cap100us flat-reps " \
	"pass-to-4acc stable-3 v6"
/* b of the logistic (Chen and Revels: 0.4 < b < 0.6). */
#define CBENCH_TUNE_B 0.5
/* a * b * tau_acc: the steepness of Chen and Revels' Fig. 5 (0.009 * 500). */
#define CBENCH_TUNE_STEEPNESS 4.5
/* Longest measurement we aim for, in ns: a 250 Hz tick comes every 4 ms, so
 * at 100 us fewer than 3% of measurements straddle one. */
#define CBENCH_TUNE_MAX_MEASURE_NS 100000.0
/* Times Alg. 1 scans i = 1..j at most; the minimum over all is kept.  The
 * passes stop early, after CBENCH_TUNE_PASSES_MIN, once the last
 * CBENCH_TUNE_STABLE_PASSES of them left n where it was: n = nu(t) is all
 * tuning decides, and further passes could only lower t a little more. */
#define CBENCH_TUNE_PASSES 10
#define CBENCH_TUNE_PASSES_MIN 3
#define CBENCH_TUNE_STABLE_PASSES 2
/*
 * A pass also stops, past the i the flat check needs (4 quarters of
 * CBENCH_TUNE_FLAT_MIN_I), once a clean measurement lasts this many tau_acc
 * and twice a call of one rep: a timer step is then under 1/8000 of it and
 * a call's fixed cost under half, so t = T_i / i is about as good as it
 * gets, and n never asks for a measurement much over tau_acc.  Without it a
 * benchmark of 20 to 100 ns a rep spent 100 ms a pass on reps it did not need.
 */
#define CBENCH_TUNE_PASS_ACC 4.0
/* Measured time, in ns, after which no further pass starts (one always
 * does): a benchmark of seconds per rep is tuned in one pass. */
#define CBENCH_TUNE_BUDGET_NS 200e6
/* Passes we go on to, past the budget, while no measurement was clean. */
#define CBENCH_TUNE_PASSES_MAX 100

/*
 * The check that a call's time grows with its reps: it needs at least this
 * many i in each quarter of those measured, keeps the least time of each i
 * up to this j, and calls growth under this share of the time of the
 * fewest reps none (or a half timer step, whichever is more).
 */
#define CBENCH_TUNE_FLAT_MIN_I 8
#define CBENCH_TUNE_FLAT_MAX_J (1u << 20)
#define CBENCH_TUNE_FLAT_SHARE 0.01

struct cbench_tune_params {
	double precision_ns;	/* tau_prec */
	double accuracy_ns;	/* tau_acc after the floor above */
	uint64_t j;		/* tau_acc / tau_prec, at least 1 */
	double a;		/* per ns */
	double b;
	double max_measure_ns;
};

/* Derives the oracle's parameters from the timer's precision and accuracy. */
void cbench_tune_params_init(struct cbench_tune_params *p, double precision_ns, double accuracy_ns);

/* nu(t) for a benchmark taking t_ns per rep, capped; at least 1. */
uint64_t cbench_tune_oracle(const struct cbench_tune_params *p, double t_ns);

/*
 * Times `reps` repetitions: sets *ns and returns 0, or 1 for a disturbed
 * measurement (its time still counts against the budget and the cap, not
 * towards the estimate), or -errno.
 */
typedef int (*cbench_tune_time_fn)(void *arg, uint64_t reps, double *ns);

/*
 * Alg. 1: measures i = 1..j reps (stopping a pass once a measurement passes
 * max_measure_ns, as no larger i can change n, or CBENCH_TUNE_PASS_ACC
 * tau_acc; starting no pass once the budget is spent or n has settled),
 * estimates t = min T_i / i,
 * and returns n = nu(t).  *t_ns receives the estimate.  -ERANGE if every
 * clean measurement was under one timer step (no measurable work), -EDOM if
 * a call took as long whatever its reps (the benchmark ignores them: on a
 * fine timer its fixed cost is above a step), -EAGAIN if every measurement
 * was disturbed, -ENOMEM.
 */
int cbench_tune(const struct cbench_tune_params *p, cbench_tune_time_fn time_fn, void *arg,
		uint64_t *n, double *t_ns);

/*
 * The reference add chain (reference.h) is measured like a benchmark: each
 * measurement at least CBENCH_TUNE_ACC_MIN_STEPS steps and this long, in ns,
 * so the spread of the timer's reads is small next to it too.  80 us, not
 * less: how much of the timer's own cost the chain hides (out-of-order
 * execution runs the reads beside the adds) differs from one worker to the
 * next, by up to the whole cost (34 ticks on a 2.3 GHz Emerald Rapids VM);
 * at 20 us that moved est-cycles/op by 0.05 % between runs (CV 0.02 %), at
 * 80 us by under 0.02 % (CV 0.001-0.007 %; docs/results.md).
 */
#define CBENCH_REF_MIN_NS 80000.0
/* An audit's references: its two sides share them, worker and all, so a
 * worker's bias cancels between them, and shorter references, taken more
 * often, follow the clock more closely between its timings. */
#define CBENCH_REF_AUDIT_MIN_NS 20000.0

/* Reps of the reference chain (adds_per_rep each) per measurement, for a
 * timer of step_ticks at tsc_hz and a core at cycles_per_tick, each at least
 * min_ns (CBENCH_REF_MIN_NS, or an audit's) and 2000 steps; at least 1. */
uint64_t cbench_tune_ref_reps(double step_ticks, double tsc_hz, double cycles_per_tick,
			      unsigned int adds_per_rep, double min_ns);

#endif /* _CBENCH_TUNE_H */
