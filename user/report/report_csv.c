// SPDX-License-Identifier: GPL-2.0
/*
 * Raw samples as CSV: one row per measurement, disturbed ones included, the
 * benchmark's (kind "benchmark") and the reference chain's measured after
 * each of them (kind "reference", ns_per_op per dependent add).  The last
 * two columns split the benchmark's name: its base ("BenchmarkCopy") and
 * its parameter set ("size=4096/align=8", empty without).
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "machine/reference.h"
#include "report/figures.h"
#include "report/report.h"

/* A counter's count in s, by its CBENCH_HAVE_* bit. */
static uint64_t count(const struct cbench_sample *s, uint32_t bit)
{
	switch (bit) {
	case CBENCH_HAVE_INSTRUCTIONS:
		return s->instructions;
	case CBENCH_HAVE_CYCLES:
		return s->cycles;
	default:
		return s->ref_cycles;
	}
}

/* The counters' columns (figures.c): empty where not available, never 0. */
static void put_counters(FILE *f, const struct cbench_sample *s)
{
	for (const struct cbench_figure *fig = NULL; (fig = cbench_figure_next(fig, CBENCH_SHOW_CSV));) {
		if (s->have & fig->counter)
			fprintf(f, ",%" PRIu64, count(s, fig->counter));
		else
			fputs(",", f);
	}
}

static void put_row(FILE *f, const struct cbench_result *res, size_t trial, size_t k,
		    const struct cbench_sample *s, double ns_per_op, const char *kind)
{
	const char *name = res->exp->report_name;
	size_t base = strcspn(name, "/");

	fprintf(f, "%s,%zu,%zu,%" PRIu64 ",%" PRIu64 ",%.6f,%s", name, trial + 1, k + 1,
		s->reps, s->ticks, ns_per_op, cbench_disturb_name(s->disturbed));
	put_counters(f, s);
	fprintf(f, ",%s,%.*s,%s\n", kind, (int)base, name, name[base] ? name + base + 1 : "");
}

int cbench_report_csv(const struct cbench_report *r, FILE *f)
{
	fputs("benchmark,trial,measurement,reps,ticks,ns_per_op,disturbed", f);
	for (const struct cbench_figure *fig = NULL; (fig = cbench_figure_next(fig, CBENCH_SHOW_CSV));)
		fprintf(f, ",%s", fig->csv);
	fputs(",kind,base,params\n", f);
	for (size_t i = 0; i < r->nresults; i++) {
		const struct cbench_result *res = &r->results[i];

		for (size_t j = 0; j < res->ntrials; j++) {
			const struct cbench_trial *t = &res->trials[j];

			for (size_t k = 0; k < t->nsamples; k++)
				put_row(f, res, j, k, &t->samples[k],
					cbench_sample_ns_per_op(r, res->exp, &t->samples[k]), "benchmark");
			for (size_t k = 0; k < t->nref_samples; k++) {
				const struct cbench_sample *s = &t->ref_samples[k];

				put_row(f, res, j, k, s, (double)s->ticks * 1e9 / r->timer.tsc_hz /
					((double)s->reps * CBENCH_REF_ADDS_PER_REP), "reference");
			}
		}
	}
	return ferror(f) ? -EIO : 0;
}
