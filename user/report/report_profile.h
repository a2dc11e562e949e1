/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `cbenchctl profile` (Wen et al.): where a benchmark's time goes.  A worker
 * runs the benchmark in calls of a few milliseconds while perf samples its
 * instruction pointer; it groups the samples by function (or source line)
 * and sends the counts; cbenchctl gives each share its Wilson interval
 * (share.h) and writes the report.
 *
 *	cmd/profile.c			the subcommand: options, a worker a benchmark
 *	worker/profile_worker.c		the worker side: reps per call, sampling, grouping
 *	worker/sampler.c		perf_event_open sampling and its ring buffer
 *	worker/symbols.c		addresses to functions and lines, of any object
 *	worker/unwind.c			call stacks from the samples (libdwfl)
 *	report/report_profile.c		text, JSON and folded stacks
 */
#ifndef _CBENCH_REPORT_PROFILE_H
#define _CBENCH_REPORT_PROFILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "worker/results.h"

/* --ci-width holds the widest interval among shares of at least this
 * fraction to its width; smaller shares are left out (share.h). */
#define CBENCH_PROFILE_SHARE_FLOOR 0.01

struct cbench_experiment;

/* One group's estimate. */
struct cbench_profile_share {
	const struct cbench_profile_group *group;
	double share, lower, upper;	/* the estimate and its interval */
	/* Of the samples in the object only (its functions and no-symbol
	 * code): the split of the benchmark's own time, which the harness and
	 * the kernel do not dilute; NAN for groups outside it. */
	double object_share, object_lower, object_upper;
	uint64_t needed;		/* samples for an interval report->width wide */
};

/* One benchmark's profile. */
struct cbench_profile_result {
	const struct cbench_experiment *exp;
	int error;			/* 0, or -errno with reason */
	char reason[600];
	struct cbench_profile_info info;
	struct cbench_profile_group *groups;	/* malloc'd */
	size_t ngroups;
	struct cbench_profile_stack *stacks;	/* with stacks; malloc'd */
	size_t nstacks;
	struct cbench_profile_share *shares;	/* by count, largest first; malloc'd */
	double widest;			/* widest interval of a share >= the floor */
	uint64_t needed;		/* samples for that to be report->width */
};

struct cbench_machine;

struct cbench_profile_report {
	const char *so_path;
	const char *build_id;
	const char *version;
	const struct cbench_machine *machine;	/* where it ran; NULL: not said */
	const char *backend;		/* always "user" for now */
	const char *backend_note;	/* why not kmod, when it was asked for */
	int cpu;
	double level, z;		/* the intervals' confidence */
	double width;			/* the width "needed" is for, in [0, 1] */
	bool width_requested;		/* --ci-width gave it (else a default) */
	uint64_t samples_requested;	/* --samples, 0 with --ci-width */
	bool by_line;
	bool stacks;			/* unwound: results have stacks */
	struct cbench_profile_result *results;
	size_t nresults;
};

/* Shares, intervals, needed samples, order: from the groups' counts. */
int cbench_profile_summarize(struct cbench_profile_report *r);

/* The report formats (report_profile.c); 0 or -errno. */
int cbench_profile_report_text(const struct cbench_profile_report *r, FILE *f);
int cbench_profile_report_json(const struct cbench_profile_report *r, FILE *f);
int cbench_profile_report_folded(const struct cbench_profile_report *r, FILE *f);

#endif /* _CBENCH_REPORT_PROFILE_H */
