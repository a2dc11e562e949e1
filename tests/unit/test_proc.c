// SPDX-License-Identifier: GPL-2.0
/* Children under keepers (proc.c): as many at once as a run has CPUs. */
#include <CUnit/CUnit.h>
#include <fcntl.h>
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

/* A standing worker's child: each byte it reads from us comes back one
 * more, until our end is closed; then it says how many fds it has open
 * (only stdio, its pipe and ours: 5) and ends. */
static void echo_until_closed(void *arg, int fd)
{
	unsigned char c;
	int open_fds = 0;

	(void)arg;
	while (read(CBENCH_PROC_CMD_FD, &c, 1) == 1) {
		c++;
		(void)!write(fd, &c, 1);
	}
	for (int i = 0; i < 64; i++)
		open_fds += fcntl(i, F_GETFD) >= 0;
	c = (unsigned char)open_fds;
	(void)!write(fd, &c, 1);
	_exit(0);
}

/* A child started duplex reads what we write, in order, for as long as we
 * write; closing our end is its end of input.  Checked with the pipes'
 * fds in every order against the two it keeps (3 and 4). */
static void duplex(void)
{
	for (int busy = 0; busy < 3; busy++) {
		struct cbench_proc_end end;
		int fd, cmd, held[3] = { -1, -1, -1 };
		unsigned char c;
		pid_t pid;

		/* 0, 1 or 2 fds held low, so the pipes land on 3, 4 or above. */
		for (int i = 0; i < busy; i++)
			held[i] = open("/dev/null", O_RDONLY | O_CLOEXEC);
		pid = cbench_proc_start_duplex(echo_until_closed, NULL, &fd, &cmd);
		CU_ASSERT_FATAL(pid > 0);
		for (unsigned char i = 1; i < 4; i++) {
			CU_ASSERT_EQUAL(write(cmd, &i, 1), 1);
			CU_ASSERT_EQUAL(read(fd, &c, 1), 1);
			CU_ASSERT_EQUAL(c, i + 1);
		}
		close(cmd);
		CU_ASSERT_EQUAL(read(fd, &c, 1), 1);
		CU_ASSERT_EQUAL(c, 5);
		close(fd);
		CU_ASSERT_EQUAL(cbench_proc_end_group(pid, &end), 0);
		CU_ASSERT(WIFEXITED(end.status) && WEXITSTATUS(end.status) == 0);
		for (int i = 0; i < busy; i++)
			close(held[i]);
	}
}

static CU_TestInfo proc_tests[] = {
	{ "a child on every CPU of a run at once", many_at_once },
	{ "a child that reads what we write, until we close", duplex },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_proc_suites[] = {
	{ "children under keepers", NULL, NULL, NULL, NULL, proc_tests },
	CU_SUITE_INFO_NULL,
};
