// SPDX-License-Identifier: GPL-2.0
/*
 * `cbenchctl run`: load, calibrate, tune (or reuse the cached n), run the
 * trials, summarize, report.  Each phase runs in its own worker (phase.c);
 * this process only orchestrates, so a benchmark that crashes, hangs or
 * exits costs its trial, not the run.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "cmd/run_parts.h"
#include "cmd/subcommands.h"
#include "backend/user.h"
#include "error.h"
#include "machine/arena.h"
#include "object/layout.h"
#include "report/outfile.h"
#include "report/report.h"
#include "results/doc_write.h"
#include "session/bulk.h"
#include "session/cache.h"
#include "session/collect.h"
#include "session/options.h"
#include "session/session.h"
#include "store/add.h"
#include "worker/leftover.h"

/* Valid measurements a trial needs before its time is up. */
#define TRIAL_MIN_VALID 5
/* Valid measurements after which a trial stops early. */
#define TRIAL_MAX_MEASUREMENTS 100000

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void fail_trial(struct cbench_trial *t, int error, const char *prefix, const char *reason)
{
	t->error = error;
	snprintf(t->reason, sizeof(t->reason), "%s%s", prefix, reason);
}

/*
 * The run: its session (session.h) and what it found.  The first SIGINT,
 * SIGTERM or SIGHUP stops it (cbench_session_stopped()): the worker it
 * catches is ended, and the trials that finished are kept and written,
 * marked as an interrupted run.  A second one ends cbenchctl at once, its
 * temporary files removed.
 */
struct run_state {
	const struct cbench_run_options *opt;
	struct cbench_session s;
	struct cbench_report report;
	char cache_path[4096];
	/* The tuning cache as the run began, and what the run tuned, stored
	 * together once tuning is over (cache.h). */
	struct cbench_cache cache;
	struct cbench_cache_entry *tuned;
	size_t ntuned;
	char cpu_model[160];
	bool no_report;			/* stdout is a terminal and no -o: none */
	size_t streamed;		/* rows printed as their benchmarks finished */
	struct cbench_lnt_run lnt;	/* an LNT report's machine name and order */
	struct cbench_outfile *out[CBENCH_FORMATS], *samples;
	struct cbench_resume *resume;	/* --resume's report, or NULL */
	const struct cbench_run_taker *taker;	/* a composite's, or NULL */
};

/* Sets res->n from the cache or by tuning; on failure fails every trial. */
static void tune_experiment(struct run_state *st, struct cbench_result *res, size_t index, size_t total)
{
	const struct cbench_run_options *opt = st->opt;
	const struct cbench_experiment *e = res->exp;
	uint64_t key = cbench_cache_key(st->report.build_id, e->id, st->cpu_model, st->s.ops->name);
	char failure[600] = "";
	int ret;

	/* Caliper's macrobenchmark instrument: one call per measurement. */
	if (cbench_desc_per_rep(e->desc)) {
		res->tuning = "per-rep";
		res->n = 1;
		return;
	}
	res->tuning = "cached";
	if (!opt->retune && st->cache_path[0] && !cbench_cache_find(&st->cache, key, &res->n))
		return;

	res->tuning = "tuned";
	cbench_session_progress(&st->s, index, total, cbench_bench_title(e->report_name), "tuning");
	ret = cbench_session_tune(&st->s, e, opt->time_limit_s, &res->n, failure, sizeof(failure));
	if (ret) {
		res->tuning = "failed";
		for (size_t t = 0; t < res->ntrials; t++)
			fail_trial(&res->trials[t], -EIO, "tuning failed: ", failure);
		return;
	}
	/* st->tuned has room for every benchmark (measure_all()). */
	if (st->cache_path[0] && st->tuned)
		st->tuned[st->ntuned++] = (struct cbench_cache_entry){ .key = key, .n = res->n,
								 .bench_id = e->id };
}

/* What the run tuned into the cache, in one rewrite of it. */
static void store_tuned(struct run_state *st)
{
	int ret = cbench_cache_store_many(st->cache_path, st->tuned, st->ntuned);

	if (ret)
		cbench_err("unable to update the tuning cache %s: %s\n", st->cache_path,
			   strerror(-ret));
	st->ntuned = 0;
}

/*
 * The widest core runs before saw on each CPU (stats/trials.h): the cache
 * keeps it beside the tunings, in thousandths of an add a cycle, under a
 * key of the CPU's number, its model and the backend.  A run whose every
 * trial ran on a shared core is told by it.
 */
static uint64_t width_key(const struct run_state *st, int cpu, char *id, size_t len)
{
	snprintf(id, len, "core width on CPU %d", cpu);
	return cbench_cache_key("core-width", id, st->cpu_model, st->s.ops->name);
}

/* What the cache knows of the run's CPUs' cores; none with --retune. */
static void known_widths(struct run_state *st)
{
	struct cbench_report *r = &st->report;
	char id[48];
	uint64_t v;

	r->nknown_width = 0;
	for (size_t i = 0; i < st->s.nlanes && !st->opt->retune && st->cache_path[0]; i++)
		if (!cbench_cache_find(&st->cache, width_key(st, st->s.lane[i].cpu, id, sizeof(id)), &v))
			r->known_width[r->nknown_width++] = (struct cbench_core_width){
				st->s.lane[i].cpu, (double)v / 1000 };
}

/* Into the cache, each CPU's widest core of this run where it is wider than
 * what the cache holds now, another run's meanwhile included (or anew, with
 * --retune). */
static void store_widths(struct run_state *st)
{
	const struct cbench_report *r = &st->report;
	struct cbench_cache_entry e[CBENCH_JOBS_MAX];
	char id[CBENCH_JOBS_MAX][48];
	struct cbench_cache now = { 0 };
	size_t n = 0;
	int ret;

	if (!st->cache_path[0])
		return;
	cbench_cache_load(st->cache_path, &now);
	for (size_t i = 0; i < st->s.nlanes && i < CBENCH_JOBS_MAX; i++) {
		int cpu = st->s.lane[i].cpu;
		uint64_t key = width_key(st, cpu, id[n], sizeof(id[n])), v;
		double widest = 0, known = 0;

		if (!st->opt->retune && !cbench_cache_find(&now, key, &v))
			known = (double)v / 1000;
		for (size_t k = 0; k < r->nresults; k++)
			for (size_t j = 0; j < r->results[k].ntrials; j++) {
				const struct cbench_trial *t = &r->results[k].trials[j];

				if (t->cpu == cpu && t->figures.have_width && !t->carried)
					widest = fmax(widest, t->figures.core_width);
			}
		if (!(widest > known && widest < 1000))
			continue;
		e[n] = (struct cbench_cache_entry){ .key = key, .n = (uint64_t)llround(widest * 1000),
						    .bench_id = id[n] };
		n++;
	}
	cbench_cache_free(&now);
	ret = n ? cbench_cache_store_many(st->cache_path, e, n) : 0;
	if (ret)
		cbench_err("unable to update the tuning cache %s: %s\n", st->cache_path, strerror(-ret));
}

