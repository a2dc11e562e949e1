// SPDX-License-Identifier: GPL-2.0
/* What a run's trials say together (trials.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"
#include "stats/trials.h"

/* A normal's interquartile range in standard deviations. */
#define IQR_TO_SD 1.349

/* P(Bin(n, 1/2) <= k). */
static double binomial_half_cdf(size_t n, size_t k)
{
	double term = ldexp(1, -(int)n), sum = 0;

	for (size_t i = 0; i <= k && i <= n; i++) {
		sum += term;
		term = term * (double)(n - i) / (double)(i + 1);
	}
	return sum;
}

void cbench_trials_median_ci(const double *v, size_t n, double confidence, double *median,
			     double *lo, double *hi, double *coverage)
{
	double *s;
	size_t k;

	*median = *lo = *hi = *coverage = NAN;
	if (!n)
		return;
	s = malloc(n * sizeof(*s));
	if (!s)
		return;
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cbench_stats_compare);
	*median = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	/* The widest k (1-based) whose order statistics cover the median. */
	for (k = n / 2 ? n / 2 : 1; k > 1 && 1 - 2 * binomial_half_cdf(n, k - 1) < confidence; k--)
		;
	*lo = s[k - 1];
	*hi = s[n - k];
	*coverage = n == 1 ? 1 : 1 - 2 * binomial_half_cdf(n, k - 1);
	free(s);
}

double cbench_trials_robust_sd(const double *v, size_t n)
{
	if (n < 2)
		return 0;
	return (cbench_stats_quantile(v, n, 0.75) - cbench_stats_quantile(v, n, 0.25)) / IQR_TO_SD;
}

struct grouped {
	uint32_t group;
	double v;
};

static int compare_group(const void *a, const void *b)
{
	const struct grouped *x = a, *y = b;

	return (x->group > y->group) - (x->group < y->group);
}

double cbench_trials_within_groups(const double *v, const uint32_t *group, size_t n, size_t *groups)
{
	struct grouped *g = malloc((n ? n : 1) * sizeof(*g));
	double ss = 0;
	size_t df = 0;

	*groups = 0;
	if (!g)
		return NAN;
	for (size_t i = 0; i < n; i++)
		g[i] = (struct grouped){ group[i], v[i] };
	qsort(g, n, sizeof(*g), compare_group);
	for (size_t i = 0, j; i < n; i = j) {
		double mean = 0;

		for (j = i; j < n && g[j].group == g[i].group; j++)
			mean += g[j].v;
		mean /= (double)(j - i);
		for (size_t k = i; k < j; k++)
			ss += (g[k].v - mean) * (g[k].v - mean);
		df += j - i - 1;
		(*groups)++;
	}
	free(g);
	return df >= 2 ? ss / (double)df : NAN;
}

bool cbench_trial_disturbed(enum cbench_trial_cause cause)
{
	return cause == CBENCH_TRIAL_MOMENT || cause == CBENCH_TRIAL_CLOCK ||
	       cause == CBENCH_TRIAL_PART || cause == CBENCH_TRIAL_SHARED;
}

const char *cbench_trial_cause_name(int cause)
{
	static const char *const names[] = {
		[CBENCH_TRIAL_KEPT] = "kept", [CBENCH_TRIAL_SLOW] = "slow",
		[CBENCH_TRIAL_MOMENT] = "moment", [CBENCH_TRIAL_CLOCK] = "clock",
		[CBENCH_TRIAL_PART] = "part", [CBENCH_TRIAL_SHARED] = "shared",
	};

	return cause >= 0 && (size_t)cause < sizeof(names) / sizeof(names[0]) ? names[cause] : "?";
}

/*
 * One benchmark's median and noise, the largest of its trials' robust
 * spread, the noise between their halves and the floor, on the log scale;
 * v has room for n values.  Its trials' excess over the median goes into
 * obs.
 */
static double bench_noise(struct cbench_trial_obs *obs, size_t n, size_t bench, double *v)
{
	double median, noise = 0, halves;
	size_t k = 0, h = 0;

	for (size_t i = 0; i < n; i++)
		if (obs[i].bench == bench && obs[i].cause != CBENCH_TRIAL_SHARED)
			v[k++] = obs[i].log_ns;
	if (!k)
		return 0;
	median = cbench_stats_median(v, k);
	noise = cbench_trials_robust_sd(v, k);
	for (size_t i = 0; i < n; i++) {
		if (obs[i].bench != bench)
			continue;
		obs[i].excess = obs[i].log_ns - median;
		if (obs[i].cause == CBENCH_TRIAL_SHARED)
			continue;
		noise = fmax(noise, isnan(obs[i].floor) ? 0 : obs[i].floor);
		if (!isnan(obs[i].half_diff))
			v[h++] = obs[i].half_diff;
	}
	/* |h0 - h1| of a trial's halves: the trial's own noise is half its
	 * standard deviation, which is its median over 0.6745. */
	halves = h ? cbench_stats_median(v, h) / 0.6745 / 2 : 0;
	return fmax(noise, halves);
}

static bool slow(const struct cbench_trial_obs *o, double noise, double min)
{
	return o->excess > fmax(min, CBENCH_TRIAL_SLOW_SD * noise);
}

/*
 * Whether trial o is as fast beyond its benchmark's noise as a slow one must
 * be slow to be suspect, with its core clock higher than the run's by at
 * least a third of that: the clock, not the code, made it fast.
 */
