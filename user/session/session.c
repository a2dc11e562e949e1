// SPDX-License-Identifier: GPL-2.0
/* A measuring session; see session.h. */
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "machine/clock.h"
#include "machine/cpulock.h"
#include "session/collect.h"
#include "session/select.h"
#include "session/session.h"
#include "stats/tune.h"

/* Limit for the calibration worker, in seconds; it needs well under one. */
#define CALIBRATE_TIME_LIMIT_S 30.0
/* Fresh workers that each run Alg. 1 when a benchmark is tuned. */
#define TUNE_WORKERS 3

/* The signal that stopped the session, and whether one may. */
static volatile sig_atomic_t stop_signal, stoppable;

static void on_signal(int sig)
{
	if (stoppable && !stop_signal) {
		stop_signal = sig;
		cbench_phase_stop();
		return;
	}
	cbench_phase_abort();
	cbench_outfile_cleanup_and_die(sig);
}

int cbench_session_stopped(void)
{
	return stop_signal;
}

/* The runner keeps off the workers' CPUs, where any other is left, so
 * that reading a pipe never preempts a measurement. */
static void keep_off(const struct cbench_session *s, const cpu_set_t *set)
{
	cpu_set_t others = *set;

	for (size_t i = 0; i < s->nlanes; i++)
		CPU_CLR(s->lane[i].cpu, &others);
	if (CPU_COUNT(&others))
		sched_setaffinity(0, sizeof(others), &others);
}

/* The worker's CPU: wanted, or the last we may use (-1).  shared_cpu:
 * there is no other for the runner. */
static int pick_cpu(struct cbench_session *s, int wanted)
{
	cpu_set_t set;
	int last = -1;

	if (sched_getaffinity(0, sizeof(set), &set))
		return -errno;
	for (int i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &set))
			last = i;
	if (wanted >= 0 && !CPU_ISSET(wanted, &set))
		return -EINVAL;
	s->lane[0].cpu = wanted >= 0 ? wanted : last;
	s->nlanes = 1;
	s->shared_cpu = CPU_COUNT(&set) == 1;
	keep_off(s, &set);
	return 0;
}

/*
 * In ring 0 each run has a CPU of its own to watch its calls (cbench.ko
 * refuses a run whose watcher measures or watches another): the lanes'
 * watchers are online CPUs none of them measures on, one each, and the
 * module must take as many runs at once.  0, or -1 with the reason and
 * what to do instead in err.
 */
static int ring0_watchers(struct cbench_session *s, const struct cbench_cpu_choice *c, char *err,
			  size_t errlen)
{
	int others[CBENCH_JOBS_MAX], have;
	unsigned int runs = 0;

	if (cbench_backend_kmod_runs_max(&runs)) {
		snprintf(err, errlen, "cbench.ko does not say how many runs it takes at once");
		return -1;
	}
	if (runs < c->n) {
		snprintf(err, errlen, "cbench.ko takes %u run%s at once (its runs_max): load it with "
			 "runs_max=%zu to measure on %zu CPUs in ring 0, or give --backend user",
			 runs, runs == 1 ? "" : "s", c->n, c->n);
		return -1;
	}
	have = cbench_cpus_others(c, others, c->n);
	if (have < 0) {
		snprintf(err, errlen, "unable to list the online CPUs: %s", strerror(-have));
		return -1;
	}
	for (int i = 0; i < have; i++)
		s->lane[i].watcher = others[i];
	if ((size_t)have == c->n)
		return 0;
	snprintf(err, errlen, "in ring 0 each CPU measuring needs another to watch its calls: "
		 "%zu CPUs at once need %zu online, and %zu are; measure on %zu at once, or give "
		 "--backend user", c->n, 2 * c->n, c->n + have, (c->n + have) / 2);
	return -1;
}

