/* SPDX-License-Identifier: GPL-2.0 */
/* `cbenchctl audit`: what the runner (cmd/audit.c) hands its reports (report_audit.c). */
#ifndef _CBENCH_REPORT_AUDIT_H
#define _CBENCH_REPORT_AUDIT_H

#include <stdint.h>
#include <stdio.h>

#include "machine/cpuenv.h"
#include "machine/probe.h"
#include "object/loader.h"
#include "worker/results.h"

/* One pair of benchmarks audited against each other. */
struct cbench_audit_pair {
	const struct cbench_experiment *a, *b;
	uint64_t n_a, n_b;			/* reps per measurement */
	int error;				/* 0, or -errno: the audit failed */
	char reason[640];
	struct cbench_audit_end end;		/* valid when !error */
	struct cbench_audit_timing *timings;	/* both sides, malloc'd */
	size_t ntimings, timings_a, timings_b;
	double converge_a, converge_b;		/* timings / variance, per side */
	/* Timing points: when both sides had them, the audit compared their
	 * per-iteration timings (timings_a/b count those), round by round. */
	bool tp;
	struct cbench_tp_summary tp_side[2];	/* A, B */
	struct cbench_tp_round *tp_rounds;	/* both sides, malloc'd */
	size_t ntp_rounds;
	/* Why whole measurements were compared though a side has timing
	 * points (one side has none, or they are too close to time); "". */
	char tp_note[200];
};

/* What of an audited object's code could move (object/layout.h). */
struct cbench_audit_layout {
	int mode;				/* enum cbench_layout_mode */
	char text[600];				/* cbench_layout_describe()'s */
};

struct cbench_audit_report {
	uint64_t seed;
	double confidence;
	double budget_s;			/* per pair */
	double min_effect_pct;			/* percent */
	const char *backend;
	char quiet[8];			/* kmod: "cli" or "lvt"; "" in user mode */
	bool no_tpoints;			/* --no-tpoints */
	bool fixed_placement;			/* --fixed-placement */
	bool fixed_layout;			/* --fixed-layout */
	/* A's object's code layout, and B's (the same with one object). */
	struct cbench_audit_layout layout[2];
	struct cbench_timer timer;
	struct cbench_audit_pair *pairs;
	size_t npairs;
	/* The machine and the measuring CPU's settings, for an LNT report. */
	struct cbench_machine machine;
	struct cbench_cpuenv cpuenv;
};

/* "B slower by 1.02 % [0.85 %, 1.19 %]" and the like, into buf. */
void cbench_audit_verdict_text(const struct cbench_audit_report *r, const struct cbench_audit_pair *p,
			       char *buf, size_t len);
/*
 * "slower" or "faster" where the verdict is equivalent only because of
 * --min-effect (the interval lies within it but excludes 0: the change is
 * real, and smaller than the threshold); NULL otherwise.
 */
const char *cbench_audit_under_min_effect(const struct cbench_audit_pair *p);
/*
 * How the pair's code layouts went, in a sentence: how many each side was
 * measured on and what moved, or that the code stayed where it was loaded,
 * why, and how to build so it can move.
 */
void cbench_audit_layout_text(const struct cbench_audit_report *r, const struct cbench_audit_pair *p,
			      char *buf, size_t len);
/* "faster", "slower", "equivalent", "inconclusive" or "failed". */
const char *cbench_audit_verdict_name(const struct cbench_audit_pair *p);

/* The three formats; each returns 0 or -EIO (the stream's error). */
int cbench_audit_report_text(const struct cbench_audit_report *r, FILE *f);
int cbench_audit_report_json(const struct cbench_audit_report *r, FILE *f);
int cbench_audit_report_go(const struct cbench_audit_report *r, FILE *f);
/*
 * An LNT report (report_lnt.c): a test per audit, B's round timings as
 * ps_per_op, A's as audit_a_ps_per_op, and the change in basis points.
 */
struct cbench_lnt_run;
int cbench_audit_report_lnt(const struct cbench_audit_report *r, const struct cbench_lnt_run *l,
			    FILE *f);

#endif /* _CBENCH_REPORT_AUDIT_H */
