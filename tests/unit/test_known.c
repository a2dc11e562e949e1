// SPDX-License-Identifier: GPL-2.0
/*
 * The selftest's table of known answers (machine/known.c) held to cores
 * identified from CPUID dumps (tests/cpuid/): each core finds its own row
 * or its vendor line's, a core the table lacks is still judged on the
 * line's, a check nothing can judge says why, the chases are sized from
 * the dump's cache and TLB leaves, and a measurement passes only inside
 * its expected value's tolerance: every row is broken once, just outside.
 */
#include <CUnit/CUnit.h>
#include <errno.h>
#include <math.h>
#include <string.h>

#include "cpuid_dump.h"
#include "machine/known.h"

#define GIB (1024ull * 1024 * 1024)

static const struct cbench_known_check *check(const char *name)
{
	const struct cbench_known_check *k = cbench_known_find(name);

	CU_ASSERT_PTR_NOT_NULL_FATAL(k);
	return k;
}

/* The expected value (lo) of check on the core a dump describes; NAN if none. */
static double expect_on(const char *dump, const char *name, struct cbench_known_expect *e)
{
	struct cbench_core core;

	cpuid_dump_identify(dump, &core);
	return cbench_known_expect(check(name), &core, e) ? e->lo : NAN;
}

static void the_checks(void)
{
	CU_ASSERT(cbench_known_nchecks >= 20);
	CU_ASSERT(cbench_known_nchecks <= CBENCH_KNOWN_MAX_CHECKS);
	for (unsigned int i = 0; i < cbench_known_nchecks; i++) {
		const struct cbench_known_check *k = &cbench_known_checks[i];

		CU_ASSERT_PTR_EQUAL(cbench_known_find(k->name), k);
		CU_ASSERT(k->tolerance >= 0 && k->tolerance <= 0.1);
		CU_ASSERT(k->size != CBENCH_KNOWN_FIXED || k->benchmark);
	}
	CU_ASSERT_PTR_NULL(cbench_known_find("no-such-check"));
}

/* This VM: Golden Cove server rows, Intel Core line rows, and what a guest cannot judge. */
static void golden_cove_server_guest(void)
{
	struct cbench_known_expect e;

	CU_ASSERT_EQUAL(expect_on("emr-kvm", "add", &e), 1);
	CU_ASSERT_TRUE(e.line_wide);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.source, "uops.info"));
	CU_ASSERT_EQUAL(expect_on("emr-kvm", "popcnt", &e), 3);
	CU_ASSERT_EQUAL(expect_on("emr-kvm", "lea-scaled", &e), 2);
	CU_ASSERT_FALSE(e.line_wide);
	CU_ASSERT_STRING_EQUAL(e.cores, cbench_uarch_name(CBENCH_UARCH_GOLDEN_COVE_SP));
	CU_ASSERT_EQUAL(expect_on("emr-kvm", "addpd", &e), 2);
	CU_ASSERT_EQUAL(expect_on("emr-kvm", "l1", &e), 5);
	CU_ASSERT_DOUBLE_EQUAL(expect_on("emr-kvm", "add-throughput", &e), 0.2, 1e-12);
	CU_ASSERT_EQUAL(expect_on("emr-kvm", "l2", &e), 15);
	CU_ASSERT_EQUAL(e.hi, 16);
	/* Measured, not judged, each saying why. */
	CU_ASSERT(isnan(expect_on("emr-kvm", "store-load", &e)));
	CU_ASSERT_PTR_NOT_NULL(strstr(e.why, "memory renaming"));
	CU_ASSERT(isnan(expect_on("emr-kvm", "memory", &e)));
	CU_ASSERT_PTR_NOT_NULL(strstr(e.why, "a guest of KVMKVMKVM: nested paging"));
	CU_ASSERT(isnan(expect_on("emr-kvm", "tlb-miss", &e)));
	/* The same silicon on bare metal judges them. */
	CU_ASSERT_EQUAL(expect_on("emr", "memory", &e), 50);
	CU_ASSERT_EQUAL(expect_on("emr", "tlb-miss", &e), 8);
	/* So does the guest with a desktop's model number. */
	CU_ASSERT_EQUAL(expect_on("spr-vm-167", "lea-scaled", &e), 2);
}

