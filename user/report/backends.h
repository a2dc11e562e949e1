/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Two backends' JSON reports of the same benchmarks side by side (`run
 * --backend both`, `selftest --backend both`): what ring 0 removes,
 * benchmark by benchmark (the share of measurements discarded as
 * disturbed, the spread between trials, the least trial's gap to their
 * median), and what disturbed each backend's measurements, by cause.
 */
#ifndef _CBENCH_REPORT_BACKENDS_H
#define _CBENCH_REPORT_BACKENDS_H

#include <stdio.h>

#include "backend/types.h"
#include "report/json.h"

/* The benchmark of a JSON run report whose id is id, or NULL. */
const struct cbench_json *cbench_report_result(const struct cbench_json *report, const char *id);

/* One benchmark (by its id) of a report: what its measurements say of
 * the quiet they had; NAN where the report lacks it. */
struct cbench_quietness {
	double ns_per_op;
	double discarded;		/* share of measurements */
	double cv;			/* of trials */
	double gap;			/* median of trials over the least, less 1 */
};
void cbench_quietness_of(const struct cbench_json *report, const char *id, struct cbench_quietness *q);

/* A report's discarded measurements over every benchmark, by cause
 * (cbench_disturb_names' order). */
void cbench_discarded_by(const struct cbench_json *report, double counts[CBENCH_DISTURB_KINDS]);

/*
 * The table for report a (user mode) against report b (ring 0), a row per
 * benchmark of a in its order, labelled by name (the id) or, where labels
 * is given, by labels[i] for ids[i]; then the disturbances of each.
 */
void cbench_backends_print(FILE *f, const struct cbench_json *a, const struct cbench_json *b,
			   const char *const *ids, const char *const *labels, size_t n);

#endif /* _CBENCH_REPORT_BACKENDS_H */
