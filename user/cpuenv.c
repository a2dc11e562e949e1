// SPDX-License-Identifier: GPL-2.0
/* The measuring CPU's environment; see cpuenv.h. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cpuenv.h"
#include "sysroot.h"

#define CPU_DIR "/sys/devices/system/cpu"

static void governor(int cpu, struct cbench_cpuenv *e)
{
	char path[96];

	snprintf(path, sizeof(path), CPU_DIR "/cpu%d/cpufreq/scaling_governor", cpu);
	if (cbench_sysroot_read_line(path, e->governor, sizeof(e->governor)) <= 0)
		snprintf(e->governor, sizeof(e->governor), "none");
}

/* Boost is on if any knob that applies says so; intel_pstate says it
 * backwards (no_turbo). */
static void boost(int cpu, struct cbench_cpuenv *e)
{
	char policy[96];
	long v;
	bool known = false, on = false;

	snprintf(policy, sizeof(policy), CPU_DIR "/cpu%d/cpufreq/boost", cpu);
	if (!cbench_sysroot_read_long(CPU_DIR "/intel_pstate/no_turbo", &v)) {
		known = true;
		on |= !v;
	}
	if (!cbench_sysroot_read_long(CPU_DIR "/cpufreq/boost", &v)) {
		known = true;
		on |= v != 0;
	}
	if (!cbench_sysroot_read_long(policy, &v)) {
		known = true;
		on |= v != 0;
	}
	snprintf(e->boost, sizeof(e->boost), "%s", !known ? "unknown" : on ? "on" : "off");
}

/* The siblings list holds online CPUs only: lab setup takes the measuring
 * CPU's siblings offline, and then it holds the CPU alone. */
static void smt(int cpu, struct cbench_cpuenv *e)
{
	unsigned long bits[CBENCH_CPU_WORDS];
	char path[96], list[256];
	unsigned int others = 0;

	snprintf(path, sizeof(path), CPU_DIR "/cpu%d/topology/thread_siblings_list", cpu);
	if (cbench_sysroot_read_line(path, list, sizeof(list)) > 0 &&
	    !cbench_cpulist_parse(list, bits, CBENCH_MAX_CPUS)) {
		for (unsigned int c = 0; c < CBENCH_MAX_CPUS; c++)
			others += c != (unsigned int)cpu && (bits[c / (8 * sizeof(bits[0]))] >>
							     (c % (8 * sizeof(bits[0]))) & 1);
	}
	snprintf(e->smt, sizeof(e->smt), "%s", others ? "sibling online" : "no online sibling");
}

static void isolation(int cpu, struct cbench_cpuenv *e)
{
	static const char *const lists[][2] = {
		{ CPU_DIR "/isolated", "isolcpus" },
		{ CPU_DIR "/nohz_full", "nohz_full" },
	};
	char list[256];
	size_t at = 0;

	e->isolation[0] = '\0';
	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		if (cbench_sysroot_read_line(lists[i][0], list, sizeof(list)) >= 0 &&
		    cbench_cpulist_has(list, (unsigned int)cpu))
			at += (size_t)snprintf(e->isolation + at, sizeof(e->isolation) - at, "%s%s",
					       at ? " " : "", lists[i][1]);
	}
	if (!at)
		snprintf(e->isolation, sizeof(e->isolation), "none");
}

void cbench_cpuenv_probe(int cpu, struct cbench_cpuenv *e)
{
	memset(e, 0, sizeof(*e));
	governor(cpu, e);
	boost(cpu, e);
	smt(cpu, e);
	isolation(cpu, e);
}
