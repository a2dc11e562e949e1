/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `cbenchctl plot`'s sweep view: a benchmark with parameters drawn as
 * ns/op against each numeric key, a line per value of the other keys and
 * per side of a comparison.
 */
#ifndef _CBENCH_PLOT_SWEEP_H
#define _CBENCH_PLOT_SWEEP_H

#include <stdio.h>

#include "report/runs.h"

/* How a sweep's time axis is drawn. */
enum cbench_plot_scale {
	CBENCH_PLOT_AUTO,	/* logarithmic where the times span two decades or more */
	CBENCH_PLOT_LINEAR,	/* linear from 0, where a change of a few percent shows */
	CBENCH_PLOT_LOG,
};

/*
 * The sweeps of one side's runs, or of two (old and new; labels name
 * them): per base name whose parameter sets share their keys, a chart per
 * key that takes two or more integer values, ten sets to a chart.  Key
 * axes are logarithmic where the values span more than a decade, with
 * ticks at the values themselves where they are few.  Writes nothing for
 * runs without such benchmarks; a chart it has no memory for is left out.
 */
void cbench_plot_sweeps(FILE *f, const struct cbench_runs *const sides[], const char *const labels[],
			size_t nsides, enum cbench_plot_scale y_scale);

#endif /* _CBENCH_PLOT_SWEEP_H */
