// SPDX-License-Identifier: GPL-2.0
/*
 * LNT report (LLVM's results server; its JSON report format version 2),
 * of the "cbench" test suite that docs/lnt/cbench.yaml declares: one test
 * per benchmark and parameter, each trial's estimate one sample, and the
 * figures cbench quotes for the run, one value each (the *_estimate
 * metrics).  LNT measures a change from the new run's least sample to the
 * nearest sample of the old run, so the old run's spread between trials
 * hides that much of a change of the per-trial metrics; the estimates,
 * one a run, are compared with each other (docs/lnt.md).
 *
 * Units are chosen for LNT's analysis, which ignores changes under 1 % and
 * absolute changes under 0.01 of a metric: picoseconds per op, and cycles
 * (or counts) per thousand ops, so a change of a few percent of a
 * nanosecond, or of one cycle, is 10 or more units.  LNT's rank test wants
 * at least 4 samples a side: run's default keeps five trials or more.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "report/context.h"
#include "report/figures.h"
#include "report/json_writer.h"
#include "report/report_audit.h"
#include "report/report.h"

/* The report's times: ISO 8601 without a zone, as LNT stores them (UTC). */
static void lnt_time(char *buf, size_t size, time_t t)
{
	struct tm tm;

	if (!gmtime_r(&t, &tm) || !strftime(buf, size, "%Y-%m-%dT%H:%M:%S", &tm))
		snprintf(buf, size, "1970-01-01T00:00:00");
}

/* What an LNT report says of where it was measured: shared by run and audit reports. */
struct lnt_origin {
	const struct cbench_machine *machine;
	const struct cbench_cpuenv *cpuenv;
	const char *backend, *version, *timer, *so, *build_id;
	int interrupted;
};

static void put_machine(struct cbench_jsonw *j, const struct lnt_origin *o,
			const struct cbench_lnt_run *l)
{
	const struct cbench_machine *m = o->machine;
	char text[160];

	cbench_jsonw_object_start(j, "machine");
	cbench_jsonw_string(j, "name", l->machine ? l->machine : m->hostname);
	cbench_jsonw_string(j, "cpu", m->cpu_name[0] ? m->cpu_name : m->cpu_vendor);
	snprintf(text, sizeof(text), "%s family %u model %u stepping %u", m->cpu_vendor,
		 m->cpu_family, m->cpu_model, m->cpu_stepping);
	cbench_jsonw_string(j, "cpu_model", text);
	cbench_jsonw_string(j, "microcode", m->microcode[0] ? m->microcode : "unknown");
	snprintf(text, sizeof(text), "%d", m->cpus_online);
	cbench_jsonw_string(j, "cpu_count", text);
	cbench_jsonw_string(j, "kernel", m->kernel_release);
	cbench_jsonw_string(j, "virtual_machine", m->hypervisor ? "yes" : "no");
	cbench_jsonw_string(j, "backend", o->backend);
	cbench_jsonw_string(j, "cbench_version", o->version);
	cbench_jsonw_string(j, "timer", o->timer);
	cbench_jsonw_string(j, "cpu_governor", o->cpuenv->governor);
	cbench_jsonw_string(j, "cpu_boost", o->cpuenv->boost);
	cbench_jsonw_string(j, "cpu_smt", o->cpuenv->smt);
	cbench_jsonw_string(j, "cpu_isolation", o->cpuenv->isolation);
	cbench_jsonw_object_end(j);
}

static void put_run(struct cbench_jsonw *j, const struct lnt_origin *o,
		    const struct cbench_lnt_run *l)
{
	const struct cbench_context *c = cbench_context();
	char start[32], end[32], order[32];
	size_t n = 0;

	/* The context's date is "YYYY-MM-DDThh:mm:ssZ"; LNT takes it without the zone. */
	snprintf(start, sizeof(start), "%.19s", c->date[0] ? c->date : "1970-01-01T00:00:00");
	lnt_time(end, sizeof(end), time(NULL));
	for (const char *p = start; *p && n + 1 < sizeof(order); p++) {
		if (*p >= '0' && *p <= '9')
			order[n++] = *p;
	}
	order[n] = '\0';
	cbench_jsonw_object_start(j, "run");
	cbench_jsonw_string(j, "start_time", start);
	cbench_jsonw_string(j, "end_time", end);
	/* LNT's order field: its name is fixed by LNT's own code. */
	cbench_jsonw_string(j, "llvm_project_revision", l->order ? l->order : order);
	cbench_jsonw_string(j, "command", c->command);
	if (o->so)
		cbench_jsonw_string(j, "so", o->so);
	if (o->build_id)
		cbench_jsonw_string(j, "so_build_id", o->build_id);
	if (o->interrupted) {
		char sig[32];

		cbench_jsonw_string(j, "interrupted", cbench_signal_name(o->interrupted, sig, sizeof(sig)));
	}
	cbench_jsonw_object_end(j);
}

/* The report's head: format, machine and run. */
static void put_head(struct cbench_jsonw *j, const struct lnt_origin *o,
		     const struct cbench_lnt_run *l)
{
	cbench_jsonw_object_start(j, NULL);
	cbench_jsonw_string(j, "format_version", "2");
	put_machine(j, o, l);
	put_run(j, o, l);
}

