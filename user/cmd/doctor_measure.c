// SPDX-License-Identifier: GPL-2.0
/*
 * doctor's measured checks, in a child pinned to the CPU: the timer's step,
 * with the user backend's own calibration, and how far the core clock
 * drifts over a few seconds, read from the reference chain as a trial
 * reads it.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backend/backend.h"
#include "cmd/doctor_parts.h"
#include "machine/clock.h"
#include "machine/cpulock.h"
#include "machine/reference.h"
#include "stats/stats.h"

/* How long one round of reference measurements lasts, in ns: a round's
 * floor mean is one reading of the clock (CBENCH_DOCTOR_DRIFT_SECONDS of
 * them). */
#define DRIFT_ROUND_NS 50000000LL
/* Reference measurements kept per round (the rest are not needed). */
#define DRIFT_ROUND_SAMPLES 20000
/* A core clock whose readings spread more than this, relative, is flagged:
 * at 0.5 % a cycles estimate calibrated once is off by as much. */
#define DRIFT_WARN 0.005
/* A timer step longer than this, in ns, leaves measurements under the
 * measurement cap (100 us) shorter than 2000 steps: see the README. */
#define STEP_WARN_NS 50.0

/* What the measuring child finds; sent to the parent through a pipe. */
struct measured {
	int error;			/* 0 or -errno */
	double step_ticks;
	double tsc_hz;
	double step_ns;
	unsigned int rounds;
	double ghz_min, ghz_max;
	double spread;			/* (max - min) / min of the rounds' readings */
};

/*
 * In a child pinned to the CPU: the user backend's calibration (whose step
 * is cbench_stats_step over reads around spins of spread-out length), then
 * rounds of the reference chain for CBENCH_DOCTOR_DRIFT_SECONDS, each round's floor mean
 * one reading of the core clock, as a trial reads it.
 */
static void measure(int cpu, struct measured *r)
{
	struct cbench_backend b = { .ops = &cbench_backend_user, .no_fifo = true };
	double *ticks = malloc(DRIFT_ROUND_SAMPLES * sizeof(*ticks));
	int64_t end;
	int ret;

	memset(r, 0, sizeof(*r));
	r->ghz_min = INFINITY;
	ret = ticks ? b.ops->open(&b, cpu) : -ENOMEM;
	if (!ret)
		ret = b.ops->calibrate(&b, &b.timer);
	if (ret) {
		r->error = ret;
		goto out;
	}
	r->step_ticks = b.timer.step_ticks;
	r->tsc_hz = b.timer.tsc_hz;
	r->step_ns = b.timer.precision_ns;
	end = cbench_now_ns() + (int64_t)(CBENCH_DOCTOR_DRIFT_SECONDS * 1e9);
	while (cbench_now_ns() < end) {
		int64_t round_end = cbench_now_ns() + DRIFT_ROUND_NS;
		size_t n = 0;
		double floor, ghz;

		while (cbench_now_ns() < round_end && n < DRIFT_ROUND_SAMPLES) {
			struct cbench_sample s;

			if (b.ops->measure_ref(&b, b.timer.ref_reps, &s)) {
				r->error = -EIO;
				goto out;
			}
			if (!s.disturbed && s.ticks)
				ticks[n++] = (double)s.ticks;
		}
		if (!n)
			continue;
		floor = cbench_stats_floor_mean(ticks, n, b.timer.step_ticks);
		ghz = (double)b.timer.ref_reps * CBENCH_REF_ADDS_PER_REP / floor * r->tsc_hz / 1e9;
		r->ghz_min = fmin(r->ghz_min, ghz);
		r->ghz_max = fmax(r->ghz_max, ghz);
		r->rounds++;
	}
	r->spread = r->rounds ? (r->ghz_max - r->ghz_min) / r->ghz_min : NAN;
out:
	free(ticks);
	if (b.priv)
		b.ops->close(&b);
}

