// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmark images in executable memory, from exported symbols only.
 *
 * vmap forces NX, and set_memory_x(), module_alloc() and execmem_alloc()
 * are not exported, so we make a vzalloc'd area executable ourselves: for
 * each 4 KiB text page we look up its PTE, save it, and replace it with the
 * same entry read-only and executable -- never writable and executable at
 * once -- then flush every CPU's TLB.  Before vfree() we put the saved
 * entries back verbatim (6.12 moves Dirty into SavedDirty when it
 * write-protects, so rebuilding an entry by hand would be wrong) and flush
 * again.
 */
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include <net/netlink.h>
#include <asm/pgtable.h>
#include <asm/tlbflush.h>

#include "image.h"
#include "lib/crc32.h"
#include "lib/reloc.h"
#include "limits.h"

struct cbench_image *cbench_image_new(u64 image_bytes)
{
	struct cbench_image *image;

	image = kzalloc(sizeof(*image), GFP_KERNEL);
	if (!image)
		return NULL;
	image->bytes = vzalloc(image_bytes);
	if (!image->bytes) {
		kfree(image);
		return NULL;
	}
	image->image_bytes = image_bytes;
	refcount_set(&image->refs, 1);
	atomic_inc(&cbench_live.images);
	return image;
}

int cbench_image_chunk(struct cbench_image *image, u64 offset, const void *data, u32 bytes,
		       struct netlink_ext_ack *extack)
{
	if (image->mapped) {
		NL_SET_ERR_MSG(extack, "image is already mapped");
		return -EINVAL;
	}
	if (offset != image->received) {
		NL_SET_ERR_MSG(extack, "chunk out of order: offset is not the bytes sent so far");
		return -EINVAL;
	}
	if (bytes > image->image_bytes - image->received) {
		NL_SET_ERR_MSG(extack, "chunk ends past the image");
		return -EINVAL;
	}
	memcpy(image->bytes + offset, data, bytes);
	image->received += bytes;
	return 0;
}

static void flush_one(void *unused)
{
	__flush_tlb_all();
}

void cbench_flush_tlb_everywhere(void)
{
	on_each_cpu(flush_one, NULL, 1);
}

/* Puts back the first n saved PTEs, in text-page order. */
static void restore(struct cbench_image *image, unsigned long n)
{
	unsigned long i = 0;
	u32 r;

	for (r = 0; r < image->ntext && i < n; r++) {
		u64 off;

		for (off = 0; off < image->text[r].bytes && i < n; off += PAGE_SIZE, i++) {
			unsigned int level;
			pte_t *pte = lookup_address((unsigned long)image->bytes +
						    image->text[r].start + off, &level);

			set_pte(pte, image->saved[i]);
		}
	}
	cbench_flush_tlb_everywhere();
}

static int protect(struct cbench_image *image, struct netlink_ext_ack *extack)
{
	unsigned long i = 0, pages = 0;
	u32 r;

	for (r = 0; r < image->ntext; r++)
		pages += image->text[r].bytes / PAGE_SIZE;
	image->saved = kvcalloc(pages, sizeof(*image->saved), GFP_KERNEL);
	if (!image->saved)
		return -ENOMEM;

	for (r = 0; r < image->ntext; r++) {
		u64 off;

		for (off = 0; off < image->text[r].bytes; off += PAGE_SIZE, i++) {
			unsigned int level;
			pte_t *pte = lookup_address((unsigned long)image->bytes +
						    image->text[r].start + off, &level);
			pte_t old;

			if (!pte || level != PG_LEVEL_4K) {
				/* vzalloc maps 4 KiB pages; anything else we do not touch. */
				restore(image, i);
				kvfree(image->saved);
				image->saved = NULL;
				NL_SET_ERR_MSG(extack, "image memory is not mapped in 4 KiB pages");
				return -EFAULT;
			}
			old = *pte;
			image->saved[i] = old;
			set_pte(pte, pte_mkexec(pte_wrprotect(old)));
		}
	}
	image->nsaved = pages;
	cbench_flush_tlb_everywhere();
	return 0;
}

/* An image that may map now: all of it received, not mapped, not corrupt. */
static int mappable(const struct cbench_image *image, struct netlink_ext_ack *extack)
{
	if (image->mapped) {
		NL_SET_ERR_MSG(extack, "image is already mapped");
		return -EINVAL;
	}
	if (image->received != image->image_bytes) {
		NL_SET_ERR_MSG(extack, "image is not fully uploaded");
		return -EINVAL;
	}
	if (image->corrupt) {
		NL_SET_ERR_MSG(extack, "image's bytes did not match their CRC-32; delete it and "
			       "upload it again");
		return -EBADMSG;
	}
	return 0;
}

