/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The measuring CPU's environment, as a report states it so that benchstat
 * keeps runs made under different conditions apart: its frequency
 * governor, boost/turbo, whether its SMT siblings are online, and whether
 * it is isolated.  Read through sysroot.c.  The knobs' places are here
 * once, for `doctor`, which judges them, and `lab`, which sets them.
 */
#ifndef _CBENCH_CPUENV_H
#define _CBENCH_CPUENV_H

#include <stddef.h>

#include "machine/sysroot.h"

/* Where the kernel keeps the CPUs' knobs. */
#define CBENCH_CPU_DIR "/sys/devices/system/cpu"

struct cbench_cpuenv {
	char governor[32];	/* "performance", ...; "none" without cpufreq */
	char boost[16];		/* "on", "off", or "unknown" (no knob exposed) */
	char smt[48];		/* "sibling online" or "no online sibling" */
	char isolation[64];	/* "none", or the mechanisms: "isolcpus nohz_full rcu_nocbs" */
};

void cbench_cpuenv_probe(int cpu, struct cbench_cpuenv *e);

/* CBENCH_CPU_DIR "/cpuN/<rest>" for CPU cpu, into buf. */
void cbench_cpu_path(char *buf, size_t size, int cpu, const char *rest);

/* A knob that turns boost (turbo) on or off. */
struct cbench_boost_knob {
	char path[96];
	const char *name;	/* "intel_pstate no_turbo", ... */
	long on;		/* the value that means boost is on; !on is off */
};

/* The knobs that may boost cpu, whether this machine has them or not:
 * intel_pstate's no_turbo (which says it backwards), cpufreq's global
 * boost and the boost of cpu's policy. */
#define CBENCH_BOOST_KNOBS 3
void cbench_boost_knobs(int cpu, struct cbench_boost_knob knobs[CBENCH_BOOST_KNOBS]);

/* cpu's SMT siblings, itself among them, as the kernel's list and as
 * bits: 0, or -ENOENT when it gives no topology for cpu. */
int cbench_cpu_siblings(int cpu, char *list, size_t size, unsigned long bits[CBENCH_CPU_WORDS]);

#endif /* _CBENCH_CPUENV_H */
