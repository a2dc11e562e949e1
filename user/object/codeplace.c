// SPDX-License-Identifier: GPL-2.0
/*
 * Placing a benchmark's code anew in a worker (codeplace.h).
 *
 * Every region lands in one window of address space per process, reserved
 * near the object: the moved code reaches the object's data, GOT and PLT
 * through 32-bit displacements.  Both sides of an audit draw their pages
 * from the same window, so how far apart their code lies is drawn too.  A
 * new region is mapped and filled before the old one goes, so it never
 * gets the pages the old one just freed.
 */
#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "object/codeplace.h"
#include "machine/arena.h"

/* Regions in the window at once: each side's current and next. */
#define LIVE_MAX 8
/* The window lies within this of the object, so that every displacement
 * between them fits in 32 bits. */
#define WINDOW_REACH_BYTES (1ULL << 30)

static struct {
	char *base;			/* NULL until reserved */
	size_t page;
	struct {
		size_t first, pages;	/* pages 0: a free entry */
	} live[LIVE_MAX];
} window;

/* The object's lowest and highest loaded address. */
static void object_span(const struct cbench_library *lib, uintptr_t *lo, uintptr_t *hi)
{
	*lo = UINTPTR_MAX;
	*hi = 0;
	for (size_t i = 0; i < lib->nsegments; i++) {
		if (lib->segments[i].start < *lo)
			*lo = lib->segments[i].start;
		if (lib->segments[i].end > *hi)
			*hi = lib->segments[i].end;
	}
}

/* Whether [p, p + bytes) lies within WINDOW_REACH_BYTES of [lo, hi). */
static bool near(uintptr_t p, size_t bytes, uintptr_t lo, uintptr_t hi)
{
	uintptr_t end = p + bytes;

	return (p >= lo ? end - lo : hi - p) < WINDOW_REACH_BYTES;
}

/* The window, reserved (PROT_NONE, never backed) near lib if not yet. */
static int window_reserve(const struct cbench_library *lib)
{
	size_t bytes;
	uintptr_t lo, hi;

	if (window.base)
		return 0;
	window.page = (size_t)sysconf(_SC_PAGESIZE);
	bytes = CBENCH_CODE_WINDOW_PAGES * window.page;
	object_span(lib, &lo, &hi);
	if (lo >= hi)
		return -ENOEXEC;
	/* Below the object, then above it, further and further. */
	for (int k = 1; k <= 16; k++) {
		uintptr_t gap = (uintptr_t)k * (16u << 20);
		uintptr_t hint = k % 2 ? (lo > bytes + gap ? (lo - bytes - gap) & ~(uintptr_t)0xfff : 0) :
				 (hi + gap + 0xfff) & ~(uintptr_t)0xfff;
		void *p;

		if (!hint || !near(hint, bytes, lo, hi))
			continue;
		p = mmap((void *)hint, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE |
			 MAP_FIXED_NOREPLACE, -1, 0);
		if (p == MAP_FAILED)
			continue;
		/* A kernel before 4.17 takes the flag for a hint. */
		if ((uintptr_t)p != hint) {
			munmap(p, bytes);
			continue;
		}
		window.base = p;
		return 0;
	}
	return -ENOMEM;
}

/* A drawn first page for a region of pages that overlaps no live one. */
static int region_draw(struct cbench_placement *pl, size_t pages, size_t *first)
{
	size_t span = CBENCH_CODE_WINDOW_PAGES - pages + 1;

	for (int tries = 0; tries < 64; tries++) {
		size_t f = (size_t)cbench_placement_draw(pl, span);
		bool clear = true;

		for (int i = 0; i < LIVE_MAX && clear; i++)
			clear = !window.live[i].pages || f + pages <= window.live[i].first ||
				window.live[i].first + window.live[i].pages <= f;
		if (clear) {
			*first = f;
			return 0;
		}
	}
	return -EBUSY;
}

static void live_set(size_t first, size_t pages)
{
	for (int i = 0; i < LIVE_MAX; i++) {
		if (!window.live[i].pages) {
			window.live[i].first = first;
			window.live[i].pages = pages;
			return;
		}
	}
}

