// SPDX-License-Identifier: GPL-2.0
/*
 * LVT masking for a quiet measured region; see quiet.h.
 *
 * The APIC is read and written through the kernel's struct apic (xAPIC
 * registers or x2APIC MSRs alike); apic_read() and apic_write() are static
 * calls modules cannot use since 6.9, but the apic pointer is exported.
 * Entries the APIC does not have (its maxlvt) are left alone: an x2APIC
 * faults on a register that is not there.
 */
#include <linux/bug.h>
#include <linux/init.h>
#include <linux/irqflags.h>
#include <linux/kernel_stat.h>
#include <linux/percpu.h>
#include <linux/smp.h>
#include <asm/apic.h>
#include <asm/hardirq.h>
#include <asm/msr.h>
#include <asm/processor.h>

#include "quiet.h"

#ifndef APIC_LVT_TIMER_MASK
#define APIC_LVT_TIMER_MASK (3 << 17)
#endif

/* Registers, in restore order's reverse, and the least maxlvt each needs. */
static const struct {
	u32 reg;
	u32 maxlvt;
} lvts[CBENCH_LVTS] = {
	{ APIC_LVTT, 0 },
	{ APIC_LVTTHMR, 5 },
	{ APIC_LVTPC, 4 },
	{ APIC_LVT0, 0 },
	{ APIC_LVT1, 0 },
	{ APIC_LVTERR, 3 },
};

void cbench_lvt_mask(struct cbench_lvt_state *st)
{
	unsigned long flags;
	u32 maxlvt;
	int i;

	local_irq_save(flags);
	maxlvt = GET_APIC_MAXLVT(apic->read(APIC_LVR));
	/*
	 * The deadline is disarmed before the timer is masked: one that
	 * passes first is delivered (and pending while interrupts are off);
	 * one read here is written back by restore().  The other way round,
	 * a deadline passing between the two would be dropped unseen.
	 */
	st->mode = apic->read(APIC_LVTT) & APIC_LVT_TIMER_MASK;
	st->deadline = 0;
	if (st->mode == APIC_LVT_TIMER_TSCDEADLINE && boot_cpu_has(X86_FEATURE_TSC_DEADLINE_TIMER)) {
		rdmsrl(MSR_IA32_TSC_DEADLINE, st->deadline);
		if (st->deadline)
			wrmsrl(MSR_IA32_TSC_DEADLINE, 0);
	}
	st->present = 0;
	for (i = 0; i < CBENCH_LVTS; i++) {
		if (maxlvt < lvts[i].maxlvt)
			continue;
		st->present |= 1U << i;
		st->lvt[i] = apic->read(lvts[i].reg);
		apic->write(lvts[i].reg, st->lvt[i] | APIC_LVT_MASKED);
	}
	/* Interrupts taken from here on (they are on in the region) may
	 * program the timer while it is masked. */
	st->irqs = cbench_irq_count();
	local_irq_restore(flags);
}

/* The MSR whose bits say which counters overflowed; 0 where there is none
 * (before Intel's perfmon v2 and AMD's PerfMonV2).  Set once at load: a
 * CPUID per sample would be an exit to the host in a VM. */
static u32 overflow_status_msr __ro_after_init;

void __init cbench_quiet_init(void)
{
	if (boot_cpu_has(X86_FEATURE_ARCH_PERFMON) && (cpuid_eax(0xa) & 0xff) >= 2)
		overflow_status_msr = MSR_CORE_PERF_GLOBAL_STATUS;
	else if (boot_cpu_has(X86_FEATURE_PERFMON_V2))
		overflow_status_msr = MSR_AMD64_PERF_CNTR_GLOBAL_STATUS;
}

/* A counter overflow whose interrupt the masked LVTPC dropped. */
static bool pmi_dropped(const struct cbench_lvt_state *st)
{
	u64 status;

	if (!overflow_status_msr || !(st->present & (1U << 2)) || (st->lvt[2] & APIC_LVT_MASKED))
		return false;
	rdmsrl(overflow_status_msr, status);
	/* The overflow bits: general counters low, fixed ones from bit 32. */
	return status & GENMASK_ULL(47, 0);
}

/*
 * The timer's interrupt, if it was due while masked.  touched: interrupts
 * were taken meanwhile, and may have programmed it.  A timer that fires
 * once too often costs the kernel a look at its hrtimers; one that never
 * fires stops the CPU's clock events for good, so where we cannot tell,
 * it fires.
 */
static void restart_timer(const struct cbench_lvt_state *st, bool touched)
{
	u64 now;

	/* Stopped by the kernel (masked): nothing is due. */
	if (st->lvt[0] & APIC_LVT_MASKED)
		return;
	if (st->mode == APIC_LVT_TIMER_TSCDEADLINE && boot_cpu_has(X86_FEATURE_TSC_DEADLINE_TIMER)) {
		/* Armed now: by us never, so by the kernel, for later. */
		rdmsrl(MSR_IA32_TSC_DEADLINE, now);
		if (now)
			return;
		/* A deadline in the past fires at once. */
		if (st->deadline || touched)
			wrmsrl(MSR_IA32_TSC_DEADLINE, st->deadline ? st->deadline : 1);
	} else if (st->mode == APIC_LVT_TIMER_ONESHOT) {
		/*
		 * Run out, having been started: its interrupt met the mask,
		 * or may have.  The count reads 0 from the moment it runs out,
		 * and in a VM its interrupt may follow later (QEMU's a tick
		 * later); a mask in between drops it.
		 */
		if (!apic->read(APIC_TMCCT) && apic->read(APIC_TMICT))
			apic->write(APIC_TMICT, 1);
	}
}

void cbench_lvt_restore(const struct cbench_lvt_state *st)
{
	unsigned long flags;
	u32 now;
	int i;

	local_irq_save(flags);
	for (i = CBENCH_LVTS - 1; i >= 0; i--) {
		if (st->present & (1U << i))
			apic->write(lvts[i].reg, st->lvt[i]);
	}
	/* Exactly as they were, but for the read-only delivery status. */
	for (i = 0; i < CBENCH_LVTS; i++) {
		if (!(st->present & (1U << i)))
			continue;
		now = apic->read(lvts[i].reg);
		WARN_ONCE((now ^ st->lvt[i]) & ~APIC_SEND_PENDING,
			  "cbench: LVT entry 0x%x is 0x%x after a sample, was 0x%x\n", lvts[i].reg, now,
			  st->lvt[i]);
	}
	restart_timer(st, cbench_irq_count() != st->irqs);
	if (pmi_dropped(st))
		apic->send_IPI_mask(cpumask_of(smp_processor_id()), NMI_VECTOR);
	local_irq_restore(flags);
}

u64 cbench_irq_count(void)
{
	/* Every counter of irq_stat after the NMIs' (the fields vary with the
	 * kernel's configuration; the padding after them stays 0), and the
	 * device interrupts. */
	const unsigned int *c = this_cpu_ptr(&irq_stat.apic_timer_irqs);
	const unsigned int *end = (const unsigned int *)(this_cpu_ptr(&irq_stat) + 1);
	u64 sum = kstat_this_cpu->irqs_sum;

	for (; c < end; c++)
		sum += *c;
	return sum;
}
