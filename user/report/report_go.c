// SPDX-License-Identifier: GPL-2.0
/*
 * The Go benchmark data format (Cox and Clements): configuration lines, then one
 * result line per trial, which benchstat reads directly.  A failed trial has
 * no result line (the format cannot say "failed"); a comment line says why.
 *
 * benchstat groups results into tables by every file-level configuration
 * key, so a key whose value changes from run to run would put the two runs
 * being compared into two tables and compare nothing.  Configuration lines
 * therefore hold only what stays put for a machine and setup (CPU, kernel,
 * backend, timer, counters, scheduling); what is measured anew each run or
 * differs between the builds being compared (the timer's calibration, the
 * object and its build id, cached or fresh tuning, discarded fractions)
 * goes into "# key: value" comments, which benchstat skips and people read.
 * The JSON report has all of it as fields.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "machine/reference.h"
#include "report/context.h"
#include "report/figures.h"
#include "report/report.h"
#include "stats/trials.h"
#include "report/utf8.h"
#include "stats/tune.h"

bool cbench_go_valid_key(const char *key)
{
	if (!key || !islower((unsigned char)key[0]))
		return false;
	for (const char *p = key; *p; p++) {
		if (isspace((unsigned char)*p) || isupper((unsigned char)*p) || *p == ':')
			return false;
	}
	return true;
}

/* The phrase of the comment that gives a benchmark's timer step. */
#define STEP_PHRASE ": one timer step is "

bool cbench_go_step_share(const char *line, char *name, size_t len, double *share)
{
	const char *at = strstr(line, STEP_PHRASE), *num;
	char *end;

	if (strncmp(line, "# Benchmark", 11) || !at || !len)
		return false;
	num = at + strlen(STEP_PHRASE);
	*share = strtod(num, &end) / 100;
	if (end == num || strncmp(end, "% of a ", 7) || !(*share >= 0) || !isfinite(*share))
		return false;
	snprintf(name, len, "%.*s", (int)(at - line - 2), line + 2);
	return true;
}

/* Six significant digits in fixed notation, as `go test` prints them. */
static void put_value(FILE *f, double v, const char *unit)
{
	int decimals = 0;

	if (v != 0 && fabs(v) < 1e5)
		decimals = 5 - (int)floor(log10(fabs(v)));
	if (decimals < 0)
		decimals = 0;
	if (decimals > 12)
		decimals = 12;
	fprintf(f, " %.*f %s", decimals, v, unit);
}

/* A count per op: whole when it is whole, else as put_value(). */
static void put_count(FILE *f, double v, const char *unit)
{
	if (v == floor(v) && v < 1e15)
		fprintf(f, " %.0f %s", v, unit);
	else
		put_value(f, v, unit);
}

/* "key: value", or "# key: value" for a comment; a value holds no newline. */
static void put_line(FILE *f, const char *prefix, const char *key, const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));

static void put_line(FILE *f, const char *prefix, const char *key, const char *fmt, va_list ap)
{
	char value[512];

	vsnprintf(value, sizeof(value), fmt, ap);
	for (char *p = value; *p; p++) {
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	}
	fprintf(f, "%s%s: %s\n", prefix, key, value);
}

/* Room for CBENCH_JOBS_MAX CPU numbers and commas. */
#define CPU_LIST_BYTES (CBENCH_JOBS_MAX * 6)

