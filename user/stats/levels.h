/* SPDX-License-Identifier: GPL-2.0 */
/*
 * est-cycles within one clock level: a trial's benchmark measurements
 * matched with the reference measurements taken beside them
 * (docs/methodology.md, "A figure the clock cannot bias").
 *
 * Each measurement of the benchmark is followed by one of the reference
 * chain, so a measurement i lies between reference i - 1 and reference i,
 * microseconds apart.  Where those two agree, the core clock held across
 * measurement i ("steady"); where they part, the clock jumped beside it
 * (or one of them was delayed), and the measurement is left out.  The
 * benchmark's floor is taken over the steady measurements, and the
 * reference's over every reference but those faster than the clock level
 * the benchmark's fastest steady measurements ran at: both floors then come
 * from one level.  A floor
 * of each taken over the whole trial can come from two levels (the
 * benchmark's from a slow stretch, the reference's from a few fast
 * measurements) and biases the figure by the levels' gap.
 *
 * The steadiness asked for is the tightest of CBENCH_LEVELS_TOLERANCES
 * that leaves enough measurements (CBENCH_LEVELS_MIN, and a share
 * CBENCH_LEVELS_MIN_SHARE of the valid ones), never under three timer
 * steps of a reference measurement; at the loosest, CBENCH_LEVELS_FEWEST
 * will do.
 */
#ifndef _CBENCH_STATS_LEVELS_H
#define _CBENCH_STATS_LEVELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One measurement as the matcher sees it. */
struct cbench_level_point {
	double ticks_per_rep;		/* NAN: disturbed, not counted */
	uint64_t at;			/* its start, TSC ticks; 0 where unknown */
};

/* Relative steadiness tried, tightest first. */
#define CBENCH_LEVELS_TOLERANCES { 0.001, 0.002, 0.005, 0.01 }
#define CBENCH_LEVELS_MIN 5
#define CBENCH_LEVELS_MIN_SHARE 0.5
#define CBENCH_LEVELS_FEWEST 3
/* Measurements whose rates in reference chains must agree for the least of
 * them to stand: fewer under it outran their references (levels.c). */
#define CBENCH_LEVELS_CONFIRM 3
/* A level's core (levels.c): steady references within this of each other,
 * relative, at least CBENCH_LEVELS_CORE_MIN and CBENCH_LEVELS_CORE_SHARE
 * of the steady measurements. */
#define CBENCH_LEVELS_CORE 2e-4
#define CBENCH_LEVELS_CORE_MIN 3
#define CBENCH_LEVELS_CORE_SHARE 0.1

struct cbench_levels {
	double bench_ticks;		/* per rep: the matched measurements' floor mean */
	double ref_ticks;		/* per reference rep, at the same level */
	size_t valid;			/* valid measurements of the benchmark */
	size_t matched;			/* of those, with a steady clock on both sides */
	double tolerance;		/* the steadiness they were matched at */
	/* Clock levels among the steady references (levels.c's cores), and
	 * how far the slowest lies above the fastest: 0 where it held. */
	size_t levels;
	double moved;
	/* Adjacent references apart by more than CBENCH_LEVELS_JUMP: the
	 * clock's jumps the trial saw (or delays of the chain). */
	size_t jumps;
};

#define CBENCH_LEVELS_JUMP 0.01

/*
 * Matches the nbench measurements of a trial with its nref references (in
 * the order taken; reference i taken right after measurement i), each
 * timer step wide in ticks per rep (bench_step, ref_step).  0 with *l
 * filled; -ENODATA where the references were not taken beside the
 * measurements (a start unknown, or out of order), -EDOM where there are
 * too few valid measurements to match (under 2 CBENCH_LEVELS_MIN): the
 * caller takes the trial's floors instead; -ERANGE where the clock held
 * across too few measurements at every tolerance (*l then gives the
 * counts).
 */
int cbench_levels_match(const struct cbench_level_point *bench, size_t nbench,
			const struct cbench_level_point *ref, size_t nref, double bench_step,
			double ref_step, struct cbench_levels *l);

/*
 * For measurements taken in groups between references (an audit's
 * timings, a reference after every few): r[0..nref) the references' ticks
 * per rep in the order taken (NAN: disturbed), group g lying between r[g]
 * and r[g + 1].  Into clock[g] (nref - 1 of them) the ticks per reference
 * rep of the clock level group g ran at (the floor mean of that level's
 * references), NAN where the references around it disagree: the clock
 * moved beside it (where the round saw one level only, references that
 * disagree were delayed, and every group is at that level).  The
 * steadiness is the tightest of
 * CBENCH_LEVELS_TOLERANCES that keeps half the groups.  0, -ERANGE where
 * no group is steady, or -ENOMEM.
 */
int cbench_levels_of_groups(const double *r, size_t nref, double ref_step, double *clock);

#endif /* _CBENCH_STATS_LEVELS_H */
