// SPDX-License-Identifier: GPL-2.0
/*
 * Tests for kmod/lib/cpuid.c: CPU identification and PMU capabilities
 * decoded from canned CPUID answers of real and virtual CPUs.
 */
#include <stdint.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include <uapi/linux/cbench.h>

#include "../../kmod/lib/cpuid.h"
#include "machine/probe.h"

struct leaf {
	uint32_t leaf;
	struct cbench_cpuid_regs regs;
};

/* The CPU the fake CPUID answers for; leaves it lacks read as poison. */
static const struct leaf *fake_leaves;
static unsigned int fake_unknown_reads;

#define POISON 0xdeadbeefU

static void fake_read(uint32_t leaf, uint32_t subleaf, struct cbench_cpuid_regs *regs)
{
	for (const struct leaf *l = fake_leaves; l->leaf || l->regs.eax; l++) {
		if (l->leaf == leaf) {
			*regs = l->regs;
			return;
		}
	}
	fake_unknown_reads++;
	regs->eax = regs->ebx = regs->ecx = regs->edx = POISON;
}

static void decode(struct cbench_cpu *cpu, const struct leaf *leaves)
{
	fake_leaves = leaves;
	fake_unknown_reads = 0;
	memset(cpu, 0xa5, sizeof(*cpu));
	cbench_cpuid_decode(cpu, fake_read);
}

/* Vendor strings as CPUID returns them: EBX, EDX, ECX. */
#define VENDOR(b, d, c) .ebx = (b), .ecx = (c), .edx = (d)
#define GENUINE_INTEL VENDOR(0x756e6547, 0x49656e69, 0x6c65746e)
#define AUTHENTIC_AMD VENDOR(0x68747541, 0x69746e65, 0x444d4163)

/* Core i7-8700 (Coffee Lake, family 6 model 0x9e): PMU version 4. */
static const struct leaf coffee_lake[] = {
	{ 0x0, { .eax = 0x16, GENUINE_INTEL } },
	{ 0x1, { .eax = 0x000906ea, .ecx = 0x7ffafbbf } },
	{ 0x7, { .ebx = 0x029c6fbf, .ecx = 0x40000000 } },
	{ 0xa, { .eax = 0x07300404, .ebx = 0x0, .ecx = 0x0, .edx = 0x00000603 } },
	{ 0x80000000, { .eax = 0x80000008 } },
	{ 0x80000001, { .ecx = 0x121, .edx = 0x2c100800 } },
	{ 0x80000007, { .edx = 0x100 } },
	{ 0 },
};

static void test_intel_arch_perfmon(void)
{
	struct cbench_cpu cpu;

	decode(&cpu, coffee_lake);
	CU_ASSERT_STRING_EQUAL(cpu.vendor, "GenuineIntel");
	CU_ASSERT_EQUAL(cpu.vendor_id, CBENCH_CPU_VENDOR_INTEL);
	CU_ASSERT_EQUAL(cpu.family, 6);
	CU_ASSERT_EQUAL(cpu.model, 0x9e);
	CU_ASSERT_EQUAL(cpu.stepping, 10);
	CU_ASSERT_FALSE(cpu.hypervisor);
	CU_ASSERT_TRUE(cpu.tsc_invariant);
	CU_ASSERT_EQUAL(cpu.pmu.version, 4);
	CU_ASSERT_EQUAL(cpu.pmu.gp_counters, 4);
	CU_ASSERT_EQUAL(cpu.pmu.gp_bits, 48);
	CU_ASSERT_FALSE(cpu.hybrid);
	CU_ASSERT_EQUAL(cpu.core_type, 0);
	CU_ASSERT_EQUAL(cpu.pmu.fixed_counters, 3);
	CU_ASSERT_EQUAL(cpu.pmu.fixed_bits, 48);
	CU_ASSERT_EQUAL(cpu.pmu.fixed_mask, 0x7);
	CU_ASSERT_EQUAL(cpu.pmu.events, CBENCH_COUNTER_F_INSTRUCTIONS |
			CBENCH_COUNTER_F_CYCLES | CBENCH_COUNTER_F_REF_CYCLES);
	CU_ASSERT_EQUAL(fake_unknown_reads, 0);
}

