// SPDX-License-Identifier: GPL-2.0
/*
 * Collecting loop timing points in a worker (tpoints.h says what they are).
 *
 * A trial's headline measurements run with timing points off: a point then
 * costs a load and a branch, and the per-rep time is what it always was.
 * The per-iteration distribution comes from measurements of its own, after
 * them, as allocations do.  An audit keeps them on (audit_worker.c).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "machine/clock.h"
#include "stats/stats.h"
#include "worker/tpoints.h"
#include "worker/tpoints_worker.h"

/* Splits kept at most (16 bytes each): past this, a trial stops early and
 * an audit round stops adding calls. */
#define TP_SPLITS_MAX (1u << 21)
/* Pilot calls tried before we give up on an undisturbed one. */
#define TP_PILOT_TRIES 5
/* A trial's timing-point measurements: at least this many calls... */
#define TP_TRIAL_MIN_CALLS 3
/* ...for half the trial's time, and at most this many. */
#define TP_TRIAL_MAX_CALLS 1000
/* A call longer than this share of the phase's time limit gets no
 * timing-point measurements in a trial: they could not finish in time. */
#define TP_TRIAL_MAX_CALL_SHARE 0.05

/* The lower quartile of the raw timings between the pilot's records. */
static double pilot_low(const struct cbench_tp_record *rec, size_t n)
{
	double *d = malloc((n ? n : 1) * sizeof(*d)), low;
	size_t k = 0;

	if (!d)
		return NAN;
	for (size_t i = 1; i < n; i++) {
		if (rec[i].count > rec[i - 1].count && rec[i].tsc >= rec[i - 1].tsc)
			d[k++] = (double)(rec[i].tsc - rec[i - 1].tsc);
	}
	qsort(d, k, sizeof(*d), cbench_stats_compare);
	low = k ? d[k / 4] : NAN;
	free(d);
	return low;
}

int cbench_tp_collect_init(struct cbench_tp_collect *c, struct cbench_backend *b, uint64_t n,
			   const char **why)
{
	struct cbench_sample s = { 0 };
	double low;
	int ret = 0;

	memset(c, 0, sizeof(*c));
	*why = NULL;
	if (!b->ops->tpoints)
		return 1;
	c->buf = calloc(CBENCH_TP_CAPACITY, sizeof(*c->buf));
	if (!c->buf)
		return -ENOMEM;
	c->scale = 1e9 / b->timer.tsc_hz;
	b->ops->tpoints(b, c->buf, CBENCH_TP_CAPACITY, 1);
	for (int i = 0; i < TP_PILOT_TRIES; i++) {
		ret = b->ops->measure(b, n, &s);
		if (ret || !s.disturbed)
			break;
	}
	if (!ret && s.disturbed)
		ret = -EAGAIN;
	if (ret || !s.tpoints) {
		b->ops->tpoints(b, NULL, 0, 0);
		return ret ? ret : 1;
	}
	c->min_timing = b->ops->tp_min_timing ? b->ops->tp_min_timing(b, b->timer.step_ticks) :
			cbench_tp_min_timing(b->timer.step_ticks);
	if (isnan(c->min_timing)) {
		*why = "the timing point's own cost (MIN_TIMING) could not be measured";
		b->ops->tpoints(b, NULL, 0, 0);
		return 1;
	}
	low = pilot_low(c->buf, s.tpoints < CBENCH_TP_CAPACITY ? s.tpoints : CBENCH_TP_CAPACITY);
	c->every = cbench_tp_stride(c->min_timing, low, s.tpoints, CBENCH_TP_CAPACITY);
	/* Two records make one timing: a call with fewer at this stride
	 * times nothing (its points are too few, too close together). */
	if (isnan(low) || s.tpoints / c->every < 2) {
		*why = isnan(low) ? "no two timing points of a call were apart by a marked iteration" :
		       "a call has too few timing points far enough apart to time";
		b->ops->tpoints(b, NULL, 0, 0);
		return 1;
	}
	b->ops->tpoints(b, c->buf, CBENCH_TP_CAPACITY, c->every);
	return 0;
}

