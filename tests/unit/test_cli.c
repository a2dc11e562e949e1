// SPDX-License-Identifier: GPL-2.0
/* Placeholder-free smoke test: the build's version string is set. */
#include <string.h>

#include <CUnit/CUnit.h>

static void version_is_set(void)
{
	CU_ASSERT(strlen(CBENCH_VERSION) > 0);
}

static CU_TestInfo cli_tests[] = {
	{ "version string is set", version_is_set },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_cli_suites[] = {
	{ "cli", NULL, NULL, NULL, NULL, cli_tests },
	CU_SUITE_INFO_NULL,
};
