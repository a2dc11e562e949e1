/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sample arithmetic shared by cbench.ko and the unit tests: what the module
 * reads at each edge of a measured call, and how two edges become one
 * struct cbench_ksample.
 */
#ifndef _CBENCH_LIB_SAMPLE_H
#define _CBENCH_LIB_SAMPLE_H

#include "types.h"

/* What is read at one edge of a measured call, kept quiet. */
struct cbench_edge {
	u64 tsc;
	u64 counters[CBENCH_COUNTERS];	/* raw counter values */
	u64 nmi_count;			/* NMIs taken on this CPU so far */
	u64 smi_count;			/* MSR_SMI_COUNT; 0 where not read */
	u64 irq_count;			/* interrupts taken on this CPU so far, in
					 * LVT mode (interrupts on); 0 where not read */
	u32 cpu;			/* the CPU the edge was read on */
	u32 inactive;			/* CBENCH_COUNTER_F_* found not counting */
};

/* How a run turns edges into samples. */
struct cbench_sample_rules {
	u32 cpu;			/* the run's CPU */
	u32 counters;			/* CBENCH_COUNTER_F_* measured */
	u32 width_bits[CBENCH_COUNTERS];	/* counter widths; 0 or >= 64: full */
	u64 budget_tsc;			/* IRQ-off budget in TSC ticks; 0: none */
};

/* after - before, for a counter that wraps at 2^width_bits. */
u64 cbench_counter_delta(u64 before, u64 after, u32 width_bits);

/*
 * Fills *sample from two edges: deltas of the TSC and of the measured
 * counters (others 0), and a CBENCH_SAMPLE_F_* flag for each disturbance:
 * an NMI, SMI or interrupt count that moved, an edge read on another CPU, a measured
 * counter found inactive at either edge, a TSC delta over the budget.
 */
void cbench_sample_make(const struct cbench_sample_rules *rules, const struct cbench_edge *before,
			const struct cbench_edge *after, struct cbench_ksample *sample);

/* Keeps in *least the field-wise minimum of itself and *sample. */
void cbench_sample_least(struct cbench_ksample *least, const struct cbench_ksample *sample);

/*
 * The reps of a run's budget probe (kmod/measure.c), shared with cbenchctl so
 * that user mode rehearses every call ring 0 will make: 1, then
 * CBENCH_PROBE_RAMP times more at each step, then last, the last sample's
 * reps.  cbench_probe_next(reps, last) is the step after reps; the probe
 * ends once it returns last.
 */
#define CBENCH_PROBE_RAMP 16
u64 cbench_probe_next(u64 reps, u64 last);

#endif /* _CBENCH_LIB_SAMPLE_H */
