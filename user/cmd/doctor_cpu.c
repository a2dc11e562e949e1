// SPDX-License-Identifier: GPL-2.0
/*
 * doctor's checks of the measuring CPU, from procfs and sysfs (through the
 * root prefix of sysroot.h, so tests run them on a fake tree): is it
 * online, does it have counters, what moves its clock (governor, boost),
 * what shares its core (an SMT sibling), and what interrupts it (the tick,
 * RCU, IRQs and irqbalance, the NMI watchdog), with the settings that make
 * page faults and perf access differ from run to run.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/doctor_parts.h"
#include "machine/cpuenv.h"
#include "machine/cpus.h"
#include "machine/sysroot.h"

#define THP "/sys/kernel/mm/transparent_hugepage"

/* cpuN/online is absent for a CPU that cannot go offline (often CPU 0). */
static bool cpu_online(int cpu)
{
	char path[128];
	long v;

	cbench_cpu_path(path, sizeof(path), cpu, "online");
	return cbench_sysroot_read_long(path, &v) ? true : v != 0;
}

void cbench_doctor_check_online(struct cbench_doctor_report *r)
{
	char path[128];

	snprintf(path, sizeof(path), CBENCH_CPU_DIR "/cpu%d", r->cpu);
	if (!cbench_sysroot_exists(path))
		cbench_doctor_add(r, "cpu", "CPU", CBENCH_VERDICT_FAIL, "pick another with --cpu",
				  "CPU %d does not exist", r->cpu);
	else if (!cpu_online(r->cpu))
		cbench_doctor_add(r, "cpu", "CPU", CBENCH_VERDICT_FAIL,
				  "echo 1 > " CBENCH_CPU_DIR "/cpuN/online", "CPU %d is offline",
				  r->cpu);
	else
		cbench_doctor_add(r, "cpu", "CPU", CBENCH_VERDICT_OK, NULL, "CPU %d is online",
				  r->cpu);
}

/* Whether the CPU has counters perf can use (the NMI watchdog then holds one). */
static bool check_pmu(struct cbench_doctor_report *r, const struct cbench_machine *m)
{
	bool sysfs = cbench_sysroot_exists("/sys/bus/event_source/devices/cpu") ||
		     cbench_sysroot_exists("/sys/bus/event_source/devices/cpu_core");
	int cpu = cbench_last_allowed_cpu();
	struct cbench_doctor_check *c;
	bool usable = m->pmu_version && sysfs;
	char pmu[256];

	cbench_pmu_text(m, cbench_core_type_on(cpu), cpu, pmu, sizeof(pmu));
	if (usable) {
		c = cbench_doctor_add(r, "pmu", "PMU", CBENCH_VERDICT_OK, NULL,
				      "%s; perf hardware events %s", pmu,
				      m->perf_hw_usable ? "usable" : "refused to this user");
	} else {
		c = cbench_doctor_add(r, "pmu", "PMU", CBENCH_VERDICT_WARN,
				      "measure on bare metal, or give the VM a PMU "
				      "(QEMU: -cpu host,pmu=on)",
				      "no PMU%s: TSC only; cycles are estimated from the reference "
				      "chain", m->hypervisor ? " (a virtual machine)" : "");
	}
	cbench_doctor_extra_int(c, "pmu_version", m->pmu_version);
	cbench_doctor_extra_bool(c, "perf_hardware", m->perf_hw_usable);
	return usable;
}

static void check_nmi_watchdog(struct cbench_doctor_report *r, bool pmu)
{
	long v;

	if (cbench_sysroot_read_long("/proc/sys/kernel/nmi_watchdog", &v))
		cbench_doctor_add(r, "nmi_watchdog", "NMI watchdog", CBENCH_VERDICT_OK, NULL,
				  "not built in");
	else if (!v)
		cbench_doctor_add(r, "nmi_watchdog", "NMI watchdog", CBENCH_VERDICT_OK, NULL,
				  "off");
	else if (!pmu)
		cbench_doctor_add(r, "nmi_watchdog", "NMI watchdog", CBENCH_VERDICT_OK, NULL,
				  "on, but without a PMU it holds no counter");
	else
		cbench_doctor_add(r, "nmi_watchdog", "NMI watchdog", CBENCH_VERDICT_WARN,
				  "sysctl kernel.nmi_watchdog=0 (cbenchctl lab setup does)",
				  "on: it holds a cycles counter on every CPU and "
				  "interrupts each one");
}

