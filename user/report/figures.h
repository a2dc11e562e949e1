/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The figures a trial carries, by name: one row of cbench_figures[] each
 * (figures.c), which every writer loops over, as Google Benchmark's
 * reporters loop over a run's user counters.  A new per-trial figure is a
 * value its worker measures (worker/results.h) and a row here, with its way
 * out (get) and in (set); no writer or reader names it.
 *
 * A writer takes the figures it shows in their order:
 *
 *	for (const struct cbench_figure *f = NULL; (f = cbench_figure_next(f, CBENCH_SHOW_GO));)
 *		if (f->get(trial, &v)) ...
 */
#ifndef _CBENCH_REPORT_FIGURES_H
#define _CBENCH_REPORT_FIGURES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cbench_trial;
struct cbench_result;
struct cbench_experiment;

/* The writers that show a figure: one bit each. */
enum {
	CBENCH_SHOW_GO = 1u << 0,	/* a `value unit` pair on the trial's result line */
	CBENCH_SHOW_JSON = 1u << 1,	/* a member of the trial, named by its name */
	CBENCH_SHOW_LNT = 1u << 2,	/* a metric (.lnt): the kept trials', times 1000 */
	CBENCH_SHOW_LNT_ESTIMATE = 1u << 3, /* and the result's, as "<.lnt>_estimate" */
	CBENCH_SHOW_BMF = 1u << 4,	/* a measure (.bmf): the result's, the trials' range */
	CBENCH_SHOW_TABLE = 1u << 5,	/* a column (.column): the result's */
	CBENCH_SHOW_CSV = 1u << 6,	/* a column (.csv): the counter's count in each measurement */
};

/* How a value is written. */
enum cbench_figure_style {
	CBENCH_FIGURE_VALUE,		/* six significant digits (Go), five (table) */
	CBENCH_FIGURE_COUNT,		/* a count: whole where it is whole, as `go test -benchmem` */
	CBENCH_FIGURE_RATE,		/* MB/s: the table scales it to GB/s */
};

struct cbench_figure {
	const char *name;		/* its name, and its JSON member: "cycles_per_op" */
	const char *unit;		/* its unit in the Go format: "cycles/op" */
	unsigned int show;		/* CBENCH_SHOW_* */
	const char *lnt;		/* LNT's metric, per 1000 ops (or ps): "cycles_per_kop" */
	const char *bmf;		/* Bencher's measure: "cycles" */
	const char *column;		/* the table's column title */
	const char *csv;		/* the CSV's column */
	enum cbench_figure_style style;
	/* The hardware counter it is read from (CBENCH_HAVE_*), 0 if none: a
	 * trial without the counter has no such figure, and LNT and BMF list
	 * the counters' figures after the others. */
	uint32_t counter;
	/* The headline: its result has an interval (ns_lo, ns_hi). */
	bool headline;
	/* Whether the trial (not failed) measured it, and its value, which
	 * may then be NAN (the JSON's null). */
	bool (*get)(const struct cbench_trial *t, double *value);
	/* The way back in: the trial's value as a report has it (NAN for
	 * null), for a reader of the trial's JSON member (results/bench_read.c);
	 * every figure JSON writes has one, or a resumed run loses it. */
	void (*set)(struct cbench_trial *t, double value);
	/* The result's: the median of its kept trials'; NULL: none. */
	double (*result)(const struct cbench_result *res);
	/* Whether a benchmark can have it, for the table's columns; NULL: any. */
	bool (*applies)(const struct cbench_experiment *e);
};

/*
 * What a benchmark is judged by (the --metric of compare, plot and history,
 * and what the store keeps), by name: "ns", "est-cycles", "instructions",
 * "cycles", "ref-cycles"; their units per op ("ns/op", ...) and the JSON
 * member of a trial that holds each ("ns_per_op", ...).
 */
enum cbench_metric {
	CBENCH_METRIC_NS,		/* ns per op: wall time, which follows the core clock */
	CBENCH_METRIC_EST_CYCLES,	/* core cycles per op against the reference chain */
	CBENCH_METRIC_INSTRUCTIONS,	/* per op, where the counters measured */
	CBENCH_METRIC_CYCLES,
	CBENCH_METRIC_REF_CYCLES,
	CBENCH_METRICS,
};

extern const char *const cbench_metric_names[CBENCH_METRICS + 1];	/* NULL-ended */
extern const char *const cbench_metric_units[CBENCH_METRICS];
extern const char *const cbench_metric_members[CBENCH_METRICS];

