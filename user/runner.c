// SPDX-License-Identifier: GPL-2.0
/*
 * Running one phase in a worker.  We fork after the benchmark object is
 * loaded, so the worker starts with it mapped; we flush stdio first so the
 * child cannot write our buffered output a second time if a benchmark calls
 * exit().  The worker's stdout goes to our stderr: a chatty benchmark must
 * not corrupt a report on stdout.
 *
 * A benchmark may fork.  What it forks must not outlive the phase: it would
 * hold our CPU lock, the report's temporary file and perf fds, and stay
 * pinned to the measured CPU.  So the worker keeps only stdio and its pipe,
 * leads a process group of its own, and we kill that group at the end of
 * every phase.  We are a child subreaper, so the worker's orphans become
 * our children: we reap them, and know whether they were still running.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "runner.h"

/* The worker's message pipe, once it has closed everything else. */
#define WORKER_PIPE_FD 3
/* How long we wait for a killed process group to die, in 5 ms steps. */
#define REAP_STEPS 200

/* The worker of the phase in progress, for cbench_phase_abort(). */
static volatile pid_t current_worker;

/* Kills the worker and its process group, which it leads; the worker too in
 * case neither setpgid() took.  Async-signal-safe. */
static void kill_group(pid_t pid)
{
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
}

void cbench_phase_abort(void)
{
	pid_t pid = current_worker;
	struct timespec step = { 0, 5000000 };

	if (pid <= 0)
		return;
	kill_group(pid);
	for (int i = 0; i < 20 && waitpid(pid, NULL, WNOHANG) == 0; i++)
		nanosleep(&step, NULL);
}

static double monotonic_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Closes every fd from `from` up; close_range where the kernel has it. */
static void close_from(int from)
{
	struct rlimit rl;

	if (close_range((unsigned int)from, ~0U, 0) == 0)
		return;
	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > 1 << 20)
		rl.rlim_cur = 1 << 20;
	for (int fd = from; fd < (int)rl.rlim_cur; fd++)
		close(fd);
}

