// SPDX-License-Identifier: GPL-2.0
/* The measuring subcommands' shared options (options.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "session/options.h"

#define ARGC(a) ((int)(sizeof(a) / sizeof((a)[0])) - 1)

enum { OPT_FLAG = CBENCH_OPT_OWN, OPT_VALUE };

/* What take() saw. */
struct seen {
	int flags;
	const char *value;
	const char *format;
	int backend_calls;
};

static int take(void *opts, int id, const char *arg, FILE *err)
{
	struct seen *s = opts;

	switch (id) {
	case OPT_FLAG:
		s->flags++;
		return 0;
	case OPT_VALUE:
		if (!strcmp(arg, "bad"))
			return cbench_option_refuse(err, "--value", "a good value", arg);
		s->value = arg;
		return 0;
	case CBENCH_OPT_FORMAT:
		s->format = arg;
		return 0;
	case CBENCH_OPT_BACKEND:
		s->backend_calls++;
		return 0;
	default:
		return -EINVAL;
	}
}

static const struct option own[] = {
	{ "flag", no_argument, NULL, OPT_FLAG },
	{ "value", required_argument, NULL, OPT_VALUE },
	{ NULL, 0, NULL, 0 },
};

/* Parses argv with every shared field given a place, err into *text. */
static int parse(char **argv, int argc, const struct cbench_option_fields *fields, struct seen *s,
		 char **text)
{
	size_t len = 0;
	FILE *err = open_memstream(text, &len);
	int ret;

	CU_ASSERT_PTR_NOT_NULL_FATAL(err);
	ret = cbench_options_parse(argc, argv, fields, own, take, s, err);
	fclose(err);
	return ret;
}

static void shared_and_own(void)
{
	char *argv[] = { "x", "--filter", "add", "--flag", "-o", "out", "--backend", "user",
			 "--value", "v", "--cpu", "3", "--format", "json", "--flag", "a.so", NULL };
	enum cbench_backend_kind backend = CBENCH_BACKEND_AUTO;
	const char *filter = NULL, *output = NULL;
	int cpu = -1;
	const struct cbench_option_fields fields = {
		.filter = &filter, .backend = &backend, .cpu = &cpu, .output = &output,
	};
	struct seen s = { 0 };
	char *text = NULL;

	CU_ASSERT_EQUAL(parse(argv, ARGC(argv), &fields, &s, &text), 0);
	CU_ASSERT_STRING_EQUAL(filter, "add");
	CU_ASSERT_STRING_EQUAL(output, "out");
	CU_ASSERT_EQUAL(backend, CBENCH_BACKEND_USER);
	CU_ASSERT_EQUAL(cpu, 3);
	CU_ASSERT_EQUAL(s.flags, 2);
	CU_ASSERT_STRING_EQUAL(s.value, "v");
	CU_ASSERT_STRING_EQUAL(s.format, "json");
	CU_ASSERT_EQUAL(s.backend_calls, 0);
	CU_ASSERT_EQUAL(optind, ARGC(argv) - 1);
	CU_ASSERT_STRING_EQUAL(text, "");
	free(text);
}

/* A shared option without a field is the subcommand's own to take. */
static void field_left_out(void)
{
	char *argv[] = { "x", "--backend", "kmod", "a.so", NULL };
	const struct cbench_option_fields fields = { 0 };
	struct seen s = { 0 };
	char *text = NULL;

	CU_ASSERT_EQUAL(parse(argv, ARGC(argv), &fields, &s, &text), 0);
	CU_ASSERT_EQUAL(s.backend_calls, 1);
	free(text);
}

#define CHECK_REFUSED(argv, fields, want)						\
	do {										\
		struct seen s = { 0 };							\
		char *text = NULL;							\
											\
		CU_ASSERT_EQUAL(parse(argv, ARGC(argv), fields, &s, &text), -EINVAL);	\
		CU_ASSERT_PTR_NOT_NULL(text && strstr(text, want));			\
		free(text);								\
	} while (0)

static void refusals(void)
{
	char *unknown[] = { "x", "--frobnicate", NULL };
	char *incomplete[] = { "x", "--value", NULL };
	char *cpu[] = { "x", "--cpu", "1.0", NULL };
	char *cpu_big[] = { "x", "--cpu", "1024", NULL };
	char *backend[] = { "x", "--backend", "fast", NULL };
	char *own_bad[] = { "x", "--value", "bad", NULL };
	enum cbench_backend_kind kind;
	int n;
	const struct cbench_option_fields fields = { .backend = &kind, .cpu = &n };

	CHECK_REFUSED(unknown, &fields, "unknown or incomplete option '--frobnicate'");
	CHECK_REFUSED(incomplete, &fields, "unknown or incomplete option '--value'");
	CHECK_REFUSED(cpu, &fields, ": --cpu wants a CPU number, not '1.0'\n");
	CHECK_REFUSED(cpu_big, &fields, ": --cpu wants a CPU number, not '1024'\n");
	CHECK_REFUSED(backend, &fields, ": --backend must be user, kmod or auto, not 'fast'\n");
	CHECK_REFUSED(own_bad, &fields, ": --value wants a good value, not 'bad'\n");
}

