/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The measuring CPU's environment, as a report states it so that benchstat
 * keeps runs made under different conditions apart: its frequency
 * governor, boost/turbo, whether its SMT siblings are online, and whether
 * it is isolated.  Read through sysroot.c, like `doctor` reads it.
 */
#ifndef _CBENCH_CPUENV_H
#define _CBENCH_CPUENV_H

struct cbench_cpuenv {
	char governor[32];	/* "performance", ...; "none" without cpufreq */
	char boost[16];		/* "on", "off", or "unknown" (no knob exposed) */
	char smt[48];		/* "sibling online" or "no online sibling" */
	char isolation[64];	/* "none", or the mechanisms: "isolcpus nohz_full rcu_nocbs" */
};

void cbench_cpuenv_probe(int cpu, struct cbench_cpuenv *e);

#endif /* _CBENCH_CPUENV_H */
