// SPDX-License-Identifier: GPL-2.0
/*
 * Choosing the kmod backend: what `--backend kmod|auto` do where cbench.ko
 * is not loaded (as on every build machine), and the object check that
 * decides whether an object may go to ring 0.
 */
#include <errno.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "backend.h"

#define FIXTURE(name) CBENCH_FIXTURE_DIR "/" name ".so"

static void without_module(void)
{
	const struct cbench_backend_ops *ops = NULL;

	/* On a machine with cbench.ko loaded (and us root) there is nothing to check. */
	if (cbench_backend_kmod_available())
		return;
	CU_ASSERT_EQUAL(cbench_backend_select(CBENCH_BACKEND_KMOD, &ops), -ENODEV);
	CU_ASSERT_EQUAL(cbench_backend_select(CBENCH_BACKEND_AUTO, &ops), 0);
	CU_ASSERT_PTR_EQUAL(ops, &cbench_backend_user);
	CU_ASSERT_STRING_EQUAL(cbench_backend_kmod.name, "kmod");
}

static void object_check(void)
{
	char why[512];

	CU_ASSERT_EQUAL(cbench_backend_kmod_check(FIXTURE("good"), why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(cbench_backend_kmod_check(FIXTURE("bad_libc_call"), why, sizeof(why)),
			-EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "strlen"));
}

static CU_TestInfo backend_kmod_tests[] = {
	{ "without cbench.ko: kmod refused, auto is user", without_module },
	{ "objects checked before ring 0", object_check },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_backend_kmod_suites[] = {
	{ "backend_kmod", NULL, NULL, NULL, NULL, backend_kmod_tests },
	CU_SUITE_INFO_NULL,
};
