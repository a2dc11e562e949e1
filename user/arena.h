/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A benchmark's scratch arena in user mode: zeroed, prefaulted, between two
 * PROT_NONE guard pages, so a benchmark that writes past either end faults
 * at once, in user mode, where it costs a worker and not a kernel.  (In
 * ring 0, vmalloc leaves a guard page after the area only.)
 */
#ifndef _CBENCH_ARENA_H
#define _CBENCH_ARENA_H

#include <stddef.h>

enum cbench_arena_pages {
	CBENCH_ARENA_PAGES_ANY,		/* what the kernel's THP setting gives */
	CBENCH_ARENA_PAGES_HUGE,	/* transparent huge pages asked for */
	CBENCH_ARENA_PAGES_BASE,	/* huge pages refused */
};

struct cbench_arena {
	void *base;		/* bytes of usable memory; NULL for none */
	size_t bytes;
	void *map;		/* the mapping, guards included */
	size_t map_bytes;
};

/*
 * Maps an arena of bytes (0: none), asking for pages of the kind given
 * (madvise before the first touch, huge ones aligned to their size).
 * Returns 0 or -errno.
 */
int cbench_arena_map(struct cbench_arena *a, size_t bytes, enum cbench_arena_pages pages);

/* How many of the arena's bytes huge pages back (/proc/self/smaps). */
size_t cbench_arena_huge_bytes(const struct cbench_arena *a);

/* Unmaps it; a zeroed or unmapped arena is fine. */
void cbench_arena_unmap(struct cbench_arena *a);

#endif /* _CBENCH_ARENA_H */
