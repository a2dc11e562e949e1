// SPDX-License-Identifier: GPL-2.0
/*
 * Running one phase in a worker.  We never load the benchmark object
 * ourselves (its constructors would run in cbenchctl): the worker loads it,
 * finds its experiment by id and checks that it is the one we listed.  We
 * flush stdio before forking so the child cannot write our buffered output
 * a second time if a benchmark calls exit().  The worker's stdout goes to
 * our stderr: a chatty benchmark must not corrupt a report on stdout.
 *
 * A benchmark may fork; proc.c keeps what it forks from outliving the phase.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "error.h"
#include "machine/clock.h"
#include "machine/proc.h"
#include "session/phase.h"

const char *const cbench_phase_stage_names[CBENCH_PHASE_STAGES] = {
	"fork", "worker start", "setup and arena", "placement and warm-up", "measuring", "worker end",
};

/* Every trial phase's stages, summed; the parent's time alone between them. */
static struct cbench_phase_costs costs;
static double last_end_s;
static unsigned int trials_live;

void cbench_phase_costs(struct cbench_phase_costs *out)
{
	*out = costs;
}

void cbench_phase_costs_reset(void)
{
	memset(&costs, 0, sizeof(costs));
	last_end_s = 0;
}

/* Stage k of a trial phase ended now (once). */
static void stage(struct cbench_phase *ph, enum cbench_phase_stage k)
{
	if (ph->trial && !ph->t[k])
		ph->t[k] = cbench_now_s();
}

/* A trial phase over: if it finished its job, its stages into the sums,
 * each from the one before (a failed or timed-out trial's time would land
 * on the stages it did not reach). */
static void costs_add(struct cbench_phase *ph)
{
	double from = ph->t_begin;

	if (!ph->trial)
		return;
	stage(ph, CBENCH_PHASE_END);
	last_end_s = ph->t[CBENCH_PHASE_END];
	trials_live--;
	if (!ph->done || ph->p->error)
		return;
	costs.trials++;
	for (int k = 0; k < CBENCH_PHASE_STAGES; k++) {
		if (!ph->t[k])
			continue;
		costs.s[k] += ph->t[k] - from;
		costs.n[k]++;
		from = ph->t[k];
	}
}

/* The workers of the phases in progress (one a CPU), for the signals. */
#define LIVE_MAX (CBENCH_JOBS_MAX + 1)
static volatile pid_t live[LIVE_MAX];

static void live_add(pid_t pid)
{
	for (size_t i = 0; i < LIVE_MAX; i++) {
		if (!live[i]) {
			live[i] = pid;
			return;
		}
	}
}

static void live_drop(pid_t pid)
{
	for (size_t i = 0; i < LIVE_MAX; i++)
		if (live[i] == pid)
			live[i] = 0;
}

void cbench_phase_stop(void)
{
	for (size_t i = 0; i < LIVE_MAX; i++) {
		pid_t pid = live[i];

		if (pid > 0)
			cbench_proc_kill_group(pid);
	}
}

void cbench_phase_abort(void)
{
	struct timespec step = { 0, 5000000 };

	cbench_phase_stop();
	for (size_t k = 0; k < LIVE_MAX; k++) {
		pid_t pid = live[k];

		for (int i = 0; pid > 0 && i < 20 && waitpid(pid, NULL, WNOHANG) == 0; i++)
			nanosleep(&step, NULL);
	}
}

static void send_error(int fd, int error, const char *text)
{
	struct cbench_msg m = { .type = CBENCH_MSG_ERROR, .error = error };

	/* Cut to fit, still NUL-terminated. */
	snprintf(m.u.text, sizeof(m.u.text), "%s", text);
	while (write(fd, &m, sizeof(m)) < 0 && errno == EINTR)
		;
}

/* Loads want's object here (unless it is `have`'s, loaded already), its
 * descriptors want's and also's (NULL: none), and finds want in it.  0 or
 * -errno with a sentence in err. */
static int load(struct cbench_library *lib, const struct cbench_library *have,
		const struct cbench_experiment *want, const struct cbench_experiment *also,
		const struct cbench_experiment **found, char *err, size_t errlen)
{
	int ret = 0;

	if (!have)
		ret = cbench_library_load_only(lib, want->lib->path, want->desc->name,
					       also ? also->desc->name : NULL, err, errlen);
	return ret ? ret : cbench_experiment_find(have ? have : lib, want, found, err, errlen);
}

/* A standing worker's next job (cbench_worker_serve()): read whole from
 * the runner, its experiment loaded again from the object the first
 * loaded (its descriptor checked, its parameters expanded). */
struct serving {
	int fd;
	const struct cbench_library *first;
	struct cbench_library lib;	/* the current job's, after the first */
	bool have;
};

