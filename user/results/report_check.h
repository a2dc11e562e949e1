/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A run's JSON report checked against the schema its writer is tested to
 * meet (docs/schema/run.schema.json, built into cbenchctl): every member a
 * report has must be of the schema's type (a number where it says number,
 * one of its values where it gives them), so that a report edited by hand,
 * or cut and pasted wrong, is refused by each reader naming the member,
 * never read as a missing figure; and every member the schema requires
 * must be there ("required", and the "then" or "else" its "if" chooses).
 * Members the schema does not require are optional: older reports of this
 * schema_version lack newer members, which read as not available.
 */
#ifndef _CBENCH_RESULTS_REPORT_CHECK_H
#define _CBENCH_RESULTS_REPORT_CHECK_H

#include <stddef.h>

#include "report/json.h"

/*
 * 0 if every member of doc is as the schema says; else -EINVAL with, in
 * err, the member's path and what is wrong ("benchmarks[2] (BenchmarkAdd)
 * .trials[1].ns_per_op is a string, not a number", "benchmarks[0]
 * (BenchmarkAdd) has no member 'n'"), or -ENOMEM.
 */
int cbench_report_check(const struct cbench_json *doc, char *err, size_t errlen);

#endif /* _CBENCH_RESULTS_REPORT_CHECK_H */
