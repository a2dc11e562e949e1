/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CPU identification and PMU capabilities decoded from CPUID.  Pure logic:
 * the caller supplies the function that executes CPUID, so the same source
 * runs in cbench.ko, in cbenchctl and, with canned register values, in the
 * unit tests.
 */
#ifndef _CBENCH_CPUID_H
#define _CBENCH_CPUID_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stdbool.h>
#include <stdint.h>
#endif

struct cbench_cpuid_regs {
	uint32_t eax, ebx, ecx, edx;
};

/* Executes CPUID(leaf, subleaf) on the current CPU. */
typedef void (*cbench_cpuid_read_fn)(uint32_t leaf, uint32_t subleaf,
				     struct cbench_cpuid_regs *regs);

enum cbench_cpu_vendor {
	CBENCH_CPU_VENDOR_OTHER,
	CBENCH_CPU_VENDOR_INTEL,
	CBENCH_CPU_VENDOR_AMD,
	CBENCH_CPU_VENDOR_HYGON,
};

/*
 * What CPUID says about the core performance counters.  Everything here is
 * enumerated by the CPU, never assumed from its model; a field CPUID does
 * not enumerate is 0, and version 0 means no counters were detected at all.
 */
struct cbench_pmu_caps {
	/*
	 * Intel (and every vendor with leaf 0AH): CPUID.0AH:EAX[7:0].
	 * AMD and Hygon: 2 with PerfMonV2, 1 with the core counter extension
	 * or the legacy counters, 0 for none.
	 */
	uint32_t version;
	uint32_t gp_counters;		/* general-purpose counters per CPU */
	uint32_t gp_bits;		/* their width in bits */
	uint32_t fixed_counters;	/* Intel fixed-function counters per CPU */
	uint32_t fixed_bits;		/* their width in bits */
	uint32_t fixed_mask;		/* bit i set: fixed counter i exists */
	/*
	 * CBENCH_COUNTER_F_* events CPUID says the counters can count.  It
	 * says nothing about whether perf will lend us a counter for them.
	 */
	uint32_t events;
};

/* CPUID.1AH:EAX[31:24] of a hybrid Intel part: the core type of the CPU
 * that executed CPUID (Intel SDM vol. 2A, CPUID leaf 1AH). */
#define CBENCH_CORE_TYPE_ATOM 0x20	/* an E-core */
#define CBENCH_CORE_TYPE_CORE 0x40	/* a P-core */

struct cbench_cpu {
	char vendor[13];		/* CPUID vendor string, NUL-terminated */
	enum cbench_cpu_vendor vendor_id;
	uint32_t family;		/* display family */
	uint32_t model;			/* display model */
	uint32_t stepping;
	bool hypervisor;		/* CPUID.1:ECX[31] */
	bool tsc_invariant;		/* CPUID.80000007H:EDX[8] */
	/* CPUID.07H:EDX[15]: a hybrid part, its cores of more than one type;
	 * core_type is then the executing CPU's (CBENCH_CORE_TYPE_*), else 0. */
	bool hybrid;
	uint32_t core_type;
	struct cbench_pmu_caps pmu;
};

/* Fills cpu from the CPUID leaves that read returns. */
void cbench_cpuid_decode(struct cbench_cpu *cpu, cbench_cpuid_read_fn read);

#endif /* _CBENCH_CPUID_H */
