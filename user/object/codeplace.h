/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A benchmark's code placed anew in a worker (layout.h): each placement
 * draws a layout and lays the object's code out in fresh executable pages,
 * at a drawn page of a window reserved near the object (its data, GOT and
 * PLT must stay within a 32-bit displacement), then points a copy of the
 * descriptor at the moved entry points.  The draws come from the audit's
 * placement (arena.h), so a seed replays its layouts.  Only in a worker:
 * the object is loaded there.
 */
#ifndef _CBENCH_CODEPLACE_H
#define _CBENCH_CODEPLACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cbench.h>

#include "object/layout.h"
#include "object/loader.h"

struct cbench_placement;

/* The window of address space near the object that every layout's region
 * lands in, at a drawn page (64 MiB, reserved, never backed); a region may
 * take at most a quarter of it. */
#define CBENCH_CODE_WINDOW_PAGES 16384

struct cbench_code_place {
	const struct cbench_experiment *exp;	/* loaded here */
	struct cbench_layout lay;
	uint64_t bias;			/* where the object was loaded: address - link address */
	uint64_t *offsets;		/* the current layout's */
	void *map;			/* its region; NULL before the first */
	size_t map_bytes;
	uint32_t count;			/* layouts placed */
	/* The descriptor, its entry points in the current layout. */
	struct cbench_desc desc;
};

/*
 * Reads the layout of e's object (loaded in this process).  Returns 0, with
 * c->lay.mode CBENCH_LAYOUT_NONE where its code cannot move, or -errno
 * with a sentence in why.
 */
int cbench_code_place_init(struct cbench_code_place *c, const struct cbench_experiment *e, char *why,
			   size_t why_bytes);

/*
 * Places the code anew, at a layout drawn from pl, the old layout unmapped
 * after the new one is in place; c->desc then runs it.  Returns 0 or
 * -errno with a sentence in why.  Not for a layout of mode NONE.
 */
int cbench_code_place_next(struct cbench_code_place *c, struct cbench_placement *pl, char *why,
			   size_t why_bytes);

/* The offset of the benchmark's run function from its region's (page
 * aligned) start in the current layout; 0 before the first. */
uint64_t cbench_code_place_run_offset(const struct cbench_code_place *c);

void cbench_code_place_free(struct cbench_code_place *c);

#endif /* _CBENCH_CODEPLACE_H */
