// SPDX-License-Identifier: GPL-2.0
/*
 * kimage against fixture objects built by the Makefile (tests/fixtures/):
 * the good one becomes a checked image, each bad one is refused with a
 * message that names the problem and the fix.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "object/kimage.h"
#include "../kmod/lib/reloc.h"

#define FIXTURE(name) CBENCH_FIXTURE_DIR "/" name ".so"

static void good_image(void)
{
	const struct cbench_kimage_entry *add, *call;
	struct cbench_kimage image;
	char why[512];
	uint32_t bad;

	CU_ASSERT_EQUAL_FATAL(cbench_kimage_load(FIXTURE("good"), &image, why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(image.image_bytes % 4096, 0);
	CU_ASSERT(image.ntext >= 1);
	CU_ASSERT_EQUAL(image.nentries, 2);
	/* 2 descriptor pointers, 2x(name, run), setup, params, param_name, table pointers, GOT. */
	CU_ASSERT(image.nrelocs >= 10);

	add = cbench_kimage_find(&image, "add_chain");
	call = cbench_kimage_find(&image, "call_global");
	CU_ASSERT_PTR_NOT_NULL_FATAL(add);
	CU_ASSERT_PTR_NOT_NULL_FATAL(call);
	CU_ASSERT_FALSE(add->has_setup);
	CU_ASSERT_TRUE(call->has_setup);
	CU_ASSERT_EQUAL(add->nparams, 0);
	CU_ASSERT_EQUAL(call->arena_bytes, 4096);
	CU_ASSERT_EQUAL(call->nparams, 3);
	CU_ASSERT_EQUAL(call->params[0], 1);
	CU_ASSERT_EQUAL(call->params[2], 3);
	CU_ASSERT_EQUAL(cbench_entry_check(image.bytes, image.image_bytes, image.text, image.ntext,
					   add->run), CBENCH_CHECK_OK);
	CU_ASSERT_EQUAL(cbench_entry_check(image.bytes, image.image_bytes, image.text, image.ntext,
					   call->setup), CBENCH_CHECK_OK);
	CU_ASSERT_EQUAL(cbench_reloc_check(image.bytes, image.image_bytes, image.text, image.ntext,
					   image.relocs, image.nrelocs, &bad), CBENCH_CHECK_OK);
	CU_ASSERT_PTR_NULL(cbench_kimage_find(&image, "missing"));

	/* Relocating at a base and reading a slot back gives base + target. */
	cbench_reloc_apply(image.bytes, 0x100000, image.relocs, image.nrelocs);
	for (uint32_t i = 0; i < image.nrelocs; i++) {
		uint64_t v;

		memcpy(&v, image.bytes + image.relocs[i], sizeof(v));
		CU_ASSERT(v >= 0x100000 && v <= 0x100000 + image.image_bytes);
	}
	cbench_kimage_free(&image);
	CU_ASSERT_PTR_NULL(image.bytes);
}

/* Loading name fails with -EINVAL and every one of the words in its message. */
static void refused(const char *path, const char *word1, const char *word2)
{
	struct cbench_kimage image;
	char why[512];

	CU_ASSERT_EQUAL(cbench_kimage_load(path, &image, why, sizeof(why)), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, word1));
	CU_ASSERT_PTR_NOT_NULL(strstr(why, word2));
	CU_ASSERT_PTR_NULL(image.bytes);
}

static void stack_protector(void)
{
	refused(FIXTURE("bad_stack_protector"), "__stack_chk_fail", "-fno-stack-protector");
}

static void libc_call(void)
{
	refused(FIXTURE("bad_libc_call"), "'strlen'", "cbench-kernel");
}

static void tls(void)
{
	refused(FIXTURE("bad_tls"), "thread-local", "__thread");
}

static void ifunc(void)
{
	refused(FIXTURE("bad_ifunc"), "'bump'", "IFUNC");
}

static void no_endbr(void)
{
	refused(FIXTURE("bad_no_endbr"), "plain", "-fcf-protection=branch");
}

static void no_benchmarks(void)
{
	refused(FIXTURE("bad_no_benchmarks"), "no benchmarks", "CBENCH()");
}

/* Loads path, whose code check must refuse it naming word1 and word2. */
static void code_refused(const char *path, const char *word1, const char *word2)
{
	struct cbench_kimage image;
	char why[600];

	CU_ASSERT_EQUAL_FATAL(cbench_kimage_load(path, &image, why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(cbench_kimage_check_code(&image, path, why, sizeof(why)), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, word1));
	CU_ASSERT_PTR_NOT_NULL(strstr(why, word2));
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "in_ring0()"));
	cbench_kimage_free(&image);
}

