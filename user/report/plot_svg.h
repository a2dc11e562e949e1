/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every page `cbenchctl plot` draws shares: escaped text, round ticks,
 * and the width text takes (there is no script to measure it: we size
 * margins and columns by it so no label is ever cut).
 */
#ifndef _CBENCH_PLOT_SVG_H
#define _CBENCH_PLOT_SVG_H

#include <stdio.h>

/* The SVG text's size, in CSS pixels, and its font (CBENCH_PLOT_FONT in CSS). */
#define CBENCH_PLOT_FONT_PX 11
#define CBENCH_PLOT_FONT "11px \"DejaVu Sans\", Verdana, sans-serif"

/* s into an HTML page, escaped. */
void cbench_plot_html(FILE *f, const char *s);

/* The least of 1, 2 or 5 times a power of ten that is at least x (> 0). */
double cbench_plot_round_step(double x);

/*
 * How wide s is drawn in CBENCH_PLOT_FONT, in pixels, at most: DejaVu Sans's
 * advance widths (the widest of the common sans-serif faces, so text in any
 * other fits too), a character beyond ASCII an em.
 */
double cbench_plot_text_width(const char *s);

#endif /* _CBENCH_PLOT_SVG_H */
