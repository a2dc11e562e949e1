// SPDX-License-Identifier: GPL-2.0
/*
 * The measuring CPU's environment (cpuenv.c) on fake roots: a lab machine
 * set up for measuring, an untouched desktop, and a VM exposing nothing.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <CUnit/CUnit.h>

#include "machine/cpuenv.h"
#include "machine/cpus.h"
#include "machine/sysroot.h"

static char root[64];

static void put(const char *path, const char *text)
{
	char full[256], dir[300];
	FILE *f;

	snprintf(full, sizeof(full), "%s%s", root, path);
	snprintf(dir, sizeof(dir), "mkdir -p $(dirname %s)", full);
	CU_ASSERT_FATAL(system(dir) == 0);
	f = fopen(full, "w");
	CU_ASSERT_FATAL(f != NULL);
	fputs(text, f);
	fclose(f);
}

static void fresh_root(void)
{
	char cmd[128];

	if (root[0]) {
		snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
		CU_ASSERT(system(cmd) == 0);
	}
	strcpy(root, "/tmp/cbench-cpuenv-XXXXXX");
	CU_ASSERT_FATAL(mkdtemp(root) != NULL);
	cbench_sysroot_set(root);
}

static void lab_machine(void)
{
	struct cbench_cpuenv e;

	fresh_root();
	put("/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor", "performance\n");
	put("/sys/devices/system/cpu/cpufreq/boost", "0\n");
	put("/sys/devices/system/cpu/cpu1/topology/thread_siblings_list", "1\n");
	put("/sys/devices/system/cpu/isolated", "1-2\n");
	put("/sys/devices/system/cpu/nohz_full", "1\n");
	cbench_cpuenv_probe(1, &e);
	CU_ASSERT_STRING_EQUAL(e.governor, "performance");
	CU_ASSERT_STRING_EQUAL(e.boost, "off");
	CU_ASSERT_STRING_EQUAL(e.smt, "no online sibling");
	CU_ASSERT_STRING_EQUAL(e.isolation, "isolcpus nohz_full");
}

static void desktop(void)
{
	struct cbench_cpuenv e;

	fresh_root();
	put("/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor", "schedutil\n");
	put("/sys/devices/system/cpu/intel_pstate/no_turbo", "0\n");
	put("/sys/devices/system/cpu/cpu1/topology/thread_siblings_list", "1,5\n");
	put("/sys/devices/system/cpu/isolated", "\n");
	cbench_cpuenv_probe(1, &e);
	CU_ASSERT_STRING_EQUAL(e.governor, "schedutil");
	CU_ASSERT_STRING_EQUAL(e.boost, "on");	/* no_turbo 0 */
	CU_ASSERT_STRING_EQUAL(e.smt, "sibling online");
	CU_ASSERT_STRING_EQUAL(e.isolation, "none");
}

static void bare_vm(void)
{
	struct cbench_cpuenv e;
	char cmd[128];

	fresh_root();
	cbench_cpuenv_probe(0, &e);
	CU_ASSERT_STRING_EQUAL(e.governor, "none");
	CU_ASSERT_STRING_EQUAL(e.boost, "unknown");
	CU_ASSERT_STRING_EQUAL(e.smt, "no online sibling");
	CU_ASSERT_STRING_EQUAL(e.isolation, "none");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	CU_ASSERT(system(cmd) == 0);
	root[0] = '\0';
	cbench_sysroot_set("");
}

/*
 * The CPUs a run measures on at once (cpus.c), on CPUs 0 and 1 of fake
 * roots: isolated first, then from the last down; one per core; online.
 */
