// SPDX-License-Identifier: GPL-2.0
/* Descriptor checks and report names. */
#include <errno.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "loader.h"

static void noop(struct cbench_ctx *ctx, uint64_t reps)
{
}

static struct cbench_desc good(void)
{
	return (struct cbench_desc){
		.abi_version = CBENCH_ABI_VERSION,
		.desc_bytes = sizeof(struct cbench_desc),
		.name = "add_chain",
		.run = noop,
	};
}

static void camel(void)
{
	char out[64];

	cbench_camel_name("add_chain", out, sizeof(out));
	CU_ASSERT_STRING_EQUAL(out, "AddChain");
	cbench_camel_name("memcpy", out, sizeof(out));
	CU_ASSERT_STRING_EQUAL(out, "Memcpy");
	cbench_camel_name("_x__y2", out, sizeof(out));
	CU_ASSERT_STRING_EQUAL(out, "XY2");
	cbench_camel_name("abcdef", out, 4);
	CU_ASSERT_STRING_EQUAL(out, "Abc");
}

static void checks(void)
{
	static const int64_t params[] = { 1, 2 };
	struct cbench_desc d = good();
	char err[256];

	CU_ASSERT_EQUAL(cbench_desc_check(&d, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(cbench_desc_check(NULL, err, sizeof(err)), -EINVAL);

	d.abi_version = CBENCH_ABI_VERSION + 1;
	CU_ASSERT_EQUAL(cbench_desc_check(&d, err, sizeof(err)), -EPROTO);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "ABI version 2"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "versions 1 to 1"));

	d = good();
	d.desc_bytes = 8;
	CU_ASSERT_EQUAL(cbench_desc_check(&d, err, sizeof(err)), -EINVAL);
	d = good();
	d.abi_version = 0;
	CU_ASSERT_EQUAL(cbench_desc_check(&d, err, sizeof(err)), -EINVAL);
	d = good();
	d.name = NULL;
	CU_ASSERT_EQUAL(cbench_desc_check(&d, err, sizeof(err)), -EINVAL);
	d.name = "1abc";
	CU_ASSERT_EQUAL(cbench_desc_check(&d, err, sizeof(err)), -EINVAL);
	d.name = "has space";
	CU_ASSERT_EQUAL(cbench_desc_check(&d, err, sizeof(err)), -EINVAL);
	d = good();
	d.run = NULL;
	CU_ASSERT_EQUAL(cbench_desc_check(&d, err, sizeof(err)), -EINVAL);
	d = good();
	d.flags = 1u << 31;
	CU_ASSERT_EQUAL(cbench_desc_check(&d, err, sizeof(err)), -EINVAL);
	d = good();
	d.nparams = 2;
	CU_ASSERT_EQUAL(cbench_desc_check(&d, err, sizeof(err)), -EINVAL);	/* no values */
	d.params = params;
	CU_ASSERT_EQUAL(cbench_desc_check(&d, err, sizeof(err)), -EINVAL);	/* no name */
	d.param_name = "size";
	CU_ASSERT_EQUAL(cbench_desc_check(&d, err, sizeof(err)), 0);
	d.nparams = CBENCH_PARAMS_MAX + 1;
	CU_ASSERT_EQUAL(cbench_desc_check(&d, err, sizeof(err)), -EINVAL);

	/* Bytes per parameter need positive parameters. */
	{
		static const int64_t sizes[] = { 64, -4096 };

		d = good();
		d.param_name = "size";
		d.params = sizes;
		d.nparams = 1;
		d.flags = CBENCH_F_BYTES_PER_PARAM;
		d.bytes_per_rep = 1;
		CU_ASSERT_EQUAL(cbench_desc_check(&d, err, sizeof(err)), 0);
		d.nparams = 2;
		CU_ASSERT_EQUAL(cbench_desc_check(&d, err, sizeof(err)), -EINVAL);
		CU_ASSERT_PTR_NOT_NULL(strstr(err, "size=-4096"));
		d.flags = 0;	/* a plain sweep may go negative */
		CU_ASSERT_EQUAL(cbench_desc_check(&d, err, sizeof(err)), 0);
	}
}

static CU_TestInfo loader_tests[] = {
	{ "CamelCase report names", camel },
	{ "descriptor checks", checks },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_loader_suites[] = {
	{ "loader", NULL, NULL, NULL, NULL, loader_tests },
	CU_SUITE_INFO_NULL,
};