/*
 * The bytes as uploaded (relocations are applied only when mapping) must
 * give the client's CRC-32; if not, the image never maps.  A megabyte at a
 * time, yielding between, for the largest images.
 */
int cbench_image_verify(struct cbench_image *image, u32 crc, struct netlink_ext_ack *extack)
{
	u32 got = 0;
	u64 off;
	int ret = mappable(image, extack);

	if (ret)
		return ret;
	for (off = 0; off < image->image_bytes; off += SZ_1M) {
		got = cbench_crc32(got, image->bytes + off, min_t(u64, SZ_1M, image->image_bytes - off));
		cond_resched();
	}
	if (got == crc)
		return 0;
	image->corrupt = true;
	/* A formatted message holds 80 bytes (6.2+); the plain one says more. */
	CBENCH_SET_ERR_MSG_FMT(extack, "image CRC-32 mismatch: the bytes received are not those "
			       "the client built; delete the image and upload it again",
			       "image CRC-32 mismatch (got %08x, sent %08x): delete it, upload again",
			       got, crc);
	return -EBADMSG;
}

int cbench_image_map(struct cbench_image *image, const struct cbench_range *text, u32 ntext,
		     const u64 *relocs, u32 nrelocs, struct netlink_ext_ack *extack)
{
	enum cbench_check check;
	u32 bad = 0;
	int ret;

	BUILD_BUG_ON(CBENCH_IMAGE_PAGE_BYTES != PAGE_SIZE);
	ret = mappable(image, extack);
	if (ret)
		return ret;
	check = cbench_text_check(image->image_bytes, text, ntext, &bad);
	if (check != CBENCH_CHECK_OK) {
		CBENCH_SET_ERR_MSG_FMT(extack, "bad text range", "text range %u: %s", bad,
				       cbench_check_str(check));
		return -EINVAL;
	}
	check = cbench_reloc_check(image->bytes, image->image_bytes, text, ntext, relocs, nrelocs,
				   &bad);
	if (check != CBENCH_CHECK_OK) {
		CBENCH_SET_ERR_MSG_FMT(extack, "bad relocation", "relocation %u: %s", bad,
				       cbench_check_str(check));
		return -EINVAL;
	}
	memcpy(image->text, text, ntext * sizeof(*text));
	image->ntext = ntext;
	cbench_reloc_apply(image->bytes, (u64)(unsigned long)image->bytes, relocs, nrelocs);
	ret = protect(image, extack);
	if (ret) {
		image->ntext = 0;
		/* The relocations stay applied; the image can only be deleted now. */
		image->received = 0;
		return ret;
	}
	image->mapped = true;
	return 0;
}

void *cbench_image_entry(const struct cbench_image *image, u64 offset,
			 struct netlink_ext_ack *extack)
{
	enum cbench_check check;

	if (!image->mapped) {
		NL_SET_ERR_MSG(extack, "image is not mapped");
		return NULL;
	}
	if (READ_ONCE(image->stuck)) {
		NL_SET_ERR_MSG(extack, "a call of this image's code did not return in an earlier run "
			       "and was ended by the watchdog; the image takes no more runs");
		return NULL;
	}
	if (READ_ONCE(image->trapped)) {
		NL_SET_ERR_MSG(extack, "a call of this image's code raised an exception in ring 0 in "
			       "an earlier run and was ended; the image takes no more runs");
		return NULL;
	}
	check = cbench_entry_check(image->bytes, image->image_bytes, image->text, image->ntext,
				   offset);
	if (check != CBENCH_CHECK_OK) {
		NL_SET_ERR_MSG(extack, "entry point is not an endbr64 inside text");
		return NULL;
	}
	return image->bytes + offset;
}

void cbench_image_get(struct cbench_image *image)
{
	refcount_inc(&image->refs);
}

void cbench_image_put(struct cbench_image *image)
{
	if (!refcount_dec_and_test(&image->refs))
		return;
	/* No run calls into it any more: each held a reference until it stopped. */
	if (image->saved) {
		restore(image, image->nsaved);
		kvfree(image->saved);
	}
	vfree(image->bytes);
	kfree(image);
	atomic_dec(&cbench_live.images);
}
