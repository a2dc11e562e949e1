// SPDX-License-Identifier: GPL-2.0
/*
 * `cbenchctl info`'s report: cbench.ko's answer to INFO (or why there is
 * none) and what the user backend will use, one call per field for the
 * text and the JSON (print.h).  The text is lines of "label: what it
 * means"; the JSON keeps the raw figures (kHz, bytes) the text turns into
 * MHz, MiB and words.
 */
#include <cbench.h>
#include <uapi/linux/cbench.h>

#include "backend/rehearse.h"
#include "backend/types.h"
#include "report/report_info.h"
#include "report/print.h"

static const struct {
	uint32_t flag;
	const char *name;
} tsc_flag_names[] = {
	{ CBENCH_TSC_F_CONSTANT, "constant" },
	{ CBENCH_TSC_F_NONSTOP, "nonstop" },
	{ CBENCH_TSC_F_RELIABLE, "reliable" },
};

/* How a page fault in benchmark code ends (enum cbench_fault_net). */
static const struct {
	int32_t net;
	const char *name;
	const char *text;
} fault_nets[] = {
	{ CBENCH_FAULT_NET_QUIET, "quiet",
	  "ended before the kernel's oops (its page_fault_kernel tracepoint), but\n"
	  "                    a fetch at a user address, ended after it\n" },
	{ CBENCH_FAULT_NET_OOPS, "oops",
	  "ended after the kernel's oops, which taints the kernel (fault_net=0, or no\n"
	  "                    page_fault_kernel tracepoint)\n" },
};

/* A CBENCH_COUNTER_F_* mask: an array of names; in text (if text), the names by commas. */
static void print_counters(struct cbench_print *p, const char *key, uint32_t counters, bool text)
{
	bool first = true;

	cbench_print_array_start(p, key);
	for (unsigned int i = 0; i < CBENCH_COUNTER_KINDS; i++) {
		if (!(counters & (1u << i)))
			continue;
		if (text)
			cbench_print_string(p, NULL, first ? "%s" : ", %s", cbench_counter_names[i]);
		else
			cbench_print_json_string(p, NULL, cbench_counter_names[i]);
		first = false;
	}
	cbench_print_array_end(p);
}

/* A size: bytes in JSON; in text MiB where it is a whole number of them. */
static void print_bytes(struct cbench_print *p, const char *key, uint64_t bytes)
{
	if (bytes >= (1 << 20) && !(bytes % (1 << 20))) {
		cbench_print_json_uint(p, key, bytes);
		cbench_print_text(p, "%" PRIu64 " MiB", bytes >> 20);
	} else {
		cbench_print_uint(p, key, "%" PRIu64 " bytes", bytes);
	}
}

/* Vendor, family, model and stepping; the brand string (JSON only) where
 * name is given, null if the CPU has none. */
static void print_cpu_id(struct cbench_print *p, const char *vendor, const char *name,
			 uint32_t family, uint32_t model, uint32_t stepping)
{
	cbench_print_string(p, "vendor", "%s", vendor);
	if (name && name[0])
		cbench_print_json_string(p, "name", name);
	else if (name)
		cbench_print_null(p, "name", NULL);
	cbench_print_uint(p, "family", " family %" PRIu64, family);
	cbench_print_uint(p, "model", " model %" PRIu64, model);
	cbench_print_uint(p, "stepping", " stepping %" PRIu64, stepping);
}

static void print_tsc(struct cbench_print *p, const struct cbench_proto_info *m)
{
	const char *sep = "";

	cbench_print_object_start(p, "tsc");
	cbench_print_text(p, "  TSC:              ");
	if (m->has_tsc_khz) {
		cbench_print_json_uint(p, "khz", m->tsc_khz);
		cbench_print_text(p, "%" PRIu64 ".%03" PRIu64 " MHz", m->tsc_khz / 1000,
				  m->tsc_khz % 1000);
	} else {
		cbench_print_null(p, "khz", "frequency not known to the kernel");
	}
	cbench_print_text(p, "; ");
	if (!m->tsc_flags)
		cbench_print_text(p, "neither constant nor nonstop: its rate may follow the core "
				  "clock, and it may stop in deep sleep");
	for (size_t i = 0; i < sizeof(tsc_flag_names) / sizeof(tsc_flag_names[0]); i++) {
		bool set = m->tsc_flags & tsc_flag_names[i].flag;

		if (set) {
			cbench_print_text(p, "%s", sep);
			sep = ", ";
		}
		cbench_print_bool(p, tsc_flag_names[i].name, set, tsc_flag_names[i].name, NULL);
	}
	cbench_print_text(p, "\n");
	cbench_print_object_end(p);
}

