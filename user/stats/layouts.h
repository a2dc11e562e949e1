/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How much a benchmark's time depends on where its code lies, from its
 * timings at many drawn layouts (cbenchctl layout): pure functions over
 * arrays, as stats.h.
 */
#ifndef _CBENCH_LAYOUTS_H
#define _CBENCH_LAYOUTS_H

#include <stddef.h>
#include <stdint.h>

/* Resamples of the bootstrap interval of the spread. */
#define CBENCH_LAYOUTS_BOOTSTRAP 2000
/* Fewest drawn layouts with a figure for a spread and its interval. */
#define CBENCH_LAYOUTS_MIN 3

/* What the layouts of one benchmark came to. */
struct cbench_layouts {
	size_t n;			/* drawn layouts with a figure */
	double median_ns;		/* the median over them of their figure */
	/* The standard deviation over layouts of log(figure) (about the
	 * relative spread), and its percentile bootstrap interval; NAN with
	 * fewer than CBENCH_LAYOUTS_MIN layouts. */
	double sd, sd_lower, sd_upper;
	/* What the noise within a layout predicts of that spread (from each
	 * layout's halves), and the share of the variance beyond it. */
	double noise_sd, share;
	size_t fastest, slowest;	/* indices into the figures, 1-based layouts */
	double fastest_ns, slowest_ns;
	/* The layout as loaded (index 0): its figure, and the share of drawn
	 * layouts faster than it; NAN without one. */
	double loaded_ns, loaded_rank;
};

/*
 * Summarizes figures q[0..n) (q[0] as loaded, q[1..] drawn layouts; NAN for
 * a layout without one) and each one's halves' h1, h2 (the statistic over
 * the first and the second half of its timings), the interval at
 * confidence from a bootstrap seeded with seed.  Returns 0 or -ENOMEM.
 */
int cbench_layouts_summarize(const double *q, const double *h1, const double *h2, size_t n,
			     double confidence, uint64_t seed, struct cbench_layouts *out);

#endif /* _CBENCH_LAYOUTS_H */
