// SPDX-License-Identifier: GPL-2.0
/* The run's context: a command line a shell reads back as it was given. */
#include <string.h>

#include <CUnit/CUnit.h>

#include "report/context.h"

static void command_quoted(void)
{
	char *argv[] = { "/usr/bin/cbenchctl", "run", "--filter", "^add_chain$", "it's",
			 "two words", "line\nbreak", "", NULL };

	cbench_context_init(8, argv);
	CU_ASSERT_STRING_EQUAL(cbench_context()->command,
			       "cbenchctl run --filter '^add_chain$' 'it'\\''s' 'two words' 'line?break' ''");
	/* 2026-11-24T19:58:03Z */
	CU_ASSERT_EQUAL(strlen(cbench_context()->date), 20);
	CU_ASSERT_EQUAL(cbench_context()->date[10], 'T');
	CU_ASSERT_NOT_EQUAL(cbench_context()->host[0], '\0');
}

static void command_cut(void)
{
	static char big[3000];
	char *argv[] = { "cbenchctl", "run", big, NULL };

	memset(big, 'x', sizeof(big) - 1);
	cbench_context_init(3, argv);
	CU_ASSERT_STRING_EQUAL(cbench_context()->command, "cbenchctl run ...");
}

static CU_TestInfo context_tests[] = {
	{ "the command, quoted for a shell", command_quoted },
	{ "a command too long is cut at a word", command_cut },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_context_suites[] = {
	{ "run context", NULL, NULL, NULL, NULL, context_tests },
	CU_SUITE_INFO_NULL,
};
