// SPDX-License-Identifier: GPL-2.0
/*
 * The worker side of an audit: A and B prepared side by side in one process
 * on one CPU, measured in a seeded random order, round after round, until
 * the confidence sequence (sequential.h) decides or the budget is spent.
 *
 * Why a random order rather than ABAB: whatever drifts with time (the core
 * clock, a neighbour's load, the state a measurement leaves in the caches
 * and the branch predictors) falls on both sides alike and cannot line up
 * with a fixed period.  The seed is the runner's, so a run can be replayed.
 *
 * What interleaving cannot cancel is what stays fixed for a side: where
 * its arena's pages lie, its offset, the stack's alignment (Mytkowicz et
 * al.).  So each round starts with a new placement of each side (arena.h,
 * docs/placement.md; Curtsinger and Berger, STABILIZER), set up again, and
 * a round's statistic is one draw of placement and noise together: rounds
 * stay independent, and the confidence sequence sees placement as the
 * variance it is.  Where placing costs more than measuring a round, a
 * round measures more (sub-rounds of the same order), so that placing
 * never takes more of the audit's time than measuring does.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../kmod/lib/order.h"
#include "machine/arena.h"
#include "machine/clock.h"
#include "machine/reference.h"
#include "stats/levels.h"
#include "stats/sequential.h"
#include "stats/stats.h"
#include "stats/tune.h"
#include "worker/tpoints.h"
#include "worker/audit_worker.h"
#include "worker/tpoints_worker.h"

/* Timings per side per sub-round (Lau et al. add 100 per side per round). */
#define ROUND_PER_SIDE CBENCH_AUDIT_PER_SIDE
/* Sub-rounds a round may measure on one placement, at most. */
#define SUBROUNDS_MAX 16
#define ROUND_MAX_PER_SIDE (SUBROUNDS_MAX * ROUND_PER_SIDE)
/* Warm-up of each side before the first round, in ns. */
#define AUDIT_WARMUP_NS 20e6
/*
 * Without placements (--fixed-placement), the rounds a backend with a
 * measure_audit op (kmod) takes in one go: enough to amortize starting a
 * run, few enough that a decided audit wastes little.  With them, a run
 * takes one round: a new run is a new placement.
 */
#define BATCH_ROUNDS 4
#define BATCH_SAMPLES (SUBROUNDS_MAX * 2 * ROUND_PER_SIDE)

/* Fisher-Yates over per_side zeros (A) and as many ones (B): the order
 * cbench.ko takes an audit run's samples in (kmod/lib/order.c). */
void cbench_audit_shuffle_n(uint8_t *order, int per_side, uint64_t *state)
{
	cbench_order_round(order, (uint32_t)per_side, state);
}

void cbench_audit_shuffle(uint8_t *order, uint64_t *state)
{
	cbench_audit_shuffle_n(order, ROUND_PER_SIDE, state);
}

struct side {
	struct cbench_backend *b;
	uint64_t n;
	double ops;			/* declared ops per rep */
	double step;			/* the timer's step in a timing, ns/op */
	double v[ROUND_MAX_PER_SIDE];	/* this round's timings, ns/op */
	size_t nv;
	double measure_ns;		/* a measurement's wall time, from the warm-up */
};

/*
 * The placements of an audit: pl NULL where they stay fixed; subrounds,
 * the sub-rounds of ROUND_PER_SIDE (or of a timing-point round's calls)
 * each round measures; how many placements each side got.
 */
struct placing {
	struct cbench_placement *pl;
	uint32_t subrounds;
	uint32_t count[2];
	bool code[2];			/* each side's code is laid out anew */
};

static void init_side(struct side *s, struct cbench_backend *b, uint64_t n,
		      const struct cbench_experiment *e)
{
	s->b = b;
	s->n = n ? n : 1;
	s->ops = e->desc->ops_per_rep ? (double)e->desc->ops_per_rep : 1;
	s->nv = 0;
	/* A timing is one region of n reps, or with a per-rep benchmark n
	 * regions of one rep, each timed alone: n steps' rounding. */
	s->step = b->timer.step_ticks * 1e9 / b->timer.tsc_hz / s->ops /
		  (cbench_desc_per_rep(e->desc) ? 1 : (double)s->n);
}

/* A measurement of side s in ns per op; a disturbed one is dropped (NAN). */
static double ns_of(const struct side *s, const struct cbench_sample *smp)
{
	return smp->disturbed ? NAN :
	       (double)smp->ticks * 1e9 / s->b->timer.tsc_hz / ((double)s->n * s->ops);
}

