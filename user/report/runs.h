/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Runs as series, for `compare` and `plot`'s change view: each run gives
 * every benchmark one value per metric, its headline, the median of its
 * trials' values (ns/op, est-cycles/op or a counter's: one set of series a
 * metric).  results/runs_read.h reads the reports into them.  Runs of
 * other machines or backends than the first one read are refused unless
 * mixed is set.
 */
#ifndef _CBENCH_RUNS_H
#define _CBENCH_RUNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "report/figures.h"
#include "stats/change.h"

/* Metrics a comparison reads: every one of enum cbench_metric. */
#define CBENCH_SIDES_METRICS CBENCH_METRICS

/*
 * Where a run was measured, from its configuration: the machine, the CPU
 * model and the backend.  Runs of two machines, or of user mode and ring
 * 0, differ by more than the changes compare looks for.
 */
struct cbench_origin {
	char machine[128];
	char cpu_model[128];
	char backend[32];
	const char *path;		/* the file it was read from */
};


/* A benchmark's runs on one side. */
struct cbench_series {
	char name[256];
	double *v;			/* per run: its headline, the median of its trials' values */
	size_t n, cap;			/* runs */
	size_t run_trials;		/* trials of the run v[n - 1] */
	double *trials;			/* their ns/op, run_trials of them */
	size_t trials_cap;
	size_t fewest, most;		/* trials of a run, once folded; fewest 0: none */
	uint64_t run;			/* the run v[n - 1] came from */
	double min_var;			/* the values' rounding variance, log scale */
	/* The timer's rounding of a run's headline, log scale: one step of a
	 * measurement, as a uniform rounding (step share^2 / 12), the largest
	 * of the runs'; 0 where the reports do not say (a run's Go report
	 * gives it in a comment, its JSON as the trials' step_share). */
	double step_var;
	double fastest, slowest;	/* its fastest and slowest trial's value, of any run */
	/* The core clock each run's trials saw, GHz: the median of their
	 * core_ghz (JSON), or the middle of the run's core-clock line (Go);
	 * NAN where the report does not say.  One per run, as v. */
	double *ghz;
	size_t run_clocks;		/* clocks of the run v[n - 1] so far */
	double run_ghz[3];		/* the last run's: their sum, least, most */
};

/*
 * The series of one side in the order first seen, and a hash index over
 * their names (open addressing, linear probing, at most half full): two
 * files of 100,000 benchmarks each took 15 s with a linear search.
 */
struct cbench_runs {
	struct cbench_series *s;
	size_t n, cap;
	size_t *slots;			/* series index + 1; 0 for an empty slot */
	size_t nslots;			/* a power of two */
	uint64_t runs;			/* runs read so far; the current one's id */
	struct cbench_runs_file {
		dev_t dev;
		ino_t ino;
		const char *path;
	} *files;			/* each file read, to refuse one twice */
	size_t nfiles;
	/* The current run's origin, whether its results were checked against
	 * the first run's (*first, shared by both sides), and --mixed. */
	struct cbench_origin cur, *first;
	bool checked, mixed;
	bool differed;			/* a run of another origin was read, mixed being set */
	bool empty_ok;			/* a JSON report without a measured trial is no error */
	bool secondary;			/* another reader of the same files (ns/op's) says
					 * what is wrong with them: a file without this
					 * metric gives nothing, no error */
	const char *cmd;		/* the subcommand reading, for its messages: "compare" */
	/* What each trial gives its series (enum cbench_metric): a JSON
	 * trial's member of that name, a Go result line's value in its unit;
	 * a trial without it gives nothing.  Set before reading. */
	int metric;
	double run_clock;		/* the current Go run's core clock, GHz; NAN */
};

/*
 * Another trial of benchmark name in the current run (g->runs): v its
 * value, ulp its printed rounding, step_share a timer step over a
 * measurement and ghz the core clock it saw (NAN where not known).  A
 * run's value is the median of its trials'.  0 or -ENOMEM.
 */
int cbench_runs_add(struct cbench_runs *g, const char *name, double v, double ulp, double step_share,
		    double ghz);

/* The timer's step share of benchmark name's measurements, noted after its trials. */
void cbench_runs_step(struct cbench_runs *g, const char *name, double share);

/* Counts every series' last run's trials into fewest and most: after the last file. */
void cbench_runs_fold(struct cbench_runs *g);

/*
 * The current run's origin (g->cur) against the first run read: 0, or
 * -EINVAL with why when they were measured on other machines or backends
 * (unless g->mixed).
 */
int cbench_runs_origin(struct cbench_runs *g, char *why, size_t len);

void cbench_runs_release(struct cbench_runs *g);

/* The side's series of that name, NULL for none (a longer name is cut as stored). */
struct cbench_series *cbench_runs_find(const struct cbench_runs *g, const char *name);

/* The geometric mean of a series' runs' values (n >= 1). */
double cbench_series_mean(const struct cbench_series *s);

/* The median of its runs' core clocks, GHz; NAN where none is known. */
double cbench_series_ghz(const struct cbench_series *s);

/* old against new: cbench_change_test() over their runs, with their rounding:
 * each side's runs vary at least by the printed digits' and the timer
 * step's rounding (docs/methodology.md). */
int cbench_series_change(const struct cbench_series *old, const struct cbench_series *new, double min_effect,
			 struct cbench_change *c);

/* Whether the timer's step set that floor (the runs of a side agree more
 * closely than it, and it is the larger rounding): the step's share of a
 * measurement; 0 if not, or with one run on a side. */
double cbench_series_step_floor(const struct cbench_series *old, const struct cbench_series *new);

/*
 * Both sides of a comparison (compare, plot's change view), read once per
 * metric that may decide: ns/op always (every benchmark has it, and the
 * rows follow it), est-cycles/op for the default, the metric asked.
 */
struct cbench_sides {
	struct cbench_runs by[CBENCH_SIDES_METRICS][2];	/* [metric][0 old, 1 new] */
	bool read[CBENCH_SIDES_METRICS];
	/* enum cbench_metric asked, or -1: est-cycles/op where both sides have
	 * it in every run (the core clock cannot move it), else ns/op. */
	int metric;
};

void cbench_sides_release(struct cbench_sides *s);

/* The sides as ns/op reads them: every benchmark, in the reports' order. */
const struct cbench_runs *cbench_sides_runs(const struct cbench_sides *s, int side);

/*
 * The metric that judges benchmark name, and its series on each side
 * (*a old, *b new): as s->metric says.  -1 where a side lacks the name or
 * the metric asked.
 */
int cbench_sides_pick(const struct cbench_sides *s, const char *name, const struct cbench_series **a,
		      const struct cbench_series **b);

#endif /* _CBENCH_RUNS_H */
