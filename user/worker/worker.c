// SPDX-License-Identifier: GPL-2.0
/* The worker side of a phase; see worker.h. */
#include <errno.h>
#include <fenv.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "machine/alloc.h"
#include "machine/arena.h"
#include "machine/clock.h"
#include "machine/proc.h"
#include "machine/reference.h"
#include "stats/stats.h"
#include "stats/tune.h"
#include "worker/audit_worker.h"
#include "worker/layout_worker.h"
#include "worker/leftover.h"
#include "worker/profile_worker.h"
#include "worker/tpoints_worker.h"
#include "worker/worker.h"

static int send_msg(int fd, const struct cbench_msg *m)
{
	return cbench_worker_send(fd, m);
}

/* The backend's own account of a failure, if it left one. */
static const char *why(const struct cbench_backend *b)
{
	return b->error[0] ? b->error : NULL;
}

static int send_error(int fd, int error, const char *what, const char *detail)
{
	struct cbench_msg m = { .type = CBENCH_MSG_ERROR, .error = error };

	snprintf(m.u.text, sizeof(m.u.text), "%s: %s", what, detail ? detail : strerror(-error));
	return send_msg(fd, &m);
}

struct tune_arg {
	struct cbench_backend *b;
};

static int tune_time(void *arg, uint64_t reps, double *ns)
{
	struct tune_arg *t = arg;
	struct cbench_sample s;
	int ret = t->b->ops->measure(t->b, reps, &s);

	if (ret)
		return ret;
	*ns = (double)s.ticks * 1e9 / t->b->timer.tsc_hz;
	return s.disturbed ? 1 : 0;
}

/* Whether trials interleave the reference chain with the benchmark. */
static bool with_ref(const struct cbench_backend *b)
{
	return b->ops->measure_ref && b->timer.ref_reps;
}

/* Runs measurements (with the reference's, if ref) for span_ns, at least
 * one; *last_ns: the last one's wall time. */
static int warm_up(struct cbench_backend *b, uint64_t n, bool ref, double span_ns, double *last_ns)
{
	double until = cbench_now_ns() + span_ns, start;
	struct cbench_sample s;
	int ret;

	do {
		start = cbench_now_ns();
		ret = b->ops->measure(b, n, &s);
		if (!ret && ref)
			ret = b->ops->measure_ref(b, b->timer.ref_reps, &s);
		if (ret)
			return ret;
		*last_ns = cbench_now_ns() - start;
	} while (cbench_now_ns() < until);
	return 0;
}

/* Measurements into SAMPLES messages (job.h): each put into batch, which
 * goes to the outbox when full (or when flushed, with what it has). */
static int batch_flush(struct cbench_outbox *o, int fd, struct cbench_msg *batch)
{
	int ret = batch->u.samples.n ? cbench_outbox_put(o, fd, batch) : 0;

	batch->u.samples.n = batch->u.samples.ref = 0;
	return ret;
}

static int post(struct cbench_outbox *o, int fd, struct cbench_msg *batch, bool ref,
		const struct cbench_sample *s)
{
	uint32_t i = batch->u.samples.n++;

	batch->u.samples.s[i] = *s;
	batch->u.samples.ref |= (uint32_t)ref << i;
	return batch->u.samples.n == CBENCH_MSG_SAMPLES_MAX ? batch_flush(o, fd, batch) : 0;
}

/* Reps of the measurements allocations are counted over (Caliper): after
 * a warm-up of one rep, a baseline of ALLOC_BASE_REPS, then ALLOC_MORE_REPS
 * more; the difference per rep is the benchmark's, whatever the harness
 * allocates per measurement. */
#define ALLOC_BASE_REPS 2
#define ALLOC_MORE_REPS 8

/* Benchmarks that may allocate (user mode only) have their allocations
 * counted; in ring 0 nothing can allocate. */
static bool counts_allocations(const struct cbench_backend *b, const struct cbench_worker_job *job)
{
	return b->ops == &cbench_backend_user && job->exp && (job->exp->desc->flags & CBENCH_F_USER_ONLY);
}

/* Allocations per op, counted in measurements apart from the timed ones,
 * into f. */
static int allocations(struct cbench_backend *b, const struct cbench_worker_job *job,
		       struct cbench_trial_figures *f)
{
	struct cbench_alloc_count base, more;
	uint64_t ops = job->exp->desc->ops_per_rep ? job->exp->desc->ops_per_rep : 1;
	struct cbench_sample s;
	int ret;

