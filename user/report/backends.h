/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Two backends' runs of the same benchmarks side by side (`run --backend
 * both`, `selftest --backend both`): what ring 0 removes, benchmark by
 * benchmark (the share of measurements discarded as disturbed, the spread
 * between trials, the least trial's gap to their median), and what
 * disturbed each backend's measurements, by cause.  Each side is taken
 * from its run's report in memory (cmd/run_parts.h's taker), copied so
 * that it outlives the run.
 */
#ifndef _CBENCH_REPORT_BACKENDS_H
#define _CBENCH_REPORT_BACKENDS_H

#include <stdio.h>

#include "backend/types.h"

struct cbench_report;

/* One benchmark of a run: what its measurements say of the quiet they
 * had; NAN where the run lacks it. */
struct cbench_quietness {
	char id[256];
	double ns_per_op;
	double discarded;		/* share of measurements */
	double cv;			/* of trials */
	double gap;			/* median of trials over the least, less 1 */
};

/* One backend's run, as the comparison and selftest's report read it. */
struct cbench_backend_run {
	char label[32];			/* "user", or "kmod (lvt)": the backend and its quiet mode */
	char quiet[8];			/* ring 0's quiet mode, "" in user mode */
	struct cbench_timer timer;
	double core_ghz_min, core_ghz_max;	/* NAN where unknown */
	/* Measurements discarded over every benchmark, by cause
	 * (cbench_disturb_names' order). */
	double discarded_by[CBENCH_DISTURB_KINDS];
	struct cbench_quietness *rows;	/* its benchmarks in the run's order */
	size_t n;
};

/* b from the report r; 0, or -ENOMEM.  Free with cbench_backend_run_free(). */
int cbench_backend_run_of(const struct cbench_report *r, struct cbench_backend_run *b);
void cbench_backend_run_free(struct cbench_backend_run *b);

/* The benchmark of b whose id is id, or NULL. */
const struct cbench_quietness *cbench_backend_row(const struct cbench_backend_run *b, const char *id);

/*
 * The table for run a (user mode) against run b (ring 0), a row per
 * benchmark of a in its order, labelled by its id or, where labels is
 * given, by labels[i] for ids[i]; then the disturbances of each.
 */
void cbench_backends_print(FILE *f, const struct cbench_backend_run *a, const struct cbench_backend_run *b,
			   const char *const *ids, const char *const *labels, size_t n);

#endif /* _CBENCH_REPORT_BACKENDS_H */