static int measure_one(struct side *s, double *ns)
{
	struct cbench_sample smp;
	int ret = s->b->ops->measure(s->b, s->n, &smp);

	if (!ret)
		*ns = ns_of(s, &smp);
	return ret;
}

/*
 * Rounds in est-cycles/op: the reference chain measured before a round's
 * first timing and after every `every` timings, and each timing taken at
 * the clock level of the references around it (stats/levels.h), so that a
 * jump of the core clock within a round is no difference between the
 * sides (a quartile of one side's timings can fall on a fast level and the
 * other's on a slow one).  A timing beside a jump is left out, from
 * whichever side.  The references take about a fifth of a round's time.
 */
#define CLOCK_EVERY_MIN 4
#define CLOCK_EVERY_MAX 64
#define ROUND_MAX_TIMINGS (2 * ROUND_MAX_PER_SIDE)
#define ROUND_MAX_REFS (ROUND_MAX_TIMINGS / CLOCK_EVERY_MIN + 2)

struct clocking {
	bool on;
	uint32_t every;			/* timings between two references */
	uint64_t reps;			/* of a reference: CBENCH_REF_AUDIT_MIN_NS long */
	double r[ROUND_MAX_REFS];	/* the round's references, ticks per rep; NAN disturbed */
	double clock[ROUND_MAX_REFS];	/* each group's level, ticks per reference rep */
	size_t nr;
	struct {
		uint8_t side;
		uint32_t group;		/* between r[group] and r[group + 1] */
		double ns;
	} t[ROUND_MAX_TIMINGS];
	size_t nt;
	uint32_t since;			/* timings since the last reference */
	uint64_t left_out;
};

/* A reference measurement into c. */
static int clock_ref(struct clocking *c, struct cbench_backend *b)
{
	struct cbench_sample s;
	int ret = b->ops->measure_ref(b, c->reps, &s);

	if (ret)
		return ret;
	if (c->nr < ROUND_MAX_REFS)
		c->r[c->nr++] = s.disturbed || !s.reps ? NAN : (double)s.ticks / (double)s.reps;
	c->since = 0;
	return 0;
}

/*
 * Whether the audit's rounds are in est-cycles: asked, or by default where
 * the backend measures the reference beside its timings (not where it takes
 * rounds itself, as cbench.ko does); how often, from what a reference and a
 * timing take: the references about a fifth of the time.
 */
static int clock_start(struct clocking *c, struct side sides[2], const struct cbench_worker_job *job,
		       bool batched)
{
	struct cbench_backend *b = sides[0].b;
	bool can = b->ops->measure_ref && b->timer.ref_reps && !batched;
	double ref_ns, each;
	struct cbench_sample s;
	int ret;

	memset(c, 0, sizeof(*c));
	if (job->figure == CBENCH_AUDIT_NS || (job->figure < 0 && !can))
		return 0;
	if (!can) {
		snprintf(b->error, sizeof(b->error), "est-cycles/op: the %s backend %s", b->ops->name,
			 batched ? "takes an audit's rounds in one run, without the reference chain" :
				   "measures no reference chain here");
		return -EOPNOTSUPP;
	}
	c->reps = cbench_tune_ref_reps(b->timer.step_ticks, b->timer.tsc_hz, b->timer.est_cycles_per_tick,
				       CBENCH_REF_ADDS_PER_REP, CBENCH_REF_AUDIT_MIN_NS);
	ret = b->ops->measure_ref(b, c->reps, &s);
	if (ret)
		return ret;
	ref_ns = (double)s.ticks * 1e9 / b->timer.tsc_hz;
	each = fmin(sides[0].measure_ns, sides[1].measure_ns);
	c->every = each > 0 ? (uint32_t)fmin(CLOCK_EVERY_MAX, ceil(4 * ref_ns / each)) : CLOCK_EVERY_MAX;
	if (c->every < CLOCK_EVERY_MIN)
		c->every = CLOCK_EVERY_MIN;
	c->on = true;
	return 0;
}

/* A timing of the round to convert once its references are in. */
static int clock_timing(struct clocking *c, struct cbench_backend *b, int side, double ns)
{
	if (!c->nr) {
		int ret = clock_ref(c, b);

		if (ret)
			return ret;
	}
	if (!isnan(ns) && c->nt < ROUND_MAX_TIMINGS)
		c->t[c->nt++] = (typeof(c->t[0])){ (uint8_t)side, (uint32_t)(c->nr - 1), ns };
	return ++c->since >= c->every ? clock_ref(c, b) : 0;
}

