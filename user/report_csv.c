// SPDX-License-Identifier: GPL-2.0
/* Raw samples as CSV: one row per measurement, disturbed ones included. */
#include <errno.h>
#include <inttypes.h>

#include "report.h"

static void put_counter(FILE *f, const struct cbench_sample *s, uint32_t bit, uint64_t v)
{
	if (s->have & bit)
		fprintf(f, ",%" PRIu64, v);
	else
		fputs(",", f);	/* empty: not available, never 0 */
}

int cbench_report_csv(const struct cbench_report *r, FILE *f)
{
	fputs("benchmark,trial,measurement,reps,ticks,ns_per_op,disturbed,instructions,cycles,ref_cycles\n", f);
	for (size_t i = 0; i < r->nresults; i++) {
		const struct cbench_result *res = &r->results[i];

		for (size_t j = 0; j < res->ntrials; j++) {
			const struct cbench_trial *t = &res->trials[j];

			for (size_t k = 0; k < t->nsamples; k++) {
				const struct cbench_sample *s = &t->samples[k];

				fprintf(f, "%s,%zu,%zu,%" PRIu64 ",%" PRIu64 ",%.6f,%s",
					res->exp->report_name, j + 1, k + 1, s->reps, s->ticks,
					cbench_sample_ns_per_op(r, res->exp, s), cbench_disturb_name(s->disturbed));
				put_counter(f, s, CBENCH_HAVE_INSTRUCTIONS, s->instructions);
				put_counter(f, s, CBENCH_HAVE_CYCLES, s->cycles);
				put_counter(f, s, CBENCH_HAVE_REF_CYCLES, s->ref_cycles);
				fputc('\n', f);
			}
		}
	}
	return ferror(f) ? -EIO : 0;
}
