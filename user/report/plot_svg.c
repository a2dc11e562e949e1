// SPDX-License-Identifier: GPL-2.0
/* What every page `cbenchctl plot` draws shares; see plot_svg.h. */
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

/* DejaVu Sans's advance widths of ' ' to '~', in 1/2048 em (its hmtx table). */
static const unsigned short advance[95] = {
	651, 821, 942, 1716, 1303, 1946, 1597, 563, 799, 799, 1024, 1716,
	651, 739, 651, 690, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303,
	1303, 1303, 690, 690, 1716, 1716, 1716, 1087, 2048, 1401, 1405, 1430,
	1577, 1294, 1178, 1587, 1540, 604, 604, 1343, 1141, 1767, 1532, 1612,
	1235, 1612, 1423, 1300, 1251, 1499, 1401, 2025, 1403, 1251, 1403, 799,
	690, 799, 1716, 1024, 1024, 1255, 1300, 1126, 1300, 1260, 721, 1300,
	1298, 569, 569, 1186, 569, 1995, 1298, 1253, 1300, 1300, 842, 1067,
	803, 1298, 1212, 1675, 1212, 1212, 1075, 1303, 690, 1303, 1716,
};

double cbench_plot_text_width(const char *s)
{
	double em = 0;

	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p >= ' ' && *p <= '~')
			em += advance[*p - ' '];
		else if ((*p & 0xc0) != 0x80)
			em += 2048;	/* a character's first byte: an em */
	}
	/* 4 % for faces a little wider than DejaVu (Verdana's W), a pixel
	 * for rounding. */
	return em / 2048 * CBENCH_PLOT_FONT_PX * 1.04 + 1;
}
