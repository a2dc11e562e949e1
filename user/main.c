// SPDX-License-Identifier: GPL-2.0
/*
 * cbenchctl - measure how long a piece of C takes.
 *
 * main() only dispatches; each subcommand lives in its own file.
 */
#include <stdio.h>
#include <string.h>

#include "report/context.h"
#include "cmd/subcommands.h"

static int show_version(int argc, char *argv[])
{
	printf("cbenchctl %s\n", CBENCH_VERSION);
	return 0;
}

static const struct cbench_subcommand subcommands[] = {
	{ "audit", cbench_audit_main, "is B faster than A: both interleaved at random, to a confidence" },
	{ "compare", cbench_compare_main, "compare runs of two versions (Go benchmark data format)" },
	{ "doctor", cbench_doctor_main, "check whether this machine is fit for low-noise measurement" },
	{ "history", cbench_history_main, "find the commits that made a stored series slower, and confirm them" },
	{ "info", cbench_info_main, "show what this machine offers for measurement" },
	{ "lab", cbench_lab_main, "set this machine up for measurement, and reset it" },
	{ "layout", cbench_layout_main, "how much a benchmark's time depends on where its code lies" },
	{ "list", cbench_list_main, "list the benchmarks in a shared object" },
	{ "plot", cbench_plot_main, "draw JSON reports as an HTML page of SVG plots" },
	{ "profile", cbench_profile_main, "show where a benchmark's time goes, with confidence intervals" },
	{ "run", cbench_run_main, "measure the benchmarks in a shared object" },
	{ "selftest", cbench_selftest_main, "measure kernels with known answers and check them here" },
	{ "insn", cbench_insn_main, "latency and throughput of an instruction or a sequence, in assembly" },
	{ "store", cbench_store_main, "keep runs in a results store: add, list, import, export" },
	{ "version", show_version, "print the version of cbenchctl" },
};

static void show_usage(FILE *file)
{
	fprintf(file, "Usage: %s <command> [<args>]\n\n", cbench_prog);
	fprintf(file, "Available commands:\n");
	for (size_t i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
		fprintf(file, "  %-10s %s\n", subcommands[i].name, subcommands[i].summary);
	fprintf(file, "\nRun '%s <command> --help' for the options of one command.\n", cbench_prog);
}

int main(int argc, char *argv[])
{
	cbench_context_init(argc, argv);
	if (argc < 2) {
		show_usage(stderr);
		return CBENCH_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		show_usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version"))
		return show_version(argc - 1, argv + 1);

	for (size_t i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++) {
		if (!strcmp(argv[1], subcommands[i].name))
			return subcommands[i].fn(argc - 1, argv + 1);
	}
	cbench_err("'%s' is not a command; see '%s --help' for the commands\n", argv[1], cbench_prog);
	return CBENCH_EXIT_USAGE;
}
