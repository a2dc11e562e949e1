// SPDX-License-Identifier: GPL-2.0
/* What a benchmark leaves in its worker; see leftover.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <malloc.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "machine/proc.h"
#include "worker/leftover.h"

extern char **environ;

static void sched_state(struct cbench_leftover *s)
{
	struct sched_param sp = { 0 };

	s->policy = sched_getscheduler(0);
	s->priority = sched_getparam(0, &sp) ? -1 : sp.sched_priority;
	errno = 0;
	s->nice = getpriority(PRIO_PROCESS, 0);
	if (errno)
		s->nice = INT_MIN;
}

static void signal_state(struct cbench_leftover *s)
{
	/* The kernel fills the bits it has: the rest compare as zeros. */
	memset(&s->blocked, 0, sizeof(s->blocked));
	sigprocmask(SIG_BLOCK, NULL, &s->blocked);
	for (int sig = 1; sig < CBENCH_LEFTOVER_SIGNALS; sig++) {
		struct sigaction sa;

		/* The C library's own signals (32, 33) are refused: zeros. */
		memset(&sa, 0, sizeof(sa));
		if (sigaction(sig, NULL, &sa))
			memset(&sa, 0, sizeof(sa));
		s->sig[sig].handler = (sa.sa_flags & SA_SIGINFO) ? (uintptr_t)sa.sa_sigaction :
				      (uintptr_t)sa.sa_handler;
		/* A handler put back as SIG_DFL or SIG_IGN is as it was,
		 * whatever flags signal() gave it. */
		if (s->sig[sig].handler == (uintptr_t)SIG_DFL || s->sig[sig].handler == (uintptr_t)SIG_IGN)
			continue;
		s->sig[sig].flags = sa.sa_flags;
		s->sig[sig].mask = sa.sa_mask;
	}
	if (sigaltstack(NULL, &s->altstack))
		memset(&s->altstack, 0, sizeof(s->altstack));
}

/* FNV-1a of a string, from h. */
static uint64_t fnv(uint64_t h, const char *c)
{
	for (; *c; c++)
		h = (h ^ (uint8_t)*c) * 0x100000001b3ull;
	return h;
}

static int by_fd(const void *a, const void *b)
{
	const int *x = a, *y = b;

	return (*x > *y) - (*x < *y);
}

/* The open files, by number and what they are; nfds SIZE_MAX where
 * /proc does not say. */
static void file_state(struct cbench_leftover *s)
{
	DIR *dir = opendir("/proc/self/fd");
	struct dirent *de;

	s->nfds = 0;
	if (!dir) {
		s->nfds = SIZE_MAX;
		return;
	}
	while ((de = readdir(dir))) {
		struct stat st;
		char *end;
		long fd = strtol(de->d_name, &end, 10);

		if (*end || end == de->d_name || fd == dirfd(dir))
			continue;
		if (s->nfds < CBENCH_LEFTOVER_FDS) {
			char link[256];
			ssize_t n = 0;

			if (fstat((int)fd, &st))
				memset(&st, 0, sizeof(st));
			/* An anonymous inode (no file type: perf's, an eventfd,
			 * an epoll, ...) is one inode for all: its name says
			 * which. */
			if (!(st.st_mode & S_IFMT))
				n = readlinkat(dirfd(dir), de->d_name, link, sizeof(link) - 1);
			link[n > 0 ? n : 0] = '\0';
			s->fds[s->nfds].fd = (int)fd;
			s->fds[s->nfds].dev = st.st_dev;
			s->fds[s->nfds].ino = st.st_ino;
			s->fds[s->nfds].name_hash = fnv(0xcbf29ce484222325ull, link);
			s->fds[s->nfds].flags = fcntl((int)fd, F_GETFL);
			s->fds[s->nfds].fd_flags = fcntl((int)fd, F_GETFD);
		}
		s->nfds++;
	}
	closedir(dir);
	qsort(s->fds, s->nfds < CBENCH_LEFTOVER_FDS ? s->nfds : CBENCH_LEFTOVER_FDS,
	      sizeof(s->fds[0]), by_fd);
}

/* FNV-1a over the environment's strings, in order. */
static uint64_t env_hash(void)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (char **e = environ; e && *e; e++)
		h = (fnv(h, *e) ^ 0xff) * 0x100000001b3ull;
	return h;
}

/* Resident bytes (statm's second field), after the C library has given
 * back what it keeps of memory freed; 0 where /proc does not say. */
static uint64_t resident(void)
{
	char buf[128];
	unsigned long long size, rss;
	int fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return 0;
	malloc_trim(0);
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	if (sscanf(buf, "%llu %llu", &size, &rss) != 2)
		return 0;
	return (uint64_t)rss * (uint64_t)sysconf(_SC_PAGESIZE);
}

void cbench_leftover_take(struct cbench_leftover *s)
{
	struct stat st;

	memset(s, 0, sizeof(*s));
	sched_state(s);
	signal_state(s);
	file_state(s);
	for (int r = 0; r < RLIM_NLIMITS; r++)
		getrlimit(r, &s->limits[r]);
	if (!stat(".", &st)) {
		s->cwd_dev = st.st_dev;
		s->cwd_ino = st.st_ino;
	}
	s->umask = umask(022);
	umask(s->umask);
	s->env_hash = env_hash();
	s->seccomp = prctl(PR_GET_SECCOMP, 0, 0, 0, 0);
	s->no_new_privs = prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0);
	if (prctl(PR_GET_TSC, &s->tsc, 0, 0, 0))
		s->tsc = -1;
	s->personality = personality(0xffffffff);
	s->resident = resident();
}

