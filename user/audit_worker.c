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
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../kmod/lib/order.h"
#include "audit.h"
#include "sequential.h"
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

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Fisher-Yates over ROUND_PER_SIDE zeros (A) and as many ones (B): the
 * order cbench.ko takes an audit run's samples in (kmod/lib/order.c). */
void cbench_audit_shuffle(uint8_t *order, uint64_t *state)
{
	cbench_order_round(order, ROUND_PER_SIDE, state);
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
	double until = now_ns() + AUDIT_WARMUP_NS, ns;
	int ret;

	do {
		ret = measure_one(s, &ns);
	} while (!ret && now_ns() < until);
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

/* Rounds until a verdict or the budget's end; fills *end. */
static int rounds(struct side sides[2], const struct cbench_worker_job *job, struct batched *bt,
		  int fd, struct cbench_audit_end *end)
{
	static struct cbench_outbox out;
	uint8_t order[2 * ROUND_PER_SIDE];
	uint64_t state = cbench_order_seed(job->seed);
	enum cbench_verdict v = CBENCH_VERDICT_UNDECIDED;
	double start = now_ns();
	struct cbench_seq seq;
	uint32_t round = 0;
	int ret = 0;

	cbench_seq_init(&seq, job->confidence);
	cbench_outbox_init(&out);
	while (v == CBENCH_VERDICT_UNDECIDED && now_ns() - start < job->budget_ns) {
		const struct cbench_sample *taken = NULL;
		uint64_t before = state;
		double d;

		cbench_audit_shuffle(order, &state);
		ret = bt ? batch_round(sides, bt, order, before, &taken) : 0;
		ret = ret ? ret : round_run(sides, order, taken, round++, &out, fd);
		if (ret)
			return ret;
		/* A round too disturbed for a quartile on either side says
		 * nothing; its timings still went to the runner. */
		d = cbench_seq_round_stat(sides[0].v, sides[0].nv, sides[1].v, sides[1].nv);
		if (isnan(d))
			continue;
		cbench_seq_add(&seq, d);
		v = cbench_seq_verdict(&seq, job->min_effect);
	}
	end->rounds = (uint32_t)seq.rounds;
	end->verdict = (int32_t)v;
	cbench_seq_interval(&seq, &end->change, &end->lower, &end->upper);
	end->wall_s = (now_ns() - start) * 1e-9;
	return cbench_outbox_flush(&out, fd);
}

int cbench_worker_audit(struct cbench_backend *a, const struct cbench_worker_job *job, int fd)
{
	struct cbench_backend b = { .ops = a->ops, .timer = a->timer, .no_fifo = job->no_fifo,
				   .rt_limit_s = job->rt_limit_s };
	struct cbench_msg m = { .type = CBENCH_MSG_AUDIT_DONE };
	struct batched *bt = NULL;
	struct side sides[2];
	int ret;

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
	/* A backend that can take the rounds itself does: cbench.ko, in ring 0. */
	if (!ret && a->ops->measure_audit) {
		bt = calloc(1, sizeof(*bt));
		ret = bt ? 0 : -ENOMEM;
	}
	ret = ret ? ret : rounds(sides, job, bt, fd, &m.u.audit);
	ret = ret ? ret : cbench_worker_send(fd, &m);
	if (ret && b.error[0])
		snprintf(a->error, sizeof(a->error), "%s", b.error);
out:
	free(bt);
	b.ops->close(&b);
	return ret;
}
