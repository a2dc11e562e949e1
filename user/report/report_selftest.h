/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `cbenchctl selftest`: the checks the command (cmd/selftest.c) judged on
 * each backend, for its report (report_selftest.c).
 */
#ifndef _CBENCH_REPORT_SELFTEST_H
#define _CBENCH_REPORT_SELFTEST_H

#include <stdbool.h>
#include <stdio.h>

#include "machine/known.h"
#include "machine/probe.h"
#include "machine/uarch.h"
#include "report/backends.h"

/* One check's outcome on one backend. */
struct cbench_selftest_outcome {
	const char *name, *what, *unit, *source, *cores;
	double expected, expected_hi;		/* a value (equal) or a range; NAN: none */
	double tolerance, measured;		/* tolerance relative */
	enum cbench_known_verdict verdict;
	char kernel[64];			/* what it ran: "latency_chase_1024k" */
	char cause[256];			/* "" when there is nothing to say */
};

/* Most outcomes one backend has: each check, and two counted ones for each of them. */
#define CBENCH_SELFTEST_OUTCOMES 72

/* What one backend's run gave. */
struct cbench_selftest_backend {
	const char *backend;			/* "user" or "kmod" */
	struct cbench_backend_run run;		/* what its run says of its quiet */
	struct cbench_selftest_outcome checks[CBENCH_SELFTEST_OUTCOMES];
	int nchecks;
	int judged, passed, failed;		/* failed: failed or not measured */
	int not_judged;				/* not judged, not supported, not run */
};

/*
 * The report of n backends on machine m, core the identification the
 * checks were judged by, as text (with, for two backends, both side by
 * side) or as JSON.
 */
void cbench_selftest_print(FILE *f, const struct cbench_machine *m, const struct cbench_core *core,
			   const struct cbench_selftest_backend *b, int n, bool json);

#endif /* _CBENCH_REPORT_SELFTEST_H */
