// SPDX-License-Identifier: GPL-2.0
/*
 * `cbenchctl info`'s report (report/report_info.c), text and JSON, for
 * fixed answers of cbench.ko and fixed machines, against the golden files
 * tests/golden/info-*.  Between them the fixtures take every branch of the
 * report: a module of today with every figure, an older one that says
 * little, one between, and none.  The ABI this cbenchctl speaks
 * (CBENCH_ABI_VERSION) is part of the text: raising it means rewriting the
 * files (CBENCH_GOLDEN_UPDATE=1, tests/unit/golden.h).
 */
#include <stdio.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include <cbench.h>
#include <uapi/linux/cbench.h>

#include "golden.h"
#include "report/report_info.h"

#define ALL_COUNTERS (CBENCH_COUNTER_F_INSTRUCTIONS | CBENCH_COUNTER_F_CYCLES | \
		      CBENCH_COUNTER_F_REF_CYCLES)

static const struct cbench_info_probe probes[] = {
	{ .cpu = 0, .counters = ALL_COUNTERS },
	{ .cpu = 1, .counters = 0 },
	{ .cpu = 17, .counters = CBENCH_COUNTER_F_CYCLES },
};

/* A hybrid Intel part with a PMU that perf lends to user space. */
static const struct cbench_machine hybrid = {
	.cpu_vendor = "GenuineIntel", .cpu_name = "13th Gen Intel(R) Core(TM) i7-1365U",
	.cpu_family = 6, .cpu_model = 186, .cpu_stepping = 3, .cpus_online = 1,
	.kernel_release = "6.1.0-18-amd64", .tsc_invariant = true,
	.pmu_version = 5, .pmu_gp_counters = 8, .pmu_gp_bits = 48, .pmu_fixed_counters = 3,
	.pmu_fixed_bits = 48, .hybrid = true, .perf_hw_usable = true, .perf_sw_usable = true,
	.rdpmc_sysfs = 1,
};

/* A VM without a PMU, a brand string or perf. */
static const struct cbench_machine bare_vm = {
	.cpu_vendor = "AuthenticAMD", .cpu_family = 25, .cpu_model = 17, .cpu_stepping = 1,
	.cpus_online = 4, .kernel_release = "6.12.9+bpo-amd64", .hypervisor = true,
	.rdpmc_sysfs = -1,
};

/* An AMD host whose PMU perf lends, every counter readable. */
static const struct cbench_machine amd = {
	.cpu_vendor = "AuthenticAMD", .cpu_name = "AMD EPYC 9454P 48-Core Processor",
	.cpu_family = 25, .cpu_model = 17, .cpu_stepping = 1, .cpus_online = 96,
	.kernel_release = "6.1.0-18-amd64", .tsc_invariant = true, .pmu_version = 2,
	.pmu_gp_counters = 6, .pmu_gp_bits = 48, .perf_hw_usable = true, .perf_sw_usable = true,
	.rdpmc_sysfs = 2,
};

/* Today's module, every figure given, on a machine with one CPU online. */
static void fill_today(struct cbench_info *in)
{
	struct cbench_proto_info *m = &in->module;

	memset(in, 0, sizeof(*in));
	in->loaded = true;
	snprintf(m->version, sizeof(m->version), "0.9.0-12-gabcdef0");
	m->abi = CBENCH_ABI_VERSION;
	snprintf(m->cpu_vendor, sizeof(m->cpu_vendor), "GenuineIntel");
	m->cpu_family = 6;
	m->cpu_model = 186;
	m->cpu_stepping = 3;
	m->has_tsc_khz = true;
	m->tsc_khz = 2688007;
	m->tsc_flags = CBENCH_TSC_F_CONSTANT | CBENCH_TSC_F_NONSTOP | CBENCH_TSC_F_RELIABLE;
	m->pmu_version = 5;
	m->gp_counters = 8;
	m->gp_bits = 48;
	m->fixed_counters = 3;
	m->fixed_bits = 48;
	m->has_fixed_bits = true;
	m->pmu_events = ALL_COUNTERS;
	m->counters = CBENCH_COUNTER_F_INSTRUCTIONS | CBENCH_COUNTER_F_REF_CYCLES;
	m->counters_cpu = 11;
	m->has_limits = true;
	m->image_bytes = 1 << 20;
	m->arena_bytes = (64 << 20) + 1;
	m->irqoff_ns = 500000;
	m->samples = 65536;
	m->runs = 1;
	m->tp_records = 1 << 20;
	m->call_ms = 1000;
	m->unwatched = true;
	m->image_crc = true;
	m->stack_bytes = 64 << 10;
	m->stack_reserve_bytes = 16 << 10;
	m->fault_net = CBENCH_FAULT_NET_QUIET;
	m->has_live = true;
	m->live_images = 2;
	m->live_runs = 1;
	in->probes = probes;
	in->nprobes = sizeof(probes) / sizeof(probes[0]);
	in->machine = hybrid;
	in->cpu = 11;
	in->core_type = 0x40;
}

