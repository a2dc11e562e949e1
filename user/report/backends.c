// SPDX-License-Identifier: GPL-2.0
/* Two backends' reports side by side; see backends.h. */
#include <math.h>
#include <string.h>

#include "report/backends.h"

const struct cbench_json *cbench_report_result(const struct cbench_json *report, const char *id)
{
	const struct cbench_json *list = cbench_json_get(report, "benchmarks");

	for (size_t i = 0; list && i < list->n; i++) {
		if (!strcmp(cbench_json_string(&list->items[i], "id", ""), id))
			return &list->items[i];
	}
	return NULL;
}

void cbench_quietness_of(const struct cbench_json *report, const char *id, struct cbench_quietness *q)
{
	const struct cbench_json *res = cbench_report_result(report, id);
	const struct cbench_json *t = cbench_json_get(res, "trials");
	double discarded = 0, total = 0;

	for (size_t i = 0; t && i < t->n; i++) {
		discarded += cbench_json_number(&t->items[i], "discarded", 0);
		total += cbench_json_number(&t->items[i], "measurements", 0);
	}
	q->ns_per_op = cbench_json_number(res, "ns_per_op", NAN);
	q->discarded = total > 0 ? discarded / total : NAN;
	q->cv = cbench_json_number(res, "cv_of_trials", NAN);
	/* The headline is the median of trials; the least trial's gap below it. */
	q->gap = q->ns_per_op / cbench_json_number(res, "least_trial_ns_per_op",
						   cbench_json_number(res, "ns_per_op", NAN)) - 1;
}

void cbench_discarded_by(const struct cbench_json *report, double counts[CBENCH_DISTURB_KINDS])
{
	const struct cbench_json *res = cbench_json_get(report, "benchmarks");

	for (unsigned int k = 0; k < CBENCH_DISTURB_KINDS; k++)
		counts[k] = 0;
	for (size_t i = 0; res && i < res->n; i++) {
		const struct cbench_json *t = cbench_json_get(&res->items[i], "trials");

		for (size_t j = 0; t && j < t->n; j++) {
			const struct cbench_json *by = cbench_json_get(&t->items[j], "discarded_by");

			for (unsigned int k = 0; k < CBENCH_DISTURB_KINDS; k++)
				counts[k] += cbench_json_number(by, cbench_disturb_names[k], 0);
		}
	}
}

/* "user" or "kmod (lvt)": a report's backend and, in ring 0, its quiet mode. */
static void backend_label(const struct cbench_json *report, char *buf, size_t len)
{
	const struct cbench_json *cfg = cbench_json_get(report, "config");
	const char *quiet = cbench_json_string(cfg, "quiet_mode", NULL);

	snprintf(buf, len, "%s%s%s%s", cbench_json_string(cfg, "backend", "?"), quiet ? " (" : "",
		 quiet ? quiet : "", quiet ? ")" : "");
}

static void print_disturbances(FILE *f, const struct cbench_json *report)
{
	double counts[CBENCH_DISTURB_KINDS];
	char label[32];
	bool any = false;

	cbench_discarded_by(report, counts);
	backend_label(report, label, sizeof(label));
	fprintf(f, "  %-11s", label);
	for (unsigned int k = 0; k < CBENCH_DISTURB_KINDS; k++) {
		if (counts[k] > 0)
			fprintf(f, "%s %s %.0f", any ? "," : "", cbench_disturb_names[k], counts[k]);
		any |= counts[k] > 0;
	}
	fprintf(f, "%s\n", any ? "" : " none");
}

void cbench_backends_print(FILE *f, const struct cbench_json *a, const struct cbench_json *b,
			   const char *const *ids, const char *const *labels, size_t n)
{
	const struct cbench_json *list = cbench_json_get(a, "benchmarks");
	char la[32], lb[32];

	backend_label(a, la, sizeof(la));
	backend_label(b, lb, sizeof(lb));
	fprintf(f, "\nwhat %s removes against %s: ns/op, measurements discarded as disturbed, the\n"
		"spread of trials (cv), and the least trial's gap to their median\n", lb, la);
	fprintf(f, "%-24s %10s %10s  %9s %9s  %9s %9s  %9s %9s\n", "benchmark", "ns/op user", "ns/op kmod",
		"disc user", "disc kmod", "cv user", "cv kmod", "gap user", "gap kmod");
	if (!ids)
		n = list ? list->n : 0;
	for (size_t i = 0; i < n; i++) {
		const char *id = ids ? ids[i] : cbench_json_string(&list->items[i], "id", "?");
		struct cbench_quietness u, k;

		cbench_quietness_of(a, id, &u);
		cbench_quietness_of(b, id, &k);
		fprintf(f, "%-24s %10.4g %10.4g  %8.2f%% %8.2f%%  %8.3f%% %8.3f%%  %8.3f%% %8.3f%%\n",
			labels ? labels[i] : id, u.ns_per_op, k.ns_per_op, 100 * u.discarded,
			100 * k.discarded, 100 * u.cv, 100 * k.cv, 100 * u.gap, 100 * k.gap);
	}
	fprintf(f, "disturbances seen (measurements discarded, by cause; user mode sees context\n"
		"switches, migrations and page faults, ring 0 NMIs, SMIs and, in LVT mode,\n"
		"interrupts):\n");
	print_disturbances(f, a);
	print_disturbances(f, b);
}
