// SPDX-License-Identifier: GPL-2.0
/*
 * The selftest's checks and its table of known answers (see known.h).
 *
 * Every row names its source.  Instruction latencies and throughputs are
 * InstLatx64's measurements (AIDA64's instruction and memory latency
 * tests, published per CPU at github.com/InstLatx64/InstLatx64), each row
 * naming the CPU measured, and agree with uops.info's (Abel and Reineke,
 * ASPLOS 2019) where we compared them; unit counts are the vendors'
 * optimization manuals'.  A row for a vendor line holds on every core of
 * the line we know of, so a core the table lacks is still judged on those.
 * Where sources give a spread (a cache behind a mesh, a branch's penalty),
 * the row is a range and says so.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "machine/known.h"

#define KIB 1024ull
#define MIB (1024ull * 1024)

#define FEAT(f) CBENCH_FEAT_##f
#define LAT(name, kernel, what, tol, needs)						\
	{ name, kernel, NULL, 1, CBENCH_KNOWN_FIXED, CBENCH_KNOWN_MEDIAN, what, "cycles", tol,	\
	  needs, true, false }

const struct cbench_known_check cbench_known_checks[] = {
	LAT("add", "latency_add", "dependent add r64, r64 latency", 0.02, 0),
	LAT("imul", "latency_imul", "dependent imul r64, r64 latency", 0.02, 0),
	LAT("crc32", "latency_crc32", "dependent crc32 r64, r64 latency", 0.02, FEAT(SSE42)),
	LAT("popcnt", "latency_popcnt", "dependent popcnt r64, r64 latency", 0.02, FEAT(POPCNT)),
	LAT("lzcnt", "latency_lzcnt", "dependent lzcnt r64, r64 latency", 0.02, FEAT(LZCNT)),
	LAT("lea", "latency_lea", "dependent lea r64, [base + index + disp8] latency", 0.02, 0),
	LAT("lea-scaled", "latency_lea_scaled", "dependent lea r64, [base + index*8 + disp8] latency",
	    0.02, 0),
	LAT("div", "latency_div", "dependent 64-bit div latency, 1 / 1", 0.03, 0),
	LAT("addpd", "latency_addpd", "dependent addpd xmm latency (vector FP add)", 0.02, 0),
	LAT("mulpd", "latency_mulpd", "dependent mulpd xmm latency (vector FP multiply)", 0.02, 0),
	LAT("fma", "latency_fma", "dependent vfmadd231pd xmm latency", 0.02, FEAT(FMA) | FEAT(AVX)),
	LAT("paddq", "latency_paddq", "dependent paddq xmm latency (vector integer add)", 0.02, 0),
	LAT("l1", "latency_l1", "L1 load-to-use latency (pointer chase in one page)", 0.03, 0),
	{ "store-load", "latency_store_load", NULL, 1, CBENCH_KNOWN_FIXED, CBENCH_KNOWN_MEDIAN,
	  "a store and the load of it, one address: forwarding or memory renaming", "cycles", 0.1,
	  0, false, false },
	{ "add-throughput", "throughput_add", NULL, 1, CBENCH_KNOWN_FIXED, CBENCH_KNOWN_LEAST,
	  "independent adds: cycles per add (1 / integer ALUs)", "cycles per add", 0.05, 0, true, false },
	{ "imul-throughput", "throughput_imul", NULL, 1, CBENCH_KNOWN_FIXED, CBENCH_KNOWN_LEAST,
	  "independent imuls: cycles per imul (1 / multipliers)", "cycles per imul", 0.05, 0, true, false },
	{ "load-throughput", "throughput_load", NULL, 1, CBENCH_KNOWN_FIXED, CBENCH_KNOWN_LEAST,
	  "independent L1 loads: cycles per load (1 / load ports)", "cycles per load", 0.05, 0, true, false },
	{ "l2", NULL, NULL, 1, CBENCH_KNOWN_L2, CBENCH_KNOWN_MEDIAN,
	  "L2 load-to-use latency (chase sized from CPUID: L2 / 4)", "cycles", 0.05, 0, false, false },
	{ "l3", NULL, NULL, 1, CBENCH_KNOWN_L3, CBENCH_KNOWN_MEDIAN,
	  "L3 load-to-use latency (chase sized from CPUID: 4 x L2)", "cycles", 0.1, 0, false, false },
	{ "memory", NULL, NULL, 1, CBENCH_KNOWN_MEMORY, CBENCH_KNOWN_NS,
	  "memory load-to-use latency (chase past 2 x L3)", "ns", 0, 0, false, true },
	{ "tlb-miss", NULL, NULL, 1, CBENCH_KNOWN_TLB, CBENCH_KNOWN_MEDIAN,
	  "a load's TLB miss: page walk (4 x STLB pages, less the same lines 64 a page)", "cycles", 0,
	  0, false, true },
	{ "branch-mispredict", "branch_random", "branch_predictable", 2, CBENCH_KNOWN_FIXED,
	  CBENCH_KNOWN_MEDIAN, "a mispredicted branch: 2 x (random bits - zeros) per branch", "cycles",
	  0.1, 0, false, false },
};

const unsigned int cbench_known_nchecks = sizeof(cbench_known_checks) / sizeof(cbench_known_checks[0]);

const struct cbench_known_check *cbench_known_find(const char *name)
{
	for (unsigned int i = 0; i < cbench_known_nchecks; i++) {
		if (!strcmp(cbench_known_checks[i].name, name))
			return &cbench_known_checks[i];
	}
	return NULL;
}

/* The measured CPUs, as their InstLatx64 files name them. */
#define I_SKL "InstLatx64: i7-6700K (06_5EH)"
#define I_SKX "InstLatx64: i7-7900X (06_55H)"
#define I_SKL_CORE "InstLatx64: i7-6700K, the same core"
#define I_ICL "InstLatx64: i7-1065G7 (06_7EH), i5-1135G7 (06_8CH)"
#define I_TGL "InstLatx64: i5-1135G7 (06_8CH)"
#define I_GLC "InstLatx64: i9-12900K P-core (06_97H), i9-13900K's (06_B7H)"
#define I_GLC_CORE "InstLatx64: i9-12900K P-core, the same core"
#define I_GRT "InstLatx64: i9-12900K E-core (06_97H)"
#define I_ZENP "InstLatx64: Ryzen 5 2600X (17_08H)"
#define I_ZEN2 "InstLatx64: Ryzen 5 3600X (17_71H)"
#define I_ZEN3 "InstLatx64: Ryzen 7 5800X (19_21H)"
#define I_ZEN4 "InstLatx64: Ryzen 9 7950X (19_61H)"
#define I_ZEN5 "InstLatx64: Ryzen 9 9950X (1A_44H)"
#define INTEL_CORES "InstLatx64: Skylake to Raptor Cove"
#define ZENS "InstLatx64: Zen+ to Zen 5"
#define UOPS_INTEL "uops.info; InstLatx64: Skylake to Raptor Cove"
#define UOPS_ZEN "uops.info; InstLatx64: Zen+ to Zen 5"
#define ALUS_4 "vendor manual: 4 integer ALU ports"
#define PORTS_2 "vendor manual: 2 load ports"
#define PORTS_3 "vendor manual: 3 load ports"
#define MEMLAT(cpu) "InstLatx64 memory latency test: " cpu
#define RENAMED "the core renames a store and its load (memory renaming): the pair took 0.8 to " \
	"3.4 cycles from run to run on Golden Cove, the renamer's state deciding; no stable answer"
