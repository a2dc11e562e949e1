// SPDX-License-Identifier: GPL-2.0
/*
 * Children that run benchmark code; see proc.h.
 *
 * A benchmark object may fork, from a constructor or from a benchmark.
 * What it forks must not outlive the child: it would hold our CPU lock, a
 * report's temporary file and perf fds, and stay pinned to the measured CPU.
 * So the child keeps only stdio and its pipe, leads a process group of its
 * own, and the parent kills that group when the child is done.  The parent
 * is a child subreaper, so the child's orphans become its children: it
 * reaps them, and knows whether they were still running.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "proc.h"

/* How long we wait for a killed process group to die, in 5 ms steps. */
#define REAP_STEPS 200

/* Closes every fd from `from` up; close_range where the kernel has it. */
static void close_from(int from)
{
	struct rlimit rl;

	if (close_range((unsigned int)from, ~0U, 0) == 0)
		return;
	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > 1 << 20)
		rl.rlim_cur = 1 << 20;
	for (int fd = from; fd < (int)rl.rlim_cur; fd++)
		close(fd);
}

int cbench_proc_child_init(int fd, pid_t parent)
{
	int null;

	/* A child must never outlive its parent: a SCHED_FIFO worker stuck
	 * in a benchmark that never returns would own its CPU for good.  The
	 * getppid() check closes the race with a parent dying before prctl. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
		_exit(1);
	/* Also done by the parent, so that neither side races the other. */
	setpgid(0, 0);
	/* Only stdio and the pipe (closed below): the parent's CPU lock,
	 * output files and anything else it holds must not pass to what a
	 * benchmark forks. */
	if (fd != CBENCH_PROC_PIPE_FD) {
		if (dup2(fd, CBENCH_PROC_PIPE_FD) < 0)
			_exit(1);
		fd = CBENCH_PROC_PIPE_FD;
	}
	null = open("/dev/null", O_RDONLY | O_CLOEXEC);

	signal(SIGPIPE, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	if (null >= 0)
		dup2(null, STDIN_FILENO);
	/* What benchmark code prints must not corrupt a report or a list
	 * on our stdout. */
	dup2(STDERR_FILENO, STDOUT_FILENO);
	/* Not a terminal, stdout is fully buffered, and _exit() would drop
	 * what a benchmark printed. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	close_from(CBENCH_PROC_PIPE_FD + 1);
	return fd;
}

pid_t cbench_proc_start(void (*body)(void *arg, int fd), void *arg, int *fd)
{
	pid_t pid, parent = getpid();
	int fds[2];

	prctl(PR_SET_CHILD_SUBREAPER, 1);
	if (pipe2(fds, O_CLOEXEC))
		return -errno;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		int ret = -errno;

		close(fds[0]);
		close(fds[1]);
		return ret;
	}
	if (pid == 0) {
		close(fds[0]);
		body(arg, cbench_proc_child_init(fds[1], parent));
		_exit(127);
	}
	close(fds[1]);
	setpgid(pid, pid);
	*fd = fds[0];
	return pid;
}

void cbench_proc_kill_group(pid_t pid)
{
	/* The child too, in case neither setpgid() took. */
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
}

/*
 * The child stays a zombie until the group is killed, so its pid, the
 * group's id, cannot have been reused by then.
 */
int cbench_proc_end_group(pid_t pid, int *status)
{
	struct timespec step = { 0, 5000000 };
	siginfo_t info;
	int left = 0, st;
	pid_t got;

	while (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOWAIT) < 0 && errno == EINTR)
		;
	kill(-pid, SIGKILL);
	while (waitpid(pid, status, 0) < 0 && errno == EINTR)
		;
	/* Those that had exited on their own are no leftovers; those our
	 * SIGKILL ended are. */
	for (int i = 0; i < REAP_STEPS; i++) {
		got = waitpid(-pid, &st, WNOHANG);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			break;
		if (got == 0) {
			nanosleep(&step, NULL);
			continue;
		}
		left += WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL;
	}
	return left;
}

const char *cbench_proc_signame(int sig, char *buf, size_t len)
{
	const char *abbrev = sigabbrev_np(sig);

	snprintf(buf, len, "SIG%s", abbrev ? abbrev : "?");
	return buf;
}

int cbench_proc_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t put = write(fd, p, len);

		if (put < 0 && errno == EINTR)
			continue;
		if (put <= 0)
			return -EPIPE;
		p += put;
		len -= (size_t)put;
	}
	return 0;
}
