// SPDX-License-Identifier: GPL-2.0
/*
 * The CUnit runner.  Each tests/unit/test_<module>.c defines
 * `CU_SuiteInfo test_<module>_suites[]`, terminated by CU_SUITE_INFO_NULL;
 * the build generates suites.h listing them, so adding a test file needs no
 * edit here.
 *
 * Usage: unit_tests [suite-name-substring]
 */
#include <stdio.h>
#include <string.h>

#include <CUnit/Basic.h>

#define SUITES(name) extern CU_SuiteInfo name[];
#include "suites.h"
#undef SUITES

static CU_SuiteInfo *const all_suites[] = {
#define SUITES(name) name,
#include "suites.h"
#undef SUITES
	NULL,
};

int main(int argc, char *argv[])
{
	const char *filter = argc > 1 ? argv[1] : NULL;
	unsigned int failures;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return CU_get_error();

	for (size_t i = 0; all_suites[i]; i++) {
		for (CU_SuiteInfo *s = all_suites[i]; s->pName; s++) {
			CU_SuiteInfo one[2] = { *s, CU_SUITE_INFO_NULL };

			if (filter && !strstr(s->pName, filter))
				continue;
			if (CU_register_suites(one) != CUE_SUCCESS) {
				fprintf(stderr, "unit_tests: cannot register %s: %s\n",
					s->pName, CU_get_error_msg());
				CU_cleanup_registry();
				return 1;
			}
		}
	}

	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	failures = CU_get_number_of_failures() + CU_get_number_of_suites_failed();
	CU_cleanup_registry();
	return failures ? 1 : 0;
}
