/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CLOCK_MONOTONIC, for deadlines, time limits and wall-clock spans.  Never
 * for timing a benchmark: that is the TSC's job (tsc.h).
 */
#ifndef _CBENCH_CLOCK_H
#define _CBENCH_CLOCK_H

#include <stdint.h>
#include <time.h>

/* Now on CLOCK_MONOTONIC, in ns. */
static inline int64_t cbench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* The same in seconds. */
static inline double cbench_now_s(void)
{
	return (double)cbench_now_ns() * 1e-9;
}

#endif /* _CBENCH_CLOCK_H */
