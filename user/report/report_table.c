// SPDX-License-Identifier: GPL-2.0
/* The summary table for people, on stderr; colour only on a terminal. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/report.h"

#define RED "\033[31m"
#define DIM "\033[2m"
#define BOLD "\033[1m"
#define RESET "\033[0m"

bool cbench_colour(int fd)
{
	const char *no = getenv("NO_COLOR");

	return isatty(fd) && !(no && *no);
}

/* The per-iteration distribution of a result with timing points. */
static void put_tp(const struct cbench_report *r, const struct cbench_result *res, FILE *f, bool colour)
{
	const struct cbench_tp_summary *s = &res->tp;

	if (!s->every) {
		fprintf(f, "  timing points: too few or too close together to time\n");
		return;
	}
	fprintf(f, "  per iteration: p1 %.4g  p25 %.4g  median %.4g  p75 %.4g  p99 %.4g ns"
		"  %s(%llu iterations, stride %llu, MIN_TIMING %.1f ns, perturb %.3g)%s\n",
		s->q_ns[0], s->q_ns[1], s->q_ns[2], s->q_ns[3], s->q_ns[4], colour ? DIM : "",
		(unsigned long long)s->iterations, (unsigned long long)s->every,
		cbench_tp_min_timing_ns(s, r->timer.tsc_hz), s->perturb, colour ? RESET : "");
	if (s->perturb > CBENCH_TP_PERTURB_MAX)
		fprintf(f, "  %sperturb score %.3g is above 1: the timings come close to the timing point's own cost; place the points further apart%s\n",
			colour ? RED : "", s->perturb, colour ? RESET : "");
}

void cbench_report_table(const struct cbench_report *r, FILE *f, bool colour)
{
	size_t width = 9;

	for (size_t i = 0; i < r->nresults; i++) {
		size_t len = strlen(r->results[i].exp->report_name) - 9;

		width = len > width ? len : width;
	}
	fprintf(f, "%s%-*s %12s %12s %8s %9s %8s %s%s\n", colour ? BOLD : "", (int)width, "benchmark",
		"ns/op", "median", "cv", "discarded", "trials", "tuning", colour ? RESET : "");
	for (size_t i = 0; i < r->nresults; i++) {
		const struct cbench_result *res = &r->results[i];
		size_t discarded = 0, total = 0;

		for (size_t j = 0; j < res->ntrials; j++) {
			discarded += res->trials[j].discarded;
			total += res->trials[j].nsamples;
		}
		fprintf(f, "%-*s ", (int)width, res->exp->report_name + 9);
		/* A lucky placement's figure is marked: the line below says
		 * to quote the median. */
		if (isnan(res->ns_per_op))
			fprintf(f, "%12s %12s %8s ", "-", "-", "-");
		else
			fprintf(f, "%*.4f%s %12.4f %7.3f%% ", res->placement_sensitive ? 11 : 12,
				res->ns_per_op, res->placement_sensitive ? "*" : "",
				res->median_ns_per_op, 100 * res->cv);
		if (total)
			fprintf(f, "%8.2f%% ", 100.0 * (double)discarded / (double)total);
		else
			fprintf(f, "%9s ", "-");
		if (res->failed)
			fprintf(f, "%s%3zu/%-3zu%s ", colour ? RED : "", res->ntrials - res->failed,
				res->ntrials, colour ? RESET : "");
		else
			fprintf(f, "%3zu/%-3zu ", res->ntrials, res->ntrials);
		fprintf(f, "%s%s%s\n", colour ? DIM : "", res->tuning, colour ? RESET : "");
		if (res->unstable)
			fprintf(f, "  %s%s: %s%s\n", colour ? RED : "",
				res->placement_sensitive ? "* placement-sensitive" : "unstable",
				res->unstable_reason, colour ? RESET : "");
		if (cbench_desc_per_rep(res->exp->desc) && res->step_share > CBENCH_STEP_SHARE_MAX)
			fprintf(f, "  short calls: one timer step is %.3f%% of a call (timed one at a "
				"time); give each call more work\n", 100 * res->step_share);
		if (res->have_tp)
			put_tp(r, res, f, colour);
		for (size_t j = 0; j < res->ntrials; j++) {
			if (res->trials[j].error)
				fprintf(f, "  %strial %zu failed: %s%s\n", colour ? RED : "", j + 1,
					res->trials[j].reason, colour ? RESET : "");
		}
	}
	if (!isnan(r->core_ghz_min))
		fprintf(f, "%score clock %.3f to %.3f GHz over the run (%.2f%%)%s%s\n", colour ? DIM : "",
			r->core_ghz_min, r->core_ghz_max,
			100 * (r->core_ghz_max - r->core_ghz_min) / r->core_ghz_min,
			r->clock_moved_trials ? "; it moved within some trials" : "", colour ? RESET : "");
}
