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
 *	cbenchctl (child subreaper) -> keeper -> child
 *
 * Where the kernel lets us, the keeper is the first process (init) of a PID
 * namespace of its own (and, without root, of a user namespace that owns
 * it): the child and all it starts live in that namespace, see no process
 * of ours, cannot signal one (a signal to their parent reaches the
 * namespace's init, which the kernel keeps from signals its namespace
 * sends), and die with the keeper, whatever group or session they moved
 * to.  Elsewhere (a container that forbids namespaces) the keeper is a
 * child subreaper in our namespace: a benchmark's signal to its parent
 * reaches the keeper, not us, and the child dies with it (its parent-death
 * signal); but a benchmark that goes on signalling its parent between the
 * keeper's death and its own may reach us: only the namespace closes that.
 *
 * When the child has exited, the keeper kills the child's group and every
 * process left in its namespace (or, without one, its own children, which
 * every orphan of the child's tree becomes, until it has none), and tells
 * us through a page we share how the child ended and how many it killed.
 * If the keeper itself is killed, its orphans become ours, and we do the
 * same with our own children that are not live keepers.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "machine/cpus.h"
#include "machine/proc.h"

/* How long we wait for a killed process group to die, in steps. */
#define REAP_STEPS 200
#define REAP_STEP_MS 5
/* Rounds of killing children before a sweep gives up (a fork bomb). */
#define SWEEP_ROUNDS 1000
/* Keepers alive at once: a phase on each CPU a run measures on (run
 * --jobs), and a load. */
#define KEEPERS_MAX (CBENCH_JOBS_MAX + 2)

/* What a keeper tells us, in a page we share with it. */
struct keeper_page {
	volatile int status;		/* the child's wait status */
	volatile int left;		/* processes of its tree the keeper killed */
	volatile int done;		/* 1 once the two above are final */
};

/* In a keeper: its child (in its own namespace's numbers), and whether we
 * were asked to kill it before it existed. */
static volatile pid_t kept_child;
static volatile sig_atomic_t kill_asked;
/* While a duplex child is forked: the read end of its request pipe; in the
 * keeper and the child, CBENCH_PROC_CMD_FD once moved there.  -1: none. */
static int cmd_read = -1;
/* In a keeper and its child: the keeper is its namespace's init. */
static bool isolated_here;

bool cbench_proc_isolated(void)
{
	return isolated_here;
}

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

/*
 * Field `field` (1-based, 1 the pid) of /proc/<pid>/stat, pid 0 for
 * ourselves, as the /proc we see numbers processes (our parent's
 * namespace, for a keeper that is the init of a new one): 0 if unreadable.
 * The comm field may hold anything, so we count fields after its last ')'.
 */
static long stat_field(pid_t pid, int field)
{
	char path[64], buf[512], *p;
	long value = 0;
	ssize_t got;
	int fd;

	if (pid)
		snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	else
		snprintf(path, sizeof(path), "/proc/self/stat");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	got = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (got <= 0)
		return 0;
	buf[got] = '\0';
	if (field == 1)
		return strtol(buf, NULL, 10);
	p = strrchr(buf, ')');
	/* Field 3 is the state, a letter: 'Z' (zombie) is returned as is. */
	for (int f = 2; p && f < field; f++)
		p = strchr(p + 1, ' ');
	if (p && field == 3)
		return p[1];
	if (p)
		value = strtol(p + 1, NULL, 10);
	return value;
}

static pid_t real_ppid(void)
{
	return (pid_t)stat_field(0, 4);
}

int cbench_proc_child_init(int fd, pid_t parent)
{
	int null;

	/* A child must never outlive its parent: a SCHED_FIFO worker stuck
	 * in a benchmark that never returns would own its CPU for good.  The
	 * check closes the race with a parent dying before prctl: getppid()
	 * in our namespace, or the parent's pid outside it, as /proc (our
	 * parent's) says, for a keeper that is the init of a new one. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || (getppid() != parent && real_ppid() != parent))
		_exit(1);
	/* Also done by the parent, so that neither side races the other. */
	setpgid(0, 0);
	/* Only stdio and the pipe (closed below): the parent's CPU lock,
	 * output files and anything else it holds must not pass to what a
	 * benchmark forks. */
	if (cmd_read == CBENCH_PROC_PIPE_FD) {
		/* Out of the way of the message pipe first. */
		cmd_read = fcntl(cmd_read, F_DUPFD, CBENCH_PROC_CMD_FD + 1);
		if (cmd_read < 0)
			_exit(1);
	}
	if (fd != CBENCH_PROC_PIPE_FD) {
		if (dup2(fd, CBENCH_PROC_PIPE_FD) < 0)
			_exit(1);
		fd = CBENCH_PROC_PIPE_FD;
	}
	if (cmd_read >= 0 && cmd_read != CBENCH_PROC_CMD_FD) {
		if (dup2(cmd_read, CBENCH_PROC_CMD_FD) < 0)
			_exit(1);
		cmd_read = CBENCH_PROC_CMD_FD;
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
	close_from(cmd_read >= 0 ? CBENCH_PROC_CMD_FD + 1 : CBENCH_PROC_PIPE_FD + 1);
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

/*
 * Our children's pids (up to max), read from /proc: every process whose
 * parent is self.  Returns how many, or -errno.  Only where /proc numbers
 * processes as we do: not in a keeper with a namespace of its own.
 */
static int list_children(pid_t self, pid_t *out, int max)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -errno;
	while ((e = readdir(d)) && n < max) {
		pid_t pid = (pid_t)strtol(e->d_name, NULL, 10);

		if (pid > 0 && stat_field(pid, 4) == self)
			out[n++] = pid;
	}
	closedir(d);
	return n;
}

/* Reaps pid, killed or not; true if our SIGKILL ended it while it ran. */
static bool reap(pid_t pid)
{
	int st = 0;

	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL;
}

/*
 * Kills and reaps our children that are not live keepers, and what becomes
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
			if (page_of(kids[i]))
				continue;
			kill(kids[i], SIGKILL);
			left += reap(kids[i]);
			swept++;
		}
		if (!swept)
			break;
	}
	return left;
}

/*
 * The same for a keeper that is its namespace's init: everything in the
 * namespace but us dies (kill(-1) reaches no process outside it), and
 * every orphan there is ours to reap.
 */
static int sweep_namespace(void)
{
	int left = 0, st;

	for (int round = 0; round < SWEEP_ROUNDS; round++) {
		pid_t got;

		kill(-1, SIGKILL);
		got = waitpid(-1, &st, 0);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			break;
		left += WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL;
	}
	return left;
}

/* A keeper's SIGUSR1 handler: we are asked to end the child. */
static void on_kill_asked(int sig)
{
	pid_t child = kept_child;

	(void)sig;
	kill_asked = 1;
	if (child > 0) {
		kill(-child, SIGKILL);
		kill(child, SIGKILL);
	}
}

/*
 * The keeper: runs the child, waits for it, clears up what it started,
 * tells us.  SIGUSR1 is blocked on entry.  Never returns.
 */
static void keeper(void (*body)(void *arg, int fd), void *arg, int fd, pid_t parent,
		   struct keeper_page *page, bool isolated)
{
	struct sigaction sa = { .sa_handler = on_kill_asked };
	sigset_t usr1;
	siginfo_t info;
	pid_t child, self;
	int st = 0;

	isolated_here = isolated;
	fd = cbench_proc_child_init(fd, parent);
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigaction(SIGUSR1, &sa, NULL);
	self = getpid();
	child = fork();
	if (child < 0)
		_exit(127);
	if (child == 0) {
		signal(SIGUSR1, SIG_DFL);
		sigprocmask(SIG_UNBLOCK, &usr1, NULL);
		body(arg, cbench_proc_child_init(fd, self));
		_exit(127);
	}
	setpgid(child, child);
	kept_child = child;
	sigprocmask(SIG_UNBLOCK, &usr1, NULL);
	if (kill_asked)
		on_kill_asked(SIGUSR1);
	close(fd);
	if (cmd_read >= 0)
		close(cmd_read);
	/* The child stays a zombie until its group is killed, so its pid,
	 * the group's id, cannot have been reused by then. */
	while (waitid(P_PID, (id_t)child, &info, WEXITED | WNOWAIT) < 0 && errno == EINTR)
		;
	kill(-child, SIGKILL);
	while (waitpid(child, &st, 0) < 0 && errno == EINTR)
		;
	page->status = st;
	page->left = isolated ? sweep_namespace() : sweep_children();
	__atomic_store_n(&page->done, 1, __ATOMIC_RELEASE);
	_exit(0);
}

/*
 * Forks the keeper: as the init of a PID namespace of its own where the
 * kernel lets us (root; else with a user namespace of its own to own it),
 * else plainly.  Like fork(): 0 in the keeper, *isolated set in both.  The
 * raw clone skips glibc's fork handlers, which only matter to threads we
 * do not have; the keeper calls nothing that needs its thread id (glibc's
 * cached one is ours), and its fork() gives the child a right one.
 */
static pid_t fork_keeper(bool *isolated)
{
	static const unsigned long ns_flags[] = {
		CLONE_NEWPID, CLONE_NEWUSER | CLONE_NEWPID,
	};
	/* The tests' way to the keeper a container without namespaces gets. */
	const char *no_ns = getenv("CBENCH_TEST_NO_NAMESPACE");

	for (size_t i = 0; i < sizeof(ns_flags) / sizeof(ns_flags[0]) && !(no_ns && *no_ns); i++) {
		long pid = syscall(SYS_clone, ns_flags[i] | SIGCHLD, NULL, NULL, NULL, NULL);

		if (pid >= 0) {
			*isolated = true;
			return (pid_t)pid;
		}
	}
	*isolated = false;
	return fork();
}

pid_t cbench_proc_start(void (*body)(void *arg, int fd), void *arg, int *fd)
{
	pid_t pid, parent = getpid();
	struct keeper_page *page;
	sigset_t usr1, old;
	int fds[2], slot;
	bool isolated;

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
	/* Until the keeper has its handler, a request to kill its child
	 * waits rather than killing the keeper. */
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, &old);
	pid = fork_keeper(&isolated);
	if (pid == 0) {
		close(fds[0]);
		keeper(body, arg, fds[1], parent, page, isolated);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (pid < 0) {
		int ret = -errno;

		close(fds[0]);
		close(fds[1]);
		munmap(page, sizeof(*page));
		return ret;
	}
	close(fds[1]);
	setpgid(pid, pid);
	keepers[slot].page = page;
	keepers[slot].pid = pid;
	*fd = fds[0];
	return pid;
}

pid_t cbench_proc_start_duplex(void (*body)(void *arg, int fd), void *arg, int *fd, int *cmd)
{
	int fds[2];
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC))
		return -errno;
	cmd_read = fds[0];
	pid = cbench_proc_start(body, arg, fd);
	cmd_read = -1;
	close(fds[0]);
	if (pid < 0) {
		close(fds[1]);
		return pid;
	}
	*cmd = fds[1];
	return pid;
}

