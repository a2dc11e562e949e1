// SPDX-License-Identifier: GPL-2.0
/*
 * Arenas (arena.c): guard pages on both sides, and the page size asked
 * for: huge pages where the kernel's THP setting allows madvise, base
 * pages when asked, and the count of huge bytes read back from smaps.
 * Placements: zeroed and guarded as well, aligned to CBENCH_ARENA_ALIGN,
 * never on the chunks of an arena still mapped, drawn from the seed (the
 * same seed, the same placements), and pools that outlive their owner
 * while an arena holds their chunks.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "machine/arena.h"

static sigjmp_buf fault;

static void on_segv(int sig)
{
	siglongjmp(fault, sig);
}

/* Whether writing at p faults (and so stops a stray write). */
static int faults(volatile char *p)
{
	struct sigaction sa = { .sa_handler = on_segv }, old;
	int hit;

	sigaction(SIGSEGV, &sa, &old);
	hit = sigsetjmp(fault, 1) != 0;
	if (!hit)
		*p = 1;
	sigaction(SIGSEGV, &old, NULL);
	return hit;
}

static void guards(void)
{
	struct cbench_arena a;
	long page = sysconf(_SC_PAGESIZE);

	CU_ASSERT_FATAL(cbench_arena_map(&a, 10000, CBENCH_ARENA_PAGES_ANY) == 0);
	CU_ASSERT(!faults((char *)a.base));
	CU_ASSERT(!faults((char *)a.base + 9999));
	CU_ASSERT(faults((char *)a.base - 1));
	/* 10000 bytes round up to whole pages; the guard follows them. */
	CU_ASSERT(faults((char *)a.base + (10000 + page - 1) / page * page));
	cbench_arena_unmap(&a);
}

/* THP as the kernel allows it: "[never]" gives none whatever we ask. */
static int thp_never(void)
{
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
	char line[128] = "";

	if (!f)
		return 1;
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	fclose(f);
	return strstr(line, "[never]") != NULL;
}

static void page_sizes(void)
{
	struct cbench_arena a;
	size_t bytes = 8u << 20;

	CU_ASSERT_FATAL(cbench_arena_map(&a, bytes, CBENCH_ARENA_PAGES_BASE) == 0);
	CU_ASSERT_EQUAL(cbench_arena_huge_bytes(&a), 0);
	cbench_arena_unmap(&a);
	CU_ASSERT_FATAL(cbench_arena_map(&a, bytes, CBENCH_ARENA_PAGES_HUGE) == 0);
	if (thp_never()) {
		CU_ASSERT_EQUAL(cbench_arena_huge_bytes(&a), 0);
	} else {
		CU_ASSERT(cbench_arena_huge_bytes(&a) > 0);
	}
	CU_ASSERT(cbench_arena_huge_bytes(&a) <= a.map_bytes);
	cbench_arena_unmap(&a);
}

#define PLACED_BYTES 100000

/* A placement planned for two arenas of PLACED_BYTES, as an audit's. */
static void planned(struct cbench_placement *pl, uint64_t seed, enum cbench_arena_pages pages)
{
	cbench_placement_init(pl, seed);
	CU_ASSERT_FATAL(cbench_placement_plan(pl, PLACED_BYTES, pages) == 0);
	CU_ASSERT_FATAL(cbench_placement_plan(pl, PLACED_BYTES, pages) == 0);
}

/* Whether a and b hold a chunk in common. */
static int share_chunks(const struct cbench_arena *a, const struct cbench_arena *b)
{
	for (size_t i = 0; i < a->nlent; i++) {
		for (size_t j = 0; j < b->nlent; j++) {
			if (a->lent[i] == b->lent[j])
				return 1;
		}
	}
	return 0;
}

static void placed_guarded_zeroed(void)
{
	struct cbench_placement pl;
	struct cbench_arena a;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	planned(&pl, 1, CBENCH_ARENA_PAGES_BASE);
	for (int i = 0; i < 20; i++) {
		CU_ASSERT_FATAL(cbench_arena_place(&a, &pl, PLACED_BYTES, CBENCH_ARENA_PAGES_BASE) == 0);
		CU_ASSERT_EQUAL((uintptr_t)a.base % CBENCH_ARENA_ALIGN, 0);
		CU_ASSERT_EQUAL(a.bytes, PLACED_BYTES);
		/* Zeroed, though the chunks held an earlier arena's bytes. */
		for (size_t k = 0; k < PLACED_BYTES; k++) {
			if (((unsigned char *)a.base)[k]) {
				CU_FAIL("a placed arena is not zeroed");
				break;
			}
		}
		memset(a.base, 0xa5, PLACED_BYTES);
		CU_ASSERT(!faults((char *)a.base + PLACED_BYTES - 1));
		/* The guard before its first page, the guard past its last (an
		 * arena this small is made of single pages). */
		CU_ASSERT(faults((char *)((uintptr_t)a.base / page * page) - 1));
		CU_ASSERT(faults((char *)(((uintptr_t)a.base + PLACED_BYTES + page - 1) / page * page)));
		cbench_arena_unmap(&a);
	}
	cbench_placement_free(&pl);
}

