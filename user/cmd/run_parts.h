/* SPDX-License-Identifier: GPL-2.0 */
/* `cbenchctl run`: its options (run_options.c), the pipeline (run.c) and
 * --backend both (run_both.c). */
#ifndef _CBENCH_RUN_PARTS_H
#define _CBENCH_RUN_PARTS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "backend/backend.h"
#include "results/doc.h"

/* The run report's formats: Go text (benchstat), cbench's JSON, LNT, Bencher's BMF, JUnit XML. */
enum cbench_format { CBENCH_FORMAT_GO, CBENCH_FORMAT_JSON, CBENCH_FORMAT_LNT, CBENCH_FORMAT_BMF,
		     CBENCH_FORMAT_JUNIT, CBENCH_FORMATS };

/* Their names, as --format takes them, by enum cbench_format. */
extern const char *const cbench_format_names[CBENCH_FORMATS + 1];

/* One report to write: path NULL or "-" is standard output. */
struct cbench_run_report {
	const char *path;
	enum cbench_format format;
};

struct cbench_run_options {
	const char *so_path;
	const char *filter;		/* POSIX extended regex; NULL: all */
	enum cbench_backend_kind backend;
	int cpu;			/* -1: the last CPU we may run on */
	/* --jobs: CPUs measured on at once (1: one); --cpus: which (NULL:
	 * machine/cpus.h chooses). */
	unsigned int jobs;
	const char *cpus;
	unsigned int trials;		/* per benchmark, each one result line */
	bool retune;			/* ignore cached n */
	const char *output;		/* the first report's path; NULL: stdout */
	enum cbench_format format;	/* --format's, or Go */
	/* The reports to write, one per format at most: each -o that is not
	 * the CSV of raw measurements, or one to stdout without -o. */
	struct cbench_run_report reports[CBENCH_FORMATS];
	unsigned int nreports;
	/* As given: each -o, and whether --format was. */
	const char *outputs[CBENCH_FORMATS + 1];
	unsigned int noutputs;
	bool format_given;
	const char *machine_name;	/* --machine: the LNT machine name; NULL: the host's */
	const char *order;		/* --order: the LNT run order; NULL: the date */
	/* --store: the results store to add the run to, with --commit, --order
	 * (then a whole number) and --keep-object's directory (NULL: none). */
	const char *store, *commit, *keep_dir;
	const char *samples;		/* CSV of raw samples; NULL: none */
	double time_limit_s;		/* per phase (tuning, each trial) */
	double trial_time_s;		/* a trial measures for about this long */
	double warmup_s;		/* before each trial's measurements */
	int quiet;			/* --quiet-mode: enum cbench_quiet; -1 the module's */
	bool both;			/* --backend both (run_both.c); backend is kmod */
	const char *resume;		/* --resume: the JSON report to go on from */
	/* --seed: of the code layouts trials are measured at, where the object
	 * lets its code move (else one from /dev/urandom, reported);
	 * --fixed-layout: the code stays where it was loaded. */
	uint64_t seed;
	bool have_seed;
	bool fixed_layout;
	/* --fresh-workers: each trial in a worker process started for it (else
	 * a round's trials on a CPU run one after another in one worker). */
	bool fresh_workers;
	/* --keep-shared: trials whose core another thread shared are kept.
	 * --shared-wait: how long to go on measuring again trials whose core
	 * was shared, past --trials replacements (seconds; < 0: auto, as long
	 * as the run's rounds took, CBENCH_SHARED_WAIT_MIN at least). */
	bool keep_shared;
	double shared_wait_s;
	/* --precision: stop a benchmark once its headline's interval is within
	 * this much of it, either way (relative; 0: run --trials each); --trials
	 * is then the most, trials_given whether it was said.  --budget: no new
	 * round of trials after this many seconds of them (0: none; < 0: auto,
	 * as long as CBENCH_TRIALS_DEFAULT rounds would take).  precision_auto:
	 * neither --trials nor --precision was given, so a run stops at
	 * CBENCH_PRECISION_DEFAULT within --budget auto; precision_off:
	 * --precision off, CBENCH_TRIALS_DEFAULT trials each. */
	double precision, budget_s;
	bool trials_given, precision_auto, precision_off;
};

/* --shared-wait auto's least, in seconds, and the most replacements a
 * benchmark gets while it lasts, in --trials. */
#define CBENCH_SHARED_WAIT_MIN 2.0
#define CBENCH_SHARED_REPLACEMENTS 100

/* The trials a benchmark takes with --precision off. */
#define CBENCH_TRIALS_DEFAULT 10
/* How much of a run a benchmark's trials span at least, by default: one
 * moment of a busy machine or a dip of the host's clock (a tenth of a
 * second, often) then meets few of them.  --trial-time auto sizes trials
 * for it, and the default precision stops no benchmark short of it. */