/* A configuration line; the key rules hold by construction. */
static void config(FILE *f, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void config(FILE *f, const char *key, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	put_line(f, "", key, fmt, ap);
	va_end(ap);
}

/* A "# key: value" comment: per-run facts that must not split benchstat tables. */
static void note(FILE *f, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void note(FILE *f, const char *key, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	put_line(f, "# ", key, fmt, ap);
	va_end(ap);
}

static const char *errname(int error)
{
	return error ? strerror(-error) : "ok";
}

/* "instructions cycles ref-cycles", as many as there are. */
static const char *counter_names(unsigned int counters, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (unsigned int i = 0; i < CBENCH_COUNTER_KINDS; i++) {
		if (counters & (1u << i))
			at += (size_t)snprintf(buf + at, at < len ? len - at : 0, "%s%s",
					       at ? " " : "", cbench_counter_names[i]);
	}
	return buf;
}

/* The counters line: which, and how they are read, or why none. */
static void put_counters_config(const struct cbench_report *r, FILE *f, bool kmod)
{
	const struct cbench_timer *t = &r->timer;
	char names[64];

	if (t->counters && kmod)
		config(f, "counters", "%s via rdpmc in ring 0 (perf kernel counters)",
		       counter_names(t->counters, names, sizeof(names)));
	else if (kmod)
		config(f, "counters", "none: TSC only (perf lent cbench.ko no hardware counters)");
	else if (t->counters)
		config(f, "counters", "%s via %s", counter_names(t->counters, names, sizeof(names)),
		       r->env.rdpmc ? "rdpmc" : "perf read");
	else
		config(f, "counters", "none (perf hardware events: %s)",
		       r->env.perf_hw_error == -ENOENT || r->env.perf_hw_error == -EOPNOTSUPP ?
		       "not supported here, no PMU exposed" : errname(r->env.perf_hw_error));
}

/* Whether any trial of the report measured the counter bit. */
static bool have_any(const struct cbench_report *r, uint32_t bit)
{
	for (size_t i = 0; i < r->nresults; i++) {
		for (size_t j = 0; j < r->results[i].ntrials; j++) {
			const struct cbench_trial *t = &r->results[i].trials[j];

			if (!t->error && (t->have & bit))
				return true;
		}
	}
	return false;
}

/* What stays put for a machine and setup: configuration lines. */
/* "1,0,3": n CPUs, as taken, into buf. */
static const char *cpu_list(const int *cpu, size_t n, char buf[CPU_LIST_BYTES])
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && len < CPU_LIST_BYTES; i++)
		len += (size_t)snprintf(buf + len, CPU_LIST_BYTES - len, "%s%d", i ? "," : "", cpu[i]);
	return buf;
}

static void put_config(const struct cbench_report *r, FILE *f)
{
	char a[CPU_LIST_BYTES], b[CPU_LIST_BYTES];
	const struct cbench_machine *m = &r->machine;
	bool kmod = !strcmp(r->backend, "kmod");
	char pmu[256];

	config(f, "goos", "linux");
	config(f, "goarch", "amd64");
	config(f, "cpu", "%s", m->cpu_name[0] ? m->cpu_name : m->cpu_vendor);
	config(f, "cpu-model", "%s family %u model %u stepping %u", m->cpu_vendor, m->cpu_family,
	       m->cpu_model, m->cpu_stepping);
	config(f, "cpu-count", "%d", m->cpus_online);
	cbench_pmu_text(m, r->env.core_type, r->env.cpu, pmu, sizeof(pmu));
	config(f, "pmu", "%s", pmu);
	config(f, "machine", "%s%s", m->hostname, m->hypervisor ? " (virtual machine)" : "");
	config(f, "kernel", "%s", m->kernel_release);
	config(f, "cbench-version", "%s", r->version);
	config(f, "backend", "%s", r->backend);
	if (kmod) {
		/* cbench.ko measures in a kernel thread on this CPU, interrupts
		 * off or its local APIC's LVT entries masked. */
		bool lvt = !strcmp(r->env.quiet, "lvt");

		if (r->jobs > 1)
			config(f, "cpus-measured", "%s (each watched from %s)", cpu_list(r->cpus, r->jobs, a),
			       cpu_list(r->watchers, r->jobs, b));
		else
			config(f, "cpu-measured", "%d", r->env.cpu);
		config(f, "irqoff-budget", "%" PRIu64 " ns per measurement", r->env.irqoff_budget_ns);
		config(f, "quiet-mode", "%s", lvt ? "lvt (interrupts on, the local APIC's LVT entries masked)" :
		       "cli (interrupts off)");
		config(f, "timer", "%s, rdtsc_ordered with %s%s", r->timer.name,
		       lvt ? "the LVT entries masked" : "interrupts off", m->tsc_invariant ? ", invariant" : "");
	} else {
		if (r->jobs > 1)
			config(f, "worker-cpus", "%s", cpu_list(r->cpus, r->jobs, a));
		else
			config(f, "worker-cpu", "%d", r->env.cpu);
		config(f, "worker-sched", "%s",
		       !r->env.fifo_error ? "SCHED_FIFO" :
		       r->env.fifo_error == -EBUSY ? "SCHED_OTHER (SCHED_FIFO not used: the runner shares the CPU)" :
		       "SCHED_OTHER (SCHED_FIFO not permitted)");
		if (r->env.fifo_error && r->env.fifo_error != -EBUSY)
			config(f, "worker-sched-error", "%s", errname(r->env.fifo_error));
		config(f, "worker-mlock", "%s", r->env.mlock_error ? errname(r->env.mlock_error) : "yes");
		config(f, "timer", "%s (lfence;rdtsc .. rdtscp;lfence)%s", r->timer.name,
		       m->tsc_invariant ? ", invariant" : "");
	}
	put_counters_config(r, f, kmod);
	/* Runs at sampled layouts and runs at the layout as loaded land in
	 * other benchstat tables; the seed and the sentence are comments. */
	if (r->layout_note[0])
		config(f, "code-layout", "%s", r->layouts_sampled ? "sampled" : "as loaded");
	/* What the measuring CPU ran under: runs made under other conditions
	 * land in other benchstat tables, not in one comparison. */
	config(f, "cpu-governor", "%s", r->cpuenv.governor[0] ? r->cpuenv.governor : "unknown");
	config(f, "cpu-boost", "%s", r->cpuenv.boost[0] ? r->cpuenv.boost : "unknown");
	config(f, "cpu-smt", "%s", r->cpuenv.smt[0] ? r->cpuenv.smt : "unknown");
	config(f, "cpu-isolation", "%s", r->cpuenv.isolation[0] ? r->cpuenv.isolation : "unknown");
	config(f, "disturbances", "%s",
	       kmod ? "NMI and SMI counts, CPU and counter checks in cbench.ko" :
	       !strcmp(r->env.disturb_source, "perf") ?
	       "perf software events (context switches, migrations, page faults; interrupts unseen)" :
	       "getrusage (perf_event_open not permitted; migrations by CPU number; interrupts unseen)");
}

