/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A forest of changes, one row per benchmark: `plot`'s change view of two
 * sides' runs (plot_change.c) and of an audit (plot_audit.c).
 */
#ifndef _CBENCH_PLOT_FOREST_H
#define _CBENCH_PLOT_FOREST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* One row of a forest of changes: a benchmark's change with its interval. */
struct cbench_plot_row {
	const char *name;		/* drawn whole at the left */
	double change, lo, hi;		/* fractions (0.05: 5 % slower); lo, hi NAN: no interval */
	/*
	 * Its verdict, the row's class, which the page's CSS colours:
	 * slower, faster, equal, small, none, undecided (no interval: one
	 * run on a side, hollow, tinted "up" or "down" past the band),
	 * inconclusive (dashed, a "?"), failed (text).
	 */
	const char *verdict;
	char label[96];			/* at the right: "+5.04 % [+4.10, +5.98] slower" */
	char title[512];		/* the tooltip */
};

/*
 * The forest: a row per change, in the order given, over the +-min_effect
 * band (a fraction) and the no-change line; the axis is the ratio new/old
 * (1.05) when ratio is set, else the change in percent (+5).  Names and
 * labels get columns as wide as they need.  Each row is a
 * <g class="KIND VERDICT">.
 */
void cbench_plot_forest(FILE *f, const struct cbench_plot_row *rows, size_t n, double min_effect, bool ratio,
			const char *axis_title, const char *kind);

/* The forest's CSS: one class per verdict. */
extern const char cbench_plot_forest_css[];

#endif /* _CBENCH_PLOT_FOREST_H */