int cbench_tp_collect_measure(struct cbench_tp_collect *c, struct cbench_backend *b, uint64_t n,
			      struct cbench_sample *s)
{
	size_t taken;
	int ret = b->ops->measure(b, n, s);

	if (ret || s->disturbed)
		return ret;
	taken = s->tpoints < CBENCH_TP_CAPACITY ? (size_t)s->tpoints : CBENCH_TP_CAPACITY;
	if (taken < 2)
		return 0;
	if (c->nsplits + taken > c->cap) {
		size_t ncap = c->cap ? c->cap : 4096;
		struct cbench_tp_split *nv;

		while (ncap < c->nsplits + taken)
			ncap *= 2;
		nv = realloc(c->splits, ncap * sizeof(*nv));
		if (!nv)
			return -ENOMEM;
		c->splits = nv;
		c->cap = ncap;
	}
	c->nsplits += cbench_tp_merge(c->buf, taken, s->tpoints, c->min_timing, c->scale,
				      c->splits + c->nsplits, &c->calls);
	c->ncalls++;
	return 0;
}

void cbench_tp_collect_summary(struct cbench_tp_collect *c, struct cbench_tp_summary *sum)
{
	uint64_t w;
	double m2;

	memset(sum, 0, sizeof(*sum));
	cbench_tp_sort(c->splits, c->nsplits);
	sum->calls = c->ncalls;
	sum->every = c->every;
	sum->min_timing_ticks = c->min_timing;
	sum->merged = c->calls.merged;
	sum->iterations = c->calls.iterations;
	sum->skipped = c->calls.skipped;
	sum->dropped = c->calls.dropped;
	sum->perturb = c->calls.merged ? c->calls.perturb_sum / (double)c->calls.merged : NAN;
	for (int i = 0; i < CBENCH_TP_QUANTILES; i++)
		sum->q_ns[i] = cbench_tp_quantile(c->splits, c->nsplits, cbench_tp_quantile_levels[i]);
	cbench_tp_moments(c->splits, c->nsplits, &w, &sum->mean_ns, &m2);
	sum->stddev_ns = w > 1 ? sqrt(m2 / (double)(w - 1)) : NAN;
}

void cbench_tp_collect_free(struct cbench_tp_collect *c)
{
	free(c->buf);
	free(c->splits);
	memset(c, 0, sizeof(*c));
}

int cbench_worker_tpoints(struct cbench_backend *b, const struct cbench_worker_job *job, int fd)
{
	struct cbench_msg m = { .type = CBENCH_MSG_TPOINTS };
	struct cbench_tp_collect c;
	struct cbench_sample s;
	const char *why;
	double until;
	int ret;

	if (job->no_tpoints || !b->ops->tpoints || job->exp->desc->abi_version < 2)
		return 0;
	ret = cbench_tp_collect_init(&c, b, job->n, &why);
	if (ret == 1 && why) {
		/* Points the report says it could not use (every = 0). */
		ret = cbench_worker_send(fd, &m);
		goto out;
	}
	if (ret)
		goto out;
	until = (double)cbench_now_ns() + job->trial_ns / 2;
	for (uint32_t i = 0; i < TP_TRIAL_MAX_CALLS && c.nsplits < TP_SPLITS_MAX; i++) {
		ret = cbench_tp_collect_measure(&c, b, job->n, &s);
		if (ret)
			goto out;
		/* A call this long would take the trial past its limit. */
		if ((double)s.ticks * c.scale > job->time_limit_ns * TP_TRIAL_MAX_CALL_SHARE ||
		    (c.ncalls >= TP_TRIAL_MIN_CALLS && (double)cbench_now_ns() >= until))
			break;
	}
	cbench_tp_collect_summary(&c, &m.u.tp);
	ret = cbench_worker_send(fd, &m);
out:
	b->ops->tpoints(b, NULL, 0, 0);
	cbench_tp_collect_free(&c);
	return ret < 0 ? ret : 0;
}
