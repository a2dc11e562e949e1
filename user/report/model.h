/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A run's typed model: its trials, its benchmarks' results and the run
 * itself (machine, CPU environment, timer, backend, CPUs and watchers,
 * settings), and the limits its summary judges them by.  report.c's
 * summary fills the derived fields (report.h); every writer reads them,
 * and results/ writes the model as JSON and reads it back.
 */
#ifndef _CBENCH_REPORT_MODEL_H
#define _CBENCH_REPORT_MODEL_H

#include <stdbool.h>
#include <stdio.h>

#include "backend/types.h"
#include "machine/cpuenv.h"
#include "machine/cpus.h"
#include "object/loader.h"
#include "machine/probe.h"
#include "stats/trials.h"
#include "worker/results.h"

struct cbench_json;

/* How a trial's est-cycles/op was formed (struct cbench_trial). */
enum cbench_clock_how {
	CBENCH_CLOCK_NONE,		/* no reference: the calibration's clock, or none */
	CBENCH_CLOCK_MATCHED,		/* within one clock level (stats/levels.h) */
	CBENCH_CLOCK_TRIAL,		/* the trial's floors: references not taken beside
					 * each measurement, or too few measurements to match */
	CBENCH_CLOCK_UNSTEADY,		/* the clock moved beside too many measurements:
					 * no figure, the trial set aside */
};

extern const char *const cbench_clock_how_names[];

struct cbench_trial {
	int error;			/* 0, or -errno with reason */
	char reason[640];
	uint64_t n;			/* reps per measurement */
	/* Operations the trial's estimate stands for (Go's b.N): ops per rep
	 * times reps of every measurement kept; 0 without a valid one. */
	uint64_t iterations;
	struct cbench_sample *samples;	/* every measurement, disturbed ones too */
	size_t nsamples;
	/* What the worker measured beside the samples (worker/job.h). */
	struct cbench_trial_figures figures;
	/* The arena the trial's worker got, and how much huge pages backed. */
	uint64_t arena_bytes;
	uint64_t arena_huge_bytes;
	/* The code layout it ran in: 0 where the object was loaded, k > 0 the
	 * run's k-th drawn layout (run.c; trials 2k - 2 and 2k - 1 share it),
	 * and where the benchmark's run function lay in it (its offset from
	 * the layout's page-aligned region). */
	uint32_t layout;
	uint64_t run_offset;
	/* Loop timing points, measured apart from the above: the
	 * per-iteration distribution (tpoints.h). */
	bool have_tp;
	struct cbench_tp_summary tp;
	/* The reference chain's measurements, one after each of the above. */
	struct cbench_sample *ref_samples;
	size_t nref_samples;
	/* Derived by cbench_report_summarize(); NAN where not available. */
	size_t valid;
	size_t discarded;
	/* Discarded measurements by CBENCH_DISTURB_* bit (one may have
	 * several): what disturbed them (context switches, NMIs, ...). */
	size_t discarded_by[CBENCH_DISTURB_KINDS];
	/* The headline estimate: the floor mean of the valid measurements
	 * (cbench_stats_floor_mean), the minimum of Chen and Revels without the
	 * lucky roundings of a coarse timer. */
	double ns_per_op;
	double min_ns_per_op;
	double median_ns_per_op;
	double max_ns_per_op;
	double cv;			/* of the valid ns/op values */
	/* The headline estimate of the first and of the second half of the
	 * valid measurements, in the order taken: what the noise within the
	 * trial moves it by (docs/placement.md). */
	double half_ns_per_op[2];
	double mb_per_s;		/* at the minimum; NAN without bytes_per_rep */
	double est_cycles_per_op;	/* NAN without a reference or calibration */
	/* One timer step over the median measurement: the share of a
	 * measurement a step's rounding can be (under 1/2000 unless the
	 * measurement cap kept measurements short). */
	double step_share;
	/*
	 * The core clock the trial saw, from its reference measurements, in
	 * GHz: the level est_cycles_per_op was taken at (clock_how).  How far
	 * it moved within the trial, relative: between the slowest and the
	 * fastest of its clock_levels where the references were matched with
	 * the measurements, else between the trial's two halves.  What the
	 * figure is made of: the clock_matched measurements with a steady
	 * clock on both sides, at clock_tolerance; clock_jumps, adjacent
	 * references apart by more than 1 % (stats/levels.h).
	 */
	double core_ghz;
	double clock_moved;
	int clock_how;			/* enum cbench_clock_how */
	size_t clock_matched, clock_levels, clock_jumps;
	double clock_tolerance;
	uint32_t have;			/* CBENCH_HAVE_* of the three below */
	double instructions_per_op;	/* at the fastest valid measurement */
	double cycles_per_op;
	double ref_cycles_per_op;
	/* When it ran, in seconds on the runner's monotonic clock (run.c). */
	double start_s, end_s;
	/*
	 * What the run's trials together say of it (stats/trials.h): enum
	 * cbench_trial_cause, and how many trials of other benchmarks that
	 * ran beside it were slow too.  A trial a busy moment, a clock dip or
	 * a stretch within it slowed is set aside: no figure of its benchmark
	 * counts it, and the run measures another in its place (replacement).
	 */
	int cause;
	size_t beside;
	bool set_aside;
	bool replacement;
	/* The trial alone that --precision's rounds on several CPUs end with
	 * (run.c's measure_alone()): a trial more than the rounds'. */
	bool alone;
	/* Set aside and measured again (run.c): it stays set aside whatever
	 * the trials measured since say, so that the run keeps --trials. */
	bool replaced;
	/* Read from the report of the run this one resumed (run --resume):
	 * its figures as that run wrote them, its status as that run said. */
	bool carried;
	bool summarized;		/* its own figures are derived (report.c) */
	/* In a run on several CPUs (run --jobs): the CPU it ran on, and
	 * whether it ran alone, no other trial measured beside it. */
	int cpu;
	bool solo;
	/* Its worker was told not to look for loop timing points: an earlier
	 * trial of its benchmark looked and found none (run.c). */
	bool tp_skipped;
	/* What its benchmark left in its standing worker, which then ended
	 * (worker/leftover.h's CBENCH_LEFT_*, but CBENCH_LEFT_UNSEEN). */
	uint32_t left;
};

