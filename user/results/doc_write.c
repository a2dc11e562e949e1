// SPDX-License-Identifier: GPL-2.0
/*
 * A run's JSON report, written here and read back beside it (doc.c,
 * bench_read.c): the same content as the Go format, plus each trial's
 * median, spread and discard counts.  An unavailable number is absent,
 * never 0; non-finite numbers become null; counts are exact integers
 * (report/json_writer.c).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/digest.h"
#include "report/json_writer.h"
#include "machine/reference.h"
#include "report/context.h"
#include "report/figures.h"
#include "report/report.h"
#include "results/doc_write.h"
#include "stats/trials.h"

/* What a trial took on the runner's clock, its worker's start included;
 * absent if unknown.  Read back from a report, its span starts at 0. */
static void put_wall(struct cbench_jsonw *j, const struct cbench_trial *t)
{
	if (t->end_s > t->start_s)
		cbench_jsonw_double(j, "wall_s", t->end_s - t->start_s);
}

static void put_trial(struct cbench_jsonw *j, const struct cbench_trial *t, double tsc_hz,
		      size_t jobs)
{
	double v;

	cbench_jsonw_object_start(j, NULL);
	cbench_jsonw_string(j, "status", t->error ? "failed" : t->set_aside ? "set_aside" : "ok");
	if (t->error) {
		cbench_jsonw_string(j, "reason", t->reason);
		put_wall(j, t);
		cbench_jsonw_object_end(j);
		return;
	}
	/* What the run's trials together say of it (stats/trials.h). */
	cbench_jsonw_string(j, "cause", cbench_trial_cause_name(t->cause));
	if (t->beside)
		cbench_jsonw_uint(j, "slow_beside", t->beside);
	if (t->replacement)
		cbench_jsonw_bool(j, "replacement", true);
	if (t->carried)
		cbench_jsonw_bool(j, "carried", true);
	if (jobs > 1) {
		cbench_jsonw_uint(j, "cpu", (uint64_t)t->cpu);
		cbench_jsonw_bool(j, "solo", t->solo);
	}
	cbench_jsonw_uint(j, "n", t->n);
	/* The code layout it ran at (run.c), where the run sampled them. */
	if (t->layout) {
		cbench_jsonw_uint(j, "code_layout", t->layout);
		cbench_jsonw_uint(j, "run_offset", t->run_offset);
	}
	cbench_jsonw_uint(j, "iterations", t->iterations);
	cbench_jsonw_double(j, "ns_per_op", t->ns_per_op);
	cbench_jsonw_double(j, "min_ns_per_op", t->min_ns_per_op);
	cbench_jsonw_double(j, "median_ns_per_op", t->median_ns_per_op);
	cbench_jsonw_double(j, "max_ns_per_op", t->max_ns_per_op);
	cbench_jsonw_double(j, "cv", t->cv);
	cbench_jsonw_uint(j, "measurements", t->nsamples);
	cbench_jsonw_uint(j, "discarded", t->discarded);
	cbench_jsonw_object_start(j, "discarded_by");
	for (unsigned int k = 0; k < CBENCH_DISTURB_KINDS; k++) {
		if (t->discarded_by[k])
			cbench_jsonw_uint(j, cbench_disturb_names[k], t->discarded_by[k]);
	}
	cbench_jsonw_object_end(j);
	/* Its figures (figures.c); ns_per_op is above, with its spread. */
	for (const struct cbench_figure *f = NULL; (f = cbench_figure_next(f, CBENCH_SHOW_JSON));) {
		if (f->get(t, &v))
			cbench_jsonw_double(j, f->name, v);
	}
	/* How est_cycles_per_op was formed (report.c, stats/levels.h). */
	if (t->clock_how != CBENCH_CLOCK_NONE) {
		cbench_jsonw_object_start(j, "clock");
		cbench_jsonw_string(j, "how", cbench_clock_how_names[t->clock_how]);
		if (t->clock_how == CBENCH_CLOCK_MATCHED || t->clock_how == CBENCH_CLOCK_UNSTEADY) {
			cbench_jsonw_uint(j, "matched", t->clock_matched);
			cbench_jsonw_double(j, "tolerance", t->clock_tolerance);
			cbench_jsonw_uint(j, "levels", t->clock_levels);
		}
		cbench_jsonw_uint(j, "jumps", t->clock_jumps);
		cbench_jsonw_object_end(j);
	}
	if (t->have_tp)
		cbench_report_json_tp(j, "tpoints", &t->tp, tsc_hz);
	put_wall(j, t);
	cbench_jsonw_object_end(j);
}

