/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `cbenchctl history`: what it found in a store's series, and the writers
 * that print it (report_history.c: text, JSON and Otava's CSV;
 * plot_history.c: an HTML page with a plot per series).  Writers only
 * format: the series come from the store, their change points from
 * stats/changepoint.h, the confirmations from audits.
 */
#ifndef _CBENCH_REPORT_HISTORY_H
#define _CBENCH_REPORT_HISTORY_H

#include <stdbool.h>
#include <stdio.h>

#include "stats/changepoint.h"

/* One run of a series; the strings belong to whoever read the store. */
struct cbench_history_point {
	long long run, order;
	const char *commit, *build_id, *date;
	const char *copy;		/* the object kept for it; NULL if none */
	double value;			/* the headline, in the series' unit */
	double u;			/* its relative standard uncertainty; NAN unknown */
};

enum cbench_confirmation {
	CBENCH_CONFIRM_NOT_ASKED,
	CBENCH_CONFIRM_YES,		/* the audit called it, the same way */
	CBENCH_CONFIRM_NO,		/* it did not, or could not be run (reason) */
};

struct cbench_history_change {
	/* cp.index: the first run after the change; cp.last: the last run
	 * before it (the runs between, if any, too noisy to tell their side) */
	struct cbench_cp cp;
	/* Orders strictly between the last run before and the first after,
	 * where the change may be: commits no run measured (untested), and
	 * runs between measured too noisily to place (unclear). */
	long long untested;
	size_t unclear;
	long long next_order;		/* the one to measure next (bisection); -1: none */
	const char *next_commit;	/* its commit, where --commits names it; else NULL */
	enum cbench_confirmation confirm;
	/* The audit of the kept objects (A before, B after), when it ran:
	 * its verdict word and its change with interval, in percent. */
	char verdict[16];
	double audit_change, audit_lower, audit_upper;
	char reason[400];		/* why not confirmed; "" otherwise */
};

/*
 * The gate's question for one series (history --fail-on): is its newest
 * work slower than what came before it?  The newest work is the runs at
 * the newest order, or every run after --since; its level is that of the
 * series' last segment where a change point lies within it (a slowdown
 * later undone is gone by then), else its runs'.  It is compared with the
 * runs before it of the segment the last run before it belongs to, by the
 * weighted t test, and answered by cbench_change_gate() (stats/change.h).
 */
struct cbench_history_gate {
	bool asked;			/* the series has runs in the newest work */
	size_t before_a, before_b;	/* the runs before: [before_a, before_b) */
	size_t after_a;			/* the newest level: [after_a, npoints) */
	struct cbench_cp test;		/* change, lower, upper, p of after against before */
	int answer;			/* enum cbench_gate_answer */
	const char *why;		/* why undecided, in a few words; NULL otherwise */
};

struct cbench_history_series {
	const char *machine, *cpu, *backend, *object, *name;
	const char *metric, *unit;	/* "est-cycles", "est-cycles/op" */
	struct cbench_history_point *points;
	size_t npoints;
	struct cbench_history_change *changes;
	size_t nchanges;
	/* Runs read apart from the runs on both sides (or the first from all
	 * after it), set aside before the search (cbench_cp_detect()):
	 * cp.index the run, cp.change its difference from the level around
	 * it.  Not change points: one run cannot tell a commit's change from
	 * a moment of the host; a second run of its commit can. */
	struct cbench_cp *excursions;
	size_t nexcursions;
	double between_sd;		/* relative sd between runs beyond their own (tau) */
	struct cbench_history_gate gate;
};

struct cbench_history {
	const char *store;
	struct cbench_cp_params params;
	bool confirm;			/* --confirm asked */
	const char *fail_on;		/* "slower", "changed" or NULL: the gate asked */
	long long since;		/* the newest work is after this order; -1: the newest order */
	struct cbench_history_series *series;
	size_t nseries;
};

/* Counts of a history: change points, confirmed ones, confirmed slowdowns. */
void cbench_history_count(const struct cbench_history *h, size_t *changes, size_t *confirmed,
			  size_t *slower);

/* Each returns 0 or -EIO (the stream's error). */
int cbench_history_report_text(const struct cbench_history *h, FILE *f);
int cbench_history_report_json(const struct cbench_history *h, FILE *f);
/*
 * Otava's CSV (its docs/CSV.md): time,commit,order, then a column per
 * series ("Chain:est-cycles"), a row per run in order.  It holds one
 * object on one machine and backend: -EINVAL when h holds more (the
 * caller chooses).
 */
int cbench_history_report_csv(const struct cbench_history *h, FILE *f);
/* An HTML page: a plot per series, its change points marked. */
int cbench_history_report_html(const struct cbench_history *h, FILE *f);

#endif /* _CBENCH_REPORT_HISTORY_H */