/* A module from before most figures, with another benchmark ABI. */
static void fill_old(struct cbench_info *in)
{
	struct cbench_proto_info *m = &in->module;

	memset(in, 0, sizeof(*in));
	in->loaded = true;
	snprintf(m->version, sizeof(m->version), "0.1.0");
	m->abi = CBENCH_ABI_VERSION + 1;
	snprintf(m->cpu_vendor, sizeof(m->cpu_vendor), "AuthenticAMD");
	m->cpu_family = 25;
	m->cpu_model = 17;
	m->cpu_stepping = 1;
	m->hypervisor = true;
	m->counters_cpu = 3;
	m->fault_net = -1;
	in->machine = bare_vm;
	in->cpu = 3;
}

/* Between: limits without a watchdog, a stack of its own or timing
 * points, faults ended after the oops, no fixed counters. */
static void fill_between(struct cbench_info *in)
{
	struct cbench_proto_info *m = &in->module;

	fill_old(in);
	m->abi = CBENCH_ABI_VERSION;
	m->hypervisor = false;
	m->has_tsc_khz = true;
	m->tsc_khz = 3000000;
	m->tsc_flags = CBENCH_TSC_F_NONSTOP;
	m->pmu_version = 2;
	m->gp_counters = 6;
	m->gp_bits = 48;
	m->pmu_events = CBENCH_COUNTER_F_INSTRUCTIONS | CBENCH_COUNTER_F_CYCLES;
	m->counters = CBENCH_COUNTER_F_CYCLES;
	m->has_limits = true;
	m->image_bytes = 4 << 20;
	m->arena_bytes = 12345;
	m->irqoff_ns = 1000000;
	m->samples = 1000;
	m->runs = 4;
	m->fault_net = CBENCH_FAULT_NET_OOPS;
	m->image_crc = true;
	in->machine = amd;
}

struct render_arg {
	const struct cbench_info *in;
	bool json;
};

static void render(FILE *f, const void *arg)
{
	const struct render_arg *a = arg;

	cbench_info_print(a->in, f, a->json);
}

static void check(const char *name, const struct cbench_info *in)
{
	struct render_arg arg = { in, false };
	char path[64];
	char *text;

	snprintf(path, sizeof(path), "info-%s.txt", name);
	text = golden_render(render, &arg);
	golden_check(path, text);
	free(text);
	arg.json = true;
	snprintf(path, sizeof(path), "info-%s.json", name);
	text = golden_render(render, &arg);
	golden_check(path, text);
	free(text);
}

static void today(void)
{
	struct cbench_info in;

	fill_today(&in);
	check("today", &in);
	/* Two CPUs: the watchdog has one to watch from. */
	in.machine.cpus_online = 2;
	in.module.fault_net = -1;
	in.module.stack_bytes = 0;
	in.module.stack_reserve_bytes = 0;
	check("today-watched", &in);
}

static void old(void)
{
	struct cbench_info in;

	fill_old(&in);
	check("old", &in);
}

static void between(void)
{
	struct cbench_info in;

	fill_between(&in);
	check("between", &in);
}

static void not_loaded(void)
{
	struct cbench_info in = { .machine = amd, .cpu = 95 };

	check("not-loaded", &in);
	in.machine = bare_vm;
	in.machine.rdpmc_sysfs = 0;
	in.machine.perf_hw_usable = true;
	check("not-loaded-vm", &in);
}

static CU_TestInfo info_tests[] = {
	{ "today's module, text and JSON as the golden files", today },
	{ "an older module", old },
	{ "a module between", between },
	{ "no module", not_loaded },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_report_info_suites[] = {
	{ "report_info", NULL, NULL, NULL, NULL, info_tests },
	CU_SUITE_INFO_NULL,
};