/*
 * Whether a trial measured anything: a minimum under one timer step (0 once
 * the overhead is off) says only "shorter than the timer can tell", and
 * reporting it as a time would print 0 ns/op.  Tuning makes a measurement
 * of real work last two thousand steps, so only a benchmark that does nothing
 * measurable, or ignores reps, ends here.
 */
static bool resolved(const struct cbench_trial *tr, double step_ticks)
{
	for (size_t i = 0; i < tr->nsamples; i++) {
		if (!tr->samples[i].disturbed && (double)tr->samples[i].ticks < step_ticks)
			return false;
	}
	return true;
}

/* FNV-1a of a benchmark's name, so its layouts are not those of the
 * benchmarks measured beside it in a round. */
static uint64_t name_hash(const char *name)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *name; name++)
		h = (h ^ (uint8_t)*name) * 0x100000001b3ull;
	return h;
}

/*
 * Where a run samples code layouts, trial t is measured at layout t / 2 +
 * 1 of its benchmark: two trials a layout, each in a worker of its own
 * (other pages), so that the trials at one layout tell what memory's
 * placement alone does (report.c).  A trial measured again in place of a
 * disturbed one keeps that one's layout (again_begin()).  Layout k of a
 * benchmark is drawn from the run's seed, its name and k alone: a seed
 * replays them, whatever --filter leaves out.
 */
static void place_trial(const struct run_state *st, const struct cbench_result *res,
			struct cbench_trial *tr, size_t t, struct cbench_worker_job *job)
{
	if (!st->report.layouts_sampled)
		return;
	if (!tr->replacement)
		tr->layout = (uint32_t)(t / 2 + 1);
	job->place_code = true;
	job->layout_index = tr->layout;
	job->seed = cbench_placement_seed(st->report.layout_seed ^ name_hash(res->exp->report_name),
					  tr->layout);
}

/* Trial t of res's job on the session's CPU lane, and its start. */
static struct cbench_worker_job trial_job(struct run_state *st, struct cbench_result *res,
					  size_t t, size_t index, size_t total, size_t lane)
{
	const struct cbench_run_options *opt = st->opt;
	struct cbench_worker_job job = cbench_session_job_on(&st->s, lane, CBENCH_WORKER_TRIAL,
							     res->exp, opt->time_limit_s);
	struct cbench_trial *tr = &res->trials[t];
	char what[64];

	/* Under --precision: of the most it may take. */
	snprintf(what, sizeof(what), "trial %zu/%zu", t + 1,
		 opt->precision > 0 && res->ntrials < opt->trials ? opt->trials : res->ntrials);
	cbench_session_progress(&st->s, index, total, cbench_bench_title(res->exp->report_name), what);
	job.n = tr->n = res->n;
	job.warmup_ns = st->report.settings.warmup_s * 1e9;
	job.trial_ns = st->report.settings.trial_time_s * 1e9;
	job.max_measurements = TRIAL_MAX_MEASUREMENTS;
	job.min_valid = TRIAL_MIN_VALID;
	tr->cpu = st->s.lane[lane].cpu;
	/* A trial that looked for loop timing points and found none (the
	 * worker sends none then) spares the later ones the pilot
	 * measurement that looks (tpoints_worker.c), 0.14 ms a trial. */
	job.no_tpoints = tr->tp_skipped = res->tp_none;
	place_trial(st, res, tr, t, &job);
	tr->start_s = now_s();
	return job;
}

static void trial_done(const struct run_state *st, struct cbench_result *res,
		       struct cbench_trial *tr)
{
	tr->end_s = now_s();
	if (!tr->error && !resolved(tr, st->report.timer.step_ticks))
		fail_trial(tr, -ERANGE, "", "every measurement is shorter than one step of the timer: "
			   "the benchmark does no measurable work, or ignores reps");
	if (!tr->error && !tr->tp_skipped && tr->nsamples && !tr->have_tp)
		res->tp_none = true;
}

static int write_report(const struct run_state *st, struct cbench_outfile *out,
			enum cbench_format format)
{
	int ret;

	if (st->no_report)
		return 0;
	switch (format) {
	case CBENCH_FORMAT_JSON:
		ret = cbench_report_json(&st->report, out->file);
		break;
	case CBENCH_FORMAT_LNT:
		ret = cbench_report_lnt(&st->report, &st->lnt, out->file);
		break;
	case CBENCH_FORMAT_BMF:
		ret = cbench_report_bmf(&st->report, out->file);
		break;
	case CBENCH_FORMAT_JUNIT:
		ret = cbench_report_junit(&st->report, out->file);
		break;
	default:
		ret = cbench_report_go(&st->report, out->file);
		break;
	}

	if (ret) {
		cbench_outfile_abort(out);
		return ret;
	}
	return cbench_outfile_commit(out);
}

static void free_results(struct cbench_report *r)
{
	for (size_t i = 0; i < r->nresults; i++) {
		for (size_t j = 0; j < r->results[i].ntrials; j++) {
			cbench_bulk_free(r->results[i].trials[j].samples);
			cbench_bulk_free(r->results[i].trials[j].ref_samples);
		}
		free(r->results[i].trials);
	}
	free(r->results);
}

/*
 * Outputs are opened before anything runs, so an unwritable path costs
 * nothing; they only appear, whole, at the end.  Returns 0, or -1 after
 * saying why.
 */
static int open_outputs(struct run_state *st)
{
	const struct cbench_run_options *opt = st->opt;

	for (unsigned int i = 0; i < opt->nreports; i++) {
		st->out[i] = cbench_session_output(&st->s, opt->reports[i].path);
		if (!st->out[i])
			return -1;
	}
	if (opt->samples) {
		st->samples = cbench_session_output(&st->s, opt->samples);
		if (!st->samples)
			return -1;
	}
	return 0;
}

/* The session's machine and timer, and the run's facts, for the report. */
static void start(struct run_state *st)
{
	const struct cbench_session *s = &st->s;
	const struct cbench_machine *m = &s->machine;

	st->report.machine = s->machine;
	st->report.cpuenv = s->lane[0].cpuenv;
	st->report.timer = s->lane[0].timer;
	st->report.env = s->lane[0].env;
	snprintf(st->cpu_model, sizeof(st->cpu_model), "%s %s %u/%u/%u", m->cpu_vendor, m->cpu_name,
		 m->cpu_family, m->cpu_model, m->cpu_stepping);
	if (cbench_cache_path(st->cache_path, sizeof(st->cache_path)))
		st->cache_path[0] = '\0';
	/* One unreadable is empty: what the run tunes it tries to store. */
	else
		cbench_cache_load(st->cache_path, &st->cache);
	known_widths(st);
	/* The Go report would scroll the table away: on a terminal it is
	 * printed only when -o - asks for it. */
	st->no_report = !st->opt->output && isatty(STDOUT_FILENO);
	st->report.backend = s->ops->name;
	st->report.version = CBENCH_VERSION;
	st->report.so_path = s->lib[0].path;
	st->report.build_id = s->lib[0].build_id;
	st->report.settings = (struct cbench_report_settings){
		.trials = st->opt->trials, .time_limit_s = st->opt->time_limit_s,
		.filter = st->opt->filter, .trial_time_auto = !(st->opt->trial_time_s > 0),
		.warmup_auto = !(st->opt->warmup_s > 0), .precision = st->opt->precision,
		.fresh_workers = st->opt->fresh_workers, .keep_shared = st->opt->keep_shared,
		.budget_s = fmax(st->opt->budget_s, 0), .precision_auto = st->opt->precision_auto };
	cbench_run_trial_time(st->opt, s->nchosen, s->nlanes, st->opt->fresh_workers || !s->ops->release,
			      &st->report.settings.trial_time_s,
			      &st->report.settings.warmup_s);
	st->report.jobs = s->nlanes;
	for (size_t i = 0; i < s->nlanes; i++) {
		st->report.cpus[i] = s->lane[i].cpu;
		st->report.watchers[i] = s->lane[i].watcher;
	}
}

