/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What this machine is, as far as a benchmark result depends on it: the
 * facts reported in configuration lines and by `cbenchctl info`.
 */
#ifndef _CBENCH_PROBE_H
#define _CBENCH_PROBE_H

#include <stdbool.h>
#include <stddef.h>
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
	/* A hybrid Intel part (CPUID.07H:EDX[15]), and the core type
	 * (CPUID.1AH:EAX[31:24]) of the CPU the probe ran on; 0 otherwise. */
	bool hybrid;
	unsigned int core_type;
	/* What user space may actually use here. */
	bool perf_hw_usable;		/* perf_event_open(HW instructions) works */
	bool perf_sw_usable;		/* perf_event_open(SW context switches) works */
	int perf_paranoid;		/* kernel.perf_event_paranoid; -99 if unknown */
	int rdpmc_sysfs;		/* .../cpu/rdpmc: 0 off, 1 mmap'd events, 2 all; -1 absent */
};

#define CBENCH_PARANOID_UNKNOWN (-99)

struct cbench_cpu;

/* The CPUID facts of cpu (kmod/lib/cpuid.h's decoding) into m. */
void cbench_machine_from_cpu(struct cbench_machine *m, const struct cbench_cpu *cpu);

/* Fills m.  Never fails: what cannot be learnt is left as documented. */
void cbench_machine_probe(struct cbench_machine *m);

/* The last CPU this process may run on (its affinity), where cbench measures
 * unless told otherwise; 0 if the affinity cannot be read. */
int cbench_last_allowed_cpu(void);

/*
 * The core type of CPU cpu (CBENCH_CORE_TYPE_* of kmod/lib/cpuid.h) on a
 * hybrid part, read there (the calling thread visits it); 0 on any other
 * part, or if the CPU cannot be visited.
 */
unsigned int cbench_core_type_on(int cpu);

struct cbench_core;

/* The core CPU cpu is (machine/uarch.h), identified there (the calling
 * thread visits it: a hybrid part's cores differ); here if it cannot. */
void cbench_core_probe(int cpu, struct cbench_core *core);

/*
 * The measuring CPU's PMU in one line, for reports, info and doctor: the
 * vendor's counter architecture and version, the counters and their width,
 * on a hybrid part the core type of CPU cpu (core_type), and on a machine
 * whose CPUID enumerates no counters, that (a VM without a virtual PMU).
 */
void cbench_pmu_text(const struct cbench_machine *m, unsigned int core_type, int cpu, char *buf,
		     size_t len);

/* Raw CPUID, for callers that decode leaves themselves. */
void cbench_cpuid(uint32_t leaf, uint32_t subleaf, uint32_t regs[4]);

/*
 * Software events of the kinds each trial's worker counts, opened disabled
 * on this thread and held while a session measures: the first such event
 * on the system turns a kernel static key on and the last turns it off,
 * each a text patch with an IPI to every CPU; a worker a trial then opens
 * and closes its own without either (a 512-benchmark run spent 11 % of its
 * time patching).  An fd -1 where the kernel refused one (nothing lost: the
 * worker's own open says why).
 */
#define CBENCH_SW_HELD 3
/* Their kinds, in this order: context switches, CPU migrations, page faults. */
extern const uint64_t cbench_sw_event_configs[CBENCH_SW_HELD];
void cbench_sw_events_hold(int fds[CBENCH_SW_HELD]);
void cbench_sw_events_release(int fds[CBENCH_SW_HELD]);

#endif /* _CBENCH_PROBE_H */
