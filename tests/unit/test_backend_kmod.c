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
#include "loader.h"

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

/* setup() runs with preemption off in ring 0: a slow one never gets there. */
static void slow_setup_refused(void)
{
	struct cbench_library lib;
	char err[512];
	int seen = 0;

	CU_ASSERT_EQUAL_FATAL(cbench_library_load(&lib, FIXTURE("slow_setup"), err, sizeof(err)), 0);
	for (size_t i = 0; i < lib.nexperiments; i++) {
		const struct cbench_experiment *e = &lib.experiments[i];
		uint64_t setup_ns = 0;
		int ret = cbench_kmod_try_in_user_mode(e, &setup_ns);

		if (!strcmp(e->desc->name, "slow_setup")) {
			CU_ASSERT_EQUAL(ret, -ETIME);
			CU_ASSERT(setup_ns > CBENCH_KMOD_SETUP_MAX_NS);
			seen++;
		} else if (!strcmp(e->desc->name, "quick_setup")) {
			CU_ASSERT_EQUAL(ret, 0);
			CU_ASSERT(setup_ns < CBENCH_KMOD_SETUP_MAX_NS);
			seen++;
		}
	}
	CU_ASSERT_EQUAL(seen, 2);
	cbench_library_close(&lib);
}

static CU_TestInfo backend_kmod_tests[] = {
	{ "a setup() too slow for ring 0 is refused in user mode", slow_setup_refused },
	{ "without cbench.ko: kmod refused, auto is user", without_module },
	{ "objects checked before ring 0", object_check },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_backend_kmod_suites[] = {
	{ "backend_kmod", NULL, NULL, NULL, NULL, backend_kmod_tests },
	CU_SUITE_INFO_NULL,
};
