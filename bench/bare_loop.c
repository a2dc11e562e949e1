// SPDX-License-Identifier: GPL-2.0
/*
 * The limit reference for bench/run.sh: the bare loop a careful engineer
 * would write by hand, with no harness at all.  One process, pinned by the
 * caller, alternates measurements of the add chain and the imul chain of
 * examples/suite.c (the same inline asm), so both see the same core clock
 * within microseconds, and keeps each chain's least time per op.
 *
 *   bare_loop chains     one line of JSON: ns/op of each chain, and their ratio
 *   bare_loop histogram  the commonest deltas of a million back-to-back
 *                        rdtsc pairs: what a timer's step looks like
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The same serialized reads cbench uses: the harness is what we leave out. */
#include "machine/tsc.h"

/* Reps of 1000 ops per measurement, and alternating rounds. */
#define REPS 100
#define ROUNDS 4000
#define PAIRS 1000000

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static uint64_t add_chain(void)
{
	uint64_t x = 0, start = cbench_tsc_start();

	for (int r = 0; r < REPS; r++)
		__asm__ volatile(".rept 1000\n\tadd %1, %0\n\t.endr" : "+r"(x) : "r"(1UL));
	return cbench_tsc_stop() - start + (x & 0);
}

static uint64_t imul_chain(void)
{
	uint64_t x = 3, start = cbench_tsc_start();

	for (int r = 0; r < REPS; r++)
		__asm__ volatile(".rept 1000\n\timul %0, %0\n\t.endr" : "+r"(x));
	return cbench_tsc_stop() - start + (x & 0);
}

static int chains(void)
{
	uint64_t best_add = UINT64_MAX, best_imul = UINT64_MAX, t0, t1;
	double n0, n1, hz;

	n0 = now_ns();
	t0 = cbench_tsc_start();
	for (int i = 0; i < ROUNDS; i++) {
		uint64_t a = add_chain(), m = imul_chain();

		best_add = a < best_add ? a : best_add;
		best_imul = m < best_imul ? m : best_imul;
	}
	t1 = cbench_tsc_stop();
	n1 = now_ns();
	hz = (double)(t1 - t0) * 1e9 / (n1 - n0);
	printf("{\"add_ns_per_op\": %.9g, \"imul_ns_per_op\": %.9g, \"imul_over_add\": %.9g}\n",
	       (double)best_add * 1e9 / hz / (REPS * 1000.0), (double)best_imul * 1e9 / hz / (REPS * 1000.0),
	       (double)best_imul / (double)best_add);
	return 0;
}

static int compare(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return (x[1] < y[1]) - (x[1] > y[1]);
}

static int histogram(void)
{
	static uint64_t delta[PAIRS], counts[64][2];
	int used = 0;

	for (int i = 0; i < PAIRS; i++) {
		uint32_t lo, hi, lo2, hi2;

		__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
		__asm__ volatile("rdtsc" : "=a"(lo2), "=d"(hi2));
		delta[i] = ((((uint64_t)hi2 << 32) | lo2) - (((uint64_t)hi << 32) | lo));
	}
	for (int i = 0; i < PAIRS; i++) {
		int k;

		for (k = 0; k < used && counts[k][0] != delta[i]; k++)
			;
		if (k == used) {
			if (used == 64)
				continue;
			counts[used][0] = delta[i];
			counts[used++][1] = 0;
		}
		counts[k][1]++;
	}
	qsort(counts, (size_t)used, sizeof(counts[0]), compare);
	for (int k = 0; k < used && k < 6; k++)
		printf("%s%llu x%llu", k ? ", " : "", (unsigned long long)counts[k][0],
		       (unsigned long long)counts[k][1]);
	printf("\n");
	return 0;
}

int main(int argc, char *argv[])
{
	if (argc == 2 && !strcmp(argv[1], "chains"))
		return chains();
	if (argc == 2 && !strcmp(argv[1], "histogram"))
		return histogram();
	fprintf(stderr, "usage: bare_loop chains|histogram\n");
	return 2;
}
