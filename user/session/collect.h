/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The runner's side of each worker mode: a worker runs the job (phase.h),
 * and what it sends is kept in the mode's own result.  Each returns 0 when
 * the worker finished its job, else -errno with why: in the result where
 * it has a place for it (a trial, an audit pair, a profile), else in end.
 */
#ifndef _CBENCH_COLLECT_H
#define _CBENCH_COLLECT_H

#include "report/report_audit.h"
#include "report/report_layout.h"
#include "report/report_profile.h"
#include "report/report.h"
#include "session/phase.h"

/* CALIBRATE: the timer, on n CPUs at once (n at most CBENCH_JOBS_MAX):
 * jobs[i] into timers[i], ends[i]; 0, or the first error. */
int cbench_collect_calibrations(const struct cbench_worker_job *jobs, size_t n,
				double time_limit_s, struct cbench_timer *timers,
				struct cbench_phase_end *ends);

/* TUNE: Alg. 1's reps and time per rep. */
int cbench_collect_tuned(const struct cbench_worker_job *job, double time_limit_s,
			 struct cbench_tuned *tuned, struct cbench_phase_end *end);

/*
 * TRIAL, in steps (session.h's cbench_session_trials() runs them, on
 * several CPUs at once): begin starts the worker, or gives the trial to the
 * standing worker w of its CPU (phase.h, cbench_phase_begin_standing();
 * -errno, the trial failed, if none could start); the phase, t->ph, is
 * then stepped (phase.h) until it is over; finish ends it (or leaves w's
 * worker standing) and fills tr: the measurements, the reference chain's,
 * the figures beside them, the timing points, the arena and the code's
 * layout (its samples kept even when the trial failed); tr->error and
 * tr->reason on failure.
 */
struct cbench_trial_run {
	struct cbench_collector c;	/* first: the collector is the run */
	struct cbench_trial *tr;
	size_t cap, ref_cap;		/* room in tr->samples, tr->ref_samples */
	uint32_t needed;		/* valid measurements the worker wants */
	uint32_t min_valid;		/* the job's, before it says */
	struct cbench_phase ph;
	struct cbench_phase_end end;
};

int cbench_collect_trial_begin(struct cbench_trial_run *t, const struct cbench_worker_job *job,
			       double time_limit_s, struct cbench_trial *tr, struct cbench_standing *w);
int cbench_collect_trial_finish(struct cbench_trial_run *t);

/*
 * t's trial, over and failed, begun again in a worker of its own (w's
 * worker ended), its measurements and failure forgotten: for a trial that
 * failed in a standing worker after other benchmarks' trials, where what
 * they left may be why.  0, or -errno with the trial failed.
 */
int cbench_collect_trial_again(struct cbench_trial_run *t, const struct cbench_worker_job *job,
			       double time_limit_s, struct cbench_standing *w);

/* AUDIT: the timings, the verdict, each side's timing points, into p;
 * p->error and p->reason on failure. */
int cbench_collect_audit(const struct cbench_worker_job *job, double time_limit_s,
			 struct cbench_audit_pair *p);

/* PROFILE: the sampling's account, the groups and stacks, into res;
 * res->error and res->reason on failure. */
int cbench_collect_profile(const struct cbench_worker_job *job, double time_limit_s,
			   struct cbench_profile_result *res);

/*
 * LAYOUT: each layout's figure (the lower quartile of its timings) and its
 * halves' (h1, h2: the noise within it), and where its run function lay,
 * into x->q, h1, h2 and x->run_offsets, x->nlayouts of each (the caller's;
 * NAN where a layout gave too few timings); x->error and x->reason on
 * failure.
 */
int cbench_collect_layout(const struct cbench_worker_job *job, double time_limit_s,
			  struct cbench_layout_result *x, double *h1, double *h2);

#endif /* _CBENCH_COLLECT_H */
