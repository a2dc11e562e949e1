/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _CBENCH_GUARD_H
#define _CBENCH_GUARD_H

#include <linux/percpu.h>
#include <linux/hrtimer.h>
#include <linux/types.h>
#include <asm/processor-flags.h>

#include "stack.h"
#include "trampoline.h"

/* Images one guard's calls may be in: a run's, and an audit's side B. */
#define CBENCH_GUARD_IMAGES 2

/*
 * RFLAGS bits benchmark code must leave as it found them: the trampoline
 * puts them back after every call, and a call that changed one fails its
 * run (RUN_GET's CBENCH_A_RUN_FLAGS_CHANGED).
 */
#define CBENCH_GUARD_FLAGS_KEPT (X86_EFLAGS_TF | X86_EFLAGS_IF | X86_EFLAGS_DF | \
				 X86_EFLAGS_IOPL | X86_EFLAGS_NT | X86_EFLAGS_AC)

/* How a call the safety net ended went wrong, beyond its vector (guard.c). */
struct cbench_guard_fault {
	unsigned int trap;		/* 1 + the x86 vector, or 0: the watchdog's */
	unsigned long offset;		/* of the faulting instruction in its image */
	bool from_caller;		/* offset is of the return address at the top of
					 * the stack: the fault was outside the image */
	unsigned long address;		/* a page fault's (CR2) */
	unsigned long error_code;	/* a page fault's */
	bool oopsed;			/* the kernel printed an oops first (guard.c) */
};

/*
 * The safety net under one run's calls of benchmark code (guard.c).  The
 * first six fields are the trampoline's: their offsets are fixed in
 * trampoline.S.
 */
struct cbench_guard {
	unsigned long sp;		/* the benchmark's stack at the call */
	unsigned long bp;		/* the trampoline's frame */
	unsigned long flags;		/* RFLAGS when the trampoline was entered */
	unsigned long inside;		/* 1 from just before the call to just after */
	unsigned long stack;		/* the top of the benchmark's stack */
	unsigned long flags_after;	/* RFLAGS the call returned with */

	/* The measuring CPU's: odd while a call is under way. */
	unsigned long calls;
	unsigned int cpu;
	unsigned long stack_lo;		/* the benchmark's stack's lowest byte */
	struct {
		unsigned long lo, hi;	/* [lo, hi): an image's bytes */
	} image[CBENCH_GUARD_IMAGES];

	/* The watcher's (a hard-interrupt timer pinned to another CPU). */
	struct hrtimer timer;
	bool started;			/* the timer is initialized: stop it */
	bool watching;
	unsigned int watcher;		/* the CPU its timer runs on */
	unsigned long seen_calls;	/* calls when last seen to change */
	u64 seen_at;			/* and when, in ns (ktime_get_ns) */
	unsigned long kill;		/* the call to end (a calls value), or 0 */

	/* The NMI handler's, the notifier's or the page-fault net's: 1 + the
	 * image whose call it ended, or 0, and how; whether a single step
	 * was stopped after the call returned (CBENCH_GUARD_FLAGS_KEPT's TF);
	 * and, for the watcher's report, how its last NMI went. */
	unsigned int recovered;
	struct cbench_guard_fault fault;
	bool stepped;
	unsigned long nmi_ip;		/* where the last NMI found the CPU */
	unsigned int nmi_why;		/* enum cbench_guard_miss of that NMI */
	unsigned int resent;		/* NMIs sent for the current kill */
};

DECLARE_PER_CPU(struct cbench_guard *, cbench_guard_here);

int cbench_guard_init(void);
void cbench_guard_exit(void);

/* Whether a run on cpu may start: another CPU can watch it, or the parameter says so. */
bool cbench_guard_can_watch(unsigned int cpu);
/* Whether page faults in benchmark code are ended without an oops (enum cbench_fault_net). */
unsigned int cbench_guard_fault_net(void);

/*
 * Readies guard for calls on cpu, on stack, into the images given (NULL:
 * none) and starts watching them from watcher, the CPU reserved for it;
 * if that one went offline (or watcher is -1), from any other online CPU.
 * Stop it before the guard goes away.
 */
void cbench_guard_start(struct cbench_guard *guard, unsigned int cpu, int watcher,
			const struct cbench_stack *stack, const void *a, u64 a_bytes,
			const void *b, u64 b_bytes);
void cbench_guard_stop(struct cbench_guard *guard);
/*
 * Before a guard's memory is freed, whatever ended its thread: stops its
 * watcher and waits for any NMI handler, notifier or fault handler that
 * may still reach it.
 */
void cbench_guard_release(struct cbench_guard *guard);

/*
 * The RFLAGS bits of CBENCH_GUARD_FLAGS_KEPT guard's last call left
 * changed, or 0; meaningless for a call the safety net ended.
 */
static inline unsigned long cbench_guard_flags_changed(const struct cbench_guard *guard)
{
	return ((READ_ONCE(guard->flags_after) ^ guard->flags) & CBENCH_GUARD_FLAGS_KEPT) |
	       (READ_ONCE(guard->stepped) ? X86_EFLAGS_TF : 0);
}

/*
 * Calls fn(ctx, reps) through the trampoline, watched: with preemption off
 * (the caller holds the FPU), on guard's CPU and the run's stack.  If the
 * call does not return within the module's call_limit_ms, the watcher ends
 * it, and if it raises an exception or page fault the kernel would die of,
 * the notifier or the page-fault net ends it: then guard->recovered says
 * so; what it returned is meaningless.
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
