// SPDX-License-Identifier: GPL-2.0
/*
 * Children that run benchmark code; see proc.h.
 *
 * A benchmark object may fork, from a constructor or from a benchmark, and
 * what it forks may leave its process group (setsid) or its parent may
 * die first.  None of it may outlive the child: it would hold our CPU
 * lock, a report's temporary file and perf fds, and stay pinned to the
 * measured CPU.  And a benchmark may signal its parent: that must not be
 * us, or a benchmark could kill cbenchctl and its temporary files with it.
 *
 * So every such child runs under a keeper, a process of ours between us
 * and it:
 *
 *	cbenchctl (child subreaper) -> keeper (child subreaper) -> child
 *
 * The keeper is what the child's getppid() names, so a benchmark's signal
 * to its parent reaches the keeper, and the child dies with it (its
 * parent-death signal).  While the keeper lives, every orphan of the
 * child's tree becomes the keeper's child, whatever group or session it
 * moved to; when the child has exited, the keeper kills the child's group,
 * then kills and reaps its own children until it has none, and tells us
 * through a page we share how the child ended and how many it killed.  If
 * the keeper itself is killed, its orphans become ours, and we do the same
 * with our own children that are not live keepers.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "proc.h"

/* How long we wait for a killed process group to die, in 5 ms steps. */
#define REAP_STEPS 200
/* Rounds of killing children before a sweep gives up (a fork bomb). */
#define SWEEP_ROUNDS 1000
/* Keepers alive at once: a load and a phase at most, in practice. */
#define KEEPERS_MAX 8

/* What a keeper tells us, in a page we share with it. */
struct keeper_page {
	volatile pid_t child;		/* the child's pid, once forked */
	volatile int status;		/* its wait status */
	volatile int left;		/* processes of its tree the keeper killed */
	volatile int done;		/* 1 once the three above are final */
};

/* Our live keepers: pid and page.  Only the main thread changes it;
 * the abort path (a signal handler) only reads it. */
static struct {
	volatile pid_t pid;
	struct keeper_page *page;
} keepers[KEEPERS_MAX];

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

/* The keeper slot of pid, or NULL. */
static struct keeper_page *page_of(pid_t pid)
{
	for (int i = 0; i < KEEPERS_MAX; i++)
		if (keepers[i].pid == pid)
			return keepers[i].page;
	return NULL;
}

static bool is_keeper(pid_t pid)
{
	return page_of(pid) != NULL;
}

/*
 * Our children's pids (up to max), read from /proc: every process whose
 * parent we are.  Returns how many, or -errno.
 */
static int list_children(pid_t self, pid_t *out, int max)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -errno;
	while ((e = readdir(d)) && n < max) {
		char path[64], buf[512], *close_paren;
		long ppid;
		pid_t pid = (pid_t)strtol(e->d_name, NULL, 10);
		ssize_t got;
		int fd;

		if (pid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/stat", pid);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		got = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (got <= 0)
			continue;
		buf[got] = '\0';
		/* pid (comm) state ppid ...: comm may hold anything, so we
		 * read from its last ')'. */
		close_paren = strrchr(buf, ')');
		if (close_paren && sscanf(close_paren + 1, " %*c %ld", &ppid) == 1 && ppid == self)
			out[n++] = pid;
	}
	closedir(d);
	return n;
}

/*
 * Kills and reaps our children that are not keepers, and what becomes
 * ours as they die, until none is left.  Returns how many were still
 * running (ended by our SIGKILL).
 */
static int sweep_children(void)
{
	pid_t self = getpid(), kids[256];
	int left = 0;

	for (int round = 0; round < SWEEP_ROUNDS; round++) {
		int n = list_children(self, kids, (int)(sizeof(kids) / sizeof(kids[0]))), swept = 0;

		for (int i = 0; i < n; i++) {
			int st;

			if (is_keeper(kids[i]))
				continue;
			kill(kids[i], SIGKILL);
			while (waitpid(kids[i], &st, 0) < 0 && errno == EINTR)
				;
			left += WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL;
			swept++;
		}
		if (!swept)
			break;
	}
	return left;
}

/*
 * The keeper: runs the child, waits for it, clears up its tree, tells us.
 * Never returns.
 */
static void keeper(void (*body)(void *arg, int fd), void *arg, int fd, pid_t parent,
		   struct keeper_page *page)
{
	siginfo_t info;
	pid_t child, self;
	int st = 0;

