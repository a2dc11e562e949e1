// SPDX-License-Identifier: GPL-2.0
/*
 * An audit's order of measurements (audit_worker.c): each round holds as
 * many of A as of B, interleaved at random, and a seed replays it exactly.
 */
#include <stdint.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "../kmod/lib/order.h"
#include "report/report_audit.h"
#include "worker/audit_worker.h"

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

/*
 * The order as include/uapi/linux/cbench.h specifies it for
 * CBENCH_CMD_AUDIT_START, written from that text alone: cbench.ko takes an
 * audit run's samples in it, and cbenchctl checks the module's sides
 * against its own, so both must be this.
 */
static void documented(uint8_t *order, uint32_t per_side, uint64_t *state)
{
	for (uint32_t i = 0; i < 2 * per_side; i++)
		order[i] = i >= per_side;
	for (uint32_t i = 2 * per_side - 1; i >= 1; i--) {
		uint64_t x = *state, j;
		uint8_t t;

		x ^= x >> 12;
		x ^= x << 25;
		x ^= x >> 27;
		*state = x;
		j = (x * 0x2545F4914F6CDD1DULL) % (i + 1);
		t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
}

static void as_documented(void)
{
	static const uint32_t per_sides[] = { 1, 3, CBENCH_AUDIT_PER_SIDE, CBENCH_AUDIT_PER_SIDE_MAX };
	static const uint64_t seeds[] = { 0, 1, 42, UINT64_MAX };
	static uint8_t ours[2 * CBENCH_AUDIT_PER_SIDE_MAX], theirs[2 * CBENCH_AUDIT_PER_SIDE_MAX];

	for (size_t p = 0; p < sizeof(per_sides) / sizeof(per_sides[0]); p++) {
		for (size_t k = 0; k < sizeof(seeds) / sizeof(seeds[0]); k++) {
			uint32_t n = per_sides[p];
			uint64_t a = cbench_order_seed(seeds[k]), b = seeds[k] ? seeds[k] : 1;

			/* Three rounds: the state carries over from one to the next. */
			for (int round = 0; round < 3; round++) {
				cbench_order_round(ours, n, &a);
				documented(theirs, n, &b);
				CU_ASSERT_EQUAL(memcmp(ours, theirs, 2 * n), 0);
				CU_ASSERT_EQUAL(a, b);
			}
		}
	}
	/* The user backend's rounds are the module's of CBENCH_AUDIT_PER_SIDE. */
	{
		uint64_t a = 7, b = 7;

		cbench_audit_shuffle(ours, &a);
		cbench_order_round(theirs, CBENCH_AUDIT_PER_SIDE, &b);
		CU_ASSERT_EQUAL(memcmp(ours, theirs, SLOTS), 0);
	}
}

static CU_TestInfo audit_order_tests[] = {
	{ "as include/uapi/linux/cbench.h documents it", as_documented },
	{ "balanced, interleaved and replayable", balanced_and_replayable },
	{ "every slot A or B alike", unbiased },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_audit_order_suites[] = {
	{ "audit order", NULL, NULL, NULL, NULL, audit_order_tests },
	CU_SUITE_INFO_NULL,
};