/* The PMU CPUID enumerates to the module; the events it can count, JSON only. */
static void print_module_pmu(struct cbench_print *p, const struct cbench_proto_info *m)
{
	cbench_print_text(p, "  PMU:              ");
	if (!m->pmu_version) {
		cbench_print_null(p, "pmu", "no PMU: CPUID enumerates no performance counters\n");
		return;
	}
	cbench_print_object_start(p, "pmu");
	cbench_print_uint(p, "version", "version %" PRIu64, m->pmu_version);
	cbench_print_uint(p, "gp_counters", ", %" PRIu64 " general counters", m->gp_counters);
	cbench_print_uint(p, "gp_bits", " of %" PRIu64 " bits", m->gp_bits);
	if (m->has_fixed_bits) {
		cbench_print_uint(p, "fixed_counters", ", %" PRIu64 " fixed counters", m->fixed_counters);
		cbench_print_uint(p, "fixed_bits", " of %" PRIu64 " bits", m->fixed_bits);
	} else {
		cbench_print_json_uint(p, "fixed_counters", m->fixed_counters);
		cbench_print_null(p, "fixed_bits", ", no fixed counters");
	}
	cbench_print_text(p, "\n");
	print_counters(p, "events", m->pmu_events, false);
	cbench_print_object_end(p);
}

/* The counters perf lent the module at load, then on each CPU probed now. */
static void print_module_counters(struct cbench_print *p, const struct cbench_info *in)
{
	const struct cbench_proto_info *m = &in->module;

	cbench_print_object_start(p, "counters");
	cbench_print_text(p, "  counters:         ");
	if (m->counters) {
		cbench_print_json_uint(p, "cpu", m->counters_cpu);
		print_counters(p, "usable", m->counters, true);
		cbench_print_text(p, " (CPU %" PRIu32 ", at load)\n", m->counters_cpu);
	} else {
		cbench_print_uint(p, "cpu", "none usable: TSC only (perf lent no hardware counter on "
				  "CPU %" PRIu64 " at load)\n", m->counters_cpu);
		print_counters(p, "usable", 0, true);
	}
	cbench_print_object_end(p);
	cbench_print_array_start(p, "probes");
	for (size_t i = 0; i < in->nprobes; i++) {
		cbench_print_object_start(p, NULL);
		cbench_print_uint(p, "cpu", "  counters, CPU %-3" PRIu64 " ", in->probes[i].cpu);
		print_counters(p, "usable", in->probes[i].counters, true);
		if (!in->probes[i].counters)
			cbench_print_text(p, "none usable");
		cbench_print_text(p, " (now)\n");
		cbench_print_object_end(p);
	}
	cbench_print_array_end(p);
}

/* The watchdog over ring-0 calls, and whether another CPU can keep it. */
static void print_watchdog(struct cbench_print *p, const struct cbench_proto_info *m,
			   int cpus_online)
{
	bool watched = cpus_online > 1;

	if (!m->call_ms) {
		cbench_print_text(p, "  watchdog:         none (an older cbench.ko): a call that never "
				  "returns holds its CPU\n");
		return;
	}
	cbench_print_uint(p, "call_limit_ms", "  watchdog:         a call of benchmark code is ended "
			  "after %" PRIu64 " ms (call_limit_ms)\n", m->call_ms);
	if (!watched)
		cbench_print_text(p, "                    but one CPU is online, so none can watch: ");
	cbench_print_bool(p, "unwatched_runs", m->unwatched,
			  watched ? NULL : "runs are taken all the same (unwatched_runs=1)\n",
			  watched ? NULL : "runs are refused (unwatched_runs=0)\n");
	cbench_print_json_bool(p, "watched", watched);
}

