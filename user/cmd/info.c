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

#include "backend/netlink.h"
#include "backend/protocol.h"
#include "cmd/subcommands.h"
#include "machine/probe.h"
#include "report/report_info.h"

struct options {
	bool json;
	bool probe;
	long probe_cpu;		/* -1: every online CPU */
};

struct probes {
	struct cbench_info_probe *cpus;
	size_t count;
	size_t allocated;
};

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
		struct cbench_info_probe *cpus = reallocarray(probes->cpus, allocated, sizeof(*cpus));

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
	struct cbench_info info = { 0 };
	struct probes probes = { 0 };
	struct cbench_nl *nl = NULL;
	int ret;

	if (parse_options(argc, argv, &opts))
		return cbench_usage_error("info", NULL);

	ret = cbench_nl_open(&nl);
	info.loaded = !ret;
	if (ret && ret != -ENOENT) {
		cbench_err("unable to reach cbench.ko: %s\n",
			cbench_nl_strerror(NULL, ret));
		return 1;
	}
	if (info.loaded) {
		ret = cbench_proto_info(nl, &info.module);
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

	cbench_machine_probe(&info.machine);
	info.probes = probes.cpus;
	info.nprobes = probes.count;
	info.cpu = cbench_last_allowed_cpu();
	info.core_type = info.machine.hybrid ? cbench_core_type_on(info.cpu) : 0;
	cbench_info_print(&info, stdout, opts.json);
	ret = 0;
out:
	free(probes.cpus);
	cbench_nl_close(nl);
	return ret ? 1 : 0;
}
