// SPDX-License-Identifier: GPL-2.0
/*
 * An audit's order of measurements (audit_worker.c): each round holds as
 * many of A as of B, interleaved at random, and a seed replays it exactly.
 */
#include <stdint.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "audit.h"

#define SLOTS (2 * CBENCH_AUDIT_PER_SIDE)

static void balanced_and_replayable(void)
{
	uint8_t one[SLOTS], two[SLOTS], next[SLOTS];
	uint64_t s1 = 42, s2 = 42, s3 = 43;
	size_t b = 0, longest = 0, run = 0;

	cbench_audit_shuffle(one, &s1);
	cbench_audit_shuffle(two, &s2);
	CU_ASSERT_EQUAL(memcmp(one, two, SLOTS), 0);		/* the same seed, the same round */
	for (size_t i = 0; i < SLOTS; i++) {
		b += one[i];
		run = i && one[i] == one[i - 1] ? run + 1 : 1;
		longest = run > longest ? run : longest;
	}
	CU_ASSERT_EQUAL(b, CBENCH_AUDIT_PER_SIDE);		/* as many B as A */
	/* Interleaved, not A then B: in 200 fair slots a run of 25 of a kind
	 * has a probability under 1e-5. */
	CU_ASSERT(longest < 25);
	/* The state moves on: the next round differs; so does another seed's. */
	cbench_audit_shuffle(next, &s1);
	CU_ASSERT_NOT_EQUAL(memcmp(one, next, SLOTS), 0);
	cbench_audit_shuffle(two, &s3);
	CU_ASSERT_NOT_EQUAL(memcmp(one, two, SLOTS), 0);
}

/* Over many rounds each slot is A about half the time. */
static void unbiased(void)
{
	uint8_t order[SLOTS];
	unsigned int count[SLOTS] = { 0 };
	uint64_t state = 7;

	for (int r = 0; r < 4000; r++) {
		cbench_audit_shuffle(order, &state);
		for (size_t i = 0; i < SLOTS; i++)
			count[i] += order[i];
	}
	/* 4000 draws of p = 1/2: sd 31.6; 200 slots within 6 sd of 2000. */
	for (size_t i = 0; i < SLOTS; i++)
		CU_ASSERT(count[i] > 1810 && count[i] < 2190);
}

static CU_TestInfo audit_order_tests[] = {
	{ "balanced, interleaved and replayable", balanced_and_replayable },
	{ "every slot A or B alike", unbiased },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_audit_order_suites[] = {
	{ "audit order", NULL, NULL, NULL, NULL, audit_order_tests },
	CU_SUITE_INFO_NULL,
};
