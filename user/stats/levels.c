// SPDX-License-Identifier: GPL-2.0
/* est-cycles within one clock level; see levels.h. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/levels.h"
#include "stats/stats.h"

/* Whether reference i was taken right after measurement i, for every i. */
static bool interleaved(const struct cbench_level_point *bench, size_t nbench,
			const struct cbench_level_point *ref, size_t nref)
{
	size_t n = nbench < nref ? nbench : nref;

	if (!n)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (!bench[i].at || !ref[i].at || bench[i].at >= ref[i].at)
			return false;
		if (i && ref[i - 1].at >= bench[i].at)
			return false;
	}
	return true;
}

/* The value a steady pair of references gives its level: the less delayed. */
static double pair_level(const struct cbench_level_point *ref, size_t i)
{
	return fmin(ref[i - 1].ticks_per_rep, ref[i].ticks_per_rep);
}

/*
 * The measurements i (1 <= i < n) whose references on either side agree
 * within tol, into steady; how many.
 */
static size_t steady_at(const struct cbench_level_point *bench, const struct cbench_level_point *ref,
			size_t n, double ref_step, double tol, size_t *steady)
{
	size_t k = 0;

	for (size_t i = 1; i < n; i++) {
		double p = ref[i - 1].ticks_per_rep, q = ref[i].ticks_per_rep, lo = fmin(p, q);

		if (isnan(bench[i].ticks_per_rep) || isnan(p) || isnan(q) || !(lo > 0))
			continue;
		if (fabs(p - q) <= fmax(tol, 3 * ref_step / lo) * lo)
			steady[k++] = i;
	}
	return k;
}

/*
 * Drops from steady (k of them) the measurements that outran their
 * references: a measurement's ticks over its pair's level are its rate in
 * reference chains, the same at every clock level, and delays only raise
 * it; a value under the least that CBENCH_LEVELS_CONFIRM of them share
 * (within tol, or the two timers' rounding) comes from a measurement the
 * clock sped up for between one reference and the next, or from a pair a
 * tenant slowed alone.  Where no CBENCH_LEVELS_CONFIRM agree, keeps all.
 * How many are left; q and sorted are scratch of k values.
 */
static size_t outran_dropped(const struct cbench_level_point *bench, const struct cbench_level_point *ref,
			     size_t *steady, size_t k, double bench_step, double ref_step, double tol,
			     double *q, double *sorted)
{
	double slack, floor = NAN;
	size_t n = 0;

	for (size_t j = 0; j < k; j++)
		q[j] = bench[steady[j]].ticks_per_rep / pair_level(ref, steady[j]);
	memcpy(sorted, q, k * sizeof(*q));
	qsort(sorted, k, sizeof(*sorted), cbench_stats_compare);
	for (size_t j = 0; j + CBENCH_LEVELS_CONFIRM <= k; j++) {
		size_t last = j + CBENCH_LEVELS_CONFIRM - 1;

		slack = fmax(tol, 2 * (bench_step / bench[steady[0]].ticks_per_rep +
				       ref_step / pair_level(ref, steady[0])));
		if (sorted[last] <= sorted[j] * (1 + slack)) {
			floor = sorted[j];
			break;
		}
	}
	if (isnan(floor))
		return k;
	for (size_t j = 0; j < k; j++) {
		slack = fmax(tol, 2 * (bench_step / bench[steady[j]].ticks_per_rep +
				       ref_step / pair_level(ref, steady[j])));
		if (q[j] >= floor * (1 - slack))
			steady[n++] = steady[j];
	}
	return n;
}

/*
 * The clock levels among the k steady pairs' values v: the lowest value of
 * each core, a run of sorted values each within CBENCH_LEVELS_CORE (or
 * three timer steps) of the one before, of at least CBENCH_LEVELS_CORE_MIN
 * values and that share of the pairs.  A reference at a steady clock reads
 * the same to within the timer's rounding, so each level's undelayed
 * measurements make a core; delayed ones scatter above it.  Where no run
 * makes a core (few references, or a host whose chain is noisier than
 * that), the fastest value stands for one level.  Into floors (ascending);
 * how many.
 */
