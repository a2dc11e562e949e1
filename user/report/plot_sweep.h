/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `cbenchctl plot`'s sweep view: a benchmark with parameters drawn as
 * ns/op against each numeric key, a line per value of the other keys.
 */
#ifndef _CBENCH_PLOT_SWEEP_H
#define _CBENCH_PLOT_SWEEP_H

#include <stdio.h>

#include "report/json.h"

/*
 * The sweeps of up to two reports' "benchmarks" arrays (labels name the
 * reports; the second report's lines are dashed): per base name whose
 * parameter sets share their keys, a chart per key that takes two or more
 * integer values.  Axes are logarithmic where the values span two decades
 * or more.  Writes nothing for reports without such benchmarks.
 */
void cbench_plot_sweeps(FILE *f, const struct cbench_json *const benchmarks[], const char *const labels[],
			size_t nin);

#endif /* _CBENCH_PLOT_SWEEP_H */