static bool fast_by_clock(const struct cbench_trial_obs *o, double noise, double clock)
{
	return -o->excess > fmax(CBENCH_TRIAL_SLOW_MIN, CBENCH_TRIAL_SLOW_SD * noise) &&
	       !isnan(o->core_ghz) && log(o->core_ghz / clock) > -o->excess / 3;
}

/* How many trials of other benchmarks ran beside trial i and were slow too. */
static size_t slow_beside(const struct cbench_trial_obs *obs, size_t n, size_t i,
			  const double *noise)
{
	double len = obs[i].end_s - obs[i].start_s, from = obs[i].start_s - len,
	       to = obs[i].end_s + len;
	size_t count = 0;

	for (size_t j = 0; j < n; j++) {
		const struct cbench_trial_obs *o = &obs[j];

		if (o->bench == obs[i].bench || o->end_s < from || o->start_s > to)
			continue;
		/* Slow too, by half as much as it would need to be suspect. */
		if (o->excess > fmax(CBENCH_TRIAL_SLOW_MIN / 2, CBENCH_TRIAL_SLOW_SD / 2 * noise[o->bench]))
			count++;
	}
	return count;
}

/* The median core clock of the trials that have one; NAN if none. */
static double median_clock(const struct cbench_trial_obs *obs, size_t n, double *v)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (!isnan(obs[i].core_ghz) && obs[i].cause != CBENCH_TRIAL_SHARED)
			v[k++] = obs[i].core_ghz;
	return k ? cbench_stats_median(v, k) : NAN;
}

/* Where cpu's entry is among the n of w (n if none): a run measures on a
 * few CPUs. */
static size_t widest_of(const struct cbench_core_width *w, size_t n, int cpu)
{
	size_t i = 0;

	while (i < n && w[i].cpu != cpu)
		i++;
	return i;
}

/* cbench_trials_mark_shared() with room in w for n + nknown entries. */
static size_t shared(struct cbench_trial_obs *obs, size_t n, const struct cbench_core_width *known,
		     size_t nknown, struct cbench_core_width *w)
{
	size_t count = 0, nw = 0, at;

	for (size_t i = 0; i < n + nknown; i++) {
		int cpu = i < n ? obs[i].cpu : known[i - n].cpu;
		double width = i < n ? obs[i].width : known[i - n].width;

		if (!(width > 0))
			continue;
		at = widest_of(w, nw, cpu);
		if (at == nw)
			w[nw++] = (struct cbench_core_width){ cpu, width };
		else
			w[at].width = fmax(w[at].width, width);
	}
	for (size_t i = 0; i < n; i++) {
		if (!(obs[i].width > 0))
			continue;
		at = widest_of(w, nw, obs[i].cpu);
		if (obs[i].width < w[at].width * (1 - CBENCH_TRIAL_SHARED_MIN)) {
			obs[i].cause = CBENCH_TRIAL_SHARED;
			count++;
		}
	}
	return count;
}

size_t cbench_trials_mark_shared(struct cbench_trial_obs *obs, size_t n,
				 const struct cbench_core_width *known, size_t nknown)
{
	struct cbench_core_width *w = malloc((n + nknown + 1) * sizeof(*w));
	size_t count = w ? shared(obs, n, known, nknown, w) : 0;

	free(w);
	return count;
}

size_t cbench_trials_classify(struct cbench_trial_obs *obs, size_t n, size_t nbench,
			      const struct cbench_core_width *known, size_t nknown)
{
	double *v = malloc((n ? n : 1) * sizeof(*v)), *noise = calloc(nbench ? nbench : 1,
								       sizeof(*noise));
	double clock;
	size_t disturbed = 0;

	for (size_t i = 0; i < n; i++) {
		obs[i].cause = CBENCH_TRIAL_KEPT;
		obs[i].excess = 0;
		obs[i].beside = 0;
	}
	if (!v || !noise) {
		free(v);
		free(noise);
		return 0;
	}
	disturbed = cbench_trials_mark_shared(obs, n, known, nknown);
	for (size_t b = 0; b < nbench; b++)
		noise[b] = bench_noise(obs, n, b, v);
	clock = median_clock(obs, n, v);
	for (size_t i = 0; i < n; i++) {
		struct cbench_trial_obs *o = &obs[i];

		if (o->bench >= nbench || o->cause == CBENCH_TRIAL_SHARED)
			continue;
		/* Fast by the clock: a boost, which moved this trial alone. */
		if (fast_by_clock(o, noise[o->bench], clock)) {
			o->cause = CBENCH_TRIAL_CLOCK;
			disturbed++;
			continue;
		}
		if (!slow(o, noise[o->bench], CBENCH_TRIAL_SLOW_MIN))
			continue;
		o->beside = slow_beside(obs, n, i, noise);
		if (o->beside)
			o->cause = CBENCH_TRIAL_MOMENT;
		else if (!isnan(o->core_ghz) && log(clock / o->core_ghz) > o->excess / 3)
			o->cause = CBENCH_TRIAL_CLOCK;
		else if (!isnan(o->half_diff) && o->half_diff > o->excess / 3)
			o->cause = CBENCH_TRIAL_PART;
		else
			o->cause = CBENCH_TRIAL_SLOW;
		disturbed += cbench_trial_disturbed(o->cause);
	}
	free(v);
	free(noise);
	return disturbed;
}
