// SPDX-License-Identifier: GPL-2.0
/* A summary of loop timing points as a JSON member: a run's benchmarks and
 * trials, an audit's sides (report.h). */
#include <math.h>

#include "report/json_writer.h"
#include "report/report.h"

void cbench_report_json_tp(struct cbench_jsonw *j, const char *key, const struct cbench_tp_summary *s,
			   double tsc_hz)
{
	static const char *const names[CBENCH_TP_QUANTILES] = { "p1", "p25", "p50", "p75", "p99" };

	cbench_jsonw_object_start(j, key);
	cbench_jsonw_bool(j, "usable", s->every != 0);
	if (s->every) {
		cbench_jsonw_uint(j, "every", s->every);
		cbench_jsonw_uint(j, "calls", s->calls);
		cbench_jsonw_uint(j, "timings", s->merged);
		cbench_jsonw_uint(j, "iterations", s->iterations);
		cbench_jsonw_uint(j, "skipped", s->skipped);
		cbench_jsonw_uint(j, "dropped", s->dropped);
		cbench_jsonw_measured(j, "min_timing_ticks", s->min_timing_ticks);
		cbench_jsonw_measured(j, "min_timing_ns", cbench_tp_min_timing_ns(s, tsc_hz));
		cbench_jsonw_measured(j, "perturb_score", s->perturb);
	}
	/* An audit's sides have no distribution of their own: their rounds do. */
	if (s->every && !isnan(s->q_ns[2])) {
		cbench_jsonw_object_start(j, "ns_per_iteration");
		for (int q = 0; q < CBENCH_TP_QUANTILES; q++)
			cbench_jsonw_measured(j, names[q], s->q_ns[q]);
		cbench_jsonw_measured(j, "mean", s->mean_ns);
		cbench_jsonw_measured(j, "stddev", s->stddev_ns);
		cbench_jsonw_object_end(j);
	}
	cbench_jsonw_object_end(j);
}
