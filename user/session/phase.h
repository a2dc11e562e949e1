/* SPDX-License-Identifier: GPL-2.0 */
/* The runner side of a phase: fork a worker, collect, survive. */
#ifndef _CBENCH_PHASE_H
#define _CBENCH_PHASE_H

#include <stddef.h>

#include "worker/worker.h"

struct cbench_phase {
	/* 0 when the worker finished its job; else -errno and `reason`. */
	int error;
	char reason[600];
	struct cbench_backend_env env;
	struct cbench_timer timer;	/* CALIBRATE */
	uint64_t n;			/* TUNE */
	double t_ns;			/* TUNE */
	struct cbench_sample *samples;	/* TRIAL, malloc'd */
	size_t nsamples;
	struct cbench_sample *ref_samples; /* TRIAL: the reference chain's, malloc'd */
	size_t nref_samples;
	struct cbench_trial_figures figures;	/* TRIAL: beside the samples */
	uint32_t needed;		/* TRIAL: valid measurements the worker wants */
	struct cbench_profile_info profile;	/* PROFILE */
	struct cbench_profile_group *groups;	/* PROFILE, malloc'd */
	size_t ngroups;
	struct cbench_profile_stack *stacks;	/* PROFILE with stacks, malloc'd */
	size_t nstacks;
	struct cbench_audit_timing *timings;	/* AUDIT, malloc'd, both sides */
	size_t ntimings;
	struct cbench_audit_end audit;		/* AUDIT */
	/* TRIAL (side 0) and AUDIT (per side): what timing points gave. */
	bool have_tp[2];
	struct cbench_tp_summary tp[2];
	char audit_note[200];			/* AUDIT: why timing points went unused */
	struct cbench_tp_round *tp_rounds;	/* AUDIT with timing points, malloc'd */
	size_t ntp_rounds;
	/* LAYOUT: each layout's run offset, by index (malloc'd, nlayouts). */
	uint64_t *run_offsets;
	size_t nlayouts;
};

/*
 * Runs job in a fresh worker process with a limit of time_limit_s seconds of
 * wall time.  Returns 0 if the phase result is in *p (which may still carry a
 * failure: crash, timeout, early exit), -errno if no worker could start.
 */
int cbench_phase_run(const struct cbench_worker_job *job, double time_limit_s, struct cbench_phase *p);
void cbench_phase_free(struct cbench_phase *p);

/*
 * Asks the current worker's keeper to end it and returns at once
 * (async-signal-safe): cbench_phase_run then returns as for a worker that
 * died, and the caller decides what to keep.
 */
void cbench_phase_stop(void);

/* Kills and reaps the running worker, if any, waiting at most ~100 ms.
 * Async-signal-safe: for the runner's SIGINT/SIGTERM handler. */
void cbench_phase_abort(void);

#endif /* _CBENCH_PHASE_H */