/*
 * Whether the trials lay the code out anew (docs/placement.md): where the
 * object's file says its code can move, unless --fixed-layout; in ring 0
 * each trial's image is laid out before it is uploaded
 * (object/kimage_layout.h).  And the report's sentence on it.  Reading
 * the file runs none of it; an object whose code cannot move costs no
 * trial anything.
 */
static void plan_layouts(struct run_state *st)
{
	const struct cbench_run_options *opt = st->opt;
	struct cbench_report *r = &st->report;
	char what[sizeof(r->layout_note)] = "", err[CBENCH_ERR_LEN];
	struct cbench_layout lay;
	bool ring0 = st->s.ops == &cbench_backend_kmod;

	r->layout_seed = opt->seed;
	r->layout_mode = CBENCH_LAYOUT_NONE;
	if (cbench_layout_scan(r->so_path, &lay, err, sizeof(err))) {
		snprintf(what, sizeof(what), "not moved: %s", err);
	} else {
		r->layout_mode = (int)lay.mode;
		cbench_layout_describe(&lay, what, sizeof(what));
		cbench_layout_free(&lay);
	}
	r->layouts_sampled = r->layout_mode != CBENCH_LAYOUT_NONE && !opt->fixed_layout &&
			     st->s.ops->place;
	if (r->layouts_sampled)
		snprintf(r->layout_note, sizeof(r->layout_note), "laid out anew for every two trials, "
			 "at layouts drawn from seed %" PRIu64 " (%s)%s", r->layout_seed, what,
			 ring0 ? ", in ring 0: each trial's image laid out anew before its upload" : "");
	else
		snprintf(r->layout_note, sizeof(r->layout_note), "where it was loaded, so each "
			 "benchmark's figure is that layout's: %s",
			 r->layout_mode == CBENCH_LAYOUT_NONE ? what : "fixed (--fixed-layout)");
}

/*
 * On a terminal, the table's head (res NULL) or one finished benchmark's
 * row, over the progress line.
 */
static void stream_row(struct run_state *st, struct cbench_result *res)
{
	bool colour = cbench_colour(STDERR_FILENO);

	fprintf(stderr, "\r\033[K");
	if (!res) {
		cbench_report_table_head(&st->report, stderr, colour);
		return;
	}
	cbench_report_summarize_one(&st->report, res);
	cbench_report_table_row(&st->report, res, stderr, colour);
	st->streamed++;
}

static bool last_round(const struct run_state *st, size_t t)
{
	return t + 1 == st->opt->trials;
}

/* Whether round t prints each benchmark's row on the terminal as it
 * finishes: the last of a run of --trials (under --precision, a
 * benchmark's last trial is not known until it stops, and rows are
 * printed at the end). */
static bool streams(const struct run_state *st, size_t t)
{
	return last_round(st, t) && st->s.tty && !(st->opt->precision > 0);
}

/*
 * How far round t starts down the list of results.  On several CPUs each
 * round but the last starts one benchmark further on: lanes take units in
 * turn and trials last alike, so in one fixed order lane l would get the
 * same benchmarks in every round (two benchmarks on two CPUs: each on one
 * CPU only), and a CPU's own speed would be those benchmarks' alone.  The
 * last round keeps the list's order, so a terminal prints its rows in it.
 */
static size_t round_shift(const struct run_state *st, size_t t)
{
	size_t n = st->report.nresults;

	return st->s.nlanes < 2 || last_round(st, t) || !n ? 0 : t % n;
}

/* The place of result j in round t. */
static size_t round_place(const struct run_state *st, size_t t, size_t j)
{
	size_t n = st->report.nresults;

	return n ? (j + n - round_shift(st, t)) % n : j;
}

/* The result at place k of round t: round_place()'s inverse. */
static size_t round_result(const struct run_state *st, size_t t, size_t k)
{
	size_t n = st->report.nresults;

	return n ? (k + round_shift(st, t)) % n : k;
}

/*
 * A signal stopped the run at place i of round t: the trial it caught is
 * dropped, every benchmark keeps the trials that finished (t + 1 for
 * those placed before i, t for the others), and those left with none
 * leave the report.
 */
static void stopped(struct run_state *st, size_t t, size_t i)
{
	struct cbench_report *r = &st->report;
	size_t kept = 0;

	cbench_session_progress(&st->s, 0, 0, NULL, NULL);
	r->interrupted = cbench_session_stopped();
	r->trials_asked = st->opt->trials;
	r->not_run = 0;
	for (size_t j = 0; j < r->nresults; j++) {
		struct cbench_result *res = &r->results[j];
		size_t done = round_place(st, t, j) < i ? t + 1 : t;

		/* The trial it caught, and any a run on several CPUs finished
		 * past it, go; one --precision stopped has fewer already. */
		for (size_t k = done; !res->carried && k < res->ntrials; k++) {
			if (k < res->carried_trials)
				continue;
			cbench_bulk_free(res->trials[k].samples);
			cbench_bulk_free(res->trials[k].ref_samples);
			memset(&res->trials[k], 0, sizeof(res->trials[k]));
		}
		if (!res->carried && done < res->ntrials)
			res->ntrials = done;
		if (!res->carried && res->ntrials < res->carried_trials)
			res->ntrials = res->carried_trials;
		if (!res->ntrials) {
			free(res->trials);
			r->not_run++;
			continue;
		}
		r->results[kept++] = *res;
	}
	r->nresults = kept;
	r->trials_kept = kept ? t + (i > 0) : 0;
}

/*
 * Most trials a benchmark gets measured again in place of disturbed ones:
 * as many as it was asked for, so that a run keeps --trials unless the host
 * disturbs more than half of what it measures.  In place of trials whose
 * core was shared, while the run waits for the core (patient, --shared-wait),
 * CBENCH_SHARED_REPLACEMENTS times as many: another thread on the core comes
 * and goes for seconds at a time, and a run of two seconds can fall in one
 * whole (docs/methodology.md).  Under --precision, as many as the trials
 * a benchmark is judged on, in place of those.
 */
