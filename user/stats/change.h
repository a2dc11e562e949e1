/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The change of a benchmark between two versions, run against run: what
 * `compare` prints a row of and `plot` draws.  Each side gives one value per
 * run (its headline, the least trial's ns/op); Welch's t test compares the
 * logs of those values, and the verdict follows audit's rules against the
 * smallest change that counts.
 */
#ifndef _CBENCH_CHANGE_H
#define _CBENCH_CHANGE_H

#include <stdbool.h>
#include <stddef.h>

/* Significance level for calling a difference; the interval is 1 - alpha. */
#define CBENCH_CHANGE_ALPHA 0.05

enum cbench_change_verdict {
	CBENCH_CHANGE_UNDECIDED,	/* one run on a side: nothing to tell drift from a change */
	CBENCH_CHANGE_NONE,		/* no difference shown (p >= alpha), nor equivalence */
	CBENCH_CHANGE_SMALL,		/* a difference (p < alpha) smaller than min_effect */
	CBENCH_CHANGE_EQUAL,		/* the whole interval within +-min_effect */
	CBENCH_CHANGE_FASTER,
	CBENCH_CHANGE_SLOWER,
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

#endif /* _CBENCH_CHANGE_H */
