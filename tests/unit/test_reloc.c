// SPDX-License-Identifier: GPL-2.0
/* kmod/lib/reloc.c: the checks cbench.ko makes on every uploaded image. */
#include <string.h>

#include <CUnit/CUnit.h>

#include "../kmod/lib/reloc.h"

#define IMAGE_BYTES (4 * 4096)

static uint8_t image[IMAGE_BYTES] __attribute__((aligned(8)));
/* Page 1 is text. */
static const struct cbench_range text[] = { { 4096, 4096 } };

static void put(uint64_t offset, uint64_t value)
{
	memcpy(image + offset, &value, sizeof(value));
}

/* Zeroes the image; each test starts from it. */
static int setup(void)
{
	memset(image, 0, sizeof(image));
	return 0;
}

static enum cbench_check relocs(const uint64_t *slots, uint32_t n, uint32_t *bad)
{
	return cbench_reloc_check(image, IMAGE_BYTES, text, 1, slots, n, bad);
}

static void text_ranges(void)
{
	const struct cbench_range unaligned[] = { { 100, 4096 } };
	const struct cbench_range empty[] = { { 4096, 0 } };
	const struct cbench_range past[] = { { 3 * 4096, 2 * 4096 } };
	const struct cbench_range wrap[] = { { 4096, UINT64_MAX - 4095 } };
	const struct cbench_range overlap[] = { { 0, 8192 }, { 4096, 4096 } };
	const struct cbench_range unsorted[] = { { 8192, 4096 }, { 0, 4096 } };
	const struct cbench_range two[] = { { 0, 4096 }, { 8192, 8192 } };
	uint32_t bad = 99;

	CU_ASSERT_EQUAL(cbench_text_check(IMAGE_BYTES, text, 1, &bad), CBENCH_CHECK_OK);
	CU_ASSERT_EQUAL(cbench_text_check(IMAGE_BYTES, two, 2, &bad), CBENCH_CHECK_OK);
	CU_ASSERT_EQUAL(cbench_text_check(0, text, 1, &bad), CBENCH_CHECK_IMAGE_EMPTY);
	CU_ASSERT_EQUAL(cbench_text_check(IMAGE_BYTES, unaligned, 1, &bad),
			CBENCH_CHECK_TEXT_UNALIGNED);
	CU_ASSERT_EQUAL(cbench_text_check(IMAGE_BYTES, empty, 1, &bad), CBENCH_CHECK_TEXT_UNALIGNED);
	CU_ASSERT_EQUAL(cbench_text_check(IMAGE_BYTES, past, 1, &bad), CBENCH_CHECK_TEXT_OUTSIDE);
	CU_ASSERT_EQUAL(cbench_text_check(IMAGE_BYTES, wrap, 1, &bad), CBENCH_CHECK_TEXT_OUTSIDE);
	CU_ASSERT_EQUAL(cbench_text_check(IMAGE_BYTES, overlap, 2, &bad), CBENCH_CHECK_TEXT_OVERLAP);
	CU_ASSERT_EQUAL(bad, 1);
	CU_ASSERT_EQUAL(cbench_text_check(IMAGE_BYTES, unsorted, 2, &bad),
			CBENCH_CHECK_TEXT_OVERLAP);
}

static void good_relocs(void)
{
	const uint64_t slots[] = { 0, 8, 8192, IMAGE_BYTES - 8 };
	uint32_t bad;

	put(0, 4096);
	put(8, IMAGE_BYTES);	/* one past the end is a valid pointer */
	put(8192, 16);
	CU_ASSERT_EQUAL(relocs(slots, 4, &bad), CBENCH_CHECK_OK);
	CU_ASSERT_EQUAL(relocs(slots, 0, &bad), CBENCH_CHECK_OK);

	cbench_reloc_apply(image, 0xffffc90000000000ULL, slots, 4);
	CU_ASSERT_EQUAL(*(uint64_t *)(image + 0), 0xffffc90000000000ULL + 4096);
	CU_ASSERT_EQUAL(*(uint64_t *)(image + 8), 0xffffc90000000000ULL + IMAGE_BYTES);
	CU_ASSERT_EQUAL(*(uint64_t *)(image + IMAGE_BYTES - 8), 0xffffc90000000000ULL);
}