/*
 * The round's timings at their clock levels, into each side's round (in
 * est-cycles/op) and to the runner; *scale gets what converts ns/op to
 * est-cycles/op (a typical timing's), for the timer's step.
 */
static int clock_round(struct clocking *c, struct side sides[2], uint32_t round, struct cbench_outbox *out,
		       int fd, double *scale)
{
	struct cbench_msg m = { .type = CBENCH_MSG_AUDIT_TIMING };
	struct cbench_backend *b = sides[0].b;
	int ret = c->since ? clock_ref(c, b) : 0;

	*scale = NAN;
	if (!ret && cbench_levels_of_groups(c->r, c->nr, b->timer.step_ticks / (double)c->reps,
					    c->clock) == -ENOMEM)
		ret = -ENOMEM;
	for (size_t i = 0; !ret && i < c->nt; i++) {
		double clock = c->t[i].group + 1 < c->nr ? c->clock[c->t[i].group] : NAN;
		double f = b->timer.tsc_hz * 1e-9 * CBENCH_REF_ADDS_PER_REP / clock;
		struct side *s = &sides[c->t[i].side];

		if (isfinite(f) && f > 0) {
			s->v[s->nv++] = c->t[i].ns * f;
			*scale = f;
		} else {
			c->left_out++;
		}
		m.u.timing = (struct cbench_audit_timing){ round, c->t[i].side, c->t[i].ns,
							   isfinite(f) && f > 0 ? c->t[i].ns * f : NAN };
		ret = cbench_outbox_put(out, fd, &m);
	}
	c->nr = c->nt = 0;
	c->since = 0;
	return ret;
}

/* Measurements a backend took rounds at a time, handed out round by round. */
struct batched {
	struct cbench_sample s[BATCH_SAMPLES];
	uint8_t sides[BATCH_SAMPLES];
	uint32_t n, next;
};

/*
 * The next round's measurements, from a backend that takes them rounds at
 * a time; state is where the round's order was drawn from.  A batch starts
 * from the state of its first round, so every round's sides must be our
 * order exactly: a backend that says otherwise measured something else.
 */
static int batch_round(struct side sides[2], struct batched *bt, uint32_t rounds,
		       const uint8_t *order, uint64_t state, const struct cbench_sample **taken)
{
	struct cbench_backend *a = sides[0].b;

	if (bt->next == bt->n) {
		int ret = a->ops->measure_audit(a, sides[1].b, sides[0].n, sides[1].n, ROUND_PER_SIDE,
						rounds, state, bt->s, bt->sides);

		if (ret)
			return ret;
		bt->n = rounds * 2 * ROUND_PER_SIDE;
		bt->next = 0;
	}
	if (memcmp(bt->sides + bt->next, order, 2 * ROUND_PER_SIDE)) {
		snprintf(a->error, sizeof(a->error),
			 "the %s backend took the sides out of the seeded order", a->ops->name);
		return -EPROTO;
	}
	*taken = bt->s + bt->next;
	bt->next += 2 * ROUND_PER_SIDE;
	return 0;
}

/* Warms s up, learning what a measurement takes. */
static int warm_up(struct side *s)
{
	double start = (double)cbench_now_ns(), ns;
	uint64_t count = 0;
	int ret;

	do {
		ret = measure_one(s, &ns);
		count++;
	} while (!ret && (double)cbench_now_ns() < start + AUDIT_WARMUP_NS);
	s->measure_ns = ((double)cbench_now_ns() - start) / (double)count;
	return ret;
}

/*
 * One sub-round in the order of `order`, each timing kept in its side's
 * round and sent as it comes; taken: its measurements if the backend took
 * them already, else NULL.
 */
static int round_run(struct side sides[2], const uint8_t *order, const struct cbench_sample *taken,
		     uint32_t round, struct clocking *c, struct cbench_outbox *out, int fd)
{
	struct cbench_msg m = { .type = CBENCH_MSG_AUDIT_TIMING };

	for (int i = 0; i < 2 * ROUND_PER_SIDE; i++) {
		struct side *s = &sides[order[i]];
		double ns;
		int ret = 0;

		if (taken)
			ns = ns_of(s, &taken[i]);
		else
			ret = measure_one(s, &ns);
		/* In est-cycles, kept until the round's references are in. */
		if (!ret && c->on)
			ret = clock_timing(c, sides[0].b, order[i], ns);
		if (ret)
			return ret;
		if (isnan(ns) || c->on)
			continue;
		s->v[s->nv++] = ns;
		m.u.timing = (struct cbench_audit_timing){ round, order[i], ns, NAN };
		ret = cbench_outbox_put(out, fd, &m);
		if (ret)
			return ret;
	}
	return 0;
}

