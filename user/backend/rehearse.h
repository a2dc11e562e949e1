/* SPDX-License-Identifier: GPL-2.0 */
/* The user-mode rehearsal of a run in cbench.ko (rehearse.c). */
#ifndef _CBENCH_REHEARSE_H
#define _CBENCH_REHEARSE_H

#include <stddef.h>
#include <stdint.h>

/*
 * cbench.ko runs a benchmark's setup() with preemption off (it may use the
 * FPU), once per run; we keep such a window under the same 10 ms as a batch
 * of samples.  The setup time is measured in user mode, on a prefaulted
 * arena as cbench.ko's is.
 */
#define CBENCH_KMOD_SETUP_MAX_NS 10000000ULL

struct cbench_experiment;

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
 * tp_records between guard pages) or zero.
 * A benchmark that overruns its arena only at some reps dies here, not in
 * the kernel.  shape NULL: setup() and one call of 1 rep.  Returns 0;
 * -ECANCELED if setup() refused the parameter; -ETIME if setup() took longer
 * than CBENCH_KMOD_SETUP_MAX_NS; -EFAULT if the benchmark crashed, exited or
 * ran away; -ENOMEM if the arena cannot be had; with the reason and the fix
 * in why.  *setup_ns gets setup()'s time, 0 if unknown.
 */
int cbench_kmod_rehearse(const struct cbench_experiment *e, const struct cbench_kmod_shape *shape,
			 uint64_t *setup_ns, char *why, size_t why_bytes);

/* cbench_kmod_rehearse() of setup() and one call, without the reason. */
int cbench_kmod_try_in_user_mode(const struct cbench_experiment *e, uint64_t *setup_ns);

#endif /* _CBENCH_REHEARSE_H */
