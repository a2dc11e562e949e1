// SPDX-License-Identifier: GPL-2.0
/* A store's series and their change points; see history.h. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/change.h"
#include "stats/stats.h"
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

bool cbench_history_name_matches(const regex_t *re, const char *name)
{
	char go[CBENCH_STORE_NAME_MAX + 16], id[2 * CBENCH_STORE_NAME_MAX];
	size_t o = 0;
	bool head = true;

	if (!regexec(re, name, 0, NULL, 0))
		return true;
	snprintf(go, sizeof(go), "Benchmark%s", name);
	if (!regexec(re, go, 0, NULL, 0))
		return true;
	/* names.c made "CopyFast" of copy_fast: undone up to the first '/'. */
	for (const char *p = name; *p && o + 2 < sizeof(id); p++) {
		head = head && *p != '/';
		if (head && isupper((unsigned char)*p) && p != name)
			id[o++] = '_';
		id[o++] = head ? (char)tolower((unsigned char)*p) : *p;
	}
	id[o] = '\0';
	return !regexec(re, id, 0, NULL, 0);
}

static bool selected(const struct cbench_store_series *s, const struct cbench_history_select *sel)
{
	return (!sel->machine || !strcmp(sel->machine, s->machine)) &&
	       (!sel->object || !strcmp(sel->object, s->object)) &&
	       (!sel->backend || !strcmp(sel->backend, s->backend)) &&
	       (!sel->filter || cbench_history_name_matches(sel->filter, s->name));
}

/* The runs of hs from index a and from index b, as one array for the t test. */
static void two_groups(const struct cbench_history_series *hs, const double *y, const double *w,
		       size_t a, size_t b, size_t c, double confidence, struct cbench_cp *cp)
{
	size_t n = hs->npoints, k = 0, m;
	double *yy = malloc((n + 1) * sizeof(*yy)), *ww = malloc((n + 1) * sizeof(*ww));

	if (!yy || !ww) {
		cbench_cp_test(y, w, 0, 0, 0, confidence, cp);
		goto out;
	}
	/* Runs set aside (weight 0, aside()) are in neither group. */
	for (size_t i = a; i < b; i++) {
		if (w[i] > 0) {
			yy[k] = y[i];
			ww[k++] = w[i];
		}
	}
	m = k;
	for (size_t i = c; i < n; i++) {
		if (w[i] > 0) {
			yy[k] = y[i];
			ww[k++] = w[i];
		}
	}
	cbench_cp_test(yy, ww, 0, m, k, confidence, cp);
out:
	free(yy);
	free(ww);
}

/* The weighted residual sum of squares of y over [a, b); its weight into *sum_w. */
static double seg_rss(const double *y, const double *w, size_t a, size_t b, double *sum_w)
{
	double sw = 0, swy = 0, r = 0;

	for (size_t i = a; i < b; i++) {
		sw += w[i];
		swy += w[i] * y[i];
	}
	for (size_t i = a; i < b && sw > 0; i++)
		r += w[i] * (y[i] - swy / sw) * (y[i] - swy / sw);
	*sum_w = sw;
	return r;
}

/*
 * The gate's interval with the scale of the whole series: the residuals of
 * every segment the detector found (one scale for the series, as its model
 * has), so that a level a few runs old is judged with the series' noise,
 * not with the two or three runs it has.
 */
static void pooled(const struct cbench_history_series *hs, const double *y, const double *w,
		   double confidence, struct cbench_cp *cp)
{
	double rss = 0, sw, w1 = 0, w2 = 0, d, se, q, df;
	size_t a = 0, n = hs->npoints;
	const struct cbench_history_gate *g = &hs->gate;

	for (size_t k = 0; k <= hs->nchanges; k++) {
		size_t b = k < hs->nchanges ? hs->changes[k].cp.index : n;

		rss += seg_rss(y, w, a, b, &sw);
		a = b;
	}
	df = (double)n - (double)hs->nexcursions - (double)hs->nchanges - 1;
	seg_rss(y, w, g->before_a, g->before_b, &w1);
	seg_rss(y, w, g->after_a, n, &w2);
	if (df < 1 || !(w1 > 0) || !(w2 > 0))
		return;
	d = cp->after - cp->before;
	se = sqrt(rss / df * (1 / w1 + 1 / w2));
	if (!(se > 0))
		return;
	q = cbench_stats_t_quantile(1 - (1 - confidence) / 2, df);
	cp->df = df;
	cp->t = d / se;
	cp->p = 2 * cbench_stats_t_cdf(-fabs(cp->t), df);
	cp->lower = expm1(d - q * se);
	cp->upper = expm1(d + q * se);
}

/* Weight 0 for the runs of hs set aside: the gate leaves them out. */
static void aside(const struct cbench_history_series *hs, double *w)
{
	for (size_t k = 0; k < hs->nexcursions; k++)
		w[hs->excursions[k].index] = 0;
}

/*
 * The gate's question for series hs (report_history.h): the newest work
 * from the first run after order since (or at the newest order), its
 * level from the last change point within it, against the runs before it
 * of the segment the run before it is in.
 */
