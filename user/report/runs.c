// SPDX-License-Identifier: GPL-2.0
/* Runs as series, for compare and plot; see runs.h. */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/figures.h"
#include "report/runs.h"
#include "stats/stats.h"

static uint64_t name_hash(const char *name)
{
	uint64_t h = 0xcbf29ce484222325ULL;	/* FNV-1a */

	for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
		h ^= *p;
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* The slot that holds name, or the empty one where it would go. */
static size_t *slot_of(const struct cbench_runs *g, const char *name)
{
	size_t mask = g->nslots - 1, i = (size_t)name_hash(name) & mask;

	while (g->slots[i] && strcmp(g->s[g->slots[i] - 1].name, name))
		i = (i + 1) & mask;
	return &g->slots[i];
}

static int grow_index(struct cbench_runs *g)
{
	size_t nslots = g->nslots ? g->nslots * 2 : 64;
	size_t *slots = calloc(nslots, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	free(g->slots);
	g->slots = slots;
	g->nslots = nslots;
	for (size_t i = 0; i < g->n; i++)
		*slot_of(g, g->s[i].name) = i + 1;
	return 0;
}

static struct cbench_series *find(struct cbench_runs *g, const char *full_name, bool add)
{
	char name[sizeof(g->s->name)];
	size_t *slot;

	/* As stored: a longer name is cut, and must still find itself. */
	snprintf(name, sizeof(name), "%s", full_name);
	if (g->nslots) {
		slot = slot_of(g, name);
		if (*slot)
			return &g->s[*slot - 1];
	}
	if (!add)
		return NULL;
	if (2 * (g->n + 1) > g->nslots && grow_index(g))
		return NULL;
	if (g->n == g->cap) {
		size_t cap = g->cap ? g->cap * 2 : 16;
		struct cbench_series *s = realloc(g->s, cap * sizeof(*s));

		if (!s)
			return NULL;
		g->s = s;
		g->cap = cap;
	}
	memset(&g->s[g->n], 0, sizeof(g->s[g->n]));
	memcpy(g->s[g->n].name, name, sizeof(name));
	*slot_of(g, name) = g->n + 1;
	return &g->s[g->n++];
}

/* Counts the trials of the run v[n - 1] into fewest and most. */
static void fold(struct cbench_series *s)
{
	if (!s->fewest || s->run_trials < s->fewest)
		s->fewest = s->run_trials;
	if (s->run_trials > s->most)
		s->most = s->run_trials;
}

/*
 * The timer's part in a run's headline: a measurement is a whole number of
 * timer steps, so the run's figure is known to within a step of it at best
 * (where the measurements keep their phase to the timer's updates, no
 * averaging over them takes the rounding off).  Like a printed value's last
 * digit, we take it as a uniform rounding over one step, share^2 / 12 on
 * the log scale, and independent between runs (each calibrates, tunes and
 * places anew).  It is a floor for the runs' variance, as the printed
 * rounding is: runs that agree to the last step still differ by as much as
 * the timer cannot tell apart.
 */
static void step_rounding(struct cbench_series *s, double share)
{
	if (share > 0 && isfinite(share))
		s->step_var = fmax(s->step_var, share * share / 12);
}

/*
 * Another trial of the run v[n - 1]: the run's value is the median of its
 * trials, as run's headline is (and as benchstat takes a run's lines); its
 * clock (ghz, NAN: not known) the mean of theirs.
 */
static int add_to_run(struct cbench_series *s, double v, double ghz)
{
	if (ghz > 0 && isfinite(ghz)) {
		s->run_ghz[0] += ghz;
		s->ghz[s->n - 1] = s->run_ghz[0] / (double)++s->run_clocks;
	}
	if (s->run_trials == s->trials_cap) {
		size_t cap = s->trials_cap ? s->trials_cap * 2 : 16;
		double *t = realloc(s->trials, cap * sizeof(*t));

		if (!t)
			return -ENOMEM;
		s->trials = t;
		s->trials_cap = cap;
	}
	s->trials[s->run_trials++] = v;
	s->v[s->n - 1] = cbench_stats_median(s->trials, s->run_trials);
	return 0;
}

/* One trial's value, in the run the file is at: a run's value is their
 * median.  step_share: a timer step over a measurement, NAN where not
 * known; ghz: the core clock the trial saw, NAN likewise. */
int cbench_runs_add(struct cbench_runs *g, const char *name, double v, double ulp, double step_share, double ghz)
{
	struct cbench_series *s = find(g, name, true);
	double rel = ulp / v;

	if (!s)
		return -ENOMEM;
	/* Uniform rounding of +-ulp/2 has variance ulp^2 / 12. */
	s->min_var = fmax(s->min_var, rel * rel / 12);
	step_rounding(s, step_share);
	s->fastest = s->n ? fmin(s->fastest, v) : v;
	s->slowest = s->n ? fmax(s->slowest, v) : v;
	if (s->n && s->run == g->runs)
		return add_to_run(s, v, ghz);
	if (s->n)
		fold(s);
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 4;
		double *nv = realloc(s->v, cap * sizeof(*nv)), *ng;

		if (!nv)
			return -ENOMEM;
		s->v = nv;
		ng = realloc(s->ghz, cap * sizeof(*ng));
		if (!ng)
			return -ENOMEM;
		s->ghz = ng;
		s->cap = cap;
	}
	s->n++;
	s->run = g->runs;
	s->run_trials = 0;
	s->run_clocks = 0;
	s->run_ghz[0] = 0;
	s->ghz[s->n - 1] = NAN;
	return add_to_run(s, v, ghz);
}

void cbench_runs_step(struct cbench_runs *g, const char *name, double share)
{
	struct cbench_series *s = find(g, name, false);

	if (s)
		step_rounding(s, share);
}

void cbench_runs_fold(struct cbench_runs *g)
{
	for (size_t i = 0; i < g->n; i++)
		fold(&g->s[i]);
}

/* "machine vm, AuthenticAMD family 25 model 1, backend user": what is known of o. */
static const char *origin_text(const struct cbench_origin *o, char *buf, size_t len)
{
	snprintf(buf, len, "machine %s, %s, backend %s", o->machine[0] ? o->machine : "?",
		 o->cpu_model[0] ? o->cpu_model : "CPU ?", o->backend[0] ? o->backend : "?");
	return buf;
}

static bool differ(const char *a, const char *b)
{
	return a[0] && b[0] && strcmp(a, b);
}

/*
 * The current run against the first one read: 0, or -EINVAL with why when
 * they were measured on other machines or backends (unless --mixed).
 */
int cbench_runs_origin(struct cbench_runs *g, char *why, size_t len)
{
	char a[320], b[320];

	g->checked = true;
	if (!g->cur.machine[0] && !g->cur.cpu_model[0] && !g->cur.backend[0])
		return 0;
	if (!g->first->path) {
		*g->first = g->cur;
		return 0;
	}
	if (!differ(g->cur.machine, g->first->machine) && !differ(g->cur.cpu_model, g->first->cpu_model) &&
	    !differ(g->cur.backend, g->first->backend))
		return 0;
	g->differed = true;
	if (g->mixed)
		return 0;
	snprintf(why, len, "it was measured on %.100s, %.60s on %.100s: runs of different "
		 "machines or backends differ by more than a change compare looks for; compare "
		 "runs of one machine and backend, or give --mixed to compare them anyway",
		 origin_text(&g->cur, a, sizeof(a)), g->first->path,
		 origin_text(g->first, b, sizeof(b)));
	return -EINVAL;
}

void cbench_runs_release(struct cbench_runs *g)
{
	for (size_t i = 0; i < g->n; i++) {
		free(g->s[i].v);
		free(g->s[i].ghz);
		free(g->s[i].trials);
	}
	free(g->s);
	free(g->slots);
	free(g->files);
}

struct cbench_series *cbench_runs_find(const struct cbench_runs *g, const char *name)
{
	return find((struct cbench_runs *)g, name, false);
}

double cbench_series_mean(const struct cbench_series *s)
{
	double sum = 0;

	for (size_t i = 0; i < s->n; i++)
		sum += log(s->v[i]);
	return exp(sum / (double)s->n);
}

double cbench_series_ghz(const struct cbench_series *s)
{
	double *v = malloc((s->n + 1) * sizeof(*v)), m;
	size_t k = 0;

	for (size_t i = 0; v && i < s->n; i++)
		if (!isnan(s->ghz[i]))
			v[k++] = s->ghz[i];
	m = k ? cbench_stats_median(v, k) : NAN;
	free(v);
	return m;
}

/* The least variance a side's runs are taken to have: the printed value's
 * rounding and the timer's, which are apart and add. */
static double floor_var(const struct cbench_series *old, const struct cbench_series *new)
{
	return fmax(old->min_var + old->step_var, new->min_var + new->step_var);
}

int cbench_series_change(const struct cbench_series *old, const struct cbench_series *new, double min_effect,
			 struct cbench_change *c)
{
	return cbench_change_test(old->v, old->n, new->v, new->n, floor_var(old, new), min_effect, c);
}

/* The sample variance of the logs of s's runs (n >= 2). */
static double log_var(const struct cbench_series *s)
{
	double mean = log(cbench_series_mean(s)), sum = 0;

	for (size_t i = 0; i < s->n; i++)
		sum += (log(s->v[i]) - mean) * (log(s->v[i]) - mean);
	return sum / (double)(s->n - 1);
}

double cbench_series_step_floor(const struct cbench_series *old, const struct cbench_series *new)
{
	double step_var = fmax(old->step_var, new->step_var), least = floor_var(old, new);

	if (old->n < 2 || new->n < 2 || !(step_var > fmax(old->min_var, new->min_var)))
		return 0;
	return log_var(old) < least || log_var(new) < least ? sqrt(12 * step_var) : 0;
}

void cbench_sides_release(struct cbench_sides *s)
{
	for (int m = 0; m < CBENCH_SIDES_METRICS; m++) {
		if (!s->read[m])
			continue;
		cbench_runs_release(&s->by[m][0]);
		cbench_runs_release(&s->by[m][1]);
	}
}

const struct cbench_runs *cbench_sides_runs(const struct cbench_sides *s, int side)
{
	return &s->by[CBENCH_METRIC_NS][side];
}

int cbench_sides_pick(const struct cbench_sides *s, const char *name, const struct cbench_series **a,
		      const struct cbench_series **b)
{
	const struct cbench_series *na = cbench_runs_find(&s->by[CBENCH_METRIC_NS][0], name);
	const struct cbench_series *nb = cbench_runs_find(&s->by[CBENCH_METRIC_NS][1], name);
	int m = s->metric;

	if (!na || !nb)
		return -1;
	if (m < 0) {
		const struct cbench_series *ea = cbench_runs_find(&s->by[CBENCH_METRIC_EST_CYCLES][0], name);
		const struct cbench_series *eb = cbench_runs_find(&s->by[CBENCH_METRIC_EST_CYCLES][1], name);

		/* Every run of both sides, or the runs' values would not
		 * be the same runs' as ns/op's. */
		m = ea && eb && ea->n == na->n && eb->n == nb->n ? CBENCH_METRIC_EST_CYCLES : CBENCH_METRIC_NS;
	}
	*a = cbench_runs_find(&s->by[m][0], name);
	*b = cbench_runs_find(&s->by[m][1], name);
	return *a && *b ? m : -1;
}
