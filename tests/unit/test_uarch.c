// SPDX-License-Identifier: GPL-2.0
/*
 * The core identified from CPUID dumps (machine/uarch.c): this development
 * VM's own, dumped, and the leaves of real parts and guests constructed
 * from the vendors' CPUID encoding and each part's published features,
 * caches and TLBs (each file of tests/cpuid says which).  The features and the caches decide,
 * the model number only confirms: a guest that reports a desktop's model
 * with AMX is still Sapphire Rapids, a hybrid part's core type picks its
 * core, and a core the table lacks keeps its vendor line.
 */
#include <CUnit/CUnit.h>
#include <string.h>

#include "cpuid_dump.h"
#include "machine/uarch.h"

#define KIB 1024ull
#define MIB (1024 * KIB)

static void emerald_rapids_guest(void)
{
	struct cbench_core c;

	cpuid_dump_identify("emr-kvm", &c);
	CU_ASSERT_EQUAL(c.cpu.family, 6);
	CU_ASSERT_EQUAL(c.cpu.model, 0xcf);
	CU_ASSERT_EQUAL(c.uarch, CBENCH_UARCH_GOLDEN_COVE_SP);
	CU_ASSERT_EQUAL(c.line, CBENCH_LINE_INTEL_CORE);
	CU_ASSERT_STRING_EQUAL(c.hypervisor, "KVMKVMKVM");
	CU_ASSERT(c.features & CBENCH_FEAT_AVX512_FP16);
	CU_ASSERT_FALSE(c.features & CBENCH_FEAT_AMX_TILE);	/* KVM hides it here */
	CU_ASSERT_EQUAL(c.l1d_bytes, 48 * KIB);
	CU_ASSERT_EQUAL(c.l2_bytes, 2 * MIB);
	CU_ASSERT_EQUAL(c.l3_bytes, 260 * MIB);
	CU_ASSERT_EQUAL(c.stlb_entries, 0);			/* no leaf 18H in the guest */
	CU_ASSERT_PTR_NOT_NULL(strstr(c.how, "AMX hidden"));
	CU_ASSERT_PTR_NOT_NULL(strstr(c.how, "model 0xcf agrees"));
}

static void sapphire_and_emerald_rapids(void)
{
	struct cbench_core c;

	cpuid_dump_identify("spr", &c);
	CU_ASSERT_EQUAL(c.uarch, CBENCH_UARCH_GOLDEN_COVE_SP);
	CU_ASSERT(c.features & CBENCH_FEAT_AMX_TILE);
	CU_ASSERT_PTR_NOT_NULL(strstr(c.how, "AMX-TILE and AVX512-FP16"));
	CU_ASSERT_EQUAL(c.stlb_entries, 2048);			/* leaf 18H: 1024 + 1024 */
	cpuid_dump_identify("emr", &c);
	CU_ASSERT_EQUAL(c.uarch, CBENCH_UARCH_GOLDEN_COVE_SP);
	CU_ASSERT_EQUAL(c.l2_bytes, 2 * MIB);
	CU_ASSERT_EQUAL(c.stlb_entries, 2048);
	CU_ASSERT_STRING_EQUAL(c.hypervisor, "");
}

/* The guest DESIGN.md met: a Rocket Lake's model number over Sapphire Rapids' features. */
static void guest_with_a_desktop_model(void)
{
	struct cbench_core c;

	cpuid_dump_identify("spr-vm-167", &c);
	CU_ASSERT_EQUAL(c.cpu.model, 167);
	CU_ASSERT_EQUAL(c.uarch, CBENCH_UARCH_GOLDEN_COVE_SP);
	CU_ASSERT_PTR_NOT_NULL(strstr(c.how, "model 0xa7 is Sunny Cove"));
	CU_ASSERT_PTR_NOT_NULL(strstr(c.how, "overrule"));
}

static void skylake(void)
{
	struct cbench_core c;

	cpuid_dump_identify("skylake-sp", &c);
	CU_ASSERT_EQUAL(c.uarch, CBENCH_UARCH_SKYLAKE_SP);
	CU_ASSERT_EQUAL(c.l2_bytes, 1 * MIB);
	cpuid_dump_identify("skylake", &c);
	CU_ASSERT_EQUAL(c.uarch, CBENCH_UARCH_SKYLAKE);
	CU_ASSERT_EQUAL(c.l2_bytes, 256 * KIB);
	CU_ASSERT_PTR_NOT_NULL(strstr(c.how, "agrees"));
}

/* A hybrid part: the core type of the CPU the dump was taken on decides. */
static void alder_lake_hybrid(void)
{
	struct cbench_core p, e;

	cpuid_dump_identify("alder-lake-p", &p);
	cpuid_dump_identify("alder-lake-e", &e);
	CU_ASSERT_TRUE(p.cpu.hybrid);
	CU_ASSERT_EQUAL(p.uarch, CBENCH_UARCH_GOLDEN_COVE);
	CU_ASSERT_EQUAL(p.line, CBENCH_LINE_INTEL_CORE);
	CU_ASSERT_EQUAL(p.l1d_bytes, 48 * KIB);
	CU_ASSERT_EQUAL(e.uarch, CBENCH_UARCH_GRACEMONT);
	CU_ASSERT_EQUAL(e.line, CBENCH_LINE_INTEL_ATOM);
	CU_ASSERT_EQUAL(e.l1d_bytes, 32 * KIB);
	CU_ASSERT_EQUAL(e.l2_bytes, 2 * MIB);			/* per module of four */
	CU_ASSERT_PTR_NOT_NULL(strstr(e.how, "E-core"));
}

