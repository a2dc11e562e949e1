// SPDX-License-Identifier: GPL-2.0
/*
 * Bencher Metric Format: one object per benchmark, keyed by its name, with
 * a measure per figure that has one (figures.c): "latency" (ns per op,
 * Bencher's built-in measure), "est-cycles" and, where measured,
 * "instructions", "cycles" and "ref-cycles" per op.  Each has the figure cbench quotes, the median of
 * the kept trials, as "value"; latency has the headline's interval as
 * "lower_value" and "upper_value", the others the least and the greatest
 * kept trial's.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/figures.h"
#include "report/json_writer.h"
#include "report/report.h"

/* A measure: the quoted value and the trials' range; absent if no trial has it. */
static void put_measure(struct cbench_jsonw *j, const struct cbench_result *res,
			const struct cbench_figure *f)
{
	double lo = INFINITY, hi = -INFINITY, sum = 0, quoted = f->result(res);
	size_t n = 0;

	for (size_t i = 0; i < res->ntrials; i++) {
		double v = res->trials[i].set_aside ? NAN : cbench_figure_value(f, &res->trials[i]);

		if (!isfinite(v))
			continue;
		lo = fmin(lo, v);
		hi = fmax(hi, v);
		sum += v;
		n++;
	}
	if (!n)
		return;
	if (f->headline && isfinite(res->ns_lo)) {
		lo = res->ns_lo;
		hi = res->ns_hi;
	}
	cbench_jsonw_object_start(j, f->bmf);
	cbench_jsonw_double(j, "value", isfinite(quoted) ? quoted : sum / (double)n);
	cbench_jsonw_double(j, "lower_value", lo);
	cbench_jsonw_double(j, "upper_value", hi);
	cbench_jsonw_object_end(j);
}

int cbench_report_bmf(const struct cbench_report *r, FILE *f)
{
	struct cbench_jsonw j;

	cbench_jsonw_init(&j, f, true);
	cbench_jsonw_object_start(&j, NULL);
	for (size_t i = 0; i < r->nresults; i++) {
		const struct cbench_result *res = &r->results[i];
		const char *name = res->exp->report_name;

		if (res->failed == res->ntrials)
			continue;
		cbench_jsonw_object_start(&j, cbench_bench_title(name));
		for (const struct cbench_figure *fig = NULL; (fig = cbench_figure_next(fig, CBENCH_SHOW_BMF));)
			put_measure(&j, res, fig);
		cbench_jsonw_object_end(&j);
	}
	cbench_jsonw_object_end(&j);
	return cbench_jsonw_finish(&j);
}