#define DRAM "DRAM on x86 servers and desktops: 60-130 ns (AnandTech: Skylake-SP 96-98 ns); range"
#define MISPREDICT "published measurements (Agner Fog's microarchitecture guide) lie within; range"

/* One row: a check's expected value (or range) on a core, or on a line. */
static const struct row {
	const char *check;
	enum cbench_uarch uarch;	/* CBENCH_UARCH_UNKNOWN: a line's row */
	enum cbench_line line;
	double lo, hi;
	const char *source;
} rows[] = {
#define U(check, uarch, lo, hi, src) { check, CBENCH_UARCH_##uarch, CBENCH_LINE_NONE, lo, hi, src }
#define L(check, line, lo, hi, src) { check, CBENCH_UARCH_UNKNOWN, CBENCH_LINE_##line, lo, hi, src }
/* No answer to hold it to, and why: the check is measured, not judged. */
#define N(check, uarch, why) { check, CBENCH_UARCH_##uarch, CBENCH_LINE_NONE, NAN, NAN, why }
	/* What holds on every Intel Core (big core) we know of. */
	L("add", INTEL_CORE, 1, 1, UOPS_INTEL),
	L("imul", INTEL_CORE, 3, 3, UOPS_INTEL),
	L("crc32", INTEL_CORE, 3, 3, UOPS_INTEL),
	L("popcnt", INTEL_CORE, 3, 3, UOPS_INTEL),
	L("lzcnt", INTEL_CORE, 3, 3, UOPS_INTEL),
	L("paddq", INTEL_CORE, 1, 1, INTEL_CORES),
	L("l1", INTEL_CORE, 4, 5, INTEL_CORES ": 4, 5 since Ice Lake"),
	L("addpd", INTEL_CORE, 2, 4, INTEL_CORES ": 4, 2 since Golden Cove"),
	L("mulpd", INTEL_CORE, 4, 4, INTEL_CORES),
	L("fma", INTEL_CORE, 4, 4, INTEL_CORES),
	L("imul-throughput", INTEL_CORE, 1, 1, INTEL_CORES ": one multiplier"),
	/* AMD's, since Zen. */
	L("add", AMD_ZEN, 1, 1, UOPS_ZEN),
	L("imul", AMD_ZEN, 3, 3, UOPS_ZEN),
	L("crc32", AMD_ZEN, 3, 3, UOPS_ZEN),
	L("popcnt", AMD_ZEN, 1, 1, UOPS_ZEN),
	L("lzcnt", AMD_ZEN, 1, 1, UOPS_ZEN),
	L("lea", AMD_ZEN, 2, 2, ZENS),
	L("lea-scaled", AMD_ZEN, 2, 2, ZENS),
	L("paddq", AMD_ZEN, 1, 1, ZENS),
	L("l1", AMD_ZEN, 4, 4, UOPS_ZEN),
	L("addpd", AMD_ZEN, 2, 3, ZENS ": 3, 2 on Zen 5"),
	L("mulpd", AMD_ZEN, 3, 4, ZENS ": 4 on Zen+, then 3"),
	L("fma", AMD_ZEN, 4, 5, ZENS ": 5 to Zen 2, then 4"),
	L("store-load", AMD_ZEN, 9, 11.5, ZENS ": 9 to 11.4"),
	/*
	 * Both lines: a DRAM access, in ns, and a mispredicted branch; wide
	 * ranges, which tell a chase that stayed in a cache or a branch that
	 * was predicted after all, not one core from another.
	 */
	L("memory", INTEL_CORE, 50, 200, DRAM),
	L("memory", AMD_ZEN, 50, 200, DRAM),
	L("branch-mispredict", INTEL_CORE, 12, 22, MISPREDICT),
	L("branch-mispredict", AMD_ZEN, 11, 22, MISPREDICT),
	L("tlb-miss", INTEL_CORE, 8, 60, "a walk whose entries the caches hold: an L2 to an L3 hit; range"),
	L("tlb-miss", AMD_ZEN, 8, 60, "a walk whose entries the caches hold: an L2 to an L3 hit; range"),

	/* Skylake client, Skylake-SP. */
	U("lea", SKYLAKE, 3, 3, I_SKL),
	U("lea-scaled", SKYLAKE, 3, 3, I_SKL),
	U("div", SKYLAKE, 21.07, 21.07, I_SKL),
	U("store-load", SKYLAKE, 11.15, 11.15, I_SKL),
	U("add-throughput", SKYLAKE, 0.25, 0.25, ALUS_4),
	U("load-throughput", SKYLAKE, 0.5, 0.5, PORTS_2),
	U("l2", SKYLAKE, 12, 12, MEMLAT("i7-6700K")),
	U("l3", SKYLAKE, 40, 47, MEMLAT("i7-6700K") "; range"),
	U("lea", SKYLAKE_SP, 3, 3, I_SKX),
	U("lea-scaled", SKYLAKE_SP, 3, 3, I_SKX),
	U("div", SKYLAKE_SP, 21.07, 21.07, I_SKL_CORE),
	U("store-load", SKYLAKE_SP, 11.2, 11.2, I_SKX),
	U("add-throughput", SKYLAKE_SP, 0.25, 0.25, ALUS_4),
	U("load-throughput", SKYLAKE_SP, 0.5, 0.5, PORTS_2),
	U("l2", SKYLAKE_SP, 14, 14, MEMLAT("i7-7900X")),
	U("l3", SKYLAKE_SP, 70, 80, MEMLAT("i7-7900X (a mesh)") "; range"),
	/* Sunny Cove and its kin. */
	U("l1", SUNNY_COVE, 5, 5, I_ICL),
	U("lea", SUNNY_COVE, 1, 1, I_ICL),
	U("lea-scaled", SUNNY_COVE, 1, 1, I_ICL),
	U("div", SUNNY_COVE, 18.17, 18.17, I_TGL),
	N("store-load", SUNNY_COVE, RENAMED),
	U("add-throughput", SUNNY_COVE, 0.25, 0.25, ALUS_4),
	U("load-throughput", SUNNY_COVE, 0.5, 0.5, PORTS_2),
	U("l2", SUNNY_COVE, 13, 14, MEMLAT("i5-1135G7") "; 13 on Ice Lake"),
	/* Golden Cove: client and server share the core; their L2 and L3 differ. */
	U("l1", GOLDEN_COVE, 5, 5, I_GLC),
	U("lea", GOLDEN_COVE, 1, 1, I_GLC),
	U("lea-scaled", GOLDEN_COVE, 2, 2, I_GLC),
	U("div", GOLDEN_COVE, 17.92, 17.92, I_GLC),
	U("addpd", GOLDEN_COVE, 2, 2, I_GLC),
	N("store-load", GOLDEN_COVE, RENAMED),
	U("add-throughput", GOLDEN_COVE, 0.2, 0.2, I_GLC ": 5 integer ALUs"),
	U("load-throughput", GOLDEN_COVE, 1.0 / 3, 1.0 / 3, I_GLC ": 3 load ports"),
	U("l2", GOLDEN_COVE, 15, 15, MEMLAT("i9-12900K P-core")),
	U("l3", GOLDEN_COVE, 50, 65, MEMLAT("i9-12900K P-core") "; range"),
	U("l1", GOLDEN_COVE_SP, 5, 5, I_GLC_CORE),
	U("lea", GOLDEN_COVE_SP, 1, 1, I_GLC_CORE),
	U("lea-scaled", GOLDEN_COVE_SP, 2, 2, I_GLC_CORE),
	U("div", GOLDEN_COVE_SP, 17.92, 17.92, I_GLC_CORE),
	U("addpd", GOLDEN_COVE_SP, 2, 2, I_GLC_CORE),
	N("store-load", GOLDEN_COVE_SP, RENAMED),
	U("add-throughput", GOLDEN_COVE_SP, 0.2, 0.2, I_GLC_CORE ": 5 integer ALUs"),
	U("load-throughput", GOLDEN_COVE_SP, 1.0 / 3, 1.0 / 3, I_GLC_CORE ": 3 load ports"),
	U("l2", GOLDEN_COVE_SP, 15, 16, MEMLAT("i9-12900K P-core, 15") "; the 2 MiB L2 a cycle more"),
	U("l3", GOLDEN_COVE_SP, 70, 150,
	  MEMLAT("i7-7900X, 70-80 behind Skylake-SP's mesh") "; a larger mesh: range"),
	/* Gracemont, an E-core: none of the Intel Core line's rows hold for it. */
	U("add", GRACEMONT, 1, 1, I_GRT),
	U("imul", GRACEMONT, 5, 5, I_GRT),
	U("crc32", GRACEMONT, 3, 3, I_GRT),
	U("popcnt", GRACEMONT, 3, 3, I_GRT),
	U("lzcnt", GRACEMONT, 3, 3, I_GRT),
	U("lea", GRACEMONT, 2, 2, I_GRT),
	U("lea-scaled", GRACEMONT, 2, 2, I_GRT),
	U("div", GRACEMONT, 11.5, 11.5, I_GRT),
	U("addpd", GRACEMONT, 3, 3, I_GRT),
	U("mulpd", GRACEMONT, 4, 4, I_GRT),
	U("fma", GRACEMONT, 6, 6, I_GRT),
	U("paddq", GRACEMONT, 1, 1, I_GRT),
	U("l1", GRACEMONT, 3, 3, I_GRT),
	N("store-load", GRACEMONT, RENAMED),
	U("add-throughput", GRACEMONT, 0.25, 0.25, I_GRT ": 4 integer ALUs"),
	U("imul-throughput", GRACEMONT, 0.5, 0.5, I_GRT),
	U("load-throughput", GRACEMONT, 0.5, 0.5, I_GRT ": 2 load ports"),
	U("l2", GRACEMONT, 19, 20, MEMLAT("i9-12900K E-core")),
	/* AMD Zen to Zen 5. */
	U("div", ZEN, 14, 14, I_ZENP),
	U("store-load", ZEN, 9, 9, I_ZENP),
	U("add-throughput", ZEN, 0.25, 0.25, ALUS_4),
	U("imul-throughput", ZEN, 1, 1, I_ZENP),
	U("load-throughput", ZEN, 0.5, 0.5, PORTS_2),
	U("l2", ZEN, 12, 12, MEMLAT("Ryzen 5 2600X")),
	U("l3", ZEN, 35, 42, MEMLAT("Ryzen 5 2600X") "; range"),
	U("div", ZEN2, 14, 14, I_ZEN2),
	U("store-load", ZEN2, 9, 9, I_ZEN2),
	U("add-throughput", ZEN2, 0.25, 0.25, ALUS_4),
	U("imul-throughput", ZEN2, 1, 1, I_ZEN2),
	U("load-throughput", ZEN2, 0.5, 0.5, PORTS_2),
	U("l2", ZEN2, 12, 12, MEMLAT("Ryzen 5 3600X")),
	U("l3", ZEN2, 38, 45, MEMLAT("Ryzen 5 3600X") "; range"),
	U("div", ZEN3, 11, 11, I_ZEN3),
	U("store-load", ZEN3, 11.42, 11.42, I_ZEN3),
	U("add-throughput", ZEN3, 0.25, 0.25, ALUS_4),
	U("imul-throughput", ZEN3, 1, 1, I_ZEN3),
	U("load-throughput", ZEN3, 1.0 / 3, 1.0 / 3, PORTS_3),
	U("l2", ZEN3, 12, 12, MEMLAT("Ryzen 7 5800X")),
	U("l3", ZEN3, 44, 52, MEMLAT("Ryzen 7 5800X") "; range"),
	U("store-load", ZEN4, 9.3, 9.3, I_ZEN4),
	U("add-throughput", ZEN4, 0.25, 0.25, ALUS_4),
	U("imul-throughput", ZEN4, 1, 1, I_ZEN4),
	U("load-throughput", ZEN4, 1.0 / 3, 1.0 / 3, PORTS_3),
	U("l2", ZEN4, 14, 14, "uops.info; " MEMLAT("Ryzen 9 7950X")),
	U("l3", ZEN4, 48, 56, MEMLAT("Ryzen 9 7950X") "; range"),
	U("div", ZEN5, 9.95, 9.95, I_ZEN5),
	U("store-load", ZEN5, 10.3, 10.3, I_ZEN5),
	U("add-throughput", ZEN5, 1.0 / 6, 0.19, "vendor manual: 6 integer ALUs; " I_ZEN5 ": 0.189"),
	U("imul-throughput", ZEN5, 1.0 / 3, 1.0 / 3, I_ZEN5),
	U("load-throughput", ZEN5, 0.25, 0.25, I_ZEN5 ": 4 load ports"),
#undef U
#undef L
#undef N
};