static bool next_job(void *arg, struct cbench_worker_job *job)
{
	struct serving *sv = arg;
	struct cbench_worker_job want = { 0 };
	char err[CBENCH_ERR_LEN];
	size_t got = 0;
	int ret;

	while (got < sizeof(want)) {
		ssize_t n = read(CBENCH_PROC_CMD_FD, (char *)&want + got, sizeof(want) - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;		/* the runner has no more */
		got += (size_t)n;
	}
	if (sv->have)
		cbench_library_close(&sv->lib);
	sv->have = false;
	ret = cbench_library_load_another(&sv->lib, sv->first, want.exp->desc->name, err,
					  sizeof(err));
	sv->have = !ret;
	if (!ret)
		ret = cbench_experiment_find(&sv->lib, want.exp, &want.exp, err, sizeof(err));
	if (ret) {
		send_error(sv->fd, ret, err);
		return false;
	}
	*job = want;
	return true;
}

/* The worker, with its end of the pipe in fd. */
static void child(void *arg, int fd)
{
	const struct cbench_worker_job *job = arg;
	struct cbench_worker_job own = *job;
	static struct cbench_library lib, lib_b;
	/* An audit of two benchmarks of one object loads it once. */
	bool one_object = job->exp && job->exp_b && job->exp_b->lib == job->exp->lib;
	char err[CBENCH_ERR_LEN];
	int ret = 0;

	if (job->exp)
		ret = load(&lib, NULL, job->exp, one_object ? job->exp_b : NULL, &own.exp, err, sizeof(err));
	if (!ret && job->exp_b)
		ret = load(&lib_b, one_object ? &lib : NULL, job->exp_b, NULL, &own.exp_b, err, sizeof(err));
	if (ret) {
		send_error(fd, ret, err);
		_exit(1);
	}
	if (job->serve) {
		struct serving sv = { .fd = fd, .first = &lib };

		ret = cbench_worker_serve(&own, fd, next_job, &sv);
		if (sv.have)
			cbench_library_close(&sv.lib);
	} else {
		ret = cbench_worker_main(&own, fd);
	}
	fflush(stdout);
	_exit(ret);
}

static void describe_exit(struct cbench_phase_end *p, int status)
{
	if (WIFSIGNALED(status)) {
		int sig = WTERMSIG(status);
		const char *abbrev = sigabbrev_np(sig);

		snprintf(p->reason, sizeof(p->reason), "worker killed by signal SIG%s (%s)",
			 abbrev ? abbrev : "?", strsignal(sig));
		p->error = -EINTR;
	} else {
		snprintf(p->reason, sizeof(p->reason),
			 "worker exited with status %d before finishing (did the benchmark call exit()?)",
			 WEXITSTATUS(status));
		p->error = -EPIPE;
	}
}

/* One whole message from the worker: what every mode sends here, the
 * rest to the mode's collector. */
static void take(struct cbench_phase *r, struct cbench_msg *m)
{
	struct cbench_phase_end *p = r->p;
	int ret;

	switch (m->type) {
	case CBENCH_MSG_ENV:
		p->env = m->u.env;
		stage(r, r->envs++ ? CBENCH_PHASE_SETUP : CBENCH_PHASE_START);
		return;
	case CBENCH_MSG_DONE:
		stage(r, CBENCH_PHASE_MEASURE);
		r->done = true;
		r->left = m->u.done.left;
		return;
	case CBENCH_MSG_NEEDED:
		stage(r, CBENCH_PHASE_WARM);
		break;
	case CBENCH_MSG_ERROR:
		m->u.text[sizeof(m->u.text) - 1] = '\0';
		p->error = m->error ? m->error : -EIO;
		snprintf(p->reason, sizeof(p->reason), "%s", m->u.text);
		r->eof = true;
		return;
	}
	ret = r->c->take(r->c, m, p->reason, sizeof(p->reason));
	if (ret > 0) {
		stage(r, CBENCH_PHASE_MEASURE);
		r->done = true;
	} else if (ret < 0) {
		/* A failure of ours, or a message the mode does not take: the
		 * worker goes, and the phase says why. */
		cbench_proc_kill_group(r->pid);
		p->error = ret;
		if (ret == -EPROTO)
			snprintf(p->reason, sizeof(p->reason), "worker sent an unknown message %u",
				 m->type);
		r->eof = true;
	}
}

/* The phase ran out of time: Caliper's failed trial, saying what came. */
static void timed_out(struct cbench_phase *r, double time_limit_s)
{
	cbench_proc_kill_group(r->pid);
	r->p->error = -ETIMEDOUT;
	if (!r->c->late || !r->c->late(r->c, time_limit_s, r->p->reason, sizeof(r->p->reason)))
		snprintf(r->p->reason, sizeof(r->p->reason), "timeout after %gs", time_limit_s);
}

/* The worker is gone from under us: its pipe failed. */
static void lost(struct cbench_phase *r, int error)
{
	cbench_proc_kill_group(r->pid);
	r->p->error = -error;
	snprintf(r->p->reason, sizeof(r->p->reason), "lost the worker: %s", strerror(error));
	r->eof = true;
}

/* A phase's start, before its worker: the clock and the trials' costs. */
static void phase_init(struct cbench_phase *ph, const struct cbench_worker_job *job,
		       double time_limit_s, struct cbench_collector *c, struct cbench_phase_end *p)
{
	memset(ph, 0, sizeof(*ph));
	memset(p, 0, sizeof(*p));
	ph->p = p;
	ph->c = c;
	ph->fd = -1;
	ph->limit_s = time_limit_s;
	ph->t_begin = cbench_now_s();
	ph->deadline_s = ph->t_begin + time_limit_s;
	ph->trial = job->mode == CBENCH_WORKER_TRIAL;
	if (ph->trial && !trials_live++ && last_end_s > 0) {
		costs.between_s += ph->t_begin - last_end_s;
		costs.between_n++;
	}
}

/* Its worker, forked (duplex: a standing worker, its request pipe in
 * *cmd).  0 or -errno. */
static int phase_fork(struct cbench_phase *ph, const struct cbench_worker_job *job, int *cmd)
{
	ph->pid = cmd ? cbench_proc_start_duplex(child, (void *)job, &ph->fd, cmd) :
		  cbench_proc_start(child, (void *)job, &ph->fd);
	if (ph->pid < 0) {
		trials_live -= ph->trial;
		return (int)ph->pid;
	}
	stage(ph, CBENCH_PHASE_FORK);
	live_add(ph->pid);
	return 0;
}

int cbench_phase_begin(struct cbench_phase *ph, const struct cbench_worker_job *job,
		       double time_limit_s, struct cbench_collector *c, struct cbench_phase_end *p)
{
	phase_init(ph, job, time_limit_s, c, p);
	return phase_fork(ph, job, NULL);
}

/* Ends w's worker and says how it ended in *end. */
static void standing_reap(struct cbench_standing *w, struct cbench_proc_end *end)
{
	double began = cbench_now_s();

	close(w->cmd);
	close(w->fd);
	cbench_proc_end_group(w->pid, end);
	live_drop(w->pid);
	w->pid = 0;
	/* Its end is its trials' (their means carry it), not the runner's
	 * time between them. */
	last_end_s = cbench_now_s();
	costs.s[CBENCH_PHASE_END] += last_end_s - began;
}

void cbench_standing_end(struct cbench_standing *w)
{
	struct cbench_proc_end end;

	if (w->pid)
		standing_reap(w, &end);
}

/*
 * w's worker was gone when its next trial came: it ended between trials,
 * after its last one had finished (and is kept).  What can end it then is
 * something that trial's benchmark left that the worker's checks do not
 * see (worker.c); said, with the way out.
 */
static void standing_lost(struct cbench_standing *w)
{
	struct cbench_phase_end how = { 0 };
	struct cbench_proc_end end;
	const char *last = w->last;

	standing_reap(w, &end);
	describe_exit(&how, end.status);
	cbench_err("a worker ended between trials (%s) after measuring %s, whose trial is kept: "
		   "if that benchmark leaves something behind that ends its process later, measure "
		   "it with --fresh-workers\n", how.reason, last ? last : "a benchmark");
}

/* Writes job to w's worker, a SIGPIPE of a worker gone taken here.  0 or
 * -EPIPE. */
static int send_job(const struct cbench_standing *w, const struct cbench_worker_job *job)
{
	struct timespec none = { 0, 0 };
	sigset_t pipe_sig, old;
	int ret;

	sigemptyset(&pipe_sig);
	sigaddset(&pipe_sig, SIGPIPE);
	sigprocmask(SIG_BLOCK, &pipe_sig, &old);
	ret = cbench_proc_write_all(w->cmd, job, sizeof(*job));
	if (ret && !sigismember(&old, SIGPIPE))
		sigtimedwait(&pipe_sig, NULL, &none);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return ret;
}

_Static_assert(sizeof(struct cbench_worker_job) <= PIPE_BUF, "a job is written to a pipe at once");

int cbench_phase_begin_standing(struct cbench_phase *ph, const struct cbench_worker_job *job,
				double time_limit_s, struct cbench_collector *c,
				struct cbench_phase_end *p, struct cbench_standing *w)
{
	struct cbench_worker_job own = *job;
	int ret;

	if (w->pid && (!job->share || w->share != job->share || w->cpu != job->cpu))
		cbench_standing_end(w);
	phase_init(ph, job, time_limit_s, c, p);
	if (w->pid && send_job(w, job))
		standing_lost(w);
	if (w->pid) {
		/* Started, and its start done: the worker's first ENV came
		 * with its first trial. */
		ph->pid = w->pid;
		ph->fd = w->fd;
		ph->standing = w;
		ph->envs = 1;
		ph->after_trials = w->served++;
		ph->after = w->last;
		stage(ph, CBENCH_PHASE_FORK);
		stage(ph, CBENCH_PHASE_START);
		w->last = job->exp->report_name;
		return 0;
	}
	if (!job->share)
		return phase_fork(ph, job, NULL);
	own.serve = true;
	ret = phase_fork(ph, &own, &w->cmd);
	if (ret)
		return ret;
	*w = (struct cbench_standing){ .pid = ph->pid, .fd = ph->fd, .cmd = w->cmd,
				       .share = job->share, .cpu = job->cpu,
				       .last = job->exp->report_name, .served = 1 };
	ph->standing = w;
	return 0;
}

int cbench_phase_wait_ms(const struct cbench_phase *ph)
{
	double left = ph->deadline_s - cbench_now_s();

	return left <= 0 ? 0 : (int)ceil(left * 1000);
}

bool cbench_phase_step(struct cbench_phase *ph, bool readable)
{
	ssize_t got;

	if (ph->done || ph->eof)
		return true;
	if (!readable) {
		if (cbench_now_s() >= ph->deadline_s) {
			timed_out(ph, ph->limit_s);
			return true;
		}
		return false;
	}
	got = read(ph->fd, (char *)&ph->m + ph->have, sizeof(ph->m) - ph->have);
	if (got < 0) {
		if (errno != EINTR && errno != EAGAIN)
			lost(ph, errno);
	} else if (got == 0) {
		ph->eof = true;
	} else if ((ph->have += (size_t)got) == sizeof(ph->m)) {
		ph->have = 0;
		take(ph, &ph->m);
	}
	return ph->done || ph->eof;
}

void cbench_phase_finish(struct cbench_phase *ph)
{
	struct cbench_phase_end *p = ph->p;
	struct cbench_proc_end end;

	if (ph->standing) {
		if (ph->done && !p->error && !ph->left && !ph->eof) {
			/* It stands for the next trial. */
			costs_add(ph);
			return;
		}
		/* It ends with this trial, which answers for how it ends. */
		close(ph->standing->cmd);
		ph->standing->pid = 0;
	}
	close(ph->fd);
	cbench_proc_end_group(ph->pid, &end);
	live_drop(ph->pid);
	if (end.keeper_lost && !ph->done && !p->error) {
		snprintf(p->reason, sizeof(p->reason),
			 "the benchmark killed the process that supervises its worker "
			 "(does it signal its parent?)");
		p->error = -ECHILD;
	}
	if (ph->eof && !ph->done && !p->error)
		describe_exit(p, end.status);
	if (end.left && !p->error) {
		snprintf(p->reason, sizeof(p->reason),
			 "the benchmark left processes behind (%d, killed)", end.left);
		p->error = -ECHILD;
	}
	costs_add(ph);
}

void cbench_phase_poll(struct cbench_phase *const *ph, size_t n, bool *over)
{
	struct pollfd pfd[CBENCH_JOBS_MAX + 1];
	int wait_ms = -1, ready;

	for (size_t i = 0; i < n; i++) {
		int ms = cbench_phase_wait_ms(ph[i]);

		pfd[i] = (struct pollfd){ .fd = over[i] ? -1 : ph[i]->fd, .events = POLLIN };
		if (!over[i])
			wait_ms = wait_ms < 0 || ms < wait_ms ? ms : wait_ms;
	}
	ready = poll(pfd, n, wait_ms);
	for (size_t i = 0; i < n; i++) {
		if (over[i])
			continue;
		if (ready < 0 && errno != EINTR)
			lost(ph[i], errno);
		over[i] = cbench_phase_step(ph[i], ready > 0 && pfd[i].revents);
	}
}

void cbench_phase_wait_all(struct cbench_phase *ph, size_t n)
{
	struct cbench_phase *each[CBENCH_JOBS_MAX + 1];
	bool over[CBENCH_JOBS_MAX + 1] = { false };
	size_t left = n;

	for (size_t i = 0; i < n; i++)
		each[i] = &ph[i];
	while (left) {
		cbench_phase_poll(each, n, over);
		left = 0;
		for (size_t i = 0; i < n; i++)
			left += !over[i];
	}
	for (size_t i = 0; i < n; i++)
		cbench_phase_finish(&ph[i]);
}

int cbench_phase_run(const struct cbench_worker_job *job, double time_limit_s,
		     struct cbench_collector *c, struct cbench_phase_end *p)
{
	struct cbench_phase ph;
	int ret = cbench_phase_begin(&ph, job, time_limit_s, c, p);

	if (ret)
		return ret;
	cbench_phase_wait_all(&ph, 1);
	return 0;
}