static void choosing_cpus(void)
{
	struct cbench_cpu_choice c;
	cpu_set_t was, two;
	char err[256];

	CU_ASSERT_FATAL(sched_getaffinity(0, sizeof(was), &was) == 0);
	if (!CPU_ISSET(0, &was) || !CPU_ISSET(1, &was)) {
		fprintf(stderr, "(CPUs 0 and 1 are not both ours: not checked) ");
		return;
	}
	CPU_ZERO(&two);
	CPU_SET(0, &two);
	CPU_SET(1, &two);
	CU_ASSERT_FATAL(sched_setaffinity(0, sizeof(two), &two) == 0);

	fresh_root();
	CU_ASSERT_EQUAL(cbench_cpus_choose(&c, 2, NULL, err, sizeof(err)), 0);
	CU_ASSERT(c.n == 2 && c.fit == 2 && c.isolated == 0 && c.cpu[0] == 1 && c.cpu[1] == 0);
	put("/sys/devices/system/cpu/isolated", "0\n");
	CU_ASSERT_EQUAL(cbench_cpus_choose(&c, 1, NULL, err, sizeof(err)), 0);
	CU_ASSERT(c.n == 1 && c.fit == 2 && c.isolated == 1 && c.cpu[0] == 0);
	CU_ASSERT_EQUAL(cbench_cpus_choose(&c, 3, NULL, err, sizeof(err)), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "ask --jobs 2 or less"));

	/* SMT siblings: one of them. */
	put("/sys/devices/system/cpu/cpu0/topology/thread_siblings_list", "0-1\n");
	put("/sys/devices/system/cpu/cpu1/topology/thread_siblings_list", "0-1\n");
	CU_ASSERT_EQUAL(cbench_cpus_fit(&c), 0);
	CU_ASSERT(c.fit == 1 && c.cpu[0] == 0);
	CU_ASSERT_EQUAL(cbench_cpus_choose(&c, 0, "0-1", err, sizeof(err)), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "shares a core"));
	CU_ASSERT_EQUAL(cbench_cpus_choose(&c, 0, "1", err, sizeof(err)), 0);
	CU_ASSERT(c.n == 1 && c.cpu[0] == 1);

	/* Offline, or not a list. */
	fresh_root();
	put("/sys/devices/system/cpu/cpu1/online", "0\n");
	CU_ASSERT_EQUAL(cbench_cpus_fit(&c), 0);
	CU_ASSERT(c.fit == 1 && c.cpu[0] == 0);
	CU_ASSERT_EQUAL(cbench_cpus_choose(&c, 0, "1", err, sizeof(err)), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "not online"));
	CU_ASSERT_EQUAL(cbench_cpus_choose(&c, 0, "1-x", err, sizeof(err)), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "no CPU list"));
	CU_ASSERT_EQUAL(cbench_cpus_choose(&c, 2, "0", err, sizeof(err)), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "ask --jobs 1"));

	sched_setaffinity(0, sizeof(was), &was);
}

/*
 * Ring 0's watchers (cpus.c): the online CPUs none measures on, from the
 * kernel's online list alone; half of those online may measure at once.
 */
static void watching_cpus(void)
{
	struct cbench_cpu_choice c = { .cpu = { 1, 4 }, .n = 2, .fit = 3 };
	int out[8];

	fresh_root();
	put("/sys/devices/system/cpu/online", "0-2,4-5,7\n");
	CU_ASSERT_EQUAL(cbench_cpus_others(&c, out, 8), 4);
	CU_ASSERT(out[0] == 0 && out[1] == 2 && out[2] == 5 && out[3] == 7);
	CU_ASSERT_EQUAL(cbench_cpus_others(&c, out, 2), 2);
	CU_ASSERT(out[0] == 0 && out[1] == 2);
	/* Six online: three at once, but only as many as are fit. */
	CU_ASSERT_EQUAL(cbench_cpus_ring0_jobs(&c), 3);
	c.fit = 2;
	CU_ASSERT_EQUAL(cbench_cpus_ring0_jobs(&c), 2);
	put("/sys/devices/system/cpu/online", "0-1\n");
	CU_ASSERT_EQUAL(cbench_cpus_ring0_jobs(&c), 1);
	CU_ASSERT_EQUAL(cbench_cpus_others(&c, out, 8), 1);
	CU_ASSERT_EQUAL(out[0], 0);
	put("/sys/devices/system/cpu/online", "0-x\n");
	CU_ASSERT_EQUAL(cbench_cpus_others(&c, out, 8), -EIO);
	cbench_sysroot_set("");
}

static CU_TestInfo cpuenv_tests[] = {
	{ "CPUs for a run on several at once", choosing_cpus },
	{ "CPUs to watch ring 0's runs", watching_cpus },
	{ "a lab machine set up for measuring", lab_machine },
	{ "a desktop as it comes", desktop },
	{ "a VM exposing nothing", bare_vm },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_cpuenv_suites[] = {
	{ "cpuenv", NULL, NULL, NULL, NULL, cpuenv_tests },
	CU_SUITE_INFO_NULL,
};