/*
 * Instructions only ring 0 would run: refused before upload, naming the
 * function and the instruction; every kernel-safe fixture passes the check,
 * those that misbehave in ring 0 only by what they compute included.
 */
static void code_check(void)
{
	static const char *const pass[] = { "good", "per_rep", "tpoints", "faulting", "stuck",
					    "ring0_only", "deep_stack", "hostile" };
	struct cbench_kimage image;
	char why[600];

	code_refused(FIXTURE("bad_int3_long"), "int $3 (cd 03)", "__builtin_trap()");
	code_refused(FIXTURE("bad_syscall"), "syscall", "system instruction");
	static const char *const examples[] = { "suite", "audit", "known", "long_loop", "per_rep",
						"placement", "profile" };
	size_t n = sizeof(pass) / sizeof(pass[0]);

	for (size_t i = 0; i < n + sizeof(examples) / sizeof(examples[0]); i++) {
		char path[256];

		if (i < n)
			snprintf(path, sizeof(path), "%s/%s.so", CBENCH_FIXTURE_DIR, pass[i]);
		else
			snprintf(path, sizeof(path), "build/examples/%s.kernel.so", examples[i - n]);
		CU_ASSERT_EQUAL_FATAL(cbench_kimage_load(path, &image, why, sizeof(why)), 0);
		CU_ASSERT(image.nfuncs > 0);
		CU_ASSERT_EQUAL(cbench_kimage_check_code(&image, path, why, sizeof(why)), 0);
		if (why[0])
			fprintf(stderr, "kimage: %s\n", why);
		cbench_kimage_free(&image);
	}
}

static void not_elf(void)
{
	/* A C source file is no ELF object. */
	refused("tests/kfixtures/good.c", "not an ELF", "good.c");
}

static void missing_file(void)
{
	struct cbench_kimage image;
	char why[256];

	CU_ASSERT_EQUAL(cbench_kimage_load(FIXTURE("does_not_exist"), &image, why, sizeof(why)),
			-ENOENT);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "does_not_exist"));
}

/* Per-rep hooks become entry points, checked like run(); absent is absent. */
static void per_rep_hooks(void)
{
	const struct cbench_kimage_entry *e;
	struct cbench_kimage image;
	char why[512] = "";

	CU_ASSERT_EQUAL_FATAL(cbench_kimage_load(FIXTURE("per_rep"), &image, why, sizeof(why)), 0);
	e = cbench_kimage_find(&image, "fresh_input");
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_TRUE(e->has_before_rep && e->has_after_rep);
	CU_ASSERT_NOT_EQUAL(e->before_rep, e->after_rep);
	CU_ASSERT_NOT_EQUAL(e->before_rep, e->run);
	CU_ASSERT(e->before_rep < image.image_bytes && e->after_rep < image.image_bytes);
	e = cbench_kimage_find(&image, "after_fails");
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_TRUE(!e->has_before_rep && e->has_after_rep);
	cbench_kimage_free(&image);
	CU_ASSERT_EQUAL_FATAL(cbench_kimage_load(FIXTURE("good"), &image, why, sizeof(why)), 0);
	for (size_t i = 0; i < image.nentries; i++)
		CU_ASSERT_FALSE(image.entries[i].has_before_rep || image.entries[i].has_after_rep);
	cbench_kimage_free(&image);
}

/* Timing points are inline asm: an image like any other; ABI 1 beside 2. */
static void tpoints_image(void)
{
	struct cbench_kimage image;
	char why[512];

	CU_ASSERT_EQUAL_FATAL(cbench_kimage_load(FIXTURE("tpoints"), &image, why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(image.nentries, 2);
	CU_ASSERT_PTR_NOT_NULL(cbench_kimage_find(&image, "looped"));
	CU_ASSERT_PTR_NOT_NULL(cbench_kimage_find(&image, "abi1"));
	cbench_kimage_free(&image);
}

static CU_TestInfo kimage_tests[] = {
	{ "per-rep hooks are checked entry points", per_rep_hooks },
	{ "timing points build a kernel-safe image (ABI 1 and 2)", tpoints_image },
	{ "kernel-safe object becomes a checked image", good_image },
	{ "stack protector refused", stack_protector },
	{ "libc call refused, symbol named", libc_call },
	{ "thread-local storage refused", tls },
	{ "IFUNC refused", ifunc },
	{ "entry without endbr64 refused", no_endbr },
	{ "object without benchmarks refused", no_benchmarks },
	{ "instructions only ring 0 would run refused", code_check },
	{ "non-ELF file refused", not_elf },
	{ "missing file reports errno", missing_file },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_kimage_suites[] = {
	{ "kimage", NULL, NULL, NULL, NULL, kimage_tests },
	CU_SUITE_INFO_NULL,
};
