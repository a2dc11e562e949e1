// SPDX-License-Identifier: GPL-2.0
/* Per-CPU run locks: a second claim sees the first and names its holder. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "machine/cpulock.h"

static char lock_dir[] = "/tmp/cbench-test-locks-XXXXXX";

static int setup(void)
{
	if (!mkdtemp(lock_dir))
		return -1;
	return setenv("CBENCH_LOCK_DIR", lock_dir, 1);
}

static int teardown(void)
{
	char path[128];

	for (int cpu = 0; cpu < 4; cpu++) {
		snprintf(path, sizeof(path), "%s/cbench-cpu%d.lock", lock_dir, cpu);
		unlink(path);
	}
	unsetenv("CBENCH_LOCK_DIR");
	return rmdir(lock_dir);
}

static void free_cpu_is_claimed(void)
{
	pid_t holder;
	int fd = cbench_cpulock_try(0, &holder);

	CU_ASSERT(fd >= 0);
	CU_ASSERT_EQUAL(holder, 0);
	close(fd);
}

/* flock claims belong to open file descriptions, so the contender must be
 * another process, as another cbenchctl would be. */
static void claimed_cpu_is_busy_and_holder_named(void)
{
	int ready[2];
	pid_t child, holder;
	char byte;
	int fd, status;

	CU_ASSERT_FATAL(pipe(ready) == 0);
	child = fork();
	CU_ASSERT_FATAL(child >= 0);
	if (child == 0) {
		int mine = cbench_cpulock_try(1, &holder);

		if (write(ready[1], mine >= 0 ? "y" : "n", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	CU_ASSERT_FATAL(read(ready[0], &byte, 1) == 1);
	CU_ASSERT_EQUAL(byte, 'y');

	fd = cbench_cpulock_try(1, &holder);
	CU_ASSERT_EQUAL(fd, -EBUSY);
	CU_ASSERT_EQUAL(holder, child);
	/* Another CPU is not affected. */
	fd = cbench_cpulock_try(2, &holder);
	CU_ASSERT(fd >= 0);
	if (fd >= 0)
		close(fd);

	/* The claim ends with its holder. */
	kill(child, SIGKILL);
	waitpid(child, &status, 0);
	fd = cbench_cpulock_try(1, &holder);
	CU_ASSERT(fd >= 0);
	if (fd >= 0)
		close(fd);
	close(ready[0]);
	close(ready[1]);
}

static void bad_directory_is_an_error(void)
{
	pid_t holder;
	int fd;

	setenv("CBENCH_LOCK_DIR", "/nonexistent/cbench", 1);
	fd = cbench_cpulock_try(3, &holder);
	CU_ASSERT_EQUAL(fd, -ENOENT);
	setenv("CBENCH_LOCK_DIR", lock_dir, 1);
}

static CU_TestInfo cpulock_tests[] = {
	{ "a free CPU is claimed", free_cpu_is_claimed },
	{ "a claimed CPU is busy and its holder named", claimed_cpu_is_busy_and_holder_named },
	{ "an unusable lock directory is an error", bad_directory_is_an_error },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_cpulock_suites[] = {
	{ "cpulock", setup, teardown, NULL, NULL, cpulock_tests },
	CU_SUITE_INFO_NULL,
};