static size_t find_levels(const double *v, size_t k, double ref_step, double *sorted, double *floors)
{
	size_t need = (size_t)ceil(CBENCH_LEVELS_CORE_SHARE * (double)k), start = 0, n = 0;

	if (need < CBENCH_LEVELS_CORE_MIN)
		need = CBENCH_LEVELS_CORE_MIN;
	memcpy(sorted, v, k * sizeof(*v));
	qsort(sorted, k, sizeof(*sorted), cbench_stats_compare);
	for (size_t i = 1; i <= k; i++) {
		if (i < k && sorted[i] - sorted[i - 1] <=
			     fmax(3 * ref_step, CBENCH_LEVELS_CORE * sorted[i - 1]))
			continue;
		if (i - start >= need)
			floors[n++] = sorted[start];
		start = i;
	}
	/* No core: references too few or too noisy to show levels apart,
	 * though each steady measurement's two agree: one level. */
	if (!n && k)
		floors[n++] = sorted[0];
	return n;
}

/* The level a pair of value v belongs to: the slowest of the nlevels floors
 * at or under it (delays only add); -1 under the fastest. */
static int level_of(double v, const double *floors, size_t nlevels)
{
	int level = -1;

	for (size_t i = 0; i < nlevels && floors[i] <= v; i++)
		level = (int)i;
	return level;
}

/*
 * The steady measurements at the tightest tolerance that leaves need of
 * them (else at the loosest), those that outran their references left out,
 * into steady; how many, and the tolerance into *tol.  b and v: scratch.
 */
static size_t steadiest(const struct cbench_level_point *bench, const struct cbench_level_point *ref,
			size_t n, size_t need, double bench_step, double ref_step, size_t *steady,
			double *tol, double *b, double *v)
{
	static const double tolerances[] = CBENCH_LEVELS_TOLERANCES;
	size_t k = 0;

	for (size_t t = 0; t < sizeof(tolerances) / sizeof(tolerances[0]); t++) {
		*tol = tolerances[t];
		k = steady_at(bench, ref, n, ref_step, *tol, steady);
		if (k >= need)
			break;
	}
	if (k < CBENCH_LEVELS_CONFIRM)
		return k;
	return outran_dropped(bench, ref, steady, k, bench_step, ref_step, *tol, b, v);
}

int cbench_levels_match(const struct cbench_level_point *bench, size_t nbench,
			const struct cbench_level_point *ref, size_t nref, double bench_step,
			double ref_step, struct cbench_levels *l)
{
	size_t n = nbench < nref ? nbench : nref, k = 0, need, nr = 0, nf = 0;
	double *b, *r, *v, *floors, level;
	size_t *steady;
	int ret = 0;

	*l = (struct cbench_levels){ .bench_ticks = NAN, .ref_ticks = NAN, .tolerance = NAN };
	for (size_t i = 0; i < nbench; i++)
		l->valid += !isnan(bench[i].ticks_per_rep);
	for (size_t i = 1; i < nref; i++) {
		double p = ref[i - 1].ticks_per_rep, q = ref[i].ticks_per_rep;

		l->jumps += !isnan(p) && !isnan(q) && fabs(p - q) > CBENCH_LEVELS_JUMP * fmin(p, q);
	}
	if (!interleaved(bench, nbench, ref, nref))
		return -ENODATA;
	if (l->valid < 2 * CBENCH_LEVELS_MIN)
		return -EDOM;
	need = (size_t)ceil(CBENCH_LEVELS_MIN_SHARE * (double)l->valid);
	if (need < CBENCH_LEVELS_MIN)
		need = CBENCH_LEVELS_MIN;
	steady = malloc((n + 1) * sizeof(*steady));
	b = malloc((n + 1) * sizeof(*b));
	r = malloc((nref + 1) * sizeof(*r));
	v = malloc((n + 1) * sizeof(*v));
	floors = malloc((n + 1) * sizeof(*floors));
	if (!steady || !b || !r || !v || !floors) {
		ret = -ENOMEM;
		goto out;
	}
	k = steadiest(bench, ref, n, need, bench_step, ref_step, steady, &l->tolerance, b, v);
	/* Fewer than hoped even at the loosest: a floor of a few still
	 * comes from one level; under CBENCH_LEVELS_FEWEST, none does. */
	l->matched = k;
	if (k < CBENCH_LEVELS_FEWEST) {
		ret = -ERANGE;
		goto out;
	}
	/*
	 * The benchmark's floor over its steady measurements, and the clock
	 * level of its fastest ones (within the tolerance of its least): the
	 * references around them.
	 * The reference's floor is taken over every reference but those faster
	 * than that level: a fast moment the benchmark never saw steadily
	 * cannot set it, and whatever slowed the chain alone (a delay, another
	 * tenant contending for the core's ALUs, which a level cannot tell from
	 * a slower clock) is left out by the floor as ever.
	 */
	for (size_t j = 0; j < k; j++) {
		b[j] = bench[steady[j]].ticks_per_rep;
		v[j] = pair_level(ref, steady[j]);
	}
	l->bench_ticks = cbench_stats_floor_mean(b, k, bench_step);
	for (size_t j = 0; j < k; j++)
		if (b[j] <= fmax(cbench_stats_min(b, k) * (1 + l->tolerance),
				 cbench_stats_min(b, k) + 1.5 * bench_step))
			floors[nf++] = v[j];
	/* The second fastest of their levels: one measurement of a fast
	 * stretch delayed by an interrupt as far as the slow level's floor
	 * would otherwise let the fast references in. */
	qsort(floors, nf, sizeof(*floors), cbench_stats_compare);
	level = floors[nf > 1 ? 1 : 0];
	for (size_t i = 0; i < nref; i++)
		if (!isnan(ref[i].ticks_per_rep) &&
		    ref[i].ticks_per_rep >= level * (1 - fmax(l->tolerance, 3 * ref_step / level)))
			r[nr++] = ref[i].ticks_per_rep;
	l->ref_ticks = cbench_stats_floor_mean(r, nr, ref_step);
	/* What the trial saw, for the report. */
	l->levels = find_levels(v, k, ref_step, b, floors);
	l->moved = floors[l->levels - 1] / floors[0] - 1;
out:
	free(steady);
	free(b);
	free(r);
	free(v);
	free(floors);
	return ret;
}

