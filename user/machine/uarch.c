// SPDX-License-Identifier: GPL-2.0
/*
 * The core from its CPUID leaves (see uarch.h).  The leaves are decoded as
 * the Intel SDM (vol. 2A, CPUID: leaves 04H, 07H, 18H, 1AH) and the AMD
 * APM (vol. 3, CPUID: 80000005H, 80000006H, 8000001DH) define them.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "machine/uarch.h"

#define BIT(n) (1u << (n))
#define KIB 1024ull
#define MIB (1024ull * 1024)

const struct cbench_feature_name cbench_feature_names[] = {
	{ CBENCH_FEAT_SSE42, "SSE4.2" },
	{ CBENCH_FEAT_POPCNT, "POPCNT" },
	{ CBENCH_FEAT_AVX, "AVX" },
	{ CBENCH_FEAT_FMA, "FMA" },
	{ CBENCH_FEAT_AVX2, "AVX2" },
	{ CBENCH_FEAT_CLFLUSHOPT, "CLFLUSHOPT" },
	{ CBENCH_FEAT_CLWB, "CLWB" },
	{ CBENCH_FEAT_AVX512F, "AVX512F" },
	{ CBENCH_FEAT_AVX512_VBMI, "AVX512-VBMI" },
	{ CBENCH_FEAT_AVX512_VNNI, "AVX512-VNNI" },
	{ CBENCH_FEAT_AVX512_FP16, "AVX512-FP16" },
	{ CBENCH_FEAT_AMX_TILE, "AMX-TILE" },
	{ CBENCH_FEAT_AVX_VNNI, "AVX-VNNI" },
	{ CBENCH_FEAT_AMX_FP16, "AMX-FP16" },
	{ CBENCH_FEAT_LZCNT, "LZCNT" },
	{ CBENCH_FEAT_BMI2, "BMI2" },
	{ CBENCH_FEAT_SHA, "SHA" },
	{ CBENCH_FEAT_AVX512_BF16, "AVX512-BF16" },
	{ CBENCH_FEAT_GFNI, "GFNI" },
	{ CBENCH_FEAT_AES, "AES" },
	{ CBENCH_FEAT_ADX, "ADX" },
	{ CBENCH_FEAT_BMI1, "BMI1" },
	{ CBENCH_FEAT_AVX512_VP2INTERSECT, "AVX512-VP2INTERSECT" },
	{ 0, NULL },
};

static const struct {
	const char *key, *name;
	enum cbench_line line;
} uarchs[CBENCH_UARCHS] = {
	[CBENCH_UARCH_UNKNOWN] = { "unknown", "", CBENCH_LINE_NONE },
	[CBENCH_UARCH_SKYLAKE] = { "skylake", "Skylake (client: Skylake to Comet Lake)",
				   CBENCH_LINE_INTEL_CORE },
	[CBENCH_UARCH_SKYLAKE_SP] = { "skylake-sp", "Skylake-SP (Skylake-SP, Cascade Lake, Cooper Lake)",
				      CBENCH_LINE_INTEL_CORE },
	[CBENCH_UARCH_SUNNY_COVE] = { "sunny-cove", "Sunny Cove (Ice Lake, Tiger Lake, Rocket Lake)",
				      CBENCH_LINE_INTEL_CORE },
	[CBENCH_UARCH_GOLDEN_COVE] = { "golden-cove", "Golden Cove (Alder and Raptor Lake P-cores)",
				       CBENCH_LINE_INTEL_CORE },
	[CBENCH_UARCH_GOLDEN_COVE_SP] = { "golden-cove-sp",
					  "Golden Cove (server: Sapphire Rapids, Emerald Rapids)",
					  CBENCH_LINE_INTEL_CORE },
	[CBENCH_UARCH_GRACEMONT] = { "gracemont", "Gracemont (Alder and Raptor Lake E-cores)",
				     CBENCH_LINE_INTEL_ATOM },
	[CBENCH_UARCH_ZEN] = { "zen", "AMD Zen, Zen+", CBENCH_LINE_AMD_ZEN },
	[CBENCH_UARCH_ZEN2] = { "zen2", "AMD Zen 2", CBENCH_LINE_AMD_ZEN },
	[CBENCH_UARCH_ZEN3] = { "zen3", "AMD Zen 3", CBENCH_LINE_AMD_ZEN },
	[CBENCH_UARCH_ZEN4] = { "zen4", "AMD Zen 4", CBENCH_LINE_AMD_ZEN },
	[CBENCH_UARCH_ZEN5] = { "zen5", "AMD Zen 5", CBENCH_LINE_AMD_ZEN },
};

static const struct {
	const char *key, *name;
} lines[] = {
	[CBENCH_LINE_NONE] = { "none", "no line the table covers" },
	[CBENCH_LINE_INTEL_CORE] = { "intel-core", "an Intel Core" },
	[CBENCH_LINE_INTEL_ATOM] = { "intel-atom", "an Intel Atom (E-core)" },
	[CBENCH_LINE_AMD_ZEN] = { "amd-zen", "an AMD Zen" },
};

const char *cbench_uarch_name(enum cbench_uarch uarch)
{
	return uarch < CBENCH_UARCHS ? uarchs[uarch].name : "";
}

const char *cbench_uarch_key(enum cbench_uarch uarch)
{
	return uarch < CBENCH_UARCHS ? uarchs[uarch].key : "unknown";
}

const char *cbench_line_name(enum cbench_line line)
{
	return line <= CBENCH_LINE_AMD_ZEN ? lines[line].name : "";
}

const char *cbench_line_key(enum cbench_line line)
{
	return line <= CBENCH_LINE_AMD_ZEN ? lines[line].key : "none";
}

int cbench_core_parse(const char *key, enum cbench_line *line, enum cbench_uarch *uarch)
{
	for (int u = CBENCH_UARCH_UNKNOWN + 1; u < CBENCH_UARCHS; u++) {
		if (!strcmp(key, uarchs[u].key)) {
			*uarch = (enum cbench_uarch)u;
			*line = uarchs[u].line;
			return 0;
		}
	}
	for (int l = CBENCH_LINE_INTEL_CORE; l <= CBENCH_LINE_AMD_ZEN; l++) {
		if (l != CBENCH_LINE_INTEL_ATOM && !strcmp(key, lines[l].key)) {
			*uarch = CBENCH_UARCH_UNKNOWN;
			*line = (enum cbench_line)l;
			return 0;
		}
	}
	return -EINVAL;
}

/* Appends to core->how. */
__attribute__((format(printf, 2, 3)))
static void say(struct cbench_core *core, const char *fmt, ...)
{
	size_t at = strlen(core->how);
	va_list ap;

	if (at >= sizeof(core->how) - 1)
		return;
	va_start(ap, fmt);
	vsnprintf(core->how + at, sizeof(core->how) - at, fmt, ap);
	va_end(ap);
}

