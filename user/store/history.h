/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A store's series, analysed: each series (one benchmark of one object on
 * one machine and backend, one metric) read from the store and its change
 * points found (stats/changepoint.h) over the logs of its runs' headlines,
 * each weighed by the run's own uncertainty; for each change point, the
 * commits between the last run before it and the first after it that no
 * run measured, and the one to measure next to narrow it down.
 */
#ifndef _CBENCH_STORE_HISTORY_H
#define _CBENCH_STORE_HISTORY_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>

#include "report/report_history.h"
#include "stats/changepoint.h"

struct cbench_store_series;

/* Which series: NULL (or -1) for any. */
struct cbench_history_select {
	const char *machine, *object, *backend;
	const regex_t *filter;		/* on the benchmark's name */
	/*
	 * enum cbench_metric, or -1: est-cycles where every run of the
	 * series has it (it cancels a core clock that moves between runs,
	 * which time per op follows), else ns.
	 */
	int metric;
	/* The gate (report_history.h): asked when fail_on is "slower" or
	 * "changed"; the newest work is after order since (-1: the runs at
	 * each series' newest order). */
	const char *fail_on;
	/* --since: an order, or a commit of some run of the store (its
	 * order); NULL: the newest order of each series */
	const char *since;
	double min_effect;		/* the gate's bound, a fraction */
};

/*
 * Whether a benchmark's name in the store ("Hash/algo=xxh3") matches re in
 * any form --filter takes elsewhere: that name, the Go report's
 * ("BenchmarkHash/algo=xxh3"), or the object's own ("hash/algo=xxh3": the
 * camel-case name back in snake case).
 */
bool cbench_history_name_matches(const regex_t *re, const char *name);


/*
 * The gate of series hs asked again once --confirm's audits have spoken:
 * the change points an audit refuted (it called them equivalent, or the
 * other way) are left out, so that a refuted change at the newest run does
 * not hide the confirmed one before it.  since: the history's.  0 or
 * -ENOMEM.
 */
int cbench_history_regate(struct cbench_history_series *hs, const struct cbench_history_select *sel,
			  long long since, const struct cbench_cp_params *p);

/* A history with the series it points into. */
/* history's detector as `cbenchctl history` runs it by default. */
#define CBENCH_HISTORY_PARAMS_DEFAULT \
	{ .window = CBENCH_CP_WINDOW, .max_p = CBENCH_CP_MAX_P, .min_effect = 0.002, .confidence = 0.99 }

struct cbench_store_history {
	struct cbench_history h;
	struct cbench_store_series *series;
	size_t nseries;
};

/*
 * Reads the store at path (read-only) and analyses the series sel picks
 * with p into out->h, and the gate's question where sel asks it.  0, or
 * -errno with why in err (the store's errors; -EINVAL for p out of range;
 * -ENOENT for a --since that is neither a commit of the store nor an
 * order).
 */
int cbench_store_history(const char *path, const struct cbench_history_select *sel,
			 const struct cbench_cp_params *p, struct cbench_store_history *out, char *err,
			 size_t errlen);
void cbench_store_history_free(struct cbench_store_history *sh);

#endif /* _CBENCH_STORE_HISTORY_H */
