/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `cbenchctl insn`'s report (report_insn.c): a row per sequence, its
 * latency and reciprocal throughput as uops.info prints them, then what
 * was run to get them, text or JSON.
 */
#ifndef _CBENCH_REPORT_INSN_H
#define _CBENCH_REPORT_INSN_H

#include <stdbool.h>
#include <stdio.h>

#include "machine/probe.h"
#include "machine/uarch.h"

/* One measurement: a chain, or the copies, at two unrolls. */
struct cbench_insn_measure {
	double per_instance;		/* est-cycles per instance; NAN: not measured */
	double counted;			/* cycles per instance where the PMU counted; NAN: none */
	double insns;			/* instructions per instance, counted; NAN: none */
	double overhead;		/* est-cycles a loop iteration beyond its instances */
	int unroll[2];			/* instances a loop iteration, in the two kernels */
	const char *code;		/* one instance, as run */
	const char *how;		/* how it was made */
	const char *why;		/* why it was not measured ("" if it was) */
};

struct cbench_insn_row {
	const char *asm_text, *init;	/* init: "" for none */
	const char *refused;		/* why the sequence was refused; "" if it was not */
	struct cbench_insn_measure latency, throughput;
	int copies;			/* independent copies for the throughput */
	bool ring0_only;		/* privileged: measured in ring 0 only */
	bool reads_flags;		/* copies chained through the flags */
};

struct cbench_insn_report {
	const struct cbench_machine *machine;
	const struct cbench_core *core;
	const char *backend;		/* "user" or "kmod" */
	bool counted;			/* the PMU counted cycles */
	const struct cbench_insn_row *rows;
	int n;
};

void cbench_insn_print(FILE *f, const struct cbench_insn_report *r, bool json);

#endif /* _CBENCH_REPORT_INSN_H */
