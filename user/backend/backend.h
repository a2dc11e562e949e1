/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Measurement backends.
 *
 * A backend turns "run this benchmark for n reps" into one sample.  It
 * measures only: tuning, trials, estimates and reports are the pipeline's
 * (tune.c, worker.c, phase.c, report_*.c), shared by every backend.  Every
 * call happens inside one worker process, pinned to one CPU, in this order:
 *
 *	open(b, cpu)			claim timers/counters for this thread
 *	calibrate(b, &timer)		optional: overhead, step, frequency
 *	prepare(b, experiment)		arena + setup(), untimed
 *	measure(b, reps, &sample)	as many times as the pipeline wants,
 *	measure_ref(b, reps, &sample)	interleaved with the reference's
 *	measure_wide(b, reps, &sample)	optional: and the wide reference's
 *	release(b)			optional: then prepare() again
 *	close(b)
 *
 * Each returns 0 or -errno.  The user backend runs the benchmark in the
 * worker; the kmod backend asks cbench.ko for its samples.
 */
#ifndef _CBENCH_BACKEND_H
#define _CBENCH_BACKEND_H

#include <stdbool.h>

#include "backend/kmod.h"
#include "backend/rehearse.h"
#include "backend/types.h"
#include "backend/user.h"

enum cbench_backend_kind {
	CBENCH_BACKEND_AUTO,
	CBENCH_BACKEND_USER,
	CBENCH_BACKEND_KMOD,
};

/* "user", "auto", "kmod" -> kind; -EINVAL for anything else. */
int cbench_backend_parse(const char *s, enum cbench_backend_kind *kind);

/*
 * The ops for a kind.  auto is kmod where cbench.ko is loaded and we are
 * root, else user; kmod is -ENODEV where it is not available.
 */
int cbench_backend_select(enum cbench_backend_kind kind, const struct cbench_backend_ops **ops);

/* cbench_backend_select()'s rule, given whether the kmod backend is usable. */
int cbench_backend_choose(enum cbench_backend_kind kind, bool kmod_available,
			  const struct cbench_backend_ops **ops);

#endif /* _CBENCH_BACKEND_H */