/* Version 5 adds a fixed-counter bitmap in ECX, which may have holes. */
static const struct leaf arch_perfmon_v5[] = {
	{ 0x0, { .eax = 0x20, GENUINE_INTEL } },
	{ 0x1, { .eax = 0x000b06a2 } },
	{ 0xa, { .eax = 0x08300805, .ebx = 0x0, .ecx = 0x00000020, .edx = 0x00008603 } },
	{ 0x80000000, { .eax = 0x80000008 } },
	{ 0 },
};

static void test_intel_fixed_counter_bitmap(void)
{
	struct cbench_cpu cpu;

	decode(&cpu, arch_perfmon_v5);
	CU_ASSERT_EQUAL(cpu.family, 6);
	CU_ASSERT_EQUAL(cpu.model, 0xba);
	CU_ASSERT_EQUAL(cpu.pmu.version, 5);
	CU_ASSERT_EQUAL(cpu.pmu.gp_counters, 8);
	CU_ASSERT_EQUAL(cpu.pmu.fixed_mask, 0x27);
	CU_ASSERT_EQUAL(cpu.pmu.fixed_counters, 4);
	CU_ASSERT_EQUAL(cpu.pmu.fixed_bits, 48);
	/* No 0x80000007 leaf: invariance is not claimed. */
	CU_ASSERT_FALSE(cpu.tsc_invariant);
}

/*
 * Version 1: no fixed counters, and the EBX vector says reference cycles
 * cannot be counted; its length (EAX[31:24]) covers only two events.
 */
static const struct leaf arch_perfmon_v1[] = {
	{ 0x0, { .eax = 0xd, GENUINE_INTEL } },
	{ 0x1, { .eax = 0x000006f6 } },
	{ 0xa, { .eax = 0x02280201, .ebx = 0x0, .edx = 0x00000603 } },
	{ 0x80000000, { .eax = 0x80000008 } },
	{ 0 },
};

static void test_intel_version1_event_vector(void)
{
	struct cbench_cpu cpu;

	decode(&cpu, arch_perfmon_v1);
	CU_ASSERT_EQUAL(cpu.model, 0xf);
	CU_ASSERT_EQUAL(cpu.pmu.version, 1);
	CU_ASSERT_EQUAL(cpu.pmu.gp_counters, 2);
	CU_ASSERT_EQUAL(cpu.pmu.gp_bits, 40);
	/* EDX is not defined before version 2: ignored. */
	CU_ASSERT_EQUAL(cpu.pmu.fixed_counters, 0);
	CU_ASSERT_EQUAL(cpu.pmu.fixed_bits, 0);
	CU_ASSERT_EQUAL(cpu.pmu.fixed_mask, 0);
	CU_ASSERT_EQUAL(cpu.pmu.events, CBENCH_COUNTER_F_INSTRUCTIONS | CBENCH_COUNTER_F_CYCLES);
}

/* An event marked unavailable in EBX is still countable on its fixed counter. */
static const struct leaf unavailable_gp_event[] = {
	{ 0x0, { .eax = 0xd, GENUINE_INTEL } },
	{ 0x1, { .eax = 0x000306a9 } },
	{ 0xa, { .eax = 0x07300803, .ebx = 0x4, .edx = 0x00000602 } },
	{ 0x80000000, { .eax = 0x80000008 } },
	{ 0 },
};

static void test_intel_unavailable_event(void)
{
	struct cbench_cpu cpu;

	decode(&cpu, unavailable_gp_event);
	CU_ASSERT_EQUAL(cpu.pmu.fixed_counters, 2);
	CU_ASSERT_EQUAL(cpu.pmu.events, CBENCH_COUNTER_F_INSTRUCTIONS | CBENCH_COUNTER_F_CYCLES);
}

/* Leaf 0AH is past the maximum basic leaf: it must not be read. */
static const struct leaf old_intel[] = {
	{ 0x0, { .eax = 0x5, GENUINE_INTEL } },
	{ 0x1, { .eax = 0x00000f29 } },
	{ 0x80000000, { .eax = 0x80000004 } },
	{ 0x80000001, { .edx = 0x20100000 } },
	{ 0 },
};

