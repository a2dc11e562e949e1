// SPDX-License-Identifier: GPL-2.0
/* Named parameters: declarations read, expanded, named and refused. */
#include <errno.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "error.h"
#include "object/loader.h"
#include "object/params.h"

static void noop(struct cbench_ctx *ctx, uint64_t reps)
{
}

static struct cbench_desc with_keys(const struct cbench_key *keys, uint32_t nkeys)
{
	return (struct cbench_desc){
		.abi_version = CBENCH_ABI_VERSION, .desc_bytes = sizeof(struct cbench_desc),
		.name = "hash", .run = noop, .keys = keys, .nkeys = nkeys,
	};
}

/* Reads and checks d: 0 and p filled, or the error with err. */
static int load(const struct cbench_desc *d, struct cbench_params *p, char *err, size_t len)
{
	int ret = cbench_params_read(d, NULL, NULL, p, err, len);

	return ret ? ret : cbench_params_check(d, p, err, len);
}

static void name_of(const struct cbench_params *p, uint32_t s, char *buf, size_t len)
{
	CU_ASSERT_TRUE(cbench_params_name(p, s, buf, len) > 0);
}

static const struct cbench_desc hash_desc = {
	.abi_version = CBENCH_ABI_VERSION, .desc_bytes = sizeof(struct cbench_desc),
	.name = "hash", .run = noop,
	CBENCH_KEYS(CBENCH_STRS("algo", "fnv1a", "djb2"), CBENCH_RANGE("len", 8, 4096, 8)),
};

