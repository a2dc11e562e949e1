// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmarks that need a deep stack, built without the kernel flags' frame
 * limit (the Makefile drops it for this file), as a user who builds with
 * the README's flags would.  cbench.ko calls benchmark code on a stack of
 * its own (call_stack_bytes, 256 KiB by default), and the rehearsal gives
 * each call three quarters of it: the first two need more and must be
 * refused in user mode; the third fits and must run in ring 0, where a
 * kernel thread's 16 KiB stack would have overflowed.
 *
 *   recurse_10k   recursion 10,000 deep, over 100 bytes a frame
 *   frame_1m      a 1 MiB local array, written at both ends
 *   frame_64k     a 64 KiB local array, written at both ends
 */
#include <cbench.h>

static __attribute__((noinline)) uint64_t recurse(uint64_t n)
{
	volatile uint64_t pad[12];

	pad[0] = n;
	pad[11] = n * 3;
	return n ? recurse(n - 1) + pad[0] + pad[11] : 0;
}

static void recurse_10k(struct cbench_ctx *ctx, uint64_t reps)
{
	for (uint64_t i = 0; i < reps; i++)
		cbench_keep(recurse(10000));
}
CBENCH(recurse_10k);

static __attribute__((noinline)) uint64_t fill(uint64_t bytes_log2, uint64_t seed)
{
	volatile char big[1 << 20];
	uint64_t bytes = (uint64_t)1 << bytes_log2;

	big[0] = (char)seed;
	big[bytes - 1] = (char)(seed >> 8);
	return (uint64_t)big[0] + (uint64_t)big[bytes - 1];
}

static __attribute__((noinline)) uint64_t fill_64k(uint64_t seed)
{
	volatile char big[64 << 10];

	big[0] = (char)seed;
	big[sizeof(big) - 1] = (char)(seed >> 8);
	return (uint64_t)big[0] + (uint64_t)big[sizeof(big) - 1];
}

static void frame_1m(struct cbench_ctx *ctx, uint64_t reps)
{
	for (uint64_t i = 0; i < reps; i++)
		cbench_keep(fill(20, i));
}
CBENCH(frame_1m);

static void frame_64k(struct cbench_ctx *ctx, uint64_t reps)
{
	for (uint64_t i = 0; i < reps; i++)
		cbench_keep(fill_64k(i));
}
CBENCH(frame_64k);