/* Second-level TLB entries (4 KiB pages) by core, for CPUs whose CPUID leaves lack them. */
static const struct {
	enum cbench_uarch uarch;
	uint32_t entries;
	const char *source;
} stlbs[] = {
	{ CBENCH_UARCH_SKYLAKE, 1536, "InstLatx64: i7-6700K's leaf 2" },
	{ CBENCH_UARCH_SKYLAKE_SP, 1536, "InstLatx64: i7-7900X's leaf 2" },
	{ CBENCH_UARCH_GOLDEN_COVE, 2048, "InstLatx64: i9-12900K's leaf 18H" },
	{ CBENCH_UARCH_GOLDEN_COVE_SP, 2048, "InstLatx64: Xeon Gold 5520+'s leaf 18H" },
	{ CBENCH_UARCH_ZEN3, 2048, "InstLatx64: Ryzen 7 5800X's leaf 80000006H" },
	{ CBENCH_UARCH_ZEN4, 3072, "InstLatx64: Ryzen 9 7950X's leaf 80000006H" },
};

uint32_t cbench_known_stlb_entries(const struct cbench_core *core, const char **from)
{
	if (core->stlb_entries) {
		*from = "CPUID";
		return core->stlb_entries;
	}
	for (size_t i = 0; i < sizeof(stlbs) / sizeof(stlbs[0]); i++) {
		if (stlbs[i].uarch == core->uarch) {
			*from = stlbs[i].source;
			return stlbs[i].entries;
		}
	}
	*from = "nowhere";
	return 0;
}

