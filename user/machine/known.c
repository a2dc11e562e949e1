// SPDX-License-Identifier: GPL-2.0
/*
 * The selftest's table of known answers (see known.h).  Every row cites
 * where its value comes from: the latencies and throughputs that uops.info
 * measured for each core (Abel and Reineke, ASPLOS 2019) and Agner Fog's
 * instruction tables and microarchitecture manual agree on them.  A CPU
 * without a row is measured only: the selftest never fails for want of one.
 */
#include <cpuid.h>
#include <string.h>

#include "machine/known.h"

const struct cbench_known_check cbench_known_checks[] = {
	{ "add", "latency_add", "dependent add r64, r64 latency", "cycles", 0.02, NULL, false },
	{ "imul", "latency_imul", "dependent imul r64, r64 latency", "cycles", 0.02, NULL, false },
	{ "crc32", "latency_crc32", "dependent crc32 r64, r64 latency", "cycles", 0.02, "sse4.2", false },
	{ "popcnt", "latency_popcnt", "dependent popcnt r64, r64 latency", "cycles", 0.02, "popcnt", false },
	{ "l1", "latency_l1", "L1 load-to-use latency (pointer chase in one page)", "cycles", 0.03,
	  NULL, false },
	{ "add-throughput", "throughput_add", "independent adds: cycles per add (1 / integer ALUs)",
	  "cycles per add", 0.05, NULL, true },
};

const unsigned int cbench_known_nchecks = sizeof(cbench_known_checks) / sizeof(cbench_known_checks[0]);

#define UOPS "uops.info; Agner Fog, instruction tables"
#define ANY 0, 0xff

enum vendor { AMD, INTEL };

/* One row: a value for a check on a vendor's family and models [lo, hi]. */
static const struct row {
	const char *check;
	enum vendor vendor;
	unsigned int family, model_lo, model_hi;
	double value;
	const char *cores;
} rows[] = {
	/* AMD Zen 1 to 5 (families 17h, 19h, 1Ah). */
	{ "add", AMD, 0x17, ANY, 1, "AMD Zen, Zen 2" },
	{ "add", AMD, 0x19, ANY, 1, "AMD Zen 3, Zen 4" },
	{ "add", AMD, 0x1a, ANY, 1, "AMD Zen 5" },
	{ "imul", AMD, 0x17, ANY, 3, "AMD Zen, Zen 2" },
	{ "imul", AMD, 0x19, ANY, 3, "AMD Zen 3, Zen 4" },
	{ "imul", AMD, 0x1a, ANY, 3, "AMD Zen 5" },
	{ "crc32", AMD, 0x17, ANY, 3, "AMD Zen, Zen 2" },
	{ "crc32", AMD, 0x19, ANY, 3, "AMD Zen 3, Zen 4" },
	{ "crc32", AMD, 0x1a, ANY, 3, "AMD Zen 5" },
	{ "popcnt", AMD, 0x17, ANY, 1, "AMD Zen, Zen 2" },
	{ "popcnt", AMD, 0x19, ANY, 1, "AMD Zen 3, Zen 4" },
	{ "popcnt", AMD, 0x1a, ANY, 1, "AMD Zen 5" },
	{ "l1", AMD, 0x17, ANY, 4, "AMD Zen, Zen 2" },
	{ "l1", AMD, 0x19, ANY, 4, "AMD Zen 3, Zen 4" },
	{ "l1", AMD, 0x1a, ANY, 4, "AMD Zen 5" },
	{ "add-throughput", AMD, 0x17, ANY, 0.25, "AMD Zen, Zen 2 (4 integer ALUs)" },
	{ "add-throughput", AMD, 0x19, ANY, 0.25, "AMD Zen 3, Zen 4 (4 integer ALUs)" },
	{ "add-throughput", AMD, 0x1a, ANY, 1.0 / 6, "AMD Zen 5 (6 integer ALUs)" },
	/*
	 * Intel family 6 Core parts without E-cores, by model.  Hybrid parts
	 * (Alder Lake, Raptor Lake) have no row: their E-cores differ, and
	 * the table cannot tell which core measured.
	 */
#define INTEL_CORE(lo, hi, l1, alus, cores)						\
	{ "add", INTEL, 6, lo, hi, 1, cores }, { "imul", INTEL, 6, lo, hi, 3, cores },	\
	{ "crc32", INTEL, 6, lo, hi, 3, cores }, { "popcnt", INTEL, 6, lo, hi, 3, cores },	\
	{ "l1", INTEL, 6, lo, hi, l1, cores },						\
	{ "add-throughput", INTEL, 6, lo, hi, 1.0 / (alus), cores }
	INTEL_CORE(0x4e, 0x4e, 4, 4, "Intel Skylake (client)"),
	INTEL_CORE(0x5e, 0x5e, 4, 4, "Intel Skylake (client)"),
	INTEL_CORE(0x55, 0x55, 4, 4, "Intel Skylake-SP, Cascade Lake"),
	INTEL_CORE(0x8e, 0x8e, 4, 4, "Intel Kaby Lake, Coffee Lake, Whiskey Lake"),
	INTEL_CORE(0x9e, 0x9e, 4, 4, "Intel Kaby Lake, Coffee Lake"),
	INTEL_CORE(0xa5, 0xa6, 4, 4, "Intel Comet Lake"),
	INTEL_CORE(0x6a, 0x6c, 5, 4, "Intel Ice Lake-SP"),
	INTEL_CORE(0x7d, 0x7e, 5, 4, "Intel Ice Lake (client)"),
	INTEL_CORE(0x8c, 0x8d, 5, 4, "Intel Tiger Lake"),
	INTEL_CORE(0x8f, 0x8f, 5, 5, "Intel Sapphire Rapids"),
	INTEL_CORE(0xcf, 0xcf, 5, 5, "Intel Emerald Rapids"),
};

bool cbench_known_lookup(const char *check, const char *vendor, unsigned int family,
			 unsigned int model, struct cbench_known_value *out)
{
	enum vendor v;

	if (!strcmp(vendor, "AuthenticAMD"))
		v = AMD;
	else if (!strcmp(vendor, "GenuineIntel"))
		v = INTEL;
	else
		return false;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];

		if (r->vendor == v && r->family == family && model >= r->model_lo &&
		    model <= r->model_hi && !strcmp(r->check, check)) {
			*out = (struct cbench_known_value){ .value = r->value, .source = UOPS,
							    .cores = r->cores };
			return true;
		}
	}
	return false;
}

bool cbench_known_supported(const struct cbench_known_check *check)
{
	unsigned int eax, ebx, ecx = 0, edx;

	if (!check->needs)
		return true;
	if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx))
		return false;
	if (!strcmp(check->needs, "sse4.2"))
		return ecx & bit_SSE4_2;
	if (!strcmp(check->needs, "popcnt"))
		return ecx & bit_POPCNT;
	return false;
}