/* Whether a process other than this one is in its PID namespace (alive
 * or a zombie); true where that cannot be seen. */
static bool processes(void)
{
	return !cbench_proc_isolated() || kill(-1, 0) == 0 || errno != ESRCH;
}

/* Whether a thread other than this one runs; true where /proc does not
 * say. */
static bool threads(void)
{
	DIR *dir = opendir("/proc/self/task");
	int n = 0;

	if (!dir)
		return true;
	while (readdir(dir))
		n++;
	closedir(dir);
	/* ".", ".." and this thread. */
	return n != 3;
}

/* Whether an itimer or a POSIX timer (timer_create()) is armed or
 * exists; true where /proc does not say. */
static bool timers(void)
{
	static const int itimers[] = { ITIMER_REAL, ITIMER_VIRTUAL, ITIMER_PROF };
	FILE *f;
	bool none;

	for (size_t i = 0; i < sizeof(itimers) / sizeof(itimers[0]); i++) {
		struct itimerval it;

		if (getitimer(itimers[i], &it) || it.it_value.tv_sec || it.it_value.tv_usec)
			return true;
	}
	f = fopen("/proc/self/timers", "re");
	if (!f)
		return true;
	none = fgetc(f) == EOF;
	fclose(f);
	return !none;
}

static bool same_files(const struct cbench_leftover *a, const struct cbench_leftover *b)
{
	if (a->nfds == SIZE_MAX || a->nfds != b->nfds)
		return false;
	return !memcmp(a->fds, b->fds, sizeof(a->fds[0]) *
		       (a->nfds < CBENCH_LEFTOVER_FDS ? a->nfds : CBENCH_LEFTOVER_FDS));
}

void cbench_leftover_describe(unsigned int left, char *buf, size_t len)
{
	static const char *const what[] = {
		"a process", "a thread", "a timer armed", "the worker moved to another CPU",
		"its scheduling changed",
		"signals blocked, a signal handler installed or an alternate signal stack set",
		"a file opened or closed", "a resource limit changed",
		"the working directory or umask changed", "the environment changed",
		"a prctl() setting changed (seccomp, no_new_privs, the TSC, the personality)",
		"more than 64 MiB of memory kept",
	};
	size_t at = 0;

	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < sizeof(what) / sizeof(what[0]) && at < len; i++) {
		int n;

		if (!(left & (1u << i)))
			continue;
		n = snprintf(buf + at, len - at, "%s%s", at ? ", " : "", what[i]);
		if (n < 0)
			break;
		at += (size_t)n;
	}
}

unsigned int cbench_leftover_left(const struct cbench_leftover *began, int cpu)
{
	/* Static: a standing worker's stack is a benchmark's too. */
	static struct cbench_leftover now;
	unsigned int left = 0;
	cpu_set_t on;

	left |= processes() ? CBENCH_LEFT_PROCESS : 0;
	left |= threads() ? CBENCH_LEFT_THREAD : 0;
	/* What runs on beside us could change what we look at next as we
	 * look (a thread calling setenv()): enough said. */
	if (left)
		return left;
	left |= timers() ? CBENCH_LEFT_TIMER : 0;
	if (sched_getaffinity(0, sizeof(on), &on) || CPU_COUNT(&on) != 1 || !CPU_ISSET(cpu, &on))
		left |= CBENCH_LEFT_CPU;
	cbench_leftover_take(&now);
	if (now.policy != began->policy || now.priority != began->priority || now.nice != began->nice)
		left |= CBENCH_LEFT_SCHED;
	if (memcmp(&now.blocked, &began->blocked, sizeof(now.blocked)) ||
	    memcmp(now.sig, began->sig, sizeof(now.sig)) ||
	    now.altstack.ss_sp != began->altstack.ss_sp || now.altstack.ss_size != began->altstack.ss_size ||
	    now.altstack.ss_flags != began->altstack.ss_flags)
		left |= CBENCH_LEFT_SIGNALS;
	if (!same_files(&now, began))
		left |= CBENCH_LEFT_FILES;
	if (memcmp(now.limits, began->limits, sizeof(now.limits)))
		left |= CBENCH_LEFT_LIMITS;
	if (now.cwd_dev != began->cwd_dev || now.cwd_ino != began->cwd_ino || now.umask != began->umask)
		left |= CBENCH_LEFT_DIR;
	if (now.env_hash != began->env_hash)
		left |= CBENCH_LEFT_ENV;
	if (now.seccomp != began->seccomp || now.no_new_privs != began->no_new_privs ||
	    now.tsc != began->tsc || now.personality != began->personality)
		left |= CBENCH_LEFT_PRCTL;
	if (now.resident > began->resident + CBENCH_LEFTOVER_MEMORY)
		left |= CBENCH_LEFT_MEMORY;
	return left;
}
