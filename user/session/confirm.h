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
 * The audit is the command's to run (o->audit: history's calls audit in
 * this process), so it is audit's code path, options and verdict.
 */
#ifndef _CBENCH_CONFIRM_H
#define _CBENCH_CONFIRM_H

#include <stdbool.h>
#include <stddef.h>

struct cbench_history_series;
struct cbench_history_change;

/* What the audit of a change point's two sides said. */
struct cbench_confirm_audit {
	char verdict[16];		/* audit's name for it: "slower", ..., "failed" */
	double change, lower, upper;	/* B against A, percent */
	char error[640];		/* a failed audit's reason */
	bool ran;			/* an audit ran and said the above */
};

struct cbench_confirm_options;

/*
 * Audits b against a, two objects, for the one benchmark filter (audit's
 * --filter) selects, in backend ("user" or "kmod"), with o's settings:
 * 0 with *v set, or -1 when no audit could run (its reason in v->error).
 */
typedef int (*cbench_confirm_audit_fn)(const struct cbench_confirm_options *o, const char *backend,
				       const char *filter, const char *a, const char *b,
				       struct cbench_confirm_audit *v);

struct cbench_confirm_options {
	double min_effect_pct;		/* audit --min-effect */
	double confidence;		/* audit --confidence */
	double budget_s;		/* audit --budget */
	int cpu;			/* audit --cpu; -1 audit's default */
	const char *dir;		/* where objects kept in the store are taken to */
	const char *store;		/* the store: its objects kept as "store:ID" */
	cbench_confirm_audit_fn audit;
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