static void check_governor(struct cbench_doctor_report *r)
{
	char path[128], governor[64], driver[64] = "";

	cbench_cpu_path(path, sizeof(path), r->cpu, "cpufreq/scaling_governor");
	if (cbench_sysroot_read_line(path, governor, sizeof(governor)) <= 0) {
		cbench_doctor_add(r, "governor", "governor", CBENCH_VERDICT_OK, NULL,
				  "no cpufreq on CPU %d: the frequency is not the kernel's to set",
				  r->cpu);
		return;
	}
	cbench_cpu_path(path, sizeof(path), r->cpu, "cpufreq/scaling_driver");
	if (cbench_sysroot_read_line(path, driver, sizeof(driver)) <= 0)
		strcpy(driver, "unknown driver");
	if (!strcmp(governor, "performance"))
		cbench_doctor_add(r, "governor", "governor", CBENCH_VERDICT_OK, NULL,
				  "performance (%s)", driver);
	else
		cbench_doctor_add(r, "governor", "governor", CBENCH_VERDICT_WARN,
				  "cpupower frequency-set -g performance "
				  "(cbenchctl lab setup does)",
				  "%s (%s): the clock follows the load", governor, driver);
}

static void check_boost(struct cbench_doctor_report *r)
{
	struct cbench_boost_knob knobs[CBENCH_BOOST_KNOBS];
	char found[256] = "";
	const char *on = NULL;
	long v;
	size_t len = 0;

	cbench_boost_knobs(r->cpu, knobs);
	for (size_t i = 0; i < CBENCH_BOOST_KNOBS; i++) {
		if (cbench_sysroot_read_long(knobs[i].path, &v))
			continue;
		len += (size_t)snprintf(found + len, sizeof(found) - len, "%s%s %ld",
					len ? ", " : "", knobs[i].name, v);
		if (len >= sizeof(found))
			len = sizeof(found) - 1;
		if (v == knobs[i].on && !on)
			on = knobs[i].name;
	}
	if (!len)
		cbench_doctor_add(r, "boost", "boost/turbo", CBENCH_VERDICT_OK, NULL,
				  "no boost control exposed");
	else if (on)
		cbench_doctor_add(r, "boost", "boost/turbo", CBENCH_VERDICT_WARN,
				  "turn boost off (cbenchctl lab setup does)",
				  "on (%s): the clock depends on temperature and "
				  "the other cores' load", found);
	else
		cbench_doctor_add(r, "boost", "boost/turbo", CBENCH_VERDICT_OK, NULL, "off (%s)",
				  found);
}

static void check_smt(struct cbench_doctor_report *r)
{
	char list[256], online[256] = "";
	unsigned long bits[CBENCH_CPU_WORDS];
	size_t len = 0;

	if (cbench_cpu_siblings(r->cpu, list, sizeof(list), bits)) {
		cbench_doctor_add(r, "smt", "SMT sibling", CBENCH_VERDICT_OK, NULL,
				  "no topology for CPU %d", r->cpu);
		return;
	}
	for (unsigned int i = 0; i < CBENCH_MAX_CPUS; i++) {
		if (!cbench_cpulist_has(list, i) || (int)i == r->cpu || !cpu_online((int)i))
			continue;
		len += (size_t)snprintf(online + len, sizeof(online) - len, "%s%u",
					len ? "," : "", i);
		if (len >= sizeof(online))
			len = sizeof(online) - 1;
	}
	if (!len) {
		cbench_doctor_add(r, "smt", "SMT sibling", CBENCH_VERDICT_OK, NULL,
				  "CPU %d has its core to itself (siblings: %s)", r->cpu, list);
	} else {
		char fix[160];

		snprintf(fix, sizeof(fix),
			 "echo 0 > " CBENCH_CPU_DIR "/cpu%s/online (cbenchctl lab setup does)",
			 online);
		cbench_doctor_add(r, "smt", "SMT sibling", CBENCH_VERDICT_WARN, fix,
				  "CPU %s shares CPU %d's core and is online", online, r->cpu);
	}
}