/* Several CPUs (--jobs, --cpus): machine/cpus.h chooses.  Their workers
 * keep SCHED_FIFO even where the runner has no CPU of its own: it reads
 * their pipes while they write, between measurements.  0, or -1 after
 * saying why. */
static int pick_cpus(struct cbench_session *s)
{
	struct cbench_cpu_choice c;
	char err[CBENCH_ERR_LEN];
	cpu_set_t set;

	if (cbench_cpus_choose(&c, s->cfg.jobs, s->cfg.cpus, err, sizeof(err)) ||
	    (s->ops == &cbench_backend_kmod && ring0_watchers(s, &c, err, sizeof(err)))) {
		cbench_err("unable to %s on several CPUs: %s\n", s->cfg.cmd, err);
		return -1;
	}
	for (size_t i = 0; i < c.n; i++)
		s->lane[i].cpu = c.cpu[i];
	s->nlanes = c.n;
	if (!sched_getaffinity(0, sizeof(set), &set))
		keep_off(s, &set);
	return 0;
}

/*
 * The backend: kmod needs cbench.ko, root and kernel-safe objects; auto
 * takes it where it can and says why when it cannot.  0, or -1 after
 * saying why.
 */
static int pick_backend(struct cbench_session *s)
{
	char err[CBENCH_ERR_LEN];

	if (s->cfg.user_only) {
		s->ops = &cbench_backend_user;
		return 0;
	}
	if (cbench_backend_select(s->cfg.backend, &s->ops)) {
		cbench_err("unable to use the kmod backend: cbench.ko is not loaded, or we are not root\n");
		return -1;
	}
	/* Ring 0 takes only self-contained objects; auto falls back to user mode. */
	for (size_t i = 0; s->ops == &cbench_backend_kmod && i < s->nlib; i++) {
		if (!cbench_backend_kmod_check(s->lib[i].path, err, sizeof(err)))
			continue;
		if (s->cfg.backend == CBENCH_BACKEND_KMOD) {
			cbench_err("unable to use the kmod backend: %s\n", err);
			return -1;
		}
		cbench_err("%s in user mode: %s\n", s->cfg.doing, err);
		s->ops = &cbench_backend_user;
	}
	return 0;
}

/* The benchmarks of the first object that the filter lets through. */
static int choose(struct cbench_session *s)
{
	struct cbench_filter filter;
	size_t total = 0;
	int ret = -1;

	if (cbench_filter_init(&filter, s->cfg.filter))
		return -1;
	if (cbench_filter_select(&filter, &s->lib[0], s->cfg.cmd, s->cfg.objects[0], &total))
		goto out;
	s->chosen = calloc(total, sizeof(*s->chosen));
	if (!s->chosen) {
		cbench_err("unable to %s: out of memory\n", s->cfg.cmd);
		goto out;
	}
	for (size_t i = 0; s->nchosen < total; )
		s->chosen[s->nchosen++] = cbench_filter_next(&filter, &s->lib[0], &i);
	ret = 0;
out:
	cbench_filter_free(&filter);
	return ret;
}

int cbench_session_open(struct cbench_session *s, const struct cbench_session_config *cfg)
{
	char err[CBENCH_ERR_LEN];

	memset(s, 0, sizeof(*s));
	s->cfg = *cfg;
	s->affinity_saved = !sched_getaffinity(0, sizeof(s->affinity), &s->affinity);
	for (size_t i = 0; i < CBENCH_JOBS_MAX; i++)
		s->lane[i].lock = s->lane[i].watcher = -1;
	s->tty = isatty(STDERR_FILENO);
	cbench_sw_events_hold(s->sw_held);
	s->sw_holding = true;
	stoppable = cfg->stoppable;
	cbench_outfile_handle_signals(on_signal);
	for (; s->nlib < cfg->nobjects; s->nlib++) {
		if (cbench_library_open(&s->lib[s->nlib], cfg->objects[s->nlib], cfg->load_limit_s,
					err, sizeof(err))) {
			cbench_err("unable to load benchmarks: %s\n", err);
			return -1;
		}
	}
	if (pick_backend(s) || (cfg->select && choose(s)))
		return -1;
	if (cfg->jobs > 1 || cfg->cpus)
		return pick_cpus(s);
	if (pick_cpu(s, cfg->cpu)) {
		cbench_err("unable to use CPU %d: it is not online or not allowed to us\n", cfg->cpu);
		return -1;
	}
	return 0;
}