static size_t replacements_max(const struct run_state *st, const struct cbench_trial *t, bool patient)
{
	size_t base = st->opt->precision > 0 ? CBENCH_PRECISION_MIN_TRIALS : st->opt->trials;

	if (patient && t->cause == CBENCH_TRIAL_SHARED)
		return CBENCH_SHARED_REPLACEMENTS * base;
	return base;
}

/* How long a run goes on measuring shared trials again past --trials
 * replacements: --shared-wait, or (auto) as long as its rounds took. */
static double shared_wait(const struct run_state *st, double rounds_s)
{
	if (st->opt->keep_shared)
		return 0;
	if (st->opt->shared_wait_s >= 0)
		return st->opt->shared_wait_s;
	return fmax(CBENCH_SHARED_WAIT_MIN, rounds_s);
}

/* A trial set aside to measure again: result res's trial set_aside, the
 * step of remeasure() that measures it again, and the replacement begun in
 * its place (SIZE_MAX before); patient: a shared trial's, past --trials
 * replacements (--shared-wait).  With set_aside SIZE_MAX, no replacement:
 * the trial alone that --precision's rounds on several CPUs end with
 * (measure_alone()). */
struct again_unit {
	size_t res, set_aside, step, trial;
	bool patient;
};

/* The replacements of one step of remeasure(), on one CPU, in one standing
 * worker: each benchmark's at most once. */
struct agains {
	struct run_state *st;
	struct again_unit *u;
	size_t total;
	bool nomem;
};

/* One more trial of the unit's result, in place of the disturbed one:
 * appended, marked, begun at its layout. */
static struct cbench_trial *again_begin(void *arg, size_t unit, size_t lane,
					struct cbench_worker_job *job)
{
	struct agains *ag = arg;
	struct run_state *st = ag->st;
	struct again_unit *u = &ag->u[unit];
	struct cbench_result *res = &st->report.results[u->res];
	struct cbench_trial *trials;

	/* Once out of memory, the run ends: nothing more to measure. */
	trials = ag->nomem ? NULL : realloc(res->trials, (res->ntrials + 1) * sizeof(*trials));
	if (!trials) {
		ag->nomem = true;
		return NULL;
	}
	res->trials = trials;
	memset(&trials[res->ntrials], 0, sizeof(*trials));
	if (u->set_aside != SIZE_MAX) {
		trials[u->set_aside].replaced = true;
		trials[res->ntrials].replacement = true;
		trials[res->ntrials].layout = trials[u->set_aside].layout;
	} else {
		trials[res->ntrials].alone = true;
	}
	u->trial = res->ntrials++;
	*job = trial_job(st, res, u->trial, u->res, ag->total, lane);
	if (!st->opt->fresh_workers)
		job->share = 1;
	res->trials[u->trial].solo = st->s.nlanes > 1;
	return &res->trials[u->trial];
}

static void again_end(void *arg, size_t unit, size_t lane)
{
	struct agains *ag = arg;
	struct cbench_result *res = &ag->st->report.results[ag->u[unit].res];

	(void)lane;
	trial_done(ag->st, res, &res->trials[ag->u[unit].trial]);
	if (ag->u[unit].set_aside == SIZE_MAX)
		cbench_session_done(&ag->st->s);
}

/* By step, then by result: each step's units in the results' order. */
static int by_step(const void *a, const void *b)
{
	const struct again_unit *x = a, *y = b;

	if (x->step != y->step)
		return (x->step > y->step) - (x->step < y->step);
	return (x->res > y->res) - (x->res < y->res);
}

/*
 * Measures units u[0..n) again, alone on the first CPU, in one standing
 * worker (each of another benchmark; another worker where one ends).  A
 * replacement a signal caught is dropped; the rest stand.  0 or -ENOMEM
 * (also where the lanes could not be had: nothing was measured).
 */
static int measure_again(struct run_state *st, struct again_unit *u, size_t n, size_t total)
{
	struct agains ag = { .st = st, .u = u, .total = total };
	struct cbench_lane_work w = { .begin = again_begin, .end = again_end, .arg = &ag,
				      .limit_s = st->opt->time_limit_s };
	size_t done = cbench_session_trials(&st->s, n, 1, &w);

	if (done < n && !cbench_session_stopped())
		ag.nomem = true;
	for (size_t k = done; k < n; k++) {
		struct cbench_result *res = &st->report.results[u[k].res];

		if (u[k].trial == SIZE_MAX)
			continue;
		/* Begun last of its result's trials. */
		cbench_bulk_free(res->trials[u[k].trial].samples);
		cbench_bulk_free(res->trials[u[k].trial].ref_samples);
		res->ntrials--;
		if (u[k].set_aside != SIZE_MAX)
			res->trials[u[k].set_aside].replaced = false;
	}
	return ag.nomem ? -ENOMEM : 0;
}

/*
 * One pass of remeasure(): units u[0..n), sorted by step, measured a step
 * at a time.  Once the run has waited --shared-wait for a shared core,
 * the patient units left are dropped; the time of each step goes to the
 * wait in the share of its units that are patient.  0 or -ENOMEM.
 */
static int measure_pass(struct run_state *st, struct again_unit *u, size_t n, size_t total)
{
	struct cbench_report *r = &st->report;
	int ret = 0;

	for (size_t a = 0, b; a < n && !ret && !cbench_session_stopped(); a = b) {
		bool over = r->shared_waited_s >= r->settings.shared_wait_s;
		size_t m = 0, patient = 0;
		double t0 = now_s();

		for (b = a + 1; b < n && u[b].step == u[a].step; b++)
			;
		for (size_t k = a; k < b; k++) {
			if (u[k].patient && over)
				continue;
			patient += u[k].patient;
			u[a + m++] = u[k];
		}
		if (!m)
			continue;
		ret = measure_again(st, u + a, m, total);
		if (patient)
			r->shared_waited_s += (now_s() - t0) * (double)patient / (double)m;
	}
	return ret;
}

/* The trials of res's first n that it keeps (measured, not set aside), or
 * of those, the ones whose core was its own (unshared). */
static size_t kept_trials(const struct cbench_result *res, size_t n, bool unshared)
{
	size_t kept = 0;

	for (size_t j = 0; j < n && j < res->ntrials; j++) {
		const struct cbench_trial *t = &res->trials[j];

		kept += !t->error && t->valid && !t->set_aside &&
			!(unshared && t->cause == CBENCH_TRIAL_SHARED);
	}
	return kept;
}

/*
 * --precision on several CPUs: its rounds run on all of them, and then
 * each benchmark measured gets one trial more, alone on the first CPU (in
 * one standing worker, as trials measured again are), which tells whether
 * it measures differently beside others (report_jobs.c), as the last round
 * of a run of --trials does.  0 or -ENOMEM; a signal leaves what finished.
 */
static int measure_alone(struct run_state *st, size_t total)
{
	struct cbench_report *r = &st->report;
	struct again_unit *u = malloc((r->nresults ? r->nresults : 1) * sizeof(*u));
	size_t n = 0;
	int ret;

	if (!u)
		return -ENOMEM;
	for (size_t i = 0; i < r->nresults; i++) {
		const struct cbench_result *res = &r->results[i];

		/* One kept trial or none: nothing to compare it with. */
		if (!res->carried && strcmp(res->tuning, "failed") &&
		    kept_trials(res, res->ntrials, false) >= 2)
			u[n++] = (struct again_unit){ i, SIZE_MAX, 0, SIZE_MAX, false };
	}
	ret = n ? measure_again(st, u, n, total) : 0;
	free(u);
	return ret;
}

