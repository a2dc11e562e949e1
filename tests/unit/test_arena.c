// SPDX-License-Identifier: GPL-2.0
/*
 * Arenas (arena.c): guard pages on both sides, and the page size asked
 * for: huge pages where the kernel's THP setting allows madvise, base
 * pages when asked, and the count of huge bytes read back from smaps.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "arena.h"

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

static CU_TestInfo arena_tests[] = {
	{ "guard pages on both sides", guards },
	{ "huge pages when asked and allowed, base pages when asked", page_sizes },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_arena_suites[] = {
	{ "arena", NULL, NULL, NULL, NULL, arena_tests },
	CU_SUITE_INFO_NULL,
};