/* How an audit ended: its verdict, interval, rounds, placements and wall
 * time; per_sub, a side's measurements (or calls) per sub-round. */
static void audit_end(const struct cbench_seq *seq, enum cbench_verdict v, double start_ns,
		      const struct placing *pc, int per_sub, struct cbench_audit_end *end)
{
	end->rounds = (uint32_t)seq->rounds;
	end->verdict = (int32_t)v;
	cbench_seq_interval(seq, &end->change, &end->lower, &end->upper);
	end->wall_s = ((double)cbench_now_ns() - start_ns) * 1e-9;
	end->placements[0] = pc->count[0];
	end->placements[1] = pc->count[1];
	/* Every placement of a side whose code moves moves it. */
	end->layouts[0] = pc->code[0] ? pc->count[0] : 0;
	end->layouts[1] = pc->code[1] ? pc->count[1] : 0;
	end->per_round = (uint32_t)per_sub * pc->subrounds;
	end->round_var = cbench_seq_round_var(seq);
	end->noise_var = cbench_seq_noise_var(seq);
	end->step_bound = cbench_seq_bound(seq);
}

/*
 * A new placement of each side, in a drawn order: which side is placed
 * last, its arena freshest in the caches, is left to chance too.
 */
static int place_sides(struct placing *pc, struct side sides[2])
{
	int first = (int)cbench_placement_draw(pc->pl, 2);

	for (int k = 0; k < 2; k++) {
		struct cbench_backend *b = sides[first ^ k].b;
		int ret = b->ops->place(b, pc->pl);

		if (ret) {
			if (!b->error[0] && ret == -ECANCELED)
				snprintf(b->error, sizeof(b->error), "its setup() refused a new placement");
			return ret;
		}
		pc->count[first ^ k]++;
		pc->code[first ^ k] = b->code_layouts != 0;
	}
	return 0;
}

/*
 * Places both sides before the first round, twice (the first placement
 * maps the pool; the second is what one costs) and sets the sub-rounds:
 * enough that measuring a round takes at least as long as placing it, at
 * most SUBROUNDS_MAX.  per_sub: a side's measurements per sub-round.
 */
static int place_first(struct placing *pc, struct side sides[2], int per_sub)
{
	double t0, place_ns, measure_ns = per_sub * (sides[0].measure_ns + sides[1].measure_ns);
	int ret = place_sides(pc, sides);

	t0 = (double)cbench_now_ns();
	ret = ret ? ret : place_sides(pc, sides);
	place_ns = (double)cbench_now_ns() - t0;
	pc->subrounds = 1;
	if (measure_ns > 0 && place_ns > measure_ns)
		pc->subrounds = place_ns >= SUBROUNDS_MAX * measure_ns ? SUBROUNDS_MAX :
				(uint32_t)ceil(place_ns / measure_ns);
	/* Only the second is measured: it counts, with what rounds add. */
	pc->count[0] = pc->count[1] = 1;
	return ret;
}

/*
 * One round of an audit: subrounds sub-rounds, each in an order drawn from
 * *state, their timings sent to the runner through out.  d[0] gets the
 * round's statistic (the log ratio of B's lower quartile to A's), d[1] and
 * d[2] its halves' (cbench_seq_round_halves()), d[3] the most the timer's
 * step can move d[0] (cbench_seq_step_bound()); NAN if the round says
 * nothing.
 */
typedef int (*audit_round_fn)(void *arg, uint64_t *state, uint32_t round, uint32_t subrounds,
			      struct cbench_outbox *out, int fd, double d[4]);

/* Rounds until a verdict or the budget's end, each on a placement of its
 * own unless they stay fixed; fills *end. */