/*
 * How many of res's trials set aside remeasure() measures again at most:
 * all of them, but where --precision stopped it (its rounds made up for
 * what they set aside while they went on), only as many as it lacks of
 * the CBENCH_PRECISION_MIN_TRIALS unshared kept trials it is judged on: a
 * run whose time ran out while another thread shared the core goes on
 * for them as long as --shared-wait allows, as a run of --trials does.
 */
static size_t precision_need(const struct cbench_result *res)
{
	size_t kept;

	if (!res->stop)
		return SIZE_MAX;
	kept = kept_trials(res, res->ntrials, true);
	return kept < CBENCH_PRECISION_MIN_TRIALS ? CBENCH_PRECISION_MIN_TRIALS - kept : 0;
}

/*
 * Measures again each trial that the run's trials together set aside as
 * disturbed (report.c, stats/trials.c): at another moment, after every
 * round, and again for a replacement the trials then set aside, until each
 * benchmark keeps as many trials as --trials asked (failed trials apart)
 * or has been measured again --trials times; in place of trials whose core
 * was shared, more (replacements_max()) while the run has waited less
 * than --shared-wait on them.  Each step measures the
 * first replacement each benchmark needs, in one standing worker, then
 * the second, in another: each benchmark's trials are still each in a
 * worker of their own.  A set-aside trial stays in the report, marked,
 * and set aside.  On a terminal the rows of benchmarks measured again are
 * printed again.  0 or -ENOMEM.
 */
static int remeasure(struct run_state *st, size_t total)
{
	struct cbench_report *r = &st->report;
	bool again = false, more = true;
	int ret = 0;

	while (more && !ret && !cbench_session_stopped()) {
		struct again_unit *u;
		size_t n = 0, cap = 0;

		r->waiting_shared = r->shared_waited_s < r->settings.shared_wait_s;
		cbench_report_summarize(r);
		/* At most one unit a trial. */
		for (size_t i = 0; i < r->nresults; i++)
			cap += r->results[i].ntrials;
		u = malloc((cap ? cap : 1) * sizeof(*u));
		if (!u)
			return -ENOMEM;
		for (size_t i = 0; i < r->nresults; i++) {
			struct cbench_result *res = &r->results[i];
			size_t asked = res->carried ? 0 : res->ntrials, done = 0, k = 0;
			size_t need = precision_need(res);

			for (size_t j = 0; j < res->ntrials; j++)
				done += res->trials[j].replacement;
			for (size_t j = 0; j < asked; j++) {
				const struct cbench_trial *t = &res->trials[j];

				if (!t->set_aside || t->replaced || k >= need ||
				    done >= replacements_max(st, t, r->waiting_shared))
					continue;
				/* Past the --trials every trial gets: the wait's. */
				u[n++] = (struct again_unit){ i, j, k++, SIZE_MAX,
							      done++ >= replacements_max(st, t, false) };
			}
		}
		qsort(u, n, sizeof(*u), by_step);
		ret = measure_pass(st, u, n, total);
		again = again || n;
		more = n > 0;
		free(u);
	}
	if (ret)
		return ret;
	if (cbench_session_stopped()) {
		r->interrupted = cbench_session_stopped();
		r->trials_asked = st->opt->trials;
		r->trials_kept = 0;
		/* The most rounds a benchmark finished (under --precision, fewer
		 * than --trials). */
		for (size_t i = 0; i < r->nresults; i++) {
			size_t rounds = cbench_result_rounds(&r->results[i]);

			r->trials_kept = rounds > r->trials_kept ? rounds : r->trials_kept;
		}
		r->not_run = 0;
	}
	/* Nothing more is measured: shared trials may come back (report.c). */
	r->waiting_shared = false;
	cbench_report_summarize(r);
	cbench_session_progress(&st->s, 0, 0, NULL, NULL);
	/* Rows printed as the last round finished them (not under
	 * --precision: streams()) are printed again where they changed; the
	 * table's rest follows them (show_table()). */
	if (!again || !st->streamed)
		return 0;
	fprintf(stderr, "measured again in place of trials set aside as disturbed:\n");
	for (size_t i = 0, streamed = st->streamed; i < r->nresults; i++) {
		const struct cbench_result *res = &r->results[i];

		if (res->ntrials && res->trials[res->ntrials - 1].replacement)
			stream_row(st, &r->results[i]);
		st->streamed = streamed;
	}
	return 0;
}

/*
 * Rounds of trials from round first on, `lanes` CPUs at once (0: all the
 * session's), each unit trial t of the benchmark at place i of round t
 * (round_place()), in the order t, then i.
 */
struct rounds {
	struct run_state *st;
	size_t first, total;
	bool solo;
};

static struct cbench_trial *round_begin(void *arg, size_t unit, size_t lane,
					struct cbench_worker_job *job)
{
	struct rounds *ro = arg;
	struct run_state *st = ro->st;
	size_t nres = st->report.nresults, t = ro->first + unit / nres;
	size_t i = round_result(st, t, unit % nres);
	struct cbench_result *res = &st->report.results[i];

	if (streams(st, t) && i == 0)
		stream_row(st, NULL);
	if (res->carried || !strcmp(res->tuning, "failed") || t < res->carried_trials || res->stop) {
		if (!res->carried && t >= res->carried_trials && !res->stop)
			cbench_session_done(&st->s);
		if (streams(st, t))
			stream_row(st, res);
		return NULL;
	}
	*job = trial_job(st, res, t, i, ro->total, lane);
	/* A round's trials may share a worker: each benchmark's trials are
	 * still each in a worker of its own. */
	if (!st->opt->fresh_workers)
		job->share = t + 1;
	res->trials[t].solo = ro->solo;
	return &res->trials[t];
}

static void round_end(void *arg, size_t unit, size_t lane)
{
	struct rounds *ro = arg;
	struct run_state *st = ro->st;
	size_t nres = st->report.nresults, t = ro->first + unit / nres;
	struct cbench_result *res = &st->report.results[round_result(st, t, unit % nres)];

	(void)lane;
	trial_done(st, res, &res->trials[t]);
	cbench_session_done(&st->s);
	if (streams(st, t))
		stream_row(st, res);
}

/* Rounds first .. last - 1 on lanes CPUs; true if a signal stopped them
 * (the run then holds what finished). */
static bool rounds_on(struct run_state *st, size_t total, size_t first, size_t last,
		      size_t lanes)
{
	struct rounds ro = { .st = st, .first = first, .total = total,
			     .solo = lanes == 1 && st->s.nlanes > 1 };
	struct cbench_lane_work w = { .begin = round_begin, .end = round_end, .arg = &ro,
				      .limit_s = st->opt->time_limit_s };
	size_t nres = st->report.nresults, units = (last - first) * nres;
	size_t done = cbench_session_trials(&st->s, units, lanes, &w);

	if (!cbench_session_stopped())
		return false;
	stopped(st, first + done / nres, done % nres);
	return true;
}

