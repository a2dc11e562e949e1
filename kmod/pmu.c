// SPDX-License-Identifier: GPL-2.0
/*
 * Counters for one run.
 *
 * We ask perf for pinned per-CPU kernel counters, so we hold them the way
 * perf's own users do and the NMI watchdog keeps its cycles counter.  Inside
 * a sample (interrupts off, so perf cannot reschedule them under us) we
 * check each event is active on this CPU and read it with rdpmc at the index
 * perf chose, event->hw.event_base_rdpmc.
 *
 * Without a PMU (every VM we test in) perf fails with -ENOENT and rdpmc
 * raises #UD or #GP; we probe rdpmc once through an exception-table fixup
 * so a fault becomes an error code, then measure with the TSC alone.  QEMU
 * cannot show wraps, NMIs during a sample or a counter perf took away, so
 * the test-only synthetic_pmu parameter makes them up on a schedule, and
 * every branch of sample.c runs in the guest.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <asm/asm.h>
#include <asm/processor.h>

#include "pmu.h"

static bool synthetic_pmu;
module_param(synthetic_pmu, bool, 0644);
MODULE_PARM_DESC(synthetic_pmu, "test only: fake 16-bit counters that wrap, NMIs every 7th sample "
		 "and an unscheduled counter every 11th (default: off)");

/* Synthetic counter width: small so the counters wrap within a run. */
#define SYNTHETIC_BITS 16
/*
 * Synthetic counters start just below a wrap, move on SYNTHETIC_STRIDE
 * between samples (so wraps fall at varying points) and counter i by
 * (i + 1) * SYNTHETIC_DELTA within one: 10007, 20014 and 30021, which the
 * VM test expects of every sample.
 */
#define SYNTHETIC_START ((1ULL << SYNTHETIC_BITS) - 100)
#define SYNTHETIC_STRIDE 4099
#define SYNTHETIC_DELTA 10007

