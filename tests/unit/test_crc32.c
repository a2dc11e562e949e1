// SPDX-License-Identifier: GPL-2.0
/* kmod/lib/crc32.c: the CRC-32 cbench.ko checks every upload against. */
#include <string.h>

#include <CUnit/CUnit.h>

#include "../kmod/lib/crc32.h"

/* The check values of CRC-32/ISO-HDLC (zlib's crc32()), from Python's zlib. */
static void known_values(void)
{
	uint8_t ramp[4096];

	for (size_t i = 0; i < sizeof(ramp); i++)
		ramp[i] = (uint8_t)i;
	CU_ASSERT_EQUAL(cbench_crc32(0, "123456789", 9), 0xcbf43926);
	CU_ASSERT_EQUAL(cbench_crc32(0, "", 0), 0);
	CU_ASSERT_EQUAL(cbench_crc32(0, "a", 1), 0xe8b7be43);
	CU_ASSERT_EQUAL(cbench_crc32(0, ramp, sizeof(ramp)), 0xa2912082);
}

/* Fed in pieces, as the module does a megabyte at a time, it is the same. */
static void in_pieces(void)
{
	uint8_t bytes[1000];
	uint32_t whole;

	for (size_t i = 0; i < sizeof(bytes); i++)
		bytes[i] = (uint8_t)(i * 7 + 3);
	whole = cbench_crc32(0, bytes, sizeof(bytes));
	for (size_t cut = 0; cut <= sizeof(bytes); cut += 37)
		CU_ASSERT_EQUAL(cbench_crc32(cbench_crc32(0, bytes, cut), bytes + cut,
					     sizeof(bytes) - cut), whole);
}

/* Every single bit flipped, and two bytes swapped, change it. */
static void sees_a_change(void)
{
	uint8_t bytes[256];
	uint32_t whole;

	for (size_t i = 0; i < sizeof(bytes); i++)
		bytes[i] = (uint8_t)(i ^ 0x5a);
	whole = cbench_crc32(0, bytes, sizeof(bytes));
	for (size_t bit = 0; bit < 8 * sizeof(bytes); bit++) {
		bytes[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		CU_ASSERT_NOT_EQUAL(cbench_crc32(0, bytes, sizeof(bytes)), whole);
		bytes[bit / 8] ^= (uint8_t)(1u << (bit % 8));
	}
	bytes[10] ^= bytes[11];
	bytes[11] ^= bytes[10];
	bytes[10] ^= bytes[11];
	CU_ASSERT_NOT_EQUAL(cbench_crc32(0, bytes, sizeof(bytes)), whole);
}

static CU_TestInfo crc32_tests[] = {
	{ "zlib's check values", known_values },
	{ "the same fed in pieces", in_pieces },
	{ "any one bit changed, or two bytes swapped, shows", sees_a_change },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_crc32_suites[] = {
	{ "image CRC-32", NULL, NULL, NULL, NULL, crc32_tests },
	CU_SUITE_INFO_NULL,
};
