/* SPDX-License-Identifier: GPL-2.0 */
/* The kmod backend (backend_kmod.c): measurements taken by cbench.ko. */
#ifndef _CBENCH_BACKEND_KMOD_H
#define _CBENCH_BACKEND_KMOD_H

#include <stdbool.h>
#include <stddef.h>

#include "backend/types.h"

extern const struct cbench_backend_ops cbench_backend_kmod;

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
