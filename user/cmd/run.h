/* SPDX-License-Identifier: GPL-2.0 */
/* `cbenchctl run`: options and the pipeline. */
#ifndef _CBENCH_RUN_H
#define _CBENCH_RUN_H

#include <stdbool.h>
#include <stdio.h>

#include "backend/backend.h"

enum cbench_format { CBENCH_FORMAT_GO, CBENCH_FORMAT_JSON };

struct cbench_run_options {
	const char *so_path;
	const char *filter;		/* POSIX extended regex; NULL: all */
	enum cbench_backend_kind backend;
	int cpu;			/* -1: the last CPU we may run on */
	unsigned int trials;		/* per benchmark, each one result line */
	bool retune;			/* ignore cached n */
	const char *output;		/* NULL: stdout */
	enum cbench_format format;
	/* A second report in the other format (-o twice), or NULL. */
	const char *second_output;
	enum cbench_format second_format;
	/* As given: each -o, and whether --format was. */
	const char *outputs[4];
	unsigned int noutputs;
	bool format_given;
	const char *samples;		/* CSV of raw samples; NULL: none */
	double time_limit_s;		/* per phase (tuning, each trial) */
	double trial_time_s;		/* a trial measures for about this long */
	double warmup_s;		/* before each trial's measurements */
};

/* Defaults for everything, per the documentation in run.c's usage. */
void cbench_run_options_init(struct cbench_run_options *o);

/*
 * Parses argv (argv[0] is "run").  Returns 0, 1 when --help was asked for,
 * or -EINVAL after writing why to err.
 */
int cbench_run_options_parse(struct cbench_run_options *o, int argc, char *argv[], FILE *err);

#endif /* _CBENCH_RUN_H */