/* The metric of a name ("est-cycles", or its unit "est-cycles/op"), or -1. */
int cbench_metric_of(const char *name);

/* The figure a metric reads (its row of cbench_figures[] below): a trial's
 * value by cbench_figure_value(), a result's by its result(). */
struct cbench_figure;
const struct cbench_figure *cbench_metric_figure(enum cbench_metric m);

extern const struct cbench_figure cbench_figures[];
extern const unsigned int cbench_nfigures;

/*
 * The figure after prev (NULL: the first) that the writer show (one
 * CBENCH_SHOW_* bit) shows, NULL after the last: in the order of
 * cbench_figures[], except that LNT's and BMF's reports list the counters'
 * figures last, as they always have.
 */
const struct cbench_figure *cbench_figure_next(const struct cbench_figure *prev, unsigned int show);

/* f's value in trial t; NAN if t failed or did not measure it. */
double cbench_figure_value(const struct cbench_figure *f, const struct cbench_trial *t);

/* f's finite values in res's kept trials (neither failed nor set aside),
 * at most max of them, into v; how many.  res NULL: none. */
size_t cbench_figure_kept(const struct cbench_figure *f, const struct cbench_result *res, double *v,
			  size_t max);

/*
 * The members of a benchmark's result in a JSON run report, in the order
 * they are written, one row each (result_figures.c), as the trial's figures
 * are above: the JSON writer (results/doc_write.c), its reader
 * (results/bench_read.c) and the JUnit report's properties loop over them.
 * A new result-level figure is a field of struct cbench_result and a row;
 * no writer or reader names it.  Its name, identity and trials are the
 * writers' own (they are no figures).
 */
enum cbench_member_kind {
	CBENCH_MEMBER_NUMBER,		/* a double: null where not finite */
	CBENCH_MEMBER_MAYBE,		/* a double: absent where NAN (not measured) */
	CBENCH_MEMBER_PERCENT,		/* a fraction, in percent: absent where NAN */
	CBENCH_MEMBER_SD_PERCENT,	/* a variance, as its standard deviation in percent */
	CBENCH_MEMBER_COUNT,		/* a size_t */
	CBENCH_MEMBER_COUNT64,		/* a uint64_t */
	CBENCH_MEMBER_FLAG,		/* a bool */
	CBENCH_MEMBER_TEXT,		/* a char array: absent where empty (or where .when says) */
	CBENCH_MEMBER_WORD,		/* a word the writer forms (.word): not read back */
	CBENCH_MEMBER_STOPPED,		/* where --precision stopped it: an object */
	CBENCH_MEMBER_ARENA_PAGES,	/* its arena's pages: formed, read back as TEXT */
};

struct cbench_result_member {
	const char *name;		/* its JSON member, and JUnit property */
	enum cbench_member_kind kind;
	size_t offset;			/* of its field in struct cbench_result */
	size_t size;			/* of a TEXT field */
	unsigned int show;		/* CBENCH_SHOW_JUNIT: a property there too */
	/* A counter's figure (CBENCH_HAVE_*): written where the result has
	 * the counter; read back, it sets the counter's bit in have. */
	uint32_t counter;
	/* Whether it is written, beyond its kind's rule; NULL: always.  jobs:
	 * the run's CPUs at once. */
	bool (*when)(const struct cbench_result *res, size_t jobs);
	const char *(*word)(const struct cbench_result *res);	/* a WORD's */
};

#define CBENCH_SHOW_JUNIT (1u << 7)	/* a result's member shown as a JUnit property */

extern const struct cbench_result_member cbench_result_members[];
extern const unsigned int cbench_nresult_members;

/* A member's value as written, by its kind. */
struct cbench_member_value {
	double number;			/* a fraction's in percent, a variance's standard deviation */
	uint64_t count;
	bool flag;
	const char *text;		/* a text's, a word's, the arena's pages' */
};

/* Whether res writes row m (its counter, .when and its kind's rule; a run
 * of jobs CPUs at once), and its value into *v (the arena's pages formed
 * in buf, of len bytes). */
bool cbench_result_member_get(const struct cbench_result_member *m, const struct cbench_result *res,
			      size_t jobs, struct cbench_member_value *v, char *buf, size_t len);


#endif /* _CBENCH_REPORT_FIGURES_H */