static uint32_t field(uint32_t value, unsigned int low, unsigned int width)
{
	return (value >> low) & (width < 32 ? BIT(width) - 1 : ~0u);
}

static void read_features(struct cbench_core *core, cbench_cpuid_read_fn read, uint32_t max_basic,
			  uint32_t max_ext)
{
	struct cbench_cpuid_regs r;
	uint32_t f = 0;

	if (max_basic >= 1) {
		read(1, 0, &r);
		f |= r.ecx & BIT(20) ? CBENCH_FEAT_SSE42 : 0;
		f |= r.ecx & BIT(23) ? CBENCH_FEAT_POPCNT : 0;
		f |= r.ecx & BIT(28) ? CBENCH_FEAT_AVX : 0;
		f |= r.ecx & BIT(12) ? CBENCH_FEAT_FMA : 0;
		f |= r.ecx & BIT(25) ? CBENCH_FEAT_AES : 0;
	}
	if (max_basic >= 7) {
		uint32_t subleaves;

		read(7, 0, &r);
		subleaves = r.eax;
		f |= r.ebx & BIT(3) ? CBENCH_FEAT_BMI1 : 0;
		f |= r.ebx & BIT(5) ? CBENCH_FEAT_AVX2 : 0;
		f |= r.ebx & BIT(8) ? CBENCH_FEAT_BMI2 : 0;
		f |= r.ebx & BIT(16) ? CBENCH_FEAT_AVX512F : 0;
		f |= r.ebx & BIT(19) ? CBENCH_FEAT_ADX : 0;
		f |= r.ebx & BIT(23) ? CBENCH_FEAT_CLFLUSHOPT : 0;
		f |= r.ebx & BIT(24) ? CBENCH_FEAT_CLWB : 0;
		f |= r.ebx & BIT(29) ? CBENCH_FEAT_SHA : 0;
		f |= r.ecx & BIT(1) ? CBENCH_FEAT_AVX512_VBMI : 0;
		f |= r.ecx & BIT(8) ? CBENCH_FEAT_GFNI : 0;
		f |= r.ecx & BIT(11) ? CBENCH_FEAT_AVX512_VNNI : 0;
		f |= r.edx & BIT(8) ? CBENCH_FEAT_AVX512_VP2INTERSECT : 0;
		f |= r.edx & BIT(23) ? CBENCH_FEAT_AVX512_FP16 : 0;
		f |= r.edx & BIT(24) ? CBENCH_FEAT_AMX_TILE : 0;
		if (subleaves >= 1) {
			read(7, 1, &r);
			f |= r.eax & BIT(4) ? CBENCH_FEAT_AVX_VNNI : 0;
			f |= r.eax & BIT(5) ? CBENCH_FEAT_AVX512_BF16 : 0;
			f |= r.eax & BIT(21) ? CBENCH_FEAT_AMX_FP16 : 0;
		}
	}
	if (max_ext >= 0x80000001) {
		read(0x80000001, 0, &r);
		f |= r.ecx & BIT(5) ? CBENCH_FEAT_LZCNT : 0;
	}
	core->features = f;
}

