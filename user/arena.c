// SPDX-License-Identifier: GPL-2.0
/* Guarded arenas; see arena.h. */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "arena.h"

int cbench_arena_map(struct cbench_arena *a, size_t bytes)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), usable;
	char *map;

	memset(a, 0, sizeof(*a));
	if (!bytes)
		return 0;
	if (bytes > SIZE_MAX - 3 * page)
		return -ENOMEM;
	usable = (bytes + page - 1) / page * page;
	/* MAP_POPULATE plus the zeroing write fault every page in now. */
	map = mmap(NULL, usable + 2 * page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (map == MAP_FAILED)
		return -errno;
	if (mprotect(map, page, PROT_NONE) || mprotect(map + page + usable, page, PROT_NONE)) {
		int ret = -errno;

		munmap(map, usable + 2 * page);
		return ret;
	}
	memset(map + page, 0, bytes);
	a->map = map;
	a->map_bytes = usable + 2 * page;
	a->base = map + page;
	a->bytes = bytes;
	return 0;
}

void cbench_arena_unmap(struct cbench_arena *a)
{
	if (a->map)
		munmap(a->map, a->map_bytes);
	memset(a, 0, sizeof(*a));
}