static int audit_rounds(const struct cbench_worker_job *job, struct placing *pc, struct side sides[2],
			int per_sub, audit_round_fn one, void *arg, int fd, struct cbench_audit_end *end)
{
	static struct cbench_outbox out;
	uint64_t state = cbench_order_seed(job->seed);
	enum cbench_verdict v = CBENCH_VERDICT_UNDECIDED;
	double start = (double)cbench_now_ns(), d[4];
	struct cbench_seq seq;
	uint32_t round = 0;
	int ret = 0;

	cbench_seq_init(&seq, job->confidence);
	cbench_outbox_init(&out);
	if (pc->pl)
		ret = place_first(pc, sides, per_sub);
	while (!ret && v == CBENCH_VERDICT_UNDECIDED &&
	       (double)cbench_now_ns() - start < job->budget_ns) {
		if (pc->pl && round)
			ret = place_sides(pc, sides);
		ret = ret ? ret : one(arg, &state, round++, pc->subrounds, &out, fd, d);
		if (ret || isnan(d[0]))
			continue;
		ret = cbench_seq_add(&seq, d[0]);
		cbench_seq_add_halves(&seq, d[1], d[2]);
		cbench_seq_add_bound(&seq, d[3]);
		v = cbench_seq_verdict(&seq, job->min_effect);
	}
	if (!ret)
		audit_end(&seq, v, start, pc, per_sub, end);
	cbench_seq_free(&seq);
	return ret ? ret : cbench_outbox_flush(&out, fd);
}

/* A round of whole measurements: the sides, and the backend's batch of
 * rounds where it takes them itself (NULL otherwise), batch_rounds at a
 * time (0: a round's sub-rounds, one run for each placement). */
struct plain_round {
	struct side *sides;
	struct batched *bt;
	uint32_t batch_rounds;
	struct clocking *clock;		/* on: rounds in est-cycles/op */
};

static int plain_round(void *arg, uint64_t *state, uint32_t round, uint32_t subrounds,
		       struct cbench_outbox *out, int fd, double d[4])
{
	struct plain_round *p = arg;
	struct side *sides = p->sides;
	uint8_t order[2 * ROUND_PER_SIDE];
	double scale = 1;
	int ret = 0;

	sides[0].nv = sides[1].nv = 0;
	d[0] = d[1] = d[2] = d[3] = NAN;
	for (uint32_t k = 0; k < subrounds && !ret; k++) {
		const struct cbench_sample *taken = NULL;
		uint64_t before = *state;

		cbench_audit_shuffle(order, state);
		ret = p->bt ? batch_round(sides, p->bt, p->batch_rounds ? p->batch_rounds : subrounds,
					  order, before, &taken) : 0;
		ret = ret ? ret : round_run(sides, order, taken, round, p->clock, out, fd);
	}
	if (!ret && p->clock->on)
		ret = clock_round(p->clock, sides, round, out, fd, &scale);
	/* A round too disturbed for a quartile on either side says nothing;
	 * its timings still went to the runner. */
	if (!ret) {
		d[0] = cbench_seq_round_stat(sides[0].v, sides[0].nv, sides[1].v, sides[1].nv);
		cbench_seq_round_halves(sides[0].v, sides[0].nv, sides[1].v, sides[1].nv, d + 1);
		d[3] = cbench_seq_step_bound(
			scale * sides[0].step / cbench_stats_quantile(sides[0].v, sides[0].nv, CBENCH_SEQ_QUANTILE),
			scale * sides[1].step / cbench_stats_quantile(sides[1].v, sides[1].nv, CBENCH_SEQ_QUANTILE));
	}
	return ret;
}

/*
 * With loop timing points, one measurement gives hundreds of per-iteration
 * timings, so a round needs only a few: as many per side as give
 * ROUND_PER_SIDE recorded timings, but at least TP_MIN_PER_SIDE, in a
 * random order as ever.  A round's statistic is the same lower-quartile
 * ratio, over the split timings of each side (Lau et al., section 5.4).
 */
#define TP_MIN_PER_SIDE 2

struct tp_audit {
	struct cbench_tp_collect c[2];
	int per_side;
	/* This round's calls of each side, and where each call's splits end
	 * in its collection. */
	uint32_t ncalls[2];
	size_t ends[2][ROUND_MAX_PER_SIDE];
};

/*
 * Whether both sides have usable timing points: 0 if so, 1 if not (and,
 * where either side has some, a note to the runner saying why the audit
 * compares whole measurements), or -errno.
 */
