/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _CBENCH_PMU_H
#define _CBENCH_PMU_H

#include <linux/perf_event.h>
#include <linux/types.h>

#include "lib/sample.h"

/*
 * The counters one run reads: reserved through perf on the run's CPU so
 * cbench cooperates with perf and the NMI watchdog, read with rdpmc.
 */
struct cbench_pmu {
	struct perf_event *events[CBENCH_COUNTERS];
	u32 counters;			/* CBENCH_COUNTER_F_* we read */
	u32 width_bits[CBENCH_COUNTERS];
	bool synthetic;			/* test-only; see pmu.c */
	u64 ticks;			/* synthetic: samples taken so far */
};

/*
 * Reserves what counters it can on cpu.  No PMU (perf says -ENOENT, or
 * rdpmc faults) is no error: the run measures with the TSC alone and
 * pmu->counters is 0.  Returns -errno only for what should stop the run
 * (cpu went offline: -ENXIO), holding nothing then.
 */
int cbench_pmu_open(struct cbench_pmu *pmu, int cpu);
void cbench_pmu_close(struct cbench_pmu *pmu);

/*
 * Reads the counters into edge->counters, marking in edge->inactive any
 * that perf is not counting on this CPU right now.  Interrupts off.
 */
void cbench_pmu_read(struct cbench_pmu *pmu, struct cbench_edge *edge, bool after);

#endif /* _CBENCH_PMU_H */
