/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _CBENCH_IMAGE_H
#define _CBENCH_IMAGE_H

#include <linux/netlink.h>
#include <linux/refcount.h>
#include <linux/types.h>
#include <asm/pgtable_types.h>

#include <uapi/linux/cbench.h>

#include "object.h"

/*
 * A benchmark image: uploaded in chunks while writable, then relocated and
 * mapped, after which it never changes.  Owned by one client (client.c),
 * held by the registry while listed and by each of its runs.
 */
struct cbench_image {
	struct cbench_object obj;
	refcount_t refs;

	u8 *bytes;			/* vzalloc'd, image_bytes long */
	u64 image_bytes;
	u64 received;			/* bytes uploaded so far, in order */
	bool mapped;
	bool stuck;			/* a call did not return: no more runs */
	bool trapped;			/* a call raised an exception: no more runs */
	bool corrupt;			/* its bytes failed their CRC-32: never maps */
	struct cbench_range text[CBENCH_TEXT_MAX];
	u32 ntext;
	pte_t *saved;			/* each text page's PTE before we flipped it */
	unsigned long nsaved;
};

/* A new image, with one reference (the caller's); counted in INFO's live images. */
struct cbench_image *cbench_image_new(u64 image_bytes);
int cbench_image_chunk(struct cbench_image *image, u64 offset, const void *data, u32 bytes,
		       struct netlink_ext_ack *extack);
/* Checks a fully uploaded image's bytes against the CRC-32 its client sent. */
int cbench_image_verify(struct cbench_image *image, u32 crc, struct netlink_ext_ack *extack);
int cbench_image_map(struct cbench_image *image, const struct cbench_range *text, u32 ntext,
		     const u64 *relocs, u32 nrelocs, struct netlink_ext_ack *extack);
/* Checks an entry point of a mapped image; returns its address or NULL. */
void *cbench_image_entry(const struct cbench_image *image, u64 offset,
			 struct netlink_ext_ack *extack);
void cbench_image_get(struct cbench_image *image);
/* Flushes every CPU's TLB after PTEs of ours changed (here and stack.c). */
void cbench_flush_tlb_everywhere(void);
/* Drops a reference; the last one unmaps and frees the image. */
void cbench_image_put(struct cbench_image *image);

#endif /* _CBENCH_IMAGE_H */
