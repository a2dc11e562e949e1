// SPDX-License-Identifier: GPL-2.0
/*
 * `cbenchctl info`'s report: cbench.ko's answer to INFO (or why there is
 * none) and what the user backend will use, as text or JSON.
 */
#include <inttypes.h>
#include <stdio.h>

#include <cbench.h>
#include <uapi/linux/cbench.h>

#include "backend/rehearse.h"
#include "backend/types.h"
#include "report/info.h"
#include "report/json_writer.h"

static const struct {
	uint32_t flag;
	const char *name;
} tsc_flag_names[] = {
	{ CBENCH_TSC_F_CONSTANT, "constant" },
	{ CBENCH_TSC_F_NONSTOP, "nonstop" },
	{ CBENCH_TSC_F_RELIABLE, "reliable" },
};


static void print_counters(FILE *out, uint32_t counters)
{
	const char *sep = "";

	for (unsigned int i = 0; i < CBENCH_COUNTER_KINDS; i++) {
		if (counters & (1u << i)) {
			fprintf(out, "%s%s", sep, cbench_counter_names[i]);
			sep = ", ";
		}
	}
}

static void print_bytes(FILE *f, uint64_t bytes)
{
	if (bytes >= (1 << 20) && !(bytes % (1 << 20)))
		fprintf(f, "%" PRIu64 " MiB", bytes >> 20);
	else
		fprintf(f, "%" PRIu64 " bytes", bytes);
}

/* The watchdog over ring-0 calls, and whether another CPU can keep it. */
static void print_watchdog(FILE *f, const struct cbench_proto_info *info, int cpus_online)
{
	if (!info->call_ms) {
		fprintf(f, "  watchdog:         none (an older cbench.ko): a call that never returns "
		       "holds its CPU\n");
		return;
	}
	fprintf(f, "  watchdog:         a call of benchmark code is ended after %" PRIu32 " ms "
	       "(call_limit_ms)\n", info->call_ms);
	if (cpus_online < 2)
		fprintf(f, "                    but one CPU is online, so none can watch: %s\n",
		       info->unwatched ? "runs are taken all the same (unwatched_runs=1)" :
					 "runs are refused (unwatched_runs=0)");
}

/* The stack benchmark code runs on in ring 0, and how a page fault there ends. */
static void print_safety(FILE *f, const struct cbench_proto_info *info)
{
	if (info->stack_bytes)
		fprintf(f, "  stack:            benchmark code runs on %" PRIu64 " KiB of its own "
		       "(call_stack_bytes); every call is rehearsed on %" PRIu64 " KiB\n",
		       info->stack_bytes >> 10, cbench_kmod_stack_rehearsed(info->stack_bytes) >> 10);
	else
		fprintf(f, "  stack:            the module's thread's (an older cbench.ko); every call is "
		       "rehearsed on %" PRIu64 " KiB\n", cbench_kmod_stack_rehearsed(0) >> 10);
	if (info->fault_net == CBENCH_FAULT_NET_QUIET)
		fprintf(f, "  page faults:      ended before the kernel's oops (its page_fault_kernel "
		       "tracepoint), but\n                    a fetch at a user address, ended "
		       "after it\n");
	else if (info->fault_net == CBENCH_FAULT_NET_OOPS)
		fprintf(f, "  page faults:      ended after the kernel's oops, which taints the kernel "
		       "(fault_net=0, or no\n                    page_fault_kernel tracepoint)\n");
	else
		fprintf(f, "  page faults:      not caught (an older cbench.ko): the kernel oopses\n");
}

static const char *fault_net_name(int32_t net)
{
	return net == CBENCH_FAULT_NET_QUIET ? "quiet" : net == CBENCH_FAULT_NET_OOPS ? "oops" : NULL;
}