static void help(void)
{
	char *argv[] = { "x", "--flag", "-h", "--frobnicate", NULL };
	const struct cbench_option_fields fields = { 0 };
	struct seen s = { 0 };
	char *text = NULL;

	CU_ASSERT_EQUAL(parse(argv, ARGC(argv), &fields, &s, &text), 1);
	free(text);
}

/* "a", "a or b", "a, b or c": the list a refusal names. */
static void word_lists(void)
{
	static const char *const one[] = { "go", NULL };
	static const char *const two[] = { "go", "json", NULL };
	static const char *const three[] = { "text", "json", "folded", NULL };
	char *text = NULL;
	size_t len = 0;
	FILE *err = open_memstream(&text, &len);

	CU_ASSERT_PTR_NOT_NULL_FATAL(err);
	CU_ASSERT_EQUAL(cbench_option_word("--format", "json", two, err), 1);
	CU_ASSERT_EQUAL(cbench_option_word("--format", "folded", three, err), 2);
	CU_ASSERT_EQUAL(cbench_option_word("--format", "x", one, err), -EINVAL);
	CU_ASSERT_EQUAL(cbench_option_word("--format", "x", two, err), -EINVAL);
	CU_ASSERT_EQUAL(cbench_option_word("--format", "JSON", three, err), -EINVAL);
	fclose(err);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, ": --format must be go, not 'x'\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, ": --format must be go or json, not 'x'\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, ": --format must be text, json or folded, not 'JSON'\n"));
	free(text);
}

static void numbers_and_cpus(void)
{
	double v;
	int cpu = -1;

	CU_ASSERT_EQUAL(cbench_parse_number("2.5", &v), 0);
	CU_ASSERT_DOUBLE_EQUAL(v, 2.5, 0);
	CU_ASSERT_EQUAL(cbench_parse_number("-1e3", &v), 0);
	CU_ASSERT_DOUBLE_EQUAL(v, -1000, 0);
	CU_ASSERT_EQUAL(cbench_parse_number("inf", &v), -EINVAL);
	CU_ASSERT_EQUAL(cbench_parse_number("nan", &v), -EINVAL);
	CU_ASSERT_EQUAL(cbench_parse_number("1s", &v), -EINVAL);
	CU_ASSERT_EQUAL(cbench_parse_number("", &v), -EINVAL);
	CU_ASSERT_EQUAL(cbench_parse_number("1e999", &v), -EINVAL);

	CU_ASSERT_EQUAL(cbench_option_cpu("4095", 4096, &cpu, stderr), 0);
	CU_ASSERT_EQUAL(cpu, 4095);
	CU_ASSERT_EQUAL(cbench_option_cpu("0", 1, &cpu, stderr), 0);
	CU_ASSERT_EQUAL(cpu, 0);
}

/* Counts each of many own options by its id. */
static int count_many(void *opts, int id, const char *arg, FILE *err)
{
	int *seen = opts;

	if (id < CBENCH_OPT_OWN || id >= CBENCH_OPT_OWN + 40)
		return -EINVAL;
	seen[id - CBENCH_OPT_OWN]++;
	return 0;
}

/* A subcommand with more own options than ever before loses none of them. */
static void many_own(void)
{
	static char names[40][8];
	struct option many[41] = { { 0 } };
	char *argv[] = { "x", "--o0", "--o16", "--o17", "--o39", "--filter", "a", "a.so", NULL };
	const char *filter = NULL;
	const struct cbench_option_fields fields = { .filter = &filter };
	int seen[40] = { 0 };

	for (int i = 0; i < 40; i++) {
		snprintf(names[i], sizeof(names[i]), "o%d", i);
		many[i] = (struct option){ names[i], no_argument, NULL, CBENCH_OPT_OWN + i };
	}
	CU_ASSERT_EQUAL(cbench_options_parse(ARGC(argv), argv, &fields, many, count_many, seen, stderr), 0);
	CU_ASSERT_EQUAL(seen[0], 1);
	CU_ASSERT_EQUAL(seen[16], 1);
	CU_ASSERT_EQUAL(seen[17], 1);
	CU_ASSERT_EQUAL(seen[39], 1);
	CU_ASSERT_STRING_EQUAL(filter, "a");
	CU_ASSERT_EQUAL(optind, ARGC(argv) - 1);
}

static CU_TestInfo options_tests[] = {
	{ "shared options into their fields, own ones to take()", shared_and_own },
	{ "a shared option without a field goes to take()", field_left_out },
	{ "refusals say which option and why", refusals },
	{ "--help stops the loop", help },
	{ "a refusal lists the words", word_lists },
	{ "numbers and CPU numbers", numbers_and_cpus },
	{ "every own option is read, however many", many_own },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_options_suites[] = {
	{ "options", NULL, NULL, NULL, NULL, options_tests },
	CU_SUITE_INFO_NULL,
};
