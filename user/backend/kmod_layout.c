// SPDX-License-Identifier: GPL-2.0
/*
 * Code layouts in ring 0 (docs/placement.md, "In ring 0"): at a placement
 * that asks for one, the kmod backend lays its image out anew
 * (object/kimage_layout.h) and the runs that follow use that image.  The
 * draws are a user-mode placement's (layout.h), from the same generator,
 * so a seed replays the layouts in ring 0 as it does in user mode.
 *
 * Images are uploaded when a run needs them, not when they are laid out:
 * an audit's side B is laid out by its own instance but runs on side A's
 * socket (a socket runs only what it uploaded), so uploading it on its own
 * socket too would be wasted.  The image a socket no longer runs is
 * deleted, so an audit of thousands of rounds holds a few images at a time
 * (the module allows CBENCH_IMAGES_PER_CLIENT).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/kmod_parts.h"
#include "machine/arena.h"

static uint64_t draw(void *pl, uint64_t n)
{
	return cbench_placement_draw(pl, n);
}

/* The object's layout, read at the first placement; 0 or -errno with why. */
static int layout_of(struct kmod_backend *k, char *why, size_t why_bytes)
{
	int ret;

	if (k->klay)
		return 0;
	k->klay = calloc(1, sizeof(*k->klay));
	if (!k->klay) {
		snprintf(why, why_bytes, "out of memory");
		return -ENOMEM;
	}
	ret = cbench_kimage_layout_init(k->klay, k->exp->lib->path, &k->image, why, why_bytes);
	if (ret) {
		free(k->klay);
		k->klay = NULL;
	}
	return ret;
}

int cbench_kmod_place_code(struct cbench_backend *b, struct cbench_placement *pl)
{
	struct kmod_backend *k = b->priv;
	const struct cbench_kimage_entry *entry;
	struct cbench_kimage laid;
	char why[600] = "";
	int ret;

	if (!k->have_image)
		return -ENOENT;
	ret = layout_of(k, why, sizeof(why));
	if (ret) {
		snprintf(b->error, sizeof(b->error), "unable to lay its code out in ring 0: %s", why);
		return ret;
	}
	/* Code that cannot move runs as built, as in user mode (the report
	 * says why, from the object's file). */
	if (k->klay->lay.mode == CBENCH_LAYOUT_NONE)
		return 0;
	ret = cbench_kimage_layout_next(k->klay, &k->image, draw, pl, &laid, why, sizeof(why));
	if (ret) {
		snprintf(b->error, sizeof(b->error), "unable to lay its code out in ring 0: %.300s: %.600s",
			 k->exp->lib->path, why);
		return ret;
	}
	ret = cbench_kmod_stack_laid(k, &laid, b->error, sizeof(b->error));
	if (ret) {
		cbench_kimage_free(&laid);
		return ret;
	}
	if (k->info.has_limits && laid.image_bytes > k->info.image_bytes) {
		snprintf(b->error, sizeof(b->error), "its image laid out anew (%" PRIu64 " bytes) is larger "
			 "than cbench.ko takes (image_max_bytes=%" PRIu64 "): reload the module with a larger "
			 "image_max_bytes, or keep the code as built with --fixed-layout", laid.image_bytes,
			 k->info.image_bytes);
		cbench_kimage_free(&laid);
		return -E2BIG;
	}
	entry = cbench_kimage_find(&laid, k->entry->name);
	if (!entry) {
		snprintf(b->error, sizeof(b->error), "its image laid out anew has no benchmark %s",
			 k->entry->name);
		cbench_kimage_free(&laid);
		return -ENOENT;
	}
	if (k->have_laid)
		cbench_kimage_free(&k->laid);
	k->laid = laid;
	k->have_laid = true;
	k->laid_gen++;
	/* The entry lies in the laid-out image's array: found anew there. */
	k->entry = cbench_kimage_find(&k->laid, entry->name);
	b->code_layouts = k->klay->count;
	b->code_offset = k->entry->run >= k->klay->region ? k->entry->run - k->klay->region : 0;
	return 0;
}

int cbench_kmod_upload(struct kmod_backend *k, const struct kmod_backend *from, struct kmod_upload *u,
		       uint32_t *id)
{
	const struct cbench_kimage *image = cbench_kmod_runs_image(from);
	uint32_t gen = from->have_laid ? from->laid_gen : 0, fresh;
	int ret;

	if (u->have && u->gen == gen) {
		*id = u->id;
		return 0;
	}
	ret = cbench_proto_image_upload(k->nl, image, k->info.image_crc, &fresh);
	if (ret)
		return ret;
	/* Its runs were deleted as they ended (cbench_kmod_run_finish());
	 * one that will not go is the module's to free with our socket. */
	if (u->have)
		(void)cbench_proto_image_del(k->nl, u->id);
	*u = (struct kmod_upload){ .id = fresh, .gen = gen, .have = true };
	*id = fresh;
	return 0;
}

/* Where image offset offset of the image k runs now was as built. */
static uint64_t built_offset(const struct kmod_backend *k, uint64_t offset)
{
	return k->have_laid ? cbench_kimage_layout_origin(k->klay, offset) : offset;
}

uint64_t cbench_kmod_built_trap(const struct kmod_backend *k, const struct cbench_proto_run_state *res)
{
	if (res->trap_from_caller && res->trap_offset)
		return built_offset(k, res->trap_offset - 1) + 1;
	return built_offset(k, res->trap_offset);
}

void cbench_kmod_layout_free(struct kmod_backend *k)
{
	if (k->have_laid)
		cbench_kimage_free(&k->laid);
	k->have_laid = false;
	cbench_kstack_stubs_free(&k->laid_stubs);
	if (k->klay)
		cbench_kimage_layout_free(k->klay);
	free(k->klay);
	k->klay = NULL;
}
