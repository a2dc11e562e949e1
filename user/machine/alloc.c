// SPDX-License-Identifier: GPL-2.0
/*
 * The allocation interposers; see alloc.h.  glibc lets a program replace
 * malloc and its family as long as it replaces malloc, free, calloc and
 * realloc together; the aligned ones we replace too, to count them.  All of
 * them hand over to glibc's allocator, so there is one heap, whoever frees.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#include "machine/alloc.h"

void *__libc_malloc(size_t bytes);
void *__libc_calloc(size_t n, size_t bytes);
void *__libc_realloc(void *p, size_t bytes);
void *__libc_memalign(size_t align, size_t bytes);
void __libc_free(void *p);

/* The worker is one thread while it counts; no atomics needed. */
static bool counting;
static struct cbench_alloc_count counted;

static void count(size_t bytes)
{
	if (counting) {
		counted.allocs++;
		counted.bytes += bytes;
	}
}

void cbench_alloc_count_begin(void)
{
	counted = (struct cbench_alloc_count){ 0 };
	counting = true;
}

void cbench_alloc_count_end(struct cbench_alloc_count *c)
{
	counting = false;
	*c = counted;
}

bool cbench_alloc_pause(void)
{
	bool was = counting;

	counting = false;
	return was;
}

void cbench_alloc_resume(bool was)
{
	counting = was;
}

/* The replacements: the names are the C library's, so they need no
 * prototypes of ours (stdlib.h would declare them). */
void *malloc(size_t bytes);
void *calloc(size_t n, size_t bytes);
void *realloc(void *p, size_t bytes);
void *aligned_alloc(size_t align, size_t bytes);
void *memalign(size_t align, size_t bytes);
int posix_memalign(void **out, size_t align, size_t bytes);
void free(void *p);

void *malloc(size_t bytes)
{
	count(bytes);
	return __libc_malloc(bytes);
}

void *calloc(size_t n, size_t bytes)
{
	count(n && bytes <= SIZE_MAX / n ? n * bytes : SIZE_MAX);
	return __libc_calloc(n, bytes);
}

void *realloc(void *p, size_t bytes)
{
	count(bytes);
	return __libc_realloc(p, bytes);
}

void *aligned_alloc(size_t align, size_t bytes)
{
	count(bytes);
	return __libc_memalign(align, bytes);
}

void *memalign(size_t align, size_t bytes)
{
	count(bytes);
	return __libc_memalign(align, bytes);
}

int posix_memalign(void **out, size_t align, size_t bytes)
{
	void *p;

	/* A power of two and a multiple of sizeof(void *), as POSIX says. */
	if (!align || (align & (align - 1)) || align % sizeof(void *))
		return EINVAL;
	count(bytes);
	p = __libc_memalign(align, bytes);
	if (!p)
		return ENOMEM;
	*out = p;
	return 0;
}

void free(void *p)
{
	__libc_free(p);
}
