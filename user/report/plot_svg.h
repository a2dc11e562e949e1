/* SPDX-License-Identifier: GPL-2.0 */
/* What every page `cbenchctl plot` draws shares: escaped text, round ticks. */
#ifndef _CBENCH_PLOT_SVG_H
#define _CBENCH_PLOT_SVG_H

#include <stdio.h>

/* s into an HTML page, escaped. */
void cbench_plot_html(FILE *f, const char *s);

/* The least of 1, 2 or 5 times a power of ten that is at least x (> 0). */
double cbench_plot_round_step(double x);

#endif /* _CBENCH_PLOT_SVG_H */