static void bad_relocs(void)
{
	uint32_t bad = 99;
	const uint64_t unaligned[] = { 0, 12 };
	const uint64_t past[] = { IMAGE_BYTES };
	const uint64_t straddle[] = { IMAGE_BYTES - 4 };
	const uint64_t huge[] = { UINT64_MAX - 7 };
	const uint64_t duplicate[] = { 16, 16 };
	const uint64_t unsorted[] = { 24, 16 };
	const uint64_t in_text[] = { 4096 + 64 };
	const uint64_t target[] = { 32 };

	setup();
	CU_ASSERT_EQUAL(relocs(unaligned, 2, &bad), CBENCH_CHECK_RELOC_UNALIGNED);
	CU_ASSERT_EQUAL(bad, 1);
	CU_ASSERT_EQUAL(relocs(past, 1, &bad), CBENCH_CHECK_RELOC_OUTSIDE);
	CU_ASSERT_EQUAL(relocs(straddle, 1, &bad), CBENCH_CHECK_RELOC_UNALIGNED);
	CU_ASSERT_EQUAL(relocs(huge, 1, &bad), CBENCH_CHECK_RELOC_OUTSIDE);
	CU_ASSERT_EQUAL(relocs(duplicate, 2, &bad), CBENCH_CHECK_RELOC_OVERLAP);
	CU_ASSERT_EQUAL(bad, 1);
	CU_ASSERT_EQUAL(relocs(unsorted, 2, &bad), CBENCH_CHECK_RELOC_OVERLAP);
	CU_ASSERT_EQUAL(relocs(in_text, 1, &bad), CBENCH_CHECK_RELOC_IN_TEXT);
	put(32, IMAGE_BYTES + 1);
	CU_ASSERT_EQUAL(relocs(target, 1, &bad), CBENCH_CHECK_RELOC_TARGET);
	put(32, UINT64_MAX);
	CU_ASSERT_EQUAL(relocs(target, 1, &bad), CBENCH_CHECK_RELOC_TARGET);
	CU_ASSERT_EQUAL(cbench_reloc_check(image, 0, text, 0, target, 1, &bad),
			CBENCH_CHECK_IMAGE_EMPTY);
}

static void entries(void)
{
	static const uint8_t endbr64[] = { 0xf3, 0x0f, 0x1e, 0xfa };

	memcpy(image + 4096, endbr64, 4);
	memcpy(image + 8192 - 4, endbr64, 4);
	memcpy(image + 0, endbr64, 4);
	CU_ASSERT_EQUAL(cbench_entry_check(image, IMAGE_BYTES, text, 1, 4096), CBENCH_CHECK_OK);
	CU_ASSERT_EQUAL(cbench_entry_check(image, IMAGE_BYTES, text, 1, 8192 - 4), CBENCH_CHECK_OK);
	/* endbr64 bytes, but in data. */
	CU_ASSERT_EQUAL(cbench_entry_check(image, IMAGE_BYTES, text, 1, 0),
			CBENCH_CHECK_ENTRY_OUTSIDE);
	/* Runs off the end of text. */
	CU_ASSERT_EQUAL(cbench_entry_check(image, IMAGE_BYTES, text, 1, 8192 - 2),
			CBENCH_CHECK_ENTRY_OUTSIDE);
	CU_ASSERT_EQUAL(cbench_entry_check(image, IMAGE_BYTES, text, 1, UINT64_MAX - 1),
			CBENCH_CHECK_ENTRY_OUTSIDE);
	CU_ASSERT_EQUAL(cbench_entry_check(image, IMAGE_BYTES, text, 1, 4100),
			CBENCH_CHECK_ENTRY_ENDBR);
	CU_ASSERT_EQUAL(cbench_entry_check(image, IMAGE_BYTES, text, 0, 4096),
			CBENCH_CHECK_ENTRY_OUTSIDE);
}

static void words(void)
{
	CU_ASSERT_STRING_EQUAL(cbench_check_str(CBENCH_CHECK_OK), "ok");
	CU_ASSERT_PTR_NOT_NULL(strstr(cbench_check_str(CBENCH_CHECK_ENTRY_ENDBR), "endbr64"));
	CU_ASSERT_STRING_EQUAL(cbench_check_str((enum cbench_check)1000), "unknown check");
}

static CU_TestInfo reloc_tests[] = {
	{ "text ranges", text_ranges },
	{ "valid relocations apply", good_relocs },
	{ "invalid relocations refused", bad_relocs },
	{ "entry points", entries },
	{ "check words", words },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_reloc_suites[] = {
	{ "kmod/lib/reloc", setup, NULL, NULL, NULL, reloc_tests },
	CU_SUITE_INFO_NULL,
};
