/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `cbenchctl selftest`: the checks the command (cmd/selftest.c) judged on
 * each backend, for its report (report_selftest.c).
 */
#ifndef _CBENCH_REPORT_SELFTEST_H
#define _CBENCH_REPORT_SELFTEST_H

#include <stdbool.h>
#include <stdio.h>

#include "machine/probe.h"
#include "report/json.h"

enum cbench_selftest_verdict {
	CBENCH_SELFTEST_PASS,
	CBENCH_SELFTEST_FAIL,
	CBENCH_SELFTEST_MEASURED_ONLY,	/* no expectation for this CPU */
	CBENCH_SELFTEST_NOT_MEASURED,	/* no trial measured it (a failure) */
	CBENCH_SELFTEST_UNSUPPORTED,	/* the CPU lacks the instruction */
};

/* One check's outcome on one backend. */
struct cbench_selftest_outcome {
	const char *name, *what, *unit, *source, *cores;
	double expected, tolerance, measured;	/* tolerance relative; NAN: none */
	enum cbench_selftest_verdict verdict;
	char cause[256];			/* "" when there is nothing to say */
};

/* What one backend's run gave. */
struct cbench_selftest_backend {
	const char *backend;			/* "user" or "kmod" */
	struct cbench_json *report;		/* the run's JSON report */
	struct cbench_selftest_outcome checks[3 * 8];	/* each known check, and two counted ones */
	int nchecks;
	int failed;
};

/*
 * The report of n backends on machine m, as text (with, for two backends,
 * both side by side) or as JSON.
 */
void cbench_selftest_print(FILE *f, const struct cbench_machine *m,
			   const struct cbench_selftest_backend *b, int n, bool json);

#endif /* _CBENCH_REPORT_SELFTEST_H */