/* At least 15 checks judged on this VM's core, the bar. */
static void judged_here(void)
{
	struct cbench_known_expect e;
	struct cbench_core core;
	unsigned int judged = 0;

	cpuid_dump_identify("emr-kvm", &core);
	for (unsigned int i = 0; i < cbench_known_nchecks; i++)
		judged += cbench_known_expect(&cbench_known_checks[i], &core, &e);
	CU_ASSERT(judged >= 15);
}

/* A core the table lacks: its line's values, and why the rest are not judged. */
static void unknown_core_keeps_its_line(void)
{
	struct cbench_known_expect e;
	struct cbench_core core;
	unsigned int judged = 0;

	CU_ASSERT_EQUAL(expect_on("granite-rapids", "add", &e), 1);
	CU_ASSERT_STRING_EQUAL(e.cores, "an Intel Core");
	CU_ASSERT_EQUAL(expect_on("granite-rapids", "imul", &e), 3);
	CU_ASSERT_EQUAL(expect_on("arrow-lake-p", "crc32", &e), 3);
	CU_ASSERT(isnan(expect_on("granite-rapids", "lea", &e)));
	CU_ASSERT_PTR_NOT_NULL(strstr(e.why, "a core the table lacks"));
	cpuid_dump_identify("arrow-lake-p", &core);
	for (unsigned int i = 0; i < cbench_known_nchecks; i++)
		judged += cbench_known_expect(&cbench_known_checks[i], &core, &e);
	CU_ASSERT(judged >= 10);
}

static void small_and_amd_cores(void)
{
	struct cbench_known_expect e;

	/* Gracemont: none of the Intel Core line's rows, its own. */
	CU_ASSERT_EQUAL(expect_on("alder-lake-e", "imul", &e), 5);
	CU_ASSERT_EQUAL(expect_on("alder-lake-e", "l1", &e), 3);
	CU_ASSERT(isnan(expect_on("alder-lake-e", "branch-mispredict", &e)));
	CU_ASSERT_EQUAL(expect_on("alder-lake-p", "imul", &e), 3);
	CU_ASSERT_EQUAL(expect_on("alder-lake-p", "l2", &e), 15);
	/* Zen: popcnt and lzcnt in one cycle, three-operand lea in two. */
	CU_ASSERT_EQUAL(expect_on("zen3", "popcnt", &e), 1);
	CU_ASSERT_EQUAL(expect_on("zen3", "lea", &e), 2);
	CU_ASSERT_EQUAL(expect_on("zen3", "div", &e), 11);
	CU_ASSERT_EQUAL(expect_on("zen4", "l2", &e), 14);
	CU_ASSERT_DOUBLE_EQUAL(expect_on("zen5", "imul-throughput", &e), 1.0 / 3, 1e-12);
	CU_ASSERT_EQUAL(expect_on("zen5", "addpd", &e), 2);		/* the line's range: 2-3 */
	CU_ASSERT_EQUAL(e.hi, 3);
	CU_ASSERT_EQUAL(expect_on("skylake", "lea", &e), 3);
	CU_ASSERT_EQUAL(expect_on("skylake-sp", "l2", &e), 14);
	/* The emulator: nothing, and it says so. */
	CU_ASSERT(isnan(expect_on("qemu64-tcg", "add", &e)));
	CU_ASSERT_PTR_NOT_NULL(strstr(e.why, "TCG emulates"));
}