static void print_module(FILE *f, const struct cbench_proto_info *info,
			 const struct cbench_info_probe *probes, size_t nprobes, int cpus_online)
{
	fprintf(f, "cbench.ko %s (benchmark ABI %" PRIu32 "): ring-0 measurement available\n",
	       info->version, info->abi);
	if (info->abi != CBENCH_ABI_VERSION)
		fprintf(f, "  note:             the module's benchmark ABI is not this cbenchctl's (%d)\n",
		       CBENCH_ABI_VERSION);
	fprintf(f, "  CPU:              %s family %" PRIu32 " model %" PRIu32 " stepping %" PRIu32 "%s\n",
	       info->cpu_vendor, info->cpu_family, info->cpu_model, info->cpu_stepping,
	       info->hypervisor ? " (in a virtual machine)" : "");
	fprintf(f, "  TSC:              ");
	if (info->has_tsc_khz)
		fprintf(f, "%" PRIu64 ".%03" PRIu64 " MHz", info->tsc_khz / 1000, info->tsc_khz % 1000);
	else
		fprintf(f, "frequency not known to the kernel");
	fprintf(f, "; ");
	if (!info->tsc_flags) {
		fprintf(f, "neither constant nor nonstop: its rate may follow the core clock, and it may stop in deep sleep");
	} else {
		const char *sep = "";

		for (size_t i = 0; i < sizeof(tsc_flag_names) / sizeof(tsc_flag_names[0]); i++) {
			if (info->tsc_flags & tsc_flag_names[i].flag) {
				fprintf(f, "%s%s", sep, tsc_flag_names[i].name);
				sep = ", ";
			}
		}
	}
	fprintf(f, "\n  PMU:              ");
	if (!info->pmu_version) {
		fprintf(f, "no PMU: CPUID enumerates no performance counters\n");
	} else {
		fprintf(f, "version %" PRIu32 ", %" PRIu32 " general counters of %" PRIu32 " bits",
		       info->pmu_version, info->gp_counters, info->gp_bits);
		if (info->has_fixed_bits)
			fprintf(f, ", %" PRIu32 " fixed counters of %" PRIu32 " bits",
			       info->fixed_counters, info->fixed_bits);
		else
			fprintf(f, ", no fixed counters");
		fprintf(f, "\n");
	}
	fprintf(f, "  counters:         ");
	if (info->counters) {
		print_counters(f, info->counters);
		fprintf(f, " (CPU %" PRIu32 ", at load)\n", info->counters_cpu);
	} else {
		fprintf(f, "none usable: TSC only (perf lent no hardware counter on CPU %" PRIu32
		       " at load)\n", info->counters_cpu);
	}
	for (size_t i = 0; i < nprobes; i++) {
		fprintf(f, "  counters, CPU %-3" PRIu32 " ", probes[i].cpu);
		if (probes[i].counters)
			print_counters(f, probes[i].counters);
		else
			fprintf(f, "none usable");
		fprintf(f, " (now)\n");
	}
	if (info->has_limits) {
		fprintf(f, "  limits:           image ");
		print_bytes(f, info->image_bytes);
		fprintf(f, ", arena ");
		print_bytes(f, info->arena_bytes);
		fprintf(f, ", %" PRIu32 " samples per run, interrupts off %" PRIu64
		       " ns per sample, %" PRIu32 " concurrent run%s\n",
		       info->samples, info->irqoff_ns, info->runs, info->runs == 1 ? "" : "s");
		if (info->tp_records)
			fprintf(f, "                    %" PRIu64 " timing-point records per run\n",
			       info->tp_records);
		print_watchdog(f, info, cpus_online);
		print_safety(f, info);
	}
	fprintf(f, "  uploads:          %s\n", info->image_crc ?
	       "mapped only if their bytes give cbenchctl's CRC-32" :
	       "not checked against a CRC-32 (an older cbench.ko)");
	if (info->has_live)
		fprintf(f, "  in use:           %" PRIu32 " images, %" PRIu32 " runs\n",
		       info->live_images, info->live_runs);
}

static const char *rdpmc_text(const struct cbench_machine *m)
{
	if (!m->perf_hw_usable)
		return "not available (no perf hardware events)";
	switch (m->rdpmc_sysfs) {
	case 0:
		return "disabled (sysfs rdpmc is 0)";
	case 1:
		return "allowed for the events this process opens";
	case 2:
		return "allowed for every counter";
	default:
		return "unknown (no sysfs rdpmc file)";
	}
}

static void print_user_backend(FILE *f, const struct cbench_machine *m, int cpu,
			       unsigned int core_type)
{
	char pmu[256];

	fprintf(f, "  CPU:              %s", m->cpu_name[0] ? m->cpu_name : m->cpu_vendor);
	fprintf(f, " (%s family %u model %u stepping %u)%s\n", m->cpu_vendor, m->cpu_family,
	       m->cpu_model, m->cpu_stepping, m->hypervisor ? " in a virtual machine" : "");
	fprintf(f, "  CPUs online:      %d\n", m->cpus_online);
	fprintf(f, "  kernel:           %s\n", m->kernel_release);
	fprintf(f, "  timer:            TSC, %s; frequency calibrated when measuring\n",
	       m->tsc_invariant ? "invariant" : "not invariant (CPUID.80000007H:EDX[8] clear)");
	/* Where cbench measures unless told otherwise: its PMU, its core type. */
	cbench_pmu_text(m, core_type, cpu, pmu, sizeof(pmu));
	fprintf(f, "  PMU (CPUID):      %s\n", pmu);
	fprintf(f, "  perf hardware:    %s\n", m->perf_hw_usable ? "usable" :
	       "not available: cycles and instructions cannot be counted");
	fprintf(f, "  perf software:    %s\n", m->perf_sw_usable ? "usable (disturbances are counted)" :
	       "not available: disturbances cannot be counted");
	fprintf(f, "  user RDPMC:       %s\n", rdpmc_text(m));
}

