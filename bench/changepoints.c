// SPDX-License-Identifier: GPL-2.0
/*
 * bench/changepoints.sh's driver: history's detector (user/stats/
 * changepoint.c, with history's defaults) over series read from stdin, one
 * a line: each run's value, or "value/u" with its relative standard
 * uncertainty.  Prints a line per series: the indices of the change points
 * (each the first run after its change), space-separated, or nothing; a
 * run set aside as an excursion of its own is "x" and its index.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/changepoint.h"

int main(void)
{
	const struct cbench_cp_params p = { .window = CBENCH_CP_WINDOW, .max_p = CBENCH_CP_MAX_P,
					    .min_effect = 0.002, .confidence = 0.99 };
	static char line[1 << 20];
	static double y[20000], u[20000];

	while (fgets(line, sizeof(line), stdin)) {
		struct cbench_cp *cps;
		size_t n = 0, ncps;
		int any_u = 0;

		for (char *tok = strtok(line, " \n"); tok && n < 20000; tok = strtok(NULL, " \n")) {
			char *slash = strchr(tok, '/');

			y[n] = log(strtod(tok, NULL));
			u[n] = slash ? strtod(slash + 1, NULL) : NAN;
			any_u |= slash != NULL;
			n++;
		}
		if (cbench_cp_detect(y, any_u ? u : NULL, n, &p, &cps, &ncps))
			return 1;
		for (size_t i = 0; i < ncps; i++)
			printf("%s%s%zu", i ? " " : "", cps[i].excursion ? "x" : "", cps[i].index);
		putchar('\n');
		free(cps);
	}
	return 0;
}
