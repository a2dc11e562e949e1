// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmarks that behave in user mode and misbehave only at CPL 0: they
 * pass cbenchctl's rehearsal and code check and reach cbench.ko, which must
 * end or refuse each, and cbenchctl must say what happened and where
 * (tests/vm/kmod.sh).
 *
 *   pf_in_ring0    reads address 0x1000
 *   tf_in_ring0    sets the trap flag and runs on
 *   sti_in_ring0   turns interrupts on in a call made with them off
 */
#include <cbench.h>

static inline int ring0(void)
{
	uint16_t cs;

	__asm__ volatile("mov %%cs, %0" : "=r"(cs));
	return !(cs & 3);
}

static void pf_in_ring0(struct cbench_ctx *ctx, uint64_t reps)
{
	cbench_launder(reps);
	if (ring0())
		__asm__ volatile("mov 0x1000, %%rax" ::: "rax", "memory");
}
CBENCH(pf_in_ring0);

static void tf_in_ring0(struct cbench_ctx *ctx, uint64_t reps)
{
	cbench_launder(reps);
	if (ring0())
		__asm__ volatile("pushf\n\torl $0x100, (%%rsp)\n\tpopf\n\tnop\n\tnop" ::: "memory", "cc");
}
CBENCH(tf_in_ring0);

static void sti_in_ring0(struct cbench_ctx *ctx, uint64_t reps)
{
	cbench_launder(reps);
	if (ring0())
		__asm__ volatile("sti");
}
CBENCH(sti_in_ring0);
