// SPDX-License-Identifier: GPL-2.0
/*
 * Trials on several CPUs at once (session.h): each lane runs one worker at
 * a time; the runner sleeps in poll() on their pipes while they measure,
 * and starts a lane's next unit as soon as its worker is done.  A lane's
 * worker stands for its next trial where the two share (job.h's share).
 * A trial that fails in a standing worker after other benchmarks' trials
 * is measured again in a worker of its own, where only its own failure
 * counts: what one of them left behind, unseen, may be why (worker.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "session/collect.h"
#include "session/session.h"

struct lane_slot {
	bool busy;
	size_t unit;
	struct cbench_worker_job job;
	struct cbench_trial_run run;
	struct cbench_standing standing;
	/* Measured again in a worker of its own (again()): why it failed
	 * first, and after how many trials of whose. */
	bool again;
	char reason[sizeof(((struct cbench_trial *)0)->reason)];
	unsigned int after_trials;
	const char *after;
};

/* The next unit begin() gives a trial for, started on lane; false when
 * none is left (*next past the last). */
static bool start_next(const struct cbench_lane_work *w, size_t n, size_t *next, size_t lane,
		       struct lane_slot *slot)
{
	while (*next < n && !cbench_session_stopped()) {
		size_t unit = (*next)++;
		struct cbench_trial *tr = w->begin(w->arg, unit, lane, &slot->job);

		if (!tr)
			continue;
		slot->unit = unit;
		slot->again = false;
		if (cbench_collect_trial_begin(&slot->run, &slot->job, w->limit_s, tr, &slot->standing)) {
			/* No worker: the trial failed already. */
			w->end(w->arg, unit, lane);
			continue;
		}
		slot->busy = true;
		return true;
	}
	return false;
}

/*
 * Where sl's trial, over, failed in a standing worker after other
 * benchmarks' trials, begins it again in a worker of its own: true if
 * begun.  Not for a trial out of time (a benchmark that hangs would cost
 * its time limit twice), nor twice.
 */
static bool again(const struct cbench_lane_work *w, struct lane_slot *sl)
{
	const struct cbench_trial_run *run = &sl->run;

	if (!run->tr->error || run->tr->error == -ETIMEDOUT || !run->ph.after_trials || sl->again ||
	    cbench_session_stopped())
		return false;
	sl->again = true;
	sl->after_trials = run->ph.after_trials;
	sl->after = run->ph.after;
	memcpy(sl->reason, run->tr->reason, sizeof(sl->reason));
	return !cbench_collect_trial_again(&sl->run, &sl->job, w->limit_s, &sl->standing);
}

/* A trial measured again alone passed: what failed it first was not its
 * own, and is said. */
static void again_passed(const struct lane_slot *sl)
{
	cbench_err("%s: a trial failed in a worker that had measured %u trials of other benchmarks "
		   "before it, the last of %s (%s), and passed when measured again in a worker of its "
		   "own; it is kept.  Either one of those benchmarks leaves something behind that "
		   "the worker does not see (--fresh-workers measures every trial in a worker of its "
		   "own), or this one fails at times by itself\n", sl->job.exp->report_name,
		   sl->after_trials, sl->after ? sl->after : "?", sl->reason);
}

/*
 * Waits for any busy lane's pipe (or its time limit) and steps the lanes;
 * finishes those that are over.  A trial a signal stopped is dropped, not
 * ended: *dropped becomes the least such unit.
 */
static void wait_lanes(const struct cbench_lane_work *w, struct lane_slot *slot, size_t lanes,
		       size_t *dropped)
{
	struct cbench_phase *ph[CBENCH_JOBS_MAX] = { NULL };
	bool over[CBENCH_JOBS_MAX] = { false };
	size_t at[CBENCH_JOBS_MAX], k = 0;

	for (size_t l = 0; l < lanes; l++) {
		if (slot[l].busy) {
			ph[k] = &slot[l].run.ph;
			at[k++] = l;
		}
	}
	cbench_phase_poll(ph, k, over);
	for (size_t i = 0; i < k; i++) {
		struct lane_slot *sl = &slot[at[i]];

		if (!cbench_session_stopped() && !over[i])
			continue;
		cbench_collect_trial_finish(&sl->run);
		if (again(w, sl))
			continue;
		if (sl->again && !sl->run.tr->error && sl->run.ph.done && !cbench_session_stopped())
			again_passed(sl);
		sl->busy = false;
		if (cbench_session_stopped())
			*dropped = sl->unit < *dropped ? sl->unit : *dropped;
		else
			w->end(w->arg, sl->unit, at[i]);
	}
}

size_t cbench_session_trials(struct cbench_session *s, size_t n, size_t lanes,
			     const struct cbench_lane_work *w)
{
	struct lane_slot *slot;
	size_t next = 0, dropped = n, busy;

	if (!lanes || lanes > s->nlanes)
		lanes = s->nlanes;
	slot = calloc(lanes, sizeof(*slot));
	if (!slot)
		return 0;
	do {
		busy = 0;
		for (size_t l = 0; l < lanes; l++) {
			if (!slot[l].busy)
				start_next(w, n, &next, l, &slot[l]);
			busy += slot[l].busy;
		}
		if (busy)
			wait_lanes(w, slot, lanes, &dropped);
	} while ((busy || next < n) && !cbench_session_stopped());
	for (size_t l = 0; l < lanes; l++) {
		/* Only a stop leaves a lane busy here. */
		if (slot[l].busy) {
			cbench_collect_trial_finish(&slot[l].run);
			dropped = slot[l].unit < dropped ? slot[l].unit : dropped;
		}
		cbench_standing_end(&slot[l].standing);
	}
	free(slot);
	/* Units start in order: all before the next to start, or before
	 * one dropped, finished. */
	return next < dropped ? next : dropped;
}
