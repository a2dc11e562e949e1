// SPDX-License-Identifier: GPL-2.0
/* kmod/lib/sample.c: counter deltas and disturbed samples. */
#include <CUnit/CUnit.h>

#include "../kmod/lib/sample.h"

static void deltas(void)
{
	CU_ASSERT_EQUAL(cbench_counter_delta(100, 250, 48), 150);
	/* A 48-bit counter wrapping. */
	CU_ASSERT_EQUAL(cbench_counter_delta((1ULL << 48) - 10, 5, 48), 15);
	/* rdpmc sign-extending bit 47 into the upper bits. */
	CU_ASSERT_EQUAL(cbench_counter_delta(0xffff800000000000ULL - 0, 0x0000800000000010ULL, 48),
			0x10);
	CU_ASSERT_EQUAL(cbench_counter_delta(UINT64_MAX - 1, 3, 64), 5);
	CU_ASSERT_EQUAL(cbench_counter_delta(UINT64_MAX - 1, 3, 0), 5);
	CU_ASSERT_EQUAL(cbench_counter_delta((1ULL << 40) - 1, 1, 40), 2);
}

static const struct cbench_sample_rules rules = {
	.cpu = 1,
	.counters = CBENCH_COUNTER_F_INSTRUCTIONS | CBENCH_COUNTER_F_CYCLES,
	.width_bits = { 48, 48, 48 },
	.budget_tsc = 1000,
};

static void clean(void)
{
	struct cbench_edge a = { .tsc = 10, .counters = { 1, (1ULL << 48) - 1, 7 }, .cpu = 1 };
	struct cbench_edge b = { .tsc = 110, .counters = { 51, 9, 99 }, .cpu = 1 };
	struct cbench_ksample s;

	cbench_sample_make(&rules, &a, &b, &s);
	CU_ASSERT_EQUAL(s.tsc, 100);
	CU_ASSERT_EQUAL(s.counters[CBENCH_COUNTER_INSTRUCTIONS], 50);
	CU_ASSERT_EQUAL(s.counters[CBENCH_COUNTER_CYCLES], 10);
	/* Not measured: 0, whatever was read. */
	CU_ASSERT_EQUAL(s.counters[CBENCH_COUNTER_REF_CYCLES], 0);
	CU_ASSERT_EQUAL(s.flags, 0);
	CU_ASSERT_EQUAL(s.cpu, 1);
}

static uint32_t flags_of(const struct cbench_edge *a, const struct cbench_edge *b)
{
	struct cbench_ksample s;

	cbench_sample_make(&rules, a, b, &s);
	return s.flags;
}

static void disturbed(void)
{
	struct cbench_edge a = { .tsc = 0, .nmi_count = 3, .smi_count = 9, .cpu = 1 };
	struct cbench_edge b = a;

	b.tsc = 10;
	CU_ASSERT_EQUAL(flags_of(&a, &b), 0);
	b.nmi_count = 4;
	CU_ASSERT_EQUAL(flags_of(&a, &b), CBENCH_SAMPLE_F_NMI);
	b = a;
	b.smi_count = 10;
	CU_ASSERT_EQUAL(flags_of(&a, &b), CBENCH_SAMPLE_F_SMI);
	b = a;
	b.cpu = 0;
	CU_ASSERT_EQUAL(flags_of(&a, &b), CBENCH_SAMPLE_F_CPU);
	b = a;
	a.cpu = 2;
	CU_ASSERT_EQUAL(flags_of(&a, &b), CBENCH_SAMPLE_F_CPU);
	a.cpu = 1;
	b.inactive = CBENCH_COUNTER_F_CYCLES;
	CU_ASSERT_EQUAL(flags_of(&a, &b), CBENCH_SAMPLE_F_UNSCHEDULED);
	/* An unmeasured counter being inactive does not matter. */
	b.inactive = CBENCH_COUNTER_F_REF_CYCLES;
	CU_ASSERT_EQUAL(flags_of(&a, &b), 0);
	a.inactive = CBENCH_COUNTER_F_INSTRUCTIONS;
	CU_ASSERT_EQUAL(flags_of(&a, &b), CBENCH_SAMPLE_F_UNSCHEDULED);
	a.inactive = 0;
	b = a;
	b.tsc = 1000;
	CU_ASSERT_EQUAL(flags_of(&a, &b), 0);
	b.tsc = 1001;
	CU_ASSERT_EQUAL(flags_of(&a, &b), CBENCH_SAMPLE_F_OVER_BUDGET);
	b.nmi_count = 0;
	b.cpu = 5;
	CU_ASSERT_EQUAL(flags_of(&a, &b), CBENCH_SAMPLE_F_OVER_BUDGET | CBENCH_SAMPLE_F_NMI |
					  CBENCH_SAMPLE_F_CPU);
}

static void least(void)
{
	struct cbench_ksample l = { .tsc = 50, .counters = { 10, 20, 30 } };
	const struct cbench_ksample s = { .tsc = 60, .counters = { 5, 25, 30 } };

	cbench_sample_least(&l, &s);
	CU_ASSERT_EQUAL(l.tsc, 50);
	CU_ASSERT_EQUAL(l.counters[0], 5);
	CU_ASSERT_EQUAL(l.counters[1], 20);
	CU_ASSERT_EQUAL(l.counters[2], 30);
}

static CU_TestInfo sample_tests[] = {
	{ "counter deltas wrap at their width", deltas },
	{ "undisturbed sample", clean },
	{ "each disturbance flagged", disturbed },
	{ "field-wise least", least },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_sample_suites[] = {
	{ "kmod/lib/sample", NULL, NULL, NULL, NULL, sample_tests },
	CU_SUITE_INFO_NULL,
};
