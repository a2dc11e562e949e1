/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Child processes that run benchmark code: loading workers (object/load_child.c) and
 * measuring workers (phase.c).  Each leads a process group of its own,
 * keeps only stdio and one pipe, and dies with cbenchctl; the parent kills
 * the whole group when it is done with it.
 */
#ifndef _CBENCH_PROC_H
#define _CBENCH_PROC_H

#include <stdbool.h>
#include <sys/types.h>

/* The child's message pipe, once it has closed everything else; and the
 * pipe it reads our requests from, where it has one
 * (cbench_proc_start_duplex()). */
#define CBENCH_PROC_PIPE_FD 3
#define CBENCH_PROC_CMD_FD 4

/*
 * In a child just forked by `parent`: dies with the parent, leads its own
 * process group, moves pipe_fd to CBENCH_PROC_PIPE_FD, stdin from /dev/null,
 * stdout to stderr (line-buffered), default signal actions, and closes every
 * other fd (but the request pipe of a child started duplex, moved to
 * CBENCH_PROC_CMD_FD).  Returns CBENCH_PROC_PIPE_FD; _exit()s if that
 * cannot be done.
 */
int cbench_proc_child_init(int pipe_fd, pid_t parent);

/* In a child: whether its keeper is the init of a PID namespace of its own
 * (then kill(-1, 0) finds any other process the child's tree left). */
bool cbench_proc_isolated(void);

/*
 * Starts a child that talks to us over a pipe: makes us a child subreaper,
 * flushes stdio (so the child cannot write our buffered output again),
 * forks a keeper that forks the child, and in the child calls body(arg, fd)
 * once cbench_proc_child_init() is done, fd being its end of the pipe; body
 * must not return.  Returns the keeper's pid, the handle for the calls
 * below, with the pipe's read end in *fd, or -errno if no child could start.
 */
pid_t cbench_proc_start(void (*body)(void *arg, int fd), void *arg, int *fd);

/*
 * The same, with a second pipe the other way: *cmd is its write end, ours,
 * and the child reads what we write from CBENCH_PROC_CMD_FD.  Closing *cmd
 * is the child's end of input.
 */
pid_t cbench_proc_start_duplex(void (*body)(void *arg, int fd), void *arg, int *fd, int *cmd);

/* Kills the child of keeper pid and its process group (the keeper then
 * clears up the rest).  Async-signal-safe. */
void cbench_proc_kill_group(pid_t pid);

/* How a child ended. */
struct cbench_proc_end {
	int status;		/* the child's wait status */
	int left;		/* processes it started that were still running, killed */
	bool keeper_lost;	/* its keeper was killed first (a signal to its parent) */
};

/*
 * Ends the child started as pid: waits for it to exit, kills and reaps
 * whatever it started that still runs, and frees the handle.  Returns 0,
 * or -ESRCH for a pid that is no such handle.
 */
int cbench_proc_end_group(pid_t pid, struct cbench_proc_end *end);

/* "SIGSEGV" for SIGSEGV; "SIG?" for what has no name. */
const char *cbench_proc_signame(int sig, char *buf, size_t len);

/* Writes all len bytes of buf to a child's pipe fd, through EINTR and short
 * writes.  Returns 0, or -EPIPE once the other end is gone. */
int cbench_proc_write_all(int fd, const void *buf, size_t len);

#endif /* _CBENCH_PROC_H */