/* A deterministic cache parameters leaf (Intel 04H, AMD 8000001DH), every subleaf. */
static void read_cache_leaf(struct cbench_core *core, cbench_cpuid_read_fn read, uint32_t leaf)
{
	for (uint32_t sub = 0; sub < 16; sub++) {
		struct cbench_cpuid_regs r;
		uint32_t type, level;
		uint64_t bytes;

		read(leaf, sub, &r);
		type = field(r.eax, 0, 5);
		if (!type)
			break;
		level = field(r.eax, 5, 3);
		bytes = (uint64_t)(field(r.ebx, 22, 10) + 1) * (field(r.ebx, 12, 10) + 1) *
			(field(r.ebx, 0, 12) + 1) * ((uint64_t)r.ecx + 1);
		if (level == 1 && type == 1)
			core->l1d_bytes = bytes;
		else if (level == 2 && type != 2)
			core->l2_bytes = bytes;
		else if (level == 3 && type != 2)
			core->l3_bytes = bytes;
	}
}

/* AMD's legacy L1 and L2/L3 leaves: sizes and the 4 KiB data TLBs. */
static void read_amd_legacy(struct cbench_core *core, cbench_cpuid_read_fn read, uint32_t max_ext,
			    bool caches)
{
	struct cbench_cpuid_regs r;

	if (max_ext >= 0x80000005) {
		read(0x80000005, 0, &r);
		if (caches)
			core->l1d_bytes = field(r.ecx, 24, 8) * KIB;
		core->dtlb_entries = field(r.ebx, 16, 8);
	}
	if (max_ext >= 0x80000006) {
		read(0x80000006, 0, &r);
		if (caches) {
			core->l2_bytes = field(r.ecx, 16, 16) * KIB;
			core->l3_bytes = field(r.edx, 18, 14) * 512 * KIB;
		}
		/*
		 * An associativity of 0 means the TLB is not there.  A field
		 * of 12 bits cannot say 4096: a Ryzen 9 9950X reads 128 there,
		 * less than any Zen has; we believe no second-level TLB under 512.
		 */
		if (field(r.ebx, 28, 4) && field(r.ebx, 16, 12) >= 512)
			core->stlb_entries = field(r.ebx, 16, 12);
	}
}

/*
 * Intel's deterministic address translation leaf: the 4 KiB entries of
 * the first level data (or load-only) TLBs and of the second level's.
 */
static void read_tlb_leaf(struct cbench_core *core, cbench_cpuid_read_fn read)
{
	struct cbench_cpuid_regs r;
	uint32_t last;

	read(0x18, 0, &r);
	last = r.eax < 32 ? r.eax : 31;
	for (uint32_t sub = 0; sub <= last; sub++) {
		uint32_t type, level, entries;

		if (sub)
			read(0x18, sub, &r);
		type = field(r.edx, 0, 5);
		level = field(r.edx, 5, 3);
		if (!type || !(r.ebx & BIT(0)))
			continue;
		entries = field(r.ebx, 16, 16) * r.ecx;
		if (level == 1 && (type == 1 || type == 4))
			core->dtlb_entries += entries;
		else if (level == 2 && (type == 1 || type == 3))
			core->stlb_entries += entries;
	}
}

