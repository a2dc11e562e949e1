// SPDX-License-Identifier: GPL-2.0
/* The kernel's files under a root prefix, and CPU lists. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "machine/sysroot.h"

static char root[] = "/tmp/cbench-test-sysroot-XXXXXX";

static int setup(void)
{
	char path[128];

	if (!mkdtemp(root))
		return -1;
	snprintf(path, sizeof(path), "%s/proc", root);
	if (mkdir(path, 0755))
		return -1;
	cbench_sysroot_set(root);
	return 0;
}

static int teardown(void)
{
	char cmd[160];

	cbench_sysroot_set(NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	return system(cmd) ? -1 : 0;
}

/* Knobs exist before they are written: writes never create a file. */
static void create(const char *path)
{
	char full[160];
	FILE *f;

	snprintf(full, sizeof(full), "%s%s", root, path);
	f = fopen(full, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fclose(f);
}

static void cpulist_parses_ranges(void)
{
	unsigned long bits[CBENCH_CPU_WORDS];
	char out[64];

	CU_ASSERT_EQUAL(cbench_cpulist_parse("0-2,5,7-8\n", bits, CBENCH_MAX_CPUS), 0);
	CU_ASSERT_EQUAL(cbench_cpulist_format(bits, CBENCH_MAX_CPUS, out, sizeof(out)), 0);
	CU_ASSERT_STRING_EQUAL(out, "0-2,5,7-8");
	CU_ASSERT_TRUE(cbench_cpulist_has("0-2,5", 5));
	CU_ASSERT_FALSE(cbench_cpulist_has("0-2,5", 3));
	CU_ASSERT_EQUAL(cbench_cpulist_parse("", bits, CBENCH_MAX_CPUS), 0);
	CU_ASSERT_EQUAL(cbench_cpulist_format(bits, CBENCH_MAX_CPUS, out, sizeof(out)), 0);
	CU_ASSERT_STRING_EQUAL(out, "");
	/* What sysfs shows for "none" is not a list. */
	CU_ASSERT_EQUAL(cbench_cpulist_parse("(null)", bits, CBENCH_MAX_CPUS), -EINVAL);
	CU_ASSERT_EQUAL(cbench_cpulist_parse("3-1", bits, CBENCH_MAX_CPUS), -EINVAL);
	CU_ASSERT_EQUAL(cbench_cpulist_parse("1,,2", bits, CBENCH_MAX_CPUS), -EINVAL);
	CU_ASSERT_EQUAL(cbench_cpulist_parse("4096", bits, CBENCH_MAX_CPUS), -EINVAL);
	CU_ASSERT_FALSE(cbench_cpulist_has("garbage", 0));
}

static void cpulist_format_says_when_too_small(void)
{
	unsigned long bits[CBENCH_CPU_WORDS];
	char out[4];

	CU_ASSERT_EQUAL(cbench_cpulist_parse("1,3,5,7", bits, CBENCH_MAX_CPUS), 0);
	CU_ASSERT_EQUAL(cbench_cpulist_format(bits, CBENCH_MAX_CPUS, out, sizeof(out)), -ENOSPC);
}

static void files_go_through_the_root(void)
{
	char buf[16];
	long v;

	CU_ASSERT_EQUAL(cbench_sysroot_write("/proc/knob", "42\n", 3), -ENOENT);
	create("/proc/knob");
	CU_ASSERT_EQUAL(cbench_sysroot_write("/proc/knob", "42\n", 3), 0);
	CU_ASSERT_TRUE(cbench_sysroot_exists("/proc/knob"));
	CU_ASSERT_EQUAL(cbench_sysroot_read("/proc/knob", buf, sizeof(buf)), 3);
	CU_ASSERT_STRING_EQUAL(buf, "42\n");
	CU_ASSERT_EQUAL(cbench_sysroot_read_line("/proc/knob", buf, sizeof(buf)), 2);
	CU_ASSERT_STRING_EQUAL(buf, "42");
	CU_ASSERT_EQUAL(cbench_sysroot_read_long("/proc/knob", &v), 0);
	CU_ASSERT_EQUAL(v, 42);
	CU_ASSERT_FALSE(cbench_sysroot_is_real());
	CU_ASSERT_EQUAL(cbench_sysroot_read("/proc/absent", buf, sizeof(buf)), -ENOENT);
	CU_ASSERT_EQUAL(cbench_sysroot_write("/proc/nodir/knob", "1", 1), -ENOENT);
}

static void a_choice_is_the_word_in_brackets(void)
{
	char buf[16];

	create("/proc/thp");
	CU_ASSERT_EQUAL(cbench_sysroot_write("/proc/thp", "always [madvise] never\n", 23), 0);
	CU_ASSERT_EQUAL(cbench_sysroot_read_choice("/proc/thp", buf, sizeof(buf)), 0);
	CU_ASSERT_STRING_EQUAL(buf, "madvise");
	/* No brackets: the line, as a module parameter reads. */
	CU_ASSERT_EQUAL(cbench_sysroot_write("/proc/thp", "1000\n", 5), 0);
	CU_ASSERT_EQUAL(cbench_sysroot_read_choice("/proc/thp", buf, sizeof(buf)), 0);
	CU_ASSERT_STRING_EQUAL(buf, "1000");
	/* Cut to the buffer. */
	CU_ASSERT_EQUAL(cbench_sysroot_write("/proc/thp", "[a-word-longer-than-16]\n", 24), 0);
	CU_ASSERT_EQUAL(cbench_sysroot_read_choice("/proc/thp", buf, sizeof(buf)), 0);
	CU_ASSERT_STRING_EQUAL(buf, "a-word-longer-t");
	CU_ASSERT_EQUAL(cbench_sysroot_read_choice("/proc/absent", buf, sizeof(buf)), -ENOENT);
}

static void a_file_larger_than_the_buffer_is_refused(void)
{
	char buf[4];

	create("/proc/big");
	create("/proc/fits");
	CU_ASSERT_EQUAL(cbench_sysroot_write("/proc/big", "0123", 4), 0);
	CU_ASSERT_EQUAL(cbench_sysroot_read("/proc/big", buf, sizeof(buf)), -EFBIG);
	CU_ASSERT_EQUAL(cbench_sysroot_write("/proc/fits", "012", 3), 0);
	CU_ASSERT_EQUAL(cbench_sysroot_read("/proc/fits", buf, sizeof(buf)), 3);
}

static void processes_are_found_by_name(void)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/proc/4242", root);
	CU_ASSERT_EQUAL(mkdir(path, 0755), 0);
	CU_ASSERT_EQUAL(cbench_sysroot_find_process("irqbalance"), 0);
	create("/proc/4242/comm");
	CU_ASSERT_EQUAL(cbench_sysroot_write("/proc/4242/comm", "irqbalance\n", 11), 0);
	CU_ASSERT_EQUAL(cbench_sysroot_find_process("irqbalance"), 4242);
	CU_ASSERT_EQUAL(cbench_sysroot_find_process("irqbal"), 0);
}

static CU_TestInfo sysroot_tests[] = {
	{ "CPU lists parse and format", cpulist_parses_ranges },
	{ "a CPU list that does not fit is an error", cpulist_format_says_when_too_small },
	{ "files are read and written under the root", files_go_through_the_root },
	{ "a choice file's selected word", a_choice_is_the_word_in_brackets },
	{ "a file larger than the buffer is refused", a_file_larger_than_the_buffer_is_refused },
	{ "processes are found by name", processes_are_found_by_name },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_sysroot_suites[] = {
	{ "sysroot", setup, teardown, NULL, NULL, sysroot_tests },
	CU_SUITE_INFO_NULL,
};
