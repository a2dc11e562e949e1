// SPDX-License-Identifier: GPL-2.0
/*
 * The selftest's table of known answers (machine/known.c): the rows a CPU
 * finds by CPUID vendor, family and model, and none where the table cannot
 * know the answer (another vendor, a hybrid Intel part, an unknown model).
 */
#include <CUnit/CUnit.h>
#include <math.h>
#include <string.h>

#include "machine/known.h"

static double expect(const char *check, const char *vendor, unsigned int family, unsigned int model)
{
	struct cbench_known_value v;

	return cbench_known_lookup(check, vendor, family, model, &v) ? v.value : NAN;
}

static void amd_zen(void)
{
	/* Zen 3 (family 19h model 01h, the EPYC this was written on) and Zen 4. */
	CU_ASSERT_EQUAL(expect("add", "AuthenticAMD", 0x19, 0x01), 1);
	CU_ASSERT_EQUAL(expect("imul", "AuthenticAMD", 0x19, 0x11), 3);
	CU_ASSERT_EQUAL(expect("crc32", "AuthenticAMD", 0x19, 0x61), 3);
	CU_ASSERT_EQUAL(expect("popcnt", "AuthenticAMD", 0x17, 0x31), 1);
	CU_ASSERT_EQUAL(expect("l1", "AuthenticAMD", 0x1a, 0x02), 4);
	CU_ASSERT_DOUBLE_EQUAL(expect("add-throughput", "AuthenticAMD", 0x19, 0x01), 0.25, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(expect("add-throughput", "AuthenticAMD", 0x1a, 0x44), 1.0 / 6, 1e-12);
	/* Before Zen: no row. */
	CU_ASSERT(isnan(expect("add", "AuthenticAMD", 0x15, 0x02)));
}

static void intel_core(void)
{
	/* popcnt is 3 cycles on Intel; the L1 chase 4 on Skylake, 5 since Ice Lake. */
	CU_ASSERT_EQUAL(expect("popcnt", "GenuineIntel", 6, 0x55), 3);
	CU_ASSERT_EQUAL(expect("l1", "GenuineIntel", 6, 0x5e), 4);
	CU_ASSERT_EQUAL(expect("l1", "GenuineIntel", 6, 0x6a), 5);
	CU_ASSERT_DOUBLE_EQUAL(expect("add-throughput", "GenuineIntel", 6, 0x8f), 0.2, 1e-12);
	/* Hybrid Alder Lake: its E-cores differ, so no row at all. */
	CU_ASSERT(isnan(expect("l1", "GenuineIntel", 6, 0x97)));
	CU_ASSERT(isnan(expect("imul", "GenuineIntel", 6, 0x9a)));
	/* An Atom (Tremont): no row. */
	CU_ASSERT(isnan(expect("imul", "GenuineIntel", 6, 0x86)));
}

static void unknown(void)
{
	struct cbench_known_value v;

	CU_ASSERT_FALSE(cbench_known_lookup("add", "HygonGenuine", 0x18, 0, &v));
	CU_ASSERT_FALSE(cbench_known_lookup("no-such-check", "AuthenticAMD", 0x19, 1, &v));
	/* QEMU's TCG CPU, as the VM tests have it. */
	CU_ASSERT_FALSE(cbench_known_lookup("add", "AuthenticAMD", 15, 107, &v));
	/* Every check the selftest runs has a row on a Zen 3, with a source. */
	for (unsigned int i = 0; i < cbench_known_nchecks; i++) {
		CU_ASSERT_TRUE(cbench_known_lookup(cbench_known_checks[i].name, "AuthenticAMD", 0x19, 1, &v));
		CU_ASSERT_PTR_NOT_NULL(strstr(v.source, "uops.info"));
		CU_ASSERT(cbench_known_checks[i].tolerance > 0 && cbench_known_checks[i].tolerance < 0.1);
	}
}

static CU_TestInfo known_tests[] = {
	{ "AMD Zen rows", amd_zen },
	{ "Intel Core rows, none for hybrid parts", intel_core },
	{ "no row: measured only", unknown },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_known_suites[] = {
	{ "selftest known answers", NULL, NULL, NULL, NULL, known_tests },
	CU_SUITE_INFO_NULL,
};