/* The part of the run res's first n trials span, first start to last end. */
static double trials_span(const struct cbench_result *res, size_t n)
{
	double first = INFINITY, last = -INFINITY;

	for (size_t j = 0; j < n && j < res->ntrials; j++) {
		const struct cbench_trial *t = &res->trials[j];

		if (!t->samples)
			continue;
		first = fmin(first, t->start_s);
		last = fmax(last, t->end_s);
	}
	return last > first ? last - first : 0;
}

/*
 * How precise res's headline is, as --precision judges it: est-cycles/op's
 * interval where every kept trial has one (the clock's level taken out, the
 * figure compare gates on), else ns/op's; half its width over the headline.
 */
static void judge_precision(struct cbench_result *res)
{
	res->stop_est = isfinite(res->est_lo) && isfinite(res->est_hi) && res->est_cycles_per_op > 0;
	res->stop_half = res->stop_est ? (res->est_hi - res->est_lo) / 2 / res->est_cycles_per_op :
			 res->ns_per_op > 0 ? (res->ns_hi - res->ns_lo) / 2 / res->ns_per_op : INFINITY;
}

/*
 * After round t of measure_precise(): each benchmark still open that keeps
 * five trials or more, precise enough, whose trials span at least span
 * seconds of the run, stops.  How many are left open.
 */
static size_t judge_round(struct run_state *st, size_t t, double span)
{
	struct cbench_report *r = &st->report;
	size_t open = 0;

	cbench_report_summarize_round(r);
	for (size_t i = 0; i < r->nresults; i++) {
		struct cbench_result *res = &r->results[i];

		if (res->stop || res->carried || !strcmp(res->tuning, "failed"))
			continue;
		judge_precision(res);
		res->stop_auto = st->opt->precision_auto;
		if (kept_trials(res, t + 1, false) >= CBENCH_PRECISION_MIN_TRIALS &&
		    res->stop_half <= st->opt->precision && trials_span(res, t + 1) >= span) {
			res->stop = CBENCH_STOP_PRECISE;
			res->stop_close = true;
			res->ntrials = t + 1;
			continue;
		}
		open++;
	}
	return open;
}

/*
 * Room for round t's trial in each benchmark still measured: under
 * --precision a benchmark's trials start at CBENCH_TRIALS_DEFAULT and
 * double as it needs them, up to --trials (a suite of thousands that stops
 * at five would hold fifty for each).  ntrials counts the trials a
 * benchmark has room for; those not measured yet are zero.  0 or -ENOMEM.
 */
static int trials_room(struct run_state *st, size_t t)
{
	struct cbench_report *r = &st->report;

	for (size_t i = 0; i < r->nresults; i++) {
		struct cbench_result *res = &r->results[i];
		struct cbench_trial *trials;
		size_t room;

		if (t < res->ntrials || res->stop || res->carried || !strcmp(res->tuning, "failed"))
			continue;
		room = res->ntrials * 2 < st->opt->trials ? res->ntrials * 2 : st->opt->trials;
		if (room <= t)
			room = t + 1;
		trials = realloc(res->trials, room * sizeof(*trials));
		if (!trials)
			return -ENOMEM;
		memset(&trials[res->ntrials], 0, (room - res->ntrials) * sizeof(*trials));
		res->trials = trials;
		res->ntrials = room;
	}
	return 0;
}

/*
 * --precision: after each round from the fifth on, each benchmark whose
 * headline interval lies within the precision of its headline, either way,
 * takes no more trials (CBENCH_STOP_PRECISE); the others go on, to --trials
 * (CBENCH_STOP_MOST), or until --budget's seconds of rounds have passed
 * (CBENCH_STOP_BUDGET; auto: as long as CBENCH_TRIALS_DEFAULT rounds would
 * take, from the time the first CBENCH_PRECISION_MIN_TRIALS took, so that a
 * run never takes much longer than one of that many trials each, and what
 * the precise benchmarks leave goes to the noisy ones).  Every round runs
 * on every CPU of the session (measure_alone() then measures each benchmark
 * once alone).  1 if a signal stopped the run, 0, or -ENOMEM.
 */
static int measure_precise(struct run_state *st, size_t total)
{
	struct cbench_report *r = &st->report;
	double began = now_s(), budget = st->opt->budget_s, span = 0;
	size_t open = r->nresults;
	int err;

	/* Trials set aside are made up for by the rounds that follow, and
	 * after them (remeasure()) only up to the five a benchmark is judged
	 * on; a shared trial comes back only once nothing more will be
	 * measured (report.c). */
	r->waiting_shared = !st->opt->keep_shared;
	for (size_t t = 0; t < st->opt->trials && open; t++) {
		if (budget > 0 && t >= CBENCH_PRECISION_MIN_TRIALS && now_s() - began > budget)
			break;
		err = trials_room(st, t);
		if (err || rounds_on(st, total, t, t + 1, 0)) {
			r->waiting_shared = false;
			return err ? err : 1;
		}
		if (t + 1 == CBENCH_PRECISION_MIN_TRIALS) {
			double round_s = (now_s() - began) / CBENCH_PRECISION_MIN_TRIALS;

			if (budget < 0)
				budget = r->settings.budget_s = CBENCH_TRIALS_DEFAULT * round_s;
			/* The default stops none whose trials span less of
			 * the run than ten would (less two rounds' slack,
			 * half a second at most): their interval, however
			 * narrow, has not met the host's moments
			 * (results.md). */
			if (st->opt->precision_auto)
				span = fmin(CBENCH_RUN_SPAN_S, (CBENCH_TRIALS_DEFAULT - 2) * round_s);
		}
		if (t + 1 >= CBENCH_PRECISION_MIN_TRIALS)
			open = judge_round(st, t, span);
	}
	for (size_t i = 0; i < r->nresults; i++) {
		struct cbench_result *res = &r->results[i];
		size_t done = 0;

		if (res->stop || res->carried || !strcmp(res->tuning, "failed"))
			continue;
		while (done < res->ntrials && (res->trials[done].samples || res->trials[done].error))
			done++;
		/* Judged (stop_close too) once the run measures no more
		 * (measure_all()). */
		res->stop_auto = st->opt->precision_auto;
		res->stop = done < st->opt->trials ? CBENCH_STOP_BUDGET : CBENCH_STOP_MOST;
		res->ntrials = done;
	}
	r->waiting_shared = false;
	return 0;
}

/*
 * Trials round-robin over the benchmarks: trial t of every benchmark, then
 * trial t + 1.  Each benchmark's trials then span the whole run, so one
 * stretch of a busy machine (a noisy neighbour, a host frequency dip)
 * cannot spoil all of them at once.  On several CPUs, every round but the
 * last runs on all of them, and the last on one: each benchmark's trial
 * alone tells whether it measures differently beside others
 * (report_jobs.c).  On a terminal the last round prints each benchmark's
 * row as it finishes.  1 if a signal stopped the run, 0, or -ENOMEM.
 */
