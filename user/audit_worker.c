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
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kmod/lib/order.h"
#include "audit.h"
#include "clock.h"
#include "sequential.h"
#include "tpoints.h"
#include "worker.h"

/* Timings per side per round (seed 001 adds 100 per side per round). */
#define ROUND_PER_SIDE CBENCH_AUDIT_PER_SIDE
/* Warm-up of each side before the first round, in ns. */
#define AUDIT_WARMUP_NS 20e6
/*
 * Rounds a backend with a measure_audit op (kmod) takes in one go: enough
 * to amortize starting a run, few enough that a decided audit wastes little.
 */
#define BATCH_ROUNDS 4
#define BATCH_SAMPLES (BATCH_ROUNDS * 2 * ROUND_PER_SIDE)

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
	double v[ROUND_PER_SIDE];	/* this round's timings, ns/op */
	size_t nv;
};

static void init_side(struct side *s, struct cbench_backend *b, uint64_t n,
		      const struct cbench_experiment *e)
{
	s->b = b;
	s->n = n ? n : 1;
	s->ops = e->desc->ops_per_rep ? (double)e->desc->ops_per_rep : 1;
	s->nv = 0;
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
static int batch_round(struct side sides[2], struct batched *bt, const uint8_t *order,
		       uint64_t state, const struct cbench_sample **taken)
{
	struct cbench_backend *a = sides[0].b;

	if (bt->next == bt->n) {
		int ret = a->ops->measure_audit(a, sides[1].b, sides[0].n, sides[1].n, ROUND_PER_SIDE,
						BATCH_ROUNDS, state, bt->s, bt->sides);

		if (ret)
			return ret;
		bt->n = BATCH_SAMPLES;
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

static int warm_up(struct side *s)
{
	double until = (double)cbench_now_ns() + AUDIT_WARMUP_NS, ns;
	int ret;

	do {
		ret = measure_one(s, &ns);
	} while (!ret && (double)cbench_now_ns() < until);
	return ret;
}

/*
 * One round in the order of `order`, each timing sent as it comes; taken:
 * the round's measurements if the backend took them already, else NULL.
 */
static int round_run(struct side sides[2], const uint8_t *order, const struct cbench_sample *taken,
		     uint32_t round, struct cbench_outbox *out, int fd)
{
	struct cbench_msg m = { .type = CBENCH_MSG_AUDIT_TIMING };

	sides[0].nv = sides[1].nv = 0;
	for (int i = 0; i < 2 * ROUND_PER_SIDE; i++) {
		struct side *s = &sides[order[i]];
		double ns;
		int ret = 0;

		if (taken)
			ns = ns_of(s, &taken[i]);
		else
			ret = measure_one(s, &ns);

		if (ret)
			return ret;
		if (isnan(ns))
			continue;
		s->v[s->nv++] = ns;
		m.u.timing = (struct cbench_audit_timing){ round, order[i], ns };
		ret = cbench_outbox_put(out, fd, &m);
		if (ret)
			return ret;
	}
	return 0;
}

/* How an audit ended: its verdict, interval, rounds and wall time. */
static void audit_end(const struct cbench_seq *seq, enum cbench_verdict v, double start_ns,
		      struct cbench_audit_end *end)
{
	end->rounds = (uint32_t)seq->rounds;
	end->verdict = (int32_t)v;
	cbench_seq_interval(seq, &end->change, &end->lower, &end->upper);
	end->wall_s = ((double)cbench_now_ns() - start_ns) * 1e-9;
}

/*
 * One round of an audit, its order drawn from *state and its timings sent
 * to the runner through out; *d gets the round's statistic (the log ratio
 * of B's lower quartile to A's), NAN if the round says nothing.
 */
typedef int (*audit_round_fn)(void *arg, uint64_t *state, uint32_t round,
			      struct cbench_outbox *out, int fd, double *d);

/* Rounds until a verdict or the budget's end; fills *end. */
static int audit_rounds(const struct cbench_worker_job *job, audit_round_fn one, void *arg, int fd,
			struct cbench_audit_end *end)
{
	static struct cbench_outbox out;
	uint64_t state = cbench_order_seed(job->seed);
	enum cbench_verdict v = CBENCH_VERDICT_UNDECIDED;
	double start = (double)cbench_now_ns(), d;
	struct cbench_seq seq;
	uint32_t round = 0;
	int ret;

	cbench_seq_init(&seq, job->confidence);
	cbench_outbox_init(&out);
	while (v == CBENCH_VERDICT_UNDECIDED && (double)cbench_now_ns() - start < job->budget_ns) {
		ret = one(arg, &state, round++, &out, fd, &d);
		if (ret)
			return ret;
		if (isnan(d))
			continue;
		cbench_seq_add(&seq, d);
		v = cbench_seq_verdict(&seq, job->min_effect);
	}
	audit_end(&seq, v, start, end);
	return cbench_outbox_flush(&out, fd);
}

/* A round of whole measurements: the sides, and the backend's batch of
 * rounds where it takes them itself (NULL otherwise). */
struct plain_round {
	struct side *sides;
	struct batched *bt;
};

static int plain_round(void *arg, uint64_t *state, uint32_t round, struct cbench_outbox *out,
		       int fd, double *d)
{
	struct plain_round *p = arg;
	const struct cbench_sample *taken = NULL;
	uint8_t order[2 * ROUND_PER_SIDE];
	uint64_t before = *state;
	int ret;

	cbench_audit_shuffle(order, state);
	ret = p->bt ? batch_round(p->sides, p->bt, order, before, &taken) : 0;
	ret = ret ? ret : round_run(p->sides, order, taken, round, out, fd);
	/* A round too disturbed for a quartile on either side says nothing;
	 * its timings still went to the runner. */
	*d = ret ? NAN : cbench_seq_round_stat(p->sides[0].v, p->sides[0].nv, p->sides[1].v,
					       p->sides[1].nv);
	return ret;
}

/*
 * With loop timing points, one measurement gives hundreds of per-iteration
 * timings, so a round needs only a few: as many per side as give
 * ROUND_PER_SIDE recorded timings, but at least TP_MIN_PER_SIDE, in a
 * random order as ever.  A round's statistic is the same lower-quartile
 * ratio, over the split timings of each side (seed 001, section 5.4).
 */
#define TP_MIN_PER_SIDE 2

struct tp_audit {
	struct cbench_tp_collect c[2];
	int per_side;
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

/* Timing points for both sides, or neither: 0 when both have them (same
 * stride and MIN_TIMING on both, so neither side pays more for its
 * points), 1 when the audit compares plain measurements, or -errno. */
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

/* One side's round: its statistic's quantile, sent with its moments. */
static int tp_round_end(struct cbench_tp_collect *c, uint32_t round, uint32_t side,
			struct cbench_outbox *out, int fd, double *q)
{
	struct cbench_msg m = { .type = CBENCH_MSG_AUDIT_TP_ROUND };
	struct cbench_tp_round *r = &m.u.tp_round;

	cbench_tp_sort(c->splits, c->nsplits);
	*q = cbench_tp_quantile(c->splits, c->nsplits, CBENCH_SEQ_QUANTILE);
	r->round = round;
	r->side = side;
	r->q_ns = *q;
	cbench_tp_moments(c->splits, c->nsplits, &r->iterations, &r->mean_ns, &r->m2);
	c->nsplits = 0;
	return r->iterations ? cbench_outbox_put(out, fd, &m) : 0;
}

/* A round of timing-point timings: the sides and their collections. */
struct tp_round {
	struct side *sides;
	struct tp_audit *t;
};

static int tp_round(void *arg, uint64_t *state, uint32_t round, struct cbench_outbox *out, int fd,
		    double *d)
{
	struct tp_round *p = arg;
	struct tp_audit *t = p->t;
	uint8_t order[2 * ROUND_PER_SIDE];
	double q[2] = { NAN, NAN };
	int ret = 0;

	cbench_audit_shuffle_n(order, t->per_side, state);
	for (int i = 0; i < 2 * t->per_side && !ret; i++) {
		struct cbench_sample smp;

		ret = cbench_tp_collect_measure(&t->c[order[i]], p->sides[order[i]].b,
						p->sides[order[i]].n, &smp);
	}
	for (uint32_t s = 0; s < 2 && !ret; s++)
		ret = tp_round_end(&t->c[s], round, s, out, fd, &q[s]);
	*d = q[0] > 0 && q[1] > 0 ? log(q[1]) - log(q[0]) : NAN;
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

int cbench_worker_audit(struct cbench_backend *a, const struct cbench_worker_job *job, int fd)
{
	struct cbench_backend b = { .ops = a->ops, .timer = a->timer, .no_fifo = job->no_fifo,
				   .rt_limit_s = job->rt_limit_s };
	struct cbench_msg m = { .type = CBENCH_MSG_AUDIT_DONE };
	struct batched *bt = NULL;
	struct side sides[2];
	struct tp_audit tp = { 0 };
	int ret, use_tp = 1;

	/* A second instance of the backend, on the same CPU, for B: each
	 * keeps its own arena and context, so neither version sees the
	 * other's state. */
	ret = b.ops->open(&b, job->cpu);
	if (!ret)
		ret = b.ops->prepare(&b, job->exp_b);
	if (ret) {
		/* B's own account, cut to fit beside B's name. */
		snprintf(a->error, sizeof(a->error), "unable to prepare B (%s): %.300s", job->exp_b->id,
			 b.error[0] ? b.error : ret == -ECANCELED ? "its setup() refused" : strerror(-ret));
		goto out;
	}
	init_side(&sides[0], a, job->n, job->exp);
	init_side(&sides[1], &b, job->n_b, job->exp_b);
	ret = warm_up(&sides[0]);
	ret = ret ? ret : warm_up(&sides[1]);
	if (!ret)
		use_tp = tp_start(&tp, sides, job, fd);
	/* A backend that can take the rounds itself does: cbench.ko, in ring 0. */
	if (!ret && use_tp > 0 && a->ops->measure_audit) {
		bt = calloc(1, sizeof(*bt));
		ret = bt ? 0 : -ENOMEM;
	}
	if (use_tp < 0)
		ret = use_tp;
	else if (!use_tp)
		ret = audit_rounds(job, tp_round, &(struct tp_round){ sides, &tp }, fd,
				   &m.u.audit);
	else
		ret = ret ? ret : audit_rounds(job, plain_round, &(struct plain_round){ sides, bt },
					       fd, &m.u.audit);
	if (!ret && !use_tp)
		ret = tp_finish(&tp, fd);
	ret = ret ? ret : cbench_worker_send(fd, &m);
	cbench_tp_collect_free(&tp.c[0]);
	cbench_tp_collect_free(&tp.c[1]);
	if (ret && b.error[0])
		snprintf(a->error, sizeof(a->error), "%s", b.error);
out:
	free(bt);
	b.ops->close(&b);
	return ret;
}