/* A region back to the reservation. */
static void region_release(void *map, size_t bytes)
{
	size_t first;

	if (!map)
		return;
	first = (size_t)((char *)map - window.base) / window.page;
	mmap(map, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
	for (int i = 0; i < LIVE_MAX; i++) {
		if (window.live[i].pages && window.live[i].first == first)
			window.live[i].pages = 0;
	}
}

int cbench_code_place_init(struct cbench_code_place *c, const struct cbench_experiment *e, char *why,
			   size_t why_bytes)
{
	struct link_map *map = NULL;
	const uint8_t *src;
	uint64_t low;
	int ret;

	memset(c, 0, sizeof(*c));
	c->exp = e;
	c->desc = *e->desc;
	ret = cbench_layout_scan(e->lib->path, &c->lay, why, why_bytes);
	if (ret || c->lay.mode == CBENCH_LAYOUT_NONE)
		return ret;
	if (!e->lib->handle || dlinfo(e->lib->handle, RTLD_DI_LINKMAP, &map) || !map) {
		snprintf(why, why_bytes, "cannot find where %s was loaded", e->lib->path);
		return -ENOEXEC;
	}
	c->bias = map->l_addr;
	low = cbench_layout_lowest(&c->lay);
	src = (const uint8_t *)(uintptr_t)(c->bias + low);
	if (cbench_layout_hash(&c->lay, src, low) != c->lay.code_hash) {
		snprintf(why, why_bytes, "the code of %s changed on disk since it was loaded", e->lib->path);
		return -ESTALE;
	}
	c->offsets = calloc(cbench_layout_slots(&c->lay) + 1, sizeof(*c->offsets));
	return c->offsets ? 0 : -ENOMEM;
}

/* A function pointer of the object's, where it runs in the current layout. */
static uint64_t moved(const struct cbench_code_place *c, uintptr_t fn)
{
	uint64_t at = (uint64_t)fn;
	uint64_t to = fn ? cbench_layout_where(&c->lay, c->offsets, (uint64_t)(uintptr_t)c->map,
					     at - c->bias) : 0;

	return to ? to : at;
}

/* The descriptor's entry points, led to the current layout. */
static void point_desc(struct cbench_code_place *c)
{
	const struct cbench_desc *d = c->exp->desc;

	c->desc.run = (cbench_run_fn)(uintptr_t)moved(c, (uintptr_t)d->run);
	c->desc.setup = (cbench_setup_fn)(uintptr_t)moved(c, (uintptr_t)d->setup);
	c->desc.before_rep = (cbench_hook_fn)(uintptr_t)moved(c, (uintptr_t)d->before_rep);
	c->desc.after_rep = (cbench_hook_fn)(uintptr_t)moved(c, (uintptr_t)d->after_rep);
}

/* Maps a region of bytes at a drawn page and lays the drawn layout out in it. */
static int lay_out(struct cbench_code_place *c, struct cbench_placement *pl, uint64_t bytes,
		   void **out, size_t *out_bytes, char *why, size_t why_bytes)
{
	size_t pages = (bytes + window.page - 1) / window.page, first;
	uint64_t low = cbench_layout_lowest(&c->lay);
	char *p;
	int ret;

	if (pages > CBENCH_CODE_WINDOW_PAGES / 4) {
		snprintf(why, why_bytes, "its code (%" PRIu64 " bytes laid out) is too large to place anew",
			 bytes);
		return -E2BIG;
	}
	ret = region_draw(pl, pages, &first);
	if (ret)
		return ret;
	p = mmap(window.base + first * window.page, pages * window.page, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	ret = cbench_layout_apply(&c->lay, c->offsets, (const uint8_t *)(uintptr_t)(c->bias + low), low,
				  c->bias, (uint8_t *)p, pages * window.page, (uint64_t)(uintptr_t)p, why,
				  why_bytes);
	if (!ret && mprotect(p, pages * window.page, PROT_READ | PROT_EXEC))
		ret = -errno;
	if (ret) {
		region_release(p, pages * window.page);
		return ret;
	}
	/* Best effort, as the arena's: a fault later only costs a measurement. */
	mlock(p, pages * window.page);
	live_set(first, pages);
	*out = p;
	*out_bytes = pages * window.page;
	return 0;
}

static uint64_t draw(void *pl, uint64_t n)
{
	return cbench_placement_draw(pl, n);
}

int cbench_code_place_next(struct cbench_code_place *c, struct cbench_placement *pl, char *why,
			   size_t why_bytes)
{
	void *map = NULL;
	size_t map_bytes = 0;
	uint64_t bytes;
	int ret = window_reserve(c->exp->lib);

	if (ret) {
		snprintf(why, why_bytes, "no address space near %s to place its code in", c->exp->lib->path);
		return ret;
	}
	ret = cbench_layout_draw(&c->lay, draw, pl, c->offsets, &bytes);
	ret = ret ? ret : lay_out(c, pl, bytes, &map, &map_bytes, why, why_bytes);
	if (ret) {
		if (!why[0])
			snprintf(why, why_bytes, "unable to place its code anew: %s", strerror(-ret));
		return ret;
	}
	region_release(c->map, c->map_bytes);
	c->map = map;
	c->map_bytes = map_bytes;
	c->count++;
	point_desc(c);
	return 0;
}

uint64_t cbench_code_place_run_offset(const struct cbench_code_place *c)
{
	return c->map ? moved(c, (uintptr_t)c->exp->desc->run) - (uint64_t)(uintptr_t)c->map : 0;
}

void cbench_code_place_free(struct cbench_code_place *c)
{
	region_release(c->map, c->map_bytes);
	cbench_layout_free(&c->lay);
	free(c->offsets);
	memset(c, 0, sizeof(*c));
}