/* What is measured anew each run, or names the build: comments. */
static void put_notes(const struct cbench_report *r, FILE *f)
{
	const struct cbench_timer *t = &r->timer;
	struct cbench_tune_params tp;
	char text[8192];

	if (r->interrupted) {
		char sig[32];

		note(f, "interrupted", "by %s: %zu of %zu trials a benchmark at most, %zu benchmark%s "
		     "not run", cbench_signal_name(r->interrupted, sig, sizeof(sig)), r->trials_kept,
		     r->trials_asked, r->not_run, r->not_run == 1 ? "" : "s");
	}
	/* A comment, not a configuration line: benchstat would put a resumed
	 * run in a table of its own. */
	if (r->resumed.path)
		note(f, "resumed-from", "%s (%s): %zu benchmark%s carried over, and %zu trial%s of "
		     "benchmarks it had begun", cbench_utf8_text(r->resumed.path, text, sizeof(text)),
		     r->resumed.date, r->resumed.carried, r->resumed.carried == 1 ? "" : "s",
		     r->resumed.carried_trials, r->resumed.carried_trials == 1 ? "" : "s");
	note(f, "date", "%s", cbench_context()->date);
	note(f, "host", "%s", cbench_context()->host);
	note(f, "command", "%s", cbench_utf8_text(cbench_context()->command, text, sizeof(text)));
	note(f, "so", "%s", cbench_utf8_text(r->so_path, text, sizeof(text)));
	note(f, "so-build-id", "%s", r->build_id);
	note(f, "timer-frequency", "%.6f MHz (vs CLOCK_MONOTONIC_RAW)", t->tsc_hz * 1e-6);
	note(f, "timer-overhead", "%.0f ticks (subtracted)", t->overhead_ticks);
	note(f, "timer-step", "%.0f ticks (%.3f ns; reads around spins of spread-out length)",
	     t->step_ticks, t->precision_ns);
	note(f, "timer-precision", "%.3f ns (one step)", t->precision_ns);
	note(f, "timer-accuracy", "%.3f ns", t->accuracy_ns);
	if (t->est_cycles_per_tick > 0)
		note(f, "est-cycles-per-tick", "%.6f at calibration (dependent-add chain, 1 cycle per add)",
		     t->est_cycles_per_tick);
	if (t->ref_reps)
		note(f, "est-cycles", "against a reference of %" PRIu64 " dependent adds measured after "
		     "every measurement, in the same trial", t->ref_reps * CBENCH_REF_ADDS_PER_REP);
	if (!isnan(r->core_ghz_min))
		note(f, "core-clock", "%.4f to %.4f GHz over the run (%.2f%%); ns/op is wall time and "
		     "moves with it, est-cycles/op does not", r->core_ghz_min, r->core_ghz_max,
		     100 * (r->core_ghz_max - r->core_ghz_min) / r->core_ghz_min);
	if (r->layout_note[0])
		note(f, "code-layout", "%s", r->layout_note);
	cbench_tune_params_init(&tp, t->precision_ns, t->accuracy_ns);
	note(f, "tuning-oracle",
	     "generalized logistic, j %" PRIu64 ", tau-acc %.0f ns, a %.3g/ns, b %.2f, measurements capped at %.0f us",
	     tp.j, tp.accuracy_ns, tp.a, tp.b, tp.max_measure_ns * 1e-3);
}

