/* SPDX-License-Identifier: GPL-2.0 */
/* A benchmark of a run's JSON report read back as a result (run --resume). */
#ifndef _CBENCH_CARRY_H
#define _CBENCH_CARRY_H

#include <stddef.h>

#include "report/report.h"

/*
 * res (its exp set by the caller) from b, one member of a JSON run report's
 * "benchmarks": every figure as the report wrote it, res->carried = b,
 * which must outlive res.  0 or -ENOMEM; res->trials is the caller's to free.
 */
int cbench_result_carry(const struct cbench_json *b, struct cbench_result *res);

/*
 * The trials b finished (of a benchmark its run did not finish) into
 * res->trials, which has room for most, each marked carried, and their
 * number into res->carried_trials.  0.
 */
int cbench_trials_carry(const struct cbench_json *b, struct cbench_result *res, size_t most);

/* The trials b finished, not counting those measured in place of others. */
size_t cbench_carry_trials_done(const struct cbench_json *b);

#endif /* _CBENCH_CARRY_H */
