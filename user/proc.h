/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Child processes that run benchmark code: loading workers (loader.c) and
 * measuring workers (phase.c).  Each leads a process group of its own,
 * keeps only stdio and one pipe, and dies with cbenchctl; the parent kills
 * the whole group when it is done with it.
 */
#ifndef _CBENCH_PROC_H
#define _CBENCH_PROC_H

#include <sys/types.h>

/* The child's message pipe, once it has closed everything else. */
#define CBENCH_PROC_PIPE_FD 3

/*
 * In a child just forked by `parent`: dies with the parent, leads its own
 * process group, moves pipe_fd to CBENCH_PROC_PIPE_FD, stdin from /dev/null,
 * stdout to stderr (line-buffered), default signal actions, and closes every
 * other fd.  Returns CBENCH_PROC_PIPE_FD; _exit()s if that cannot be done.
 */
int cbench_proc_child_init(int pipe_fd, pid_t parent);

/*
 * Starts a child that talks to us over a pipe: makes us a child subreaper
 * (the child's orphans become ours, so we can tell whether any were left),
 * flushes stdio (so the child cannot write our buffered output again),
 * forks, and in the child calls body(arg, fd) once cbench_proc_child_init()
 * is done, fd being its end of the pipe; body must not return.  Here the
 * child leads a process group of its own.  Returns its pid, with the pipe's
 * read end in *fd, or -errno if no child could start.
 */
pid_t cbench_proc_start(void (*body)(void *arg, int fd), void *arg, int *fd);

/* Kills pid and its process group.  Async-signal-safe. */
void cbench_proc_kill_group(pid_t pid);

/*
 * Ends the child's process group: waits for the child to exit (*status),
 * kills whatever else is left in its group and reaps it.  Returns how many
 * processes were still running.  The caller is a child subreaper
 * (PR_SET_CHILD_SUBREAPER), so orphans of the group are its to reap.
 */
int cbench_proc_end_group(pid_t pid, int *status);

/* "SIGSEGV" for SIGSEGV; "SIG?" for what has no name. */
const char *cbench_proc_signame(int sig, char *buf, size_t len);

/* Writes all len bytes of buf to a child's pipe fd, through EINTR and short
 * writes.  Returns 0, or -EPIPE once the other end is gone. */
int cbench_proc_write_all(int fd, const void *buf, size_t len);

#endif /* _CBENCH_PROC_H */