/*
 * The options every measurement was made with (run --resume checks them),
 * and the report a resumed run carried benchmarks over from.
 */
static void put_settings(struct cbench_jsonw *j, const struct cbench_report *r)
{
	const struct cbench_report_settings *s = &r->settings;

	if (s->trials) {
		cbench_jsonw_object_start(j, "run_options");
		cbench_jsonw_uint(j, "trials", s->trials);
		cbench_jsonw_double(j, "trial_time_s", s->trial_time_s);
		cbench_jsonw_double(j, "warmup_s", s->warmup_s);
		if (s->trial_time_auto)
			cbench_jsonw_bool(j, "trial_time_auto", true);
		if (s->warmup_auto)
			cbench_jsonw_bool(j, "warmup_auto", true);
		cbench_jsonw_double(j, "time_limit_s", s->time_limit_s);
		if (s->precision > 0)
			cbench_jsonw_double(j, "precision", s->precision);
		if (s->budget_s > 0)
			cbench_jsonw_double(j, "budget_s", s->budget_s);
		if (s->precision_auto)
			cbench_jsonw_bool(j, "precision_auto", true);
		if (s->fresh_workers)
			cbench_jsonw_bool(j, "fresh_workers", true);
		if (s->keep_shared)
			cbench_jsonw_bool(j, "keep_shared", true);
		if (s->shared_wait_s > 0)
			cbench_jsonw_double(j, "shared_wait_s", s->shared_wait_s);
		if (s->filter)
			cbench_jsonw_string(j, "filter", s->filter);
		cbench_jsonw_object_end(j);
	}
	if (r->jobs > 1) {
		cbench_jsonw_uint(j, "jobs", r->jobs);
		cbench_jsonw_array_start(j, "worker_cpus");
		for (size_t i = 0; i < r->jobs; i++)
			cbench_jsonw_uint(j, NULL, (uint64_t)r->cpus[i]);
		cbench_jsonw_array_end(j);
		if (r->watchers[0] >= 0) {
			cbench_jsonw_array_start(j, "watcher_cpus");
			for (size_t i = 0; i < r->jobs; i++)
				cbench_jsonw_uint(j, NULL, (uint64_t)r->watchers[i]);
			cbench_jsonw_array_end(j);
		}
		cbench_jsonw_object_start(j, "beside_others");
		cbench_jsonw_uint(j, "trials", r->beside.trials);
		cbench_jsonw_uint(j, "shared", r->beside.shared);
		cbench_jsonw_uint(j, "alone_trials", r->beside.alone);
		cbench_jsonw_uint(j, "alone_shared", r->beside.alone_shared);
		cbench_jsonw_bool(j, "shares_core", r->beside.shares_core);
		cbench_jsonw_object_end(j);
	}
	if (r->resumed.path) {
		cbench_jsonw_object_start(j, "resumed_from");
		cbench_jsonw_string(j, "path", r->resumed.path);
		cbench_jsonw_string(j, "date", r->resumed.date);
		cbench_jsonw_uint(j, "benchmarks_carried_over", r->resumed.carried);
		cbench_jsonw_uint(j, "trials_carried_over", r->resumed.carried_trials);
		cbench_jsonw_object_end(j);
	}
}

/*
 * "code_layout": whether the trials laid the code out anew (run.c), from
 * which seed, what of it moves, and the sentence saying so (or why not,
 * and how to build so it can); none where the run did not say.
 */
static void put_code_layout(struct cbench_jsonw *j, const struct cbench_report *r)
{
	static const char *const modes[] = { "none", "sections", "functions" };

	if (!r->layout_note[0])
		return;
	cbench_jsonw_object_start(j, "code_layout");
	cbench_jsonw_bool(j, "sampled", r->layouts_sampled);
	if (r->layouts_sampled)
		cbench_jsonw_uint(j, "seed", r->layout_seed);
	cbench_jsonw_string(j, "moves", modes[r->layout_mode >= 0 && r->layout_mode < 3 ?
					      r->layout_mode : 0]);
	cbench_jsonw_string(j, "note", r->layout_note);
	cbench_jsonw_object_end(j);
}

