// SPDX-License-Identifier: GPL-2.0
/*
 * Frames of run-time size, built without the kernel flags' -Werror=vla
 * -Werror=alloca (the Makefile drops them for this file): cbenchctl cannot
 * bound their stack and must refuse them for ring 0, naming the function
 * and the instruction, while the benchmark beside them that reaches
 * neither still runs.
 *
 *   vla        a variable-length array, sized by the parameter
 *   grow       alloca() in a loop
 *   plain      neither
 */
#include <cbench.h>

static __attribute__((noinline)) uint64_t sum_vla(uint64_t n)
{
	volatile char buf[n + 1];

	buf[0] = (char)n;
	buf[n] = 1;
	return (uint64_t)buf[0] + (uint64_t)buf[n];
}

static void vla(struct cbench_ctx *ctx, uint64_t reps)
{
	for (uint64_t i = 0; i < reps; i++)
		cbench_keep(sum_vla((uint64_t)ctx->param + 16));
}
CBENCH(vla);

static void grow(struct cbench_ctx *ctx, uint64_t reps)
{
	for (uint64_t i = 0; i < reps; i++) {
		volatile char *p = __builtin_alloca(64);

		p[0] = (char)i;
		cbench_keep(p[0]);
	}
}
CBENCH(grow);

static void plain(struct cbench_ctx *ctx, uint64_t reps)
{
	for (uint64_t i = 0; i < reps; i++)
		cbench_keep(i);
}
CBENCH(plain);