static void gate_series(struct cbench_history_series *hs, const double *y, const double *w,
			const struct cbench_history_select *sel, long long since,
			const struct cbench_cp_params *p)
{
	struct cbench_history_gate *g = &hs->gate;
	size_t n = hs->npoints, first = n, a = 0, start;

	if (!sel->fail_on || !n)
		return;
	if (since < 0)
		since = hs->points[n - 1].order - 1;
	while (first > 0 && hs->points[first - 1].order > since)
		first--;
	if (first == n)
		return;
	g->asked = true;
	start = first;
	for (size_t k = 0; k < hs->nchanges; k++) {
		size_t at = hs->changes[k].cp.index;

		if (at >= first)
			start = at;
		else
			a = at;
	}
	g->before_a = a;
	g->before_b = first;
	g->after_a = start;
	two_groups(hs, y, w, a, first, start, p->confidence, &g->test);
	pooled(hs, y, w, p->confidence, &g->test);
	g->answer = cbench_change_gate(g->test.lower, g->test.upper, sel->min_effect,
				       !strcmp(sel->fail_on, "changed"));
	if (first == 0)
		g->why = "no run before it";
	else if (g->answer == CBENCH_GATE_UNDECIDED)
		g->why = isnan(g->test.lower) ? "too few runs to tell" :
			 "its interval reaches past --min-effect";
}

/* The commits around change c of hs no run placed, and the next to measure. */
static void between(const struct cbench_history_series *hs, struct cbench_history_change *c)
{
	long long a = hs->points[c->cp.last].order, b = hs->points[c->cp.index].order;
	long long open = b - a > 1 ? b - a - 1 : 0;

	c->unclear = c->cp.index - c->cp.last - 1;
	/* A run set aside between them is listed as such, not as unclear. */
	for (size_t k = 0; k < hs->nexcursions; k++) {
		size_t x = hs->excursions[k].index;

		c->unclear -= x > c->cp.last && x < c->cp.index;
	}
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
		   const struct cbench_history_select *sel, long long since,
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
	hs->excursions = calloc(ncps + 1, sizeof(*hs->excursions));
	if (!hs->changes || !hs->excursions) {
		ret = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < ncps; i++) {
		if (cps[i].excursion)
			hs->excursions[hs->nexcursions++] = cps[i];
		else
			hs->changes[hs->nchanges++].cp = cps[i];
	}
	for (size_t k = 0; k < hs->nchanges; k++)
		between(hs, &hs->changes[k]);
	aside(hs, w);
	gate_series(hs, y, w, sel, since, p);
out:
	free(cps);
	free(y);
	free(u);
	free(w);
	return ret;
}

/* Whether --confirm's audit refuted change c: it ran and called it
 * otherwise (equivalent, or the other way), not merely undecided. */
static bool refuted(const struct cbench_history_change *c)
{
	return c->confirm == CBENCH_CONFIRM_NO && c->verdict[0] && strcmp(c->verdict, "inconclusive");
}

int cbench_history_regate(struct cbench_history_series *hs, const struct cbench_history_select *sel,
			  long long since, const struct cbench_cp_params *p)
{
	struct cbench_history_series kept = *hs;
	double *y = malloc((hs->npoints + 1) * sizeof(*y)), *u = malloc((hs->npoints + 1) * sizeof(*u));
	double *w = malloc((hs->npoints + 1) * sizeof(*w));
	int ret = -ENOMEM;

	kept.changes = malloc((hs->nchanges + 1) * sizeof(*kept.changes));
	if (!y || !u || !w || !kept.changes)
		goto out;
	kept.nchanges = 0;
	for (size_t k = 0; k < hs->nchanges; k++)
		if (!refuted(&hs->changes[k]))
			kept.changes[kept.nchanges++] = hs->changes[k];
	for (size_t i = 0; i < hs->npoints; i++) {
		y[i] = log(hs->points[i].value);
		u[i] = hs->points[i].u;
	}
	cbench_cp_weights(y, u, hs->npoints, w);
	aside(hs, w);
	memset(&kept.gate, 0, sizeof(kept.gate));
	gate_series(&kept, y, w, sel, since, p);
	hs->gate = kept.gate;
	ret = 0;
out:
	free(kept.changes);
	free(y);
	free(u);
	free(w);
	return ret;
}

/* --since into out->h.since: a commit of some run (its order), else an order. */
static int since_order(struct cbench_store_history *out, const char *arg, char *err, size_t errlen)
{
	char *end;

	out->h.since = -1;
	if (!arg)
		return 0;
	for (size_t i = 0; i < out->nseries; i++) {
		for (size_t k = 0; k < out->series[i].n; k++) {
			if (!strcmp(out->series[i].points[k].commit, arg)) {
				out->h.since = out->series[i].points[k].order;
				return 0;
			}
		}
	}
	errno = 0;
	out->h.since = strtoll(arg, &end, 10);
	if (errno || end == arg || *end || out->h.since < 0) {
		snprintf(err, errlen, "--since %s is no commit of a run in the store, nor an order "
			 "(a whole number from 0)", arg);
		return -ENOENT;
	}
	return 0;
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
	ret = since_order(out, sel->since, err, errlen);
	if (ret)
		return ret;
	for (size_t i = 0, j; i < out->nseries; i = j) {
		const struct cbench_store_series *chosen;

		for (j = i + 1; j < out->nseries && same_benchmark(&out->series[i], &out->series[j]); j++)
			;
		chosen = pick(&out->series[i], j - i, sel);
		if (!chosen || !selected(chosen, sel))
			continue;
		ret = analyse(chosen, p, sel, out->h.since, &out->h.series[out->h.nseries++]);
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
		free(sh->h.series[i].excursions);
	}
	free(sh->h.series);
	cbench_store_series_free(sh->series, sh->nseries);
	memset(sh, 0, sizeof(*sh));
}