static int tp_probe(struct tp_audit *t, struct side sides[2], const struct cbench_worker_job *job,
		    int fd)
{
	const struct cbench_experiment *exp[2] = { job->exp, job->exp_b };
	struct cbench_msg m = { .type = CBENCH_MSG_AUDIT_NOTE };
	const char *why[2] = { NULL, NULL };
	int ret[2];

	for (int i = 0; i < 2; i++) {
		ret[i] = exp[i]->desc->abi_version < 2 ? 1 :
			 cbench_tp_collect_init(&t->c[i], sides[i].b, sides[i].n, &why[i]);
		if (ret[i] < 0)
			return ret[i];
	}
	if (!ret[0] && !ret[1])
		return 0;
	if (!why[0] && !why[1] && ret[0] && ret[1])
		return 1;	/* neither has any: nothing to say */
	for (int i = 0; i < 2; i++) {
		if (!ret[i])
			continue;
		snprintf(m.u.text, sizeof(m.u.text), "timing points unused: %s %s; whole measurements "
			 "compared", i ? "B" : "A", why[i] ? why[i] : !sides[i].b->ops->tpoints ?
			 "cannot record them in this backend" : "has none");
		break;
	}
	return cbench_worker_send(fd, &m) ? -EPIPE : 1;
}

/* Timing points off on both sides, t freed; returns ret. */
static int tp_stop(struct tp_audit *t, struct side sides[2], int ret)
{
	for (int i = 0; i < 2; i++) {
		if (sides[i].b->ops->tpoints)
			sides[i].b->ops->tpoints(sides[i].b, NULL, 0, 0);
		cbench_tp_collect_free(&t->c[i]);
	}
	return ret;
}

/*
 * Split timings one call of side i gives at the shared stride (0 if none):
 * the most of a few calls, so a disturbed one does not count as empty.
 */
static int tp_per_call(struct tp_audit *t, struct side sides[2], int i, uint64_t *merged)
{
	*merged = 0;
	for (int k = 0; k < 4 && !*merged; k++) {
		struct cbench_sample smp;
		int ret;

		t->c[i].nsplits = 0;
		ret = cbench_tp_collect_measure(&t->c[i], sides[i].b, sides[i].n, &smp);
		if (ret)
			return ret;
		*merged = t->c[i].nsplits;
	}
	return 0;
}

/* Timing points for both sides, or neither: 0 when both have them (same
 * stride and MIN_TIMING on both, so neither side pays more for its
 * points), 1 when the audit compares plain measurements, or -errno. */
static int tp_start(struct tp_audit *t, struct side sides[2], const struct cbench_worker_job *job,
		    int fd)
{
	struct cbench_msg m = { .type = CBENCH_MSG_AUDIT_NOTE };
	uint64_t every, merged;
	int ret;

	memset(t, 0, sizeof(*t));
	if (job->no_tpoints)
		return 1;
	ret = tp_probe(t, sides, job, fd);
	if (ret)
		return tp_stop(t, sides, ret);
	every = t->c[0].every > t->c[1].every ? t->c[0].every : t->c[1].every;
	t->c[1].min_timing = t->c[0].min_timing;
	for (int i = 0; i < 2; i++) {
		t->c[i].every = every;
		sides[i].b->ops->tpoints(sides[i].b, t->c[i].buf, CBENCH_TP_CAPACITY, every);
	}
	/* Recorded timings per call, from a call of the side with fewer. */
	t->per_side = ROUND_PER_SIDE;
	for (int i = 0; i < 2; i++) {
		ret = tp_per_call(t, sides, i, &merged);
		if (ret)
			return tp_stop(t, sides, ret);
		/* The stride one side needs can leave the other with points
		 * too far apart to time anything in a call. */
		if (!merged) {
			snprintf(m.u.text, sizeof(m.u.text), "timing points unused: at the stride both "
				 "sides need (%" PRIu64 "), a call of %s records fewer than two; whole "
				 "measurements compared", every, i ? "B" : "A");
			return tp_stop(t, sides, cbench_worker_send(fd, &m) ? -EPIPE : 1);
		}
		if ((uint64_t)t->per_side > (ROUND_PER_SIDE + merged - 1) / merged)
			t->per_side = (int)((ROUND_PER_SIDE + merged - 1) / merged);
	}
	if (t->per_side < TP_MIN_PER_SIDE)
		t->per_side = TP_MIN_PER_SIDE;
	/* That call only sized the rounds: it counts in none. */
	t->c[0].calls = t->c[1].calls = (struct cbench_tp_calls){ 0 };
	t->c[0].ncalls = t->c[1].ncalls = 0;
	t->c[0].nsplits = t->c[1].nsplits = 0;
	return 0;
}

/*
 * One side's round: its statistic's quantile q, sent with its moments, and
 * the timer's step over the quantile (rel).  A split is a merged timing of
 * whole steps over its iterations; the stride makes every merged timing
 * span the same iterations, so the step in the split at the quantile is
 * the step over q times the mean iterations of a split.
 */