/*
 * A new placement made while the old one is mapped never holds its
 * chunks; placements differ from one another (offset and chunks), and
 * the same seed draws the same ones.
 */
static void placed_fresh_and_seeded(void)
{
	struct cbench_placement pl[2];
	struct cbench_arena old[2], fresh[2];
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	uint32_t first[40];
	int offsets = 0, seen[64] = { 0 }, same = 0;

	/* The same seed, the same steps: the second replays the first. */
	for (int k = 0; k < 2; k++) {
		planned(&pl[k], 7, CBENCH_ARENA_PAGES_ANY);
		CU_ASSERT_FATAL(cbench_arena_place(&old[k], &pl[k], PLACED_BYTES,
						   CBENCH_ARENA_PAGES_ANY) == 0);
	}
	for (int i = 0; i < 40; i++) {
		size_t offset = (uintptr_t)old[0].base % page;

		CU_ASSERT_EQUAL(offset, (uintptr_t)old[1].base % page);
		CU_ASSERT_EQUAL(old[0].nlent, old[1].nlent);
		CU_ASSERT(old[0].nlent && !memcmp(old[0].lent, old[1].lent,
						  old[0].nlent * sizeof(*old[0].lent)));
		offsets += !seen[offset / CBENCH_ARENA_ALIGN]++;
		first[i] = old[0].lent[0];
		for (int k = 0; k < 2; k++) {
			CU_ASSERT_FATAL(cbench_arena_place(&fresh[k], &pl[k], PLACED_BYTES,
							   CBENCH_ARENA_PAGES_ANY) == 0);
			CU_ASSERT(!share_chunks(&old[k], &fresh[k]));
			cbench_arena_unmap(&old[k]);
			old[k] = fresh[k];
		}
	}
	/* Not a cycle of a few: the kernel's allocator alone gives one of 3. */
	for (int i = 0; i < 40; i++) {
		for (int j = i + 1; j < 40; j++)
			same += first[i] == first[j];
	}
	printf("\n    40 placements: %d offsets, %d pairs on the same first chunk ", offsets, same);
	CU_ASSERT(offsets >= 20);
	CU_ASSERT(same <= 20);
	for (int k = 0; k < 2; k++) {
		cbench_arena_unmap(&old[k]);
		cbench_placement_free(&pl[k]);
	}
}

/* An arena may outlive its placement: the pool stays until it goes. */
static void placed_pool_outlives(void)
{
	struct cbench_placement pl;
	struct cbench_arena a, none;

	planned(&pl, 3, CBENCH_ARENA_PAGES_BASE);
	CU_ASSERT_FATAL(cbench_arena_place(&a, &pl, PLACED_BYTES, CBENCH_ARENA_PAGES_BASE) == 0);
	cbench_placement_free(&pl);
	memset(a.base, 1, PLACED_BYTES);
	cbench_arena_unmap(&a);
	/* Nothing planned, nothing placed; no arena at all is fine. */
	cbench_placement_init(&pl, 3);
	CU_ASSERT_EQUAL(cbench_arena_place(&a, &pl, PLACED_BYTES, CBENCH_ARENA_PAGES_BASE), -EINVAL);
	CU_ASSERT_EQUAL(cbench_arena_place(&none, &pl, 0, CBENCH_ARENA_PAGES_BASE), 0);
	CU_ASSERT_PTR_NULL(none.base);
	/* Larger than planned is refused too. */
	CU_ASSERT_FATAL(cbench_placement_plan(&pl, PLACED_BYTES, CBENCH_ARENA_PAGES_BASE) == 0);
	CU_ASSERT_EQUAL(cbench_arena_place(&a, &pl, 4 * PLACED_BYTES, CBENCH_ARENA_PAGES_BASE), -EINVAL);
	cbench_placement_free(&pl);
}

/* Huge pages stay huge when placed (they move whole). */
static void placed_huge(void)
{
	struct cbench_placement pl;
	struct cbench_arena a;
	size_t bytes = 4u << 20;

	cbench_placement_init(&pl, 5);
	CU_ASSERT_FATAL(cbench_placement_plan(&pl, bytes, CBENCH_ARENA_PAGES_HUGE) == 0);
	CU_ASSERT_FATAL(cbench_arena_place(&a, &pl, bytes, CBENCH_ARENA_PAGES_HUGE) == 0);
	if (thp_never()) {
		CU_ASSERT_EQUAL(cbench_arena_huge_bytes(&a), 0);
	} else {
		CU_ASSERT(cbench_arena_huge_bytes(&a) >= bytes / 2);
	}
	cbench_arena_unmap(&a);
	cbench_placement_free(&pl);
}

static CU_TestInfo arena_tests[] = {
	{ "guard pages on both sides", guards },
	{ "huge pages when asked and allowed, base pages when asked", page_sizes },
	{ "placed arenas: aligned, zeroed, guarded", placed_guarded_zeroed },
	{ "placed arenas: fresh chunks, drawn from the seed", placed_fresh_and_seeded },
	{ "placed arenas: the pool outlives the placement", placed_pool_outlives },
	{ "placed arenas: huge pages stay huge", placed_huge },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_arena_suites[] = {
	{ "arena", NULL, NULL, NULL, NULL, arena_tests },
	CU_SUITE_INFO_NULL,
};
