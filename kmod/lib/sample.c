// SPDX-License-Identifier: GPL-2.0
/* Sample arithmetic; see sample.h. */
#include "sample.h"

u64 cbench_counter_delta(u64 before, u64 after, u32 width_bits)
{
	/*
	 * Unsigned subtraction wraps modulo 2^64; masking to the width makes it
	 * wrap modulo 2^width, which is what a counter narrower than 64 bits
	 * does (48 bits on most cores).  rdpmc may also sign-extend the upper
	 * bits on some parts; the mask discards them.
	 */
	u64 delta = after - before;

	if (width_bits == 0 || width_bits >= 64)
		return delta;
	return delta & ((1ULL << width_bits) - 1);
}

void cbench_sample_make(const struct cbench_sample_rules *rules, const struct cbench_edge *before,
			const struct cbench_edge *after, struct cbench_ksample *sample)
{
	u32 flags = 0;
	u32 i;

	sample->tsc = after->tsc - before->tsc;
	for (i = 0; i < CBENCH_COUNTERS; i++) {
		if (rules->counters & (1U << i))
			sample->counters[i] = cbench_counter_delta(before->counters[i],
								   after->counters[i],
								   rules->width_bits[i]);
		else
			sample->counters[i] = 0;
	}
	if (after->nmi_count != before->nmi_count)
		flags |= CBENCH_SAMPLE_F_NMI;
	if (after->smi_count != before->smi_count)
		flags |= CBENCH_SAMPLE_F_SMI;
	if (after->irq_count != before->irq_count)
		flags |= CBENCH_SAMPLE_F_IRQ;
	if (before->cpu != rules->cpu || after->cpu != rules->cpu)
		flags |= CBENCH_SAMPLE_F_CPU;
	if ((before->inactive | after->inactive) & rules->counters)
		flags |= CBENCH_SAMPLE_F_UNSCHEDULED;
	if (rules->budget_tsc && sample->tsc > rules->budget_tsc)
		flags |= CBENCH_SAMPLE_F_OVER_BUDGET;
	sample->flags = flags;
	sample->cpu = after->cpu;
}

void cbench_sample_least(struct cbench_ksample *least, const struct cbench_ksample *sample)
{
	u32 i;

	if (sample->tsc < least->tsc)
		least->tsc = sample->tsc;
	for (i = 0; i < CBENCH_COUNTERS; i++) {
		if (sample->counters[i] < least->counters[i])
			least->counters[i] = sample->counters[i];
	}
}

u64 cbench_probe_next(u64 reps, u64 last)
{
	return reps > last / CBENCH_PROBE_RAMP ? last : reps * CBENCH_PROBE_RAMP;
}
