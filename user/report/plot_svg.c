// SPDX-License-Identifier: GPL-2.0
/* What every page `cbenchctl plot` draws shares. */
#include <math.h>

#include "report/plot_svg.h"

void cbench_plot_html(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default: fputc(*s, f);
		}
	}
}

double cbench_plot_round_step(double x)
{
	double p = pow(10, floor(log10(x))), m = x / p;

	return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}
