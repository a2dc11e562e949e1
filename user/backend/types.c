// SPDX-License-Identifier: GPL-2.0
/* Samples and counters; see types.h. */
#include <uapi/linux/cbench.h>

#include "backend/types.h"

_Static_assert(CBENCH_HAVE_INSTRUCTIONS == CBENCH_COUNTER_F_INSTRUCTIONS &&
	       CBENCH_HAVE_CYCLES == CBENCH_COUNTER_F_CYCLES &&
	       CBENCH_HAVE_REF_CYCLES == CBENCH_COUNTER_F_REF_CYCLES,
	       "counter bits differ between cbench.ko and cbenchctl");

const char *const cbench_disturb_names[CBENCH_DISTURB_KINDS] = {
	"context-switch", "migration", "page-fault", "counter-descheduled", "nmi", "over-budget",
	"interrupt", "smi",
};

const char *const cbench_counter_names[CBENCH_COUNTER_KINDS] = {
	"instructions", "cycles", "ref-cycles",
};

void cbench_sample_add(struct cbench_sample *sum, const struct cbench_sample *one)
{
	if (!sum->start_ticks)
		sum->start_ticks = one->start_ticks;
	sum->reps += one->reps;
	sum->ticks += one->ticks;
	sum->instructions += one->instructions;
	sum->cycles += one->cycles;
	sum->ref_cycles += one->ref_cycles;
	sum->have = one->have;
	sum->disturbed |= one->disturbed;
}