/* The machine, the backend and the timer. */
static void put_config(struct cbench_jsonw *j, const struct cbench_report *r)
{
	const struct cbench_timer *t = &r->timer;
	const struct cbench_report_head head = { .machine = &r->machine, .version = r->version,
						 .backend = r->backend, .quiet = r->env.quiet,
						 .timer = t->name };
	char pmu[256];

	cbench_jsonw_object_start(j, "config");
	cbench_report_head_put(j, &head);
	cbench_jsonw_string(j, "run_id", cbench_context()->run_id);
	cbench_jsonw_int(j, "worker_cpu", r->env.cpu);
	cbench_jsonw_string(j, "worker_sched", r->env.fifo_error ? "SCHED_OTHER" : "SCHED_FIFO");
	cbench_jsonw_bool(j, "worker_mlock", !r->env.mlock_error);
	cbench_jsonw_double(j, "timer_hz", t->tsc_hz);
	cbench_jsonw_double(j, "timer_overhead_ticks", t->overhead_ticks);
	cbench_jsonw_double(j, "timer_step_ticks", t->step_ticks);
	cbench_jsonw_double(j, "timer_precision_ns", t->precision_ns);
	cbench_jsonw_double(j, "timer_accuracy_ns", t->accuracy_ns);
	if (t->est_cycles_per_tick > 0)
		cbench_jsonw_double(j, "est_cycles_per_tick", t->est_cycles_per_tick);
	if (t->ref_reps)
		cbench_jsonw_uint(j, "reference_adds", t->ref_reps * CBENCH_REF_ADDS_PER_REP);
	if (!isnan(r->core_ghz_min)) {
		cbench_jsonw_double(j, "core_ghz_min", r->core_ghz_min);
		cbench_jsonw_double(j, "core_ghz_max", r->core_ghz_max);
	}
	cbench_jsonw_uint(j, "clock_moved_trials", r->clock_moved_trials);
	cbench_pmu_text(&r->machine, r->env.core_type, r->env.cpu, pmu, sizeof(pmu));
	cbench_jsonw_string(j, "pmu", pmu);
	if (r->machine.hybrid)
		cbench_jsonw_uint(j, "core_type", r->env.core_type);
	cbench_jsonw_array_start(j, "counters");
	for (unsigned int i = 0; i < CBENCH_COUNTER_KINDS; i++) {
		if (t->counters & (1u << i))
			cbench_jsonw_string(j, NULL, cbench_counter_names[i]);
	}
	cbench_jsonw_array_end(j);
	cbench_jsonw_string(j, "cpu_governor", r->cpuenv.governor);
	cbench_jsonw_string(j, "cpu_boost", r->cpuenv.boost);
	cbench_jsonw_string(j, "cpu_smt", r->cpuenv.smt);
	cbench_jsonw_string(j, "cpu_isolation", r->cpuenv.isolation);
	cbench_jsonw_string(j, "disturbances", r->env.disturb_source);
	if (r->env.irqoff_budget_ns)
		cbench_jsonw_uint(j, "irqoff_budget_ns", r->env.irqoff_budget_ns);
	cbench_jsonw_string(j, "so", r->so_path);
	cbench_jsonw_string(j, "so_build_id", r->build_id);
	put_settings(j, r);
	put_code_layout(j, r);
	/* Only in a run a signal stopped: the key set of others is unchanged. */
	if (r->interrupted) {
		char sig[32];

		cbench_jsonw_object_start(j, "interrupted");
		cbench_jsonw_string(j, "signal", cbench_signal_name(r->interrupted, sig, sizeof(sig)));
		cbench_jsonw_uint(j, "trials_kept", r->trials_kept);
		cbench_jsonw_uint(j, "trials_asked", r->trials_asked);
		cbench_jsonw_uint(j, "benchmarks_not_run", r->not_run);
		cbench_jsonw_object_end(j);
	}
	cbench_jsonw_object_end(j);
}

/* "params": each key's value, in declaration order (none without keys). */
static void put_params(struct cbench_jsonw *j, const struct cbench_experiment *e)
{
	if (!e->nargs)
		return;
	cbench_jsonw_object_start(j, "params");
	for (uint32_t i = 0; i < e->nargs; i++) {
		if (e->args[i].str)
			cbench_jsonw_string(j, e->args[i].key, e->args[i].str);
		else
			cbench_jsonw_int(j, e->args[i].key, e->args[i].i);
	}
	cbench_jsonw_object_end(j);
}

