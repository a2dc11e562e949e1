// SPDX-License-Identifier: GPL-2.0
/*
 * JSON report: the same content as the Go format, plus each trial's median,
 * spread and discard counts.  An unavailable number is absent, never 0;
 * non-finite numbers become null.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reference.h"
#include "report.h"

static void put_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

static void put_key(FILE *f, const char *key)
{
	put_string(f, key);
	fputc(':', f);
}

/*
 * A double in the fewest digits that read back as the same double (at most
 * 17), so nothing is lost: "%.9g" printed a TSC of 2994373123 Hz as
 * 2.99437312e+09.  A whole number prints as one, without an exponent.
 */
static void put_number(FILE *f, double v)
{
	char buf[32];

	if (!isfinite(v)) {
		fputs("null", f);
		return;
	}
	if (v == floor(v) && fabs(v) < 0x1p53) {
		fprintf(f, "%.0f", v);
		return;
	}
	for (int digits = 15; digits <= 17; digits++) {
		snprintf(buf, sizeof(buf), "%.*g", digits, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	fputs(buf, f);
}

static void field_string(FILE *f, const char *key, const char *value, int *first)
{
	fputs(*first ? "" : ",", f);
	*first = 0;
	put_key(f, key);
	put_string(f, value);
}

static void field_number(FILE *f, const char *key, double value, int *first)
{
	fputs(*first ? "" : ",", f);
	*first = 0;
	put_key(f, key);
	put_number(f, value);
}

/* Counts and ids: exact integers, never through a double. */
static void field_uint(FILE *f, const char *key, uint64_t value, int *first)
{
	fputs(*first ? "" : ",", f);
	*first = 0;
	put_key(f, key);
	fprintf(f, "%" PRIu64, value);
}

static void field_int(FILE *f, const char *key, int64_t value, int *first)
{
	fputs(*first ? "" : ",", f);
	*first = 0;
	put_key(f, key);
	fprintf(f, "%" PRId64, value);
}

static void put_trial(FILE *f, const struct cbench_trial *t)
{
	int first = 1;

	fputc('{', f);
	field_string(f, "status", t->error ? "failed" : "ok", &first);
	if (t->error) {
		field_string(f, "reason", t->reason, &first);
		fputc('}', f);
		return;
	}
	field_uint(f, "n", t->n, &first);
	field_number(f, "ns_per_op", t->ns_per_op, &first);
	field_number(f, "min_ns_per_op", t->min_ns_per_op, &first);
	field_number(f, "median_ns_per_op", t->median_ns_per_op, &first);
	field_number(f, "max_ns_per_op", t->max_ns_per_op, &first);
	field_number(f, "cv", t->cv, &first);
	field_uint(f, "measurements", t->nsamples, &first);
	field_uint(f, "discarded", t->discarded, &first);
	if (!isnan(t->mb_per_s))
		field_number(f, "mb_per_s", t->mb_per_s, &first);
	if (t->have & CBENCH_HAVE_INSTRUCTIONS)
		field_number(f, "instructions_per_op", t->instructions_per_op, &first);
	if (t->have & CBENCH_HAVE_CYCLES)
		field_number(f, "cycles_per_op", t->cycles_per_op, &first);
	if (t->have & CBENCH_HAVE_REF_CYCLES)
		field_number(f, "ref_cycles_per_op", t->ref_cycles_per_op, &first);
	if (!isnan(t->est_cycles_per_op))
		field_number(f, "est_cycles_per_op", t->est_cycles_per_op, &first);
	if (!isnan(t->step_share))
		field_number(f, "step_share", t->step_share, &first);
	if (!isnan(t->core_ghz))
		field_number(f, "core_ghz", t->core_ghz, &first);
	if (!isnan(t->clock_moved))
		field_number(f, "clock_moved", t->clock_moved, &first);
	fputc('}', f);
}

int cbench_report_json(const struct cbench_report *r, FILE *f)
{
	const struct cbench_machine *m = &r->machine;
	const struct cbench_timer *t = &r->timer;
	int first = 1;
	char model[96];

	snprintf(model, sizeof(model), "%s family %u model %u stepping %u", m->cpu_vendor,
		 m->cpu_family, m->cpu_model, m->cpu_stepping);
	fputs("{\"config\":{", f);
	field_string(f, "cpu", m->cpu_name[0] ? m->cpu_name : m->cpu_vendor, &first);
	field_string(f, "cpu_model", model, &first);
	field_int(f, "cpu_count", m->cpus_online, &first);
	field_string(f, "machine", m->hostname, &first);
	fputs(",\"virtual_machine\":", f);
	fputs(m->hypervisor ? "true" : "false", f);
	field_string(f, "kernel", m->kernel_release, &first);
	field_string(f, "cbench_version", r->version, &first);
	field_string(f, "backend", r->backend, &first);
	field_int(f, "worker_cpu", r->env.cpu, &first);
	field_string(f, "worker_sched", r->env.fifo_error ? "SCHED_OTHER" : "SCHED_FIFO", &first);
	fputs(",\"worker_mlock\":", f);
	fputs(r->env.mlock_error ? "false" : "true", f);
	field_string(f, "timer", t->name, &first);
	field_number(f, "timer_hz", t->tsc_hz, &first);
	field_number(f, "timer_overhead_ticks", t->overhead_ticks, &first);
	field_number(f, "timer_step_ticks", t->step_ticks, &first);
	field_number(f, "timer_precision_ns", t->precision_ns, &first);
	field_number(f, "timer_accuracy_ns", t->accuracy_ns, &first);
	if (t->est_cycles_per_tick > 0)
		field_number(f, "est_cycles_per_tick", t->est_cycles_per_tick, &first);
	if (t->ref_reps)
		field_uint(f, "reference_adds", t->ref_reps * CBENCH_REF_ADDS_PER_REP, &first);
	if (!isnan(r->core_ghz_min)) {
		field_number(f, "core_ghz_min", r->core_ghz_min, &first);
		field_number(f, "core_ghz_max", r->core_ghz_max, &first);
	}
	field_uint(f, "clock_moved_trials", r->clock_moved_trials, &first);
	fputs(",\"counters\":[", f);
	{
		static const char *const names[] = { "instructions", "cycles", "ref-cycles" };
		int one = 1;

		for (int i = 0; i < 3; i++) {
			if (!(t->counters & (1u << i)))
				continue;
			fputs(one ? "" : ",", f);
			one = 0;
			put_string(f, names[i]);
		}
	}
	fputc(']', f);
	field_string(f, "disturbances", r->env.disturb_source, &first);
	if (r->env.irqoff_budget_ns)
		field_uint(f, "irqoff_budget_ns", r->env.irqoff_budget_ns, &first);
	field_string(f, "so", r->so_path, &first);
	field_string(f, "so_build_id", r->build_id, &first);
	fputs("},\"benchmarks\":[", f);
	for (size_t i = 0; i < r->nresults; i++) {
		const struct cbench_result *res = &r->results[i];

		first = 1;
		fputs(i ? ",{" : "{", f);
		field_string(f, "name", res->exp->report_name, &first);
		field_string(f, "id", res->exp->id, &first);
		field_string(f, "tuning", res->tuning, &first);
		field_uint(f, "n", res->n, &first);
		field_number(f, "ns_per_op", res->ns_per_op, &first);
		field_number(f, "median_of_trials_ns_per_op", res->median_ns_per_op, &first);
		field_number(f, "cv_of_trials", res->cv, &first);
		if (!isnan(res->est_cycles_per_op))
			field_number(f, "est_cycles_per_op", res->est_cycles_per_op, &first);
		if (!isnan(res->core_ghz_min)) {
			field_number(f, "core_ghz_min", res->core_ghz_min, &first);
			field_number(f, "core_ghz_max", res->core_ghz_max, &first);
		}
		fputs(res->unstable ? ",\"unstable\":true" : ",\"unstable\":false", f);
		if (res->unstable)
			field_string(f, "unstable_reason", res->unstable_reason, &first);
		field_uint(f, "failed_trials", res->failed, &first);
		fputs(",\"trials\":[", f);
		for (size_t j = 0; j < res->ntrials; j++) {
			if (j)
				fputc(',', f);
			put_trial(f, &res->trials[j]);
		}
		fputs("]}", f);
	}
	fputs("]}\n", f);
	return ferror(f) ? -EIO : 0;
}
