/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _CBENCH_GUARD_H
#define _CBENCH_GUARD_H

#include <linux/percpu.h>
#include <linux/hrtimer.h>
#include <linux/types.h>

#include "trampoline.h"

/* Images one guard's calls may be in: a run's, and an audit's side B. */
#define CBENCH_GUARD_IMAGES 2

/*
 * The safety net under one run's calls of benchmark code (guard.c).  The
 * first four fields are the trampoline's: their offsets are fixed in
 * trampoline.S.
 */
struct cbench_guard {
	unsigned long sp;		/* the aligned stack at the call */
	unsigned long bp;		/* the trampoline's frame */
	unsigned long flags;		/* RFLAGS when the trampoline was entered */
	unsigned long inside;		/* 1 from just before the call to just after */

	/* The measuring CPU's: odd while a call is under way. */
	unsigned long calls;
	unsigned int cpu;
	struct {
		unsigned long lo, hi;	/* [lo, hi): an image's bytes */
	} image[CBENCH_GUARD_IMAGES];

	/* The watcher's (a hard-interrupt timer pinned to another CPU). */
	struct hrtimer timer;
	bool watching;
	unsigned int watcher;		/* the CPU its timer runs on */
	unsigned long seen_calls;	/* calls when last seen to change */
	u64 seen_at;			/* and when, in ns (ktime_get_ns) */
	unsigned long kill;		/* the call to end (a calls value), or 0 */

	/* The NMI handler's or the exception notifier's: 1 + the image whose
	 * call it ended, or 0; for an exception, 1 + its vector and the
	 * faulting instruction's offset in that image; and, for the watcher's
	 * report, how its last NMI went. */
	unsigned int recovered;
	unsigned int trap;
	unsigned long trap_offset;
	unsigned long nmi_ip;		/* where the last NMI found the CPU */
	unsigned int nmi_why;		/* enum cbench_guard_miss of that NMI */
	unsigned int resent;		/* NMIs sent for the current kill */
};

DECLARE_PER_CPU(struct cbench_guard *, cbench_guard_here);

int cbench_guard_init(void);
void cbench_guard_exit(void);

/* Whether a run on cpu may start: another CPU can watch it, or the parameter says so. */
bool cbench_guard_can_watch(unsigned int cpu);

/*
 * Readies guard for calls on cpu into the images given (NULL: none) and,
 * where another CPU is online, starts watching them.  Stop it before the
 * guard goes away.
 */
void cbench_guard_start(struct cbench_guard *guard, unsigned int cpu, const void *a, u64 a_bytes,
			const void *b, u64 b_bytes);
void cbench_guard_stop(struct cbench_guard *guard);

/*
 * Calls fn(ctx, reps) through the trampoline, watched: with preemption off
 * (the caller holds the FPU), on guard's CPU.  If the call does not return
 * within the module's call_limit_ms, the watcher ends it, and if it raises
 * an exception the kernel would die of, the notifier ends it: then
 * guard->recovered says so; what it returned is meaningless.
 */
static __always_inline u64 cbench_guarded_call(struct cbench_guard *guard, void *fn, void *ctx,
					       u64 reps)
{
	u64 ret;

	this_cpu_write(cbench_guard_here, guard);
	WRITE_ONCE(guard->calls, guard->calls + 1);
	ret = cbench_trampoline(fn, ctx, reps, guard);
	WRITE_ONCE(guard->calls, guard->calls + 1);
	this_cpu_write(cbench_guard_here, NULL);
	return ret;
}

#endif /* _CBENCH_GUARD_H */
