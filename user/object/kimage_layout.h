/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Code layouts in ring 0: a kernel image (kimage.h) whose code is laid out
 * anew at a drawn layout (layout.h) before it is uploaded, so that in
 * cbench.ko too where code lies becomes variance an audit sees
 * (docs/placement.md, "In ring 0").
 *
 * The laid-out image is the image as built, unchanged, with a region of
 * text appended past its end that holds the moved units at their drawn
 * offsets.  cbench relocates the image itself, so every reference follows
 * the code: displacements in the moved code (as in user mode), and every
 * RELATIVE slot that points into a moved unit (function pointers, the
 * GOT's slots the PLT jumps through, the descriptors' entry points).  The
 * code as built stays in place, runnable, for whatever still reaches it
 * (a relative jump table in data, which kernel-safe builds have none of:
 * -fno-jump-tables).
 */
#ifndef _CBENCH_KIMAGE_LAYOUT_H
#define _CBENCH_KIMAGE_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "object/kimage.h"
#include "object/layout.h"

struct cbench_kimage_layout {
	/* The object's layout, without stubs: in ring 0 the GOT's own
	 * slots lead to the moved functions (they are ours to relocate). */
	struct cbench_layout lay;
	uint64_t *offsets;		/* the current layout's, one per unit */
	uint64_t region;		/* its region's offset in the laid-out image */
	uint64_t base;			/* the object's address of image offset 0 */
	uint32_t count;			/* layouts drawn */
};

/*
 * Reads the layout of the object at path, from which image was built.
 * Returns 0, with kl->lay.mode CBENCH_LAYOUT_NONE (and why in kl->lay.why)
 * where its code cannot move, or -errno with a sentence in why: -ESTALE
 * if the file's code is not the image's.
 */
int cbench_kimage_layout_init(struct cbench_kimage_layout *kl, const char *path,
			      const struct cbench_kimage *image, char *why, size_t why_bytes);

/*
 * Draws the next layout from draw (the same draws as a user-mode
 * placement's, layout.h), lays image out at it into *out and checks the
 * result (cbench_kimage_layout_check()).  Returns 0, or -errno with a
 * sentence in why and *out zeroed.  Not for a layout of mode NONE.
 */
int cbench_kimage_layout_next(struct cbench_kimage_layout *kl, const struct cbench_kimage *image,
			      cbench_layout_draw_fn draw, void *arg, struct cbench_kimage *out, char *why,
			      size_t why_bytes);

/*
 * Whether out is image laid out at kl's current layout and nothing else:
 * image's bytes unchanged but for slots that now reach the moved code;
 * every moved unit byte for byte the code as built, but for displacements
 * that reach where their targets went; every other byte of the region an
 * int3; entry points moved, each still an endbr64; and the checks cbench.ko
 * makes.  Returns 0, or -EINVAL with the first difference in why.
 */
int cbench_kimage_layout_check(const struct cbench_kimage_layout *kl, const struct cbench_kimage *image,
			       const struct cbench_kimage *out, char *why, size_t why_bytes);

/* Where image offset offset of a laid-out image was in the image as
 * built (itself outside the region). */
uint64_t cbench_kimage_layout_origin(const struct cbench_kimage_layout *kl, uint64_t offset);

/* Where image offset offset of the image as built runs in the current
 * layout (itself where it does not move). */
uint64_t cbench_kimage_layout_moved(const struct cbench_kimage_layout *kl, uint64_t offset);

void cbench_kimage_layout_free(struct cbench_kimage_layout *kl);

#endif /* _CBENCH_KIMAGE_LAYOUT_H */
