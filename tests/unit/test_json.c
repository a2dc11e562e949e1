// SPDX-License-Identifier: GPL-2.0
/* The JSON reader: values, escapes, and every kind of bad text. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "report/json.h"

static int parse(const char *text, struct cbench_json **v, char *err, size_t err_bytes)
{
	return cbench_json_parse(text, strlen(text), v, err, err_bytes);
}

static void values_parse(void)
{
	struct cbench_json *v = NULL;
	const struct cbench_json *a;
	char err[128];

	CU_ASSERT_EQUAL_FATAL(parse(" {\"n\": 12345678901234567, \"x\": -1.5e3, \"s\": \"a\\\"b\\n\","
				    " \"t\": true, \"f\": false, \"z\": null, \"a\": [1, [], {}]} ",
				    &v, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(v->type, CBENCH_JSON_OBJECT);
	CU_ASSERT_EQUAL(cbench_json_number(v, "n", 0), 12345678901234567.0);
	CU_ASSERT_EQUAL(cbench_json_number(v, "x", 0), -1500.0);
	CU_ASSERT_STRING_EQUAL(cbench_json_string(v, "s", ""), "a\"b\n");
	CU_ASSERT_TRUE(cbench_json_get(v, "t")->boolean);
	CU_ASSERT_FALSE(cbench_json_get(v, "f")->boolean);
	CU_ASSERT_EQUAL(cbench_json_get(v, "z")->type, CBENCH_JSON_NULL);
	a = cbench_json_get(v, "a");
	CU_ASSERT_EQUAL(a->type, CBENCH_JSON_ARRAY);
	CU_ASSERT_EQUAL(a->n, 3);
	CU_ASSERT_EQUAL(a->items[1].type, CBENCH_JSON_ARRAY);
	CU_ASSERT_EQUAL(a->items[2].type, CBENCH_JSON_OBJECT);
	CU_ASSERT_PTR_NULL(cbench_json_get(v, "absent"));
	CU_ASSERT_EQUAL(cbench_json_number(v, "s", 7), 7);	/* not a number */
	CU_ASSERT_STRING_EQUAL(cbench_json_string(v, "n", "fallback"), "fallback");
	cbench_json_free(v);
}

static void unicode_escapes_become_utf8(void)
{
	struct cbench_json *v = NULL;
	char err[128];

	CU_ASSERT_EQUAL_FATAL(parse("\"\\u00e9\\u20ac\\ud83d\\ude00\"", &v, err, sizeof(err)), 0);
	CU_ASSERT_STRING_EQUAL(v->string, "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
	cbench_json_free(v);
}

static void bad_text_is_refused_with_where(void)
{
	static const char *const bad[] = {
		"", "{", "[1,]", "{\"a\" 1}", "{1: 2}", "tru", "01", "1.", "-", "+1", "0x10",
		"\"abc", "\"\\q\"", "\"\\ud800\"", "\"a\tb\"", "[1] 2", "NaN", "{\"a\": [}",
	};
	struct cbench_json *v = NULL;
	char err[128];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CU_ASSERT_EQUAL(parse(bad[i], &v, err, sizeof(err)), -EINVAL);
		CU_ASSERT_PTR_NOT_NULL(strstr(err, " at line 1, column "));
	}
	CU_ASSERT_EQUAL(parse("{\n  \"a\": x}", &v, err, sizeof(err)), -EINVAL);
	CU_ASSERT_STRING_EQUAL(err, "not a JSON value at line 2, column 8");
}

static void deep_nesting_is_refused(void)
{
	char text[2 * (CBENCH_JSON_MAX_DEPTH + 2) + 1], err[128];
	struct cbench_json *v = NULL;
	size_t n = CBENCH_JSON_MAX_DEPTH + 2;

	memset(text, '[', n);
	memset(text + n, ']', n);
	text[2 * n] = '\0';
	CU_ASSERT_EQUAL(parse(text, &v, err, sizeof(err)), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "nested too deep"));
	/* Just within the limit is fine. */
	n = CBENCH_JSON_MAX_DEPTH;
	memset(text, '[', n);
	memset(text + n, ']', n);
	text[2 * n] = '\0';
	CU_ASSERT_EQUAL(parse(text, &v, err, sizeof(err)), 0);
	cbench_json_free(v);
}

/* 64-bit integers: exact from a whole number up to 2^53 or from a string
 * of digits (how the writer puts those beyond), nothing else. */
static void u64_exact(void)
{
	struct cbench_json *v = NULL;
	uint64_t u = 0;
	char err[128];

	CU_ASSERT_EQUAL_FATAL(parse("{\"big\": \"14568070218695270837\", \"small\": 9007199254740992,"
				    " \"half\": 1.5, \"neg\": -1, \"over\": \"18446744073709551616\","
				    " \"word\": \"12a\", \"huge\": 9007199254740994}", &v, err, sizeof(err)), 0);
	CU_ASSERT_TRUE(cbench_json_u64(v, "big", &u));
	CU_ASSERT_EQUAL(u, UINT64_C(14568070218695270837));
	CU_ASSERT_TRUE(cbench_json_u64(v, "small", &u));
	CU_ASSERT_EQUAL(u, UINT64_C(9007199254740992));
	CU_ASSERT_FALSE(cbench_json_u64(v, "half", &u));
	CU_ASSERT_FALSE(cbench_json_u64(v, "neg", &u));
	CU_ASSERT_FALSE(cbench_json_u64(v, "over", &u));
	CU_ASSERT_FALSE(cbench_json_u64(v, "word", &u));
	/* Beyond 2^53 a number may already be rounded: not taken as exact. */
	CU_ASSERT_FALSE(cbench_json_u64(v, "huge", &u));
	CU_ASSERT_FALSE(cbench_json_u64(v, "absent", &u));
	cbench_json_free(v);
}

static CU_TestInfo json_tests[] = {
	{ "64-bit integers read exactly", u64_exact },
	{ "values parse", values_parse },
	{ "unicode escapes become UTF-8", unicode_escapes_become_utf8 },
	{ "bad text is refused, with where", bad_text_is_refused_with_where },
	{ "deep nesting is refused", deep_nesting_is_refused },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_json_suites[] = {
	{ "json", NULL, NULL, NULL, NULL, json_tests },
	CU_SUITE_INFO_NULL,
};
