/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A run's JSON report (docs/schema/run.schema.json), written where it is
 * read back (doc.h): its head, then each benchmark's members by their rows
 * (report/figures.h) and its trials; last, the SHA-256 digest of all that
 * comes before it, so that a report edited afterwards is refused where it
 * is read.
 */
#ifndef _CBENCH_RESULTS_DOC_WRITE_H
#define _CBENCH_RESULTS_DOC_WRITE_H

#include <stdio.h>

struct cbench_report;

/* r as JSON into f: 0, or -errno (-ENOMEM, or from the stream's error state). */
int cbench_report_json(const struct cbench_report *r, FILE *f);

#endif /* _CBENCH_RESULTS_DOC_WRITE_H */
