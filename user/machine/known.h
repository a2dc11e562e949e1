/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the hardware documents for the selftest's known-answer kernels
 * (examples/known.c): a small table keyed by CPUID vendor, family and
 * model, each value with its source.
 */
#ifndef _CBENCH_KNOWN_H
#define _CBENCH_KNOWN_H

#include <stdbool.h>

/* One check of the selftest: a kernel of examples/known.c and what it measures. */
struct cbench_known_check {
	const char *name;		/* "imul", as --expect names it */
	const char *benchmark;		/* its benchmark in examples/known.c */
	const char *what;		/* what it measures */
	const char *unit;		/* of the expected value: "cycles", "cycles per add" */
	double tolerance;		/* relative: 0.02 for 2 % */
	const char *needs;		/* the CPUID feature its instruction needs, or NULL */
	bool least;			/* judge the least trial, not the median: a sibling
					 * thread or a neighbour only slows a throughput */
};

extern const struct cbench_known_check cbench_known_checks[];
extern const unsigned int cbench_known_nchecks;

/* The expected value of a check on a CPU, and where it comes from. */
struct cbench_known_value {
	double value;
	const char *source;
	const char *cores;		/* the parts the table row covers */
};

/* Whether this CPU has what check's kernel executes (CPUID.1:ECX's SSE4.2, POPCNT). */
bool cbench_known_supported(const struct cbench_known_check *check);

/*
 * The table's value of check on vendor (CPUID's string), family and model
 * (display values); false when the table has no row for this CPU: the check
 * is then measured only.
 */
bool cbench_known_lookup(const char *check, const char *vendor, unsigned int family,
			 unsigned int model, struct cbench_known_value *out);

#endif /* _CBENCH_KNOWN_H */
