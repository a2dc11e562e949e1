// SPDX-License-Identifier: GPL-2.0
/* What every measuring subcommand does around its measurements; see session.h. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "error.h"
#include "machine/cpulock.h"
#include "object/loader.h"
#include "report/outfile.h"
#include "session/phase.h"
#include "session/session.h"
#include "stats/tune.h"

/* Limit for the calibration worker, in seconds; it needs well under one. */
#define CALIBRATE_TIME_LIMIT_S 30.0
/* Fresh workers that each run Alg. 1 when a benchmark is tuned. */
#define TUNE_WORKERS 3

int cbench_session_pick_cpu(int wanted, int *cpu, bool *shared)
{
	cpu_set_t set, others;
	int last = -1, count = 0;

	if (sched_getaffinity(0, sizeof(set), &set))
		return -errno;
	for (int i = 0; i < CPU_SETSIZE; i++) {
		if (CPU_ISSET(i, &set)) {
			last = i;
			count++;
		}
	}
	if (wanted >= 0 && !CPU_ISSET(wanted, &set))
		return -EINVAL;
	*cpu = wanted >= 0 ? wanted : last;
	*shared = count == 1;
	/* The runner keeps off the worker's CPU so that reading the pipe
	 * never preempts a measurement. */
	if (count > 1) {
		others = set;
		CPU_CLR(*cpu, &others);
		sched_setaffinity(0, sizeof(others), &others);
	}
	return 0;
}

static void on_signal(int sig)
{
	cbench_phase_abort();
	cbench_outfile_cleanup_and_die(sig);
}

int cbench_session_open_output(struct cbench_outfile *out, const char *path)
{
	int ret;

	cbench_outfile_handle_signals(on_signal);
	ret = cbench_outfile_open(out, path);
	if (ret) {
		cbench_err("unable to write %s: %s\n", path, cbench_outfile_error(out, ret));
		return -1;
	}
	return 0;
}

int cbench_session_claim_cpu(int cpu, const char *doing)
{
	int fd = cbench_cpulock_wait(cpu, stderr);

	if (fd < 0)
		cbench_err("%s on CPU %d without claiming it (%s): another run may share it\n", doing,
			   cpu, strerror(-fd));
	return fd;
}

int cbench_session_calibrate(const struct cbench_backend_ops *ops, int cpu, bool shared_cpu,
			     struct cbench_timer *timer, struct cbench_backend_env *env)
{
	struct cbench_worker_job job = {
		.mode = CBENCH_WORKER_CALIBRATE,
		.ops = ops,
		.cpu = cpu,
		.no_fifo = shared_cpu,
		.rt_limit_s = CALIBRATE_TIME_LIMIT_S,
	};
	struct cbench_phase p;
	int ret;

	ret = cbench_phase_run(&job, CALIBRATE_TIME_LIMIT_S, &p);
	if (ret) {
		cbench_err("unable to start a worker: %s\n", strerror(-ret));
		return ret;
	}
	if (p.error) {
		cbench_err("unable to calibrate the timer: %s\n", p.reason);
		return p.error;
	}
	*timer = p.timer;
	*env = p.env;
	return 0;
}

int cbench_session_tune(const struct cbench_worker_job *job, double time_limit_s, uint64_t *n,
			char *failure, size_t failure_len)
{
	struct cbench_worker_job tune = *job;
	struct cbench_tune_params tp;
	double best_t_ns = INFINITY;
	int ret;

	/* Caliper's macrobenchmark instrument: one call per measurement. */
	if (cbench_desc_per_rep(job->exp->desc)) {
		*n = 1;
		return 0;
	}

	/* Alg. 1 in several fresh workers, keeping the smallest estimate of t:
	 * one worker that ran while the machine was busy must not decide n for
	 * every later run (the result is cached). */
	tune.mode = CBENCH_WORKER_TUNE;
	for (int w = 0; w < TUNE_WORKERS; w++) {
		struct cbench_phase p;

		ret = cbench_phase_run(&tune, time_limit_s, &p);
		if (ret) {
			snprintf(failure, failure_len, "cannot start a worker: %s", strerror(-ret));
			return ret;
		}
		ret = p.error;
		if (ret)
			snprintf(failure, failure_len, "%s", p.reason);
		else if (p.t_ns < best_t_ns)
			best_t_ns = p.t_ns;
		cbench_phase_free(&p);
		if (ret)
			return ret;
	}
	cbench_tune_params_init(&tp, job->timer.precision_ns, job->timer.accuracy_ns);
	*n = cbench_tune_oracle(&tp, best_t_ns);
	return 0;
}

int cbench_session_run_self(const char *const *argv, const char *err_path)
{
	int status, fd;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		if (err_path) {
			fd = open(err_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
			if (fd >= 0)
				dup2(fd, STDERR_FILENO);
		}
		fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (fd >= 0)
			dup2(fd, STDOUT_FILENO);
		execv("/proc/self/exe", (char *const *)argv);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			return -errno;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