/*
 * The floor mean of the pairs' references at level lv (of floors): the
 * clock the level ran at, in ticks per reference rep.
 */
static double level_ticks(const double *r, const size_t *steady, size_t k, const double *floors,
			  size_t nlevels, int lv, double ref_step, double *v)
{
	size_t n = 0;

	for (size_t j = 0; j < k; j++) {
		size_t g = steady[j];

		if (level_of(fmin(r[g - 1], r[g]), floors, nlevels) != lv)
			continue;
		v[n++] = r[g - 1];
		v[n++] = r[g];
	}
	return cbench_stats_floor_mean(v, n, ref_step);
}

int cbench_levels_of_groups(const double *r, size_t nref, double ref_step, double *clock)
{
	static const double tolerances[] = CBENCH_LEVELS_TOLERANCES;
	size_t ngroups = nref ? nref - 1 : 0, k = 0, nlevels;
	size_t *steady = malloc((nref + 1) * sizeof(*steady));
	double *v = malloc(2 * (nref + 1) * sizeof(*v)), *sorted = malloc((nref + 1) * sizeof(*sorted));
	double *floors = malloc((nref + 1) * sizeof(*floors)), *at = malloc((nref + 1) * sizeof(*at));
	int ret = 0;

	for (size_t g = 0; g < ngroups; g++)
		clock[g] = NAN;
	if (!steady || !v || !sorted || !floors || !at) {
		ret = -ENOMEM;
		goto out;
	}
	for (size_t t = 0; t < sizeof(tolerances) / sizeof(tolerances[0]); t++) {
		k = 0;
		for (size_t g = 1; g < nref; g++) {
			double p = r[g - 1], q = r[g], lo = fmin(p, q);

			if (!isnan(p) && !isnan(q) && lo > 0 &&
			    fabs(p - q) <= fmax(tolerances[t], 3 * ref_step / lo) * lo)
				steady[k++] = g;
		}
		if (k * 2 >= ngroups)
			break;
	}
	if (!k) {
		ret = -ERANGE;
		goto out;
	}
	for (size_t j = 0; j < k; j++)
		v[j] = fmin(r[steady[j] - 1], r[steady[j]]);
	nlevels = find_levels(v, k, ref_step, sorted, floors);
	for (size_t i = 0; i < nlevels; i++)
		at[i] = level_ticks(r, steady, k, floors, nlevels, (int)i, ref_step, v);
	for (size_t j = 0; j < k; j++) {
		size_t g = steady[j];
		int lv = level_of(fmin(r[g - 1], r[g]), floors, nlevels);

		if (lv >= 0)
			clock[g - 1] = at[lv];
	}
	/* One level all along: references that disagree beside a group were
	 * delayed, for no other level was seen; the group ran at the one. */
	for (size_t g = 0; nlevels == 1 && g < ngroups; g++)
		if (isnan(clock[g]))
			clock[g] = at[0];
out:
	free(steady);
	free(v);
	free(sorted);
	free(floors);
	free(at);
	return ret;
}
