// SPDX-License-Identifier: GPL-2.0
/*
 * CPU identification and PMU capabilities from CPUID, as the Intel SDM
 * (vol. 2A, CPUID; vol. 3B, 20.2 "Architectural performance monitoring")
 * and the AMD APM (vol. 2, 13.2 and vol. 3, CPUID) define them.
 */
#ifdef __KERNEL__
#include <linux/string.h>
#else
#include <string.h>
#endif

#include <uapi/linux/cbench.h>

#include "cpuid.h"

#define BIT32(n) (1U << (n))

/* Every AMD64 core counter is 48 bits wide (APM vol. 2, 13.2.1). */
#define AMD_COUNTER_BITS 48
/* The core performance counter extension (PerfCtrExtCore) has six. */
#define AMD_CORE_EXT_COUNTERS 6
/* The legacy counters PerfCtr0-3, architectural since the K7. */
#define AMD_LEGACY_COUNTERS 4

static uint32_t bits(uint32_t value, unsigned int low, unsigned int width)
{
	return (value >> low) & ((width < 32 ? BIT32(width) : 0) - 1);
}

static uint32_t count_ones(uint32_t value)
{
	uint32_t n = 0;

	for (; value; value &= value - 1)
		n++;
	return n;
}

static enum cbench_cpu_vendor vendor_of(const char *vendor)
{
	if (!strcmp(vendor, "GenuineIntel"))
		return CBENCH_CPU_VENDOR_INTEL;
	if (!strcmp(vendor, "AuthenticAMD"))
		return CBENCH_CPU_VENDOR_AMD;
	if (!strcmp(vendor, "HygonGenuine"))
		return CBENCH_CPU_VENDOR_HYGON;
	return CBENCH_CPU_VENDOR_OTHER;
}

/*
 * Leaf 0AH.  The EBX bit vector, EAX[31:24] bits long, marks architectural
 * events the counters cannot count; bits past its length are unavailable
 * too.  Fixed counter i exists if ECX[i] (version 5 on) or EDX[4:0] > i.
 */
static void decode_arch_perfmon(struct cbench_pmu_caps *pmu,
				const struct cbench_cpuid_regs *r)
{
	static const struct {
		unsigned int ebx_bit;
		unsigned int fixed_counter;
		uint32_t event;
	} arch_events[] = {
		{ 0, 1, CBENCH_COUNTER_F_CYCLES },
		{ 1, 0, CBENCH_COUNTER_F_INSTRUCTIONS },
		{ 2, 2, CBENCH_COUNTER_F_REF_CYCLES },
	};
	uint32_t vector_bits;
	size_t i;

	pmu->version = bits(r->eax, 0, 8);
	if (!pmu->version)
		return;
	pmu->gp_counters = bits(r->eax, 8, 8);
	pmu->gp_bits = bits(r->eax, 16, 8);
	vector_bits = bits(r->eax, 24, 8);
	if (pmu->version >= 2) {
		uint32_t n = bits(r->edx, 0, 5);

		pmu->fixed_mask = n >= 32 ? ~0U : BIT32(n) - 1;
		if (pmu->version >= 5)
			pmu->fixed_mask |= r->ecx;
		pmu->fixed_counters = count_ones(pmu->fixed_mask);
		pmu->fixed_bits = pmu->fixed_counters ? bits(r->edx, 5, 8) : 0;
	}
	for (i = 0; i < sizeof(arch_events) / sizeof(arch_events[0]); i++) {
		bool on_gp = pmu->gp_counters && arch_events[i].ebx_bit < vector_bits &&
			     !(r->ebx & BIT32(arch_events[i].ebx_bit));
		bool on_fixed = pmu->fixed_mask & BIT32(arch_events[i].fixed_counter);

		if (on_gp || on_fixed)
			pmu->events |= arch_events[i].event;
	}
}

