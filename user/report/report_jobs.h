/* SPDX-License-Identifier: GPL-2.0 */
/* A run on several CPUs at once, alone against beside others (report_jobs.c). */
#ifndef _CBENCH_REPORT_JOBS_H
#define _CBENCH_REPORT_JOBS_H

#include <stdbool.h>

struct cbench_report;

/* In a run on several CPUs, each result's parallel_gap and
 * parallel_differs; part of summarizing (report.c). */
void cbench_report_parallel(struct cbench_report *r);

struct cbench_beside;

/*
 * Whether trials measured beside others ran on a shared core clearly more
 * often than trials measured alone: the CPUs measured on share cores
 * (hyperthreads of one core, as a VM's vCPUs can be at times), so that
 * measuring at once costs trials set aside.  Clearly: enough trials each
 * way, a difference a one-sided test of the two rates calls significant
 * at 0.001, at least 10 points and twice the rate alone.
 */
bool cbench_beside_shares_core(const struct cbench_beside *b);

#endif /* _CBENCH_REPORT_JOBS_H */