/* The CPU list of `name=` on the kernel command line, without isolcpus'
 * leading flags ("isolcpus=nohz,domain,2-3"); false if absent. */
static bool cmdline_list(const char *cmdline, const char *name, char *buf, size_t size)
{
	size_t n = strlen(name);

	for (const char *p = cmdline; (p = strstr(p, name)); p += n) {
		const char *v;
		size_t len;

		if ((p != cmdline && p[-1] != ' ') || p[n] != '=')
			continue;
		v = p + n + 1;
		while (*v && *v != ' ' && (*v < '0' || *v > '9'))
			v++;
		len = strcspn(v, " \n");
		snprintf(buf, size, "%.*s", (int)len, v);
		return true;
	}
	return false;
}

static void check_isolation(struct cbench_doctor_report *r)
{
	char cmdline[4096] = "", list[256], detail[256];
	bool isolated = false, nohz = false, nocbs = false;
	struct cbench_doctor_check *c;

	cbench_sysroot_read_line("/proc/cmdline", cmdline, sizeof(cmdline));
	if (cbench_sysroot_read_line(CBENCH_CPU_DIR "/isolated", list, sizeof(list)) >= 0)
		isolated = cbench_cpulist_has(list, (unsigned int)r->cpu);
	else if (cmdline_list(cmdline, "isolcpus", list, sizeof(list)))
		isolated = cbench_cpulist_has(list, (unsigned int)r->cpu);
	if (cbench_sysroot_read_line(CBENCH_CPU_DIR "/nohz_full", list, sizeof(list)) >= 0)
		nohz = cbench_cpulist_has(list, (unsigned int)r->cpu);
	else if (cmdline_list(cmdline, "nohz_full", list, sizeof(list)))
		nohz = cbench_cpulist_has(list, (unsigned int)r->cpu);
	if (cmdline_list(cmdline, "rcu_nocbs", list, sizeof(list)))
		nocbs = cbench_cpulist_has(list, (unsigned int)r->cpu);
	snprintf(detail, sizeof(detail), "isolcpus %s, nohz_full %s, rcu_nocbs %s",
		 isolated ? "yes" : "no", nohz ? "yes" : "no", nocbs ? "yes" : "no");
	if (isolated && nohz && nocbs) {
		c = cbench_doctor_add(r, "isolation", "isolation", CBENCH_VERDICT_OK, NULL,
				      "CPU %d: %s", r->cpu, detail);
	} else {
		char fix[160];

		snprintf(fix, sizeof(fix), "boot with isolcpus=%d nohz_full=%d rcu_nocbs=%d",
			 r->cpu, r->cpu, r->cpu);
		c = cbench_doctor_add(r, "isolation", "isolation", CBENCH_VERDICT_WARN, fix,
				      "CPU %d: %s: the scheduler, the tick and RCU may run there",
				      r->cpu, detail);
	}
	cbench_doctor_extra_bool(c, "isolcpus", isolated);
	cbench_doctor_extra_bool(c, "nohz_full", nohz);
	cbench_doctor_extra_bool(c, "rcu_nocbs", nocbs);
}

/* Interrupts CPU cpu has taken since boot: its column of /proc/interrupts;
 * -1 if unknown. */
