// SPDX-License-Identifier: GPL-2.0
/*
 * The text-or-JSON printer (report/print.c): the same calls give the text
 * and the JSON of each typed value, nested objects and arrays, and the
 * text-only and JSON-only escapes.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "report/print.h"

/* Every kind of call, once each, in one document. */
static void document(struct cbench_print *p)
{
	cbench_print_object_start(p, NULL);
	cbench_print_string(p, "name", "name %s", "a \"quoted\" name");
	cbench_print_uint(p, "count", ", %" PRIu64 " of", 42u);
	cbench_print_uint(p, "big", " %" PRIu64, UINT64_C(18014398509481985));
	cbench_print_int(p, "offset", ", offset %+" PRId64, -7);
	cbench_print_double(p, "ratio", ", ratio %.2f", 0.125);
	cbench_print_double(p, "spread", ", spread %.1f", NAN);
	cbench_print_bool(p, "on", true, ", on", ", off");
	cbench_print_bool(p, "off", false, NULL, ", not off");
	cbench_print_null(p, "limit", ", no limit");
	cbench_print_null(p, "quiet", NULL);
	cbench_print_text(p, "\n");
	cbench_print_object_start(p, "inner");
	cbench_print_array_start(p, "items");
	for (int i = 0; i < 3; i++)
		cbench_print_uint(p, NULL, i ? ", %" PRIu64 : "items %" PRIu64, i);
	cbench_print_array_end(p);
	cbench_print_array_start(p, "none");
	cbench_print_array_end(p);
	cbench_print_object_end(p);
	cbench_print_text(p, " (%d in all)\n", 3);
	cbench_print_json_uint(p, "u", 1);
	cbench_print_json_int(p, "i", -1);
	cbench_print_json_double(p, "d", 1.5);
	cbench_print_json_string(p, "s", "json only");
	cbench_print_json_bool(p, "b", true);
	cbench_print_object_end(p);
}

static char *render(bool json, int *ret)
{
	struct cbench_print p;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	CU_ASSERT_FATAL(f != NULL);
	cbench_print_init(&p, f, json);
	document(&p);
	*ret = cbench_print_finish(&p);
	fclose(f);
	return text;
}

static void text_mode(void)
{
	int ret;
	char *text = render(false, &ret);

	CU_ASSERT_EQUAL(ret, 0);
	CU_ASSERT_STRING_EQUAL(text, "name a \"quoted\" name, 42 of 18014398509481985, offset -7, "
			       "ratio 0.12, spread nan, on, not off, no limit\n"
			       "items 0, 1, 2 (3 in all)\n");
	free(text);
}

static void json_mode(void)
{
	int ret;
	char *text = render(true, &ret);

	CU_ASSERT_EQUAL(ret, 0);
	CU_ASSERT_STRING_EQUAL(text,
			       "{\n"
			       "  \"name\": \"a \\\"quoted\\\" name\",\n"
			       "  \"count\": 42,\n"
			       "  \"big\": \"18014398509481985\",\n"
			       "  \"offset\": -7,\n"
			       "  \"ratio\": 0.125,\n"
			       "  \"spread\": null,\n"
			       "  \"on\": true,\n"
			       "  \"off\": false,\n"
			       "  \"limit\": null,\n"
			       "  \"quiet\": null,\n"
			       "  \"inner\": {\n"
			       "    \"items\": [\n"
			       "      0,\n"
			       "      1,\n"
			       "      2\n"
			       "    ],\n"
			       "    \"none\": []\n"
			       "  },\n"
			       "  \"u\": 1,\n"
			       "  \"i\": -1,\n"
			       "  \"d\": 1.5,\n"
			       "  \"s\": \"json only\",\n"
			       "  \"b\": true\n"
			       "}\n");
	free(text);
}

/* A value of a narrower type is widened before it is read back. */
static void widened(void)
{
	struct cbench_print p;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	uint32_t u32 = 4000000000u;
	int negative = -2;
	float half = 0.5f;

	CU_ASSERT_FATAL(f != NULL);
	cbench_print_init(&p, f, true);
	cbench_print_array_start(&p, NULL);
	cbench_print_uint(&p, NULL, "%" PRIu64, u32);
	cbench_print_int(&p, NULL, "%" PRId64, negative);
	cbench_print_double(&p, NULL, "%g", half);
	cbench_print_array_end(&p);
	CU_ASSERT_EQUAL(cbench_print_finish(&p), 0);
	fclose(f);
	CU_ASSERT_STRING_EQUAL(text, "[\n  4000000000,\n  -2,\n  0.5\n]\n");
	free(text);
}

/* A stream that failed says so at the end, in either mode. */
static void failed_stream(void)
{
	for (int json = 0; json < 2; json++) {
		struct cbench_print p;
		FILE *f = fopen("/dev/full", "we");

		CU_ASSERT_FATAL(f != NULL);
		setvbuf(f, NULL, _IONBF, 0);
		cbench_print_init(&p, f, json);
		cbench_print_object_start(&p, NULL);
		cbench_print_string(&p, "k", "%s\n", "v");
		cbench_print_object_end(&p);
		CU_ASSERT_EQUAL(cbench_print_finish(&p), -EIO);
		fclose(f);
	}
}

static CU_TestInfo print_tests[] = {
	{ "text: each call's format with its value", text_mode },
	{ "JSON: each call's key and typed value, nested", json_mode },
	{ "values widened to the JSON's types", widened },
	{ "a failed stream is reported", failed_stream },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_print_suites[] = {
	{ "print", NULL, NULL, NULL, NULL, print_tests },
	CU_SUITE_INFO_NULL,
};
