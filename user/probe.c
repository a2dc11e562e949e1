// SPDX-License-Identifier: GPL-2.0
/*
 * Machine probe.  CPUID answers for the CPU; the kernel answers for what
 * user space may use, and we ask it by trying (perf_event_open) rather than
 * by guessing from version numbers.
 */
#include <cpuid.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "probe.h"

void cbench_cpuid(uint32_t leaf, uint32_t subleaf, uint32_t regs[4])
{
	__cpuid_count(leaf, subleaf, regs[0], regs[1], regs[2], regs[3]);
}

static int read_int(const char *path, int fallback)
{
	FILE *file = fopen(path, "r");
	int value;

	if (!file)
		return fallback;
	if (fscanf(file, "%d", &value) != 1)
		value = fallback;
	fclose(file);
	return value;
}

/* Opens and closes one counting event on this thread; true if it worked. */
static bool perf_event_usable(uint32_t type, uint64_t config)
{
	struct perf_event_attr attr;
	long fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config = config;
	attr.disabled = 1;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd < 0)
		return false;
	close((int)fd);
	return true;
}

static void probe_cpuid(struct cbench_machine *m)
{
	uint32_t r[4], max_leaf, max_ext;

	cbench_cpuid(0, 0, r);
	max_leaf = r[0];
	memcpy(m->cpu_vendor, &r[1], 4);
	memcpy(m->cpu_vendor + 4, &r[3], 4);
	memcpy(m->cpu_vendor + 8, &r[2], 4);
	m->cpu_vendor[12] = '\0';

	if (max_leaf >= 1) {
		unsigned int family, model;

		cbench_cpuid(1, 0, r);
		family = (r[0] >> 8) & 0xf;
		model = (r[0] >> 4) & 0xf;
		/* The extended fields count only for these base families. */
		if (family == 0xf)
			family += (r[0] >> 20) & 0xff;
		if (family == 0x6 || family >= 0xf)
			model += ((r[0] >> 16) & 0xf) << 4;
		m->cpu_family = family;
		m->cpu_model = model;
		m->cpu_stepping = r[0] & 0xf;
		m->hypervisor = r[2] & (1u << 31);
	}

	if (max_leaf >= 0xa && !strcmp(m->cpu_vendor, "GenuineIntel")) {
		cbench_cpuid(0xa, 0, r);
		m->pmu_version = r[0] & 0xff;
		if (m->pmu_version) {
			m->pmu_gp_counters = (r[0] >> 8) & 0xff;
			m->pmu_gp_bits = (r[0] >> 16) & 0xff;
			/* Fixed counters are enumerated from version 2 on. */
			if (m->pmu_version >= 2) {
				m->pmu_fixed_counters = r[3] & 0x1f;
				m->pmu_fixed_bits = (r[3] >> 5) & 0xff;
			}
		}
	}

	cbench_cpuid(0x80000000, 0, r);
	max_ext = r[0];
	if (max_ext >= 0x80000001) {
		cbench_cpuid(0x80000001, 0, r);
		m->rdtscp = r[3] & (1u << 27);
		/* AMD: PerfCtrExtCore gives six 48-bit core counters, no fixed ones. */
		if (!strcmp(m->cpu_vendor, "AuthenticAMD") && (r[2] & (1u << 23))) {
			m->pmu_gp_counters = 6;
			m->pmu_gp_bits = 48;
		}
	}
	if (max_ext >= 0x80000004) {
		uint32_t *brand = (uint32_t *)m->cpu_name;

		for (uint32_t leaf = 0; leaf < 3; leaf++)
			cbench_cpuid(0x80000002 + leaf, 0, brand + 4 * leaf);
		m->cpu_name[48] = '\0';
		/* Brand strings are padded with leading spaces on some parts. */
		size_t lead = strspn(m->cpu_name, " ");

		memmove(m->cpu_name, m->cpu_name + lead, strlen(m->cpu_name + lead) + 1);
	}
	if (max_ext >= 0x80000007) {
		cbench_cpuid(0x80000007, 0, r);
		m->tsc_invariant = r[3] & (1u << 8);
	}
}

void cbench_machine_probe(struct cbench_machine *m)
{
	struct utsname uts;
	struct sysinfo si;

	memset(m, 0, sizeof(*m));
	probe_cpuid(m);

	m->cpus_online = (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (!uname(&uts)) {
		snprintf(m->kernel_release, sizeof(m->kernel_release), "%s", uts.release);
		snprintf(m->hostname, sizeof(m->hostname), "%s", uts.nodename);
	}
	if (!sysinfo(&si))
		m->mem_bytes = (uint64_t)si.totalram * si.mem_unit;

	m->perf_paranoid = read_int("/proc/sys/kernel/perf_event_paranoid",
				    CBENCH_PARANOID_UNKNOWN);
	m->rdpmc_sysfs = read_int("/sys/bus/event_source/devices/cpu/rdpmc", -1);
	m->perf_hw_usable = perf_event_usable(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	m->perf_sw_usable = perf_event_usable(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES);
}
