/* SPDX-License-Identifier: GPL-2.0 */
/* `cbenchctl compare`: what the comparer (cmd/compare.c) hands its JSON report (report_compare.c). */
#ifndef _CBENCH_REPORT_COMPARE_H
#define _CBENCH_REPORT_COMPARE_H

#include <stdbool.h>
#include <stdio.h>

#include "report/runs.h"
#include "stats/change.h"

/* One row of a comparison: a benchmark on both sides, and its change. */
struct cbench_compare_row {
	const struct cbench_series *old, *new;	/* of the metric that judged */
	int metric;				/* enum cbench_metric */
	double old_ghz, new_ghz;		/* the sides' core clocks; NAN unknown */
	struct cbench_change change;
};

/* "slower", "faster", "equal", "unsettled", "none" or "undecided". */
const char *cbench_compare_verdict_name(enum cbench_change_verdict v);

/*
 * The comparison as JSON: the smallest change that counts and the
 * confidence, a member per row in the order given (the metric that judged
 * it, each side's geometric mean of its runs' values of it and their core
 * clock, their runs, the change with its interval and p
 * in percent, where known, the verdict, and "under_min_effect": "slower"
 * or "faster" where --min-effect alone made it equal), then the benchmarks
 * of one side only.  0, or -EIO.
 */
int cbench_compare_report_json(FILE *f, const struct cbench_compare_row *rows, size_t n,
			       const struct cbench_runs *old, const struct cbench_runs *new, double min_effect);

/* compare's gate (--fail-on, --undecided), for the JUnit report. */
struct cbench_compare_gate {
	bool slower, faster;		/* a row so fails it */
	bool undecided_pass;		/* a row it could not judge passes it */
	double min_effect;		/* a fraction */
};

/*
 * The comparison as JUnit XML (Jenkins, GitLab): a <testsuite> "compare",
 * a <testcase> per row with its figures as properties; a row that fails
 * the gate a <failure> of type "slower" or "faster", one the gate could
 * not judge (one run a side, an interval across --min-effect) a <failure>
 * of type "undecided", or
 * <skipped> under --undecided pass; without a gate, none fails.  The
 * benchmarks of one side only are <skipped> cases.  0, or -EIO.
 */
int cbench_compare_report_junit(FILE *f, const struct cbench_compare_row *rows, size_t n,
				const struct cbench_runs *old, const struct cbench_runs *new,
				double min_effect, const struct cbench_compare_gate *gate);

#endif /* _CBENCH_REPORT_COMPARE_H */