	ret = b->ops->measure(b, 1, &s);
	if (ret)
		return ret;
	cbench_alloc_count_begin();
	ret = b->ops->measure(b, ALLOC_BASE_REPS, &s);
	cbench_alloc_count_end(&base);
	if (ret)
		return ret;
	cbench_alloc_count_begin();
	ret = b->ops->measure(b, ALLOC_BASE_REPS + ALLOC_MORE_REPS, &s);
	cbench_alloc_count_end(&more);
	if (ret)
		return ret;
	/* A benchmark that frees what an earlier call allocated can come out
	 * a little under the baseline: never below zero. */
	f->have_allocs = true;
	f->allocs_per_op = more.allocs > base.allocs ?
		(double)(more.allocs - base.allocs) / ALLOC_MORE_REPS / (double)ops : 0;
	f->bytes_per_op = more.bytes > base.bytes ?
		(double)(more.bytes - base.bytes) / ALLOC_MORE_REPS / (double)ops : 0;
	return 0;
}

/*
 * The wide reference beside the reference chain (reference.h): after a
 * reference measurement, one of cbench_ref_wide at a quarter of its reps
 * (a twentieth of its time: a timer step is still under 1/100), on the same
 * CPU a microsecond later; their ratio in ticks per rep is the core clock's
 * twice over, and so is left with how many adds a cycle the core ran.  A
 * trial's width is the median of its ratios, as adds a cycle.  Ratios are
 * kept evenly over the trial: past WIDTH_MAX, every second one goes and
 * only every stride-th pair is probed.
 */
#define WIDTH_MAX 2048
/* Fewer probes than this make no width: a median of a few can be a delayed
 * reference's, and the widest of a CPU is remembered (run.c). */
#define WIDTH_FEWEST 5

struct width {
	double r[WIDTH_MAX];
	size_t n, stride, pairs;
};

static void width_init(struct width *w)
{
	w->n = w->pairs = 0;
	w->stride = 1;
}

static int width_probe(struct cbench_backend *b, struct width *w, const struct cbench_sample *ref)
{
	struct cbench_sample s;
	int ret;

	if (!b->ops->measure_wide || w->pairs++ % w->stride || ref->disturbed || !ref->ticks)
		return 0;
	ret = b->ops->measure_wide(b, b->timer.ref_reps / 4 ? b->timer.ref_reps / 4 : 1, &s);
	if (ret || s.disturbed || !s.ticks)
		return ret;
	w->r[w->n++] = ((double)s.ticks / (double)s.reps) / ((double)ref->ticks / (double)ref->reps);
	if (w->n == WIDTH_MAX) {
		for (size_t i = 0; i < WIDTH_MAX / 2; i++)
			w->r[i] = w->r[2 * i];
		w->n = WIDTH_MAX / 2;
		w->stride *= 2;
	}
	return 0;
}

static void width_figure(const struct width *w, struct cbench_trial_figures *f)
{
	double r = cbench_stats_median(w->r, w->n);

	if (w->n < WIDTH_FEWEST || !(r > 0))
		return;
	f->have_width = true;
	f->core_width = (double)CBENCH_REF_WIDE_ADDS_PER_REP / (r * CBENCH_REF_ADDS_PER_REP);
}

/*
 * A trial of a run that samples code layouts: the code laid out anew at the
 * layout job->seed draws (object/codeplace.h), the arena and the stack left
 * as they are (the worker is their placement), before the warm-up, so the
 * fresh copy is warm when measured; then where its run function went, for
 * the report.
 */
static int place_code(struct cbench_backend *b, const struct cbench_worker_job *job, int fd)
{
	struct cbench_msg m = { .type = CBENCH_MSG_LAYOUT_PLACED };
	struct cbench_placement pl;
	int ret;

	if (!b->ops->place) {
		snprintf(b->error, sizeof(b->error), "the %s backend cannot place code", b->ops->name);
		return -EOPNOTSUPP;
	}
	cbench_placement_init(&pl, job->seed);
	pl.code = pl.code_only = true;
	ret = b->ops->place(b, &pl);
	if (!ret && b->code_layouts != 1) {
		snprintf(b->error, sizeof(b->error), "its code cannot be laid out anew here");
		ret = -EOPNOTSUPP;
	}
	cbench_placement_free(&pl);
	if (ret)
		return ret;
	m.u.placed = (struct cbench_layout_placed){ .index = job->layout_index,
						    .run_offset = b->code_offset };
	return send_msg(fd, &m);
}

/*
 * A trial: each measurement of the benchmark is followed by one of the
 * reference chain, on the same CPU, microseconds later.  The core clock
 * drifts by a percent or two over seconds on a boosting or shared host; the
 * trial's cycle estimate is the ratio of the two, which the drift cancels
 * out of (report.c).  Everything but the DONE that ends it.
 */