static const struct {
	u32 type;
	u64 config;
} events[CBENCH_COUNTERS] = {
	[CBENCH_COUNTER_INSTRUCTIONS] = { PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	[CBENCH_COUNTER_CYCLES] = { PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	[CBENCH_COUNTER_REF_CYCLES] = { PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES },
};

/* rdpmc that returns -EFAULT instead of oopsing where it faults. */
static int rdpmc_safe(u32 index, u64 *value)
{
	u32 lo = 0, hi = 0;
	int err = -EFAULT;

	asm volatile("1: rdpmc\n"
		     "   xor %[err], %[err]\n"
		     "2:\n"
		     _ASM_EXTABLE(1b, 2b)
		     : [err] "+r"(err), "+a"(lo), "+d"(hi)
		     : "c"(index));
	*value = lo | (u64)hi << 32;
	return err;
}

/* Counter widths: CPUID.0AH on Intel (general and fixed), 48 bits on AMD. */
static u32 width_of(u32 rdpmc_index)
{
	u32 eax, ebx, ecx, edx;

	if (boot_cpu_data.x86_vendor != X86_VENDOR_INTEL || boot_cpu_data.cpuid_level < 0xa)
		return 48;
	cpuid(0xa, &eax, &ebx, &ecx, &edx);
	if (rdpmc_index & (1U << 30))
		return (edx >> 5) & 0xff ? (edx >> 5) & 0xff : 48;
	return (eax >> 16) & 0xff ? (eax >> 16) & 0xff : 48;
}

/* On the run's CPU: can we rdpmc each event perf gave us? */
static void probe(void *data)
{
	struct cbench_pmu *pmu = data;
	unsigned long flags;
	u32 i;

	local_irq_save(flags);
	for (i = 0; i < CBENCH_COUNTERS; i++) {
		struct perf_event *event = pmu->events[i];
		u64 value;

		if (!event)
			continue;
		/* event_base_rdpmc is rdpmc's ECX itself (perf's mmap index is it + 1). */
		if (event->state != PERF_EVENT_STATE_ACTIVE ||
		    rdpmc_safe(event->hw.event_base_rdpmc, &value)) {
			pmu->counters &= ~(1U << i);
			continue;
		}
		pmu->width_bits[i] = width_of(event->hw.event_base_rdpmc);
	}
	local_irq_restore(flags);
}

int cbench_pmu_open(struct cbench_pmu *pmu, int cpu)
{
	int ret;
	u32 i;

	memset(pmu, 0, sizeof(*pmu));
	if (READ_ONCE(synthetic_pmu)) {
		pmu->synthetic = true;
		pmu->counters = __CBENCH_COUNTER_F_ALL;
		for (i = 0; i < CBENCH_COUNTERS; i++)
			pmu->width_bits[i] = SYNTHETIC_BITS;
		return 0;
	}
	for (i = 0; i < CBENCH_COUNTERS; i++) {
		struct perf_event_attr attr = {
			.type = events[i].type,
			.config = events[i].config,
			.size = sizeof(attr),
			.pinned = 1,
			.exclude_hv = 1,
		};
		struct perf_event *event;

		event = perf_event_create_kernel_counter(&attr, cpu, NULL, NULL, NULL);
		if (IS_ERR(event))
			continue;
		pmu->events[i] = event;
		pmu->counters |= 1U << i;
	}
	if (pmu->counters) {
		ret = smp_call_function_single(cpu, probe, pmu, 1);
		if (ret) {
			/* The CPU went offline since the request was checked: no run there. */
			cbench_pmu_close(pmu);
			return ret;
		}
	}
	for (i = 0; i < CBENCH_COUNTERS; i++) {
		if (pmu->events[i] && !(pmu->counters & (1U << i))) {
			perf_event_release_kernel(pmu->events[i]);
			pmu->events[i] = NULL;
		}
	}
	return 0;
}

void cbench_pmu_close(struct cbench_pmu *pmu)
{
	u32 i;

	for (i = 0; i < CBENCH_COUNTERS; i++) {
		if (pmu->events[i])
			perf_event_release_kernel(pmu->events[i]);
		pmu->events[i] = NULL;
	}
	pmu->counters = 0;
}

static void read_synthetic(struct cbench_pmu *pmu, struct cbench_edge *edge, bool after)
{
	u64 value = SYNTHETIC_START + pmu->ticks * SYNTHETIC_STRIDE;
	u32 i;

	/*
	 * From our own count of samples, never from the edge, so each value
	 * is known: counter i advances (i + 1) * SYNTHETIC_DELTA in every
	 * sample, wrapping in many of them.
	 */
	for (i = 0; i < CBENCH_COUNTERS; i++)
		edge->counters[i] = (value + (after ? (i + 1) * SYNTHETIC_DELTA : 0)) &
				    ((1ULL << SYNTHETIC_BITS) - 1);
	if (after) {
		pmu->ticks++;
		if (pmu->ticks % 7 == 0)
			edge->nmi_count++;
		if (pmu->ticks % 11 == 0)
			edge->inactive |= CBENCH_COUNTER_F_CYCLES;
	}
}

void cbench_pmu_read(struct cbench_pmu *pmu, struct cbench_edge *edge, bool after)
{
	u32 i;

	edge->inactive = 0;
	if (pmu->synthetic) {
		read_synthetic(pmu, edge, after);
		return;
	}
	for (i = 0; i < CBENCH_COUNTERS; i++) {
		struct perf_event *event = pmu->events[i];

		edge->counters[i] = 0;
		if (!event)
			continue;
		/* Interrupts are off: perf cannot move the event while we look. */
		if (event->state != PERF_EVENT_STATE_ACTIVE ||
		    event->oncpu != smp_processor_id()) {
			edge->inactive |= 1U << i;
			continue;
		}
		asm volatile("lfence" ::: "memory");
		edge->counters[i] = native_read_pmc(event->hw.event_base_rdpmc);
		asm volatile("lfence" ::: "memory");
	}
}