static int tp_round_end(struct cbench_tp_collect *c, double step_ticks, uint32_t round,
			uint32_t side, struct cbench_outbox *out, int fd, double *q, double *rel)
{
	struct cbench_msg m = { .type = CBENCH_MSG_AUDIT_TP_ROUND };
	struct cbench_tp_round *r = &m.u.tp_round;

	cbench_tp_sort(c->splits, c->nsplits);
	*q = cbench_tp_quantile(c->splits, c->nsplits, CBENCH_SEQ_QUANTILE);
	r->round = round;
	r->side = side;
	r->q_ns = *q;
	cbench_tp_moments(c->splits, c->nsplits, &r->iterations, &r->mean_ns, &r->m2);
	*rel = r->iterations ? step_ticks * c->scale * (double)c->nsplits / (*q * (double)r->iterations) :
	       NAN;
	c->nsplits = 0;
	return r->iterations ? cbench_outbox_put(out, fd, &m) : 0;
}

/*
 * The statistic's quantile of each half of one side's round, the first
 * half of its calls and the second (cbench_seq_round_halves()), from its
 * splits before they are sorted; NAN where a half has none.
 */
static void tp_halves(const struct cbench_tp_collect *c, const size_t *ends, uint32_t ncalls,
		      double q[2])
{
	struct cbench_tp_split *half = malloc((c->nsplits + 1) * sizeof(*half));
	size_t mid = ncalls ? ends[(ncalls - 1) / 2] : 0;

	if (half) {
		/* A call's splits are whole: the halves split between calls. */
		memcpy(half, c->splits, mid * sizeof(*half));
		cbench_tp_sort(half, mid);
		q[0] = cbench_tp_quantile(half, mid, CBENCH_SEQ_QUANTILE);
		memcpy(half, c->splits + mid, (c->nsplits - mid) * sizeof(*half));
		cbench_tp_sort(half, c->nsplits - mid);
		q[1] = cbench_tp_quantile(half, c->nsplits - mid, CBENCH_SEQ_QUANTILE);
	} else {
		q[0] = q[1] = NAN;
	}
	free(half);
}

/* log(qb) - log(qa), or NAN. */
static double log_ratio(double qa, double qb)
{
	return qa > 0 && qb > 0 ? log(qb) - log(qa) : NAN;
}

/* A round of timing-point timings: the sides and their collections. */
struct tp_round {
	struct side *sides;
	struct tp_audit *t;
};

static int tp_round(void *arg, uint64_t *state, uint32_t round, uint32_t subrounds,
		    struct cbench_outbox *out, int fd, double d[4])
{
	struct tp_round *p = arg;
	struct tp_audit *t = p->t;
	uint8_t order[2 * ROUND_PER_SIDE];
	double q[2] = { NAN, NAN }, h[2][2] = { { NAN, NAN }, { NAN, NAN } }, rel[2] = { NAN, NAN };
	int ret = 0;

	t->ncalls[0] = t->ncalls[1] = 0;
	for (uint32_t k = 0; k < subrounds && !ret; k++) {
		cbench_audit_shuffle_n(order, t->per_side, state);
		for (int i = 0; i < 2 * t->per_side && !ret; i++) {
			int side = order[i];
			struct cbench_sample smp;

			ret = cbench_tp_collect_measure(&t->c[side], p->sides[side].b, p->sides[side].n,
							&smp);
			t->ends[side][t->ncalls[side]++] = t->c[side].nsplits;
		}
	}
	for (uint32_t s = 0; s < 2 && !ret; s++)
		tp_halves(&t->c[s], t->ends[s], t->ncalls[s], h[s]);
	for (uint32_t s = 0; s < 2 && !ret; s++)
		ret = tp_round_end(&t->c[s], p->sides[s].b->timer.step_ticks, round, s, out, fd, &q[s],
				   &rel[s]);
	d[0] = log_ratio(q[0], q[1]);
	d[1] = log_ratio(h[0][0], h[1][0]);
	d[2] = log_ratio(h[0][1], h[1][1]);
	d[3] = cbench_seq_step_bound(rel[0], rel[1]);
	return ret;
}

/* What each side's timing points came to, to the runner. */
static int tp_finish(struct tp_audit *t, int fd)
{
	struct cbench_msg m = { .type = CBENCH_MSG_TPOINTS };
	int ret = 0;

	for (uint32_t s = 0; s < 2 && !ret; s++) {
		cbench_tp_collect_summary(&t->c[s], &m.u.tp);
		m.u.tp.side = s;
		ret = cbench_worker_send(fd, &m);
	}
	return ret;
}

