// SPDX-License-Identifier: GPL-2.0
/* Guarded arenas; see arena.h. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "arena.h"

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

void cbench_arena_unmap(struct cbench_arena *a)
{
	if (a->map)
		munmap(a->map, a->map_bytes);
	memset(a, 0, sizeof(*a));
}