static int measure_in_child(int cpu, struct measured *r)
{
	int fds[2], status, lock;
	pid_t pid;
	ssize_t n;

	/* A run measuring on this CPU would measure us, and we it. */
	lock = cbench_cpulock_wait(cpu, stderr);
	if (lock < 0)
		return lock;
	if (pipe(fds)) {
		close(lock);
		return -errno;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		close(lock);
		return -errno;
	}
	if (!pid) {
		close(fds[0]);
		measure(cpu, r);
		_exit(write(fds[1], r, sizeof(*r)) == (ssize_t)sizeof(*r) ? 0 : 1);
	}
	close(fds[1]);
	n = read(fds[0], r, sizeof(*r));
	close(fds[0]);
	waitpid(pid, &status, 0);
	close(lock);
	if (n != (ssize_t)sizeof(*r))
		return -EIO;
	return r->error;
}

static void check_step(struct cbench_doctor_report *r, const struct measured *m)
{
	struct cbench_doctor_check *c;

	if (m->step_ns <= STEP_WARN_NS)
		c = cbench_doctor_add(r, "timer_step", "timer step", CBENCH_VERDICT_OK, NULL,
				      "%.0f TSC ticks (%.2f ns)", m->step_ticks, m->step_ns);
	else
		c = cbench_doctor_add(r, "timer_step", "timer step", CBENCH_VERDICT_WARN,
				      "measure on bare metal, where the TSC advances by one tick",
				      "%.0f TSC ticks (%.2f ns): measurements under 100 us are "
				      "shorter than 2000 steps", m->step_ticks, m->step_ns);
	cbench_doctor_extra_int(c, "step_ticks", (int64_t)m->step_ticks);
	cbench_doctor_extra_double(c, "step_ns", m->step_ns);
	cbench_doctor_extra_double(c, "tsc_hz", round(m->tsc_hz));
}

static void check_drift(struct cbench_doctor_report *r, const struct measured *m)
{
	struct cbench_doctor_check *c;

	if (!m->rounds) {
		cbench_doctor_add(r, "clock_drift", "clock drift", CBENCH_VERDICT_WARN, NULL,
				  "no undisturbed reference measurement in %.1f s",
				  CBENCH_DOCTOR_DRIFT_SECONDS);
		return;
	}
	if (m->spread <= DRIFT_WARN)
		c = cbench_doctor_add(r, "clock_drift", "clock drift", CBENCH_VERDICT_OK, NULL,
				      "%.3f-%.3f GHz over %u readings in %.1f s: %.2f %%",
				      m->ghz_min, m->ghz_max, m->rounds,
				      CBENCH_DOCTOR_DRIFT_SECONDS, 100 * m->spread);
	else
		c = cbench_doctor_add(r, "clock_drift", "clock drift", CBENCH_VERDICT_WARN,
				      "governor performance and boost off (cbenchctl lab setup); "
				      "on a VM, a dedicated host",
				      "%.3f-%.3f GHz over %u readings in %.1f s: %.2f %%, "
				      "above %.1f %%", m->ghz_min, m->ghz_max, m->rounds,
				      CBENCH_DOCTOR_DRIFT_SECONDS, 100 * m->spread,
				      100 * DRIFT_WARN);
	cbench_doctor_extra_int(c, "readings", m->rounds);
	cbench_doctor_extra_double(c, "ghz_min", m->ghz_min);
	cbench_doctor_extra_double(c, "ghz_max", m->ghz_max);
	cbench_doctor_extra_double(c, "spread", m->spread);
}

void cbench_doctor_check_measured(struct cbench_doctor_report *r)
{
	struct measured m;
	int ret = measure_in_child(r->cpu, &m);

	if (ret) {
		cbench_doctor_add(r, "timer_step", "timer step", CBENCH_VERDICT_FAIL, NULL,
				  "unable to measure on CPU %d: %s", r->cpu, strerror(-ret));
		return;
	}
	check_step(r, &m);
	check_drift(r, &m);
}
