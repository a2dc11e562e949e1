// SPDX-License-Identifier: GPL-2.0
/* Measurements' memory that workers do not inherit; see bulk.h. */
#include <stdint.h>
#include <sys/mman.h>

#include "session/bulk.h"

/* A mapping's length, in the first bytes of it; the caller's memory after
 * it, aligned as malloc's. */
#define BULK_HEAD 64

static size_t round_pages(size_t bytes)
{
	const size_t page = 4096;

	return (bytes + BULK_HEAD + page - 1) / page * page;
}

void *cbench_bulk_grow(void *p, size_t bytes)
{
	size_t len = round_pages(bytes);
	uint8_t *base;

	if (len < bytes)
		return NULL;
	if (!p) {
		base = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	} else {
		uint8_t *old = (uint8_t *)p - BULK_HEAD;

		if (*(size_t *)old >= len)
			return p;
		base = mremap(old, *(size_t *)old, len, MREMAP_MAYMOVE);
	}
	if (base == MAP_FAILED)
		return NULL;
	/* Best effort: a kernel that refuses it only copies more on fork. */
	(void)madvise(base, len, MADV_DONTFORK);
	*(size_t *)base = len;
	return base + BULK_HEAD;
}

void cbench_bulk_free(void *p)
{
	uint8_t *base;

	if (!p)
		return;
	base = (uint8_t *)p - BULK_HEAD;
	munmap(base, *(size_t *)base);
}