static const struct row *find_row(const char *check, enum cbench_uarch uarch, enum cbench_line line)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];

		if (strcmp(r->check, check))
			continue;
		if (uarch != CBENCH_UARCH_UNKNOWN ? r->uarch == uarch :
		    r->uarch == CBENCH_UARCH_UNKNOWN && r->line == line)
			return r;
	}
	return NULL;
}

bool cbench_known_expect(const struct cbench_known_check *check, const struct cbench_core *core,
			 struct cbench_known_expect *e)
{
	const struct row *r = NULL;

	*e = (struct cbench_known_expect){ .lo = NAN, .hi = NAN, .source = "", .cores = "" };
	if (check->paging && core->cpu.hypervisor) {
		snprintf(e->why, sizeof(e->why), "a guest%s%s: nested paging adds the host's page walk, "
			 "as long as the host's page size makes it, to every TLB miss; no published "
			 "figure covers that", *core->hypervisor ? " of " : "", core->hypervisor);
		return false;
	}
	if (core->uarch != CBENCH_UARCH_UNKNOWN)
		r = find_row(check->name, core->uarch, core->line);
	if (r) {
		e->cores = cbench_uarch_name(core->uarch);
	} else if (core->line != CBENCH_LINE_NONE &&
		   (r = find_row(check->name, CBENCH_UARCH_UNKNOWN, core->line))) {
		e->cores = cbench_line_name(core->line);
		e->line_wide = true;
	}
	if (r && isnan(r->lo)) {
		snprintf(e->why, sizeof(e->why), "%s", r->source);
		e->cores = "";
		return false;
	}
	if (r) {
		e->lo = r->lo;
		e->hi = r->hi;
		e->source = r->source;
		return true;
	}
	if (core->line == CBENCH_LINE_NONE)
		snprintf(e->why, sizeof(e->why), "no row for this CPU: %.200s", core->how);
	else if (core->uarch == CBENCH_UARCH_UNKNOWN)
		snprintf(e->why, sizeof(e->why), "a core the table lacks, and %s's cores differ in it",
			 cbench_line_name(core->line));
	else
		snprintf(e->why, sizeof(e->why), "no value for %s in the table",
			 cbench_uarch_name(core->uarch));
	return false;
}

