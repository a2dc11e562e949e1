// SPDX-License-Identifier: GPL-2.0
/* Children under keepers (proc.c): as many at once as a run has CPUs. */
#include <CUnit/CUnit.h>
#include <sys/wait.h>
#include <unistd.h>

#include "machine/cpus.h"
#include "machine/proc.h"

static void say_and_go(void *arg, int fd)
{
	char c = (char)(long)arg;

	(void)!write(fd, &c, 1);
	_exit(7);
}

/* run --jobs 64 starts a worker on each CPU at once: every one starts,
 * says its byte, and ends as it did. */
static void many_at_once(void)
{
	pid_t pid[CBENCH_JOBS_MAX + 1];
	int fd[CBENCH_JOBS_MAX + 1];

	for (long i = 0; i <= CBENCH_JOBS_MAX; i++) {
		pid[i] = cbench_proc_start(say_and_go, (void *)i, &fd[i]);
		CU_ASSERT_FATAL(pid[i] > 0);
	}
	for (long i = 0; i <= CBENCH_JOBS_MAX; i++) {
		struct cbench_proc_end end;
		char c = -1;

		CU_ASSERT_EQUAL(read(fd[i], &c, 1), 1);
		CU_ASSERT_EQUAL(c, (char)i);
		close(fd[i]);
		CU_ASSERT_EQUAL(cbench_proc_end_group(pid[i], &end), 0);
		CU_ASSERT(WIFEXITED(end.status) && WEXITSTATUS(end.status) == 7);
		CU_ASSERT_EQUAL(end.left, 0);
	}
}

static CU_TestInfo proc_tests[] = {
	{ "a child on every CPU of a run at once", many_at_once },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_proc_suites[] = {
	{ "children under keepers", NULL, NULL, NULL, NULL, proc_tests },
	CU_SUITE_INFO_NULL,
};
