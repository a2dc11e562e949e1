// SPDX-License-Identifier: GPL-2.0
/* The measuring CPU's environment; see cpuenv.h. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "machine/cpuenv.h"

void cbench_cpu_path(char *buf, size_t size, int cpu, const char *rest)
{
	snprintf(buf, size, CBENCH_CPU_DIR "/cpu%d/%s", cpu, rest);
}

void cbench_boost_knobs(int cpu, struct cbench_boost_knob k[CBENCH_BOOST_KNOBS])
{
	snprintf(k[0].path, sizeof(k[0].path), CBENCH_CPU_DIR "/intel_pstate/no_turbo");
	k[0].name = "intel_pstate no_turbo";
	k[0].on = 0;
	snprintf(k[1].path, sizeof(k[1].path), CBENCH_CPU_DIR "/cpufreq/boost");
	k[1].name = "cpufreq boost";
	k[1].on = 1;
	cbench_cpu_path(k[2].path, sizeof(k[2].path), cpu, "cpufreq/boost");
	k[2].name = "policy boost";
	k[2].on = 1;
}

int cbench_cpu_siblings(int cpu, char *list, size_t size, unsigned long bits[CBENCH_CPU_WORDS])
{
	char path[96];

	cbench_cpu_path(path, sizeof(path), cpu, "topology/thread_siblings_list");
	if (cbench_sysroot_read_line(path, list, size) <= 0 ||
	    cbench_cpulist_parse(list, bits, CBENCH_MAX_CPUS))
		return -ENOENT;
	return 0;
}

static void governor(int cpu, struct cbench_cpuenv *e)
{
	char path[96];

	cbench_cpu_path(path, sizeof(path), cpu, "cpufreq/scaling_governor");
	if (cbench_sysroot_read_line(path, e->governor, sizeof(e->governor)) <= 0)
		snprintf(e->governor, sizeof(e->governor), "none");
}

/* Boost is on if any knob that applies says so. */
static void boost(int cpu, struct cbench_cpuenv *e)
{
	struct cbench_boost_knob knobs[CBENCH_BOOST_KNOBS];
	bool known = false, on = false;
	long v;

	cbench_boost_knobs(cpu, knobs);
	for (size_t i = 0; i < CBENCH_BOOST_KNOBS; i++) {
		if (cbench_sysroot_read_long(knobs[i].path, &v))
			continue;
		known = true;
		on |= (v != 0) == (knobs[i].on != 0);
	}
	snprintf(e->boost, sizeof(e->boost), "%s", !known ? "unknown" : on ? "on" : "off");
}

/* The siblings list holds online CPUs only: lab setup takes the measuring
 * CPU's siblings offline, and then it holds the CPU alone. */
static void smt(int cpu, struct cbench_cpuenv *e)
{
	unsigned long bits[CBENCH_CPU_WORDS];
	char list[256];
	unsigned int others = 0;

	if (!cbench_cpu_siblings(cpu, list, sizeof(list), bits)) {
		for (unsigned int c = 0; c < CBENCH_MAX_CPUS; c++)
			others += c != (unsigned int)cpu && cbench_cpuset_has(bits, c);
	}
	snprintf(e->smt, sizeof(e->smt), "%s", others ? "sibling online" : "no online sibling");
}

static void isolation(int cpu, struct cbench_cpuenv *e)
{
	static const char *const lists[][2] = {
		{ CBENCH_CPU_DIR "/isolated", "isolcpus" },
		{ CBENCH_CPU_DIR "/nohz_full", "nohz_full" },
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