/* Each row's own value passes; the same just past its tolerance fails. */
static void every_row_breaks_past_its_tolerance(void)
{
	static const char *const dumps[] = { "emr", "emr-kvm", "spr", "skylake", "skylake-sp",
					     "alder-lake-p", "alder-lake-e", "granite-rapids",
					     "zen2", "zen3", "zen4", "zen5" };
	char cause[256];
	unsigned int rows = 0;

	for (size_t d = 0; d < sizeof(dumps) / sizeof(dumps[0]); d++) {
		struct cbench_core core;

		cpuid_dump_identify(dumps[d], &core);
		for (unsigned int i = 0; i < cbench_known_nchecks; i++) {
			const struct cbench_known_check *k = &cbench_known_checks[i];
			struct cbench_known_expect e;
			double tol = k->tolerance, low, high;

			if (!cbench_known_expect(k, &core, &e))
				continue;
			rows++;
			low = e.lo * (1 - tol);
			high = e.hi * (1 + tol);
			CU_ASSERT_EQUAL(cbench_known_judge(e.lo, e.hi, tol, e.lo, k->unit, cause,
							   sizeof(cause)), CBENCH_KNOWN_PASS);
			CU_ASSERT_EQUAL(cbench_known_judge(e.lo, e.hi, tol, (e.lo + e.hi) / 2, k->unit,
							   cause, sizeof(cause)), CBENCH_KNOWN_PASS);
			CU_ASSERT_EQUAL(cbench_known_judge(e.lo, e.hi, tol, high * 1.001, k->unit, cause,
							   sizeof(cause)), CBENCH_KNOWN_FAIL);
			CU_ASSERT_EQUAL(cbench_known_judge(e.lo, e.hi, tol, low * 0.999, k->unit, cause,
							   sizeof(cause)), CBENCH_KNOWN_FAIL);
			CU_ASSERT(strlen(cause) > 0);
		}
	}
	CU_ASSERT(rows > 150);
}

static void judgement(void)
{
	char cause[256];

	/* imul: 3 cycles, 2 %: 3.06 passes, 3.0601 does not. */
	CU_ASSERT_EQUAL(cbench_known_judge(3, 3, 0.02, 3.06, "cycles", cause, sizeof(cause)),
			CBENCH_KNOWN_PASS);
	CU_ASSERT_STRING_EQUAL(cause, "");
	CU_ASSERT_EQUAL(cbench_known_judge(3, 3, 0.02, 3.0601, "cycles", cause, sizeof(cause)),
			CBENCH_KNOWN_FAIL);
	CU_ASSERT_STRING_EQUAL(cause, "3.06 cycles is +2.0% off 3 (tolerance 2%)");
	CU_ASSERT_EQUAL(cbench_known_judge(3, 3, 0.02, 2.999, "cycles", cause, sizeof(cause)),
			CBENCH_KNOWN_PASS);
	/* Broken: the same measurement against a tolerance of nothing. */
	CU_ASSERT_EQUAL(cbench_known_judge(3, 3, 0, 2.999, "cycles", cause, sizeof(cause)),
			CBENCH_KNOWN_FAIL);
	/* A range, widened by its tolerance. */
	CU_ASSERT_EQUAL(cbench_known_judge(70, 150, 0.1, 160, "cycles", cause, sizeof(cause)),
			CBENCH_KNOWN_PASS);
	CU_ASSERT_EQUAL(cbench_known_judge(70, 150, 0.1, 16.4, "cycles", cause, sizeof(cause)),
			CBENCH_KNOWN_FAIL);
	CU_ASSERT_STRING_EQUAL(cause, "16.4 cycles is outside 70-150 (widened by its tolerance)");
	/* Nothing measured, nothing to judge against. */
	CU_ASSERT_EQUAL(cbench_known_judge(3, 3, 0.02, NAN, "cycles", cause, sizeof(cause)),
			CBENCH_KNOWN_NOT_MEASURED);
	CU_ASSERT_EQUAL(cbench_known_judge(NAN, NAN, 0.02, 3, "cycles", cause, sizeof(cause)),
			CBENCH_KNOWN_NOT_JUDGED);
}

static void kernel_of(const char *dump, const char *name, uint64_t mem, const char *want,
		      const char *want_minus)
{
	char id[64], minus[64], why[256];
	struct cbench_core core;

	cpuid_dump_identify(dump, &core);
	CU_ASSERT_EQUAL(cbench_known_kernels(check(name), &core, mem, id, sizeof(id), minus,
					     sizeof(minus), why, sizeof(why)), 0);
	CU_ASSERT_STRING_EQUAL(id, want);
	CU_ASSERT_STRING_EQUAL(minus, want_minus);
}

