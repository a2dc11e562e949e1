// SPDX-License-Identifier: GPL-2.0
/*
 * Trials on several CPUs at once (session.h): each lane runs one worker at
 * a time; the runner sleeps in poll() on their pipes while they measure,
 * and starts a lane's next unit as soon as its worker is done.  A lane's
 * worker stands for its next trial where the two share (job.h's share).
 */
#include <errno.h>
#include <stdlib.h>

#include "session/collect.h"
#include "session/session.h"

struct lane_slot {
	bool busy;
	size_t unit;
	struct cbench_trial_run run;
	struct cbench_standing standing;
};

/* The next unit begin() gives a trial for, started on lane; false when
 * none is left (*next past the last). */
static bool start_next(const struct cbench_lane_work *w, size_t n, size_t *next, size_t lane,
		       struct lane_slot *slot)
{
	while (*next < n && !cbench_session_stopped()) {
		struct cbench_worker_job job;
		size_t unit = (*next)++;
		struct cbench_trial *tr = w->begin(w->arg, unit, lane, &job);

		if (!tr)
			continue;
		slot->unit = unit;
		if (cbench_collect_trial_begin(&slot->run, &job, w->limit_s, tr, &slot->standing)) {
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