static long long interrupts_on(int cpu)
{
	static char buf[1 << 20];
	char header[4096], *line, *save = NULL, *hsave = NULL;
	int column = -1, i = 0;
	long long total = 0;

	if (cbench_sysroot_read("/proc/interrupts", buf, sizeof(buf)) <= 0)
		return -1;
	line = strtok_r(buf, "\n", &save);
	if (!line)
		return -1;
	snprintf(header, sizeof(header), "%s", line);
	for (char *tok = strtok_r(header, " ", &hsave); tok;
	     tok = strtok_r(NULL, " ", &hsave), i++) {
		if (!strncmp(tok, "CPU", 3) && atoi(tok + 3) == cpu)
			column = i;
	}
	if (column < 0)
		return -1;
	while ((line = strtok_r(NULL, "\n", &save))) {
		char *p = strchr(line, ':');

		if (!p)
			continue;
		p++;
		for (i = 0; i <= column; i++) {
			char *end;
			long long v = strtoll(p, &end, 10);

			if (end == p)
				break;
			if (i == column)
				total += v;
			p = end;
		}
	}
	return total;
}

static void check_irqs(struct cbench_doctor_report *r)
{
	char dir[4096], path[300], list[256], fix[128];
	unsigned int routed = 0, total = 0;
	long long taken = interrupts_on(r->cpu);
	struct dirent *e;
	struct cbench_doctor_check *c;
	DIR *irqs;

	cbench_sysroot_path(dir, sizeof(dir), "/proc/irq");
	irqs = opendir(dir);
	if (!irqs) {
		cbench_doctor_add(r, "irqs", "interrupts", CBENCH_VERDICT_OK, NULL,
				  "no /proc/irq to read");
		return;
	}
	while ((e = readdir(irqs))) {
		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/irq/%s/smp_affinity_list", e->d_name);
		if (cbench_sysroot_read_line(path, list, sizeof(list)) < 0)
			continue;
		total++;
		if (cbench_cpulist_has(list, (unsigned int)r->cpu))
			routed++;
	}
	closedir(irqs);
	snprintf(fix, sizeof(fix), "cbenchctl lab setup --cpu %d moves them off", r->cpu);
	if (routed)
		c = cbench_doctor_add(r, "irqs", "interrupts", CBENCH_VERDICT_WARN, fix,
				      "%u of %u IRQs may be routed to CPU %d", routed, total,
				      r->cpu);
	else
		c = cbench_doctor_add(r, "irqs", "interrupts", CBENCH_VERDICT_OK, NULL,
				      "none of %u IRQs is routed to CPU %d", total, r->cpu);
	if (taken >= 0) {
		size_t len = strlen(c->detail);

		snprintf(c->detail + len, sizeof(c->detail) - len,
			 "; it took %lld interrupts since boot", taken);
		cbench_doctor_extra_int(c, "routed", routed);
		cbench_doctor_extra_int(c, "irqs", total);
		cbench_doctor_extra_int(c, "taken", taken);
	} else {
		cbench_doctor_extra_int(c, "routed", routed);
		cbench_doctor_extra_int(c, "irqs", total);
	}
}

static void check_irqbalance(struct cbench_doctor_report *r)
{
	long pid = cbench_sysroot_find_process("irqbalance");

	if (pid)
		cbench_doctor_add(r, "irqbalance", "irqbalance", CBENCH_VERDICT_WARN,
				  "systemctl stop irqbalance (cbenchctl lab setup does)",
				  "running (pid %ld): it moves interrupts back "
				  "onto the measuring CPU", pid);
	else
		cbench_doctor_add(r, "irqbalance", "irqbalance", CBENCH_VERDICT_OK, NULL,
				  "not running");
}

