/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A benchmark's scratch arena in user mode: zeroed, prefaulted, between two
 * PROT_NONE guard pages, so a benchmark that writes past either end faults
 * at once, in user mode, where it costs a worker and not a kernel.  (In
 * ring 0, vmalloc leaves a guard page after the area only.)
 *
 * An audit places its arenas anew round after round (docs/placement.md;
 * Curtsinger and Berger, STABILIZER), so that where they lie becomes
 * variance its test sees instead of a bias fixed per side.  A placement
 * draws, from a generator seeded with the audit's seed:
 *   - the pages: chunks taken at random from a pool both sides share, and
 *     moved (mremap) to the arena; the kernel's allocator alone would hand
 *     the same few pages back in turn (a fresh mapping made before the old
 *     one is unmapped gets the pages freed the round before);
 *   - the address: a shift of up to CBENCH_PLACE_SHIFT_UNITS pages (huge
 *     pages for a huge-page arena) past a guard;
 *   - the offset of the arena in its first page, in steps of
 *     CBENCH_ARENA_ALIGN bytes (include/cbench.h promises no more).
 */
#ifndef _CBENCH_ARENA_H
#define _CBENCH_ARENA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum cbench_arena_pages {
	CBENCH_ARENA_PAGES_ANY,		/* what the kernel's THP setting gives */
	CBENCH_ARENA_PAGES_HUGE,	/* transparent huge pages asked for */
	CBENCH_ARENA_PAGES_BASE,	/* huge pages refused */
};

struct cbench_arena_pool;

struct cbench_arena {
	void *base;		/* bytes of usable memory; NULL for none */
	size_t bytes;
	void *map;		/* the mapping, guards included */
	size_t map_bytes;
	/* A placed arena: the chunks it holds, lent by pool, from chunks on
	 * (chunk i of the arena is the pool's lent[i]); pool NULL otherwise. */
	struct cbench_arena_pool *pool;
	char *chunks;
	uint32_t *lent;
	size_t nlent;
};

/* The alignment of a placed arena's start (a cache line). */
#define CBENCH_ARENA_ALIGN 64
/* A placed arena starts up to this many pages (or huge pages) further. */
#define CBENCH_PLACE_SHIFT_UNITS 512
/* The most chunks one placed arena is made of: each is one mremap. */
#define CBENCH_PLACE_CHUNKS_MAX 32
/* A pool holds this many times the chunks its arenas need at once... */
#define CBENCH_PLACE_POOL_SPARE 4
/* ...but no more than this many bytes unless the arenas need more. */
#define CBENCH_PLACE_POOL_MAX_BYTES (256u << 20)

/*
 * What an audit's placements draw from: the generator and a pool per kind
 * of chunk (base and huge pages), mapped when first used.  The pools
 * outlive the placement where an arena still holds chunks of them.
 */
struct cbench_placement {
	uint64_t state;
	struct cbench_arena_pool *pool[2];
	/* Place the code anew too, where the object allows it
	 * (object/codeplace.h), drawing from state as the arenas do. */
	bool code;
	/* Place the code alone: the arena and the stack stay (cbenchctl
	 * layout measures what the code's layout alone does). */
	bool code_only;
};

/* What a descriptor's CBENCH_F_ARENA_* flags ask for. */
enum cbench_arena_pages cbench_arena_pages_of(uint32_t desc_flags);

/*
 * Maps an arena of bytes (0: none), asking for pages of the kind given
 * (madvise before the first touch, huge ones aligned to their size).
 * Returns 0 or -errno.
 */
int cbench_arena_map(struct cbench_arena *a, size_t bytes, enum cbench_arena_pages pages);

/* How many of the arena's bytes huge pages back (/proc/self/smaps). */
size_t cbench_arena_huge_bytes(const struct cbench_arena *a);

/* Unmaps it, a placed one's chunks back to their pool; a zeroed or
 * unmapped arena is fine. */
void cbench_arena_unmap(struct cbench_arena *a);

/* A placement drawing from seed (the same seed, the same draws). */
void cbench_placement_init(struct cbench_placement *pl, uint64_t seed);

/*
 * Tells pl of an arena of bytes and pages it will place, before the first
 * placement, so that the pool it shares with the others is sized for all
 * of them at once.  Returns 0 or -ENOMEM.
 */
int cbench_placement_plan(struct cbench_placement *pl, size_t bytes, enum cbench_arena_pages pages);

/* The seed of the k-th of a series of placements drawn from seed, so that
 * each can be replayed alone (cbenchctl layout's layouts). */
uint64_t cbench_placement_seed(uint64_t seed, uint64_t k);

/* A number drawn uniformly from 0 .. n - 1 (0 for n 0). */
uint64_t cbench_placement_draw(struct cbench_placement *pl, uint64_t n);

/*
 * Places a zeroed arena of bytes (planned before) in a: its chunks drawn
 * from the pool, none of them held by another arena (so never the pages
 * of the arena it replaces, while that is still mapped), at a drawn
 * address and offset.  Returns 0 or -errno (-EINVAL if not planned).
 */
int cbench_arena_place(struct cbench_arena *a, struct cbench_placement *pl, size_t bytes,
		       enum cbench_arena_pages pages);

/* Lets the pools go once no placed arena holds their chunks. */
void cbench_placement_free(struct cbench_placement *pl);

#endif /* _CBENCH_ARENA_H */
