/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a benchmark can leave in the process that measured it, for a
 * standing worker (worker.h's cbench_worker_serve()) to tell whether the
 * next trial would begin as in a worker of its own.  Taken once as the
 * worker begins, and compared after each trial.
 */
#ifndef _CBENCH_LEFTOVER_H
#define _CBENCH_LEFTOVER_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

#define CBENCH_LEFTOVER_FDS 64
#define CBENCH_LEFTOVER_SIGNALS 65

/*
 * The process's state as far as a benchmark can change it and the change
 * would hold for the next trial: its scheduling and blocked signals, its
 * signal handlers and alternate signal stack, open files and their flags,
 * resource limits, working directory, umask,
 * environment, the prctl() settings that reach the next trial's code
 * (seccomp, no_new_privs, the TSC's readability), its personality, and how
 * much memory it holds.  Threads, processes and timers are looked at live
 * (cbench_leftover_left()).
 */
struct cbench_leftover {
	int policy, priority, nice;
	sigset_t blocked;
	/* Each signal's handler, and its flags and mask where it is a
	 * function (SIG_DFL and SIG_IGN keep what signal() set). */
	struct {
		uintptr_t handler;
		int flags;
		sigset_t mask;
	} sig[CBENCH_LEFTOVER_SIGNALS];
	stack_t altstack;
	/* Each open file: its number, what it is (an anonymous inode's kind
	 * by its name's hash: perf's, an eventfd, ...), its flags. */
	struct {
		int fd;
		dev_t dev;
		ino_t ino;
		uint64_t name_hash;
		int flags, fd_flags;
	} fds[CBENCH_LEFTOVER_FDS];
	size_t nfds;			/* may exceed CBENCH_LEFTOVER_FDS */
	struct rlimit limits[RLIM_NLIMITS];
	dev_t cwd_dev;
	ino_t cwd_ino;
	mode_t umask;
	uint64_t env_hash;
	int seccomp, no_new_privs, tsc, personality;
	uint64_t resident;		/* bytes */
};

/* Things left behind, as bits (cbench_leftover_left()). */
enum {
	CBENCH_LEFT_PROCESS = 1 << 0,	/* a process, alive or a zombie */
	CBENCH_LEFT_THREAD = 1 << 1,
	CBENCH_LEFT_TIMER = 1 << 2,	/* an itimer or POSIX timer armed */
	CBENCH_LEFT_CPU = 1 << 3,	/* moved off the worker's CPU */
	CBENCH_LEFT_SCHED = 1 << 4,	/* policy, priority, nice */
	CBENCH_LEFT_SIGNALS = 1 << 5,	/* blocked, or a handler changed */
	CBENCH_LEFT_FILES = 1 << 6,	/* a file left open, or one closed */
	CBENCH_LEFT_LIMITS = 1 << 7,
	CBENCH_LEFT_DIR = 1 << 8,	/* working directory, umask */
	CBENCH_LEFT_ENV = 1 << 9,
	CBENCH_LEFT_PRCTL = 1 << 10,	/* seccomp, no_new_privs, TSC, personality */
	CBENCH_LEFT_MEMORY = 1 << 11,	/* CBENCH_LEFTOVER_MEMORY more held */
	/* Not looked at: the worker ends after every trial (a backend that
	 * cannot release a benchmark, no PID namespace of its own). */
	CBENCH_LEFT_UNSEEN = 1 << 30,
};

/* Memory a worker may come to hold beyond what it held as it began
 * before a trial's benchmark counts as having left it. */
#define CBENCH_LEFTOVER_MEMORY (64ull << 20)

/* The process's state now, into s. */
void cbench_leftover_take(struct cbench_leftover *s);

/*
 * What the process holds now that it did not in began (a worker's state
 * as it began, on cpu): CBENCH_LEFT_* bits, 0 for nothing.  Processes
 * are seen only where this process's keeper is its PID namespace's init
 * (machine/proc.h's cbench_proc_isolated()); elsewhere a process is
 * assumed.
 */
unsigned int cbench_leftover_left(const struct cbench_leftover *began, int cpu);

/* What the CBENCH_LEFT_* bits of left name, in words ("a file opened or
 * closed, the environment changed"), into buf (len bytes); CBENCH_LEFT_UNSEEN
 * is not named. */
void cbench_leftover_describe(unsigned int left, char *buf, size_t len);

#endif /* _CBENCH_LEFTOVER_H */
