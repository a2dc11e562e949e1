/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What kimage's files share (kimage.h is what the rest of cbenchctl sees):
 * an object being made into an image (kimage_load.c), whose descriptors
 * kimage_descs.c reads from the relocated image.
 */
#ifndef _CBENCH_OBJECT_KIMAGE_PARTS_H
#define _CBENCH_OBJECT_KIMAGE_PARTS_H

#include <errno.h>
#include <gelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "object/kimage.h"

/* Most PT_LOAD segments we accept; ld makes four. */
#define SEGMENTS_MAX 16

struct cbench_kimage_segment {
	uint64_t start;		/* image offset */
	uint64_t file_bytes;
	uint64_t mem_bytes;
	uint32_t flags;		/* PF_* */
};

struct cbench_kimage_loader {
	const char *path;
	Elf *elf;
	const uint8_t *file;
	size_t file_bytes;
	uint64_t base;		/* vaddr of image offset 0 */
	struct cbench_kimage_segment seg[SEGMENTS_MAX];
	unsigned int nseg;
	uint64_t descs_vaddr;	/* the cbench_descs section */
	uint64_t descs_bytes;
	bool have_descs;
	char *why;
	size_t why_bytes;
	struct cbench_kimage *image;
};

/* Refuses the object: "<path>: " and the sentence into ld->why; -EINVAL. */
__attribute__((format(printf, 2, 3)))
static inline int cbench_kimage_refuse(struct cbench_kimage_loader *ld, const char *fmt, ...)
{
	int n = snprintf(ld->why, ld->why_bytes, "%s: ", ld->path);
	va_list ap;

	if (n < 0 || (size_t)n >= ld->why_bytes)
		return -EINVAL;
	va_start(ap, fmt);
	vsnprintf(ld->why + n, ld->why_bytes - n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* qsort() and bsearch() order of the image's relocation slots (uint64_t). */
static inline int cbench_kimage_compare_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Every descriptor of the object's cbench_descs section, read from the
 * relocated image into its entries and checked (kimage_descs.c). */
int cbench_kimage_read_descriptors(struct cbench_kimage_loader *ld);

#endif /* _CBENCH_OBJECT_KIMAGE_PARTS_H */