/* One trial's result line: its figures the Go format shows (figures.c). */
static void put_trial(FILE *f, const char *name, const struct cbench_trial *tr)
{
	double v;

	/* Go's b.N: the operations the line's figures stand for. */
	fprintf(f, "%s %" PRIu64, name, tr->iterations ? tr->iterations : tr->n);
	for (const struct cbench_figure *fig = NULL; (fig = cbench_figure_next(fig, CBENCH_SHOW_GO));) {
		if (!fig->get(tr, &v))
			continue;
		if (fig->style == CBENCH_FIGURE_COUNT)
			put_count(f, v, fig->unit);
		else
			put_value(f, v, fig->unit);
	}
	fputc('\n', f);
}

/* The per-iteration distribution of a result, as a comment. */
static void put_tp_note(FILE *f, const char *name, const struct cbench_result *res, double tsc_hz)
{
	const struct cbench_tp_summary *s = &res->tp;

	if (!s->every) {
		fprintf(f, "# %s: timing points: too few or too close together to time\n", name);
		return;
	}
	fprintf(f, "# %s: ns/iter p1 %.4g p25 %.4g p50 %.4g p75 %.4g p99 %.4g (medians of the "
		"trials); %" PRIu64 " iterations in %" PRIu64 " timings, stride %" PRIu64
		"; MIN_TIMING %.1f ns; perturb score %.3g%s\n", name, s->q_ns[0],
		s->q_ns[1], s->q_ns[2], s->q_ns[3], s->q_ns[4], s->iterations, s->merged, s->every,
		cbench_tp_min_timing_ns(s, tsc_hz), s->perturb,
		s->perturb > CBENCH_TP_PERTURB_MAX ? " (above 1: timings near the points' own cost)" : "");
	if (s->dropped || s->skipped)
		fprintf(f, "# %s: timing points: %" PRIu64 " records dropped (buffer full), %" PRIu64
			" timings without a marked iteration left out\n", name, s->dropped, s->skipped);
}

