/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Checks on a relocated benchmark image, shared by cbench.ko (which trusts
 * nothing it is sent) and cbenchctl (which runs them before uploading, so a
 * bad image is refused with a message in userspace first).
 *
 * An image is the benchmark's PT_LOAD segments laid out from offset 0 as they
 * map.  Its only relocations are R_X86_64_RELATIVE, reduced to a sorted list
 * of offsets of 64-bit slots, each already holding its image-relative target;
 * relocating adds the image's load address to every slot.
 */
#ifndef _CBENCH_LIB_RELOC_H
#define _CBENCH_LIB_RELOC_H

#include "types.h"

/* Executable segments are mapped in pages of this size. */
#define CBENCH_IMAGE_PAGE_BYTES 4096u

/* The bytes gcc -fcf-protection=branch puts at every indirect-call target. */
#define CBENCH_ENDBR64_BYTES 4u

/* Why a check failed; cbench_check_str() turns it into words. */
enum cbench_check {
	CBENCH_CHECK_OK,
	CBENCH_CHECK_IMAGE_EMPTY,
	CBENCH_CHECK_TEXT_UNALIGNED,	/* text range not on page boundaries */
	CBENCH_CHECK_TEXT_OUTSIDE,	/* text range past the image end */
	CBENCH_CHECK_TEXT_OVERLAP,	/* text ranges unsorted or overlapping */
	CBENCH_CHECK_RELOC_UNALIGNED,	/* slot not 8-byte aligned */
	CBENCH_CHECK_RELOC_OUTSIDE,	/* slot past the image end */
	CBENCH_CHECK_RELOC_OVERLAP,	/* slots unsorted or overlapping */
	CBENCH_CHECK_RELOC_IN_TEXT,	/* slot inside executable text */
	CBENCH_CHECK_RELOC_TARGET,	/* slot's target outside the image */
	CBENCH_CHECK_ENTRY_OUTSIDE,	/* entry point not inside text */
	CBENCH_CHECK_ENTRY_ENDBR,	/* entry point not an endbr64 */
};

const char *cbench_check_str(enum cbench_check check);

/*
 * Text ranges: page-aligned, inside the image, sorted, disjoint.  nranges
 * may be 0 (an image without code has no entry point and is refused later).
 * On failure *bad is the index of the offending range.
 */
enum cbench_check cbench_text_check(u64 image_bytes, const struct cbench_range *text,
				    u32 ntext, u32 *bad);

/*
 * Relocation slots: 8-byte aligned, inside the image, strictly increasing
 * without overlap, outside text, and each slot's current value (the
 * image-relative target) at most image_bytes (one past the end is a valid C
 * pointer).  The text ranges must already have passed cbench_text_check().
 * On failure *bad is the index of the offending slot.
 */
enum cbench_check cbench_reloc_check(const u8 *image, u64 image_bytes,
				     const struct cbench_range *text, u32 ntext,
				     const u64 *slots, u32 nslots, u32 *bad);

/* Adds base to every slot.  Only after cbench_reloc_check() passed. */
void cbench_reloc_apply(u8 *image, u64 base, const u64 *slots, u32 nslots);

/*
 * An entry point (a benchmark's run or setup): inside text with room for
 * endbr64, and starting with it, since IBT kernels trap an indirect call that
 * lands anywhere else.
 */
enum cbench_check cbench_entry_check(const u8 *image, u64 image_bytes,
				     const struct cbench_range *text, u32 ntext, u64 offset);

#endif /* _CBENCH_LIB_RELOC_H */