struct cbench_outfile *cbench_session_output(struct cbench_session *s, const char *path)
{
	struct cbench_outfile *out = &s->out[s->nout];
	int ret;

	if (s->nout == CBENCH_SESSION_OUTPUTS) {
		cbench_err("unable to write %s: a command writes %d files at most\n",
			   path ? path : "standard output", CBENCH_SESSION_OUTPUTS);
		return NULL;
	}
	ret = cbench_outfile_open(out, path);
	if (ret) {
		cbench_err("unable to write %s: %s\n", path ? path : "standard output",
			   cbench_outfile_error(out, ret));
		return NULL;
	}
	s->nout++;
	return out;
}

/* Calibrates the timer on every lane's CPU at once.  0, or -1 after
 * saying why. */
static int calibrate(struct cbench_session *s)
{
	struct cbench_worker_job *jobs = calloc(s->nlanes, sizeof(*jobs));
	struct cbench_phase_end *ends = calloc(s->nlanes, sizeof(*ends));
	struct cbench_timer *timers = calloc(s->nlanes, sizeof(*timers));
	int ret = -1;

	if (!jobs || !ends || !timers) {
		cbench_err("unable to calibrate the timer: out of memory\n");
		goto out;
	}
	for (size_t i = 0; i < s->nlanes; i++) {
		jobs[i] = cbench_session_job_on(s, i, CBENCH_WORKER_CALIBRATE, NULL,
						CALIBRATE_TIME_LIMIT_S);
		/* The calibration's worker ends itself only at the runner's limit. */
		jobs[i].rt_limit_s = CALIBRATE_TIME_LIMIT_S;
	}
	cbench_collect_calibrations(jobs, s->nlanes, CALIBRATE_TIME_LIMIT_S, timers, ends);
	ret = 0;
	for (size_t i = 0; i < s->nlanes; i++) {
		s->lane[i].timer = timers[i];
		s->lane[i].env = ends[i].env;
		if (!ends[i].error)
			continue;
		if (s->nlanes > 1)
			cbench_err("unable to calibrate the timer on CPU %d: %s\n", s->lane[i].cpu,
				   ends[i].reason);
		else
			cbench_err("unable to calibrate the timer: %s\n", ends[i].reason);
		ret = -1;
	}
out:
	free(jobs);
	free(ends);
	free(timers);
	return ret;
}

int cbench_session_start(struct cbench_session *s)
{
	int ret = 0;

	cbench_machine_probe(&s->machine);
	for (size_t i = 0; i < s->nlanes; i++) {
		struct cbench_lane *l = &s->lane[i];

		l->lock = cbench_cpulock_wait(l->cpu, stderr);
		if (l->lock < 0)
			cbench_err("%s on CPU %d without claiming it (%s): another run may share it\n",
				   s->cfg.doing, l->cpu, strerror(-l->lock));
		cbench_cpuenv_probe(l->cpu, &l->cpuenv);
	}
	if (!s->cfg.no_timer)
		ret = calibrate(s);
	return ret;
}

struct cbench_worker_job cbench_session_job_on(const struct cbench_session *s, size_t lane,
					       enum cbench_worker_mode mode,
					       const struct cbench_experiment *e, double limit_s)
{
	return (struct cbench_worker_job){
		.mode = mode,
		.ops = s->ops,
		.cpu = s->lane[lane].cpu,
		.watcher = s->lane[lane].watcher,
		.quiet = s->cfg.quiet,
		.no_fifo = s->shared_cpu,
		/* A little over the runner's limit: the runner reports first. */
		.rt_limit_s = limit_s * 1.5 + 1,
		.exp = e,
		.timer = s->lane[lane].timer,
		.time_limit_ns = limit_s * 1e9,
	};
}

