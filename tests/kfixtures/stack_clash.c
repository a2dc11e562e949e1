// SPDX-License-Identifier: GPL-2.0
/*
 * Large frames built with -fstack-clash-protection (the Makefile adds it for
 * this file; Ubuntu's compilers have it on by default), which probes them a
 * page at a time in a loop: cbenchctl must follow the loop as the one frame
 * it makes, neither refusing it as a stack that grows each time round nor
 * missing its size.
 *
 *   frame_32k    a 32 KiB frame: fits, runs unchecked
 *   frame_512k   a 512 KiB frame: more than ring 0's stack, checked
 */
#include <cbench.h>

static __attribute__((noinline)) uint64_t fill_32k(uint64_t seed)
{
	volatile char big[32 << 10];

	big[0] = (char)seed;
	big[sizeof(big) - 1] = (char)(seed >> 8);
	return (uint64_t)big[0] + (uint64_t)big[sizeof(big) - 1];
}

static void frame_32k(struct cbench_ctx *ctx, uint64_t reps)
{
	for (uint64_t i = 0; i < reps; i++)
		cbench_keep(fill_32k(i));
}
CBENCH(frame_32k);

static __attribute__((noinline)) uint64_t fill_512k(uint64_t seed)
{
	volatile char big[512 << 10];

	big[0] = (char)seed;
	big[sizeof(big) - 1] = (char)(seed >> 8);
	return (uint64_t)big[0] + (uint64_t)big[sizeof(big) - 1];
}

static void frame_512k(struct cbench_ctx *ctx, uint64_t reps)
{
	for (uint64_t i = 0; i < reps; i++)
		cbench_keep(fill_512k(i));
}
CBENCH(frame_512k);
