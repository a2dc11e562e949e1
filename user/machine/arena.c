// SPDX-License-Identifier: GPL-2.0
/* Guarded arenas; see arena.h. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cbench.h>

#include "machine/arena.h"

/* The size of a transparent huge page, from the kernel; 2 MiB if unsaid. */
static size_t huge_page_bytes(void)
{
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size", "r");
	unsigned long v = 0;

	if (f) {
		if (fscanf(f, "%lu", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v ? (size_t)v : 2u << 20;
}

enum cbench_arena_pages cbench_arena_pages_of(uint32_t desc_flags)
{
	return desc_flags & CBENCH_F_ARENA_HUGE ? CBENCH_ARENA_PAGES_HUGE :
	       desc_flags & CBENCH_F_ARENA_BASE ? CBENCH_ARENA_PAGES_BASE : CBENCH_ARENA_PAGES_ANY;
}

int cbench_arena_map(struct cbench_arena *a, size_t bytes, enum cbench_arena_pages pages)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), usable, align = page, lead;
	int flags = MAP_PRIVATE | MAP_ANONYMOUS;
	char *map;

	memset(a, 0, sizeof(*a));
	if (!bytes)
		return 0;
	/* Huge pages need the arena aligned to their size: we map that much
	 * more and start the arena at the first aligned address past a
	 * guard page. */
	if (pages == CBENCH_ARENA_PAGES_HUGE)
		align = huge_page_bytes();
	if (bytes > SIZE_MAX / 2 - 3 * align)
		return -ENOMEM;
	usable = (bytes + page - 1) / page * page;
	/* Where we advise before the first touch, the pages fault in after
	 * madvise: MAP_POPULATE would fault them in first. */
	if (pages == CBENCH_ARENA_PAGES_ANY)
		flags |= MAP_POPULATE;
	map = mmap(NULL, usable + 2 * page + align, PROT_READ | PROT_WRITE, flags, -1, 0);
	if (map == MAP_FAILED)
		return -errno;
	lead = ((uintptr_t)map + page + align - 1) / align * align - (uintptr_t)map;
	a->map = map;
	a->map_bytes = usable + 2 * page + align;
	a->base = map + lead;
	a->bytes = bytes;
	if (mprotect((char *)a->base - page, page, PROT_NONE) ||
	    mprotect((char *)a->base + usable, page, PROT_NONE)) {
		int ret = -errno;

		cbench_arena_unmap(a);
		return ret;
	}
	/* Refused advice (THP off, an old kernel) leaves base pages, which the
	 * report then states. */
	if (pages != CBENCH_ARENA_PAGES_ANY)
		(void)madvise(a->base, usable, pages == CBENCH_ARENA_PAGES_HUGE ? MADV_HUGEPAGE :
								       MADV_NOHUGEPAGE);
	/* The zeroing write faults every page in now. */
	memset(a->base, 0, bytes);
	return 0;
}

size_t cbench_arena_huge_bytes(const struct cbench_arena *a)
{
	uintptr_t lo = (uintptr_t)a->map, hi = lo + a->map_bytes;
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[256];
	size_t huge = 0;
	bool inside = false;

	if (!f || !a->map) {
		if (f)
			fclose(f);
		return 0;
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned long start, end, kb;

		if (sscanf(line, "%lx-%lx ", &start, &end) == 2)
			inside = start < hi && end > lo;
		else if (inside && sscanf(line, "AnonHugePages: %lu kB", &kb) == 1)
			huge += (size_t)kb * 1024;
	}
	fclose(f);
	return huge;
}

/* ---- placements ---------------------------------------------------------- */

/* A pool of chunks of one kind: base pages (0) or huge pages (1). */
struct cbench_arena_pool {
	size_t unit;			/* a page, or a huge page */
	bool huge;
	size_t sum_units, max_units;	/* of the arenas planned */
	size_t narenas;
	size_t chunk_bytes;		/* set when the pool is mapped */
	char *map, *base;		/* base: chunk 0, aligned to unit */
	size_t map_bytes, nchunks;
	uint32_t *free;			/* the chunks in the pool, not lent */
	size_t nfree;
	unsigned int refs;		/* the placement and each arena holding chunks */
};

static void pool_put(struct cbench_arena_pool *p)
{
	if (!p || --p->refs)
		return;
	if (p->map)
		munmap(p->map, p->map_bytes);
	free(p->free);
	free(p);
}

void cbench_arena_unmap(struct cbench_arena *a)
{
	struct cbench_arena_pool *p = a->pool;

	/* A chunk that will not go back stays out of the pool's list, so
	 * nothing draws its hole; the region's unmapping takes it. */
	for (size_t i = 0; p && i < a->nlent; i++) {
		void *home = p->base + (size_t)a->lent[i] * p->chunk_bytes;

		if (mremap(a->chunks + i * p->chunk_bytes, p->chunk_bytes, p->chunk_bytes,
			   MREMAP_MAYMOVE | MREMAP_FIXED, home) == home)
			p->free[p->nfree++] = a->lent[i];
	}
	if (a->map)
		munmap(a->map, a->map_bytes);
	free(a->lent);
	pool_put(p);
	memset(a, 0, sizeof(*a));
}

/* Whether the kernel gives every anonymous mapping huge pages it can. */
static bool thp_always(void)
{
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
	char line[128] = "";

	if (f) {
		if (!fgets(line, sizeof(line), f))
			line[0] = '\0';
		fclose(f);
	}
	return strstr(line, "[always]") != NULL;
}

/* The pool an arena of pages draws from: huge pages where it would get
 * them from a plain mapping too. */
static int pool_kind(enum cbench_arena_pages pages)
{
	return pages == CBENCH_ARENA_PAGES_HUGE || (pages == CBENCH_ARENA_PAGES_ANY && thp_always());
}

/* splitmix64 (Steele, Lea and Flood): any state will do, 0 included. */
uint64_t cbench_placement_draw(struct cbench_placement *pl, uint64_t n)
{
	uint64_t z = (pl->state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return n ? z % n : 0;
}

uint64_t cbench_placement_seed(uint64_t seed, uint64_t k)
{
	struct cbench_placement pl = { .state = seed ^ (k * 0xd1b54a32d192ed03ULL) };

	return k ? cbench_placement_draw(&pl, 0) ^ cbench_placement_draw(&pl, UINT64_MAX) : seed;
}

void cbench_placement_init(struct cbench_placement *pl, uint64_t seed)
{
	memset(pl, 0, sizeof(*pl));
	/* Apart from the order's generator, which starts from the seed. */
	pl->state = seed ^ 0x5851f42d4c957f2dULL;
}

/* Units of the pool an arena of bytes may span, at its largest offset. */
static size_t units_of(const struct cbench_arena_pool *p, size_t bytes)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	return (bytes + page - CBENCH_ARENA_ALIGN + p->unit - 1) / p->unit;
}

int cbench_placement_plan(struct cbench_placement *pl, size_t bytes, enum cbench_arena_pages pages)
{
	int kind = pool_kind(pages);
	struct cbench_arena_pool *p = pl->pool[kind];
	size_t units;

	if (!bytes)
		return 0;
	if (!p) {
		p = calloc(1, sizeof(*p));
		if (!p)
			return -ENOMEM;
		p->huge = kind;
		p->unit = kind ? huge_page_bytes() : (size_t)sysconf(_SC_PAGESIZE);
		p->refs = 1;
		pl->pool[kind] = p;
	}
	if (bytes > SIZE_MAX / 4)
		return -ENOMEM;
	units = units_of(p, bytes);
	p->sum_units += units;
	p->narenas++;
	p->max_units = units > p->max_units ? units : p->max_units;
	return 0;
}

/*
 * Maps p at its first use: chunks of a size that makes the largest arena
 * at most CBENCH_PLACE_CHUNKS_MAX of them, enough for every planned arena
 * at once and a new one beside the largest, and spares to draw from.
 */
static int pool_map(struct cbench_arena_pool *p)
{
	size_t chunk_units = (p->max_units + CBENCH_PLACE_CHUNKS_MAX - 1) / CBENCH_PLACE_CHUNKS_MAX;
	size_t most = (p->max_units + chunk_units - 1) / chunk_units;
	/* An arena spans at most its units' chunks, rounded up. */
	size_t all = (p->sum_units + chunk_units - 1) / chunk_units + p->narenas;
	size_t need = all + most, want = CBENCH_PLACE_POOL_SPARE * all, bytes;

	p->chunk_bytes = chunk_units * p->unit;
	if (want * p->chunk_bytes > CBENCH_PLACE_POOL_MAX_BYTES)
		want = CBENCH_PLACE_POOL_MAX_BYTES / p->chunk_bytes;
	p->nchunks = want > need ? want : need;
	if (p->nchunks > UINT32_MAX || p->nchunks > (SIZE_MAX - p->unit) / p->chunk_bytes)
		return -ENOMEM;
	bytes = p->nchunks * p->chunk_bytes;
	p->free = malloc(p->nchunks * sizeof(*p->free));
	if (!p->free)
		return -ENOMEM;
	p->map = mmap(NULL, bytes + p->unit, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		      -1, 0);
	if (p->map == MAP_FAILED) {
		p->map = NULL;
		return -errno;
	}
	p->map_bytes = bytes + p->unit;
	p->base = p->map + ((uintptr_t)p->map + p->unit - 1) / p->unit * p->unit - (uintptr_t)p->map;
	(void)madvise(p->base, bytes, p->huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
	/* Every page faulted in now and kept (best effort, as arenas are). */
	memset(p->base, 0, bytes);
	(void)mlock(p->base, bytes);
	for (size_t i = 0; i < p->nchunks; i++)
		p->free[i] = (uint32_t)i;
	p->nfree = p->nchunks;
	return 0;
}

/*
 * Lends a's chunks one by one, each drawn from those still in the pool.
 * Where a chunk leaves, an inaccessible mapping keeps its place, so that
 * nothing else is mapped there before it comes back (mremap() onto a
 * mapping replaces it).
 */
static int lend(struct cbench_arena *a, struct cbench_placement *pl, struct cbench_arena_pool *p)
{
	for (size_t i = 0; i < a->nlent; i++) {
		size_t k = (size_t)cbench_placement_draw(pl, p->nfree);
		uint32_t c = p->free[k];
		char *home = p->base + (size_t)c * p->chunk_bytes, *to = a->chunks + i * p->chunk_bytes;

		if (mremap(home, p->chunk_bytes, p->chunk_bytes, MREMAP_MAYMOVE | MREMAP_FIXED, to) != to) {
			a->nlent = i;
			return -errno;
		}
		p->free[k] = p->free[--p->nfree];
		a->lent[i] = c;
		if (mmap(home, p->chunk_bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED |
			 MAP_NORESERVE, -1, 0) != home) {
			a->nlent = i + 1;
			return -errno;
		}
	}
	return 0;
}

int cbench_arena_place(struct cbench_arena *a, struct cbench_placement *pl, size_t bytes,
		       enum cbench_arena_pages pages)
{
	struct cbench_arena_pool *p = pl->pool[pool_kind(pages)];
	size_t page = (size_t)sysconf(_SC_PAGESIZE), offset, region;
	char *map;
	int ret;

	memset(a, 0, sizeof(*a));
	if (!bytes)
		return 0;
	if (!p || units_of(p, bytes) > p->max_units)
		return -EINVAL;
	if (!p->map) {
		ret = pool_map(p);
		if (ret)
			return ret;
	}
	offset = (size_t)cbench_placement_draw(pl, page / CBENCH_ARENA_ALIGN) * CBENCH_ARENA_ALIGN;
	a->nlent = (offset + bytes + p->chunk_bytes - 1) / p->chunk_bytes;
	if (a->nlent > p->nfree)
		return -ENOMEM;
	/* Address space only: a guard unit, the shift, the chunks, a guard
	 * unit, and a unit to align them to. */
	region = (CBENCH_PLACE_SHIFT_UNITS + 3) * p->unit + a->nlent * p->chunk_bytes;
	map = mmap(NULL, region, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	a->lent = malloc(a->nlent * sizeof(*a->lent));
	if (map == MAP_FAILED || !a->lent) {
		ret = map == MAP_FAILED ? -errno : -ENOMEM;
		if (map != MAP_FAILED)
			munmap(map, region);
		free(a->lent);
		memset(a, 0, sizeof(*a));
		return ret;
	}
	a->map = map;
	a->map_bytes = region;
	a->chunks = map + ((uintptr_t)map + p->unit - 1) / p->unit * p->unit - (uintptr_t)map +
		    (1 + cbench_placement_draw(pl, CBENCH_PLACE_SHIFT_UNITS)) * p->unit;
	a->pool = p;
	p->refs++;
	ret = lend(a, pl, p);
	if (ret) {
		cbench_arena_unmap(a);
		return ret;
	}
	a->base = a->chunks + offset;
	a->bytes = bytes;
	memset(a->base, 0, bytes);
	return 0;
}

void cbench_placement_free(struct cbench_placement *pl)
{
	for (int i = 0; i < 2; i++)
		pool_put(pl->pool[i]);
	memset(pl, 0, sizeof(*pl));
}
