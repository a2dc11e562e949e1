/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A stack of a given size for calls of benchmark code, with a wide
 * unmapped gap below it (callstack.c): cbench.ko calls benchmark code on a
 * stack of its own, far smaller than a user thread's 8 MiB, and the
 * user-mode rehearsal makes every call on one no larger, so code that needs
 * more fails there, in a child, and never in ring 0.
 */
#ifndef _CBENCH_CALLSTACK_H
#define _CBENCH_CALLSTACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * PROT_NONE bytes below a call stack: a frame that steps past the stack's
 * end by less than this faults in the gap rather than writing over
 * whatever else is mapped below.  Address space only, never memory.
 */
#define CBENCH_CALLSTACK_GAP_BYTES (256UL << 20)

struct cbench_callstack {
	void *map;			/* the gap, then the stack */
	size_t map_bytes;
	uintptr_t lo, top;		/* the stack's bytes: [lo, top), top 16-byte aligned */
};

/*
 * Maps a stack of bytes (rounded up to pages) above its gap; 0 or -errno.
 * With align (a power of two, at least bytes), its top is aligned to it,
 * so that %rsp's bits below align say what is left of a stack of align
 * bytes, as on cbench.ko's stack, whose top bytes this one is.  It lasts
 * as long as the process: the rehearsal's child maps one and exits.
 */
int cbench_callstack_map(struct cbench_callstack *cs, size_t bytes, size_t align);

/* Whether a fault at addr is one of a call that overflowed cs. */
bool cbench_callstack_overflow(const struct cbench_callstack *cs, uintptr_t addr);

/*
 * Calls fn(a, b) with its stack pointer at cs's top and returns what it
 * left in %rax: a benchmark's run(ctx, reps), or setup(ctx) and the per-rep
 * hooks (their int in the low 32 bits).
 */
long cbench_callstack_call(const struct cbench_callstack *cs, const void *fn, void *a, uint64_t b);

#endif /* _CBENCH_CALLSTACK_H */