static void test_intel_without_leaf_0a(void)
{
	struct cbench_cpu cpu;

	decode(&cpu, old_intel);
	CU_ASSERT_EQUAL(cpu.family, 0xf);
	CU_ASSERT_EQUAL(cpu.model, 2);
	CU_ASSERT_EQUAL(cpu.stepping, 9);
	CU_ASSERT_EQUAL(cpu.pmu.version, 0);
	CU_ASSERT_EQUAL(cpu.pmu.gp_counters, 0);
	CU_ASSERT_EQUAL(fake_unknown_reads, 0);
}

/* An Intel guest whose hypervisor hides the PMU: leaf 0AH is all zero. */
static const struct leaf intel_guest_no_pmu[] = {
	{ 0x0, { .eax = 0x16, GENUINE_INTEL } },
	{ 0x1, { .eax = 0x000906ea, .ecx = 0xfffa3203 } },
	{ 0xa, { .eax = 0x0 } },
	{ 0x80000000, { .eax = 0x80000008 } },
	{ 0x80000007, { .edx = 0x0 } },
	{ 0 },
};

static void test_intel_guest_without_pmu(void)
{
	struct cbench_cpu cpu;

	decode(&cpu, intel_guest_no_pmu);
	CU_ASSERT_TRUE(cpu.hypervisor);
	CU_ASSERT_FALSE(cpu.tsc_invariant);
	CU_ASSERT_EQUAL(cpu.pmu.version, 0);
	CU_ASSERT_EQUAL(cpu.pmu.gp_counters, 0);
	CU_ASSERT_EQUAL(cpu.pmu.fixed_counters, 0);
	CU_ASSERT_EQUAL(cpu.pmu.events, 0);
}

/*
 * Real parts, from InstLatx64's CPUID dumps (AIDA64, one section per
 * logical CPU): Core i5-6400T (Skylake-S, GenuineIntel00506E3_Skylake),
 * and an Alder Lake-S of 8 P-cores and 8 E-cores
 * (GenuineIntel0090672_AlderLake_03), logical CPU 0 (a P-core) and 16 (an
 * E-core): leaf 0AH alike, leaf 1AH telling the core types apart.
 */
static const struct leaf skylake[] = {
	{ 0x0, { .eax = 0x16, GENUINE_INTEL } },
	{ 0x1, { .eax = 0x000506e3, .ebx = 0x00100800, .ecx = 0x7ffafbff, .edx = 0xbfebfbff } },
	{ 0x7, { .ebx = 0x029c67af } },
	{ 0xa, { .eax = 0x07300804, .edx = 0x00000603 } },
	{ 0x80000000, { .eax = 0x80000008 } },
	{ 0x80000001, { .ecx = 0x00000121, .edx = 0x2c100000 } },
	{ 0x80000007, { .edx = 0x00000100 } },
	{ 0 },
};

#define ALDER_LAKE_COMMON							\
	{ 0x0, { .eax = 0x20, GENUINE_INTEL } },				\
	{ 0x7, { .eax = 0x2, .ebx = 0x239c27eb, .ecx = 0x98c007ac, .edx = 0xfc18c410 } }, \
	{ 0xa, { .eax = 0x07300605, .ecx = 0x00000007, .edx = 0x00008603 } },	\
	{ 0x80000000, { .eax = 0x80000008 } },					\
	{ 0x80000001, { .ecx = 0x00000121, .edx = 0x2c100000 } },		\
	{ 0x80000007, { .edx = 0x00000100 } }

static const struct leaf alder_lake_p[] = {
	ALDER_LAKE_COMMON,
	{ 0x1, { .eax = 0x00090672, .ebx = 0x00800800, .ecx = 0x7ffafbbf, .edx = 0xbfebfbff } },
	{ 0x1a, { .eax = 0x40000001 } },
	{ 0 },
};