struct cbench_result {
	const struct cbench_experiment *exp;
	/* "cached", "tuned", "failed", or "per-rep" (one call per
	 * measurement, between the benchmark's hooks: no tuning) */
	const char *tuning;
	uint64_t n;
	struct cbench_trial *trials;
	size_t ntrials;
	size_t failed;
	size_t set_aside;		/* trials set aside as disturbed */
	size_t replacements;		/* trials measured in place of those */
	/*
	 * The headline: the median of the kept trials' estimates, each the
	 * floor mean of one worker's measurements (delays only add within a
	 * trial; across trials placements and moments go both ways), with its
	 * distribution-free interval at the report's confidence, widened by
	 * the timer's step (ns_coverage: what the order statistics cover, less
	 * than the confidence with too few trials).  Every per-op figure of a
	 * result is the same statistic, the median of its kept trials'.
	 */
	double ns_per_op, ns_lo, ns_hi, ns_coverage;
	double least_ns_per_op;		/* the least kept trial's: one lucky trial */
	double cv;			/* of the kept trials' estimates */
	double est_cycles_per_op;	/* medians of the kept trials'; NAN if none */
	/* Its interval, as ns/op's (NAN unless every kept trial has one): what
	 * run --precision judges where it is known, the figure compare gates
	 * on; not written (the report's figures are its trials'). */
	double est_lo, est_hi;
	double mb_per_s;
	uint32_t have;			/* CBENCH_HAVE_* of the three below */
	double instructions_per_op, cycles_per_op, ref_cycles_per_op;
	double step_share;		/* the largest of the trials' */
	double core_ghz_min, core_ghz_max; /* over the trials; NAN if unknown */
	/* Over the trials with timing points: quantiles, mean, spread and
	 * MIN_TIMING their medians, counts their sums, the perturb score and
	 * the stride the largest. */
	bool have_tp;
	struct cbench_tp_summary tp;
	/*
	 * Placement (docs/placement.md): each trial runs in a worker no other
	 * trial of its benchmark ran in, on other pages.  The variance of the
	 * kept trials' estimates (of their logs; robust: from their
	 * interquartile range, so one odd
	 * trial does not make it), what the noise within trials predicts
	 * of it (from each trial's halves, as an audit's rounds), and the
	 * share beyond that noise: what stays put for a trial and changes
	 * between trials, its placement; NAN where unknown (under 3 trials).
	 */
	double between_var, within_var, placement_share;
	/* The kept trials differ, robustly, beyond the noise within them, and
	 * most of that is placement: informational, the headline is the
	 * median of trials either way. */
	bool placement_sensitive;
	/*
	 * Code layout, where the run samples it (struct cbench_report's
	 * layouts_sampled): each pair of trials runs at a layout of its own.
	 * layouts: how many layouts the kept trials ran in; layout_share: the
	 * share of between_var beyond the variance within those pairs (what
	 * trials at one layout, on other pages, still differ by), NAN without
	 * two degrees of freedom within them; layout_sensitive: placement-
	 * sensitive, and most of it is the code's layout.
	 */
	size_t layouts;
	double layout_share;
	bool layout_sensitive;
	/* The kept trials disagree beyond what the timer's step and the core
	 * clock explain; why, where cbench can tell. */
	bool unstable;
	char unstable_reason[400];
	/* Trials set aside, and what slowed them, for the report's notes. */
	char set_aside_note[512];
	/*
	 * est-cycles/op against ns/op times the kept trials' median core
	 * clock, relative (NAN without a clock), and why they part where
	 * they part by more than CBENCH_CYCLES_GAP_MAX: the reference chain
	 * saw another clock than the benchmark in some trial.
	 */
	double cycles_gap;
	char cycles_note[256];
	/*
	 * A result carried over from the report a run resumed (run --resume,
	 * results/bench_read.c): its member of that JSON report, written again as
	 * it was, and every field above read from it; summarizing leaves it
	 * as it is, and its trials have no measurements, only their figures.
	 * NULL for a result measured in this run.
	 */
	const struct cbench_json *carried;
	/* Under --precision (run.c): why its trials ended where they did. */
	enum cbench_stop { CBENCH_STOP_NONE, CBENCH_STOP_PRECISE, CBENCH_STOP_MOST,
			   CBENCH_STOP_BUDGET } stop;
	/* The interval it was judged by, relative to its headline, either way,
	 * and whether it was est-cycles/op's (else ns/op's). */
	double stop_half;
	bool stop_est;
	/* The precision and budget were the defaults (neither --trials nor
	 * --precision given); stop_close: its interval, judged again after
	 * what was measured after the rounds, within the precision (stopped
	 * by the budget or the most trials: too few kept, or its trials too
	 * close together in the run; a precise stop's interval that the
	 * trials after the rounds widened is not). */
	bool stop_auto, stop_close;
	/* A finished trial of this run looked for loop timing points and
	 * found none: later ones need not look (run.c). */
	bool tp_none;
	size_t carried_trials;		/* trials 0 .. carried_trials - 1 carried over */
	char carried_arena_pages[64];	/* its "arena_pages", "" if none */
	/*
	 * In a run on several CPUs: its trial measured alone against the
	 * least of those measured beside others, relative (NAN without
	 * both), and whether that says it measures differently in parallel
	 * (report_jobs.c).
	 */
	double parallel_gap;
	bool parallel_differs;
};

