// SPDX-License-Identifier: GPL-2.0
/*
 * Each worker mode's collector (collect.h): the messages of one mode into
 * its result.  The worker runs the benchmark's code, so whatever it sends
 * is bounded here: strings cut and ended, counts capped.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "machine/clock.h"
#include "session/bulk.h"
#include "session/collect.h"
#include "worker/leftover.h"
#include "stats/sequential.h"
#include "stats/stats.h"

/* Room for one more element of size bytes in *v (n used of *cap),
 * doubling from first, by resize (realloc, or cbench_bulk_grow() for a
 * trial's measurements, which workers must not inherit).  0 or -ENOMEM. */
static int grow_by(void *(*resize)(void *, size_t), void **v, size_t n, size_t *cap, size_t size,
		   size_t first)
{
	size_t ncap;
	void *nv;

	if (n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : first;
	nv = resize(*v, ncap * size);
	if (!nv)
		return -ENOMEM;
	*v = nv;
	*cap = ncap;
	return 0;
}

static int grow(void **v, size_t n, size_t *cap, size_t size, size_t first)
{
	return grow_by(realloc, v, n, cap, size, first);
}

/* Why a worker could not start, where a result keeps its reason. */
static int not_started(int ret, int *error, char *reason, size_t len)
{
	*error = ret;
	snprintf(reason, len, "cannot start a worker: %s", strerror(-ret));
	return ret;
}

/* The phase's end into a result's error and reason. */
static int ended(const struct cbench_phase_end *end, int *error, char *reason, size_t len)
{
	if (end->error) {
		*error = end->error;
		snprintf(reason, len, "%s", end->reason);
	}
	return end->error;
}

/* CALIBRATE and TUNE: one message is the result. */
struct one {
	struct cbench_collector c;
	struct cbench_timer *timer;
	struct cbench_tuned *tuned;
};

static int take_one(struct cbench_collector *c, const struct cbench_msg *m, char *reason,
		    size_t len)
{
	struct one *o = (struct one *)c;

	if (m->type == CBENCH_MSG_TIMER && o->timer)
		*o->timer = m->u.timer;
	else if (m->type == CBENCH_MSG_TUNED && o->tuned)
		*o->tuned = (struct cbench_tuned){ .n = m->u.tuned.n, .t_ns = m->u.tuned.t_ns };
	else
		return -EPROTO;
	return 1;
}

int cbench_collect_calibrations(const struct cbench_worker_job *jobs, size_t n,
				double time_limit_s, struct cbench_timer *timers,
				struct cbench_phase_end *ends)
{
	struct cbench_phase ph[CBENCH_JOBS_MAX];
	struct one o[CBENCH_JOBS_MAX];
	size_t begun = 0;
	int ret = 0;

	for (size_t i = 0; i < n && !ret; i++) {
		o[i] = (struct one){ .c = { .take = take_one }, .timer = &timers[i] };
		ret = cbench_phase_begin(&ph[i], &jobs[i], time_limit_s, &o[i].c, &ends[i]);
		if (ret)
			not_started(ret, &ends[i].error, ends[i].reason, sizeof(ends[i].reason));
		else
			begun++;
	}
	cbench_phase_wait_all(ph, begun);
	for (size_t i = 0; i < begun && !ret; i++)
		ret = ends[i].error;
	return ret;
}

int cbench_collect_tuned(const struct cbench_worker_job *job, double time_limit_s,
			 struct cbench_tuned *tuned, struct cbench_phase_end *end)
{
	struct one o = { .c = { .take = take_one }, .tuned = tuned };
	int ret = cbench_phase_run(job, time_limit_s, &o.c, end);

	return ret ? not_started(ret, &end->error, end->reason, sizeof(end->reason)) : end->error;
}

/* A SAMPLES message's measurements, each onto the benchmark's or the
 * reference's in the order taken.  0 or -ENOMEM. */
static int take_samples(struct cbench_trial_run *t, const struct cbench_msg *m)
{
	struct cbench_trial *tr = t->tr;
	uint32_t n = m->u.samples.n;

	/* The worker runs the benchmark's code: a count is capped. */
	n = n < CBENCH_MSG_SAMPLES_MAX ? n : CBENCH_MSG_SAMPLES_MAX;
	for (uint32_t i = 0; i < n; i++) {
		bool ref = m->u.samples.ref & (1u << i);
		struct cbench_sample **to = ref ? &tr->ref_samples : &tr->samples;
		size_t *len = ref ? &tr->nref_samples : &tr->nsamples;

		if (grow_by(cbench_bulk_grow, (void **)to, *len, ref ? &t->ref_cap : &t->cap,
			    sizeof(**to), 256))
			return -ENOMEM;
		(*to)[(*len)++] = m->u.samples.s[i];
	}
	return 0;
}

static int take_trial(struct cbench_collector *c, const struct cbench_msg *m, char *reason,
		      size_t len)
{
	struct cbench_trial_run *t = (struct cbench_trial_run *)c;
	struct cbench_trial *tr = t->tr;

	switch (m->type) {
	case CBENCH_MSG_SAMPLES:
		if (take_samples(t, m))
			break;
		return 0;
	case CBENCH_MSG_FIGURES:
		tr->figures = m->u.figures;
		return 0;
	case CBENCH_MSG_TPOINTS:
		if (m->u.tp.side == 0) {
			tr->have_tp = true;
			tr->tp = m->u.tp;
		}
		return 0;
	case CBENCH_MSG_NEEDED:
		t->needed = (uint32_t)m->u.tuned.n;
		return 0;
	case CBENCH_MSG_LAYOUT_PLACED:
		tr->layout = m->u.placed.index;
		tr->run_offset = m->u.placed.run_offset;
		return 0;
	default:
		return -EPROTO;
	}
	snprintf(reason, len, "out of memory for samples");
	return -ENOMEM;
}

/* A trial out of time says how far it got (Caliper's failed trial). */
static bool late_trial(const struct cbench_collector *c, double time_limit_s, char *reason,
		       size_t len)
{
	const struct cbench_trial_run *t = (const struct cbench_trial_run *)c;
	size_t disturbed = 0;

	if (!t->tr->nsamples)
		return false;
	for (size_t i = 0; i < t->tr->nsamples; i++)
		disturbed += t->tr->samples[i].disturbed != 0;
	snprintf(reason, len, "timeout after %gs with %zu valid measurements of %u needed (%zu disturbed)",
		 time_limit_s, t->tr->nsamples - disturbed, t->needed ? t->needed : t->min_valid,
		 disturbed);
	return true;
}

static void trial_init(struct cbench_trial_run *t, const struct cbench_worker_job *job,
		       struct cbench_trial *tr)
{
	memset(t, 0, sizeof(*t));
	t->c = (struct cbench_collector){ .take = take_trial, .late = late_trial };
	t->tr = tr;
	t->min_valid = job->min_valid;
}

/* The trial's end, from how its phase ended (or could not start: ret). */
static int trial_ended(struct cbench_trial_run *t, int ret)
{
	struct cbench_trial *tr = t->tr;

	if (ret)
		return not_started(ret, &tr->error, tr->reason, sizeof(tr->reason));
	tr->arena_bytes = t->end.env.arena_bytes;
	tr->arena_huge_bytes = t->end.env.arena_huge_bytes;
	tr->left = t->ph.standing ? t->ph.left & ~(uint32_t)CBENCH_LEFT_UNSEEN : 0;
	return ended(&t->end, &tr->error, tr->reason, sizeof(tr->reason));
}

int cbench_collect_trial_begin(struct cbench_trial_run *t, const struct cbench_worker_job *job,
			       double time_limit_s, struct cbench_trial *tr, struct cbench_standing *w)
{
	int ret;

	trial_init(t, job, tr);
	ret = cbench_phase_begin_standing(&t->ph, job, time_limit_s, &t->c, &t->end, w);
	return ret ? trial_ended(t, ret) : 0;
}

int cbench_collect_trial_finish(struct cbench_trial_run *t)
{
	cbench_phase_finish(&t->ph);
	return trial_ended(t, 0);
}

int cbench_collect_trial_again(struct cbench_trial_run *t, const struct cbench_worker_job *job,
			       double time_limit_s, struct cbench_standing *w)
{
	struct cbench_trial *tr = t->tr;

	cbench_standing_end(w);
	tr->error = 0;
	tr->reason[0] = '\0';
	/* Their memory is kept, and grown again from the start. */
	tr->nsamples = tr->nref_samples = 0;
	memset(&tr->figures, 0, sizeof(tr->figures));
	tr->have_tp = false;
	tr->arena_bytes = tr->arena_huge_bytes = 0;
	tr->run_offset = 0;
	tr->left = 0;
	/* Its time is the attempt that counts. */
	tr->start_s = cbench_now_s();
	return cbench_collect_trial_begin(t, job, time_limit_s, tr, w);
}

struct audit {
	struct cbench_collector c;
	struct cbench_audit_pair *p;
	size_t cap, tp_cap;		/* room in p->timings, p->tp_rounds */
	bool have_tp[2];
};

static int take_audit(struct cbench_collector *c, const struct cbench_msg *m, char *reason,
		      size_t len)
{
	struct audit *a = (struct audit *)c;
	struct cbench_audit_pair *p = a->p;

	switch (m->type) {
	case CBENCH_MSG_AUDIT_TIMING:
		if (grow((void **)&p->timings, p->ntimings, &a->cap, sizeof(*p->timings), 1024))
			break;
		p->timings[p->ntimings++] = m->u.timing;
		return 0;
	case CBENCH_MSG_AUDIT_TP_ROUND:
		if (grow((void **)&p->tp_rounds, p->ntp_rounds, &a->tp_cap, sizeof(*p->tp_rounds), 64))
			break;
		p->tp_rounds[p->ntp_rounds++] = m->u.tp_round;
		return 0;
	case CBENCH_MSG_TPOINTS:
		a->have_tp[m->u.tp.side != 0] = true;
		p->tp_side[m->u.tp.side != 0] = m->u.tp;
		return 0;
	case CBENCH_MSG_AUDIT_NOTE:
		snprintf(p->tp_note, sizeof(p->tp_note), "%.*s", (int)sizeof(p->tp_note) - 1,
			 m->u.text);
		return 0;
	case CBENCH_MSG_AUDIT_DONE:
		p->end = m->u.audit;
		return 1;
	default:
		return -EPROTO;
	}
	snprintf(reason, len, "out of memory for timings");
	return -ENOMEM;
}

int cbench_collect_audit(const struct cbench_worker_job *job, double time_limit_s,
			 struct cbench_audit_pair *p)
{
	struct audit a = { .c = { .take = take_audit }, .p = p };
	struct cbench_phase_end end;
	int ret = cbench_phase_run(job, time_limit_s, &a.c, &end);

	if (ret)
		return not_started(ret, &p->error, p->reason, sizeof(p->reason));
	p->tp = a.have_tp[0] && a.have_tp[1];
	return ended(&end, &p->error, p->reason, sizeof(p->reason));
}

struct profile {
	struct cbench_collector c;
	struct cbench_profile_result *res;
	size_t cap, stack_cap;		/* room in res->groups, res->stacks */
};

/* One group, its strings ended here. */
static int add_group(struct profile *pr, const struct cbench_profile_group *g)
{
	struct cbench_profile_result *res = pr->res;
	struct cbench_profile_group *n;

	if (grow((void **)&res->groups, res->ngroups, &pr->cap, sizeof(*res->groups), 16))
		return -ENOMEM;
	n = &res->groups[res->ngroups++];
	*n = *g;
	n->name[sizeof(n->name) - 1] = '\0';
	n->file[sizeof(n->file) - 1] = '\0';
	n->object[sizeof(n->object) - 1] = '\0';
	return 0;
}

/* At most CBENCH_PROFILE_STACKS_MAX (+1 for the rest), each one line. */
static int add_stack(struct profile *pr, const struct cbench_profile_stack *st)
{
	struct cbench_profile_result *res = pr->res;
	struct cbench_profile_stack *n;

	if (res->nstacks > CBENCH_PROFILE_STACKS_MAX)
		return -E2BIG;
	if (grow((void **)&res->stacks, res->nstacks, &pr->stack_cap, sizeof(*res->stacks), 16))
		return -ENOMEM;
	n = &res->stacks[res->nstacks++];
	*n = *st;
	n->frames[sizeof(n->frames) - 1] = '\0';
	for (char *c = n->frames; *c; c++)
		*c = *c == '\n' || *c == '\r' ? ' ' : *c;
	return 0;
}

static int take_profile(struct cbench_collector *c, const struct cbench_msg *m, char *reason,
			size_t len)
{
	struct profile *pr = (struct profile *)c;
	int ret;

	switch (m->type) {
	case CBENCH_MSG_PROFILE:
		pr->res->info = m->u.profile;
		return 0;
	case CBENCH_MSG_PROFILE_GROUP:
		ret = add_group(pr, &m->u.group);
		break;
	case CBENCH_MSG_PROFILE_STACK:
		ret = add_stack(pr, &m->u.stack);
		break;
	default:
		return -EPROTO;
	}
	if (ret)
		snprintf(reason, len, "%s", ret == -E2BIG ?
			 "the worker sent more stacks than a profile keeps" : "out of memory for the profile");
	return ret;
}

int cbench_collect_profile(const struct cbench_worker_job *job, double time_limit_s,
			   struct cbench_profile_result *res)
{
	struct profile pr = { .c = { .take = take_profile }, .res = res };
	struct cbench_phase_end end;
	int ret = cbench_phase_run(job, time_limit_s, &pr.c, &end);

	if (ret)
		return not_started(ret, &res->error, res->reason, sizeof(res->reason));
	return ended(&end, &res->error, res->reason, sizeof(res->reason));
}

struct layout {
	struct cbench_collector c;
	struct cbench_layout_result *x;
	struct cbench_audit_timing *timings;	/* every layout's, in order */
	size_t ntimings, cap;
	size_t placed;				/* layouts placed so far */
};

static int take_layout(struct cbench_collector *c, const struct cbench_msg *m, char *reason,
		       size_t len)
{
	struct layout *l = (struct layout *)c;

	switch (m->type) {
	case CBENCH_MSG_LAYOUT_PLACED:
		/* In order, index 0, 1, ...; anything else is dropped. */
		if (m->u.placed.index == l->placed && l->placed < l->x->nlayouts)
			l->x->run_offsets[l->placed++] = m->u.placed.run_offset;
		return 0;
	case CBENCH_MSG_AUDIT_TIMING:
		if (grow((void **)&l->timings, l->ntimings, &l->cap, sizeof(*l->timings), 1024))
			break;
		l->timings[l->ntimings++] = m->u.timing;
		return 0;
	default:
		return -EPROTO;
	}
	snprintf(reason, len, "out of memory for timings");
	return -ENOMEM;
}

/* Each layout's figure and its halves' from its timings (round: the
 * layout's index); 0 or -ENOMEM. */
static int layout_figures(const struct layout *l, double *h1, double *h2)
{
	struct cbench_layout_result *x = l->x;
	double *v = malloc((l->ntimings + 1) * sizeof(*v));
	int ret = v ? 0 : -ENOMEM;
	size_t i = 0;

	for (size_t k = 0; k < x->nlayouts; k++)
		x->q[k] = h1[k] = h2[k] = NAN;
	while (v && i < l->ntimings) {
		uint32_t k = l->timings[i].round;
		size_t m = 0;

		for (; i < l->ntimings && l->timings[i].round == k; i++)
			v[m++] = l->timings[i].ns_per_op;
		if (k >= x->nlayouts || m < 4)
			continue;
		x->q[k] = cbench_stats_quantile(v, m, CBENCH_SEQ_QUANTILE);
		h1[k] = cbench_stats_quantile(v, m / 2, CBENCH_SEQ_QUANTILE);
		h2[k] = cbench_stats_quantile(v + m / 2, m - m / 2, CBENCH_SEQ_QUANTILE);
	}
	free(v);
	return ret;
}

int cbench_collect_layout(const struct cbench_worker_job *job, double time_limit_s,
			  struct cbench_layout_result *x, double *h1, double *h2)
{
	struct layout l = { .c = { .take = take_layout }, .x = x };
	struct cbench_phase_end end;
	int ret = cbench_phase_run(job, time_limit_s, &l.c, &end);

	if (ret)
		return not_started(ret, &x->error, x->reason, sizeof(x->reason));
	ret = ended(&end, &x->error, x->reason, sizeof(x->reason));
	if (!ret && layout_figures(&l, h1, h2)) {
		x->error = ret = -ENOMEM;
		snprintf(x->reason, sizeof(x->reason), "out of memory for timings");
	}
	free(l.timings);
	return ret;
}
