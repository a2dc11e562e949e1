/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _CBENCH_CPU_H
#define _CBENCH_CPU_H

#include <linux/init.h>
#include <linux/types.h>

#include "lib/cpuid.h"

/* The CPU as CPUID describes it, decoded once at load. */
extern struct cbench_cpu cbench_cpu;

/* CBENCH_COUNTER_F_* perf lent us at load, and the CPU it was asked on. */
extern u32 cbench_counters_at_load;
extern unsigned int cbench_counters_cpu;

void __init cbench_cpu_init(void);
u32 cbench_counters_probe(unsigned int cpu);

#endif /* _CBENCH_CPU_H */