static void product_in_order(void)
{
	/* As a user writes them, through the header's macros. */
	struct cbench_params p;
	struct cbench_arg args[CBENCH_KEYS_MAX];
	char err[CBENCH_ERR_LEN], name[CBENCH_PARAMS_NAME_MAX];

	CU_ASSERT_EQUAL_FATAL(load(&hash_desc, &p, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(p.nkeys, 2);
	CU_ASSERT_EQUAL(p.nsets, 8);
	CU_ASSERT_FALSE(p.listed);
	name_of(&p, 0, name, sizeof(name));
	CU_ASSERT_STRING_EQUAL(name, "/algo=fnv1a/len=8");
	name_of(&p, 1, name, sizeof(name));	/* the last key varies fastest */
	CU_ASSERT_STRING_EQUAL(name, "/algo=fnv1a/len=64");
	name_of(&p, 7, name, sizeof(name));
	CU_ASSERT_STRING_EQUAL(name, "/algo=djb2/len=4096");
	CU_ASSERT_EQUAL(cbench_params_args(&p, 5, args), 2);
	CU_ASSERT_STRING_EQUAL(args[0].key, "algo");
	CU_ASSERT_STRING_EQUAL(args[0].str, "djb2");
	CU_ASSERT_EQUAL(args[0].i, 1);		/* a string's index */
	CU_ASSERT_STRING_EQUAL(args[1].key, "len");
	CU_ASSERT_PTR_NULL(args[1].str);
	CU_ASSERT_EQUAL(args[1].i, 64);
	{
		/* What a benchmark reads, through the header's accessors. */
		struct cbench_ctx ctx = { .args = args, .nargs = 2 };

		CU_ASSERT_EQUAL(cbench_int(&ctx, "len"), 64);
		CU_ASSERT_STRING_EQUAL(cbench_str(&ctx, "algo"), "djb2");
		CU_ASSERT_PTR_NULL(cbench_str(&ctx, "len"));
		CU_ASSERT_EQUAL(cbench_int(&ctx, "nope"), 0);
		CU_ASSERT_PTR_NULL(cbench_arg(&ctx, "nope"));
	}
	cbench_params_free(&p);
}

/* The first of nkeys keys' values, as a list of integers. */
static void expect_ints(const struct cbench_key *k, uint32_t nkeys, const int64_t *want, uint32_t n)
{
	struct cbench_desc d = with_keys(k, nkeys);
	struct cbench_params p;
	char err[CBENCH_ERR_LEN];

	if (load(&d, &p, err, sizeof(err)))
		fprintf(stderr, "\n%s\n", err);
	CU_ASSERT_EQUAL_FATAL(load(&d, &p, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(p.keys[0].count, n);
	for (uint32_t i = 0; i < n && i < p.keys[0].count; i++)
		CU_ASSERT_EQUAL(p.keys[0].ints[i], want[i]);
	cbench_params_free(&p);
}

static const struct cbench_key r1[] = { CBENCH_RANGE("n", 8, 4096, 8) };
static const int64_t w1[] = { 8, 64, 512, 4096 };
static const struct cbench_key r2[] = { CBENCH_RANGE("n", 10, 100, 8) };
static const int64_t w2[] = { 10, 64, 100 };
static const struct cbench_key r3[] = { CBENCH_RANGE("n", 1, 1, 2) };
static const int64_t w3[] = { 1 };
static const struct cbench_key d1[] = { CBENCH_DENSE("align", 0, 64, 16) };
static const int64_t wd1[] = { 0, 16, 32, 48, 64 };
static const struct cbench_key d2[] = { CBENCH_DENSE("n", 1, 6, 2) };
static const int64_t wd2[] = { 1, 3, 5 };
static const struct cbench_key d3[] = { CBENCH_DENSE("n", INT64_MAX - 3, INT64_MAX, 2) };
static const int64_t wd3[] = { INT64_MAX - 3, INT64_MAX - 1 };
static const struct cbench_key r4[] = { CBENCH_RANGE("n", 1, INT64_MAX, 1 << 20) };
/* From the least int64 to the largest in 2^62 steps: hi - v overflows an int64. */
static const struct cbench_key d4[] = { CBENCH_DENSE("n", INT64_MIN, INT64_MAX, 1LL << 62),
					CBENCH_INTS("m", 1) };
static const int64_t wd4[] = { INT64_MIN, -(1LL << 62), 0, 1LL << 62 };

static void ranges(void)
{
	/* Google Benchmark's Range: the powers of the multiplier between. */

	expect_ints(r1, 1, w1, 4);
	expect_ints(r2, 1, w2, 3);
	expect_ints(r3, 1, w3, 1);
	expect_ints(d1, 1, wd1, 5);
	expect_ints(d2, 1, wd2, 3);
	expect_ints(d3, 1, wd3, 2);
	expect_ints(d4, 2, wd4, 4);
	{
		/* Up to the largest int64 without overflowing: 1, 2^20, 2^40, 2^60, max. */
		static const int64_t w4[] = { 1, 1LL << 20, 1LL << 40, 1LL << 60, INT64_MAX };

		expect_ints(r4, 1, w4, 5);
	}
}

/* d is refused with an error that says `what`. */
static void refused(const struct cbench_desc *d, const char *what)
{
	struct cbench_params p;
	char err[CBENCH_ERR_LEN] = "";
	int ret = load(d, &p, err, sizeof(err));

	CU_ASSERT_TRUE(ret < 0);
	if (!strstr(err, what))
		fprintf(stderr, "\nwanted \"%s\" in: %s\n", what, err);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, what));
	cbench_params_free(&p);
	/* The loader's own check says the same. */
	CU_ASSERT_TRUE(cbench_desc_check(d, err, sizeof(err)) < 0);
}

static const struct cbench_key twice[] = { CBENCH_INTS("n", 1), CBENCH_INTS("n", 2) };
static const struct cbench_key space[] = { CBENCH_STRS("algo", "a b"), CBENCH_INTS("n", 1) };
static const struct cbench_key slash[] = { CBENCH_STRS("algo", "a/b"), CBENCH_INTS("n", 1) };
static const struct cbench_key equals[] = { CBENCH_STRS("algo", "a=b"), CBENCH_INTS("n", 1) };
static const struct cbench_key empty[] = { CBENCH_STRS("algo", ""), CBENCH_INTS("n", 1) };
static const struct cbench_key procs[] = { CBENCH_INTS("n", 1), CBENCH_STRS("algo", "crc-32") };
static const struct cbench_key negative[] = { CBENCH_INTS("n", 4, -1) };
static const struct cbench_key endless[] = { CBENCH_RANGE("n", 1, 100, 1) };
static const struct cbench_key zero_start[] = { CBENCH_RANGE("n", 0, 100, 2) };
static const struct cbench_key no_step[] = { CBENCH_DENSE("n", 0, 100, 0) };
static const struct cbench_key backwards[] = { CBENCH_DENSE("n", 10, 0, 1) };
static const struct cbench_key too_many[] = { CBENCH_DENSE("n", 0, 1000, 1) };
static const struct cbench_key huge[] = { CBENCH_DENSE("a", 0, 63, 1), CBENCH_DENSE("b", 0, 63, 1),
					  CBENCH_DENSE("c", 0, 1, 1) };
static const struct cbench_key bad_name[] = { CBENCH_INTS("not a key", 1) };
static const struct cbench_key dup_value[] = { CBENCH_STRS("algo", "x", "x"), CBENCH_INTS("n", 1) };
static const struct cbench_key bad_kind[] = { { .name = "n", .kind = 99 } };
static const struct cbench_key strs_only[] = { CBENCH_STRS("algo", "x") };
static const int64_t one[] = { 1 };

static void bad_declarations(void)
{
	struct cbench_desc d;

	refused((d = with_keys(twice, 2), &d), "declares key n twice");
	refused((d = with_keys(space, 2), &d), "\"a b\" would break its Go benchmark name");
	refused((d = with_keys(slash, 2), &d), "\"a/b\"");
	refused((d = with_keys(equals, 2), &d), "\"a=b\"");
	refused((d = with_keys(empty, 2), &d), "would break");
	/* The value as declared: a string alone, an integer alone. */
	refused((d = with_keys(procs, 2), &d), "(algo=crc-32): benchstat would read it as GOMAXPROCS");
	refused((d = with_keys(negative, 1), &d), "(n=-1): benchstat would read it as GOMAXPROCS");
	refused((d = with_keys(endless, 1), &d), "CBENCH_RANGE(1, 100, 1), which never ends");
	refused((d = with_keys(zero_start, 1), &d), "starts below 1");
	refused((d = with_keys(no_step, 1), &d), "CBENCH_DENSE(0, 100, 0), which never ends");
	refused((d = with_keys(backwards, 1), &d), "is empty");
	refused((d = with_keys(too_many, 1), &d), "key n has more than 64 values");
	refused((d = with_keys(huge, 3), &d), "more than 4096 combinations");
	refused((d = with_keys(bad_name, 1), &d), "not an identifier");
	refused((d = with_keys(dup_value, 2), &d), "lists a value twice");
	refused((d = with_keys(bad_kind, 1), &d), "unknown kind 99");
	refused((d = with_keys(twice, 0), &d), "declares 0 keys");
	refused((d = with_keys(twice, CBENCH_KEYS_MAX + 1), &d), "CBENCH_KEYS takes 1 to 8");
	d = with_keys(strs_only, 1);
	d.flags = CBENCH_F_BYTES_PER_PARAM;
	d.bytes_per_rep = 1;
	refused(&d, "all its keys take strings");
	d = with_keys(strs_only, 1);
	d.param_name = "size";
	d.params = one;
	d.nparams = 1;
	refused(&d, "declare its parameters once");
	d = with_keys(NULL, 0);
	d.sets = one;
	d.nset_values = 1;
	refused(&d, "declares no CBENCH_KEYS");
}

static const struct cbench_desc copy_desc = {
	.abi_version = CBENCH_ABI_VERSION, .desc_bytes = sizeof(struct cbench_desc),
	.name = "copy", .run = noop,
	CBENCH_KEYS(CBENCH_INTS("size", 64, 4096), CBENCH_STRS("mode", "aligned", "odd"),
		    CBENCH_DENSE("align", 0, 8, 8)),
	CBENCH_SETS(4096, 1, 8, 64, 0, 0),
};
static const struct cbench_key copy_keys[] = { CBENCH_INTS("size", 64, 4096), CBENCH_STRS("mode", "a") };

static void listed_sets(void)
{
	struct cbench_params p;
	struct cbench_desc bad;
	char err[CBENCH_ERR_LEN], name[CBENCH_PARAMS_NAME_MAX];

	CU_ASSERT_EQUAL_FATAL(load(&copy_desc, &p, err, sizeof(err)), 0);
	CU_ASSERT_TRUE(p.listed);
	CU_ASSERT_EQUAL(p.nsets, 2);
	name_of(&p, 0, name, sizeof(name));
	CU_ASSERT_STRING_EQUAL(name, "/size=4096/mode=odd/align=8");
	name_of(&p, 1, name, sizeof(name));
	CU_ASSERT_STRING_EQUAL(name, "/size=64/mode=aligned/align=0");
	cbench_params_free(&p);

	bad = with_keys(copy_keys, 2);
	bad.sets = (const int64_t[]){ 64, 0, 4096 };
	bad.nset_values = 3;
	refused(&bad, "gives 3 values for 2 keys");
	bad.sets = (const int64_t[]){ 100, 0 };
	bad.nset_values = 2;
	refused(&bad, "set 1 gives size 100, which is not among the key's values");
	bad.sets = (const int64_t[]){ 64, 1 };
	refused(&bad, "set 1 gives mode 1");
	bad.sets = (const int64_t[]){ 64, 0, 64, 0 };
	bad.nset_values = 4;
	refused(&bad, "the same set twice");
}

/* ABI 1 and 2's one parameter is one integer key, names unchanged. */
static const int64_t sizes[] = { 64, -1 };

static void old_parameter(void)
{
	struct cbench_desc d = {
		.abi_version = 2, .desc_bytes = CBENCH_DESC_V2_BYTES, .name = "copy", .run = noop,
		.param_name = "size", .params = sizes, .nparams = 2,
	};
	struct cbench_params p;
	char err[CBENCH_ERR_LEN], name[CBENCH_PARAMS_NAME_MAX];

	CU_ASSERT_EQUAL_FATAL(load(&d, &p, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(p.nkeys, 1);
	CU_ASSERT_EQUAL(p.nsets, 2);
	name_of(&p, 1, name, sizeof(name));
	CU_ASSERT_STRING_EQUAL(name, "/size=-1");	/* as it always was */
	cbench_params_free(&p);
	d.nparams = 0;
	d.param_name = NULL;
	CU_ASSERT_EQUAL(load(&d, &p, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(cbench_params_nsets(&p), 1);
	cbench_params_free(&p);
}

/* The loader refuses what lies outside the object, through its readable(). */
static bool nothing_readable(const void *arg, const void *p, size_t bytes)
{
	return false;
}

static const struct cbench_key one_key[] = { CBENCH_INTS("n", 1) };

static void pointers_checked(void)
{
	struct cbench_desc d = with_keys(one_key, 1);
	struct cbench_params p;
	char err[CBENCH_ERR_LEN];

	CU_ASSERT_EQUAL(cbench_params_read(&d, nothing_readable, NULL, &p, err, sizeof(err)), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "outside the object"));
	cbench_params_free(&p);
}

static CU_TestInfo params_tests[] = {
	{ "keys' product, last key fastest, read by name", product_in_order },
	{ "ranges and dense ranges", ranges },
	{ "bad declarations refused, naming them", bad_declarations },
	{ "CBENCH_SETS lists the sets to run", listed_sets },
	{ "ABI 1 and 2's one parameter", old_parameter },
	{ "pointers outside the object refused", pointers_checked },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_params_suites[] = {
	{ "params", NULL, NULL, NULL, NULL, params_tests },
	CU_SUITE_INFO_NULL,
};
