/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the hardware documents, or published measurements agree on, for the
 * selftest's known-answer kernels (examples/known.c): the checks, a table
 * of expected values per microarchitecture and per vendor line (machine/
 * uarch.h), each with its source, and the judgement of a measured value
 * against one.  Pure: no CPUID here, no measurement, so the unit tests
 * hold every row and every verdict to fixed cores.
 */
#ifndef _CBENCH_KNOWN_H
#define _CBENCH_KNOWN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "machine/uarch.h"

/* Which figure of a benchmark's result a check reads. */
enum cbench_known_figure {
	CBENCH_KNOWN_MEDIAN,	/* est-cycles/op, the headline: the median of the trials */
	CBENCH_KNOWN_LEAST,	/* the least trial's est-cycles/op: a throughput, which a
				 * neighbour only slows */
	CBENCH_KNOWN_NS,	/* ns/op (memory: its latency is not paced by the core clock) */
};

/* A check whose kernel the selftest sizes from the CPUID cache and TLB leaves. */
enum cbench_known_size {
	CBENCH_KNOWN_FIXED,	/* one kernel, as named */
	CBENCH_KNOWN_L2,	/* a chase past the L1d, within the L2 */
	CBENCH_KNOWN_L3,	/* past the L2, within the L3 */
	CBENCH_KNOWN_MEMORY,	/* past the L3 */
	CBENCH_KNOWN_TLB,	/* more pages than the second-level TLB holds */
};

/* One check of the selftest. */
struct cbench_known_check {
	const char *name;		/* "imul", as --expect names it */
	const char *benchmark;		/* its kernel in examples/known.c (FIXED) */
	const char *minus;		/* a kernel whose figure is subtracted, or NULL */
	double scale;			/* the figure (or the difference) times this */
	enum cbench_known_size size;
	enum cbench_known_figure figure;
	const char *what;		/* what it measures */
	const char *unit;		/* of the expected value: "cycles", "ns", ... */
	double tolerance;		/* relative, past either end of the expected range */
	uint32_t needs;			/* CBENCH_FEAT_* its kernel executes; 0 for none */
	/* One instruction per op: where the PMU counts, instructions per op
	 * and cycles per op against the estimate are checked as well. */
	bool one_insn;
	/* Its figure includes page walks, which a guest's nested paging
	 * lengthens by as much as the host's page size decides: judged on
	 * bare metal only. */
	bool paging;
};

/* At most this many checks: the selftest's arrays are sized by it. */
#define CBENCH_KNOWN_MAX_CHECKS 32

extern const struct cbench_known_check cbench_known_checks[];
extern const unsigned int cbench_known_nchecks;

/* The check named name, or NULL. */
const struct cbench_known_check *cbench_known_find(const char *name);

/* What a core should measure for a check: a value (lo == hi) or a range. */
struct cbench_known_expect {
	double lo, hi;			/* NAN when there is no expectation */
	const char *source;		/* where the value comes from; "" if none */
	const char *cores;		/* the cores the row covers; "" if none */
	bool line_wide;			/* the vendor line's row, not the core's */
	char why[256];			/* why there is none */
};

/*
 * The expectation of check for core: its microarchitecture's row, else its
 * vendor line's (values that hold on every core of the line, so a core the
 * table does not know is still judged on them).  False, with why filled,
 * where there is none.
 */
bool cbench_known_expect(const struct cbench_known_check *check, const struct cbench_core *core,
			 struct cbench_known_expect *e);

/* How a check came out. */
enum cbench_known_verdict {
	CBENCH_KNOWN_PASS,
	CBENCH_KNOWN_FAIL,
	CBENCH_KNOWN_NOT_JUDGED,	/* measured, but nothing to hold it to: says why */
	CBENCH_KNOWN_NOT_MEASURED,	/* no trial measured it: a failure */
	CBENCH_KNOWN_UNSUPPORTED,	/* the CPU lacks an instruction of its kernel */
	CBENCH_KNOWN_NOT_RUN,		/* this backend or machine cannot run it (a limit): says why */
};

/*
 * Judges measured against [lo, hi] widened by tolerance (relative) on
 * either side: a pass only inside it; a failure says by how much it missed,
 * in unit, into cause.  A non-finite lo judges nothing (NOT_JUDGED), a
 * non-finite measurement NOT_MEASURED.
 */
enum cbench_known_verdict cbench_known_judge(double lo, double hi, double tolerance, double measured,
					     const char *unit, char *cause, size_t cause_bytes);

/*
 * The kernels a sized check runs on this core: id (and minus_id, for a
 * difference, else ""), chosen from the core's cache and TLB sizes and
 * the machine's memory (mem_bytes; 0 if unknown).  0, or -ENOENT with
 * why filled where the leaves do not say enough to size it.
 */
int cbench_known_kernels(const struct cbench_known_check *check, const struct cbench_core *core,
			 uint64_t mem_bytes, char *id, size_t id_bytes, char *minus_id,
			 size_t minus_bytes, char *why, size_t why_bytes);

/* Second-level TLB entries for 4 KiB pages: CPUID's, else the table's for
 * the core (a guest's CPUID often has no TLB leaf), else 0; *from says which. */
uint32_t cbench_known_stlb_entries(const struct cbench_core *core, const char **from);

/* Whether the core has what check's kernel executes. */
bool cbench_known_supported(const struct cbench_known_check *check, const struct cbench_core *core);

#endif /* _CBENCH_KNOWN_H */
