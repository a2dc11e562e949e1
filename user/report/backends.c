// SPDX-License-Identifier: GPL-2.0
/* Two backends' runs side by side; see backends.h. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/backends.h"
#include "report/report.h"

/* res's row into q, its measured trials' discards by cause added to by. */
static void quietness_of(const struct cbench_result *res, struct cbench_quietness *q,
			 double by[CBENCH_DISTURB_KINDS])
{
	double discarded = 0, total = 0;

	snprintf(q->id, sizeof(q->id), "%s", res->exp->id);
	for (size_t i = 0; i < res->ntrials; i++) {
		if (res->trials[i].error)
			continue;
		discarded += (double)res->trials[i].discarded;
		total += (double)res->trials[i].nsamples;
		for (unsigned int k = 0; k < CBENCH_DISTURB_KINDS; k++)
			by[k] += (double)res->trials[i].discarded_by[k];
	}
	q->ns_per_op = res->ns_per_op;
	q->discarded = total > 0 ? discarded / total : NAN;
	q->cv = res->cv;
	/* The headline is the median of trials; the least trial's gap below it. */
	q->gap = res->ns_per_op / (isfinite(res->least_ns_per_op) ? res->least_ns_per_op : res->ns_per_op) - 1;
}

int cbench_backend_run_of(const struct cbench_report *r, struct cbench_backend_run *b)
{
	memset(b, 0, sizeof(*b));
	b->rows = calloc(r->nresults ? r->nresults : 1, sizeof(*b->rows));
	if (!b->rows)
		return -ENOMEM;
	snprintf(b->quiet, sizeof(b->quiet), "%s", r->env.quiet);
	snprintf(b->label, sizeof(b->label), "%s%s%s%s", r->backend, *b->quiet ? " (" : "", b->quiet,
		 *b->quiet ? ")" : "");
	b->timer = r->timer;
	b->core_ghz_min = r->core_ghz_min;
	b->core_ghz_max = r->core_ghz_max;
	for (size_t i = 0; i < r->nresults; i++)
		quietness_of(&r->results[i], &b->rows[b->n++], b->discarded_by);
	return 0;
}

void cbench_backend_run_free(struct cbench_backend_run *b)
{
	free(b->rows);
	b->rows = NULL;
	b->n = 0;
}

const struct cbench_quietness *cbench_backend_row(const struct cbench_backend_run *b, const char *id)
{
	for (size_t i = 0; i < b->n; i++) {
		if (!strcmp(b->rows[i].id, id))
			return &b->rows[i];
	}
	return NULL;
}

static void print_disturbances(FILE *f, const struct cbench_backend_run *b)
{
	bool any = false;

	fprintf(f, "  %-11s", b->label);
	for (unsigned int k = 0; k < CBENCH_DISTURB_KINDS; k++) {
		if (b->discarded_by[k] > 0)
			fprintf(f, "%s %s %.0f", any ? "," : "", cbench_disturb_names[k], b->discarded_by[k]);
		any |= b->discarded_by[k] > 0;
	}
	fprintf(f, "%s\n", any ? "" : " none");
}

void cbench_backends_print(FILE *f, const struct cbench_backend_run *a, const struct cbench_backend_run *b,
			   const char *const *ids, const char *const *labels, size_t n)
{
	static const struct cbench_quietness none = { .ns_per_op = NAN, .discarded = NAN, .cv = NAN,
						      .gap = NAN };

	fprintf(f, "\nwhat %s removes against %s: ns/op, measurements discarded as disturbed, the\n"
		"spread of trials (cv), and the least trial's gap to their median\n", b->label, a->label);
	fprintf(f, "%-24s %10s %10s  %9s %9s  %9s %9s  %9s %9s\n", "benchmark", "ns/op user", "ns/op kmod",
		"disc user", "disc kmod", "cv user", "cv kmod", "gap user", "gap kmod");
	if (!ids)
		n = a->n;
	for (size_t i = 0; i < n; i++) {
		const char *id = ids ? ids[i] : a->rows[i].id;
		const struct cbench_quietness *u = cbench_backend_row(a, id), *k = cbench_backend_row(b, id);

		u = u ? u : &none;
		k = k ? k : &none;
		fprintf(f, "%-24s %10.4g %10.4g  %8.2f%% %8.2f%%  %8.3f%% %8.3f%%  %8.3f%% %8.3f%%\n",
			labels ? labels[i] : id, u->ns_per_op, k->ns_per_op, 100 * u->discarded,
			100 * k->discarded, 100 * u->cv, 100 * k->cv, 100 * u->gap, 100 * k->gap);
	}
	fprintf(f, "disturbances seen (measurements discarded, by cause; user mode sees context\n"
		"switches, migrations and page faults, ring 0 NMIs, SMIs and, in LVT mode,\n"
		"interrupts):\n");
	print_disturbances(f, a);
	print_disturbances(f, b);
}
