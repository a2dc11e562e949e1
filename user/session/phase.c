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

/* What the receive loop keeps between messages. */
struct receive {
	struct cbench_phase_end *p;
	struct cbench_collector *c;
	pid_t pid;
	bool done;			/* the worker finished its job */
	bool eof;			/* it will send nothing more */
};

/* One whole message from the worker: what every mode sends here, the
 * rest to the mode's collector. */
static void take(struct receive *r, struct cbench_msg *m)
{
	struct cbench_phase_end *p = r->p;
	int ret;

	switch (m->type) {
	case CBENCH_MSG_ENV:
		p->env = m->u.env;
		return;
	case CBENCH_MSG_DONE:
		r->done = true;
		return;
	case CBENCH_MSG_ERROR:
		m->u.text[sizeof(m->u.text) - 1] = '\0';
		p->error = m->error ? m->error : -EIO;
		snprintf(p->reason, sizeof(p->reason), "%s", m->u.text);
		r->eof = true;
		return;
	}
	ret = r->c->take(r->c, m, p->reason, sizeof(p->reason));
	if (ret > 0) {
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
static void timed_out(struct receive *r, double time_limit_s)
{
	cbench_proc_kill_group(r->pid);
	r->p->error = -ETIMEDOUT;
	if (!r->c->late || !r->c->late(r->c, time_limit_s, r->p->reason, sizeof(r->p->reason)))
		snprintf(r->p->reason, sizeof(r->p->reason), "timeout after %gs", time_limit_s);
}

/* Reads whole messages from fd until the worker is done, gone or late. */
static void receive(struct receive *r, int fd, double time_limit_s)
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
			timed_out(r, time_limit_s);
			return;
		}
		ready = poll(&pfd, 1, (int)ceil(left * 1000));
		got = ready > 0 ? read(fd, (char *)&m + have, sizeof(m) - have) : 0;
		if ((ready < 0 || got < 0) && errno != EINTR) {
			int error = errno;

			cbench_proc_kill_group(r->pid);
			r->p->error = -error;
			snprintf(r->p->reason, sizeof(r->p->reason), "lost the worker: %s",
				 strerror(error));
			r->eof = true;
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

int cbench_phase_run(const struct cbench_worker_job *job, double time_limit_s,
		     struct cbench_collector *c, struct cbench_phase_end *p)
{
	struct receive r = { .p = p, .c = c };
	struct cbench_proc_end end;
	int fd;

	memset(p, 0, sizeof(*p));
	r.pid = cbench_proc_start(child, (void *)job, &fd);
	if (r.pid < 0)
		return (int)r.pid;
	current_worker = r.pid;
	receive(&r, fd, time_limit_s);
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
