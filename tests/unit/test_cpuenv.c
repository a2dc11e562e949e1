// SPDX-License-Identifier: GPL-2.0
/*
 * The measuring CPU's environment (cpuenv.c) on fake roots: a lab machine
 * set up for measuring, an untouched desktop, and a VM exposing nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <CUnit/CUnit.h>

#include "machine/cpuenv.h"
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

static CU_TestInfo cpuenv_tests[] = {
	{ "a lab machine set up for measuring", lab_machine },
	{ "a desktop as it comes", desktop },
	{ "a VM exposing nothing", bare_vm },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_cpuenv_suites[] = {
	{ "cpuenv", NULL, NULL, NULL, NULL, cpuenv_tests },
	CU_SUITE_INFO_NULL,
};
