/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One measuring run per CPU at a time, machine-wide.  Two runs measuring on
 * the same CPU would each see the other as noise, and two SCHED_FIFO workers
 * at one priority on one CPU starve each other outright; so a run claims its
 * CPU with an flock(2) on a lock file, and a second run waits for it.
 */
#ifndef _CBENCH_CPULOCK_H
#define _CBENCH_CPULOCK_H

#include <stdio.h>
#include <sys/types.h>

/* Where lock files live, first usable wins; CBENCH_LOCK_DIR overrides. */
#define CBENCH_LOCK_DIRS "/run/lock", "/tmp"

/*
 * Claims `cpu` without waiting.  Returns a file descriptor to keep open
 * for as long as the CPU is ours (children inherit the claim), -EBUSY with
 * *holder set to the holder's pid (0 if unknown) when another run has it,
 * or another -errno.
 */
int cbench_cpulock_try(int cpu, pid_t *holder);

/*
 * Claims `cpu`, waiting for it if another run has it; says so on `msg`
 * (once) while waiting.  Returns the descriptor or -errno.
 */
int cbench_cpulock_wait(int cpu, FILE *msg);

#endif /* _CBENCH_CPULOCK_H */