static void check_thp(struct cbench_doctor_report *r)
{
	char mode[64];

	if (cbench_sysroot_read_choice(THP "/enabled", mode, sizeof(mode)))
		cbench_doctor_add(r, "thp", "huge pages", CBENCH_VERDICT_OK, NULL,
				  "no transparent huge pages");
	else if (!strcmp(mode, "always"))
		cbench_doctor_add(r, "thp", "huge pages", CBENCH_VERDICT_WARN,
				  "echo madvise > " THP "/enabled",
				  "always: an arena gets huge pages or not from run to run");
	else
		cbench_doctor_add(r, "thp", "huge pages", CBENCH_VERDICT_OK, NULL, "%s", mode);

	if (cbench_sysroot_read_choice(THP "/defrag", mode, sizeof(mode)))
		return;
	if (!strcmp(mode, "always"))
		cbench_doctor_add(r, "thp_defrag", "huge page defrag", CBENCH_VERDICT_WARN,
				  "echo madvise > " THP "/defrag",
				  "always: a page fault may stall while memory is compacted");
	else
		cbench_doctor_add(r, "thp_defrag", "huge page defrag", CBENCH_VERDICT_OK, NULL,
				  "%s", mode);
}

static void check_paranoid(struct cbench_doctor_report *r)
{
	struct cbench_doctor_check *c;
	long v;

	if (cbench_sysroot_read_long("/proc/sys/kernel/perf_event_paranoid", &v)) {
		cbench_doctor_add(r, "perf_event_paranoid", "perf_event_paranoid",
				  CBENCH_VERDICT_WARN, NULL,
				  "unknown: perf events may not be available at all");
		return;
	}
	if (v <= 2)
		c = cbench_doctor_add(r, "perf_event_paranoid", "perf_event_paranoid",
				      CBENCH_VERDICT_OK, NULL,
				      "%ld: unprivileged runs count their own events", v);
	else
		c = cbench_doctor_add(r, "perf_event_paranoid", "perf_event_paranoid",
				      CBENCH_VERDICT_WARN, "sysctl kernel.perf_event_paranoid=2",
				      "%ld: only root counts events; others fall back to getrusage",
				      v);
	cbench_doctor_extra_int(c, "value", v);
}

/* The CPUs fit to measure on at once (machine/cpus.h): how many jobs
 * `run --jobs` may ask. */
static void check_jobs(struct cbench_doctor_report *r)
{
	unsigned long bits[CBENCH_CPU_WORDS] = { 0 };
	struct cbench_cpu_choice c;
	struct cbench_doctor_check *k;
	char list[256] = "";
	size_t ring0;

	if (cbench_cpus_fit(&c) || !c.fit) {
		cbench_doctor_add(r, "jobs", "CPUs for --jobs", CBENCH_VERDICT_WARN, NULL,
				  "no CPU is fit to measure on");
		return;
	}
	for (size_t i = 0; i < c.fit; i++)
		cbench_cpuset_add(bits, (unsigned int)c.cpu[i]);
	cbench_cpulist_format(bits, CBENCH_MAX_CPUS, list, sizeof(list));
	ring0 = cbench_cpus_ring0_jobs(&c);
	k = cbench_doctor_add(r, "jobs", "CPUs for --jobs", CBENCH_VERDICT_OK, NULL,
			      "%zu fit to measure on at once (CPU%s %s, one per core; %zu isolated): "
			      "run --jobs %zu at most, --jobs %zu in ring 0 (each CPU measuring "
			      "there needs another to watch it%s, and cbench.ko's runs_max as many)",
			      c.fit, c.fit == 1 ? "" : "s", list, c.isolated, c.fit, ring0,
			      ring0 ? "" : ": one CPU online, so only with unwatched_runs=1");
	cbench_doctor_extra_int(k, "fit", (long)c.fit);
	cbench_doctor_extra_int(k, "isolated", (long)c.isolated);
	cbench_doctor_extra_int(k, "ring0", (long)ring0);
}

void cbench_doctor_check_cpu(struct cbench_doctor_report *r, const struct cbench_machine *m)
{
	bool pmu = check_pmu(r, m);

	check_nmi_watchdog(r, pmu);
	check_governor(r);
	check_boost(r);
	check_smt(r);
	check_isolation(r);
	check_jobs(r);
	check_irqs(r);
	check_irqbalance(r);
	check_thp(r);
	check_paranoid(r);
}