enum cbench_known_verdict cbench_known_judge(double lo, double hi, double tolerance, double measured,
					     const char *unit, char *cause, size_t cause_bytes)
{
	double low = lo * (1 - tolerance), high = hi * (1 + tolerance);

	*cause = '\0';
	if (!isfinite(measured))
		return CBENCH_KNOWN_NOT_MEASURED;
	if (!isfinite(lo) || !isfinite(hi))
		return CBENCH_KNOWN_NOT_JUDGED;
	if (measured >= low && measured <= high)
		return CBENCH_KNOWN_PASS;
	if (lo == hi)
		snprintf(cause, cause_bytes, "%.4g %s is %+.1f%% off %g (tolerance %.0f%%)", measured,
			 unit, 100 * (measured / lo - 1), lo, 100 * tolerance);
	else
		snprintf(cause, cause_bytes, "%.4g %s is outside %g-%g%s", measured, unit, lo, hi,
			 tolerance > 0 ? " (widened by its tolerance)" : "");
	return CBENCH_KNOWN_FAIL;
}

/* The largest power of two at most x (x >= 1). */
static uint64_t pow2_floor(uint64_t x)
{
	uint64_t p = 1;

	while (p <= x / 2)
		p *= 2;
	return p;
}

static uint64_t pow2_ceil(uint64_t x)
{
	uint64_t p = 1;

	while (p < x)
		p *= 2;
	return p;
}

