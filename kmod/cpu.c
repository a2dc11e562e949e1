// SPDX-License-Identifier: GPL-2.0
/*
 * What the CPU offers for measurement: its identity and PMU as CPUID
 * enumerates them, and which counters perf actually lends us.
 */
#include <linux/cache.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/perf_event.h>
#include <asm/processor.h>

#include <uapi/linux/cbench.h>

#include "cpu.h"

struct cbench_cpu cbench_cpu __ro_after_init;
u32 cbench_counters_at_load __ro_after_init;
unsigned int cbench_counters_cpu __ro_after_init;

static void read_cpuid(u32 leaf, u32 subleaf, struct cbench_cpuid_regs *r)
{
	cpuid_count(leaf, subleaf, &r->eax, &r->ebx, &r->ecx, &r->edx);
}

/*
 * Can we have a counter for this event on this CPU, now?  We ask perf for a
 * pinned per-CPU kernel counter, the way the backend will reserve it, so we
 * cooperate with perf users and the NMI watchdog instead of taking the PMU
 * behind their back.  Creation succeeding is not enough: a pinned event that
 * does not fit on the PMU (the NMI watchdog or another pinned user holds
 * the counters it could use) is created in the error state.  Without a PMU
 * (most VMs) perf answers -ENOENT.
 */
static bool counter_usable(unsigned int cpu, u64 config)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_HARDWARE,
		.size = sizeof(attr),
		.config = config,
		.pinned = 1,
	};
	struct perf_event *event;
	bool usable;

	event = perf_event_create_kernel_counter(&attr, cpu, NULL, NULL, NULL);
	if (IS_ERR(event)) {
		pr_debug("CPU %u: perf event %llu: error %ld\n", cpu, config, PTR_ERR(event));
		return false;
	}
	usable = READ_ONCE(event->state) >= PERF_EVENT_STATE_INACTIVE;
	perf_event_release_kernel(event);
	return usable;
}

/* Returns the CBENCH_COUNTER_F_* perf can lend us on cpu right now. */
u32 cbench_counters_probe(unsigned int cpu)
{
	static const struct {
		u64 config;
		u32 flag;
	} events[] = {
		{ PERF_COUNT_HW_INSTRUCTIONS, CBENCH_COUNTER_F_INSTRUCTIONS },
		{ PERF_COUNT_HW_CPU_CYCLES, CBENCH_COUNTER_F_CYCLES },
		{ PERF_COUNT_HW_REF_CPU_CYCLES, CBENCH_COUNTER_F_REF_CYCLES },
	};
	u32 counters = 0;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(events); i++) {
		if (counter_usable(cpu, events[i].config))
			counters |= events[i].flag;
	}
	return counters;
}

/*
 * We decode CPUID on whichever CPU runs module init and take it for all.
 * That is wrong on hybrid parts, whose core types enumerate different
 * counters; the backend must decode on its target CPU before relying on
 * a count.
 */
void __init cbench_cpu_init(void)
{
	cbench_cpuid_decode(&cbench_cpu, read_cpuid);
	cbench_counters_cpu = cpumask_first(cpu_online_mask);
	cbench_counters_at_load = cbench_counters_probe(cbench_counters_cpu);
}
