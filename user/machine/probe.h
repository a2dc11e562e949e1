/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What this machine is, as far as a benchmark result depends on it: the
 * facts reported in configuration lines and by `cbenchctl info`.
 */
#ifndef _CBENCH_PROBE_H
#define _CBENCH_PROBE_H

#include <stdbool.h>
#include <stdint.h>

struct cbench_machine {
	char cpu_vendor[13];		/* CPUID vendor, e.g. "GenuineIntel" */
	char cpu_name[64];		/* brand string; "" if the CPU has none */
	unsigned int cpu_family;	/* display family */
	unsigned int cpu_model;		/* display model */
	unsigned int cpu_stepping;
	int cpus_online;
	char kernel_release[65];	/* uname -r */
	char hostname[65];
	char microcode[24];		/* the revision CPU 0 runs, "0x..."; "" if unknown (a VM) */
	uint64_t mem_bytes;		/* physical memory; 0 if unknown */
	bool hypervisor;		/* CPUID.1:ECX[31]: running in a VM */
	bool tsc_invariant;		/* CPUID.80000007H:EDX[8] */
	bool rdtscp;			/* CPUID.80000001H:EDX[27] */
	/* Architectural PMU, from CPUID.0AH (Intel) or the AMD leaves. */
	unsigned int pmu_version;	/* 0: no architectural PMU */
	unsigned int pmu_gp_counters;
	unsigned int pmu_gp_bits;
	unsigned int pmu_fixed_counters;
	unsigned int pmu_fixed_bits;
	/* What user space may actually use here. */
	bool perf_hw_usable;		/* perf_event_open(HW instructions) works */
	bool perf_sw_usable;		/* perf_event_open(SW context switches) works */
	int perf_paranoid;		/* kernel.perf_event_paranoid; -99 if unknown */
	int rdpmc_sysfs;		/* .../cpu/rdpmc: 0 off, 1 mmap'd events, 2 all; -1 absent */
};

#define CBENCH_PARANOID_UNKNOWN (-99)

/* Fills m.  Never fails: what cannot be learnt is left as documented. */
void cbench_machine_probe(struct cbench_machine *m);

/* The last CPU this process may run on (its affinity), where cbench measures
 * unless told otherwise; 0 if the affinity cannot be read. */
int cbench_last_allowed_cpu(void);

/* Raw CPUID, for callers that decode leaves themselves. */
void cbench_cpuid(uint32_t leaf, uint32_t subleaf, uint32_t regs[4]);

#endif /* _CBENCH_PROBE_H */
