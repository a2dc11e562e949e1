/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a run found, and the writers that print it: one file per format
 * (report_go.c, results/doc_write.c, report_csv.c, report_table.c, report_lnt.c,
 * report_bmf.c).  Writers only format; every number is computed by
 * cbench_report_summarize(), and the figures a trial carries are named in
 * figures.h, which every writer loops over.
 */
#ifndef _CBENCH_REPORT_H
#define _CBENCH_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "report/model.h"

/* Fills the derived fields of every trial and result. */
void cbench_report_summarize(struct cbench_report *r);

/* The result of r whose benchmark's id is id, or NULL. */
const struct cbench_result *cbench_report_find(const struct cbench_report *r, const char *id);

/* ns per op of one sample under the report's timer. */
double cbench_sample_ns_per_op(const struct cbench_report *r, const struct cbench_experiment *e,
			       const struct cbench_sample *s);

/* A perturb score above this is reported (Lau et al., section 6.1). */
#define CBENCH_TP_PERTURB_MAX 1.0

/* The "tpoints" member of a JSON report (tpoints_json.c): a run's, an audit's. */
struct cbench_jsonw;
void cbench_report_json_tp(struct cbench_jsonw *j, const char *key, const struct cbench_tp_summary *s,
			   double tsc_hz);

/* Human description of a disturbance bit set, e.g. "context-switch". */
const char *cbench_disturb_name(uint32_t disturbed);

/* Each returns 0 or -errno (from the stream's error state). */
int cbench_report_go(const struct cbench_report *r, FILE *f);
/* The JSON report is results/doc_write.h's: written beside its reader. */

/* What an LNT report says beside the run: the machine's name and the run's order. */
struct cbench_lnt_run {
	const char *machine;		/* NULL: the host's name */
	const char *order;		/* NULL: the start's date and time, digits only */
};

/*
 * An LNT report (format version 2) of the "cbench" test suite
 * (docs/lnt/cbench.yaml): report_lnt.c.  Bencher Metric Format: report_bmf.c.
 */
int cbench_report_lnt(const struct cbench_report *r, const struct cbench_lnt_run *l, FILE *f);
int cbench_report_bmf(const struct cbench_report *r, FILE *f);
int cbench_report_csv(const struct cbench_report *r, FILE *f);
/* JUnit XML (tests/schema/junit.xsd): a test suite, a case per benchmark. */
int cbench_report_junit(const struct cbench_report *r, FILE *f);
void cbench_report_table(const struct cbench_report *r, FILE *f, bool colour);
/* The table in parts, for a run that prints each row as its benchmark
 * finishes (the row wants the result summarized first). */
void cbench_report_table_head(const struct cbench_report *r, FILE *f, bool colour);
void cbench_report_table_row(const struct cbench_report *r, const struct cbench_result *res, FILE *f,
			     bool colour);
void cbench_report_table_foot(const struct cbench_report *r, FILE *f, bool colour);

/* ns scaled to ns, µs, ms or s with five significant digits ("40.756 µs"),
 * "-" for NAN; returns buf. */
const char *cbench_scale_ns(double ns, char *buf, size_t len);

/* "SIGINT" for SIGINT, "signal 42" for one without a name; returns buf. */
const char *cbench_signal_name(int sig, char *buf, size_t len);

/* Summarizes one result (as cbench_report_summarize does every one). */
void cbench_report_summarize_one(struct cbench_report *r, struct cbench_result *res);

/*
 * Between rounds of a run (run --precision): every result's figures over
 * the trials measured so far, each trial summarized once, the trials
 * classified once; the run's own figures are left for
 * cbench_report_summarize() at the end.
 */
void cbench_report_summarize_round(struct cbench_report *r);

/* How many trials res keeps: measured, neither failed nor set aside. */
size_t cbench_result_kept(const struct cbench_result *res);

/* How many of res's trials its rounds measured: not those measured again
 * in place of disturbed ones, nor the trial alone after --precision's
 * rounds on several CPUs. */
size_t cbench_result_rounds(const struct cbench_result *res);

/* enum cbench_stop's names in reports ("precise", "most", "budget"), and in words. */
extern const char *const cbench_stop_names[];
const char *cbench_stop_text(const struct cbench_result *res, char *buf, size_t len);

/*
 * What the arena of res got, for reports: "base pages", "huge pages",
 * "huge pages for 37% of it", or "" without an arena; with what was asked
 * for when it differs ("asked for huge pages: base pages").
 */
const char *cbench_arena_pages_text(const struct cbench_result *res, char *buf, size_t len);

/* Whether to colour what goes to fd: a terminal, and NO_COLOR unset or
 * empty (no-color.org). */
bool cbench_colour(int fd);

/* The Go format's rules, for writers and tests. */
bool cbench_go_valid_key(const char *key);

/*
 * A Go report's "# <name>: one timer step is <pct>% of a measurement" (or
 * "of a call") comment, which report_go.c writes after a benchmark's result
 * lines: its name into name (len bytes at most, cut), the step's share of a
 * measurement into *share (a fraction); false for any other line.
 */
bool cbench_go_step_share(const char *line, char *name, size_t len, double *share);

#endif /* _CBENCH_REPORT_H */
