/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Run reports read as runs (report/runs.h), for `compare` and `plot`'s
 * change view: each file, Go text or a run's JSON (by what it holds), gives
 * one run, or in Go text several written one after another (a
 * configuration line after result lines starts the next run).  A JSON
 * report is read by the one reader of reports (results/doc.h).
 */
#ifndef _CBENCH_RESULTS_RUNS_READ_H
#define _CBENCH_RESULTS_RUNS_READ_H

#include <stddef.h>

#include "report/runs.h"

/*
 * Reads a side's files into g, which its caller zeroed and gave cmd, first
 * (the first run's origin, shared by both sides, zeroed), mixed and empty_ok.  A file
 * given twice on a side would count its runs twice, and is refused.  0, or
 * -errno after saying "cbenchctl: unable to read FILE: why".  Free with
 * cbench_runs_release().
 */
int cbench_runs_read(struct cbench_runs *g, char *const paths[], size_t n);

/*
 * Reads the sides' files (old[0..nold), new[0..nnew)) for s->metric, each
 * reader as like (its cmd, mixed, empty_ok and first).  0, or -errno after
 * saying why, as cbench_runs_read().  Free with cbench_sides_release().
 */
int cbench_sides_read(struct cbench_sides *s, const struct cbench_runs *like, char *const old[], size_t nold,
		      char *const new[], size_t nnew);

#endif /* _CBENCH_RESULTS_RUNS_READ_H */
