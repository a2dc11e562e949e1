/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which core this is, from what CPUID reports of it rather than from its
 * model number alone: the vendor and family, the feature leaves (AVX-512
 * and its subsets, AMX, AVX-VNNI, ...), the cache and TLB leaves and, on a
 * hybrid part, the type of the core.  A hypervisor passes on model numbers
 * that are not its silicon's (an Emerald Rapids guest said model 167, a
 * desktop part's), so the features and the caches decide, and the model
 * only confirms, or breaks a tie.  Pure: the caller supplies the function
 * that executes CPUID (kmod/lib/cpuid.h), so the unit tests identify
 * canned dumps of real and virtual CPUs.
 */
#ifndef _CBENCH_UARCH_H
#define _CBENCH_UARCH_H

#include <stdbool.h>
#include <stdint.h>

#include "../../kmod/lib/cpuid.h"

/* A vendor's line of cores, over which some answers hold whatever the core. */
enum cbench_line {
	CBENCH_LINE_NONE,		/* a CPU no row of the table covers */
	CBENCH_LINE_INTEL_CORE,		/* Intel's big cores (family 6 and later, not Atom) */
	CBENCH_LINE_INTEL_ATOM,		/* Intel's small cores: no line-wide answers */
	CBENCH_LINE_AMD_ZEN,		/* AMD (and Hygon) family 17h and later */
};

/* The microarchitectures the table of known answers has rows for. */
enum cbench_uarch {
	CBENCH_UARCH_UNKNOWN,		/* its line is known, the core is not */
	CBENCH_UARCH_SKYLAKE,		/* Skylake to Comet Lake, client */
	CBENCH_UARCH_SKYLAKE_SP,	/* Skylake-SP, Cascade Lake, Cooper Lake */
	CBENCH_UARCH_SUNNY_COVE,	/* Ice Lake, Tiger Lake, Rocket Lake (client and server) */
	CBENCH_UARCH_GOLDEN_COVE,	/* Alder and Raptor Lake P-cores */
	CBENCH_UARCH_GOLDEN_COVE_SP,	/* Sapphire and Emerald Rapids */
	CBENCH_UARCH_GRACEMONT,		/* Alder and Raptor Lake E-cores, Alder Lake-N */
	CBENCH_UARCH_ZEN,		/* Zen, Zen+ (and Hygon's Dhyana) */
	CBENCH_UARCH_ZEN2,
	CBENCH_UARCH_ZEN3,
	CBENCH_UARCH_ZEN4,
	CBENCH_UARCH_ZEN5,
	CBENCH_UARCHS
};

/* CPUID feature flags the identification and the checks look at. */
enum cbench_feature {
	CBENCH_FEAT_SSE42 = 1u << 0,		/* CPUID.1:ECX[20] */
	CBENCH_FEAT_POPCNT = 1u << 1,		/* CPUID.1:ECX[23] */
	CBENCH_FEAT_AVX = 1u << 2,		/* CPUID.1:ECX[28] */
	CBENCH_FEAT_FMA = 1u << 3,		/* CPUID.1:ECX[12] */
	CBENCH_FEAT_AVX2 = 1u << 4,		/* CPUID.7.0:EBX[5] */
	CBENCH_FEAT_CLFLUSHOPT = 1u << 5,	/* CPUID.7.0:EBX[23] */
	CBENCH_FEAT_CLWB = 1u << 6,		/* CPUID.7.0:EBX[24] */
	CBENCH_FEAT_AVX512F = 1u << 7,		/* CPUID.7.0:EBX[16] */
	CBENCH_FEAT_AVX512_VBMI = 1u << 8,	/* CPUID.7.0:ECX[1] */
	CBENCH_FEAT_AVX512_VNNI = 1u << 9,	/* CPUID.7.0:ECX[11] */
	CBENCH_FEAT_AVX512_FP16 = 1u << 10,	/* CPUID.7.0:EDX[23] */
	CBENCH_FEAT_AMX_TILE = 1u << 11,	/* CPUID.7.0:EDX[24] */
	CBENCH_FEAT_AVX_VNNI = 1u << 12,	/* CPUID.7.1:EAX[4] */
	CBENCH_FEAT_AMX_FP16 = 1u << 13,	/* CPUID.7.1:EAX[21] */
	CBENCH_FEAT_LZCNT = 1u << 14,		/* CPUID.80000001H:ECX[5] (ABM) */
	CBENCH_FEAT_BMI2 = 1u << 15,		/* CPUID.7.0:EBX[8] */
	CBENCH_FEAT_SHA = 1u << 16,		/* CPUID.7.0:EBX[29] */
	CBENCH_FEAT_AVX512_BF16 = 1u << 17,	/* CPUID.7.1:EAX[5] */
	CBENCH_FEAT_GFNI = 1u << 18,		/* CPUID.7.0:ECX[8] */
	CBENCH_FEAT_AES = 1u << 19,		/* CPUID.1:ECX[25] */
	CBENCH_FEAT_ADX = 1u << 20,		/* CPUID.7.0:EBX[19] */
	CBENCH_FEAT_BMI1 = 1u << 21,		/* CPUID.7.0:EBX[3] */
	CBENCH_FEAT_AVX512_VP2INTERSECT = 1u << 22,	/* CPUID.7.0:EDX[8] */
};

/* The flags above by name, as --help and the reports spell them. */
struct cbench_feature_name {
	uint32_t flag;
	const char *name;
};
extern const struct cbench_feature_name cbench_feature_names[];

/* What one core is, as far as the table of known answers cares. */
struct cbench_core {
	struct cbench_cpu cpu;			/* vendor, family, model, hybrid, core type */
	uint32_t features;			/* CBENCH_FEAT_* */
	char hypervisor[13];			/* CPUID.40000000H's vendor, "" on bare metal */
	/* The caches this core sees, in bytes; 0 where CPUID says nothing. */
	uint64_t l1d_bytes, l2_bytes, l3_bytes;
	/* Entries for 4 KiB pages in the first and second level data TLBs,
	 * from CPUID (leaf 18H, or AMD's 80000005H and 80000006H); 0 where it
	 * says nothing (a guest: KVM passes no leaf 18H). */
	uint32_t dtlb_entries, stlb_entries;
	enum cbench_line line;
	enum cbench_uarch uarch;
	/* How the identification went, for the report: the evidence it
	 * used, where the model number disagreed, why nothing is known. */
	char how[320];
};

/* Identifies the core whose CPUID read answers. */
void cbench_core_identify(struct cbench_core *core, cbench_cpuid_read_fn read);

/*
 * Forces core to uarch (or to an unknown core of line, with uarch
 * CBENCH_UARCH_UNKNOWN), as `selftest --core` does for a guest whose CPUID
 * hides its silicon, saying so in how.
 */
void cbench_core_force(struct cbench_core *core, enum cbench_line line, enum cbench_uarch uarch);

/* "Golden Cove (server: Sapphire Rapids, Emerald Rapids)"; "" for UNKNOWN. */
const char *cbench_uarch_name(enum cbench_uarch uarch);
/* "golden-cove-sp", as --core names it; "intel-core", "amd-zen" for lines. */
const char *cbench_uarch_key(enum cbench_uarch uarch);
const char *cbench_line_name(enum cbench_line line);
const char *cbench_line_key(enum cbench_line line);

/* The uarch or line --core names: 0, or -EINVAL for a name we do not know. */
int cbench_core_parse(const char *key, enum cbench_line *line, enum cbench_uarch *uarch);

#endif /* _CBENCH_UARCH_H */