void cbench_proc_kill_group(pid_t pid)
{
	/* The keeper kills its child, then clears up and reports; a keeper
	 * a benchmark stopped is woken, so it can. */
	kill(pid, SIGUSR1);
	kill(pid, SIGCONT);
}

/*
 * Waits for the keeper to exit: as long as its child runs, for the
 * callers end a group once its child is done or killed, but a child that
 * lingers REAP_STEPS * 5 ms past that is killed, and a keeper that has
 * not reported as long again after that is killed too.  Wakes the keeper
 * at every step, in case a benchmark stopped it.  A step ends early when
 * the keeper exits (its pidfd, Linux 5.3), so a trial does not wait out
 * the rest of one; without a pidfd it is a plain sleep.
 */
static void wait_keeper(pid_t pid, int *status)
{
	struct timespec step = { 0, REAP_STEP_MS * 1000000L };
	struct pollfd pfd = { .fd = (int)syscall(SYS_pidfd_open, pid, 0), .events = POLLIN };

	for (int i = 0;; i++) {
		pid_t got = waitpid(pid, status, WNOHANG);

		if (got == pid || (got < 0 && errno != EINTR))
			break;
		if (i == REAP_STEPS)
			cbench_proc_kill_group(pid);
		if (i == 2 * REAP_STEPS) {
			kill(pid, SIGKILL);
			while (waitpid(pid, status, 0) < 0 && errno == EINTR)
				;
			break;
		}
		kill(pid, SIGCONT);
		if (pfd.fd < 0 || poll(&pfd, 1, REAP_STEP_MS) < 0)
			nanosleep(&step, NULL);
	}
	if (pfd.fd >= 0)
		close(pfd.fd);
}

int cbench_proc_end_group(pid_t pid, struct cbench_proc_end *end)
{
	struct keeper_page *page = page_of(pid);
	int keeper_status = 0, slot;

	memset(end, 0, sizeof(*end));
	if (!page)
		return -ESRCH;
	wait_keeper(pid, &keeper_status);
	for (slot = 0; keepers[slot].pid != pid; slot++)
		;
	keepers[slot].pid = 0;
	if (__atomic_load_n(&page->done, __ATOMIC_ACQUIRE)) {
		end->status = page->status;
		end->left = page->left;
	} else {
		/* The keeper died before its child was done: a benchmark
		 * signalled its parent (a keeper without a namespace of its
		 * own), or we killed it.  The child died with it (its
		 * parent-death signal, or its namespace's end); what it left
		 * outside a namespace is ours now. */
		end->keeper_lost = true;
		end->status = keeper_status;
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
