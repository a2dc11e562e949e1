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
#include <string.h>

#include "audit.h"
#include "clock.h"
#include "sequential.h"
#include "worker.h"

/* Timings per side per round (seed 001 adds 100 per side per round). */
#define ROUND_PER_SIDE CBENCH_AUDIT_PER_SIDE
/* Warm-up of each side before the first round, in ns. */
#define AUDIT_WARMUP_NS 20e6

/* xorshift64* (Vigna): fast, good enough to shuffle, and replayable. */
static uint64_t next_random(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545F4914F6CDD1DULL;
}

/* Fisher-Yates over ROUND_PER_SIDE zeros (A) and as many ones (B). */
void cbench_audit_shuffle(uint8_t *order, uint64_t *state)
{
	for (int i = 0; i < 2 * ROUND_PER_SIDE; i++)
		order[i] = i >= ROUND_PER_SIDE;
	for (int i = 2 * ROUND_PER_SIDE - 1; i > 0; i--) {
		int j = (int)(next_random(state) % (uint64_t)(i + 1));
		uint8_t t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
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

/* One measurement of side s; a disturbed one is dropped (*ns NAN). */
static int measure_one(struct side *s, double *ns)
{
	struct cbench_sample smp;
	int ret = s->b->ops->measure(s->b, s->n, &smp);

	if (ret)
		return ret;
	*ns = smp.disturbed ? NAN :
	      (double)smp.ticks * 1e9 / s->b->timer.tsc_hz / ((double)s->n * s->ops);
	return 0;
}

static int warm_up(struct side *s)
{
	double until = cbench_now_ns() + AUDIT_WARMUP_NS, ns;
	int ret;

	do {
		ret = measure_one(s, &ns);
	} while (!ret && cbench_now_ns() < until);
	return ret;
}

/* One round in the order of `order`, each timing sent as it comes. */
static int round_run(struct side sides[2], const uint8_t *order, uint32_t round,
		     struct cbench_outbox *out, int fd)
{
	struct cbench_msg m = { .type = CBENCH_MSG_AUDIT_TIMING };

	sides[0].nv = sides[1].nv = 0;
	for (int i = 0; i < 2 * ROUND_PER_SIDE; i++) {
		struct side *s = &sides[order[i]];
		double ns;
		int ret = measure_one(s, &ns);

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
static int rounds(struct side sides[2], const struct cbench_worker_job *job, int fd,
		  struct cbench_audit_end *end)
{
	static struct cbench_outbox out;
	uint8_t order[2 * ROUND_PER_SIDE];
	uint64_t state = job->seed ? job->seed : 1;	/* xorshift's one bad state */
	enum cbench_verdict v = CBENCH_VERDICT_UNDECIDED;
	double start = cbench_now_ns();
	struct cbench_seq seq;
	uint32_t round = 0;
	int ret = 0;

	cbench_seq_init(&seq, job->confidence);
	cbench_outbox_init(&out);
	while (v == CBENCH_VERDICT_UNDECIDED && cbench_now_ns() - start < job->budget_ns) {
		double d;

		cbench_audit_shuffle(order, &state);
		ret = round_run(sides, order, round++, &out, fd);
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
	end->wall_s = (cbench_now_ns() - start) * 1e-9;
	return cbench_outbox_flush(&out, fd);
}

int cbench_worker_audit(struct cbench_backend *a, const struct cbench_worker_job *job, int fd)
{
	struct cbench_backend b = { .ops = a->ops, .timer = a->timer, .no_fifo = job->no_fifo,
				   .rt_limit_s = job->rt_limit_s };
	struct cbench_msg m = { .type = CBENCH_MSG_AUDIT_DONE };
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
	ret = ret ? ret : rounds(sides, job, fd, &m.u.audit);
	ret = ret ? ret : cbench_worker_send(fd, &m);
	if (ret && b.error[0])
		snprintf(a->error, sizeof(a->error), "%s", b.error);
out:
	b.ops->close(&b);
	return ret;
}
