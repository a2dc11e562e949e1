// SPDX-License-Identifier: GPL-2.0
/*
 * Reports stay UTF-8 (report/utf8.c): valid sequences pass as they are;
 * every byte outside one (a Latin-1 path, a cut sequence, an overlong form,
 * a surrogate) becomes the text \xNN, in Go text and in JSON alike.
 */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/json_writer.h"
#include "report/utf8.h"

static void sequences(void)
{
	CU_ASSERT_EQUAL(cbench_utf8_seq((const unsigned char *)"a"), 1);
	CU_ASSERT_EQUAL(cbench_utf8_seq((const unsigned char *)"\xc3\xa9"), 2);	/* é */
	CU_ASSERT_EQUAL(cbench_utf8_seq((const unsigned char *)"\xe2\x82\xac"), 3);	/* € */
	CU_ASSERT_EQUAL(cbench_utf8_seq((const unsigned char *)"\xf0\x9f\x98\x80"), 4);
	CU_ASSERT_EQUAL(cbench_utf8_seq((const unsigned char *)"\xe9"), 0);		/* Latin-1 é */
	CU_ASSERT_EQUAL(cbench_utf8_seq((const unsigned char *)"\xc0\xaf"), 0);	/* overlong / */
	CU_ASSERT_EQUAL(cbench_utf8_seq((const unsigned char *)"\xe0\x80\xaf"), 0);
	CU_ASSERT_EQUAL(cbench_utf8_seq((const unsigned char *)"\xed\xa0\x80"), 0);	/* surrogate */
	CU_ASSERT_EQUAL(cbench_utf8_seq((const unsigned char *)"\xf4\x90\x80\x80"), 0); /* > 10FFFF */
	CU_ASSERT_EQUAL(cbench_utf8_seq((const unsigned char *)"\xe2\x82"), 0);	/* cut by NUL */
	CU_ASSERT_EQUAL(cbench_utf8_seq((const unsigned char *)"\x80"), 0);
}

static void text(void)
{
	char buf[64];
	const char *ok = "/tmp/caf\xc3\xa9/bench.so";

	CU_ASSERT_PTR_EQUAL(cbench_utf8_text(ok, buf, sizeof(buf)), ok);
	CU_ASSERT_STRING_EQUAL(cbench_utf8_text("/tmp/caf\xe9/b.so", buf, sizeof(buf)),
			       "/tmp/caf\\xe9/b.so");
	CU_ASSERT_STRING_EQUAL(cbench_utf8_text("\xc3\xa9\xff\xc3", buf, sizeof(buf)),
			       "\xc3\xa9\\xff\\xc3");
	/* Cut to the buffer, never in the middle of an escape. */
	CU_ASSERT_STRING_EQUAL(cbench_utf8_text("ab\xff\xff", buf, 7), "ab\\xff");
}

static void json(void)
{
	struct cbench_jsonw j;
	char *out = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&out, &n);

	cbench_jsonw_init(&j, f, false);
	cbench_jsonw_object_start(&j, NULL);
	cbench_jsonw_string(&j, "so", "/tmp/caf\xe9/\xc3\xa9\"x\\");
	cbench_jsonw_object_end(&j);
	CU_ASSERT_EQUAL(cbench_jsonw_finish(&j), 0);
	fclose(f);
	CU_ASSERT_STRING_EQUAL(out, "{\"so\":\"/tmp/caf\\\\xe9/\xc3\xa9\\\"x\\\\\"}\n");
	free(out);
}

static CU_TestInfo utf8_tests[] = {
	{ "UTF-8 sequences: valid, overlong, surrogate, cut", sequences },
	{ "a path with a byte outside UTF-8 is escaped", text },
	{ "JSON strings stay UTF-8", json },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_utf8_suites[] = {
	{ "reports are UTF-8", NULL, NULL, NULL, NULL, utf8_tests },
	CU_SUITE_INFO_NULL,
};