static void json_counters(struct cbench_jsonw *j, const char *key, uint32_t counters)
{
	cbench_jsonw_array_start(j, key);
	for (unsigned int i = 0; i < CBENCH_COUNTER_KINDS; i++) {
		if (counters & (1u << i))
			cbench_jsonw_string(j, NULL, cbench_counter_names[i]);
	}
	cbench_jsonw_array_end(j);
}

static void json_cpu(struct cbench_jsonw *j, const char *vendor, const char *name, uint32_t family,
		     uint32_t model, uint32_t stepping, bool hypervisor)
{
	cbench_jsonw_object_start(j, "cpu");
	cbench_jsonw_string(j, "vendor", vendor);
	if (name && name[0])
		cbench_jsonw_string(j, "name", name);
	else if (name)
		cbench_jsonw_null(j, "name");
	cbench_jsonw_uint(j, "family", family);
	cbench_jsonw_uint(j, "model", model);
	cbench_jsonw_uint(j, "stepping", stepping);
	cbench_jsonw_bool(j, "hypervisor", hypervisor);
	cbench_jsonw_object_end(j);
}

static void json_module_pmu(struct cbench_jsonw *j, const struct cbench_proto_info *info)
{
	if (!info->pmu_version) {
		cbench_jsonw_null(j, "pmu");
		return;
	}
	cbench_jsonw_object_start(j, "pmu");
	cbench_jsonw_uint(j, "version", info->pmu_version);
	cbench_jsonw_uint(j, "gp_counters", info->gp_counters);
	cbench_jsonw_uint(j, "gp_bits", info->gp_bits);
	cbench_jsonw_uint(j, "fixed_counters", info->fixed_counters);
	if (info->has_fixed_bits)
		cbench_jsonw_uint(j, "fixed_bits", info->fixed_bits);
	else
		cbench_jsonw_null(j, "fixed_bits");
	json_counters(j, "events", info->pmu_events);
	cbench_jsonw_object_end(j);
}

static void json_module(struct cbench_jsonw *j, const struct cbench_proto_info *info,
			const struct cbench_info_probe *probes, size_t nprobes, int cpus_online)
{
	cbench_jsonw_object_start(j, "module");
	cbench_jsonw_bool(j, "loaded", true);
	cbench_jsonw_string(j, "version", info->version);
	cbench_jsonw_uint(j, "abi", info->abi);
	json_cpu(j, info->cpu_vendor, NULL, info->cpu_family, info->cpu_model, info->cpu_stepping,
		 info->hypervisor);
	cbench_jsonw_object_start(j, "tsc");
	if (info->has_tsc_khz)
		cbench_jsonw_uint(j, "khz", info->tsc_khz);
	else
		cbench_jsonw_null(j, "khz");
	for (size_t i = 0; i < sizeof(tsc_flag_names) / sizeof(tsc_flag_names[0]); i++)
		cbench_jsonw_bool(j, tsc_flag_names[i].name, info->tsc_flags & tsc_flag_names[i].flag);
	cbench_jsonw_object_end(j);
	json_module_pmu(j, info);
	cbench_jsonw_object_start(j, "counters");
	cbench_jsonw_uint(j, "cpu", info->counters_cpu);
	json_counters(j, "usable", info->counters);
	cbench_jsonw_object_end(j);
	cbench_jsonw_array_start(j, "probes");
	for (size_t i = 0; i < nprobes; i++) {
		cbench_jsonw_object_start(j, NULL);
		cbench_jsonw_uint(j, "cpu", probes[i].cpu);
		json_counters(j, "usable", probes[i].counters);
		cbench_jsonw_object_end(j);
	}
	cbench_jsonw_array_end(j);
	if (info->has_limits) {
		cbench_jsonw_object_start(j, "limits");
		cbench_jsonw_uint(j, "image_bytes", info->image_bytes);
		cbench_jsonw_uint(j, "arena_bytes", info->arena_bytes);
		cbench_jsonw_uint(j, "samples", info->samples);
		cbench_jsonw_uint(j, "irqoff_ns", info->irqoff_ns);
		cbench_jsonw_uint(j, "runs", info->runs);
		if (info->tp_records)
			cbench_jsonw_uint(j, "tpoints_records", info->tp_records);
		if (info->call_ms) {
			cbench_jsonw_uint(j, "call_limit_ms", info->call_ms);
			cbench_jsonw_bool(j, "unwatched_runs", info->unwatched);
			cbench_jsonw_bool(j, "watched", cpus_online > 1);
		}
		if (info->stack_bytes)
			cbench_jsonw_uint(j, "stack_bytes", info->stack_bytes);
		else
			cbench_jsonw_null(j, "stack_bytes");
		cbench_jsonw_uint(j, "stack_rehearsed_bytes",
				  cbench_kmod_stack_rehearsed(info->stack_bytes));
		if (fault_net_name(info->fault_net))
			cbench_jsonw_string(j, "fault_net", fault_net_name(info->fault_net));
		else
			cbench_jsonw_null(j, "fault_net");
		cbench_jsonw_object_end(j);
	} else {
		cbench_jsonw_null(j, "limits");
	}
	cbench_jsonw_bool(j, "image_crc", info->image_crc);
	if (info->has_live) {
		cbench_jsonw_object_start(j, "live");
		cbench_jsonw_uint(j, "images", info->live_images);
		cbench_jsonw_uint(j, "runs", info->live_runs);
		cbench_jsonw_object_end(j);
	} else {
		cbench_jsonw_null(j, "live");
	}
	cbench_jsonw_object_end(j);
}

