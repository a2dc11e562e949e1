/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The change of a benchmark between two versions, run against run: what
 * `compare` prints a row of and `plot` draws.  Each side gives one value per
 * run (its headline, the median of its trials' figure); Welch's t test
 * compares the logs of those values, and the verdict follows audit's rules
 * against the smallest change that counts.
 */
#ifndef _CBENCH_CHANGE_H
#define _CBENCH_CHANGE_H

#include <stdbool.h>
#include <stddef.h>

/* Significance level for calling a difference; the interval is 1 - alpha. */
#define CBENCH_CHANGE_ALPHA 0.05

/*
 * A verdict against the smallest change that counts, e (min_effect), by the
 * interval alone, as a minimum-effect test and an equivalence test read it:
 * slower when the whole interval lies above +e (above 0 for e = 0), faster
 * when it lies below -e, equal when it lies within +-e; otherwise it is not
 * settled which, and the verdict says what is known.  The same rule decides
 * audit's verdicts (stats/sequential.c).
 */
enum cbench_change_verdict {
	CBENCH_CHANGE_UNDECIDED,	/* one run on a side: nothing to tell drift from a change */
	CBENCH_CHANGE_NONE,		/* the interval holds 0 and reaches past +-e: nothing settled */
	CBENCH_CHANGE_UNSETTLED,	/* the interval excludes 0 (a real difference) but
					 * reaches across +e or -e: how large, not settled */
	CBENCH_CHANGE_EQUAL,		/* the whole interval within +-e */
	CBENCH_CHANGE_FASTER,		/* the whole interval below -e */
	CBENCH_CHANGE_SLOWER,		/* the whole interval above +e */
};

struct cbench_change {
	double old_ns, new_ns;		/* each side's geometric mean of its runs' values */
	double change;			/* new / old - 1 */
	double lo, hi;			/* its 1 - alpha interval; NAN with one run on a side */
	double p;			/* Welch's p over the runs' logs; NAN likewise */
	enum cbench_change_verdict verdict;
	/*
	 * Equal only because of min_effect: the difference is shown (p < alpha,
	 * the interval excludes 0), and without the threshold the verdict would
	 * be slower (+1) or faster (-1); 0 otherwise.
	 */
	int under_min_effect;
};

/*
 * old[0..nold) and new[0..nnew), one positive value per run, into *c.
 * min_var is the least variance of a side's logs (the values' rounding:
 * runs that all read alike still differ by that much); min_effect a
 * fraction (0.002 for 0.2 %).  0, or -ENOMEM.
 */
int cbench_change_test(const double *old, size_t nold, const double *new, size_t nnew, double min_var,
		       double min_effect, struct cbench_change *c);

/*
 * A gate's answer for a change with interval [lo, hi] (NAN: not known):
 * whether it is slower by min_effect or more (with changed, slower or
 * faster).  It fails on a change the interval shows past the bound, passes
 * one the interval shows within it (for slower: hi under +min_effect), and
 * is undecided about the rest: a gate never passes what it could not judge.
 */
enum cbench_gate_answer {
	CBENCH_GATE_PASS,
	CBENCH_GATE_FAIL,
	CBENCH_GATE_UNDECIDED,
};

enum cbench_gate_answer cbench_change_gate(double lo, double hi, double min_effect, bool changed);

/* The verdict of an interval [lo, hi] against min_effect (above); NAN:
 * undecided. */
enum cbench_change_verdict cbench_change_verdict_of(double lo, double hi, double min_effect);

#endif /* _CBENCH_CHANGE_H */