/* est-cycles/op may part from ns/op x the median core clock by this much,
 * relative, before the row says why. */
#define CBENCH_CYCLES_GAP_MAX 0.005

/* A placement share from which trials that disagree are put down to
 * placement: most of their variance beyond the noise within them.  And
 * the same of a layout share: to the code's layout. */
#define CBENCH_PLACEMENT_SHARE_MIN 0.5
#define CBENCH_LAYOUT_SHARE_MIN 0.5

/* A trial whose core clock moved more than this between its halves is
 * flagged; relative. */
#define CBENCH_CLOCK_MOVED_MAX 0.01
/* The kept trials of one benchmark may spread this much (a robust
 * standard deviation of their logs), on top of what the timer's step
 * explains, before the result is flagged unstable. */
#define CBENCH_UNSTABLE_SD 0.005
/* The confidence of a result's interval unless the run says. */
#define CBENCH_REPORT_CONFIDENCE 0.99
/* A step share over this is reported: measurements shorter than 2000 steps. */
#define CBENCH_STEP_SHARE_MAX (1.0 / 2000)

struct cbench_report {
	struct cbench_machine machine;
	struct cbench_cpuenv cpuenv;	/* of the measuring CPU */
	const char *backend;
	const char *version;
	const char *so_path;
	const char *build_id;
	struct cbench_timer timer;
	struct cbench_backend_env env;
	struct cbench_result *results;
	size_t nresults;
	size_t failed_trials;
	/* Over every trial of the run, from the reference chain. */
	double core_ghz_min, core_ghz_max;
	size_t clock_moved_trials;	/* trials flagged by CBENCH_CLOCK_MOVED_MAX */
	/* From the wide reference (worker.c): the most adds a cycle a trial's
	 * core ran, or runs before saw (known_width; NAN: none measured), and
	 * the trials whose core another
	 * thread shared (stats/trials.h): set aside, or (--keep-shared) kept. */
	double core_width_max;
	size_t shared_trials;
	size_t shared_kept;		/* of those, kept for want of others */
	/* While run.c still measures shared trials again past --trials
	 * replacements (--shared-wait): none comes back yet (report.c); and
	 * the seconds it spent on that, all told. */
	bool waiting_shared;
	double shared_waited_s;
	/* The widest core runs before this one saw on the CPUs it measures on
	 * (the tuning cache's, run.c): what tells a run whose every trial ran
	 * shared.  nknown_width 0 where none is known. */
	struct cbench_core_width known_width[CBENCH_JOBS_MAX];
	size_t nknown_width;
	size_t unstable_results;
	size_t placement_sensitive_results;
	size_t layout_sensitive_results;	/* of those, by the code's layout */
	/*
	 * The code's layout (docs/placement.md): whether the trials lay it out
	 * anew (two trials a layout, each drawn from layout_seed and the
	 * benchmark's name), what of the object's code can move (enum
	 * cbench_layout_mode), and what the report says of it: what moves, or
	 * why nothing was sampled and how to build so it can be.
	 */
	bool layouts_sampled;
	uint64_t layout_seed;
	int layout_mode;
	char layout_note[600];
	size_t set_aside_trials;	/* over every result */
	double confidence;		/* of the results' intervals; 0: the default */
	/*
	 * A run stopped by a signal (SIGINT, SIGTERM, SIGHUP; 0 if not): it
	 * keeps the trials that finished, trials_kept of trials_asked at most
	 * a benchmark, and not_run benchmarks got none.
	 */
	int interrupted;
	size_t trials_kept, trials_asked, not_run;
	/*
	 * The options that shape every measurement, so `run --resume` can tell
	 * whether a report was measured as it would measure (trials 0: not
	 * said; filter NULL: every benchmark).
	 */
	struct cbench_report_settings {
		unsigned int trials;
		double trial_time_s, warmup_s, time_limit_s;
		const char *filter;
		/* --trial-time, --warmup auto: the two above derived (run.c). */
		bool trial_time_auto, warmup_auto;
		/* --precision (relative, 0: none; trials is then the most) and
		 * --budget (seconds of the run's trials, 0: none; auto resolved
		 * once the first rounds are measured); precision_auto: neither
		 * --trials nor --precision was given, the default. */
		double precision, budget_s;
		bool precision_auto;
		bool fresh_workers;		/* --fresh-workers */
		bool keep_shared;		/* --keep-shared */
		/* --shared-wait, resolved (auto: from the rounds' time);
		 * 0: none, or not said. */
		double shared_wait_s;
	} settings;
	/* A run resumed (run --resume): the report it carried benchmarks
	 * over from, that report's date, and how many (path NULL: none). */
	struct cbench_report_resumed {
		const char *path, *date;
		size_t carried;
		size_t carried_trials;	/* of benchmarks it had not finished */
	} resumed;
	/* The CPUs measured on at once (run --jobs, --cpus): jobs of them,
	 * 0 or 1 for one (then cpus is empty, the CPU is env's). */
	size_t jobs;
	int cpus[CBENCH_JOBS_MAX];
	/* In ring 0, the CPU whose timer watched each one's calls (-1: the
	 * module's choice, not known). */
	int watchers[CBENCH_JOBS_MAX];
	size_t parallel_differs_results;
	/* Of this run's trials with a core width, on several CPUs: those
	 * measured beside others and alone (as their times say), and of each
	 * those another thread shared the core of; shares_core where beside
	 * others shares it clearly more often (report_jobs.c).  Not counted
	 * under --keep-shared, which judges no trial shared. */
	struct cbench_beside {
		size_t trials, shared, alone, alone_shared;
		bool shares_core;
	} beside;
};

#endif /* _CBENCH_REPORT_MODEL_H */