static int measure_rounds(struct run_state *st, size_t total)
{
	size_t trials = st->opt->trials;

	if (st->opt->precision > 0)
		return measure_precise(st, total);

	if (st->s.nlanes > 1 && trials > 1)
		return rounds_on(st, total, 0, trials - 1, 0) ||
		       rounds_on(st, total, trials - 1, trials, 1);
	return rounds_on(st, total, 0, trials, 0);
}

/* Tunes every selected benchmark, then runs the trials.  0 or -ENOMEM. */
static int measure_all(struct run_state *st)
{
	const struct cbench_run_options *opt = st->opt;
	/* Under --precision, room for ten trials as a rule (trials_room()
	 * adds more as they are needed), not the most. */
	size_t total = st->s.nchosen, planned = 0,
	       room = opt->precision > 0 && opt->trials > CBENCH_TRIALS_DEFAULT ?
		      CBENCH_TRIALS_DEFAULT : opt->trials;
	double t0;
	int err;

	st->report.results = calloc(total, sizeof(*st->report.results));
	st->tuned = calloc(total ? total : 1, sizeof(*st->tuned));
	if (!st->report.results || !st->tuned)
		return -ENOMEM;
	for (size_t k = 0; k < total && !cbench_session_stopped(); ) {
		struct cbench_result *res = &st->report.results[k];
		int ret;

		res->exp = st->s.chosen[k];
		res->ntrials = room;
		res->trials = calloc(room, sizeof(*res->trials));
		if (!res->trials)
			return -ENOMEM;
		ret = st->resume ? cbench_resume_carry(st->resume, res) : 0;
		if (ret < 0)
			return ret;
		st->report.nresults += ret;
		k += ret;
		if (ret)
			continue;
		/* On several CPUs under --precision, the trial alone too. */
		planned += room - res->carried_trials + (opt->precision > 0 && st->s.nlanes > 1);
		st->report.nresults = ++k;
		tune_experiment(st, res, k - 1, total);
	}
	store_tuned(st);
	if (cbench_session_stopped()) {
		stopped(st, 0, 0);
		return 0;
	}
	cbench_session_plan(&st->s, planned);
	t0 = now_s();
	err = measure_rounds(st, total);
	if (err)
		return err < 0 ? err : 0;
	st->report.settings.shared_wait_s = shared_wait(st, now_s() - t0);
	if (opt->precision > 0 && st->s.nlanes > 1) {
		err = measure_alone(st, total);
		if (err)
			return err;
	}
	cbench_session_progress(&st->s, 0, 0, NULL, NULL);
	err = remeasure(st, total);
	/* The interval a stop names is the headline's, after what was
	 * measured after the rounds. */
	for (size_t i = 0; !err && i < st->report.nresults; i++) {
		struct cbench_result *res = &st->report.results[i];

		if (!res->stop)
			continue;
		judge_precision(res);
		res->stop_close = res->stop_half <= opt->precision;
	}
	return err;
}

/*
 * All or nothing: the samples go into place first, then the report; a
 * report that cannot be written takes the samples back out with it.
 * Returns 0, or -1 after saying why.
 */
static int write_outputs(const struct run_state *st)
{
	struct cbench_outfile *const *out = st->out, *samples = st->samples;
	const struct cbench_run_options *opt = st->opt;
	unsigned int which;
	int ret = 0;

	if (opt->samples) {
		ret = cbench_report_csv(&st->report, samples->file);
		ret = ret ? ret : cbench_outfile_commit(samples);
		if (ret) {
			cbench_err("unable to write %s: %s\n", opt->samples,
				cbench_outfile_error(samples, ret));
			return -1;
		}
	}
	for (which = 0; which < opt->nreports && !ret; which++)
		ret = write_report(st, out[which], opt->reports[which].format);
	if (!ret)
		return 0;
	which--;
	cbench_err("unable to write %s: %s\n",
		   opt->reports[which].path ? opt->reports[which].path : "the report",
		   cbench_outfile_error(out[which], ret));
	/* Only files we renamed into place: never a device. */
	for (unsigned int k = 0; k < which; k++) {
		if (cbench_outfile_retract(out[k]) == 0)
			cbench_err("removed %s, which goes with it\n", opt->reports[k].path);
	}
	for (unsigned int k = which + 1; k < opt->nreports; k++)
		cbench_outfile_abort(out[k]);
	if (opt->samples && cbench_outfile_retract(samples) == 0)
		cbench_err("removed %s, which goes with it\n", opt->samples);
	return -1;
}

/* A run stopped before any trial finished: nothing to write.  128 + signal. */
static int nothing_kept(const struct run_state *st)
{
	cbench_session_progress(&st->s, 0, 0, NULL, NULL);
	cbench_err("interrupted (%s) before any trial finished: nothing kept\n", strsignal(cbench_session_stopped()));
	return 128 + cbench_session_stopped();
}

/*
 * Each benchmark whose trials left something behind in their standing
 * workers (each then ended, and the next trial started a new one: a few
 * milliseconds more a trial), once, with what: the author can free or
 * undo it.
 */
static void note_leftovers(const struct run_state *st)
{
	for (size_t i = 0; i < st->report.nresults; i++) {
		const struct cbench_result *res = &st->report.results[i];
		unsigned int left = 0, trials = 0;
		char what[512];

		for (size_t t = 0; t < res->ntrials; t++) {
			/* A process left fails the trial, which says so. */
			unsigned int l = res->trials[t].left & ~(unsigned int)CBENCH_LEFT_PROCESS;

			left |= l;
			trials += l != 0;
		}
		if (!left)
			continue;
		cbench_leftover_describe(left, what, sizeof(what));
		cbench_err("%s left behind in its worker after %u trial%s: %s; each such trial ends "
			   "its worker, and the next starts another (a few milliseconds more)\n",
			   res->exp->report_name, trials, trials == 1 ? "" : "s", what);
	}
}

/*
 * The table: on a terminal the rows the last round did not print (all of
 * them if it never began), then the foot; elsewhere all of it.  Then what
 * benchmarks left behind in their workers.
 */
static void show_table(const struct run_state *st)
{
	const struct cbench_report *r = &st->report;
	bool colour = cbench_colour(STDERR_FILENO);

	if (!st->s.tty) {
		cbench_report_table(r, stderr, colour);
	} else {
		if (!st->streamed)
			cbench_report_table_head(r, stderr, colour);
		for (size_t i = st->streamed; i < r->nresults; i++)
			cbench_report_table_row(r, &r->results[i], stderr, colour);
		cbench_report_table_foot(r, stderr, colour);
	}
	note_leftovers(st);
}