static int trial(struct cbench_backend *b, const struct cbench_worker_job *job, int fd)
{
	static struct cbench_outbox out;
	static struct cbench_msg batch = { .type = CBENCH_MSG_SAMPLES };
	static struct width width;
	struct cbench_msg m = { 0 }, fig = { .type = CBENCH_MSG_FIGURES };
	struct cbench_sample s;
	uint32_t valid = 0, needed = job->min_valid;
	bool ref = with_ref(b);
	double until, one_ns = 0;
	int ret = job->place_code ? place_code(b, job, fd) : 0;

	ret = ret ? ret : warm_up(b, job->n, ref, job->warmup_ns, &one_ns);
	if (ret)
		return ret;
	/* A benchmark so slow that min_valid measurements would take half the
	 * time limit needs fewer: as many as fit, at least one. */
	if (one_ns * needed > job->time_limit_ns / 2) {
		needed = (uint32_t)(job->time_limit_ns / 2 / one_ns);
		needed = needed ? needed : 1;
	}
	/* The runner names this count if the trial runs out of time. */
	m.type = CBENCH_MSG_NEEDED;
	m.u.tuned.n = needed;
	ret = send_msg(fd, &m);
	if (ret)
		return ret;
	cbench_outbox_init(&out);
	batch.u.samples.n = batch.u.samples.ref = 0;
	width_init(&width);
	until = cbench_now_ns() + job->trial_ns;
	while (valid < job->max_measurements && (valid < needed || cbench_now_ns() < until)) {
		ret = b->ops->measure(b, job->n, &s);
		if (ret)
			return ret;
		valid += !s.disturbed;
		ret = post(&out, fd, &batch, false, &s);
		if (!ret && ref) {
			ret = b->ops->measure_ref(b, b->timer.ref_reps, &s);
			ret = ret ? ret : post(&out, fd, &batch, true, &s);
			ret = ret ? ret : width_probe(b, &width, &s);
		}
		if (ret)
			return ret;
	}
	ret = batch_flush(&out, fd, &batch);
	ret = ret ? ret : cbench_outbox_flush(&out, fd);
	width_figure(&width, &fig.u.figures);
	if (!ret && counts_allocations(b, job))
		ret = allocations(b, job, &fig.u.figures);
	if (!ret && (fig.u.figures.have_allocs || fig.u.figures.have_width))
		ret = send_msg(fd, &fig);
	return ret ? ret : cbench_worker_tpoints(b, job, fd);
}

/* A trial's end: DONE, saying what ends the worker (0: it takes another). */
static int done(int fd, unsigned int left)
{
	struct cbench_msg m = { .type = CBENCH_MSG_DONE, .u.done.left = left };

	return send_msg(fd, &m);
}

/* Alg. 1 in this worker, and its n to the runner. */
static int tune(struct cbench_backend *b, const struct cbench_worker_job *job, int fd)
{
	struct cbench_msg m = { .type = CBENCH_MSG_TUNED };
	struct cbench_tune_params p;
	struct tune_arg arg = { b };
	double one_ns;
	int ret;

	ret = warm_up(b, 1, false, job->warmup_ns, &one_ns);
	if (!ret) {
		cbench_tune_params_init(&p, b->timer.precision_ns, b->timer.accuracy_ns);
		ret = cbench_tune(&p, tune_time, &arg, &m.u.tuned.n, &m.u.tuned.t_ns);
	}
	if (ret) {
		send_error(fd, ret, "unable to tune the repetitions",
			   ret == -EAGAIN ? "every measurement was disturbed" :
			   ret == -ERANGE ? "every measurement is shorter than one step of the timer, "
					    "whatever the reps: the benchmark does no measurable work, or "
					    "ignores reps" :
			   ret == -EDOM ? "a call takes as long whatever its reps: the benchmark "
					  "ignores reps (repeat the work in a loop of reps "
					  "iterations), or its fixed cost per call dwarfs a "
					  "rep's work" : why(b));
		return ret;
	}
	return send_msg(fd, &m);
}

/* The environment as it stands (after open(), and again after prepare()
 * with what the arena got). */
static int send_env(const struct cbench_backend *b, int fd)
{
	struct cbench_msg m = { .type = CBENCH_MSG_ENV, .u.env = b->env };

	return send_msg(fd, &m);
}

/* b opened on cpu and its environment sent.  0 or -errno, said. */
static int open_on(struct cbench_backend *b, int cpu, int fd)
{
	int ret = b->ops->open(b, cpu);

	if (ret) {
		send_error(fd, ret, "unable to prepare the worker on its CPU", why(b));
		return ret;
	}
	return send_env(b, fd);
}

