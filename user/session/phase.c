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

/* The worker of the phase in progress, for cbench_phase_abort(). */
static volatile pid_t current_worker;

void cbench_phase_stop(void)
{
	pid_t pid = current_worker;

	if (pid > 0)
		cbench_proc_kill_group(pid);
}

void cbench_phase_abort(void)
{
	pid_t pid = current_worker;
	struct timespec step = { 0, 5000000 };

	if (pid <= 0)
		return;
	cbench_proc_kill_group(pid);
	for (int i = 0; i < 20 && waitpid(pid, NULL, WNOHANG) == 0; i++)
		nanosleep(&step, NULL);
}

static void send_error(int fd, int error, const char *text)
{
	struct cbench_msg m = { .type = CBENCH_MSG_ERROR, .error = error };

	/* Cut to fit, still NUL-terminated. */
	snprintf(m.u.text, sizeof(m.u.text), "%s", text);
	while (write(fd, &m, sizeof(m)) < 0 && errno == EINTR)
		;
}

/* Loads want's object here (unless it is `have`'s, loaded already) and
 * finds want in it.  0 or -errno with a sentence in err. */
static int load(struct cbench_library *lib, const struct cbench_library *have,
		const struct cbench_experiment *want, const struct cbench_experiment **found,
		char *err, size_t errlen)
{
	int ret = 0;

	if (!have)
		ret = cbench_library_load(lib, want->lib->path, err, errlen);
	return ret ? ret : cbench_experiment_find(have ? have : lib, want, found, err, errlen);
}

/* The worker, with its end of the pipe in fd. */
static void child(void *arg, int fd)
{
	const struct cbench_worker_job *job = arg;
	struct cbench_worker_job own = *job;
	static struct cbench_library lib, lib_b;
	char err[CBENCH_ERR_LEN];
	int ret = 0;

	if (job->exp)
		ret = load(&lib, NULL, job->exp, &own.exp, err, sizeof(err));
	/* An audit of two benchmarks of one object loads it once. */
	if (!ret && job->exp_b)
		ret = load(&lib_b, job->exp_b->lib == job->exp->lib ? &lib : NULL, job->exp_b,
			   &own.exp_b, err, sizeof(err));
	if (ret) {
		send_error(fd, ret, err);
		_exit(1);
	}
	ret = cbench_worker_main(&own, fd);
	fflush(stdout);
	_exit(ret);
}