/* What the run comes to once written: its exit status, said. */
static int finish(struct run_state *st)
{
	const struct cbench_report *r = &st->report;
	char where[8192];

	store_widths(st);
	/* Every file kept: the reports, then the raw measurements. */
	where[0] = '\0';
	for (unsigned int i = 0, n = st->opt->nreports + !!st->opt->samples; i < n; i++) {
		const char *p = i < st->opt->nreports ? st->opt->reports[i].path : st->opt->samples;

		snprintf(where + strlen(where), sizeof(where) - strlen(where), "%s%s",
			 i == 0 ? "" : i + 1 == n ? " and " : ", ",
			 p && strcmp(p, "-") ? p : "standard output");
	}

	if (st->no_report && st->opt->nreports)
		cbench_err("no report written (standard output is a terminal): -o FILE writes it, -o - "
			   "prints it here\n");
	if (r->interrupted) {
		cbench_err("interrupted (%s): kept %zu trial%s of %zu at most, of %zu benchmark%s (%zu "
			   "not run)%s%s, marked as an interrupted run\n", strsignal(r->interrupted), r->trials_kept, r->trials_kept == 1 ? "" : "s",
			   r->trials_asked, r->nresults, r->nresults == 1 ? "" : "s", r->not_run,
			   st->no_report || !*where ? "" : " in ", st->no_report ? "" : where);
		return 128 + r->interrupted;
	}
	if (r->failed_trials) {
		/* A composite judges its failed trials itself. */
		if (!st->taker || !st->taker->quiet)
			cbench_err("%zu trial%s failed\n", r->failed_trials, r->failed_trials == 1 ? "" : "s");
		return 1;
	}
	return 0;
}

/* --store, before anything is measured: the store must take this run. */
static int check_store(const struct cbench_run_options *o)
{
	char err[CBENCH_ERR_LEN * 2];
	const char *base = strrchr(o->so_path, '/');

	if (!cbench_store_check_before(o->store, base ? base + 1 : o->so_path, o->commit, o->order, err,
				       sizeof(err)))
		return 0;
	cbench_err("unable to run into the store %s: %s; nothing was measured\n", o->store, err);
	return -1;
}

/*
 * Under CBENCH_COSTS (a developer's aid: bench/night_scale.sh), where the
 * trials' wall time went, stage by stage (session/phase.h), as a mean per
 * trial that reached it, on stderr.
 */
static void print_costs(void)
{
	struct cbench_phase_costs c;

	if (!getenv("CBENCH_COSTS"))
		return;
	cbench_phase_costs(&c);
	fprintf(stderr, "%s: trial costs, means over %zu trials:", cbench_prog, c.trials);
	for (int k = 0; k < CBENCH_PHASE_STAGES; k++)
		fprintf(stderr, "%s %s %.3f ms", k ? "," : "", cbench_phase_stage_names[k],
			c.n[k] ? 1e3 * c.s[k] / (double)c.n[k] : 0.0);
	fprintf(stderr, "; the runner between trials %.3f ms (%zu times)\n",
		c.between_n ? 1e3 * c.between_s / (double)c.between_n : 0.0, c.between_n);
}

int cbench_run(const struct cbench_run_options *o, const struct cbench_run_taker *taker)
{
	struct cbench_run_options opt = *o;
	struct cbench_resume resume = { 0 };
	struct run_state st = { .opt = &opt, .taker = taker };
	struct cbench_session_config cfg;
	int ret, status = 1;

	if (opt.resume) {
		ret = cbench_resume_open(&resume, opt.resume, &opt);
		if (ret) {
			cbench_resume_close(&resume);
			return ret > 0 ? 0 : 1;
		}
		st.resume = &resume;
	}
	/* A resumed run lays code out as the run it goes on with did. */
	if (!opt.have_seed && st.resume && cbench_resume_seed(st.resume, &opt.seed))
		opt.have_seed = true;
	if (!opt.have_seed && cbench_random_seed(&opt.seed)) {
		cbench_err("unable to read a seed from /dev/urandom; give one with --seed\n");
		cbench_resume_close(&resume);
		return 1;
	}
	if (opt.store && check_store(&opt)) {
		cbench_resume_close(&resume);
		return 1;
	}
	st.lnt = (struct cbench_lnt_run){ .machine = opt.machine_name, .order = opt.order };
	cfg = (struct cbench_session_config){
		.cmd = "run", .doing = "measuring", .objects = { opt.so_path }, .nobjects = 1,
		.select = true, .filter = opt.filter, .backend = opt.backend, .quiet = opt.quiet,
		.cpu = opt.cpu, .jobs = opt.jobs, .cpus = opt.cpus,
		.load_limit_s = opt.time_limit_s, .stoppable = true,
	};
	if (cbench_session_open(&st.s, &cfg) || open_outputs(&st))
		goto out;
	/* A composite that prints its own report shows no progress either. */
	if (taker && taker->quiet)
		st.s.tty = false;
	if (cbench_session_start(&st.s)) {
		status = cbench_session_stopped() ? nothing_kept(&st) : 1;
		goto out;
	}
	cbench_phase_costs_reset();
	start(&st);
	plan_layouts(&st);
	if (st.resume && cbench_resume_check(st.resume, &st.s))
		goto out;
	if (measure_all(&st)) {
		cbench_err("unable to run: out of memory\n");
		goto out;
	}
	if (cbench_session_stopped() && !st.report.nresults) {
		status = nothing_kept(&st);
		goto out;
	}
	print_costs();
	if (st.resume)
		cbench_resume_mark(st.resume, &st.report);
	cbench_report_summarize(&st.report);
	if (!taker || !taker->quiet)
		show_table(&st);
	if (write_outputs(&st))
		goto out;
	status = finish(&st);
	if (opt.store && !st.report.interrupted &&
	    cbench_store_add_run(&st.report, opt.store, opt.commit, opt.order, opt.keep_dir,
				 opt.machine_name))
		status = 1;
	/* A stopped run's status says the signal, whatever the taker says. */
	if (taker && taker->take(&st.report, taker->arg) && status <= 1)
		status = 1;
out:
	free_results(&st.report);
	cbench_cache_free(&st.cache);
	free(st.tuned);
	cbench_session_close(&st.s);
	cbench_resume_close(&resume);
	return status;
}

/* A composite's taker, wrapped: whether its run handed the report over. */
struct composite {
	const struct cbench_run_taker *taker;
	bool taken;
};

static int take_composite(const struct cbench_report *report, void *arg)
{
	struct composite *c = arg;
	int ret = c->taker->take(report, c->taker->arg);

	c->taken = !ret;
	return ret;
}

int cbench_run_composite(const char *cmd, const char *what, const struct cbench_run_options *o,
			 const struct cbench_run_taker *taker)
{
	struct composite c = { .taker = taker };
	const struct cbench_run_taker wrapped = { .take = take_composite, .arg = &c,
						  .quiet = taker->quiet };

	/* A failed trial is the composite's business, not the run's: status 1 is fine. */
	cbench_run(o, &wrapped);
	if (cbench_session_stopped()) {
		cbench_err("%s: interrupted (%s)\n", cmd, strsignal(cbench_session_stopped()));
		return 128 + cbench_session_stopped();
	}
	if (!c.taken) {
		cbench_err("%s: %s did not run on the %s backend\n", cmd, what,
			   o->backend == CBENCH_BACKEND_KMOD ? "kmod" : "user");
		return -1;
	}
	return 0;
}
