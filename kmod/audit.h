/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Audit runs (CBENCH_CMD_AUDIT_START): a run whose samples alternate
 * between two sides in a seeded random order.  Side A is the run's own
 * entry, arena and context (run.h); side B and the order live here.
 */
#ifndef _CBENCH_AUDIT_H
#define _CBENCH_AUDIT_H

#include <linux/types.h>

#include "image.h"
#include "lib/abi.h"

struct cbench_run;
struct nlattr;

/* What one call of a side's benchmark needs. */
struct cbench_pick {
	void *entry;
	void *setup;			/* NULL: none */
	void *before_rep, *after_rep;	/* per-rep hooks; NULL: none */
	struct cbench_kctx *ctx;
	u64 reps;			/* of this call; for a side, the most of any */
	u32 side;			/* 0: A (a single run's), 1: an audit's B */
};

/* Side B as a client asks for it; checked by the netlink layer. */
struct cbench_audit_config {
	struct cbench_image *image;	/* mapped; the caller's, not held */
	void *entry, *setup;
	void *before_rep, *after_rep;	/* per-rep hooks; with either, reps is 1 */
	u64 reps;
	u64 arena_bytes;
	s64 param;
	const struct nlattr *args;	/* CBENCH_A_SIDE_ARGS, checked; NULL: none */
	u32 per_side;			/* samples of each side per round */
	u64 seed;
};

struct cbench_audit {
	struct cbench_image *image;	/* B's, held (it may be the run's own) */
	void *entry, *setup;
	void *before_rep, *after_rep;
	u64 reps;
	void *arena;			/* ours; never read back from ctx */
	struct cbench_kctx ctx;
	struct cbench_kargs args;	/* what ctx.args points to (args.h) */
	u32 per_side;
	u64 state;			/* the order's xorshift64* state */
	u8 *order;			/* the current round's, 2 * per_side */
	u8 *sides;			/* each sample's side (0 A, 1 B), for the dump */
};

/* Side B and the order of a run of samples samples; NULL without memory. */
struct cbench_audit *cbench_audit_new(const struct cbench_audit_config *config, u32 samples);
void cbench_audit_free(struct cbench_audit *audit);

/* The sides of run, A then B, for setup() and the budget probe; how many. */
u32 cbench_run_sides(struct cbench_run *run, struct cbench_pick *side);
/*
 * What run's sample i calls.  In an audit run, sample i of a round's first
 * draws the round's order; each sample's side is recorded for the dump.
 */
void cbench_run_pick(struct cbench_run *run, u32 i, struct cbench_pick *pick);

#endif /* _CBENCH_AUDIT_H */
