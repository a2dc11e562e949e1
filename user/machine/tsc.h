/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Serialized TSC reads.  We bracket the measured region so that no earlier
 * instruction leaks into it and no later one starts before it ends:
 *
 *	lfence; rdtsc		start: earlier instructions have completed
 *	...region...
 *	rdtscp; lfence		end: the region has completed, and nothing
 *				after the read starts before it
 *
 * (Intel SDM vol. 3 17.17, "Time-Stamp Counter"; lfence is dispatch
 * serializing on AMD where the kernel sets MSR_DE_CFG[1], which every
 * Spectre-era kernel does.)
 */
#ifndef _CBENCH_TSC_H
#define _CBENCH_TSC_H

#include <stdint.h>

static inline uint64_t cbench_tsc_start(void)
{
	uint32_t lo, hi;

	__asm__ volatile("lfence\n\trdtsc" : "=a"(lo), "=d"(hi) : : "memory");
	return ((uint64_t)hi << 32) | lo;
}

static inline uint64_t cbench_tsc_stop(void)
{
	uint32_t lo, hi, aux;

	__asm__ volatile("rdtscp\n\tlfence" : "=a"(lo), "=d"(hi), "=c"(aux) : : "memory");
	return ((uint64_t)hi << 32) | lo;
}

#endif /* _CBENCH_TSC_H */