/* e prepared in b and the environment sent again.  0 or -errno, said. */
static int prepare(struct cbench_backend *b, const struct cbench_experiment *e, int fd)
{
	int ret = b->ops->prepare(b, e);

	if (ret) {
		send_error(fd, ret, "setup failed",
			   why(b) ? why(b) :
			   ret == -ECANCELED ? "the benchmark's setup() refused this parameter" : NULL);
		return ret;
	}
	return send_env(b, fd);
}

int cbench_worker_main(const struct cbench_worker_job *job, int fd)
{
	struct cbench_backend b = cbench_job_backend(job, job->ops, &job->timer);
	struct cbench_msg m = { 0 };
	int ret;

	ret = open_on(&b, job->cpu, fd);
	if (ret)
		goto out;

	if (job->mode == CBENCH_WORKER_CALIBRATE) {
		m.type = CBENCH_MSG_TIMER;
		ret = b.ops->calibrate(&b, &m.u.timer);
		if (ret)
			send_error(fd, ret, "unable to calibrate the timer", why(&b));
		else
			ret = send_msg(fd, &m);
		goto out;
	}

	ret = prepare(&b, job->exp, fd);
	if (ret)
		goto out;
	if (job->mode == CBENCH_WORKER_AUDIT) {
		ret = cbench_worker_audit(&b, job, fd);
		if (ret && ret != -EPIPE)
			send_error(fd, ret, "audit failed", why(&b));
		goto out;
	}
	if (job->mode == CBENCH_WORKER_LAYOUT) {
		ret = cbench_worker_layout(&b, job, fd);
		if (ret && ret != -EPIPE)
			send_error(fd, ret, "laying the code out failed", why(&b));
		goto out;
	}
	if (job->mode == CBENCH_WORKER_PROFILE) {
		ret = cbench_worker_profile(&b, job, fd);
		if (!ret) {
			m.type = CBENCH_MSG_DONE;
			ret = send_msg(fd, &m);
		} else if (ret != -EPIPE) {
			send_error(fd, ret, "profiling failed", why(&b));
		}
		goto out;
	}
	if (job->mode == CBENCH_WORKER_TUNE) {
		ret = tune(&b, job, fd);
		goto out;
	}
	ret = trial(&b, job, fd);
	if (!ret)
		ret = done(fd, CBENCH_LEFT_UNSEEN);
	else if (ret != -EPIPE)
		send_error(fd, ret, "measurement failed", why(&b));
out:
	b.ops->close(&b);
	return ret ? 1 : 0;
}

/*
 * What the benchmark left that ends this worker once its trial is done
 * (CBENCH_LEFT_* bits; 0: it may take another trial): only where what it
 * left would end with the worker in a worker of one trial (leftover.h).  A
 * thread it started would run on beside the next trial; a process it
 * started (alive, or a zombie not reaped) would too, or would be blamed on
 * the next trial when the worker ends, so the worker ends now, and its
 * keeper counts what was left against this one.  A timer it armed, the CPU
 * it moved the worker to, the scheduling or signals it changed, a file it
 * left open or closed, a limit, its directory, environment or prctl()
 * settings, or memory it kept would hold for the next trial: the worker
 * ends too.  Its floating-point environment is put back before each trial
 * instead.  What a benchmark writes into its object's own variables stays,
 * as between the setups of one audit (cbench.h).
 */
static unsigned int left_behind(const struct cbench_backend *b, const struct cbench_worker_job *job,
				const struct cbench_leftover *began)
{
	if (!b->ops->release || !cbench_proc_isolated())
		return CBENCH_LEFT_UNSEEN;
	return cbench_leftover_left(began, job->cpu);
}

int cbench_worker_serve(const struct cbench_worker_job *first, int fd,
			bool (*next)(void *arg, struct cbench_worker_job *job), void *arg)
{
	struct cbench_worker_job job = *first;
	struct cbench_backend b = cbench_job_backend(&job, job.ops, &job.timer);
	struct cbench_backend_env opened;
	static struct cbench_leftover began;
	unsigned int left;
	int ret;
	fenv_t fp;

	ret = open_on(&b, job.cpu, fd);
	opened = b.env;
	cbench_leftover_take(&began);
	fegetenv(&fp);
	while (!ret) {
		/* Each trial as a worker of its own would begin it. */
		fesetenv(&fp);
		b.env = opened;
		b.timer = job.timer;
		b.error[0] = '\0';
		ret = prepare(&b, job.exp, fd);
		if (ret)
			break;
		ret = trial(&b, &job, fd);
		if (ret) {
			if (ret != -EPIPE)
				send_error(fd, ret, "measurement failed", why(&b));
			break;
		}
		if (b.ops->release)
			b.ops->release(&b);
		left = left_behind(&b, &job, &began);
		ret = done(fd, left);
		if (ret || left || !next(arg, &job))
			break;
	}
	b.ops->close(&b);
	return ret ? 1 : 0;
}
