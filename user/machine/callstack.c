// SPDX-License-Identifier: GPL-2.0
/* A stack of a given size for calls of benchmark code (callstack.h). */
#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

#include "machine/callstack.h"

/* callstack_call.S: fn(a, b) with the stack pointer at top. */
long cbench_callstack_call_on(uintptr_t top, const void *fn, void *a, uint64_t b);

int cbench_callstack_map(struct cbench_callstack *cs, size_t bytes, size_t align)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	uintptr_t top;
	char *map;

	bytes = (bytes + page - 1) / page * page;
	if (align && (align & (align - 1) || align < bytes))
		return -EINVAL;
	/* With align, room to slide the stack up to an aligned top. */
	cs->map_bytes = CBENCH_CALLSTACK_GAP_BYTES + bytes + align;
	/* The gap costs address space only: PROT_NONE, never committed. */
	map = mmap(NULL, cs->map_bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		   -1, 0);
	if (map == MAP_FAILED)
		return -errno;
	top = (uintptr_t)map + cs->map_bytes;
	top = align ? top & ~(uintptr_t)(align - 1) : top;
	if (mprotect((void *)(top - bytes), bytes, PROT_READ | PROT_WRITE)) {
		int ret = -errno;

		munmap(map, cs->map_bytes);
		return ret;
	}
	cs->map = map;
	cs->lo = top - bytes;
	cs->top = top & ~(uintptr_t)15;
	return 0;
}

bool cbench_callstack_overflow(const struct cbench_callstack *cs, uintptr_t addr)
{
	return cs->map && addr >= (uintptr_t)cs->map && addr < cs->lo;
}

long cbench_callstack_call(const struct cbench_callstack *cs, const void *fn, void *a, uint64_t b)
{
	return cbench_callstack_call_on(cs->top, fn, a, b);
}