/* A benchmark's result lines, and comments on what went wrong. */
static void put_result(FILE *f, const struct cbench_result *res, double tsc_hz)
{
	const char *name = res->exp->report_name;
	char pages[64], stop[384];
	size_t discarded = 0, total = 0;

	for (size_t j = 0; j < res->ntrials; j++) {
		const struct cbench_trial *tr = &res->trials[j];

		discarded += tr->discarded;
		total += tr->nsamples;
		if (tr->error) {
			fprintf(f, "# %s trial %zu failed: %s\n", name, j + 1, tr->reason);
			continue;
		}
		/* Not a result line: benchstat's median would count it. */
		if (tr->set_aside && tr->clock_how == CBENCH_CLOCK_UNSTEADY) {
			fprintf(f, "# %s trial %zu set aside: the core clock held across only %zu of its "
				"%zu measurements (%zu jumps), too few for est-cycles/op: %.4g ns/op\n",
				name, j + 1, tr->clock_matched, tr->valid, tr->clock_jumps, tr->ns_per_op);
			continue;
		}
		if (tr->set_aside) {
			fprintf(f, "# %s trial %zu set aside as disturbed (%s): %.4g ns/op\n", name,
				j + 1, cbench_trial_cause_name(tr->cause), tr->ns_per_op);
			continue;
		}
		if (tr->clock_moved > CBENCH_CLOCK_MOVED_MAX && tr->clock_how == CBENCH_CLOCK_MATCHED)
			fprintf(f, "# %s trial %zu: the core clock moved %.2f%% within the trial (%zu "
				"levels); est-cycles/op from the %zu of %zu measurements at one level, with "
				"the clock steady on both sides\n", name, j + 1, 100 * tr->clock_moved,
				tr->clock_levels, tr->clock_matched, tr->valid);
		else if (tr->clock_moved > CBENCH_CLOCK_MOVED_MAX)
			fprintf(f, "# %s trial %zu: the core clock moved %.2f%% within the trial\n",
				name, j + 1, 100 * tr->clock_moved);
		put_trial(f, name, tr);
	}
	if (total)
		fprintf(f, "# %s: %zu of %zu measurements discarded as disturbed (%.2f%%)\n",
			name, discarded, total, 100.0 * (double)discarded / (double)total);
	/* Always: compare reads it, as the rounding a run's figure carries
	 * (cbench_go_step_share()). */
	if (res->step_share > 0)
		fprintf(f, "# %s" STEP_PHRASE "%.3g%% of a %s", name, 100 * res->step_share,
			cbench_desc_per_rep(res->exp->desc) ? "call" : "measurement");
	if (res->step_share > CBENCH_STEP_SHARE_MAX && cbench_desc_per_rep(res->exp->desc))
		fprintf(f, ", and a per-rep benchmark is timed one call at a time: give each call "
			"more work for a finer result");
	else if (res->step_share > CBENCH_STEP_SHARE_MAX)
		fprintf(f, " (measurements are capped at %.0f us); the floor mean takes most of its "
			"rounding off", CBENCH_TUNE_MAX_MEASURE_NS * 1e-3);
	if (res->step_share > 0)
		fputc('\n', f);
	if (!isnan(res->placement_share))
		fprintf(f, "# %s: trials vary by %.3g%% (sd), the noise within them by %.3g%%: %.0f%% "
			"of their variance is placement\n", name, 100 * sqrt(res->between_var),
			100 * sqrt(res->within_var), 100 * res->placement_share);
	if (res->layouts && isnan(res->layout_share))
		fprintf(f, "# %s: %zu code layout%s, two trials each: too few trials share one to tell "
			"what layouts do\n", name, res->layouts, res->layouts == 1 ? "" : "s");
	else if (res->layouts)
		fprintf(f, "# %s: %zu code layouts, two trials each: %.0f%% of the trials' variance is "
			"between layouts\n", name, res->layouts, 100 * res->layout_share);
	if (res->unstable)
		fprintf(f, "# %s: UNSTABLE: %s\n", name, res->unstable_reason);
	if (res->set_aside_note[0])
		fprintf(f, "# %s: %s\n", name, res->set_aside_note);
	if (res->stop)
		fprintf(f, "# %s: %s\n", name, cbench_stop_text(res, stop, sizeof(stop)));
	if (res->cycles_note[0])
		fprintf(f, "# %s: %s\n", name, res->cycles_note);
	if (!isnan(res->ns_per_op))
		fprintf(f, "# %s: headline: the median of %zu trials, %.6g ns/op, %.0f%% interval "
			"[%.6g, %.6g]\n", name, cbench_result_kept(res),
			res->ns_per_op, 100 * res->ns_coverage, res->ns_lo, res->ns_hi);
	if (*cbench_arena_pages_text(res, pages, sizeof(pages)))
		fprintf(f, "# %s: arena of %" PRIu64 " bytes on %s\n", name, res->exp->desc->arena_bytes,
			pages);
	if (res->have_tp)
		put_tp_note(f, name, res, tsc_hz);
}

int cbench_report_go(const struct cbench_report *r, FILE *f)
{
	const char *tuning = NULL;

	put_config(r, f);
	put_notes(r, f);
	/* Counted instructions are exact: benchstat then compares them as such. */
	if (have_any(r, CBENCH_HAVE_INSTRUCTIONS))
		fprintf(f, "Unit instructions/op assume=exact\n");
	fputc('\n', f);
	for (size_t i = 0; i < r->nresults; i++) {
		if (!tuning || strcmp(tuning, r->results[i].tuning)) {
			tuning = r->results[i].tuning;
			note(f, "tuning", "%s", tuning);
		}
		put_result(f, &r->results[i], r->timer.tsc_hz);
	}
	return ferror(f) ? -EIO : 0;
}
