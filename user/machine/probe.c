// SPDX-License-Identifier: GPL-2.0
/*
 * Machine probe.  CPUID answers for the CPU; the kernel answers for what
 * user space may use, and we ask it by trying (perf_event_open) rather than
 * by guessing from version numbers.
 */
#include <cpuid.h>
#include <errno.h>
#include <sched.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "../../kmod/lib/cpuid.h"
#include "machine/probe.h"
#include "machine/sysroot.h"
#include "machine/uarch.h"

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

const uint64_t cbench_sw_event_configs[CBENCH_SW_HELD] = {
	PERF_COUNT_SW_CONTEXT_SWITCHES, PERF_COUNT_SW_CPU_MIGRATIONS, PERF_COUNT_SW_PAGE_FAULTS,
};

void cbench_sw_events_hold(int fds[CBENCH_SW_HELD])
{
	for (int i = 0; i < CBENCH_SW_HELD; i++) {
		struct perf_event_attr attr;

		memset(&attr, 0, sizeof(attr));
		attr.size = sizeof(attr);
		attr.type = PERF_TYPE_SOFTWARE;
		attr.config = cbench_sw_event_configs[i];
		attr.disabled = 1;
		fds[i] = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	}
}

void cbench_sw_events_release(int fds[CBENCH_SW_HELD])
{
	for (int i = 0; i < CBENCH_SW_HELD; i++) {
		if (fds[i] >= 0)
			close(fds[i]);
		fds[i] = -1;
	}
}

static void read_cpuid(uint32_t leaf, uint32_t subleaf, struct cbench_cpuid_regs *r)
{
	__cpuid_count(leaf, subleaf, r->eax, r->ebx, r->ecx, r->edx);
}

void cbench_machine_from_cpu(struct cbench_machine *m, const struct cbench_cpu *cpu)
{
	memcpy(m->cpu_vendor, cpu->vendor, sizeof(m->cpu_vendor));
	m->cpu_family = cpu->family;
	m->cpu_model = cpu->model;
	m->cpu_stepping = cpu->stepping;
	m->hypervisor = cpu->hypervisor;
	m->tsc_invariant = cpu->tsc_invariant;
	m->pmu_version = cpu->pmu.version;
	m->pmu_gp_counters = cpu->pmu.gp_counters;
	m->pmu_gp_bits = cpu->pmu.gp_bits;
	m->pmu_fixed_counters = cpu->pmu.fixed_counters;
	m->pmu_fixed_bits = cpu->pmu.fixed_bits;
	m->hybrid = cpu->hybrid;
	m->core_type = cpu->core_type;
}

/* The decoding is cbench.ko's (kmod/lib/cpuid.c), so both report alike. */
static void probe_cpuid(struct cbench_machine *m)
{
	struct cbench_cpu cpu;
	uint32_t r[4], max_ext;

	cbench_cpuid_decode(&cpu, read_cpuid);
	cbench_machine_from_cpu(m, &cpu);

	cbench_cpuid(0x80000000, 0, r);
	max_ext = r[0];
	if (max_ext >= 0x80000001) {
		cbench_cpuid(0x80000001, 0, r);
		m->rdtscp = r[3] & (1u << 27);
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
}

/* The microcode revision, from sysfs, else the first "microcode" line of /proc/cpuinfo. */
static void probe_microcode(struct cbench_machine *m)
{
	char line[256];
	FILE *f;

	if (cbench_sysroot_read_line("/sys/devices/system/cpu/cpu0/microcode/version", line,
				     sizeof(line)) > 0) {
		snprintf(m->microcode, sizeof(m->microcode), "%.23s", line);
		return;
	}
	f = fopen("/proc/cpuinfo", "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!strncmp(line, "microcode", 9) && colon) {
			colon += strspn(colon + 1, " \t") + 1;
			colon[strcspn(colon, "\n")] = '\0';
			snprintf(m->microcode, sizeof(m->microcode), "%.23s", colon);
			break;
		}
	}
	fclose(f);
}

unsigned int cbench_core_type_on(int cpu)
{
	cpu_set_t was, here;
	struct cbench_cpu c;

	if (cpu < 0 || cpu >= CPU_SETSIZE || sched_getaffinity(0, sizeof(was), &was))
		return 0;
	CPU_ZERO(&here);
	CPU_SET(cpu, &here);
	if (sched_setaffinity(0, sizeof(here), &here))
		return 0;
	cbench_cpuid_decode(&c, read_cpuid);
	sched_setaffinity(0, sizeof(was), &was);
	return c.hybrid ? c.core_type : 0;
}

void cbench_core_probe(int cpu, struct cbench_core *core)
{
	cpu_set_t was, here;
	bool moved = false;

	if (cpu >= 0 && cpu < CPU_SETSIZE && !sched_getaffinity(0, sizeof(was), &was)) {
		CPU_ZERO(&here);
		CPU_SET(cpu, &here);
		moved = !sched_setaffinity(0, sizeof(here), &here);
	}
	cbench_core_identify(core, read_cpuid);
	if (moved)
		sched_setaffinity(0, sizeof(was), &was);
}

static const char *core_type_name(unsigned int type, char *buf, size_t len)
{
	if (type == CBENCH_CORE_TYPE_CORE)
		return "a P-core (Core)";
	if (type == CBENCH_CORE_TYPE_ATOM)
		return "an E-core (Atom)";
	snprintf(buf, len, "of core type %#x", type);
	return buf;
}

void cbench_pmu_text(const struct cbench_machine *m, unsigned int core_type, int cpu, char *buf,
		     size_t len)
{
	bool amd = !strcmp(m->cpu_vendor, "AuthenticAMD") || !strcmp(m->cpu_vendor, "HygonGenuine");
	char type[32];
	int n;

	if (!m->pmu_version) {
		snprintf(buf, len, "none: CPUID enumerates no performance counters%s",
			 m->hypervisor ? " (a VM without a virtual PMU)" : "");
		return;
	}
	if (amd)
		n = snprintf(buf, len, "AMD %s: %u core counters of %u bits",
			     m->pmu_version >= 2 ? "PerfMonV2" : m->pmu_gp_counters > 4 ?
			     "core counter extension" : "legacy counters", m->pmu_gp_counters, m->pmu_gp_bits);
	else
		n = snprintf(buf, len, "Intel architectural perfmon v%u: %u general counters of %u bits, "
			     "%u fixed of %u bits", m->pmu_version, m->pmu_gp_counters, m->pmu_gp_bits,
			     m->pmu_fixed_counters, m->pmu_fixed_bits);
	if (m->hybrid && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, "; hybrid, CPU %d is %s", cpu,
			 core_type_name(core_type, type, sizeof(type)));
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
	probe_microcode(m);

	m->perf_paranoid = read_int("/proc/sys/kernel/perf_event_paranoid",
				    CBENCH_PARANOID_UNKNOWN);
	m->rdpmc_sysfs = read_int("/sys/bus/event_source/devices/cpu/rdpmc", -1);
	m->perf_hw_usable = perf_event_usable(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	m->perf_sw_usable = perf_event_usable(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES);
}

int cbench_last_allowed_cpu(void)
{
	cpu_set_t set;
	int last = 0;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 0;
	for (int i = 0; i < CPU_SETSIZE; i++) {
		if (CPU_ISSET(i, &set))
			last = i;
	}
	return last;
}
