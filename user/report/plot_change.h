/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `cbenchctl plot`'s change view of two sides' runs: per benchmark in
 * both, new against old as `compare` tests it (by the metric compare would
 * judge it by), sorted by change, slowest first, coloured by verdict.
 */
#ifndef _CBENCH_PLOT_CHANGE_H
#define _CBENCH_PLOT_CHANGE_H

#include <stdio.h>

#include "report/runs.h"

/*
 * The view's section: a headline naming the largest slowdown and speed-up,
 * the forest of changes (ratio new/old with compare's interval over the
 * +-min_effect band, a fraction), and the benchmarks of one side only.
 * labels name the sides.  0, or -ENOMEM.
 */
int cbench_plot_change(FILE *f, const struct cbench_sides *sides, const char *const labels[2],
		       double min_effect);

#endif /* _CBENCH_PLOT_CHANGE_H */