/* Cores the table lacks: their vendor line, for its line-wide values. */
static void unknown_intel_cores(void)
{
	struct cbench_core c;

	cpuid_dump_identify("granite-rapids", &c);
	CU_ASSERT_EQUAL(c.uarch, CBENCH_UARCH_UNKNOWN);
	CU_ASSERT_EQUAL(c.line, CBENCH_LINE_INTEL_CORE);
	CU_ASSERT_PTR_NOT_NULL(strstr(c.how, "AMX-FP16"));
	cpuid_dump_identify("arrow-lake-p", &c);
	CU_ASSERT_TRUE(c.cpu.hybrid);
	CU_ASSERT_EQUAL(c.uarch, CBENCH_UARCH_UNKNOWN);
	CU_ASSERT_EQUAL(c.line, CBENCH_LINE_INTEL_CORE);
	CU_ASSERT_PTR_NOT_NULL(strstr(c.how, "no P-core of model 0xc6"));
}

static void zens(void)
{
	static const struct {
		const char *dump;
		enum cbench_uarch uarch;
		uint64_t l2_bytes, l3_bytes;
		uint32_t stlb;
	} zen[] = {
		{ "zen2", CBENCH_UARCH_ZEN2, 512 * KIB, 16 * MIB, 2048 },
		{ "zen3", CBENCH_UARCH_ZEN3, 512 * KIB, 96 * MIB, 2048 },	/* an X3D */
		{ "zen4", CBENCH_UARCH_ZEN4, 1 * MIB, 32 * MIB, 3072 },
		{ "zen5", CBENCH_UARCH_ZEN5, 1 * MIB, 32 * MIB, 0 },	/* its leaf reads 128 */
	};

	for (size_t i = 0; i < sizeof(zen) / sizeof(zen[0]); i++) {
		struct cbench_core c;

		cpuid_dump_identify(zen[i].dump, &c);
		CU_ASSERT_EQUAL(c.line, CBENCH_LINE_AMD_ZEN);
		CU_ASSERT_EQUAL(c.uarch, zen[i].uarch);
		CU_ASSERT_EQUAL(c.l1d_bytes, i == 3 ? 48 * KIB : 32 * KIB);
		CU_ASSERT_EQUAL(c.l2_bytes, zen[i].l2_bytes);
		CU_ASSERT_EQUAL(c.l3_bytes, zen[i].l3_bytes);
		CU_ASSERT_EQUAL(c.stlb_entries, zen[i].stlb);
	}
}

/* The VM tests' CPU: an emulator's timings are no core's, whatever it claims. */
static void emulator(void)
{
	struct cbench_core c;

	cpuid_dump_identify("qemu64-tcg", &c);
	CU_ASSERT_STRING_EQUAL(c.hypervisor, "TCGTCGTCGTCG");
	CU_ASSERT_EQUAL(c.line, CBENCH_LINE_NONE);
	CU_ASSERT_EQUAL(c.uarch, CBENCH_UARCH_UNKNOWN);
	CU_ASSERT_PTR_NOT_NULL(strstr(c.how, "TCG emulates"));
}

/* --core: what a name picks, and what the report then says. */
static void forced(void)
{
	enum cbench_line line;
	enum cbench_uarch uarch;
	struct cbench_core c;

	CU_ASSERT_EQUAL(cbench_core_parse("zen4", &line, &uarch), 0);
	CU_ASSERT_EQUAL(uarch, CBENCH_UARCH_ZEN4);
	CU_ASSERT_EQUAL(line, CBENCH_LINE_AMD_ZEN);
	CU_ASSERT_EQUAL(cbench_core_parse("intel-core", &line, &uarch), 0);
	CU_ASSERT_EQUAL(uarch, CBENCH_UARCH_UNKNOWN);
	CU_ASSERT_EQUAL(line, CBENCH_LINE_INTEL_CORE);
	CU_ASSERT_NOT_EQUAL(cbench_core_parse("intel-atom", &line, &uarch), 0);
	CU_ASSERT_NOT_EQUAL(cbench_core_parse("pentium", &line, &uarch), 0);
	cpuid_dump_identify("qemu64-tcg", &c);
	cbench_core_force(&c, CBENCH_LINE_AMD_ZEN, CBENCH_UARCH_UNKNOWN);
	CU_ASSERT_EQUAL(c.line, CBENCH_LINE_AMD_ZEN);
	CU_ASSERT_PTR_NOT_NULL(strstr(c.how, "as --core says (an AMD Zen); CPUID said: QEMU's TCG"));
	for (int u = CBENCH_UARCH_UNKNOWN + 1; u < CBENCH_UARCHS; u++) {
		CU_ASSERT_EQUAL(cbench_core_parse(cbench_uarch_key((enum cbench_uarch)u), &line, &uarch), 0);
		CU_ASSERT_EQUAL(uarch, (enum cbench_uarch)u);
		CU_ASSERT(strlen(cbench_uarch_name((enum cbench_uarch)u)) > 0);
	}
}

static CU_TestInfo uarch_tests[] = {
	{ "Emerald Rapids guest (this VM): features, caches, no TLB leaf", emerald_rapids_guest },
	{ "Sapphire and Emerald Rapids, bare metal", sapphire_and_emerald_rapids },
	{ "a guest with a desktop's model number and AMX: still Sapphire Rapids", guest_with_a_desktop_model },
	{ "Skylake client and Skylake-SP", skylake },
	{ "Alder Lake hybrid: P-core and E-core by core type", alder_lake_hybrid },
	{ "cores the table lacks keep their vendor line", unknown_intel_cores },
	{ "Zen 2 to Zen 5: caches and TLB from AMD's leaves", zens },
	{ "QEMU TCG: nothing to judge", emulator },
	{ "--core", forced },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_uarch_suites[] = {
	{ "core identification", NULL, NULL, NULL, NULL, uarch_tests },
	CU_SUITE_INFO_NULL,
};
