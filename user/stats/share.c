// SPDX-License-Identifier: GPL-2.0
/* Sampled shares and their intervals; see share.h. */
#include <math.h>

#include "stats/share.h"

double cbench_share_z(double level)
{
	double lo = 0, hi = 40;

	if (!(level > 0 && level < 1))
		return NAN;
	/* Bisection on the normal tail: erfc is exact to the last bits, and
	 * 200 halvings of [0, 40] leave nothing to gain. */
	for (int i = 0; i < 200; i++) {
		double mid = (lo + hi) / 2;

		if (erfc(mid / M_SQRT2) > 1 - level)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

void cbench_share_wilson(uint64_t k, uint64_t n, double z, double *lower, double *upper)
{
	double p, z2n, center, half;

	if (!n || k > n) {
		*lower = 0;
		*upper = 1;
		return;
	}
	p = (double)k / (double)n;
	z2n = z * z / (double)n;
	center = (p + z2n / 2) / (1 + z2n);
	half = z / (1 + z2n) * sqrt(p * (1 - p) / (double)n + z2n / (4 * (double)n));
	/* At k = 0 or k = n one end is exactly 0 or 1; rounding must not
	 * move it past the estimate. */
	*lower = k == 0 ? 0 : fmax(0, center - half);
	*upper = k == n ? 1 : fmin(1, center + half);
}

double cbench_share_width(double p, uint64_t n, double z)
{
	double z2n;

	if (!n)
		return 1;
	z2n = z * z / (double)n;
	return 2 * z / (1 + z2n) * sqrt(p * (1 - p) / (double)n + z2n / (4 * (double)n));
}

uint64_t cbench_share_needed(double p, double width, double z)
{
	uint64_t lo = 1, hi = 1;

	if (!(width > 0))
		return UINT64_MAX;
	/* The width falls as n grows: double until it fits, then bisect. */
	while (cbench_share_width(p, hi, z) > width) {
		if (hi >= UINT64_MAX / 4)
			return UINT64_MAX;
		lo = hi;
		hi *= 2;
	}
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (cbench_share_width(p, mid, z) > width)
			lo = mid + 1;
		else
			hi = mid;
	}
	return hi;
}

double cbench_share_widest(const uint64_t *counts, size_t ncounts, uint64_t n, double z, double floor)
{
	double widest = 0;

	if (!n)
		return 1;
	for (size_t i = 0; i < ncounts; i++) {
		double p = (double)counts[i] / (double)n;

		if (p >= floor && cbench_share_width(p, n, z) > widest)
			widest = cbench_share_width(p, n, z);
	}
	return widest;
}
