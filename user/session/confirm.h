/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Confirming a change point of a history (report/report_history.h) by measuring
 * again: `cbenchctl audit` of the objects kept for the last run before it
 * (A) and the first run after it (B), on this machine, placements drawn
 * anew every round (audit's default), for that one benchmark.  The change
 * is confirmed only if the audit calls B slower where the series went up,
 * or faster where it went down; equivalent, inconclusive, the other way,
 * or no audit at all (no object kept, the same build on both sides, a
 * failed audit) leave it not confirmed, with the reason.
 *
 * The audit is this cbenchctl run again (cbench_session_run_self), so it is
 * audit's code path, options and report, read back from its JSON.
 */
#ifndef _CBENCH_CONFIRM_H
#define _CBENCH_CONFIRM_H

#include <stddef.h>

struct cbench_history_series;
struct cbench_history_change;

struct cbench_confirm_options {
	double min_effect_pct;		/* audit --min-effect */
	double confidence;		/* audit --confidence */
	double budget_s;		/* audit --budget */
	int cpu;			/* audit --cpu; -1 audit's default */
	const char *dir;		/* where the audits' reports and logs go */
	const char *store;		/* the store: its objects kept as "store:ID" */
};

/*
 * Confirms change c of series s (c's confirm, verdict, audit figures and
 * reason set).  Returns 0, or 1 when an audit ran and failed (a crash, an
 * object that does not load: c says why), which the caller counts as a
 * failure.
 */
int cbench_session_confirm(const struct cbench_confirm_options *o,
			   const struct cbench_history_series *s, struct cbench_history_change *c,
			   size_t serial);

#endif /* _CBENCH_CONFIRM_H */