#define CBENCH_RUN_SPAN_S 0.5
/* The precision a run stops at where neither --trials nor --precision says. */
#define CBENCH_PRECISION_DEFAULT 0.0005
/* The fewest trials a benchmark takes under --precision. */
#define CBENCH_PRECISION_MIN_TRIALS 5
/* The most, where --trials does not say. */
#define CBENCH_PRECISION_MAX_TRIALS 50

/*
 * run --resume (run_resume.c): the report a run goes on from, read and
 * checked, and what it carried over.
 */
struct cbench_json;
struct cbench_session;
struct cbench_result;
struct cbench_report;
struct cbench_resume {
	const char *path;
	struct cbench_doc doc;		/* the report (results/doc.h) */
	unsigned int trials;		/* a benchmark with as many is finished */
	size_t carried;			/* results carried over */
	size_t carried_trials;		/* trials of results begun, carried over */
};

/* What --resume cannot go with; 0, or -EINVAL after writing why to err. */
int cbench_resume_options_check(const struct cbench_run_options *o, FILE *err);

/* The trial and warm-up of a run of benchmarks on cpus CPUs at once: as
 * given, or (0: auto) long enough for each benchmark's trials to span half
 * a second of the run, 4 to 20 ms, each trial costing as much again as a
 * worker of its own does where fresh (--fresh-workers, or a backend whose
 * workers cannot stand), else as a standing worker's. */
void cbench_run_trial_time(const struct cbench_run_options *o, size_t benchmarks, size_t cpus,
			   bool fresh,
			   double *trial_s, double *warmup_s);

/*
 * Reads path, a run's JSON report, and checks its options against o:
 * 0 to resume it, 1 when it is complete (nothing to do, said), or -1 after
 * saying why not.  Close rs whatever it returns.
 */
int cbench_resume_open(struct cbench_resume *rs, const char *path, const struct cbench_run_options *o);

/* Once s has started: the same object, machine, kernel, CPU, backend and
 * cbenchctl as the report's; 0, or -1 after naming what differs. */
/* The code layouts' seed of the run resumed, if it sampled them. */
bool cbench_resume_seed(const struct cbench_resume *rs, uint64_t *seed);

int cbench_resume_check(const struct cbench_resume *rs, const struct cbench_session *s);

/* res (its exp and trials set) carried over if the report finished it: 1;
 * 0 if it did not (measure it: res->carried_trials of res->trials are
 * what the report finished of it), or -ENOMEM. */
int cbench_resume_carry(struct cbench_resume *rs, struct cbench_result *res);

/* r marked as resumed from rs. */
void cbench_resume_mark(const struct cbench_resume *rs, struct cbench_report *r);

void cbench_resume_close(struct cbench_resume *rs);

/*
 * What a command built on run (run --backend both, selftest, insn) takes
 * of it, in this process: the run's summarized report, handed to take()
 * before the run's session closes (the benchmarks, their trials and
 * everything the report points at live until take() returns), which
 * returns 0 or -1 after saying why.  quiet: no table, no progress line
 * and no count of failed trials on stderr (errors are still said).
 */
struct cbench_run_taker {
	int (*take)(const struct cbench_report *report, void *arg);
	void *arg;
	bool quiet;
};

/*
 * The run o describes, in this process: its benchmarks measured, its
 * reports written where o says (none where o->nreports is 0), its store
 * added to; then, if taker is given and the run got that far (a run
 * stopped by a signal included, with the trials it kept), the report
 * handed to it.  Returns run's exit status: 0, 1 (a trial failed, or an
 * error said), 128 + the signal that stopped it.
 */
int cbench_run(const struct cbench_run_options *o, const struct cbench_run_taker *taker);

/*
 * cbench_run() for a composite that must have the report (selftest, insn):
 * 0 once taker took it; 128 + N if signal N stopped the run; -1 if the run
 * never handed it over or take() failed.  Each but 0 said, as "cmd:
 * interrupted (...)" or "cmd: <what> did not run on the <backend> backend".
 */
int cbench_run_composite(const char *cmd, const char *what, const struct cbench_run_options *o,
			 const struct cbench_run_taker *taker);

/*
 * --backend both: the benchmarks in user mode, then in ring 0, in one Go
 * report of two sections, and what ring 0 removes on stderr.  Returns the
 * exit status.
 */
int cbench_run_both(const struct cbench_run_options *o);

/* run's usage (run_options.c). */
void cbench_run_usage(FILE *f);

/* Defaults for everything, per the documentation in the usage. */
void cbench_run_options_init(struct cbench_run_options *o);

/*
 * Parses argv (argv[0] is "run").  Returns 0, 1 when --help was asked for,
 * or -EINVAL after writing why to err.
 */
int cbench_run_options_parse(struct cbench_run_options *o, int argc, char *argv[], FILE *err);

#endif /* _CBENCH_RUN_PARTS_H */