/* The stack benchmark code runs on in ring 0, and how a page fault there ends. */
static void print_safety(struct cbench_print *p, const struct cbench_proto_info *m)
{
	uint64_t rehearsed = cbench_kmod_stack_rehearsed(m->stack_bytes);
	size_t i = 0;

	cbench_print_text(p, "  stack:            ");
	if (m->stack_bytes) {
		cbench_print_json_uint(p, "stack_bytes", m->stack_bytes);
		cbench_print_text(p, "benchmark code runs on %" PRIu64 " KiB of its own "
				  "(call_stack_bytes)", m->stack_bytes >> 10);
	} else {
		cbench_print_null(p, "stack_bytes", "the module's thread's (an older cbench.ko)");
	}
	cbench_print_json_uint(p, "stack_rehearsed_bytes", rehearsed);
	cbench_print_text(p, "; every call is rehearsed on %" PRIu64 " KiB\n", rehearsed >> 10);
	cbench_print_text(p, "  recursion:        ");
	if (m->stack_reserve_bytes) {
		cbench_print_json_uint(p, "stack_reserve_bytes", m->stack_reserve_bytes);
		cbench_print_text(p, "checked: a call that goes deeper in ring 0 is ended while "
				  "%" PRIu64 " KiB are left for the kernel\n", m->stack_reserve_bytes >> 10);
	} else {
		cbench_print_null(p, "stack_reserve_bytes", "not checked (an older cbench.ko): code "
				  "that needs checks is refused\n");
	}
	cbench_print_text(p, "  page faults:      ");
	while (i < sizeof(fault_nets) / sizeof(fault_nets[0]) && fault_nets[i].net != m->fault_net)
		i++;
	if (i < sizeof(fault_nets) / sizeof(fault_nets[0])) {
		cbench_print_json_string(p, "fault_net", fault_nets[i].name);
		cbench_print_text(p, "%s", fault_nets[i].text);
	} else {
		cbench_print_null(p, "fault_net", "not caught (an older cbench.ko): the kernel oopses\n");
	}
}

static void print_limits(struct cbench_print *p, const struct cbench_proto_info *m,
			 int cpus_online)
{
	if (!m->has_limits) {
		cbench_print_null(p, "limits", NULL);
		return;
	}
	cbench_print_object_start(p, "limits");
	cbench_print_text(p, "  limits:           image ");
	print_bytes(p, "image_bytes", m->image_bytes);
	cbench_print_text(p, ", arena ");
	print_bytes(p, "arena_bytes", m->arena_bytes);
	cbench_print_uint(p, "samples", ", %" PRIu64 " samples per run", m->samples);
	cbench_print_uint(p, "irqoff_ns", ", interrupts off %" PRIu64 " ns per sample", m->irqoff_ns);
	cbench_print_uint(p, "runs", ", %" PRIu64 " concurrent run", m->runs);
	cbench_print_text(p, "%s\n", m->runs == 1 ? "" : "s");
	if (m->tp_records)
		cbench_print_uint(p, "tpoints_records", "                    %" PRIu64
				  " timing-point records per run\n", m->tp_records);
	print_watchdog(p, m, cpus_online);
	print_safety(p, m);
	cbench_print_object_end(p);
}