/*
 * AMD enumerates its counters in three generations: PerfMonV2
 * (CPUID.80000022H:EAX[0], counters in EBX[3:0]), the core counter
 * extension (CPUID.80000001H:ECX[23]), and before both the four legacy
 * counters every AMD64 CPU has.  A hypervisor that passes counters through
 * sets one of the two flags; without either we trust the legacy counters
 * on bare metal only.  AMD has no fixed counters and no reference-cycles
 * event.
 */
static void decode_amd_perfmon(struct cbench_cpu *cpu, const struct cbench_cpuid_regs *ext1,
			       const struct cbench_cpuid_regs *ext22)
{
	struct cbench_pmu_caps *pmu = &cpu->pmu;

	if (ext22->eax & BIT32(0)) {
		pmu->version = 2;
		pmu->gp_counters = bits(ext22->ebx, 0, 4);
	} else if (ext1->ecx & BIT32(23)) {
		pmu->version = 1;
		pmu->gp_counters = AMD_CORE_EXT_COUNTERS;
	} else if (!cpu->hypervisor && cpu->family >= 0xf) {
		pmu->version = 1;
		pmu->gp_counters = AMD_LEGACY_COUNTERS;
	}
	if (pmu->gp_counters) {
		pmu->gp_bits = AMD_COUNTER_BITS;
		pmu->events = CBENCH_COUNTER_F_INSTRUCTIONS | CBENCH_COUNTER_F_CYCLES;
	} else {
		pmu->version = 0;
	}
}

void cbench_cpuid_decode(struct cbench_cpu *cpu, cbench_cpuid_read_fn read)
{
	struct cbench_cpuid_regs r, ext1 = { 0 }, ext22 = { 0 };
	uint32_t max_basic, max_ext;

	memset(cpu, 0, sizeof(*cpu));

	read(0, 0, &r);
	max_basic = r.eax;
	memcpy(cpu->vendor, &r.ebx, 4);
	memcpy(cpu->vendor + 4, &r.edx, 4);
	memcpy(cpu->vendor + 8, &r.ecx, 4);
	cpu->vendor[12] = '\0';
	cpu->vendor_id = vendor_of(cpu->vendor);

	if (max_basic >= 1) {
		uint32_t base_family, model;

		read(1, 0, &r);
		/* The kernel's rule (x86_family(), x86_model()), so we agree with it. */
		base_family = bits(r.eax, 8, 4);
		cpu->family = base_family;
		if (base_family == 0xf)
			cpu->family += bits(r.eax, 20, 8);
		model = bits(r.eax, 4, 4);
		if (cpu->family >= 0x6)
			model |= bits(r.eax, 16, 4) << 4;
		cpu->model = model;
		cpu->stepping = bits(r.eax, 0, 4);
		cpu->hypervisor = r.ecx & BIT32(31);
	}
	/* Intel's hybrid flag; the bit is reserved on AMD. */
	if (cpu->vendor_id == CBENCH_CPU_VENDOR_INTEL && max_basic >= 7) {
		read(7, 0, &r);
		cpu->hybrid = r.edx & BIT32(15);
	}
	if (cpu->hybrid && max_basic >= 0x1a) {
		read(0x1a, 0, &r);
		cpu->core_type = bits(r.eax, 24, 8);
	}

	read(0x80000000, 0, &r);
	/* CPUs without extended leaves answer with garbage below 0x80000000. */
	max_ext = r.eax >= 0x80000000 && r.eax <= 0x8000ffff ? r.eax : 0;
	if (max_ext >= 0x80000001)
		read(0x80000001, 0, &ext1);
	if (max_ext >= 0x80000007) {
		read(0x80000007, 0, &r);
		cpu->tsc_invariant = r.edx & BIT32(8);
	}
	if (max_ext >= 0x80000022)
		read(0x80000022, 0, &ext22);

	switch (cpu->vendor_id) {
	case CBENCH_CPU_VENDOR_AMD:
	case CBENCH_CPU_VENDOR_HYGON:
		decode_amd_perfmon(cpu, &ext1, &ext22);
		break;
	default:
		if (max_basic >= 0xa) {
			read(0xa, 0, &r);
			decode_arch_perfmon(&cpu->pmu, &r);
		}
		break;
	}
}
