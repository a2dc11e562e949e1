/* SPDX-License-Identifier: GPL-2.0 */
/* The kmod backend (backend_kmod.c): measurements taken by cbench.ko. */
#ifndef _CBENCH_BACKEND_KMOD_H
#define _CBENCH_BACKEND_KMOD_H

#include <stdbool.h>
#include <stddef.h>

#include "backend/types.h"

extern const struct cbench_backend_ops cbench_backend_kmod;

/*
 * How cbench.ko keeps its samples quiet (enum cbench_quiet), for every run
 * this process and the workers it forks ask for; -1 (the default) leaves it
 * to the module's quiet_mode parameter.  Set before the first worker.
 */
void cbench_backend_kmod_set_quiet(int quiet);

/*
 * The CPU whose timer watches the calls of every run this process asks
 * cbench.ko for, where several CPUs measure at once (each run has a CPU of
 * its own to watch it); -1 (the default) leaves the choice to the module.
 * A worker sets it for its lane before it opens the backend.
 */
void cbench_backend_kmod_set_watcher(int cpu);

/*
 * How many runs cbench.ko takes at once (its runs_max), into *runs; 0, or
 * -errno where it cannot be asked.
 */
int cbench_backend_kmod_runs_max(unsigned int *runs);

/* "cli" or "lvt"; NULL for anything else. */
const char *cbench_quiet_name(int quiet);

/* cbench.ko is loaded and we may use it. */
bool cbench_backend_kmod_available(void);

/*
 * Whether the object at path can run in ring 0 (kimage's checks); 0 or
 * -errno with the reason and the fix in why.
 */
int cbench_backend_kmod_check(const char *path, char *why, size_t why_bytes);

#endif /* _CBENCH_BACKEND_KMOD_H */
