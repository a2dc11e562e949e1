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