/* Where --precision ended a benchmark's trials, and why. */
static void put_stopped(struct cbench_jsonw *j, const struct cbench_result *res)
{
	char text[384];

	cbench_jsonw_object_start(j, "stopped");
	cbench_jsonw_string(j, "why", cbench_stop_names[res->stop]);
	cbench_jsonw_uint(j, "trials", cbench_result_kept(res));
	cbench_jsonw_string(j, "judged_by", res->stop_est ? "est_cycles_per_op" : "ns_per_op");
	cbench_jsonw_measured(j, "interval_pct", 100 * res->stop_half);
	cbench_jsonw_string(j, "note", cbench_stop_text(res, text, sizeof(text)));
	cbench_jsonw_object_end(j);
}

/* One member of a result, by its row (report/result_figures.c). */
static void put_member(struct cbench_jsonw *j, const struct cbench_result_member *m,
		       const struct cbench_result *res, size_t jobs)
{
	struct cbench_member_value v;
	char pages[64];

	if (!cbench_result_member_get(m, res, jobs, &v, pages, sizeof(pages)))
		return;
	switch (m->kind) {
	case CBENCH_MEMBER_COUNT:
	case CBENCH_MEMBER_COUNT64:
		cbench_jsonw_uint(j, m->name, v.count);
		break;
	case CBENCH_MEMBER_FLAG:
		cbench_jsonw_bool(j, m->name, v.flag);
		break;
	case CBENCH_MEMBER_TEXT:
	case CBENCH_MEMBER_WORD:
	case CBENCH_MEMBER_ARENA_PAGES:
		cbench_jsonw_string(j, m->name, v.text);
		break;
	case CBENCH_MEMBER_STOPPED:
		put_stopped(j, res);
		break;
	default:
		cbench_jsonw_double(j, m->name, v.number);
		break;
	}
}

static void put_result(struct cbench_jsonw *j, const struct cbench_result *res, double tsc_hz,
		       size_t jobs)
{
	/* Carried over by run --resume: as its own run wrote it. */
	if (res->carried) {
		cbench_jsonw_value(j, NULL, res->carried);
		return;
	}
	cbench_jsonw_object_start(j, NULL);
	cbench_jsonw_string(j, "name", res->exp->report_name);
	cbench_jsonw_string(j, "id", res->exp->id);
	put_params(j, res->exp);
	cbench_jsonw_string(j, "tuning", res->tuning);
	/* "reps" (run(ctx, n) per measurement) or "per-rep" (one call
	 * between the benchmark's hooks, Caliper's macrobenchmark). */
	cbench_jsonw_string(j, "instrument", cbench_desc_per_rep(res->exp->desc) ? "per-rep" : "reps");
	/* Its figures, one row each (figures.h). */
	for (unsigned int i = 0; i < cbench_nresult_members; i++)
		put_member(j, &cbench_result_members[i], res, jobs);
	if (res->have_tp)
		cbench_report_json_tp(j, "tpoints", &res->tp, tsc_hz);
	cbench_jsonw_array_start(j, "trials");
	for (size_t i = 0; i < res->ntrials; i++)
		put_trial(j, &res->trials[i], tsc_hz, jobs);
	cbench_jsonw_array_end(j);
	cbench_jsonw_object_end(j);
}

/*
 * The report is written whole into memory first, less its closing brace,
 * so that its last member can be the digest of everything before it
 * (report/digest.h): a report edited afterwards is refused where it is read.
 */
int cbench_report_json(const struct cbench_report *r, FILE *f)
{
	struct cbench_jsonw j;
	char *text = NULL, hex[65];
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	int ret;

	if (!mem)
		return -ENOMEM;
	cbench_jsonw_init(&j, mem, false);
	cbench_jsonw_object_start(&j, NULL);
	cbench_jsonw_uint(&j, "schema_version", CBENCH_RUN_JSON_SCHEMA_VERSION);
	put_config(&j, r);
	cbench_jsonw_array_start(&j, "benchmarks");
	for (size_t i = 0; i < r->nresults; i++)
		put_result(&j, &r->results[i], r->timer.tsc_hz, r->jobs);
	cbench_jsonw_array_end(&j);
	ret = ferror(mem) ? -EIO : 0;
	if (fclose(mem) || !text) {
		free(text);
		return -ENOMEM;
	}
	cbench_sha256_hex(text, len, hex);
	fwrite(text, 1, len, f);
	fprintf(f, "%s%s\"}\n", CBENCH_DIGEST_MEMBER, hex);
	free(text);
	return ret ? ret : ferror(f) ? -EIO : 0;
}
