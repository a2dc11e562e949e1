// SPDX-License-Identifier: GPL-2.0
/*
 * `cbenchctl doctor`: is this machine, and this CPU, fit for low-noise
 * measurement?  Each check says ok, warn or fail, what it found, and the one
 * line that fixes it (report/report_doctor.h).  Most checks read procfs and sysfs
 * (doctor_cpu.c, doctor_kmod.c); the last two measure: the timer's step and
 * how far the core clock drifts (doctor_measure.c).  Here: the options, the
 * order of the checks, and the exit status.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/doctor_parts.h"
#include "cmd/subcommands.h"
#include "machine/sysroot.h"
#include "session/options.h"

struct doctor {
	bool json;
	bool measure;			/* run the measured checks (no --no-measure) */
	struct cbench_doctor_report report;	/* the CPU checked, and the checks */
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %s doctor [--cpu N] [--json] [--no-measure]\n"
		"\n"
		"Checks whether this machine, and CPU N, are fit for low-noise measurement:\n"
		"each check says ok, warn or fail, and how to fix it.  Exits 1 if any fails.\n"
		"\n"
		"Options:\n"
		"  --cpu N        the CPU to measure on (default: the last CPU we may use)\n"
		"  --json         print JSON instead of text\n"
		"  --no-measure   skip the measured checks (timer step, clock drift: %.1f s)\n"
		"  -h, --help     show this help\n",
		cbench_prog, CBENCH_DOCTOR_DRIFT_SECONDS);
}

/* Options into d.  0 to go on, 1 to stop with status 0 (--help), -1 with 1. */
static int parse_options(struct doctor *d, int argc, char *argv[])
{
	enum { OPT_CPU = 256, OPT_JSON, OPT_NO_MEASURE, OPT_ROOT };
	static const struct option longopts[] = {
		{ "cpu", required_argument, NULL, OPT_CPU },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "no-measure", no_argument, NULL, OPT_NO_MEASURE },
		/* Hidden: read the kernel's files under DIR (tests). */
		{ "root", required_argument, NULL, OPT_ROOT },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	d->report.cpu = -1;
	d->measure = true;
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_CPU:
			if (cbench_option_cpu(optarg, CBENCH_MAX_CPUS, &d->report.cpu, stderr))
				return -1;
			break;
		case OPT_JSON:
			d->json = true;
			break;
		case OPT_NO_MEASURE:
			d->measure = false;
			break;
		case OPT_ROOT:
			cbench_sysroot_set(optarg);
			break;
		case 'h':
			usage(stdout);
			return 1;
		default:
			cbench_usage_error("doctor", "unknown or incomplete option '%s'",
					   argv[optind - 1]);
			return -1;
		}
	}
	if (optind != argc) {
		cbench_usage_error("doctor", "it takes no operand ('%s')", argv[optind]);
		return -1;
	}
	if (d->report.cpu < 0)
		d->report.cpu = cbench_last_allowed_cpu();
	return 0;
}

static void run_checks(struct doctor *d)
{
	struct cbench_machine machine;

	cbench_machine_probe(&machine);
	cbench_doctor_check_online(&d->report);
	cbench_doctor_check_kmod(&d->report, &machine);
	cbench_doctor_check_cpu(&d->report, &machine);
	/* Measuring on a CPU that is not there would only fail again. */
	if (d->measure && d->report.checks[0].verdict != CBENCH_VERDICT_FAIL)
		cbench_doctor_check_measured(&d->report);
}

int cbench_doctor_main(int argc, char *argv[])
{
	struct doctor *d = calloc(1, sizeof(*d));
	int ret;

	if (!d) {
		cbench_err("unable to run the checks: %s\n", strerror(ENOMEM));
		return 1;
	}
	ret = parse_options(d, argc, argv);
	if (ret) {
		free(d);
		return ret > 0 ? 0 : CBENCH_EXIT_USAGE;
	}
	run_checks(d);
	cbench_doctor_print(&d->report, stdout, d->json);
	for (size_t i = 0; i < d->report.nchecks; i++) {
		if (d->report.checks[i].verdict == CBENCH_VERDICT_FAIL)
			ret = 1;
	}
	free(d);
	return ret;
}
