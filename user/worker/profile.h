/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `cbenchctl profile` (Wen et al.): where a benchmark's time goes.  A worker
 * runs the benchmark in calls of a few milliseconds while perf samples its
 * instruction pointer; it groups the samples by function (or source line)
 * and sends the counts; cbenchctl gives each share its Wilson interval
 * (share.h) and writes the report.
 *
 *	profile.c		the subcommand: options, one worker per benchmark
 *	profile_worker.c	the worker side: reps per call, sampling, grouping
 *	sampler.c		perf_event_open sampling and its ring buffer
 *	symbols.c		addresses to functions and lines, of any object
 *	unwind.c		call stacks from the samples (libdwfl)
 *	report_profile.c	text, JSON and folded stacks
 */
#ifndef _CBENCH_PROFILE_H
#define _CBENCH_PROFILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Where a group of samples is. */
enum cbench_profile_where {
	CBENCH_PROFILE_FUNCTION,	/* a function of the object (or its PLT) */
	CBENCH_PROFILE_NO_SYMBOL,	/* in the object, in no sized symbol */
	CBENCH_PROFILE_OUTSIDE,		/* the harness, the vdso, or a library's code
					 * in no symbol */
	CBENCH_PROFILE_KERNEL,		/* the kernel, on the worker's behalf */
	CBENCH_PROFILE_LIBRARY,		/* a function of another object: libc, the
					 * user's own libraries */
};

/* What the worker is asked to do: in struct cbench_worker_job. */
struct cbench_profile_job {
	uint64_t samples;		/* stop after this many (0 with width) */
	double width;			/* stop when the widest interval (share.h) is
					 * at most this, in [0, 1]; 0 with samples */
	double z;			/* of the confidence level */
	bool by_line;
	bool stacks;			/* unwind each sample (folded, JSON) */
	uint64_t period_ns;		/* mean sampling interval */
};

/* The worker's account of one benchmark's sampling (CBENCH_MSG_PROFILE). */
struct cbench_profile_info {
	char event[24];			/* "cycles", "cpu-clock" */
	char period_unit[8];		/* "cycles", "ns" */
	uint64_t period;		/* mean period in period_unit */
	uint64_t period_ns;		/* mean sampling interval, in ns */
	bool kernel_excluded;		/* perf_event_paranoid kept the kernel out */
	int paranoid;			/* perf_event_paranoid, -9 if unknown */
	int hw_error;			/* why not cycles: -errno, 0 if cycles */
	uint64_t samples;		/* every sample, in any group */
	uint64_t lost;			/* records the ring buffer lost */
	uint64_t throttled;		/* times the kernel throttled sampling */
	uint64_t calls;			/* calls of the benchmark while sampling */
	uint64_t reps_per_call;
	double call_ns;			/* mean wall time of one call, sampled */
	double unsampled_call_ns;	/* the least of a few calls not sampled */
	double sampling_ns;		/* wall time from enable to disable */
	bool time_limited;		/* stopped by the time limit, not the target */
};

/* One group's count (CBENCH_MSG_PROFILE_GROUP); strings cut to fit. */
struct cbench_profile_group {
	uint64_t count;
	uint32_t where;			/* enum cbench_profile_where */
	uint32_t line;			/* --by line: 0 where unknown */
	char name[200];			/* function, "[kernel]", the other object */
	char file[300];			/* --by line: source file, "" where unknown */
	char object[64];		/* LIBRARY: the object's file name */
};

/* One call stack's count (CBENCH_MSG_PROFILE_STACK): folded frames, the
 * outermost first, separated by ';' (a library's function "lib`name");
 * cut at the outer end (a first frame "...") to fit. */
#define CBENCH_PROFILE_STACK_CHARS 544
#define CBENCH_PROFILE_STACKS_MAX 4096
struct cbench_profile_stack {
	uint64_t count;
	char frames[CBENCH_PROFILE_STACK_CHARS];
};

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

struct cbench_profile_report {
	const char *so_path;
	const char *build_id;
	const char *version;
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

#endif /* _CBENCH_PROFILE_H */
