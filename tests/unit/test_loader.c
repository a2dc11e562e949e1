// SPDX-License-Identifier: GPL-2.0
/* Descriptor checks and report names. */
#include <errno.h>
#include <link.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "object/loader.h"

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
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "ABI version 4"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "versions 1 to 3"));

	d = good();
	d.desc_bytes = 8;
	CU_ASSERT_EQUAL(cbench_desc_check(&d, err, sizeof(err)), -EINVAL);
	/* ABI 1 descriptors are shorter (no hooks); each version has its size. */
	d = good();
	d.abi_version = 1;
	d.desc_bytes = CBENCH_DESC_V1_BYTES;
	CU_ASSERT_EQUAL(cbench_desc_check(&d, err, sizeof(err)), 0);
	d.desc_bytes = sizeof(struct cbench_desc);
	CU_ASSERT_EQUAL(cbench_desc_check(&d, err, sizeof(err)), -EINVAL);
	d = good();
	d.desc_bytes = CBENCH_DESC_V1_BYTES;
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

	/* Counts that would make per-op figures meaningless: over 2^40. */
	d = good();
	d.ops_per_rep = 1ULL << 40;
	CU_ASSERT_EQUAL(cbench_desc_check(&d, err, sizeof(err)), 0);
	d.ops_per_rep = UINT64_MAX;
	CU_ASSERT_EQUAL(cbench_desc_check(&d, err, sizeof(err)), -ERANGE);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "add_chain has ops_per_rep = 18446744073709551615"));
	d = good();
	d.bytes_per_rep = (1ULL << 40) + 1;
	CU_ASSERT_EQUAL(cbench_desc_check(&d, err, sizeof(err)), -ERANGE);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "bytes_per_rep"));
	{
		static const int64_t sizes[] = { 1024, INT64_MAX };

		d = good();
		d.param_name = "size";
		d.params = sizes;
		d.nparams = 1;
		d.flags = CBENCH_F_BYTES_PER_PARAM;
		d.bytes_per_rep = 1ULL << 30;
		CU_ASSERT_EQUAL(cbench_desc_check(&d, err, sizeof(err)), 0);	/* 2^40 exactly */
		d.nparams = 2;		/* 2^30 x (2^63 - 1) overflows 64 bits */
		CU_ASSERT_EQUAL(cbench_desc_check(&d, err, sizeof(err)), -ERANGE);
		CU_ASSERT_PTR_NOT_NULL(strstr(err, "at size=9223372036854775807"));
	}
}

/* Built by `make examples`, which `make unit` depends on. */
#define SUITE_SO "build/examples/suite.so"

static int find_mapped(struct dl_phdr_info *info, size_t size, void *arg)
{
	return info->dlpi_name && strstr(info->dlpi_name, (const char *)arg) != NULL;
}