/* The kernels' sizes, as examples/known.c defines them. */
#define L2_CHASE_MIN (128 * KIB)
#define L2_CHASE_MAX (2 * MIB)
#define L3_CHASE_MIN (1 * MIB)
#define L3_CHASE_MAX (32 * MIB)
#define MEMORY_MIN (32 * MIB)
#define MEMORY_MAX (1024 * MIB)
#define TLB_MIN 4096u
#define TLB_MAX 32768u

static int size_cache(const struct cbench_core *core, bool l3, char *id, size_t id_bytes, char *why,
		      size_t why_bytes)
{
	uint64_t bytes;

	if (!core->l1d_bytes || !core->l2_bytes || (l3 && !core->l3_bytes)) {
		snprintf(why, why_bytes, "CPUID gives no %s size to size the chase from",
			 !core->l2_bytes ? "L2" : l3 ? "L3" : "L1d");
		return -ENOENT;
	}
	if (!l3) {
		/* A quarter of the L2 (a sibling thread or a neighbour shares
		 * it), but four times the L1d, so the L1d holds a quarter at most. */
		uint64_t least = pow2_ceil(4 * core->l1d_bytes);

		bytes = pow2_floor(core->l2_bytes / 4);
		if (bytes < least)
			bytes = least;
		if (bytes > L2_CHASE_MAX)
			bytes = L2_CHASE_MAX;
		if (bytes > core->l2_bytes / 2 || bytes < L2_CHASE_MIN) {
			snprintf(why, why_bytes, "the L2 (%llu KiB) is too close to the L1d (%llu KiB) "
				 "for a chase between them", (unsigned long long)(core->l2_bytes / KIB),
				 (unsigned long long)(core->l1d_bytes / KIB));
			return -ENOENT;
		}
	} else {
		uint64_t l3_room = core->l3_bytes / 4;

		bytes = pow2_floor(4 * core->l2_bytes < l3_room ? 4 * core->l2_bytes : l3_room);
		if (bytes > L3_CHASE_MAX)
			bytes = L3_CHASE_MAX;
		if (bytes < 2 * core->l2_bytes || bytes < L3_CHASE_MIN) {
			snprintf(why, why_bytes, "the L3 (%llu KiB) is too close to the L2 (%llu KiB) "
				 "for a chase between them", (unsigned long long)(core->l3_bytes / KIB),
				 (unsigned long long)(core->l2_bytes / KIB));
			return -ENOENT;
		}
	}
	snprintf(id, id_bytes, "latency_%s_%lluk", l3 ? "random" : "chase",
		 (unsigned long long)(bytes / KIB));
	return 0;
}