static const struct leaf alder_lake_e[] = {
	ALDER_LAKE_COMMON,
	{ 0x1, { .eax = 0x00090672, .ebx = 0x40800800, .ecx = 0x7ffafbbf, .edx = 0xbfebfbff } },
	{ 0x1a, { .eax = 0x20000001 } },
	{ 0 },
};

static void test_skylake(void)
{
	struct cbench_cpu cpu;

	decode(&cpu, skylake);
	CU_ASSERT_EQUAL(cpu.family, 6);
	CU_ASSERT_EQUAL(cpu.model, 0x5e);
	CU_ASSERT_EQUAL(cpu.stepping, 3);
	CU_ASSERT_FALSE(cpu.hybrid);
	CU_ASSERT_EQUAL(cpu.core_type, 0);
	CU_ASSERT_EQUAL(cpu.pmu.version, 4);
	CU_ASSERT_EQUAL(cpu.pmu.gp_counters, 8);	/* no SMT on the i5: all eight */
	CU_ASSERT_EQUAL(cpu.pmu.gp_bits, 48);
	CU_ASSERT_EQUAL(cpu.pmu.fixed_counters, 3);
	CU_ASSERT_EQUAL(cpu.pmu.fixed_bits, 48);
	CU_ASSERT_EQUAL(cpu.pmu.events, CBENCH_COUNTER_F_INSTRUCTIONS | CBENCH_COUNTER_F_CYCLES |
			CBENCH_COUNTER_F_REF_CYCLES);
	CU_ASSERT_EQUAL(fake_unknown_reads, 0);
}

static void test_alder_lake_core_types(void)
{
	struct cbench_cpu p, e;

	decode(&p, alder_lake_p);
	CU_ASSERT_EQUAL(fake_unknown_reads, 0);
	decode(&e, alder_lake_e);
	CU_ASSERT_EQUAL(fake_unknown_reads, 0);
	CU_ASSERT_EQUAL(p.family, 6);
	CU_ASSERT_EQUAL(p.model, 0x97);
	CU_ASSERT_TRUE(p.hybrid);
	CU_ASSERT_TRUE(e.hybrid);
	CU_ASSERT_EQUAL(p.core_type, CBENCH_CORE_TYPE_CORE);
	CU_ASSERT_EQUAL(e.core_type, CBENCH_CORE_TYPE_ATOM);
	/* Version 5: the fixed counters from the ECX bitmap and EDX[4:0]. */
	CU_ASSERT_EQUAL(p.pmu.version, 5);
	CU_ASSERT_EQUAL(p.pmu.gp_counters, 6);
	CU_ASSERT_EQUAL(p.pmu.fixed_counters, 3);
	CU_ASSERT_EQUAL(p.pmu.fixed_mask, 0x7);
	CU_ASSERT_EQUAL(memcmp(&p.pmu, &e.pmu, sizeof(p.pmu)), 0);
}

/* Ryzen 9 5950X (Zen 3, family 0x19 model 0x21): six 48-bit core counters. */
static const struct leaf zen3[] = {
	{ 0x0, { .eax = 0x10, AUTHENTIC_AMD } },
	{ 0x1, { .eax = 0x00a20f10, .ecx = 0x7ef8320b } },
	/* AMD leaves 0AH reserved; a stray value must be ignored. */
	{ 0xa, { .eax = 0x07300404, .edx = 0x603 } },
	{ 0x80000000, { .eax = 0x80000020 } },
	{ 0x80000001, { .ecx = 0x75c237ff, .edx = 0x2fd3fbff } },
	{ 0x80000007, { .edx = 0x6799 } },
	{ 0 },
};

static void test_amd_core_extension(void)
{
	struct cbench_cpu cpu;

	decode(&cpu, zen3);
	CU_ASSERT_STRING_EQUAL(cpu.vendor, "AuthenticAMD");
	CU_ASSERT_EQUAL(cpu.vendor_id, CBENCH_CPU_VENDOR_AMD);
	CU_ASSERT_EQUAL(cpu.family, 0x19);
	CU_ASSERT_EQUAL(cpu.model, 0x21);
	CU_ASSERT_EQUAL(cpu.stepping, 0);
	CU_ASSERT_FALSE(cpu.hypervisor);
	CU_ASSERT_TRUE(cpu.tsc_invariant);
	CU_ASSERT_EQUAL(cpu.pmu.version, 1);
	CU_ASSERT_EQUAL(cpu.pmu.gp_counters, 6);
	CU_ASSERT_EQUAL(cpu.pmu.gp_bits, 48);
	CU_ASSERT_EQUAL(cpu.pmu.fixed_counters, 0);
	CU_ASSERT_EQUAL(cpu.pmu.fixed_bits, 0);
	CU_ASSERT_EQUAL(cpu.pmu.events, CBENCH_COUNTER_F_INSTRUCTIONS | CBENCH_COUNTER_F_CYCLES);
}