static void child(const struct cbench_worker_job *job, int fd, pid_t runner)
{
	int null, ret;

	/* A worker must never outlive its runner: a SCHED_FIFO worker stuck
	 * in a benchmark that never returns would own its CPU for good.  The
	 * getppid() check closes the race with a runner dying before prctl. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != runner)
		_exit(1);
	/* Also done by the runner, so that neither side races the other. */
	setpgid(0, 0);
	/* Only stdio and the pipe (closed below): the runner's CPU lock,
	 * output files and anything else it holds must not pass to what a
	 * benchmark forks. */
	if (fd != WORKER_PIPE_FD) {
		if (dup2(fd, WORKER_PIPE_FD) < 0)
			_exit(1);
		fd = WORKER_PIPE_FD;
	}
	null = open("/dev/null", O_RDONLY | O_CLOEXEC);

	signal(SIGPIPE, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	if (null >= 0)
		dup2(null, STDIN_FILENO);
	dup2(STDERR_FILENO, STDOUT_FILENO);
	/* Not a terminal, stdout is fully buffered, and _exit() would drop
	 * what a benchmark printed. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	close_from(WORKER_PIPE_FD + 1);
	ret = cbench_worker_main(job, fd);
	fflush(stdout);
	_exit(ret);
}

/*
 * Ends the worker's process group: waits for the worker to exit (*status),
 * kills whatever else is left in its group and reaps it.  The worker stays a
 * zombie until the group is killed, so its pid, the group's id, cannot have
 * been reused by then.  Returns how many processes were still running.
 */
static int end_group(pid_t pid, int *status)
{
	struct timespec step = { 0, 5000000 };
	siginfo_t info;
	int left = 0, st;
	pid_t got;

	while (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOWAIT) < 0 && errno == EINTR)
		;
	kill(-pid, SIGKILL);
	while (waitpid(pid, status, 0) < 0 && errno == EINTR)
		;
	/* Those that had exited on their own are no leftovers; those our
	 * SIGKILL ended are. */
	for (int i = 0; i < REAP_STEPS; i++) {
		got = waitpid(-pid, &st, WNOHANG);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			break;
		if (got == 0) {
			nanosleep(&step, NULL);
			continue;
		}
		left += WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL;
	}
	return left;
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

static int add_group(struct cbench_phase *p, const struct cbench_profile_group *g)
{
	struct cbench_profile_group *n = realloc(p->groups, (p->ngroups + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	p->groups = n;
	p->groups[p->ngroups++] = *g;
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

int cbench_phase_run(const struct cbench_worker_job *job, double time_limit_s, struct cbench_phase *p)
{
	double deadline = monotonic_s() + time_limit_s;
	struct cbench_msg m;
	size_t have = 0, cap = 0, ref_cap = 0;
	int fds[2], status = 0, done = 0, eof = 0;
	pid_t pid, runner = getpid();
	int left_behind;

	memset(p, 0, sizeof(*p));
	/* Where it fails, a benchmark's orphans go to init: we still kill
	 * them, but cannot tell whether any were left. */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	if (pipe2(fds, O_CLOEXEC))
		return -errno;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		int ret = -errno;

		close(fds[0]);
		close(fds[1]);
		return ret;
	}
	if (pid == 0) {
		close(fds[0]);
		child(job, fds[1], runner);
	}
	close(fds[1]);
	setpgid(pid, pid);
	current_worker = pid;

	while (!done && !eof) {
		struct pollfd pfd = { .fd = fds[0], .events = POLLIN };
		double left = deadline - monotonic_s();
		ssize_t got;
		int ready;

		if (left <= 0) {
			size_t disturbed = 0;

			kill_group(pid);
			for (size_t i = 0; i < p->nsamples; i++)
				disturbed += p->samples[i].disturbed != 0;
			if (p->nsamples)
				/* Caliper's failed trial: measurements came, valid ones did not. */
				snprintf(p->reason, sizeof(p->reason),
					 "timeout after %gs with %zu valid measurements of %u needed (%zu disturbed)",
					 time_limit_s, p->nsamples - disturbed,
					 p->needed ? p->needed : job->min_valid, disturbed);
			else
				snprintf(p->reason, sizeof(p->reason), "timeout after %gs", time_limit_s);
			p->error = -ETIMEDOUT;
			break;
		}
		ready = poll(&pfd, 1, (int)ceil(left * 1000));
		if (ready < 0 && errno != EINTR) {
			kill_group(pid);
			p->error = -errno;
			snprintf(p->reason, sizeof(p->reason), "lost the worker: %s", strerror(errno));
			break;
		}
		if (ready <= 0)
			continue;
		got = read(fds[0], (char *)&m + have, sizeof(m) - have);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			kill_group(pid);
			p->error = -errno;
			snprintf(p->reason, sizeof(p->reason), "lost the worker: %s", strerror(errno));
			break;
		}
		if (got == 0) {
			eof = 1;
			break;
		}
		have += (size_t)got;
		if (have < sizeof(m))
			continue;
		have = 0;
		switch (m.type) {
		case CBENCH_MSG_ENV:
			p->env = m.u.env;
			break;
		case CBENCH_MSG_TIMER:
			p->timer = m.u.timer;
			done = 1;
			break;
		case CBENCH_MSG_TUNED:
			p->n = m.u.tuned.n;
			p->t_ns = m.u.tuned.t_ns;
			done = 1;
			break;
		case CBENCH_MSG_SAMPLE:
		case CBENCH_MSG_REF_SAMPLE:
			if (m.type == CBENCH_MSG_SAMPLE ?
			    add_sample(&p->samples, &p->nsamples, &cap, &m.u.sample) :
			    add_sample(&p->ref_samples, &p->nref_samples, &ref_cap, &m.u.sample)) {
				kill_group(pid);
				p->error = -ENOMEM;
				snprintf(p->reason, sizeof(p->reason), "out of memory for samples");
				eof = 1;
			}
			break;
		case CBENCH_MSG_PROFILE:
			p->profile = m.u.profile;
			break;
		case CBENCH_MSG_PROFILE_GROUP:
			if (add_group(p, &m.u.group)) {
				kill_group(pid);
				p->error = -ENOMEM;
				snprintf(p->reason, sizeof(p->reason), "out of memory for the profile");
				eof = 1;
			}
			break;
		case CBENCH_MSG_NEEDED:
			p->needed = (uint32_t)m.u.tuned.n;
			break;
		case CBENCH_MSG_DONE:
			done = 1;
			break;
		case CBENCH_MSG_ERROR:
			m.u.text[sizeof(m.u.text) - 1] = '\0';
			p->error = m.error ? m.error : -EIO;
			snprintf(p->reason, sizeof(p->reason), "%s", m.u.text);
			eof = 1;
			break;
		default:
			kill_group(pid);
			p->error = -EPROTO;
			snprintf(p->reason, sizeof(p->reason), "worker sent an unknown message %u", m.type);
			eof = 1;
			break;
		}
	}
	close(fds[0]);
	left_behind = end_group(pid, &status);
	current_worker = 0;
	if (eof && !done && !p->error)
		describe_exit(p, status);
	if (left_behind && !p->error) {
		snprintf(p->reason, sizeof(p->reason),
			 "the benchmark left processes behind (%d, killed)", left_behind);
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
}
