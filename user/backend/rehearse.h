/* SPDX-License-Identifier: GPL-2.0 */
/* The user-mode rehearsal of a run in cbench.ko (rehearse.c). */
#ifndef _CBENCH_REHEARSE_H
#define _CBENCH_REHEARSE_H

#include <stddef.h>
#include <stdint.h>

#include "object/kstack.h"

/*
 * cbench.ko runs a benchmark's setup() with preemption off (it may use the
 * FPU), once per run; we keep such a window under the same 10 ms as a batch
 * of samples.  The setup time is measured in user mode, on a prefaulted
 * arena as cbench.ko's is.
 */
#define CBENCH_KMOD_SETUP_MAX_NS 10000000ULL
/* Rehearsals a setup() or per-rep hook over that limit gets, judged by its
 * quickest: one call stretched by a stalled host does not refuse it. */
#define CBENCH_KMOD_SETUP_TRIES 3

/*
 * What the rehearsal keeps back of cbench.ko's benchmark stack: room for
 * what interrupts, exceptions and the trampoline push on it beside the
 * benchmark's own frames, and for code that goes a little deeper in ring 0
 * than it did here.  A quarter of the stack, at least this much.
 */
#define CBENCH_KMOD_STACK_MARGIN (16ULL << 10)
/* A module that says nothing calls benchmarks on its 16 KiB thread stack. */
#define CBENCH_KMOD_STACK_OLD (8ULL << 10)

/* The stack the rehearsal gives each call, for a module whose benchmark
 * stack is module_bytes (INFO's CBENCH_A_LIMIT_STACK_BYTES; 0: not said). */
uint64_t cbench_kmod_stack_rehearsed(uint64_t module_bytes);

struct cbench_experiment;

/*
 * What the rehearsal runs its calls on, and which code.  With image, the
 * image with stack checks ring 0 will run (object/kstack.h) runs in the
 * object's place, mapped as cbench.ko maps it, on a stack whose top is
 * aligned to ring 0's stack size: each check sees what it would see at the
 * same depth in ring 0, and one that traps ends the rehearsal, naming its
 * function, before ring 0.  Without, the object as the worker loaded it.
 */
struct cbench_kmod_rehearsal {
	uint64_t stack_bytes;		/* each call's stack: cbench_kmod_stack_rehearsed() */
	uint64_t stack_align;		/* ring 0's stack size, with image; else 0 */
	const struct cbench_kimage *image;
	const struct cbench_kstack *ks;	/* image's checks, and where their stubs are */
	const struct cbench_kstack_stubs *stubs;
};

/* What one run in cbench.ko does with a benchmark: samples calls of reps,
 * reps + step, ..., after setup() and the budget probe; with loop timing
 * points, each call (the probe's too) records into a buffer of tp_records
 * records, every tp_every-th point. */
struct cbench_kmod_shape {
	uint64_t reps;
	uint64_t step;
	uint32_t samples;
	uint32_t tp_records;		/* 0: no timing points */
	uint64_t tp_every;
};

/*
 * Rehearses in a user-mode child exactly the calls one run in cbench.ko will
 * make, before any of them reaches ring 0: on a fresh arena of the same size
 * between guard pages, setup(), the budget probe's calls (reps 1, 16, 256,
 * ... up to the last sample's: cbench_probe_next()), then every sample's,
 * each with ctx->tp set as the module sets it (a buffer of the shape's
 * tp_records between guard pages) or zero.  Every call runs on a stack of
 * how->stack_bytes above an unmapped gap, the code how says.  A benchmark
 * that overruns its arena only at some reps, or needs more stack than ring
 * 0 gives it (or than a stack check lets it have), dies here, not in the
 * kernel.  shape NULL: setup() and one call of 1 rep.  Returns 0;
 * -ECANCELED if setup() refused the parameter; -ETIME if setup() took
 * longer than CBENCH_KMOD_SETUP_MAX_NS in each of CBENCH_KMOD_SETUP_TRIES
 * rehearsals (a fresh child each: setup() runs once a worker; one, where it
 * took ten times as long); -EFAULT if the benchmark crashed,
 * exited or ran away; -E2BIG if it needs more stack; -ENOMEM if the arena
 * cannot be had; with the reason and the fix in why.  *setup_ns gets
 * setup()'s quickest time, 0 if unknown.
 */
int cbench_kmod_rehearse(const struct cbench_experiment *e, const struct cbench_kmod_shape *shape,
			 const struct cbench_kmod_rehearsal *how, uint64_t *setup_ns, char *why,
			 size_t why_bytes);

#endif /* _CBENCH_REHEARSE_H */
