/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Allocation counting (Caliper's allocation instrument): cbenchctl defines
 * malloc, calloc, realloc, aligned allocation and free itself, each handing
 * the call to glibc's own (__libc_malloc, ...), so a benchmark's calls
 * reach them through the dynamic linker.  They count only while counting
 * is on, which a worker turns on for separate, untimed measurements: the
 * timed ones pay one test of a flag per call.
 */
#ifndef _CBENCH_ALLOC_H
#define _CBENCH_ALLOC_H

#include <stdbool.h>
#include <stdint.h>

struct cbench_alloc_count {
	uint64_t allocs;	/* calls that allocated (realloc counts) */
	uint64_t bytes;		/* bytes asked for */
};

/* Starts counting from zero. */
void cbench_alloc_count_begin(void);
/* Stops counting; *c gets what was counted. */
void cbench_alloc_count_end(struct cbench_alloc_count *c);
/* Stops counting for a while (a per-rep hook's calls are not the
 * benchmark's); returns what to hand cbench_alloc_resume(). */
bool cbench_alloc_pause(void);
void cbench_alloc_resume(bool was);

#endif /* _CBENCH_ALLOC_H */
