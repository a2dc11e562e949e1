// SPDX-License-Identifier: GPL-2.0
/* The CPUs of a run; see cpus.h. */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "machine/cpuenv.h"
#include "machine/cpus.h"

static bool has(const unsigned long *bits, int cpu)
{
	return cpu >= 0 && cpu < CBENCH_MAX_CPUS && cbench_cpuset_has(bits, (unsigned int)cpu);
}

/* cpuN/online is absent for a CPU that cannot go offline. */
static bool online(int cpu)
{
	char path[96];
	long v;

	cbench_cpu_path(path, sizeof(path), cpu, "online");
	return cbench_sysroot_read_long(path, &v) || v != 0;
}

/* Whether cpu shares a core with one of taken[0..n). */
static bool sibling_taken(int cpu, const int *taken, size_t n)
{
	unsigned long bits[CBENCH_CPU_WORDS];
	char list[256];

	if (cbench_cpu_siblings(cpu, list, sizeof(list), bits))
		return false;
	for (size_t i = 0; i < n; i++)
		if (taken[i] != cpu && has(bits, taken[i]))
			return true;
	return false;
}

/* The CPUs isolcpus= or nohz_full= set apart, into bits. */
static void isolated(unsigned long *bits)
{
	static const char *const lists[] = { CBENCH_CPU_DIR "/isolated", CBENCH_CPU_DIR "/nohz_full" };
	unsigned long one[CBENCH_CPU_WORDS];
	char list[1024];

	memset(bits, 0, CBENCH_CPU_WORDS * sizeof(*bits));
	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		if (cbench_sysroot_read_line(lists[i], list, sizeof(list)) <= 0 ||
		    cbench_cpulist_parse(list, one, CBENCH_MAX_CPUS))
			continue;
		for (size_t w = 0; w < CBENCH_CPU_WORDS; w++)
			bits[w] |= one[w];
	}
}

/* Takes the CPUs of set that want (isolated or not) says, from the last down. */
static void take(struct cbench_cpu_choice *c, const cpu_set_t *set, const unsigned long *iso,
		 bool want)
{
	for (int cpu = CPU_SETSIZE - 1; cpu >= 0 && c->n < CBENCH_JOBS_MAX; cpu--) {
		if (!CPU_ISSET(cpu, set) || has(iso, cpu) != want || !online(cpu) ||
		    sibling_taken(cpu, c->cpu, c->n))
			continue;
		c->cpu[c->n++] = cpu;
		c->isolated += want;
	}
}

int cbench_cpus_fit(struct cbench_cpu_choice *c)
{
	unsigned long iso[CBENCH_CPU_WORDS];
	cpu_set_t set;

	memset(c, 0, sizeof(*c));
	if (sched_getaffinity(0, sizeof(set), &set))
		return -errno;
	isolated(iso);
	take(c, &set, iso, true);
	take(c, &set, iso, false);
	c->fit = c->n;
	return 0;
}

/* The CPUs of list, checked: allowed, online, no two on one core. */
static int from_list(struct cbench_cpu_choice *c, const char *list, char *err, size_t errlen)
{
	unsigned long bits[CBENCH_CPU_WORDS];
	cpu_set_t set;

	if (cbench_cpulist_parse(list, bits, CBENCH_MAX_CPUS)) {
		snprintf(err, errlen, "--cpus %s is no CPU list: give one such as 2,4-5", list);
		return -EINVAL;
	}
	if (sched_getaffinity(0, sizeof(set), &set))
		return -errno;
	c->n = 0;
	for (int cpu = 0; cpu < CBENCH_MAX_CPUS; cpu++) {
		if (!has(bits, cpu))
			continue;
		if (cpu >= CPU_SETSIZE || !CPU_ISSET(cpu, &set) || !online(cpu)) {
			snprintf(err, errlen, "--cpus: CPU %d is not online or not allowed to us", cpu);
			return -EINVAL;
		}
		if (sibling_taken(cpu, c->cpu, c->n)) {
			snprintf(err, errlen, "--cpus: CPU %d shares a core with another CPU of the list: "
				 "siblings would measure each other; give one CPU per core", cpu);
			return -EINVAL;
		}
		if (c->n == CBENCH_JOBS_MAX) {
			snprintf(err, errlen, "--cpus: %d CPUs at most", CBENCH_JOBS_MAX);
			return -EINVAL;
		}
		c->cpu[c->n++] = cpu;
	}
	if (!c->n) {
		snprintf(err, errlen, "--cpus names no CPU");
		return -EINVAL;
	}
	return 0;
}

int cbench_cpus_choose(struct cbench_cpu_choice *c, size_t jobs, const char *list, char *err,
		       size_t errlen)
{
	int ret = cbench_cpus_fit(c);

	if (ret) {
		snprintf(err, errlen, "unable to list the CPUs we may use: %s", strerror(-ret));
		return ret;
	}
	if (list) {
		ret = from_list(c, list, err, errlen);
		if (ret)
			return ret;
		if (jobs > c->n) {
			snprintf(err, errlen, "--jobs %zu, but --cpus %s names %zu CPU%s: ask --jobs %zu "
				 "or less, or name more CPUs", jobs, list, c->n, c->n == 1 ? "" : "s", c->n);
			return -EINVAL;
		}
	} else if (jobs > c->fit) {
		snprintf(err, errlen, "--jobs %zu, but %zu CPU%s %s fit to measure on (allowed to us, "
			 "online, one per core): ask --jobs %zu or less", jobs, c->fit,
			 c->fit == 1 ? "" : "s", c->fit == 1 ? "is" : "are", c->fit);
		return -EINVAL;
	}
	if (jobs)
		c->n = jobs;
	return 0;
}

int cbench_cpus_others(const struct cbench_cpu_choice *c, int *out, size_t max)
{
	unsigned long bits[CBENCH_CPU_WORDS];
	char list[1024];
	size_t n = 0;

	if (cbench_sysroot_read_line("/sys/devices/system/cpu/online", list, sizeof(list)) < 0 ||
	    cbench_cpulist_parse(list, bits, CBENCH_MAX_CPUS))
		return -EIO;
	for (int cpu = 0; cpu < CBENCH_MAX_CPUS && n < max; cpu++) {
		bool measures = false;

		for (size_t i = 0; i < c->n; i++)
			measures |= c->cpu[i] == cpu;
		if (has(bits, cpu) && !measures)
			out[n++] = cpu;
	}
	return (int)n;
}

size_t cbench_cpus_ring0_jobs(const struct cbench_cpu_choice *c)
{
	struct cbench_cpu_choice none = { .n = 0 };
	int online[CBENCH_JOBS_MAX * 2];
	int n = cbench_cpus_others(&none, online, CBENCH_JOBS_MAX * 2);

	if (n < 0)
		return 0;
	return c->fit < (size_t)n / 2 ? c->fit : (size_t)n / 2;
}