/* The chases sized from the dumps' leaves, for the kernels examples/known.c has. */
static void kernels_sized_from_cpuid(void)
{
	char id[64], minus[64], why[256];
	struct cbench_core core;

	kernel_of("emr-kvm", "add", 0, "latency_add", "");
	kernel_of("emr-kvm", "branch-mispredict", 0, "branch_random", "branch_predictable");
	kernel_of("emr-kvm", "l2", 0, "latency_chase_512k", "");
	kernel_of("emr-kvm", "l3", 0, "latency_random_8192k", "");
	kernel_of("emr-kvm", "memory", 23 * GIB, "latency_memory_1024m", "");
	/* No leaf 18H in the guest: the table's 2048 entries, four times over. */
	kernel_of("emr-kvm", "tlb-miss", 0, "tlb_miss_8192", "tlb_hit_8192");
	kernel_of("zen3", "l2", 0, "latency_chase_128k", "");
	kernel_of("zen3", "l3", 0, "latency_random_2048k", "");
	kernel_of("zen3", "memory", 0, "latency_memory_256m", "");	/* 2 x 96 MiB */
	kernel_of("zen4", "tlb-miss", 0, "tlb_miss_16384", "tlb_hit_16384");
	kernel_of("skylake", "l2", 0, "latency_chase_128k", "");
	kernel_of("skylake", "l3", 0, "latency_random_1024k", "");
	/* Too little memory for a chase past twice the L3. */
	cpuid_dump_identify("emr-kvm", &core);
	CU_ASSERT_EQUAL(cbench_known_kernels(check("memory"), &core, 2 * GIB, id, sizeof(id), minus,
					     sizeof(minus), why, sizeof(why)), -ENOENT);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "a quarter of memory"));
	/* No cache leaves at all. */
	memset(&core, 0, sizeof(core));
	CU_ASSERT_EQUAL(cbench_known_kernels(check("l2"), &core, 0, id, sizeof(id), minus,
					     sizeof(minus), why, sizeof(why)), -ENOENT);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "CPUID gives no L2 size"));
	CU_ASSERT_EQUAL(cbench_known_kernels(check("tlb-miss"), &core, 0, id, sizeof(id), minus,
					     sizeof(minus), why, sizeof(why)), -ENOENT);
}

static void supported(void)
{
	struct cbench_core core;

	cpuid_dump_identify("qemu64-tcg", &core);
	CU_ASSERT_FALSE(cbench_known_supported(check("crc32"), &core));
	CU_ASSERT_FALSE(cbench_known_supported(check("fma"), &core));
	CU_ASSERT_TRUE(cbench_known_supported(check("add"), &core));
	CU_ASSERT_TRUE(cbench_known_supported(check("addpd"), &core));
	cpuid_dump_identify("emr-kvm", &core);
	for (unsigned int i = 0; i < cbench_known_nchecks; i++)
		CU_ASSERT_TRUE(cbench_known_supported(&cbench_known_checks[i], &core));
}

static CU_TestInfo known_tests[] = {
	{ "at least 20 checks, each findable, with a tolerance", the_checks },
	{ "Golden Cove server in a guest: rows, line rows, and what it cannot judge", golden_cove_server_guest },
	{ "at least 15 judged on this VM's core", judged_here },
	{ "a core the table lacks is judged on its line's values", unknown_core_keeps_its_line },
	{ "Gracemont, Alder Lake's P-core, Zen, Skylake, an emulator", small_and_amd_cores },
	{ "every row passes at its value and fails just past its tolerance", every_row_breaks_past_its_tolerance },
	{ "the judgement", judgement },
	{ "chases sized from the CPUID leaves", kernels_sized_from_cpuid },
	{ "what a CPU can run", supported },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_known_suites[] = {
	{ "selftest known answers", NULL, NULL, NULL, NULL, known_tests },
	CU_SUITE_INFO_NULL,
};
