// SPDX-License-Identifier: MIT
/*
 * Kernel-safe test object with loop timing points: cbench_tpoint() must
 * build into an image cbench.ko accepts (inline asm, no call), for ABI
 * version 2 and, beside it, a version 1 descriptor.
 */
#include <cbench.h>

static void looped(struct cbench_ctx *ctx, uint64_t reps)
{
	uint64_t x = 0, it = 0;

	for (uint64_t r = 0; r < reps; r++) {
		for (int i = 0; i < 16; i++) {
			cbench_mark(it);
			__asm__ volatile("add $1, %0" : "+r"(x));
		}
		cbench_tpoint(ctx, it);
	}
	cbench_keep(x);
}
CBENCH(looped);

static void plain(struct cbench_ctx *ctx, uint64_t reps)
{
	uint64_t x = (uint64_t)ctx->param;

	for (uint64_t r = 0; r < reps; r++)
		__asm__ volatile("add $1, %0" : "+r"(x));
	cbench_keep(x);
}

static const struct cbench_desc abi1 = {
	.abi_version = 1,
	/* An ABI 1 descriptor ended before the hooks. */
	.desc_bytes = CBENCH_DESC_V1_BYTES,
	.name = "abi1",
	.run = plain,
};

static const struct cbench_desc *const abi1_ptr
__attribute__((used, section(CBENCH_SECTION), aligned(sizeof(void *)))) = &abi1;