static void read_hypervisor(struct cbench_core *core, cbench_cpuid_read_fn read)
{
	struct cbench_cpuid_regs r;

	if (!core->cpu.hypervisor)
		return;
	read(0x40000000, 0, &r);
	memcpy(core->hypervisor, &r.ebx, 4);
	memcpy(core->hypervisor + 4, &r.ecx, 4);
	memcpy(core->hypervisor + 8, &r.edx, 4);
	core->hypervisor[12] = '\0';
	for (int i = 0; i < 12; i++) {
		if ((unsigned char)core->hypervisor[i] < ' ' || (unsigned char)core->hypervisor[i] > '~')
			core->hypervisor[i] = '\0';
	}
}

/* The Intel family 6 models whose core the table knows. */
static enum cbench_uarch intel_by_model(uint32_t model)
{
	switch (model) {
	case 0x4e: case 0x5e: case 0x8e: case 0x9e: case 0xa5: case 0xa6:
		return CBENCH_UARCH_SKYLAKE;
	case 0x55:
		return CBENCH_UARCH_SKYLAKE_SP;
	case 0x6a: case 0x6c: case 0x7d: case 0x7e: case 0x8c: case 0x8d: case 0xa7:
		return CBENCH_UARCH_SUNNY_COVE;
	case 0x97: case 0x9a: case 0xb7: case 0xba: case 0xbf:
		return CBENCH_UARCH_GOLDEN_COVE;
	case 0x8f: case 0xcf:
		return CBENCH_UARCH_GOLDEN_COVE_SP;
	case 0xbe:
		return CBENCH_UARCH_GRACEMONT;
	}
	return CBENCH_UARCH_UNKNOWN;
}

/* Intel's small cores (Atom), by family 6 model: a line of their own. */
static bool intel_atom_model(uint32_t model)
{
	static const uint8_t atoms[] = { 0x1c, 0x26, 0x27, 0x35, 0x36, 0x37, 0x4a, 0x4c, 0x4d, 0x5a,
					 0x5c, 0x5d, 0x5f, 0x65, 0x6e, 0x75, 0x7a, 0x86, 0x8a, 0x96,
					 0x9c, 0xaf, 0xb6, 0xbe, 0xdd };

	for (size_t i = 0; i < sizeof(atoms); i++) {
		if (atoms[i] == model)
			return true;
	}
	return false;
}

/* What the features say of a non-hybrid Intel Core, and why. */
static enum cbench_uarch intel_by_features(const struct cbench_core *core, const char **why)
{
	uint32_t f = core->features;

	if (f & (CBENCH_FEAT_AMX_TILE | CBENCH_FEAT_AVX512_FP16)) {
		if (f & CBENCH_FEAT_AMX_FP16) {
			*why = "AMX-FP16: Granite Rapids or later, which the table lacks";
			return CBENCH_UARCH_UNKNOWN;
		}
		if (core->l2_bytes && core->l2_bytes < 2 * MIB) {
			*why = "AVX512-FP16 with a 1.25 MiB L2: a Golden Cove client core with AVX-512 on";
			return CBENCH_UARCH_GOLDEN_COVE;
		}
		*why = f & CBENCH_FEAT_AMX_TILE ? "AMX-TILE and AVX512-FP16 without AMX-FP16" :
		       "AVX512-FP16 on a core that is not hybrid, AMX hidden";
		return CBENCH_UARCH_GOLDEN_COVE_SP;
	}
	if ((f & CBENCH_FEAT_AVX512F) && (f & CBENCH_FEAT_AVX512_VBMI)) {
		*why = "AVX-512 with VBMI, without AVX512-FP16";
		return CBENCH_UARCH_SUNNY_COVE;
	}
	if (f & CBENCH_FEAT_AVX512F) {
		*why = "AVX512F without VBMI";
		return CBENCH_UARCH_SKYLAKE_SP;
	}
	if (f & CBENCH_FEAT_AVX_VNNI) {
		*why = "AVX-VNNI without AVX-512 nor the hybrid flag: a P-core and an E-core cannot be "
		       "told apart";
		return CBENCH_UARCH_UNKNOWN;
	}
	if ((f & CBENCH_FEAT_AVX2) && (f & CBENCH_FEAT_CLFLUSHOPT)) {
		*why = "AVX2 and CLFLUSHOPT without AVX-512";
		return CBENCH_UARCH_SKYLAKE;
	}
	*why = "no feature that tells a core the table knows";
	return CBENCH_UARCH_UNKNOWN;
}

