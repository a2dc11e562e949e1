// SPDX-License-Identifier: GPL-2.0
/*
 * kmod/lib/abi.h mirrors struct cbench_ctx for the module, which cannot
 * include <cbench.h>; the two must agree field by field.
 */
#include <stddef.h>

#include <CUnit/CUnit.h>

#include <cbench.h>

#include "../kmod/lib/abi.h"

static void ctx_mirror(void)
{
	CU_ASSERT_EQUAL(CBENCH_KABI_VERSION, CBENCH_ABI_VERSION);
	CU_ASSERT_EQUAL(sizeof(struct cbench_kctx), sizeof(struct cbench_ctx));
	CU_ASSERT_EQUAL(offsetof(struct cbench_kctx, arena), offsetof(struct cbench_ctx, arena));
	CU_ASSERT_EQUAL(offsetof(struct cbench_kctx, arena_bytes),
			offsetof(struct cbench_ctx, arena_bytes));
	CU_ASSERT_EQUAL(offsetof(struct cbench_kctx, param), offsetof(struct cbench_ctx, param));
	CU_ASSERT_EQUAL(offsetof(struct cbench_kctx, reserved),
			offsetof(struct cbench_ctx, reserved));
	CU_ASSERT_EQUAL(sizeof(((struct cbench_kctx *)0)->reserved),
			sizeof(((struct cbench_ctx *)0)->reserved));
}

static CU_TestInfo abi_tests[] = {
	{ "cbench_kctx mirrors cbench_ctx", ctx_mirror },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_abi_suites[] = {
	{ "kmod/lib/abi", NULL, NULL, NULL, NULL, abi_tests },
	CU_SUITE_INFO_NULL,
};