static int size_memory(const struct cbench_core *core, uint64_t mem_bytes, char *id, size_t id_bytes,
		       char *why, size_t why_bytes)
{
	uint64_t bytes;

	if (!core->l3_bytes && !core->l2_bytes) {
		snprintf(why, why_bytes, "CPUID gives no L3 (nor L2) size to size the chase from");
		return -ENOENT;
	}
	bytes = pow2_ceil(2 * (core->l3_bytes ? core->l3_bytes : core->l2_bytes));
	if (bytes < MEMORY_MIN)
		bytes = MEMORY_MIN;
	if (bytes > MEMORY_MAX || (mem_bytes && bytes > mem_bytes / 4)) {
		snprintf(why, why_bytes, "a chase past 2 x the L3 (%llu MiB) needs %llu MiB, over %s",
			 (unsigned long long)(core->l3_bytes / MIB), (unsigned long long)(bytes / MIB),
			 bytes > MEMORY_MAX ? "the largest kernel (1024 MiB)" : "a quarter of memory");
		return -ENOENT;
	}
	snprintf(id, id_bytes, "latency_memory_%llum", (unsigned long long)(bytes / MIB));
	return 0;
}

int cbench_known_kernels(const struct cbench_known_check *check, const struct cbench_core *core,
			 uint64_t mem_bytes, char *id, size_t id_bytes, char *minus_id,
			 size_t minus_bytes, char *why, size_t why_bytes)
{
	const char *from;
	uint64_t pages;

	*id = *minus_id = '\0';
	switch (check->size) {
	case CBENCH_KNOWN_FIXED:
		snprintf(id, id_bytes, "%s", check->benchmark);
		if (check->minus)
			snprintf(minus_id, minus_bytes, "%s", check->minus);
		return 0;
	case CBENCH_KNOWN_L2:
	case CBENCH_KNOWN_L3:
		return size_cache(core, check->size == CBENCH_KNOWN_L3, id, id_bytes, why, why_bytes);
	case CBENCH_KNOWN_MEMORY:
		return size_memory(core, mem_bytes, id, id_bytes, why, why_bytes);
	case CBENCH_KNOWN_TLB:
		pages = cbench_known_stlb_entries(core, &from);
		if (!pages) {
			snprintf(why, why_bytes, "neither CPUID nor the table says how many pages the "
				 "second-level TLB holds");
			return -ENOENT;
		}
		pages = pow2_ceil(4 * pages);
		if (pages < TLB_MIN)
			pages = TLB_MIN;
		if (pages > TLB_MAX) {
			snprintf(why, why_bytes, "the second-level TLB's %s entries need a chase over more "
				 "than %u pages", from, TLB_MAX);
			return -ENOENT;
		}
		snprintf(id, id_bytes, "tlb_miss_%llu", (unsigned long long)pages);
		snprintf(minus_id, minus_bytes, "tlb_hit_%llu", (unsigned long long)pages);
		return 0;
	}
	return -ENOENT;
}

bool cbench_known_supported(const struct cbench_known_check *check, const struct cbench_core *core)
{
	return (core->features & check->needs) == check->needs;
}
