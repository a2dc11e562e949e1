/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `cbenchctl audit` for the commands built on it (history --confirm): its
 * options and the audit itself, run in this process, its report taken
 * from memory, as run's taker (run_parts.h).
 */
#ifndef _CBENCH_AUDIT_PARTS_H
#define _CBENCH_AUDIT_PARTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backend/backend.h"

enum cbench_audit_format { AUDIT_FORMAT_TEXT, AUDIT_FORMAT_JSON, AUDIT_FORMAT_GO, AUDIT_FORMAT_LNT };

struct cbench_audit_options {
	const char *paths[2];
	size_t npaths;
	const char *filter, *name_a, *name_b, *output;
	double confidence, budget_s, min_effect_pct;
	uint64_t seed;
	bool have_seed;
	bool no_tpoints;
	bool fixed_placement;
	bool fixed_layout;
	enum { AUDIT_GATE_NONE, AUDIT_GATE_SLOWER, AUDIT_GATE_CHANGED } fail_on;
	bool undecided_pass;		/* --undecided pass: inconclusive audits pass the gate */
	int figure;			/* --metric: enum cbench_audit_figure; -1: est-cycles where
					 * the backend measures the reference beside the timings */
	int cpu;
	enum cbench_backend_kind backend;
	enum cbench_audit_format format;
	bool format_given;
	const char *machine_name, *order;	/* an LNT report's */
	int quiet;			/* --quiet-mode: enum cbench_quiet; -1 the module's */
};

/* audit's defaults, as its usage gives them. */
void cbench_audit_options_init(struct cbench_audit_options *o);

/* Parses argv (argv[0] is "audit"): 0, 1 when --help was asked for, or
 * -EINVAL after saying why on stderr. */
int cbench_audit_options_parse(struct cbench_audit_options *o, int argc, char *argv[]);

/*
 * What a command built on audit takes of it: the audit's report, handed
 * to take() before the audit's session closes, which returns 0 or -1
 * after saying why.  quiet: no progress and no count of failed audits on
 * stderr.  An audit with a taker writes no report of its own.
 */
struct cbench_audit_report;
struct cbench_audit_taker {
	int (*take)(const struct cbench_audit_report *report, void *arg);
	void *arg;
	bool quiet;
};

/*
 * The audit o describes, in this process: audit's exit status (its gate's
 * where o asks for one), 1 where an audit failed or an error was said.
 */
int cbench_audit(const struct cbench_audit_options *o, const struct cbench_audit_taker *taker);

#endif /* _CBENCH_AUDIT_PARTS_H */