/* A metric's samples, one per trial that has the figure; absent if none has. */
static void put_metric(struct cbench_jsonw *j, const struct cbench_result *res,
		       const struct cbench_figure *f)
{
	size_t n = 0;

	for (size_t i = 0; i < res->ntrials; i++)
		n += !res->trials[i].set_aside && isfinite(cbench_figure_value(f, &res->trials[i]));
	if (!n)
		return;
	cbench_jsonw_array_start(j, f->lnt);
	for (size_t i = 0; i < res->ntrials; i++) {
		double v = cbench_figure_value(f, &res->trials[i]);

		if (!res->trials[i].set_aside && isfinite(v))
			cbench_jsonw_double(j, NULL, v * 1000);
	}
	cbench_jsonw_array_end(j);
}

/* One value for the run, scaled as the per-trial metric; absent if not measured. */
static void put_estimate(struct cbench_jsonw *j, const struct cbench_figure *f,
			 const struct cbench_result *res)
{
	double per_op = f->result(res);
	char key[64];

	snprintf(key, sizeof(key), "%s_estimate", f->lnt);
	if (isfinite(per_op) && per_op > 0)
		cbench_jsonw_double(j, key, per_op * 1000);
}

int cbench_report_lnt(const struct cbench_report *r, const struct cbench_lnt_run *l, FILE *f)
{
	const struct lnt_origin o = {
		.machine = &r->machine, .cpuenv = &r->cpuenv, .backend = r->backend,
		.version = r->version, .timer = r->timer.name, .so = r->so_path,
		.build_id = r->build_id, .interrupted = r->interrupted,
	};
	struct cbench_jsonw j;

	cbench_jsonw_init(&j, f, true);
	put_head(&j, &o, l);
	cbench_jsonw_array_start(&j, "tests");
	for (size_t i = 0; i < r->nresults; i++) {
		const struct cbench_result *res = &r->results[i];
		const char *name = res->exp->report_name;

		/* A benchmark without a trial that measured has nothing to say to LNT. */
		if (res->failed == res->ntrials)
			continue;
		cbench_jsonw_object_start(&j, NULL);
		cbench_jsonw_string(&j, "name", cbench_bench_title(name));
		/* The figures LNT takes (figures.c): the trials', then the run's. */
		for (const struct cbench_figure *fig = NULL; (fig = cbench_figure_next(fig, CBENCH_SHOW_LNT));)
			put_metric(&j, res, fig);
		for (const struct cbench_figure *fig = NULL;
		     (fig = cbench_figure_next(fig, CBENCH_SHOW_LNT_ESTIMATE));)
			put_estimate(&j, fig, res);
		cbench_jsonw_object_end(&j);
	}
	cbench_jsonw_array_end(&j);
	cbench_jsonw_object_end(&j);
	return cbench_jsonw_finish(&j);
}

/* One side's timings of an audit pair, in ps per op; absent if it has none. */
static void put_side(struct cbench_jsonw *j, const struct cbench_audit_pair *p, uint32_t side,
		     const char *key)
{
	size_t n = 0;

	for (size_t i = 0; i < p->ntimings; i++)
		n += p->timings[i].side == side && isfinite(p->timings[i].ns_per_op);
	if (!n)
		return;
	cbench_jsonw_array_start(j, key);
	for (size_t i = 0; i < p->ntimings; i++) {
		if (p->timings[i].side == side && isfinite(p->timings[i].ns_per_op))
			cbench_jsonw_double(j, NULL, p->timings[i].ns_per_op * 1000);
	}
	cbench_jsonw_array_end(j);
}

int cbench_audit_report_lnt(const struct cbench_audit_report *r, const struct cbench_lnt_run *l,
			    FILE *f)
{
	const struct lnt_origin o = {
		.machine = &r->machine, .cpuenv = &r->cpuenv, .backend = r->backend,
		.version = CBENCH_VERSION, .timer = r->timer.name,
	};
	struct cbench_jsonw j;

	cbench_jsonw_init(&j, f, true);
	put_head(&j, &o, l);
	cbench_jsonw_array_start(&j, "tests");
	for (size_t i = 0; i < r->npairs; i++) {
		const struct cbench_audit_pair *p = &r->pairs[i];
		const char *a = cbench_bench_title(p->a->report_name), *b = cbench_bench_title(p->b->report_name);
		char name[600];

		if (p->error)
			continue;
		/* B is what the order measured; A, the reference beside it. */
		if (strcmp(a, b))
			snprintf(name, sizeof(name), "%s.vs.%s", b, a);
		else
			snprintf(name, sizeof(name), "%s", b);
		cbench_jsonw_object_start(&j, NULL);
		cbench_jsonw_string(&j, "name", name);
		put_side(&j, p, 1, "ps_per_op");
		put_side(&j, p, 0, "audit_a_ps_per_op");
		if (isfinite(p->end.change))
			cbench_jsonw_double(&j, "audit_change_bp", p->end.change * 1e4);
		cbench_jsonw_object_end(&j);
	}
	cbench_jsonw_array_end(&j);
	cbench_jsonw_object_end(&j);
	return cbench_jsonw_finish(&j);
}