/* cbench_library_open() loads in a child: we get copies, never the object. */
static void open_maps_nothing(void)
{
	struct cbench_library lib;
	char err[512] = "";
	int seen = 0;

	CU_ASSERT_EQUAL_FATAL(cbench_library_open(&lib, SUITE_SO, 10, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(dl_iterate_phdr(find_mapped, "examples/suite.so"), 0);
	CU_ASSERT_PTR_NULL(lib.handle);
	CU_ASSERT(lib.nexperiments > 3);
	for (size_t i = 0; i < lib.nexperiments; i++) {
		const struct cbench_experiment *e = &lib.experiments[i];

		CU_ASSERT_PTR_NULL(e->desc->run);
		CU_ASSERT_PTR_NULL(e->desc->setup);
		if (!strcmp(e->id, "copy/size=4096")) {
			CU_ASSERT_STRING_EQUAL(e->report_name, "BenchmarkCopy/size=4096");
			CU_ASSERT_STRING_EQUAL(e->desc->param_name, "size");
			CU_ASSERT(e->desc->bytes_per_rep > 0);
			CU_ASSERT_EQUAL(e->param, 4096);
			seen++;
		}
	}
	CU_ASSERT_EQUAL(seen, 1);
	cbench_library_close(&lib);
}

/* A worker finds its experiment by id, and refuses one that changed. */
static void worker_finds_experiment(void)
{
	struct cbench_library listed, live;
	struct cbench_experiment want;
	struct cbench_desc changed;
	const struct cbench_experiment *found = NULL;
	char err[512] = "";

	CU_ASSERT_EQUAL_FATAL(cbench_library_open(&listed, SUITE_SO, 10, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(cbench_library_load(&live, SUITE_SO, err, sizeof(err)), 0);
	for (size_t i = 0; i < listed.nexperiments; i++) {
		CU_ASSERT_EQUAL(cbench_experiment_find(&live, &listed.experiments[i], &found, err,
						       sizeof(err)), 0);
		CU_ASSERT_PTR_NOT_NULL(found->desc->run);
		CU_ASSERT_STRING_EQUAL(found->id, listed.experiments[i].id);
	}
	want = listed.experiments[0];
	changed = *want.desc;
	changed.ops_per_rep += 7;
	want.desc = &changed;
	CU_ASSERT_EQUAL(cbench_experiment_find(&live, &want, &found, err, sizeof(err)), -ESTALE);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "differently"));
	want = listed.experiments[0];
	strcpy(want.id, "no_such_benchmark");
	CU_ASSERT_EQUAL(cbench_experiment_find(&live, &want, &found, err, sizeof(err)), -ESTALE);
	cbench_library_close(&live);
	cbench_library_close(&listed);
}

/*
 * Per-rep hooks survive the copy made in the loading child as a flag (the
 * copy holds no code), and a worker's live descriptor has them as code.
 */
static void per_rep_copies(void)
{
	struct cbench_library listed, live;
	const struct cbench_experiment *found = NULL;
	char err[512] = "";
	size_t hooked = 0;

	CU_ASSERT_EQUAL_FATAL(cbench_library_open(&listed, "build/examples/per_rep.so", 10, err,
						  sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(cbench_library_load(&live, "build/examples/per_rep.so", err,
						  sizeof(err)), 0);
	for (size_t i = 0; i < listed.nexperiments; i++) {
		const struct cbench_desc *d = listed.experiments[i].desc;

		CU_ASSERT_PTR_NULL(d->before_rep);
		CU_ASSERT_TRUE(cbench_desc_per_rep(d));
		CU_ASSERT_EQUAL_FATAL(cbench_experiment_find(&live, &listed.experiments[i], &found,
							     err, sizeof(err)), 0);
		CU_ASSERT_PTR_NOT_NULL(found->desc->before_rep);
		CU_ASSERT_FALSE(found->desc->flags & CBENCH_DESC_F_PER_REP);
		hooked += cbench_desc_per_rep(found->desc);
	}
	CU_ASSERT_EQUAL(hooked, listed.nexperiments);
	cbench_library_close(&live);
	cbench_library_close(&listed);
	CU_ASSERT_EQUAL_FATAL(cbench_library_open(&listed, SUITE_SO, 10, err, sizeof(err)), 0);
	for (size_t i = 0; i < listed.nexperiments; i++)
		CU_ASSERT_FALSE(cbench_desc_per_rep(listed.experiments[i].desc));
	cbench_library_close(&listed);
}

/* Benchmarks come out in source order, whatever order the section has. */
static void source_order(void)
{
	static const char *const first[] = { "add_chain", "imul_chain", "divide_chain", "copy/size=64" };
	struct cbench_library lib;
	char err[256];

	CU_ASSERT_EQUAL_FATAL(cbench_library_open(&lib, SUITE_SO, 10, err, sizeof(err)), 0);
	CU_ASSERT_TRUE_FATAL(lib.nexperiments >= 4);
	for (size_t i = 0; i < 4; i++)
		CU_ASSERT_STRING_EQUAL(lib.experiments[i].id, first[i]);
	cbench_library_close(&lib);
}

static CU_TestInfo loader_tests[] = {
	{ "per-rep hooks: a flag in copies, code in the worker", per_rep_copies },
	{ "loading in a child maps nothing here", open_maps_nothing },
	{ "a worker finds and checks its experiment", worker_finds_experiment },
	{ "CamelCase report names", camel },
	{ "benchmarks in source order", source_order },
	{ "descriptor checks", checks },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_loader_suites[] = {
	{ "loader", NULL, NULL, NULL, NULL, loader_tests },
	CU_SUITE_INFO_NULL,
};