static void identify_intel_hybrid(struct cbench_core *core, enum cbench_uarch by_model)
{
	bool adl = by_model == CBENCH_UARCH_GOLDEN_COVE;
	bool atom = core->cpu.core_type == CBENCH_CORE_TYPE_ATOM;

	if (!atom && core->cpu.core_type != CBENCH_CORE_TYPE_CORE) {
		say(core, "a hybrid part whose CPUID.1AH does not say this CPU's core type (%#x)",
		    core->cpu.core_type);
		return;
	}
	core->line = atom ? CBENCH_LINE_INTEL_ATOM : CBENCH_LINE_INTEL_CORE;
	if (adl)
		core->uarch = atom ? CBENCH_UARCH_GRACEMONT : CBENCH_UARCH_GOLDEN_COVE;
	say(core, "a hybrid part (CPUID.07H:EDX[15]); this CPU is %s (CPUID.1AH); ",
	    atom ? "an E-core" : "a P-core");
	if (adl)
		say(core, "model %#x is Alder or Raptor Lake's", core->cpu.model);
	else
		say(core, "the table knows no %s of model %#x", atom ? "E-core" : "P-core",
		    core->cpu.model);
}

static void identify_intel(struct cbench_core *core)
{
	enum cbench_uarch by_model = CBENCH_UARCH_UNKNOWN, by_features;
	const char *why = "";

	if (core->cpu.family == 6)
		by_model = intel_by_model(core->cpu.model);
	if (core->cpu.family < 6) {
		say(core, "Intel family %u: older than the table", core->cpu.family);
		return;
	}
	if (core->cpu.hybrid) {
		identify_intel_hybrid(core, by_model);
		return;
	}
	if (core->cpu.family == 6 && intel_atom_model(core->cpu.model)) {
		core->line = CBENCH_LINE_INTEL_ATOM;
		core->uarch = by_model == CBENCH_UARCH_GRACEMONT ? by_model : CBENCH_UARCH_UNKNOWN;
		say(core, "model %#x is an Atom's", core->cpu.model);
		return;
	}
	by_features = intel_by_features(core, &why);
	if (by_features == CBENCH_UARCH_UNKNOWN && strstr(why, "cannot be told")) {
		say(core, "CPUID: %s", why);
		return;
	}
	core->line = CBENCH_LINE_INTEL_CORE;
	core->uarch = by_features;
	say(core, "CPUID: %s", why);
	if (by_model == by_features && by_model != CBENCH_UARCH_UNKNOWN)
		say(core, "; model %#x agrees", core->cpu.model);
	else if (by_model != CBENCH_UARCH_UNKNOWN)
		say(core, "; model %#x is %s's number, which the features overrule (a guest's model "
		    "is not its silicon's)", core->cpu.model, uarchs[by_model].name);
	else
		say(core, "; model %#x is not in the table", core->cpu.model);
}

static bool in(uint32_t model, uint32_t lo, uint32_t hi)
{
	return model >= lo && model <= hi;
}

static void identify_amd_19h(struct cbench_core *core)
{
	uint32_t m = core->cpu.model;
	bool zen4_model = in(m, 0x10, 0x1f) || in(m, 0x60, 0xaf);

	if (core->features & CBENCH_FEAT_AVX512F) {
		core->uarch = CBENCH_UARCH_ZEN4;
		say(core, "family 19h with AVX-512");
	} else if (core->l2_bytes == MIB || (!core->l2_bytes && zen4_model)) {
		core->uarch = CBENCH_UARCH_ZEN4;
		say(core, "family 19h with a 1 MiB L2, AVX-512 hidden");
	} else if (core->l2_bytes == 512 * KIB || (!core->l2_bytes && !zen4_model)) {
		core->uarch = CBENCH_UARCH_ZEN3;
		say(core, "family 19h without AVX-512, %s", core->l2_bytes ? "a 512 KiB L2" : "by model");
	} else {
		say(core, "family 19h without AVX-512 and a %llu KiB L2: neither Zen 3 nor Zen 4",
		    (unsigned long long)(core->l2_bytes / KIB));
		return;
	}
	if ((core->uarch == CBENCH_UARCH_ZEN4) != zen4_model)
		say(core, "; model %#x is %s's number, which the features overrule (a guest's model "
		    "is not its silicon's)", m, zen4_model ? "Zen 4" : "Zen 3");
	else
		say(core, "; model %#x agrees", m);
}