struct cbench_worker_job cbench_session_job(const struct cbench_session *s,
					    enum cbench_worker_mode mode,
					    const struct cbench_experiment *e, double limit_s)
{
	return cbench_session_job_on(s, 0, mode, e, limit_s);
}

int cbench_session_tune(const struct cbench_session *s, const struct cbench_experiment *e,
			double limit_s, uint64_t *n, char *failure, size_t failure_len)
{
	struct cbench_worker_job job = cbench_session_job(s, CBENCH_WORKER_TUNE, e, limit_s);
	struct cbench_tune_params tp;
	double best_t_ns = INFINITY;

	/* Caliper's macrobenchmark instrument: one call per measurement. */
	if (cbench_desc_per_rep(e->desc)) {
		*n = 1;
		return 0;
	}
	/* Alg. 1 in several fresh workers, keeping the smallest estimate of t:
	 * one worker that ran while the machine was busy must not decide n for
	 * every later run (the result is cached).  Two that agree on n are
	 * enough; a third settles it when they do not. */
	cbench_tune_params_init(&tp, s->lane[0].timer.precision_ns, s->lane[0].timer.accuracy_ns);
	for (int w = 0; w < TUNE_WORKERS; w++) {
		struct cbench_phase_end end;
		struct cbench_tuned tuned;

		if (cbench_collect_tuned(&job, limit_s, &tuned, &end)) {
			snprintf(failure, failure_len, "%s", end.reason);
			return end.error;
		}
		if (w && cbench_tune_oracle(&tp, tuned.t_ns) == cbench_tune_oracle(&tp, best_t_ns)) {
			best_t_ns = fmin(best_t_ns, tuned.t_ns);
			break;
		}
		best_t_ns = fmin(best_t_ns, tuned.t_ns);
	}
	*n = cbench_tune_oracle(&tp, best_t_ns);
	return 0;
}

void cbench_session_plan(struct cbench_session *s, size_t units)
{
	s->planned = units;
	s->done = 0;
	s->since_s = cbench_now_s();
}

void cbench_session_done(struct cbench_session *s)
{
	s->done++;
}

void cbench_session_progress(const struct cbench_session *s, size_t index, size_t total,
			     const char *name, const char *what)
{
	if (!s->tty)
		return;
	fprintf(stderr, "\r\033[K");
	if (what && s->done && s->done < s->planned)
		fprintf(stderr, "[%zu/%zu] %s %s, %.0f s left", index + 1, total, name, what,
			ceil((cbench_now_s() - s->since_s) / (double)s->done *
			     (double)(s->planned - s->done)));
	else if (what)
		fprintf(stderr, "[%zu/%zu] %s %s", index + 1, total, name, what);
	fflush(stderr);
}

void cbench_session_close(struct cbench_session *s)
{
	if (s->affinity_saved)
		sched_setaffinity(0, sizeof(s->affinity), &s->affinity);
	s->affinity_saved = false;
	for (size_t i = 0; i < s->nout; i++)
		cbench_outfile_abort(&s->out[i]);
	s->nout = 0;
	for (size_t i = 0; i < s->nlanes; i++) {
		if (s->lane[i].lock >= 0)
			close(s->lane[i].lock);
		s->lane[i].lock = -1;
	}
	free(s->chosen);
	s->chosen = NULL;
	for (size_t i = 0; i < s->nlib; i++)
		cbench_library_close(&s->lib[i]);
	s->nlib = 0;
	if (s->sw_holding)
		cbench_sw_events_release(s->sw_held);
	s->sw_holding = false;
}
