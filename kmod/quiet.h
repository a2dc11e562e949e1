/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The second way of keeping a sample's measured region quiet (enum
 * cbench_quiet): interrupts stay on, and the local APIC's own sources are
 * masked for the region instead (nanoBench's way; on some cores interrupts
 * held pending under cli slow retirement).  Interrupts from elsewhere still
 * arrive, so each edge of a sample counts this CPU's interrupts.
 */
#ifndef _CBENCH_QUIET_H
#define _CBENCH_QUIET_H

#include <linux/init.h>
#include <linux/types.h>

/* LVT entries: timer, thermal, performance counter, LINT0, LINT1, error. */
#define CBENCH_LVTS 6

/* Reads once what restore needs of the PMU; at module load. */
void __init cbench_quiet_init(void);

/* What cbench_lvt_mask() found, for cbench_lvt_restore(). */
struct cbench_lvt_state {
	u32 lvt[CBENCH_LVTS];		/* as they were */
	u32 present;			/* bit i: entry i exists (the APIC's maxlvt) */
	u32 mode;			/* the timer's: APIC_LVT_TIMER_* */
	u64 deadline;			/* IA32_TSC_DEADLINE, TSC-deadline mode; 0 */
	u64 irqs;			/* cbench_irq_count() once masked */
};

/*
 * Masks every LVT entry and disarms the TSC deadline, with interrupts off
 * meanwhile; returns with them as they were (on, for a sample).
 */
void cbench_lvt_mask(struct cbench_lvt_state *st);

/*
 * Puts back every entry exactly; a timer that came due while masked (its
 * interrupt was dropped, not held) fires now: the deadline is written back,
 * a one-shot count that ran out is restarted at 1.  An interrupt taken
 * meanwhile (interrupts are on) may have programmed the timer anew while
 * it was masked, so after one a timer found run out fires too.  A
 * performance-counter overflow that happened meanwhile is raised again as
 * the NMI it was.
 */
void cbench_lvt_restore(const struct cbench_lvt_state *st);

/* This CPU's interrupts so far, of every kind but NMIs (counted apart). */
u64 cbench_irq_count(void);

#endif /* _CBENCH_QUIET_H */
