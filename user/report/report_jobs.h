/* SPDX-License-Identifier: GPL-2.0 */
/* A run on several CPUs at once, alone against beside others (report_jobs.c). */
#ifndef _CBENCH_REPORT_JOBS_H
#define _CBENCH_REPORT_JOBS_H

struct cbench_report;

/* In a run on several CPUs, each result's parallel_gap and
 * parallel_differs; part of summarizing (report.c). */
void cbench_report_parallel(struct cbench_report *r);

#endif /* _CBENCH_REPORT_JOBS_H */