static void print_module(struct cbench_print *p, const struct cbench_info *in)
{
	const struct cbench_proto_info *m = &in->module;

	cbench_print_object_start(p, "module");
	cbench_print_json_bool(p, "loaded", true);
	cbench_print_string(p, "version", "cbench.ko %s", m->version);
	cbench_print_uint(p, "abi", " (benchmark ABI %" PRIu64 "): ring-0 measurement available\n",
			  m->abi);
	if (m->abi != CBENCH_ABI_VERSION)
		cbench_print_text(p, "  note:             the module's benchmark ABI is not this "
				  "cbenchctl's (%d)\n", CBENCH_ABI_VERSION);
	cbench_print_object_start(p, "cpu");
	cbench_print_text(p, "  CPU:              ");
	print_cpu_id(p, m->cpu_vendor, NULL, m->cpu_family, m->cpu_model, m->cpu_stepping);
	cbench_print_bool(p, "hypervisor", m->hypervisor, " (in a virtual machine)", NULL);
	cbench_print_text(p, "\n");
	cbench_print_object_end(p);
	print_tsc(p, m);
	print_module_pmu(p, m);
	print_module_counters(p, in);
	print_limits(p, m, in->machine.cpus_online);
	cbench_print_bool(p, "image_crc", m->image_crc,
			  "  uploads:          mapped only if their bytes give cbenchctl's CRC-32\n",
			  "  uploads:          not checked against a CRC-32 (an older cbench.ko)\n");
	if (m->has_live) {
		cbench_print_object_start(p, "live");
		cbench_print_uint(p, "images", "  in use:           %" PRIu64 " images", m->live_images);
		cbench_print_uint(p, "runs", ", %" PRIu64 " runs\n", m->live_runs);
		cbench_print_object_end(p);
	} else {
		cbench_print_null(p, "live", NULL);
	}
	cbench_print_object_end(p);
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

/* The PMU of the CPU where cbench measures unless told otherwise: a line
 * of text; its figures, and its core type on a hybrid part, in JSON. */
static void print_user_pmu(struct cbench_print *p, const struct cbench_info *in)
{
	const struct cbench_machine *m = &in->machine;
	char pmu[256];

	cbench_pmu_text(m, in->core_type, in->cpu, pmu, sizeof(pmu));
	cbench_print_text(p, "  PMU (CPUID):      %s\n", pmu);
	if (!m->pmu_version && !m->pmu_gp_counters) {
		cbench_print_null(p, "pmu", NULL);
		return;
	}
	cbench_print_object_start(p, "pmu");
	cbench_print_json_uint(p, "version", m->pmu_version);
	cbench_print_json_uint(p, "gp_counters", m->pmu_gp_counters);
	cbench_print_json_uint(p, "gp_bits", m->pmu_gp_bits);
	cbench_print_json_uint(p, "fixed_counters", m->pmu_fixed_counters);
	cbench_print_json_uint(p, "fixed_bits", m->pmu_fixed_bits);
	if (m->hybrid)
		cbench_print_json_uint(p, "core_type", in->core_type);
	cbench_print_object_end(p);
}

static void print_user_backend(struct cbench_print *p, const struct cbench_info *in)
{
	const struct cbench_machine *m = &in->machine;

	cbench_print_object_start(p, "user");
	cbench_print_object_start(p, "cpu");
	cbench_print_text(p, "  CPU:              %s (", m->cpu_name[0] ? m->cpu_name : m->cpu_vendor);
	print_cpu_id(p, m->cpu_vendor, m->cpu_name, m->cpu_family, m->cpu_model, m->cpu_stepping);
	cbench_print_text(p, ")");
	cbench_print_bool(p, "hypervisor", m->hypervisor, " in a virtual machine", NULL);
	cbench_print_text(p, "\n");
	cbench_print_object_end(p);
	cbench_print_int(p, "cpus_online", "  CPUs online:      %" PRId64 "\n", m->cpus_online);
	cbench_print_string(p, "kernel", "  kernel:           %s\n", m->kernel_release);
	cbench_print_text(p, "  timer:            TSC, ");
	cbench_print_bool(p, "tsc_invariant", m->tsc_invariant, "invariant",
			  "not invariant (CPUID.80000007H:EDX[8] clear)");
	cbench_print_text(p, "; frequency calibrated when measuring\n");
	print_user_pmu(p, in);
	cbench_print_bool(p, "perf_hardware", m->perf_hw_usable, "  perf hardware:    usable\n",
			  "  perf hardware:    not available: cycles and instructions cannot be "
			  "counted\n");
	cbench_print_bool(p, "perf_software", m->perf_sw_usable,
			  "  perf software:    usable (disturbances are counted)\n",
			  "  perf software:    not available: disturbances cannot be counted\n");
	cbench_print_json_bool(p, "user_rdpmc", m->perf_hw_usable && m->rdpmc_sysfs >= 1);
	cbench_print_text(p, "  user RDPMC:       %s\n", rdpmc_text(m));
	cbench_print_object_end(p);
}

void cbench_info_print(const struct cbench_info *in, FILE *f, bool json)
{
	struct cbench_print p;

	cbench_print_init(&p, f, json);
	cbench_print_object_start(&p, NULL);
	if (in->loaded) {
		print_module(&p, in);
		cbench_print_text(&p, "user backend:\n");
	} else {
		cbench_print_object_start(&p, "module");
		cbench_print_json_bool(&p, "loaded", false);
		cbench_print_string(&p, "hint", "%s; meanwhile the user backend will use:\n",
				    CBENCH_INFO_NOT_LOADED);
		cbench_print_object_end(&p);
	}
	print_user_backend(&p, in);
	cbench_print_object_end(&p);
	cbench_print_finish(&p);
}
