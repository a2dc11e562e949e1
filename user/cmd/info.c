// SPDX-License-Identifier: GPL-2.0
/*
 * cbenchctl info: what this machine offers for measurement, from cbench.ko
 * when it is loaded, and what the user backend will use either way.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cbench.h>
#include <uapi/linux/cbench.h>

#include "backend/backend.h"
#include "report/json_writer.h"
#include "machine/probe.h"
#include "backend/protocol.h"
#include "backend/rehearse.h"
#include "cmd/subcommands.h"

#define NOT_LOADED_HINT \
	"cbench.ko is not loaded: load it with `insmod cbench.ko` (as root) " \
	"for ring-0 measurement"

struct probe_result {
	uint32_t cpu;
	uint32_t counters;
};

struct options {
	bool json;
	bool probe;
	long probe_cpu;		/* -1: every online CPU */
};

static const struct {
	uint32_t flag;
	const char *name;
} tsc_flag_names[] = {
	{ CBENCH_TSC_F_CONSTANT, "constant" },
	{ CBENCH_TSC_F_NONSTOP, "nonstop" },
	{ CBENCH_TSC_F_RELIABLE, "reliable" },
};

struct probes {
	struct probe_result *cpus;
	size_t count;
	size_t allocated;
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

static void print_bytes(uint64_t bytes)
{
	if (bytes >= (1 << 20) && !(bytes % (1 << 20)))
		printf("%" PRIu64 " MiB", bytes >> 20);
	else
		printf("%" PRIu64 " bytes", bytes);
}

static long online_cpus(void)
{
	return sysconf(_SC_NPROCESSORS_ONLN);
}

/* The watchdog over ring-0 calls, and whether another CPU can keep it. */
static void print_watchdog(const struct cbench_proto_info *info)
{
	if (!info->call_ms) {
		printf("  watchdog:         none (an older cbench.ko): a call that never returns "
		       "holds its CPU\n");
		return;
	}
	printf("  watchdog:         a call of benchmark code is ended after %" PRIu32 " ms "
	       "(call_limit_ms)\n", info->call_ms);
	if (online_cpus() < 2)
		printf("                    but one CPU is online, so none can watch: %s\n",
		       info->unwatched ? "runs are taken all the same (unwatched_runs=1)" :
					 "runs are refused (unwatched_runs=0)");
}

/* The stack benchmark code runs on in ring 0, and how a page fault there ends. */
static void print_safety(const struct cbench_proto_info *info)
{
	if (info->stack_bytes)
		printf("  stack:            benchmark code runs on %" PRIu64 " KiB of its own "
		       "(call_stack_bytes); every call is rehearsed on %" PRIu64 " KiB\n",
		       info->stack_bytes >> 10, cbench_kmod_stack_rehearsed(info->stack_bytes) >> 10);
	else
		printf("  stack:            the module's thread's (an older cbench.ko); every call is "
		       "rehearsed on %" PRIu64 " KiB\n", cbench_kmod_stack_rehearsed(0) >> 10);
	if (info->fault_net == CBENCH_FAULT_NET_QUIET)
		printf("  page faults:      ended before the kernel's oops (its page_fault_kernel "
		       "tracepoint), but\n                    a fetch at a user address, ended "
		       "after it\n");
	else if (info->fault_net == CBENCH_FAULT_NET_OOPS)
		printf("  page faults:      ended after the kernel's oops, which taints the kernel "
		       "(fault_net=0, or no\n                    page_fault_kernel tracepoint)\n");
	else
		printf("  page faults:      not caught (an older cbench.ko): the kernel oopses\n");
}

static const char *fault_net_name(int32_t net)
{
	return net == CBENCH_FAULT_NET_QUIET ? "quiet" : net == CBENCH_FAULT_NET_OOPS ? "oops" : NULL;
}

static void print_module(const struct cbench_proto_info *info, const struct probe_result *probes,
			 size_t nprobes)
{
	printf("cbench.ko %s (benchmark ABI %" PRIu32 "): ring-0 measurement available\n",
	       info->version, info->abi);
	if (info->abi != CBENCH_ABI_VERSION)
		printf("  note:             the module's benchmark ABI is not this cbenchctl's (%d)\n",
		       CBENCH_ABI_VERSION);
	printf("  CPU:              %s family %" PRIu32 " model %" PRIu32 " stepping %" PRIu32 "%s\n",
	       info->cpu_vendor, info->cpu_family, info->cpu_model, info->cpu_stepping,
	       info->hypervisor ? " (in a virtual machine)" : "");
	printf("  TSC:              ");
	if (info->has_tsc_khz)
		printf("%" PRIu64 ".%03" PRIu64 " MHz", info->tsc_khz / 1000, info->tsc_khz % 1000);
	else
		printf("frequency not known to the kernel");
	printf("; ");
	if (!info->tsc_flags) {
		printf("neither constant nor nonstop: its rate may follow the core clock, and it may stop in deep sleep");
	} else {
		const char *sep = "";

		for (size_t i = 0; i < sizeof(tsc_flag_names) / sizeof(tsc_flag_names[0]); i++) {
			if (info->tsc_flags & tsc_flag_names[i].flag) {
				printf("%s%s", sep, tsc_flag_names[i].name);
				sep = ", ";
			}
		}
	}
	printf("\n  PMU:              ");
	if (!info->pmu_version) {
		printf("no PMU: CPUID enumerates no performance counters\n");
	} else {
		printf("version %" PRIu32 ", %" PRIu32 " general counters of %" PRIu32 " bits",
		       info->pmu_version, info->gp_counters, info->gp_bits);
		if (info->has_fixed_bits)
			printf(", %" PRIu32 " fixed counters of %" PRIu32 " bits",
			       info->fixed_counters, info->fixed_bits);
		else
			printf(", no fixed counters");
		printf("\n");
	}
	printf("  counters:         ");
	if (info->counters) {
		print_counters(stdout, info->counters);
		printf(" (CPU %" PRIu32 ", at load)\n", info->counters_cpu);
	} else {
		printf("none usable: TSC only (perf lent no hardware counter on CPU %" PRIu32
		       " at load)\n", info->counters_cpu);
	}
	for (size_t i = 0; i < nprobes; i++) {
		printf("  counters, CPU %-3" PRIu32 " ", probes[i].cpu);
		if (probes[i].counters)
			print_counters(stdout, probes[i].counters);
		else
			printf("none usable");
		printf(" (now)\n");
	}
	if (info->has_limits) {
		printf("  limits:           image ");
		print_bytes(info->image_bytes);
		printf(", arena ");
		print_bytes(info->arena_bytes);
		printf(", %" PRIu32 " samples per run, interrupts off %" PRIu64
		       " ns per sample, %" PRIu32 " concurrent run%s\n",
		       info->samples, info->irqoff_ns, info->runs, info->runs == 1 ? "" : "s");
		if (info->tp_records)
			printf("                    %" PRIu64 " timing-point records per run\n",
			       info->tp_records);
		print_watchdog(info);
		print_safety(info);
	}
	printf("  uploads:          %s\n", info->image_crc ?
	       "mapped only if their bytes give cbenchctl's CRC-32" :
	       "not checked against a CRC-32 (an older cbench.ko)");
	if (info->has_live)
		printf("  in use:           %" PRIu32 " images, %" PRIu32 " runs\n",
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

static void print_user_backend(const struct cbench_machine *m)
{
	/* Where cbench measures unless told otherwise: its PMU, its core type. */
	int cpu = cbench_last_allowed_cpu();
	char pmu[256];

	printf("  CPU:              %s", m->cpu_name[0] ? m->cpu_name : m->cpu_vendor);
	printf(" (%s family %u model %u stepping %u)%s\n", m->cpu_vendor, m->cpu_family,
	       m->cpu_model, m->cpu_stepping, m->hypervisor ? " in a virtual machine" : "");
	printf("  CPUs online:      %d\n", m->cpus_online);
	printf("  kernel:           %s\n", m->kernel_release);
	printf("  timer:            TSC, %s; frequency calibrated when measuring\n",
	       m->tsc_invariant ? "invariant" : "not invariant (CPUID.80000007H:EDX[8] clear)");
	cbench_pmu_text(m, cbench_core_type_on(cpu), cpu, pmu, sizeof(pmu));
	printf("  PMU (CPUID):      %s\n", pmu);
	printf("  perf hardware:    %s\n", m->perf_hw_usable ? "usable" :
	       "not available: cycles and instructions cannot be counted");
	printf("  perf software:    %s\n", m->perf_sw_usable ? "usable (disturbances are counted)" :
	       "not available: disturbances cannot be counted");
	printf("  user RDPMC:       %s\n", rdpmc_text(m));
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
			const struct probe_result *probes, size_t nprobes)
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
			cbench_jsonw_bool(j, "watched", online_cpus() > 1);
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

static void json_user_backend(struct cbench_jsonw *j, const struct cbench_machine *m)
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
			cbench_jsonw_uint(j, "core_type", cbench_core_type_on(cbench_last_allowed_cpu()));
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
static void json_info(bool loaded, const struct cbench_proto_info *info, const struct probes *probes,
		      const struct cbench_machine *m)
{
	struct cbench_jsonw j;

	cbench_jsonw_init(&j, stdout, true);
	cbench_jsonw_object_start(&j, NULL);
	if (loaded) {
		json_module(&j, info, probes->cpus, probes->count);
	} else {
		cbench_jsonw_object_start(&j, "module");
		cbench_jsonw_bool(&j, "loaded", false);
		cbench_jsonw_string(&j, "hint", NOT_LOADED_HINT);
		cbench_jsonw_object_end(&j);
	}
	json_user_backend(&j, m);
	cbench_jsonw_object_end(&j);
	cbench_jsonw_finish(&j);
}

static void show_usage(FILE *file)
{
	fprintf(file, "Usage: %s info [--json] [--probe[=<cpu>]]\n\n", cbench_prog);
	fprintf(file, "Shows what this machine offers for measurement: from cbench.ko when it is\n"
		      "loaded, and what the user backend will use.\n\n"
		      "  --json         print JSON instead of text\n"
		      "  --probe[=CPU]  ask cbench.ko which counters perf lends it now on CPU,\n"
		      "                 or on every online CPU (needs CAP_SYS_ADMIN)\n");
}

static int parse_options(int argc, char *argv[], struct options *opts)
{
	static const struct option long_options[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "probe", optional_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	opts->probe_cpu = -1;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", long_options, NULL)) != -1) {
		switch (c) {
		case 'j':
			opts->json = true;
			break;
		case 'p': {
			char *end;

			opts->probe = true;
			if (!optarg)
				break;
			errno = 0;
			opts->probe_cpu = strtol(optarg, &end, 10);
			if (errno || *end || end == optarg || opts->probe_cpu < 0 ||
			    opts->probe_cpu > UINT32_MAX) {
				cbench_err("--probe wants a CPU number, not '%s'\n", optarg);
				return -EINVAL;
			}
			break;
		}
		case 'h':
			show_usage(stdout);
			exit(0);
		default:
			cbench_err("info: unknown or incomplete option '%s'\n", argv[optind - 1]);
			return -EINVAL;
		}
	}
	if (optind != argc)
		cbench_err("info: it takes no operand ('%s')\n", argv[optind]);
	return optind == argc ? 0 : -EINVAL;
}

/* Probe results, one per CPU, as the kernel sends them. */

static int append_probe(struct probes *probes, uint32_t cpu, uint32_t counters)
{
	if (probes->count == probes->allocated) {
		size_t allocated = probes->allocated ? 2 * probes->allocated : 64;
		struct probe_result *cpus = reallocarray(probes->cpus, allocated, sizeof(*cpus));

		if (!cpus)
			return -ENOMEM;
		probes->cpus = cpus;
		probes->allocated = allocated;
	}
	probes->cpus[probes->count].cpu = cpu;
	probes->cpus[probes->count].counters = counters;
	probes->count++;
	return 0;
}

static int on_probe(void *arg, uint32_t cpu, uint32_t counters)
{
	return append_probe(arg, cpu, counters);
}

/* One CPU with a plain request, or every online CPU with a dump. */
static int probe_counters(struct cbench_nl *nl, const struct options *opts,
			  struct probes *probes)
{
	uint32_t cpu = (uint32_t)opts->probe_cpu, counters;
	int ret;

	if (opts->probe_cpu < 0) {
		ret = cbench_proto_probe_all(nl, on_probe, probes);
		if (ret)
			cbench_err("unable to probe counters: %s\n",
				cbench_nl_strerror(nl, ret));
		return ret;
	}
	ret = cbench_proto_probe(nl, cpu, &counters);
	if (ret) {
		cbench_err("unable to probe counters on CPU %" PRIu32 ": %s\n",
			cpu, cbench_nl_strerror(nl, ret));
		return ret;
	}
	return append_probe(probes, cpu, counters);
}

int cbench_info_main(int argc, char *argv[])
{
	struct options opts = { 0 };
	struct cbench_proto_info info = { 0 };
	struct probes probes = { 0 };
	struct cbench_machine machine;
	struct cbench_nl *nl = NULL;
	bool loaded;
	int ret;

	if (parse_options(argc, argv, &opts))
		return cbench_usage_error("info", NULL);

	ret = cbench_nl_open(&nl);
	loaded = !ret;
	if (ret && ret != -ENOENT) {
		cbench_err("unable to reach cbench.ko: %s\n",
			cbench_nl_strerror(NULL, ret));
		return 1;
	}
	if (loaded) {
		ret = cbench_proto_info(nl, &info);
		if (ret) {
			cbench_err("unable to query cbench.ko: %s\n",
				cbench_nl_strerror(nl, ret));
			goto out;
		}
		if (opts.probe) {
			ret = probe_counters(nl, &opts, &probes);
			if (ret)
				goto out;
		}
	} else if (opts.probe) {
		cbench_err("unable to probe counters: %s\n",
			"cbench.ko is not loaded");
		ret = -ENOENT;
		goto out;
	}

	cbench_machine_probe(&machine);
	if (opts.json) {
		json_info(loaded, &info, &probes, &machine);
	} else {
		if (loaded)
			print_module(&info, probes.cpus, probes.count);
		else
			printf("%s; meanwhile the user backend will use:\n", NOT_LOADED_HINT);
		if (loaded)
			printf("user backend:\n");
		print_user_backend(&machine);
	}
	ret = 0;
out:
	free(probes.cpus);
	cbench_nl_close(nl);
	return ret ? 1 : 0;
}