static void json_user_backend(struct cbench_jsonw *j, const struct cbench_machine *m,
			      unsigned int core_type)
{
	cbench_jsonw_object_start(j, "user");
	json_cpu(j, m->cpu_vendor, m->cpu_name, m->cpu_family, m->cpu_model, m->cpu_stepping,
		 m->hypervisor);
	cbench_jsonw_int(j, "cpus_online", m->cpus_online);
	cbench_jsonw_string(j, "kernel", m->kernel_release);
	cbench_jsonw_bool(j, "tsc_invariant", m->tsc_invariant);
	if (m->pmu_version || m->pmu_gp_counters) {
		cbench_jsonw_object_start(j, "pmu");
		cbench_jsonw_uint(j, "version", m->pmu_version);
		cbench_jsonw_uint(j, "gp_counters", m->pmu_gp_counters);
		cbench_jsonw_uint(j, "gp_bits", m->pmu_gp_bits);
		cbench_jsonw_uint(j, "fixed_counters", m->pmu_fixed_counters);
		cbench_jsonw_uint(j, "fixed_bits", m->pmu_fixed_bits);
		if (m->hybrid)
			cbench_jsonw_uint(j, "core_type", core_type);
		cbench_jsonw_object_end(j);
	} else {
		cbench_jsonw_null(j, "pmu");
	}
	cbench_jsonw_bool(j, "perf_hardware", m->perf_hw_usable);
	cbench_jsonw_bool(j, "perf_software", m->perf_sw_usable);
	cbench_jsonw_bool(j, "user_rdpmc", m->perf_hw_usable && m->rdpmc_sysfs >= 1);
	cbench_jsonw_object_end(j);
}

/* `info --json`: the module (or why not) and the user backend. */
static void json_info(const struct cbench_info *in, FILE *f)
{
	struct cbench_jsonw j;

	cbench_jsonw_init(&j, f, true);
	cbench_jsonw_object_start(&j, NULL);
	if (in->loaded) {
		json_module(&j, &in->module, in->probes, in->nprobes, in->machine.cpus_online);
	} else {
		cbench_jsonw_object_start(&j, "module");
		cbench_jsonw_bool(&j, "loaded", false);
		cbench_jsonw_string(&j, "hint", CBENCH_INFO_NOT_LOADED);
		cbench_jsonw_object_end(&j);
	}
	json_user_backend(&j, &in->machine, in->core_type);
	cbench_jsonw_object_end(&j);
	cbench_jsonw_finish(&j);
}

void cbench_info_print(const struct cbench_info *in, FILE *f, bool json)
{
	if (json) {
		json_info(in, f);
		return;
	}
	if (in->loaded)
		print_module(f, &in->module, in->probes, in->nprobes, in->machine.cpus_online);
	else
		fprintf(f, "%s; meanwhile the user backend will use:\n", CBENCH_INFO_NOT_LOADED);
	if (in->loaded)
		fprintf(f, "user backend:\n");
	print_user_backend(f, &in->machine, in->cpu, in->core_type);
}
