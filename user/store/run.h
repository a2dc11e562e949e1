/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A run as the store takes it in, whatever it was read from: a cbench JSON
 * report (report_read.c), an LNT report or a Bencher Metric Format one
 * (interchange.c).  Per benchmark and metric: the headline, its relative
 * standard uncertainty, the least and greatest trial, every trial's value.
 */
#ifndef _CBENCH_STORE_RUN_H
#define _CBENCH_STORE_RUN_H

#include <stddef.h>

#include "report/figures.h"

/* Longest benchmark name, commit, machine or object name a store keeps. */
#define CBENCH_STORE_NAME_MAX 512

struct cbench_store_result {
	/* The report name without "Benchmark", as LNT and Bencher name it:
	 * "Copy/size=64". */
	char name[CBENCH_STORE_NAME_MAX];
	enum cbench_metric metric;
	double value;			/* the headline */
	double u;			/* relative standard uncertainty; NAN unknown */
	double lower, upper;		/* the least and greatest trial */
	double *trials;			/* malloc'd */
	size_t ntrials;
};

struct cbench_store_run {
	char machine[256];		/* the machine's name */
	char cpu[256];			/* "AuthenticAMD family 25 model 17 stepping 1 (AMD EPYC ...)" */
	int cpu_count;
	char backend[32];		/* "user" or "kmod" */
	char object[256];		/* the object's file name: which series */
	char object_path[4096];		/* where it was measured, "" if not known */
	char build_id[80];
	char date[40];			/* UTC, ISO 8601 */
	char run_id[40];		/* the report's run_id; "" in one written before it */
	char kernel[128];
	char version[64];		/* the cbenchctl that measured */
	const char *source;		/* "json", "lnt" or "bmf" */
	char commit[CBENCH_STORE_NAME_MAX];
	long long order;
	struct cbench_store_result *results;
	size_t nresults;
};

/* Copies res (and its trials) into r; 0 or -ENOMEM. */
int cbench_store_run_push(struct cbench_store_run *r, const struct cbench_store_result *res);
void cbench_store_run_free(struct cbench_store_run *r);

/*
 * A result's summary from its trials' values: lower, upper and u (the
 * standard deviation of the logs over the square root of their count; NAN
 * under two trials).  The headline is the caller's.
 */
void cbench_store_result_spread(struct cbench_store_result *res);

/*
 * What tells one run from another: a hash (FNV-1a, 64 bits, as hex) of
 * its build ID, date, machine, backend and object, none of its figures,
 * so that the same run edited is still the same run.  Two runs of one
 * build on one machine within one second count as one.
 */
void cbench_store_run_fingerprint(const struct cbench_store_run *r, char *out, size_t len);


#endif /* _CBENCH_STORE_RUN_H */