static int add_sample(struct cbench_sample **v, size_t *n, size_t *cap, const struct cbench_sample *s)
{
	if (*n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 256;
		struct cbench_sample *nv = realloc(*v, ncap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		*v = nv;
		*cap = ncap;
	}
	(*v)[(*n)++] = *s;
	return 0;
}

static int add_timing(struct cbench_phase *p, size_t *cap, const struct cbench_audit_timing *t)
{
	if (p->ntimings == *cap) {
		size_t ncap = *cap ? *cap * 2 : 1024;
		struct cbench_audit_timing *nv = realloc(p->timings, ncap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		p->timings = nv;
		*cap = ncap;
	}
	p->timings[p->ntimings++] = *t;
	return 0;
}

static int add_tp_round(struct cbench_phase *p, const struct cbench_tp_round *t)
{
	struct cbench_tp_round *n = realloc(p->tp_rounds, (p->ntp_rounds + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	p->tp_rounds = n;
	p->tp_rounds[p->ntp_rounds++] = *t;
	return 0;
}

/* Layouts come in order: index 0, 1, ...; anything else is dropped. */
static int add_placed(struct cbench_phase *p, const struct cbench_layout_placed *l)
{
	uint64_t *n;

	if (l->index != p->nlayouts)
		return 0;
	n = realloc(p->run_offsets, (p->nlayouts + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	p->run_offsets = n;
	p->run_offsets[p->nlayouts++] = l->run_offset;
	return 0;
}

static int add_group(struct cbench_phase *p, const struct cbench_profile_group *g)
{
	struct cbench_profile_group *n = realloc(p->groups, (p->ngroups + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	p->groups = n;
	p->groups[p->ngroups] = *g;
	/* The worker runs the benchmark's code: its strings end here. */
	n[p->ngroups].name[sizeof(g->name) - 1] = '\0';
	n[p->ngroups].file[sizeof(g->file) - 1] = '\0';
	n[p->ngroups].object[sizeof(g->object) - 1] = '\0';
	p->ngroups++;
	return 0;
}

/* At most CBENCH_PROFILE_STACKS_MAX (+1 for the rest), whatever the worker,
 * which runs the benchmark's code, sends. */
static int add_stack(struct cbench_phase *p, const struct cbench_profile_stack *st)
{
	struct cbench_profile_stack *n;

	if (p->nstacks > CBENCH_PROFILE_STACKS_MAX)
		return -E2BIG;
	n = realloc(p->stacks, (p->nstacks + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	p->stacks = n;
	p->stacks[p->nstacks] = *st;
	p->stacks[p->nstacks].frames[sizeof(st->frames) - 1] = '\0';
	/* One line each in a folded file. */
	for (char *c = p->stacks[p->nstacks].frames; *c; c++)
		*c = *c == '\n' || *c == '\r' ? ' ' : *c;
	p->nstacks++;
	return 0;
}

static void describe_exit(struct cbench_phase *p, int status)
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

/* What the receive loop keeps between messages. */
struct receive {
	struct cbench_phase *p;
	pid_t pid;
	size_t cap, ref_cap;		/* room in p->samples, p->ref_samples */
	size_t timing_cap;		/* room in p->timings */
	bool done;			/* the worker finished its job */
	bool eof;			/* it will send nothing more */
};

/* A failure of ours: the worker goes, and the phase says why. */
static void fail(struct receive *r, int error, const char *reason)
{
	cbench_proc_kill_group(r->pid);
	r->p->error = error;
	snprintf(r->p->reason, sizeof(r->p->reason), "%s", reason);
	r->eof = true;
}

/* A message take() has no case for: a layout placed, or one we do not know. */
static void take_other(struct receive *r, const struct cbench_msg *m)
{
	struct cbench_phase *p = r->p;

	if (m->type == CBENCH_MSG_LAYOUT_PLACED) {
		if (add_placed(p, &m->u.placed))
			fail(r, -ENOMEM, "out of memory for layouts");
		return;
	}
	cbench_proc_kill_group(r->pid);
	p->error = -EPROTO;
	snprintf(p->reason, sizeof(p->reason), "worker sent an unknown message %u", m->type);
	r->eof = true;
}

/* One whole message from the worker. */
static void take(struct receive *r, struct cbench_msg *m)
{
	struct cbench_phase *p = r->p;

	switch (m->type) {
	case CBENCH_MSG_ENV:
		p->env = m->u.env;
		break;
	case CBENCH_MSG_TIMER:
		p->timer = m->u.timer;
		r->done = true;
		break;
	case CBENCH_MSG_TUNED:
		p->n = m->u.tuned.n;
		p->t_ns = m->u.tuned.t_ns;
		r->done = true;
		break;
	case CBENCH_MSG_SAMPLE:
		if (add_sample(&p->samples, &p->nsamples, &r->cap, &m->u.sample))
			fail(r, -ENOMEM, "out of memory for samples");
		break;
	case CBENCH_MSG_REF_SAMPLE:
		if (add_sample(&p->ref_samples, &p->nref_samples, &r->ref_cap, &m->u.sample))
			fail(r, -ENOMEM, "out of memory for samples");
		break;
	case CBENCH_MSG_PROFILE:
		p->profile = m->u.profile;
		break;
	case CBENCH_MSG_PROFILE_GROUP:
		if (add_group(p, &m->u.group))
			fail(r, -ENOMEM, "out of memory for the profile");
		break;
	case CBENCH_MSG_PROFILE_STACK:
		if (add_stack(p, &m->u.stack))
			fail(r, -ENOMEM, p->nstacks > CBENCH_PROFILE_STACKS_MAX ?
			     "the worker sent more stacks than a profile keeps" : "out of memory for the profile");
		break;
	case CBENCH_MSG_AUDIT_TIMING:
		if (add_timing(p, &r->timing_cap, &m->u.timing))
			fail(r, -ENOMEM, "out of memory for timings");
		break;
	case CBENCH_MSG_AUDIT_DONE:
		p->audit = m->u.audit;
		r->done = true;
		break;
	case CBENCH_MSG_FIGURES:
		p->figures = m->u.figures;
		break;
	case CBENCH_MSG_TPOINTS:
		p->have_tp[m->u.tp.side != 0] = true;
		p->tp[m->u.tp.side != 0] = m->u.tp;
		break;
	case CBENCH_MSG_AUDIT_NOTE:
		/* Bounded: the worker runs the benchmark's code. */
		snprintf(p->audit_note, sizeof(p->audit_note), "%.*s", (int)sizeof(p->audit_note) - 1,
			 m->u.text);
		break;
	case CBENCH_MSG_AUDIT_TP_ROUND:
		if (add_tp_round(p, &m->u.tp_round))
			fail(r, -ENOMEM, "out of memory for timings");
		break;
	case CBENCH_MSG_NEEDED:
		p->needed = (uint32_t)m->u.tuned.n;
		break;
	case CBENCH_MSG_DONE:
		r->done = true;
		break;
	case CBENCH_MSG_ERROR:
		m->u.text[sizeof(m->u.text) - 1] = '\0';
		p->error = m->error ? m->error : -EIO;
		snprintf(p->reason, sizeof(p->reason), "%s", m->u.text);
		r->eof = true;
		break;
	default:
		take_other(r, m);
		break;
	}
}

/* The phase ran out of time: Caliper's failed trial, saying what came. */
static void timed_out(struct receive *r, const struct cbench_worker_job *job, double time_limit_s)
{
	struct cbench_phase *p = r->p;
	size_t disturbed = 0;

	cbench_proc_kill_group(r->pid);
	for (size_t i = 0; i < p->nsamples; i++)
		disturbed += p->samples[i].disturbed != 0;
	if (p->nsamples)
		snprintf(p->reason, sizeof(p->reason),
			 "timeout after %gs with %zu valid measurements of %u needed (%zu disturbed)",
			 time_limit_s, p->nsamples - disturbed, p->needed ? p->needed : job->min_valid,
			 disturbed);
	else
		snprintf(p->reason, sizeof(p->reason), "timeout after %gs", time_limit_s);
	p->error = -ETIMEDOUT;
}

/* Reads whole messages from fd until the worker is done, gone or late. */
static void receive(struct receive *r, int fd, const struct cbench_worker_job *job, double time_limit_s)
{
	double deadline = cbench_now_s() + time_limit_s;
	struct cbench_msg m;
	size_t have = 0;

	while (!r->done && !r->eof) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		double left = deadline - cbench_now_s();
		ssize_t got;
		int ready;

		if (left <= 0) {
			timed_out(r, job, time_limit_s);
			return;
		}
		ready = poll(&pfd, 1, (int)ceil(left * 1000));
		got = ready > 0 ? read(fd, (char *)&m + have, sizeof(m) - have) : 0;
		if ((ready < 0 || got < 0) && errno != EINTR) {
			int error = errno;
			char reason[128];

			snprintf(reason, sizeof(reason), "lost the worker: %s", strerror(error));
			fail(r, -error, reason);
			return;
		}
		if (ready <= 0 || got < 0)
			continue;
		if (got == 0) {
			r->eof = true;
			return;
		}
		have += (size_t)got;
		if (have < sizeof(m))
			continue;
		have = 0;
		take(r, &m);
	}
}

int cbench_phase_run(const struct cbench_worker_job *job, double time_limit_s, struct cbench_phase *p)
{
	struct receive r = { .p = p };
	struct cbench_proc_end end;
	int fd;

	memset(p, 0, sizeof(*p));
	r.pid = cbench_proc_start(child, (void *)job, &fd);
	if (r.pid < 0)
		return (int)r.pid;
	current_worker = r.pid;
	receive(&r, fd, job, time_limit_s);
	close(fd);
	cbench_proc_end_group(r.pid, &end);
	current_worker = 0;
	if (end.keeper_lost && !r.done && !p->error) {
		snprintf(p->reason, sizeof(p->reason),
			 "the benchmark killed the process that supervises its worker "
			 "(does it signal its parent?)");
		p->error = -ECHILD;
	}
	if (r.eof && !r.done && !p->error)
		describe_exit(p, end.status);
	if (end.left && !p->error) {
		snprintf(p->reason, sizeof(p->reason),
			 "the benchmark left processes behind (%d, killed)", end.left);
		p->error = -ECHILD;
	}
	return 0;
}

void cbench_phase_free(struct cbench_phase *p)
{
	free(p->samples);
	p->samples = NULL;
	p->nsamples = 0;
	free(p->ref_samples);
	p->ref_samples = NULL;
	p->nref_samples = 0;
	free(p->groups);
	p->groups = NULL;
	p->ngroups = 0;
	free(p->stacks);
	p->stacks = NULL;
	p->nstacks = 0;
	free(p->timings);
	p->timings = NULL;
	p->ntimings = 0;
	free(p->tp_rounds);
	p->tp_rounds = NULL;
	p->ntp_rounds = 0;
	free(p->run_offsets);
	p->run_offsets = NULL;
	p->nlayouts = 0;
}
