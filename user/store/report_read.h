/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A run's JSON report, as results/doc.h reads it, into what the store
 * keeps: which of a benchmark's figures are its headline and its trials.
 */
#ifndef _CBENCH_STORE_REPORT_READ_H
#define _CBENCH_STORE_REPORT_READ_H

#include <stddef.h>

struct cbench_store_run;

/*
 * text[0..len), a run report, into run (zeroed first; its commit and order
 * left for the caller), read strictly (results/doc.h).  Refused, -EINVAL with why in err: another
 * kind of file (an audit, LNT or Bencher report, or not cbench's), a newer
 * schema, a report edited after it was written (its digest,
 * report/digest.h) or rewritten, a member of the wrong type (a trial that
 * is not a number, named by its path: "benchmarks[2].trials[1].ns_per_op"),
 * an interrupted run, one without an object's build ID, or one in which no
 * benchmark measured.  -EAGAIN where every benchmark was left out because
 * each kept only trials on a core another thread shared (the run could be
 * measured again at a quieter moment).  -ENOMEM.  A report without a digest (an older
 * cbenchctl's) is read, with a note saying so in note ("" otherwise).
 * On failure run is freed.
 */
int cbench_store_read_report(const char *text, size_t len, struct cbench_store_run *run, char *note,
			     size_t notelen, char *err, size_t errlen);

#endif /* _CBENCH_STORE_REPORT_READ_H */
