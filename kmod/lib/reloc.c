// SPDX-License-Identifier: GPL-2.0
/*
 * Image checks shared by cbench.ko and cbenchctl; see reloc.h.
 *
 * Everything here runs on input the module received from userspace, so every
 * sum is written so that it cannot overflow: we compare "offset > limit - size"
 * after checking "size <= limit", never "offset + size > limit".
 */
#include "reloc.h"

static const char *const check_words[] = {
	[CBENCH_CHECK_OK] = "ok",
	[CBENCH_CHECK_IMAGE_EMPTY] = "image is empty",
	[CBENCH_CHECK_TEXT_UNALIGNED] = "text range is not page-aligned",
	[CBENCH_CHECK_TEXT_OUTSIDE] = "text range ends past the image",
	[CBENCH_CHECK_TEXT_OVERLAP] = "text ranges are unsorted or overlap",
	[CBENCH_CHECK_RELOC_UNALIGNED] = "relocation slot is not 8-byte aligned",
	[CBENCH_CHECK_RELOC_OUTSIDE] = "relocation slot ends past the image",
	[CBENCH_CHECK_RELOC_OVERLAP] = "relocation slots are unsorted or overlap",
	[CBENCH_CHECK_RELOC_IN_TEXT] = "relocation slot is inside text",
	[CBENCH_CHECK_RELOC_TARGET] = "relocation target is outside the image",
	[CBENCH_CHECK_ENTRY_OUTSIDE] = "entry point is not inside text",
	[CBENCH_CHECK_ENTRY_ENDBR] = "entry point does not start with endbr64",
};

const char *cbench_check_str(enum cbench_check check)
{
	if ((unsigned int)check >= sizeof(check_words) / sizeof(check_words[0]) ||
	    !check_words[check])
		return "unknown check";
	return check_words[check];
}

/* [offset, offset + bytes) lies inside [0, limit), without overflow. */
static bool inside(u64 offset, u64 bytes, u64 limit)
{
	return bytes <= limit && offset <= limit - bytes;
}

static bool in_text(const struct cbench_range *text, u32 ntext, u64 offset, u64 bytes)
{
	u32 i;

	for (i = 0; i < ntext; i++) {
		if (offset >= text[i].start && offset - text[i].start < text[i].bytes)
			return bytes <= text[i].bytes - (offset - text[i].start);
	}
	return false;
}

static bool touches_text(const struct cbench_range *text, u32 ntext, u64 offset, u64 bytes)
{
	u32 i;

	/* Both ranges are known to lie inside the image: no overflow. */
	for (i = 0; i < ntext; i++) {
		if (offset < text[i].start + text[i].bytes && text[i].start < offset + bytes)
			return true;
	}
	return false;
}

enum cbench_check cbench_text_check(u64 image_bytes, const struct cbench_range *text,
				    u32 ntext, u32 *bad)
{
	u64 end = 0;
	u32 i;

	if (!image_bytes)
		return CBENCH_CHECK_IMAGE_EMPTY;
	for (i = 0; i < ntext; i++) {
		*bad = i;
		if (text[i].start % CBENCH_IMAGE_PAGE_BYTES || text[i].bytes % CBENCH_IMAGE_PAGE_BYTES ||
		    !text[i].bytes)
			return CBENCH_CHECK_TEXT_UNALIGNED;
		if (!inside(text[i].start, text[i].bytes, image_bytes))
			return CBENCH_CHECK_TEXT_OUTSIDE;
		if (text[i].start < end)
			return CBENCH_CHECK_TEXT_OVERLAP;
		end = text[i].start + text[i].bytes;
	}
	return CBENCH_CHECK_OK;
}

static u64 load64(const u8 *p)
{
	u64 v;

	__builtin_memcpy(&v, p, sizeof(v));
	return v;
}

static void store64(u8 *p, u64 v)
{
	__builtin_memcpy(p, &v, sizeof(v));
}

enum cbench_check cbench_reloc_check(const u8 *image, u64 image_bytes,
				     const struct cbench_range *text, u32 ntext,
				     const u64 *slots, u32 nslots, u32 *bad)
{
	u64 next = 0;
	u32 i;

	if (!image_bytes)
		return CBENCH_CHECK_IMAGE_EMPTY;
	for (i = 0; i < nslots; i++) {
		u64 slot = slots[i];

		*bad = i;
		if (slot % sizeof(u64))
			return CBENCH_CHECK_RELOC_UNALIGNED;
		if (!inside(slot, sizeof(u64), image_bytes))
			return CBENCH_CHECK_RELOC_OUTSIDE;
		if (slot < next)
			return CBENCH_CHECK_RELOC_OVERLAP;
		if (touches_text(text, ntext, slot, sizeof(u64)))
			return CBENCH_CHECK_RELOC_IN_TEXT;
		if (load64(image + slot) > image_bytes)
			return CBENCH_CHECK_RELOC_TARGET;
		next = slot + sizeof(u64);
	}
	return CBENCH_CHECK_OK;
}

void cbench_reloc_apply(u8 *image, u64 base, const u64 *slots, u32 nslots)
{
	u32 i;

	for (i = 0; i < nslots; i++)
		store64(image + slots[i], load64(image + slots[i]) + base);
}

enum cbench_check cbench_entry_check(const u8 *image, u64 image_bytes,
				     const struct cbench_range *text, u32 ntext, u64 offset)
{
	static const u8 endbr64[CBENCH_ENDBR64_BYTES] = { 0xf3, 0x0f, 0x1e, 0xfa };
	u32 i;

	if (!inside(offset, CBENCH_ENDBR64_BYTES, image_bytes) ||
	    !in_text(text, ntext, offset, CBENCH_ENDBR64_BYTES))
		return CBENCH_CHECK_ENTRY_OUTSIDE;
	for (i = 0; i < CBENCH_ENDBR64_BYTES; i++) {
		if (image[offset + i] != endbr64[i])
			return CBENCH_CHECK_ENTRY_ENDBR;
	}
	return CBENCH_CHECK_OK;
}