/* Zen 4 enumerates its counters through PerfMonV2 (CPUID.80000022H). */
static const struct leaf zen4[] = {
	{ 0x0, { .eax = 0x10, AUTHENTIC_AMD } },
	{ 0x1, { .eax = 0x00a60f12 } },
	{ 0x80000000, { .eax = 0x80000028 } },
	{ 0x80000001, { .ecx = 0x75c237ff } },
	{ 0x80000007, { .edx = 0x6799 } },
	{ 0x80000022, { .eax = 0x7, .ebx = 0x00010106 } },
	{ 0 },
};

static void test_amd_perfmon_v2(void)
{
	struct cbench_cpu cpu;

	decode(&cpu, zen4);
	CU_ASSERT_EQUAL(cpu.family, 0x19);
	CU_ASSERT_EQUAL(cpu.model, 0x61);
	CU_ASSERT_EQUAL(cpu.stepping, 2);
	CU_ASSERT_EQUAL(cpu.pmu.version, 2);
	CU_ASSERT_EQUAL(cpu.pmu.gp_counters, 6);
	CU_ASSERT_EQUAL(cpu.pmu.gp_bits, 48);
	CU_ASSERT_EQUAL(cpu.pmu.fixed_counters, 0);
}

/* QEMU's default TCG CPU (qemu64): AMD, in a VM, no counters enumerated. */
static const struct leaf qemu64[] = {
	{ 0x0, { .eax = 0xd, AUTHENTIC_AMD } },
	{ 0x1, { .eax = 0x000006b1 | (0xf << 8), .ecx = 0x80802001 } },
	{ 0xa, { .eax = 0x0 } },
	{ 0x80000000, { .eax = 0x8000000a } },
	{ 0x80000001, { .ecx = 0x1, .edx = 0x20100800 } },
	{ 0x80000007, { .edx = 0x0 } },
	{ 0 },
};

static void test_amd_guest_without_pmu(void)
{
	struct cbench_cpu cpu;

	decode(&cpu, qemu64);
	CU_ASSERT_TRUE(cpu.hypervisor);
	CU_ASSERT_FALSE(cpu.tsc_invariant);
	CU_ASSERT_EQUAL(cpu.pmu.version, 0);
	CU_ASSERT_EQUAL(cpu.pmu.gp_counters, 0);
	CU_ASSERT_EQUAL(cpu.pmu.gp_bits, 0);
	CU_ASSERT_EQUAL(cpu.pmu.events, 0);
}

/* The same CPU on bare metal has the four legacy counters. */
static const struct leaf k8[] = {
	{ 0x0, { .eax = 0x1, AUTHENTIC_AMD } },
	{ 0x1, { .eax = 0x00040fb2 } },
	{ 0x80000000, { .eax = 0x80000018 } },
	{ 0x80000001, { .ecx = 0x1f } },
	{ 0x80000007, { .edx = 0x7e } },
	{ 0 },
};

static void test_amd_legacy_counters(void)
{
	struct cbench_cpu cpu;

	decode(&cpu, k8);
	CU_ASSERT_EQUAL(cpu.family, 0xf);
	CU_ASSERT_EQUAL(cpu.model, 0x4b);
	CU_ASSERT_EQUAL(cpu.pmu.version, 1);
	CU_ASSERT_EQUAL(cpu.pmu.gp_counters, 4);
	CU_ASSERT_EQUAL(cpu.pmu.gp_bits, 48);
	CU_ASSERT_FALSE(cpu.tsc_invariant);
	CU_ASSERT_EQUAL(fake_unknown_reads, 0);
}