static void identify_amd(struct cbench_core *core)
{
	uint32_t family = core->cpu.family;

	if (family < 0x17) {
		say(core, "AMD family %#x: before Zen (or an emulator's default CPU)", family);
		return;
	}
	core->line = CBENCH_LINE_AMD_ZEN;
	if (family == 0x17) {
		bool zen2 = core->features & CBENCH_FEAT_CLWB;

		core->uarch = zen2 ? CBENCH_UARCH_ZEN2 : CBENCH_UARCH_ZEN;
		say(core, "family 17h %s CLWB", zen2 ? "with" : "without");
		if (zen2 != (core->cpu.model >= 0x30))
			say(core, "; model %#x says otherwise, which the features overrule",
			    core->cpu.model);
		else
			say(core, "; model %#x agrees", core->cpu.model);
	} else if (family == 0x19) {
		identify_amd_19h(core);
	} else if (family == 0x1a && core->cpu.model < 0x80) {
		core->uarch = CBENCH_UARCH_ZEN5;
		say(core, "family 1Ah, model %#x", core->cpu.model);
	} else {
		say(core, "AMD family %#x model %#x: newer than the table", family, core->cpu.model);
	}
}

void cbench_core_identify(struct cbench_core *core, cbench_cpuid_read_fn read)
{
	struct cbench_cpuid_regs r;
	uint32_t max_basic, max_ext;
	bool amd;

	memset(core, 0, sizeof(*core));
	cbench_cpuid_decode(&core->cpu, read);
	read(0, 0, &r);
	max_basic = r.eax;
	read(0x80000000, 0, &r);
	max_ext = r.eax >= 0x80000000 && r.eax <= 0x8000ffff ? r.eax : 0;
	amd = core->cpu.vendor_id == CBENCH_CPU_VENDOR_AMD ||
	      core->cpu.vendor_id == CBENCH_CPU_VENDOR_HYGON;

	read_features(core, read, max_basic, max_ext);
	read_hypervisor(core, read);
	if (amd) {
		bool topoext = false;

		if (max_ext >= 0x80000001) {
			read(0x80000001, 0, &r);
			topoext = r.ecx & BIT(22);
		}
		if (topoext && max_ext >= 0x8000001d)
			read_cache_leaf(core, read, 0x8000001d);
		read_amd_legacy(core, read, max_ext, !core->l2_bytes);
	} else {
		if (max_basic >= 4)
			read_cache_leaf(core, read, 4);
		if (max_basic >= 0x18)
			read_tlb_leaf(core, read);
	}

	if (!strcmp(core->hypervisor, "TCGTCGTCGTCG")) {
		say(core, "QEMU's TCG emulates this CPU: its timings are the emulator's, not a core's");
		return;
	}
	switch (core->cpu.vendor_id) {
	case CBENCH_CPU_VENDOR_INTEL:
		identify_intel(core);
		break;
	case CBENCH_CPU_VENDOR_AMD:
		identify_amd(core);
		break;
	case CBENCH_CPU_VENDOR_HYGON:
		core->line = CBENCH_LINE_AMD_ZEN;
		core->uarch = core->cpu.family == 0x18 ? CBENCH_UARCH_ZEN : CBENCH_UARCH_UNKNOWN;
		say(core, "Hygon family %#x%s", core->cpu.family,
		    core->uarch == CBENCH_UARCH_ZEN ? ": Dhyana, a Zen core" : ": newer than the table");
		break;
	default:
		say(core, "vendor %s: the table has no row for it", core->cpu.vendor);
		break;
	}
}

void cbench_core_force(struct cbench_core *core, enum cbench_line line, enum cbench_uarch uarch)
{
	char was[sizeof(core->how)];

	memcpy(was, core->how, sizeof(was));
	core->line = line;
	core->uarch = uarch;
	snprintf(core->how, sizeof(core->how), "as --core says (%s); CPUID said: %.200s",
		 uarch != CBENCH_UARCH_UNKNOWN ? uarchs[uarch].name : lines[line].name, was);
}
