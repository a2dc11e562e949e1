// SPDX-License-Identifier: GPL-2.0
/* Summaries shared by every report format. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "report.h"
#include "stats.h"

double cbench_sample_ns_per_op(const struct cbench_report *r, const struct cbench_experiment *e,
			       const struct cbench_sample *s)
{
	uint64_t ops = e->desc->ops_per_rep ? e->desc->ops_per_rep : 1;

	return (double)s->ticks * 1e9 / r->timer.tsc_hz / ((double)s->reps * (double)ops);
}

const char *cbench_disturb_name(uint32_t d)
{
	if (d & CBENCH_DISTURB_MIGRATION)
		return "migration";
	if (d & CBENCH_DISTURB_CSWITCH)
		return "context-switch";
	if (d & CBENCH_DISTURB_FAULT)
		return "page-fault";
	if (d & CBENCH_DISTURB_COUNTER)
		return "counter-descheduled";
	return "";
}

static void summarize_trial(const struct cbench_report *r, const struct cbench_experiment *e,
			    struct cbench_trial *t)
{
	const struct cbench_desc *d = e->desc;
	double *v = malloc((t->nsamples ? t->nsamples : 1) * sizeof(*v));
	const struct cbench_sample *fastest = NULL;
	uint64_t ops = d->ops_per_rep ? d->ops_per_rep : 1;

	t->valid = t->discarded = 0;
	t->min_ns_per_op = t->median_ns_per_op = t->max_ns_per_op = t->cv = NAN;
	t->mb_per_s = t->est_cycles_per_op = NAN;
	t->instructions_per_op = t->cycles_per_op = t->ref_cycles_per_op = NAN;
	t->have = 0;
	if (!v)
		return;
	for (size_t i = 0; i < t->nsamples; i++) {
		const struct cbench_sample *s = &t->samples[i];

		if (s->disturbed) {
			t->discarded++;
			continue;
		}
		v[t->valid++] = cbench_sample_ns_per_op(r, e, s);
		if (!fastest || s->ticks * fastest->reps < fastest->ticks * s->reps)
			fastest = s;
	}
	if (t->valid) {
		double bytes;

		t->min_ns_per_op = cbench_stats_min(v, t->valid);
		t->median_ns_per_op = cbench_stats_median(v, t->valid);
		t->max_ns_per_op = cbench_stats_max(v, t->valid);
		t->cv = cbench_stats_cv(v, t->valid);
		bytes = (double)d->bytes_per_rep / (double)ops;
		if (d->flags & CBENCH_F_BYTES_PER_PARAM)
			bytes *= (double)e->param;
		if (bytes > 0 && t->min_ns_per_op > 0)
			t->mb_per_s = bytes * 1e3 / t->min_ns_per_op;
		if (r->timer.est_cycles_per_tick > 0)
			t->est_cycles_per_op = t->min_ns_per_op * r->timer.tsc_hz * 1e-9 *
					       r->timer.est_cycles_per_tick;
	}
	if (fastest && fastest->have) {
		double per = (double)fastest->reps * (double)ops;

		t->have = fastest->have;
		if (t->have & CBENCH_HAVE_INSTRUCTIONS)
			t->instructions_per_op = (double)fastest->instructions / per;
		if (t->have & CBENCH_HAVE_CYCLES)
			t->cycles_per_op = (double)fastest->cycles / per;
		if (t->have & CBENCH_HAVE_REF_CYCLES)
			t->ref_cycles_per_op = (double)fastest->ref_cycles / per;
	}
	free(v);
}

void cbench_report_summarize(struct cbench_report *r)
{
	r->failed_trials = 0;
	for (size_t i = 0; i < r->nresults; i++) {
		struct cbench_result *res = &r->results[i];
		double *mins = malloc((res->ntrials ? res->ntrials : 1) * sizeof(*mins));
		size_t k = 0;

		res->failed = 0;
		for (size_t j = 0; j < res->ntrials; j++) {
			struct cbench_trial *t = &res->trials[j];

			summarize_trial(r, res->exp, t);
			if (!t->error && !t->valid) {
				t->error = -EAGAIN;
				snprintf(t->reason, sizeof(t->reason), "no valid measurement");
			}
			if (t->error)
				res->failed++;
			else if (mins)
				mins[k++] = t->min_ns_per_op;
		}
		res->min_ns_per_op = mins ? cbench_stats_min(mins, k) : NAN;
		res->median_ns_per_op = mins ? cbench_stats_median(mins, k) : NAN;
		res->cv = mins ? cbench_stats_cv(mins, k) : NAN;
		free(mins);
		r->failed_trials += res->failed;
	}
}
