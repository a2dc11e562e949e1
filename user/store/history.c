// SPDX-License-Identifier: GPL-2.0
/* A store's series and their change points; see history.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/history.h"
#include "store/series.h"
#include "store/store.h"

/* Whether series a and b are one benchmark of one object on one machine and backend. */
static bool same_benchmark(const struct cbench_store_series *a, const struct cbench_store_series *b)
{
	return !strcmp(a->machine, b->machine) && !strcmp(a->cpu, b->cpu) &&
	       !strcmp(a->backend, b->backend) && !strcmp(a->object, b->object) &&
	       !strcmp(a->name, b->name);
}

/* The series of metric m among v[0..n), NULL if none. */
static const struct cbench_store_series *of_metric(const struct cbench_store_series *v, size_t n,
						   int m)
{
	for (size_t i = 0; i < n; i++) {
		if ((int)v[i].metric == m)
			return &v[i];
	}
	return NULL;
}

/*
 * The series to analyse of one benchmark's v[0..n) (one per metric): the
 * one asked for, else est-cycles where every run has it, else ns.
 * est-cycles cancels a core clock that moves between runs (a boosting or
 * shared host), which time per op follows: on a steady clock ns is the
 * quieter, but one run on a moved clock is a step of its own.
 */
static const struct cbench_store_series *pick(const struct cbench_store_series *v, size_t n,
					      const struct cbench_history_select *sel)
{
	const struct cbench_store_series *est, *ns;

	if (sel->metric >= 0)
		return of_metric(v, n, sel->metric);
	est = of_metric(v, n, CBENCH_METRIC_EST_CYCLES);
	ns = of_metric(v, n, CBENCH_METRIC_NS);
	return est && (!ns || est->n == ns->n) ? est : ns;
}

static bool selected(const struct cbench_store_series *s, const struct cbench_history_select *sel)
{
	return (!sel->machine || !strcmp(sel->machine, s->machine)) &&
	       (!sel->object || !strcmp(sel->object, s->object)) &&
	       (!sel->backend || !strcmp(sel->backend, s->backend)) &&
	       (!sel->filter || !regexec(sel->filter, s->name, 0, NULL, 0));
}

/* The commits around change c of hs no run placed, and the next to measure. */
static void between(const struct cbench_history_series *hs, struct cbench_history_change *c)
{
	long long a = hs->points[c->cp.last].order, b = hs->points[c->cp.index].order;
	long long open = b - a > 1 ? b - a - 1 : 0;

	c->unclear = c->cp.index - c->cp.last - 1;
	c->untested = open;
	/* Orders between that a run measured (too noisily) are not untested. */
	for (size_t i = c->cp.last + 1; i < c->cp.index; i++) {
		long long o = hs->points[i].order;

		if (o > a && o < b && (i == c->cp.last + 1 || hs->points[i - 1].order != o))
			c->untested--;
	}
	/* Bisection: the middle of what no run placed. */
	c->next_order = open ? a + (b - a) / 2 : -1;
}

/* Series s into hs, with its change points. */
static int analyse(const struct cbench_store_series *s, const struct cbench_cp_params *p,
		   struct cbench_history_series *hs)
{
	double *y = malloc((s->n + 1) * sizeof(*y)), *u = malloc((s->n + 1) * sizeof(*u));
	double *w = malloc((s->n + 1) * sizeof(*w));
	struct cbench_cp *cps = NULL;
	size_t ncps = 0;
	int ret = -ENOMEM;

	*hs = (struct cbench_history_series){
		.machine = s->machine, .cpu = s->cpu, .backend = s->backend, .object = s->object,
		.name = s->name, .metric = cbench_metric_names[s->metric],
		.unit = cbench_metric_units[s->metric], .npoints = s->n,
	};
	hs->points = calloc(s->n + 1, sizeof(*hs->points));
	if (!y || !u || !w || !hs->points)
		goto out;
	for (size_t i = 0; i < s->n; i++) {
		const struct cbench_store_point *pt = &s->points[i];

		hs->points[i] = (struct cbench_history_point){
			.run = pt->run, .order = pt->order, .commit = pt->commit,
			.build_id = pt->build_id, .date = pt->date, .copy = pt->copy,
			.value = pt->value, .u = pt->u,
		};
		y[i] = log(pt->value);
		u[i] = pt->u;
	}
	hs->between_sd = sqrt(cbench_cp_weights(y, u, s->n, w));
	ret = cbench_cp_detect(y, u, s->n, p, &cps, &ncps);
	if (ret)
		goto out;
	hs->changes = calloc(ncps + 1, sizeof(*hs->changes));
	if (!hs->changes) {
		ret = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < ncps; i++) {
		hs->changes[i].cp = cps[i];
		between(hs, &hs->changes[i]);
	}
	hs->nchanges = ncps;
out:
	free(cps);
	free(y);
	free(u);
	free(w);
	return ret;
}

int cbench_store_history(const char *path, const struct cbench_history_select *sel,
			 const struct cbench_cp_params *p, struct cbench_store_history *out, char *err,
			 size_t errlen)
{
	struct cbench_store s;
	int ret;

	memset(out, 0, sizeof(*out));
	out->h.store = path;
	out->h.params = *p;
	ret = cbench_store_open(&s, path, false, err, errlen);
	if (ret)
		return ret;
	ret = cbench_store_series(&s, &out->series, &out->nseries, err, errlen);
	cbench_store_close(&s);
	if (ret)
		return ret;
	out->h.series = calloc(out->nseries + 1, sizeof(*out->h.series));
	if (!out->h.series) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (size_t i = 0, j; i < out->nseries; i = j) {
		const struct cbench_store_series *chosen;

		for (j = i + 1; j < out->nseries && same_benchmark(&out->series[i], &out->series[j]); j++)
			;
		chosen = pick(&out->series[i], j - i, sel);
		if (!chosen || !selected(chosen, sel))
			continue;
		ret = analyse(chosen, p, &out->h.series[out->h.nseries++]);
		if (ret) {
			snprintf(err, errlen, "%s", ret == -EINVAL ? "a detector's parameter is out of range" :
				 "out of memory");
			return ret;
		}
	}
	return 0;
}

void cbench_store_history_free(struct cbench_store_history *sh)
{
	for (size_t i = 0; i < sh->h.nseries; i++) {
		free(sh->h.series[i].points);
		free(sh->h.series[i].changes);
	}
	free(sh->h.series);
	cbench_store_series_free(sh->series, sh->nseries);
	memset(sh, 0, sizeof(*sh));
}
