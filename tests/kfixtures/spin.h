/* SPDX-License-Identifier: MIT */
/* Kernel-image fixtures: a busy wait of a number of TSC ticks, no libc. */
#ifndef _CBFIX_SPIN_H
#define _CBFIX_SPIN_H

#include <cbench.h>

static inline uint64_t cbfix_tsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

static inline void cbfix_spin(uint64_t ticks)
{
	uint64_t start = cbfix_tsc();

	while (cbfix_tsc() - start < ticks)
		__asm__ volatile("pause");
}

#endif