	fd = cbench_proc_child_init(fd, parent);
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	self = getpid();
	child = fork();
	if (child < 0)
		_exit(127);
	if (child == 0) {
		body(arg, cbench_proc_child_init(fd, self));
		_exit(127);
	}
	setpgid(child, child);
	page->child = child;
	close(fd);
	/* The child stays a zombie until its group is killed, so its pid,
	 * the group's id, cannot have been reused by then. */
	while (waitid(P_PID, (id_t)child, &info, WEXITED | WNOWAIT) < 0 && errno == EINTR)
		;
	kill(-child, SIGKILL);
	while (waitpid(child, &st, 0) < 0 && errno == EINTR)
		;
	page->status = st;
	page->left = sweep_children();
	__atomic_store_n(&page->done, 1, __ATOMIC_RELEASE);
	_exit(0);
}

pid_t cbench_proc_start(void (*body)(void *arg, int fd), void *arg, int *fd)
{
	pid_t pid, parent = getpid();
	struct keeper_page *page;
	int fds[2], slot;

	prctl(PR_SET_CHILD_SUBREAPER, 1);
	for (slot = 0; slot < KEEPERS_MAX && keepers[slot].pid; slot++)
		;
	if (slot == KEEPERS_MAX)
		return -EAGAIN;
	page = mmap(NULL, sizeof(*page), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED)
		return -errno;
	if (pipe2(fds, O_CLOEXEC)) {
		int ret = -errno;

		munmap(page, sizeof(*page));
		return ret;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		int ret = -errno;

		close(fds[0]);
		close(fds[1]);
		munmap(page, sizeof(*page));
		return ret;
	}
	if (pid == 0) {
		close(fds[0]);
		keeper(body, arg, fds[1], parent, page);
	}
	close(fds[1]);
	setpgid(pid, pid);
	keepers[slot].page = page;
	keepers[slot].pid = pid;
	*fd = fds[0];
	return pid;
}

void cbench_proc_kill_group(pid_t pid)
{
	struct keeper_page *page = page_of(pid);
	pid_t child = page ? page->child : 0;

	/* The child's group, and the child in case setpgid() did not take;
	 * the keeper then clears up and reports.  Before the child exists,
	 * the keeper itself: the child then dies with it.  A keeper a
	 * benchmark stopped is woken, so it can. */
	if (child > 0) {
		kill(-child, SIGKILL);
		kill(child, SIGKILL);
		kill(pid, SIGCONT);
	} else {
		kill(pid, SIGKILL);
	}
}

/* Whether pid has exited (a zombie, or gone), as /proc says. */
static bool has_exited(pid_t pid)
{
	char path[64], buf[512], *close_paren;
	ssize_t got;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return true;
	got = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (got <= 0)
		return true;
	buf[got] = '\0';
	close_paren = strrchr(buf, ')');
	return !close_paren || close_paren[1] != ' ' || close_paren[2] == 'Z' || close_paren[2] == 'X';
}

/*
 * Waits for the keeper's report: for as long as its child runs (as the
 * callers expect: they end a group once its child is done or killed), then
 * at most REAP_STEPS * 5 ms more.  Wakes the keeper at every step, in case
 * a benchmark stopped it.  Returns with the keeper reaped.
 */
static void wait_keeper(pid_t pid, pid_t child, struct keeper_page *page, int *status)
{
	struct timespec step = { 0, 5000000 };
	int after_child = 0;

	for (;;) {
		pid_t got = waitpid(pid, status, WNOHANG);

		if (got == pid || (got < 0 && errno != EINTR))
			return;
		if (__atomic_load_n(&page->done, __ATOMIC_ACQUIRE) || child <= 0 || has_exited(child))
			after_child++;
		if (after_child > REAP_STEPS) {
			kill(pid, SIGKILL);
			while (waitpid(pid, status, 0) < 0 && errno == EINTR)
				;
			return;
		}
		kill(pid, SIGCONT);
		nanosleep(&step, NULL);
	}
}

int cbench_proc_end_group(pid_t pid, struct cbench_proc_end *end)
{
	struct keeper_page *page = page_of(pid);
	int keeper_status = 0, slot;
	pid_t child;

	memset(end, 0, sizeof(*end));
	if (!page)
		return -ESRCH;
	child = page->child;
	wait_keeper(pid, child, page, &keeper_status);
	for (slot = 0; keepers[slot].pid != pid; slot++)
		;
	keepers[slot].pid = 0;
	if (__atomic_load_n(&page->done, __ATOMIC_ACQUIRE)) {
		end->status = page->status;
		end->left = page->left;
	} else {
		/* The keeper died before its child was done: a benchmark
		 * signalled its parent.  The child died with it (its
		 * parent-death signal); what it left is ours now. */
		end->keeper_lost = true;
		end->status = keeper_status;
		if (child > 0)
			kill(-child, SIGKILL);
		end->left = sweep_children();
	}
	munmap(page, sizeof(*page));
	keepers[slot].page = NULL;
	return 0;
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