/* Placements for both sides unless they stay fixed (or the backend
 * cannot draw them): pc->pl set, its pool planned for both arenas. */
static int placing_start(struct placing *pc, struct cbench_placement *pl, const struct side sides[2],
			 const struct cbench_worker_job *job)
{
	const struct cbench_experiment *exp[2] = { job->exp, job->exp_b };
	int ret = 0;

	memset(pc, 0, sizeof(*pc));
	pc->subrounds = 1;
	cbench_placement_init(pl, job->seed);
	if (job->fixed_placement || !sides[0].b->ops->place)
		return 0;
	pl->code = !job->fixed_layout;
	for (int i = 0; i < 2 && !ret; i++) {
		const struct cbench_desc *d = exp[i]->desc;

		ret = d->arena_bytes > SIZE_MAX / 4 ? -ENOMEM :
		      cbench_placement_plan(pl, (size_t)d->arena_bytes, cbench_arena_pages_of(d->flags));
	}
	pc->pl = pl;
	return ret;
}

int cbench_worker_audit(struct cbench_backend *a, const struct cbench_worker_job *job, int fd)
{
	struct cbench_backend b = cbench_job_backend(job, a->ops, &a->timer);
	struct cbench_msg m = { .type = CBENCH_MSG_AUDIT_DONE };
	static struct clocking clock;
	struct batched *bt = NULL;
	struct side sides[2];
	struct tp_audit tp;
	struct cbench_placement pl;
	struct placing pc;
	int ret, use_tp = 1;

	/* A second instance of the backend, on the same CPU, for B: each
	 * keeps its own arena and context, so neither version sees the
	 * other's state. */
	memset(&tp, 0, sizeof(tp));
	cbench_placement_init(&pl, job->seed);
	ret = b.ops->open(&b, job->cpu);
	if (!ret)
		ret = b.ops->prepare(&b, job->exp_b);
	if (ret) {
		/* B's own account, cut to fit beside B's name. */
		snprintf(a->error, sizeof(a->error), "unable to prepare B (%.150s): %.300s", job->exp_b->id,
			 b.error[0] ? b.error : ret == -ECANCELED ? "its setup() refused" : strerror(-ret));
		goto out;
	}
	init_side(&sides[0], a, job->n, job->exp);
	init_side(&sides[1], &b, job->n_b, job->exp_b);
	ret = warm_up(&sides[0]);
	ret = ret ? ret : warm_up(&sides[1]);
	ret = ret ? ret : placing_start(&pc, &pl, sides, job);
	if (!ret)
		use_tp = tp_start(&tp, sides, job, fd);
	/* A backend that can take the rounds itself does: cbench.ko, in ring 0. */
	if (!ret && use_tp > 0 && a->ops->measure_audit) {
		bt = calloc(1, sizeof(*bt));
		ret = bt ? 0 : -ENOMEM;
	}
	/* Timing points compare per-iteration times, in ns. */
	memset(&clock, 0, sizeof(clock));
	if (!ret && use_tp > 0)
		ret = clock_start(&clock, sides, job, bt != NULL);
	if (!ret && use_tp < 0)
		ret = use_tp;
	else if (!ret && !use_tp)
		ret = audit_rounds(job, &pc, sides, tp.per_side, tp_round,
				   &(struct tp_round){ sides, &tp }, fd, &m.u.audit);
	else if (!ret)
		ret = audit_rounds(job, &pc, sides, ROUND_PER_SIDE, plain_round,
				   &(struct plain_round){ sides, bt, pc.pl ? 0 : BATCH_ROUNDS, &clock }, fd,
				   &m.u.audit);
	m.u.audit.figure = clock.on ? CBENCH_AUDIT_EST_CYCLES : CBENCH_AUDIT_NS;
	m.u.audit.ref_every = clock.on ? clock.every : 0;
	m.u.audit.left_out = clock.left_out;
	if (!ret && !use_tp)
		ret = tp_finish(&tp, fd);
	ret = ret ? ret : cbench_worker_send(fd, &m);
	cbench_tp_collect_free(&tp.c[0]);
	cbench_tp_collect_free(&tp.c[1]);
	if (ret && b.error[0])
		snprintf(a->error, sizeof(a->error), "B: %.500s", b.error);
out:
	free(bt);
	b.ops->close(&b);
	/* A's arena may hold chunks still: the pools go when it does. */
	cbench_placement_free(&pl);
	return ret;
}