/* A CPU without extended leaves echoes a basic leaf for 0x80000000. */
static const struct leaf no_extended_leaves[] = {
	{ 0x0, { .eax = 0x2, VENDOR(0x746e6543, 0x48727561, 0x736c7561) } },
	{ 0x1, { .eax = 0x000006a9 } },
	{ 0x80000000, { .eax = 0x00000100 } },
	{ 0 },
};

static void test_no_extended_leaves(void)
{
	struct cbench_cpu cpu;

	decode(&cpu, no_extended_leaves);
	CU_ASSERT_STRING_EQUAL(cpu.vendor, "CentaurHauls");
	CU_ASSERT_EQUAL(cpu.vendor_id, CBENCH_CPU_VENDOR_OTHER);
	CU_ASSERT_FALSE(cpu.tsc_invariant);
	CU_ASSERT_EQUAL(cpu.pmu.version, 0);
	CU_ASSERT_EQUAL(fake_unknown_reads, 0);
}

/* The one line reports, info and doctor give, from each part's CPUID. */
static void pmu_line(const struct leaf *leaves, unsigned int core_type, int cpu, const char *want)
{
	struct cbench_machine m = { 0 };
	struct cbench_cpu c;
	char text[256];

	decode(&c, leaves);
	cbench_machine_from_cpu(&m, &c);
	cbench_pmu_text(&m, core_type, cpu, text, sizeof(text));
	if (strcmp(text, want))
		fprintf(stderr, "\n  got  %s\n  want %s\n", text, want);
	CU_ASSERT_STRING_EQUAL(text, want);
}

static void test_pmu_lines(void)
{
	pmu_line(skylake, 0, 3, "Intel architectural perfmon v4: 8 general counters of 48 bits, 3 fixed of 48 bits");
	pmu_line(alder_lake_p, CBENCH_CORE_TYPE_CORE, 0, "Intel architectural perfmon v5: 6 general counters "
		 "of 48 bits, 3 fixed of 48 bits; hybrid, CPU 0 is a P-core (Core)");
	pmu_line(alder_lake_e, CBENCH_CORE_TYPE_ATOM, 16, "Intel architectural perfmon v5: 6 general counters "
		 "of 48 bits, 3 fixed of 48 bits; hybrid, CPU 16 is an E-core (Atom)");
	pmu_line(zen3, 0, 1, "AMD core counter extension: 6 core counters of 48 bits");
	pmu_line(zen4, 0, 1, "AMD PerfMonV2: 6 core counters of 48 bits");
	pmu_line(qemu64, 0, 1, "none: CPUID enumerates no performance counters (a VM without a virtual PMU)");
	pmu_line(k8, 0, 0, "AMD legacy counters: 4 core counters of 48 bits");
}

static CU_TestInfo cpuid_tests[] = {
	{ "one PMU line per part: reports, info, doctor", test_pmu_lines },
	{ "Intel architectural perfmon v4", test_intel_arch_perfmon },
	{ "Intel v5 fixed-counter bitmap", test_intel_fixed_counter_bitmap },
	{ "Intel v1 event vector", test_intel_version1_event_vector },
	{ "Intel event on fixed counter only", test_intel_unavailable_event },
	{ "Intel without leaf 0AH", test_intel_without_leaf_0a },
	{ "Intel guest without PMU", test_intel_guest_without_pmu },
	{ "Skylake-S (Core i5-6400T)", test_skylake },
	{ "Alder Lake-S: P-core and E-core told apart (leaf 1AH)", test_alder_lake_core_types },
	{ "AMD core counter extension", test_amd_core_extension },
	{ "AMD PerfMonV2", test_amd_perfmon_v2 },
	{ "AMD guest without PMU", test_amd_guest_without_pmu },
	{ "AMD legacy counters", test_amd_legacy_counters },
	{ "no extended leaves", test_no_extended_leaves },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_cpuid_suites[] = {
	{ "cpuid", NULL, NULL, NULL, NULL, cpuid_tests },
	CU_SUITE_INFO_NULL,
};
