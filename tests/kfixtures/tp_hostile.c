// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel-safe objects that misuse loop timing points.  tp_scribble writes
 * garbage into ctx->tp but never through it: cbench.ko must not trust what
 * it reads back (kmod_test tp-hostile checks the records, and the debug
 * kernel's KASAN any access out of bounds).  tp_capacity_lie writes records
 * past its buffer through a capacity it raised itself: user mode's
 * rehearsal, with the buffer against a guard page, must stop it before
 * ring 0.
 */
#include <cbench.h>

/* tests/vm/kmod_tpoints.c's TP_SCRIBBLE_NEXT. */
#define SCRIBBLE_NEXT 1000000007ULL

static void tp_scribble(struct cbench_ctx *ctx, uint64_t reps)
{
	uint64_t it = 0;

	cbench_mark(it);
	cbench_tpoint(ctx, it);
	/* Each call must find the state fresh: next grows from what it got. */
	ctx->tp.next += SCRIBBLE_NEXT;
	ctx->tp.capacity = ~0ULL;
	ctx->tp.buf = (struct cbench_tp_record *)(uintptr_t)0xdead000000000000ULL;
	ctx->tp.every = 0;
	ctx->tp.countdown = 0;
	cbench_keep(reps);
}
CBENCH(tp_scribble);

/* Given a buffer, far more points than any cbenchctl gives (65536
 * records), each one recorded since the capacity it raised says there is
 * room; without one (tuning, plain measurements), a cheap rep. */
static void tp_capacity_lie(struct cbench_ctx *ctx, uint64_t reps)
{
	uint64_t it = 0;

	if (!ctx->tp.buf) {
		uint64_t x = reps;

		for (uint64_t i = 0; i < reps; i++)
			__asm__ volatile("add %1, %0" : "+r"(x) : "r"(1UL));
		cbench_keep(x);
		return;
	}
	ctx->tp.capacity = ~0ULL;
	for (int i = 0; i < 70000; i++) {
		cbench_mark(it);
		cbench_tpoint(ctx, it);
	}
}
CBENCH(tp_capacity_lie);
