// SPDX-License-Identifier: GPL-2.0
/*
 * Each run in progress has a CPU of its own to watch it (netlink_run.c's
 * where_free()): a CPU that measures or watches is refused as another
 * run's CPU or watcher, the watcher asked for must be another online CPU,
 * and one freed by its run's end is free again.  kmod.sh loads runs_max=2;
 * what is checked beyond two CPUs depends on how many the guest has.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kmod_test.h"

/* A run that lasts hours (quarter_budget_reps()) on cpu; its id, or <= 0. */
static int long_run(struct nl *nl, struct run_args *r, uint32_t cpu, int watcher)
{
	r->cpu = cpu;
	r->watcher = watcher;
	return run_start(nl, r);
}

/* Cancels run and waits for its end: then it holds no CPU. */
static void end_run(struct nl *nl, int run)
{
	struct run_state s;
	int ret;

	if (run <= 0)
		return;
	check(simple(nl, CBENCH_CMD_RUN_CANCEL, CBENCH_A_RUN_ID, (uint32_t)run) == 0,
	      "run %d cancelled", run);
	ret = run_wait(nl, (uint32_t)run, &s);
	/* Two runs at once share single-threaded TCG's one host thread: a
	 * sample sized for a quarter budget alone may outlast the budget, and
	 * three in a row end a run TOO_LONG before the cancel does. */
	check(ret == 0 && (s.state == CBENCH_RUN_CANCELLED || s.state == CBENCH_RUN_TOO_LONG),
	      "run %d ended %s (%d %s)", run, state_name(s.state), ret, nl->ext);
	check(simple(nl, CBENCH_CMD_RUN_DEL, CBENCH_A_RUN_ID, (uint32_t)run) == 0,
	      "run %d deleted", run);
}

/* Whether run is still measuring: the refusals below need it so. */
static void measuring(struct nl *nl, int run)
{
	struct run_state s;
	int ret = run > 0 ? run_get(nl, (uint32_t)run, &s) : run;

	check(ret == 0 && s.state == CBENCH_RUN_RUNNING, "run %d is measuring (%d, %s)", run, ret,
	      ret ? "-" : state_name(s.state));
}

/* ret is -EBUSY with text in the extended ack. */
static void busy(struct nl *nl, int ret, const char *text, const char *what)
{
	check(ret == -EBUSY && strstr(nl->ext, text), "%s refused: %d %s", what, ret, nl->ext);
}

/* On three CPUs or more: a second run on CPU 2 beside the first on 0
 * (watched from 1); where a fourth is online it is watched from 3. */
static int second_run(struct nl *nl, struct run_args *r, long cpus, int a)
{
	struct run_state s = { .watcher = -1 };
	int run;

	measuring(nl, a);
	busy(nl, long_run(nl, r, 2, 1 + 1), "the CPU asked to watch measures or watches",
	     "a watcher that watches another run");
	busy(nl, long_run(nl, r, 2, 0 + 1), "the CPU asked to watch measures or watches",
	     "a watcher that measures");
	run = long_run(nl, r, 2, 0);
	if (cpus == 3) {
		busy(nl, run, "every other CPU measures or watches", "a run with no CPU free to watch it");
		return 0;
	}
	if (run > 0)
		run_get(nl, (uint32_t)run, &s);
	check(run > 0 && s.watcher == 3,
	      "a second run at once on CPU 2, watched from CPU 3: run %d, watcher %d %s", run,
	      s.watcher, nl->ext);
	return run;
}

void watchers(const struct cbench_kimage *image, const char *name)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	struct run_args r = { .samples = 1U << 20 };
	struct run_state s = { .watcher = -1 };
	struct nl nl;
	int id, a, b = 0, ret;

	if (!prepare(&nl, image, name, &r, &id))
		return;
	/* A sixteenth of the budget: two runs at once share TCG's one host
	 * thread, and still each lasts minutes at the most samples. */
	r.reps = quarter_budget_reps(&nl, &r) / 4;
	check(r.reps > 0, "reps sized from the probe: %" PRIu64 " for a sixteenth of the budget",
	      r.reps);
	printf("%ld CPUs online\n", cpus);

	ret = long_run(&nl, &r, 0, 0 + 1);
	check(ret == -EINVAL && strstr(nl.ext, "the watcher must be another CPU"),
	      "a run watched from its own CPU refused: %d %s", ret, nl.ext);
	ret = long_run(&nl, &r, 0, 4096 + 1);
	check(ret == -EINVAL && strstr(nl.ext, "the watcher must be another CPU"),
	      "a watcher that is no CPU refused: %d %s", ret, nl.ext);

	/* Unasked, the next CPU up that is free. */
	a = long_run(&nl, &r, 0, 0);
	if (a > 0)
		run_get(&nl, (uint32_t)a, &s);
	check(a > 0 && s.watcher == 1,
	      "a run on CPU 0 watched from CPU 1: run %d, watcher %d %s", a, s.watcher, nl.ext);
	if (a <= 0)
		return;
	measuring(&nl, a);
	busy(&nl, long_run(&nl, &r, 0, 0), "another run is in progress on this CPU",
	     "a second run on a measuring CPU");
	busy(&nl, long_run(&nl, &r, 1, 0), "watches the calls of another run",
	     "a run on the watching CPU");
	if (cpus >= 3)
		b = second_run(&nl, &r, cpus, a);
	end_run(&nl, b);
	end_run(&nl, a);

	/* Ended, its CPUs are free: CPU 1 measures, watched from the next up. */
	r.reps = 100;
	r.samples = 20;
	a = long_run(&nl, &r, 1, 0);
	s.watcher = -1;
	if (a > 0)
		run_get(&nl, (uint32_t)a, &s);
	check(a > 0 && s.watcher == (cpus > 2 ? 2 : 0),
	      "CPU 1 measures once the run it watched has ended: run %d, watcher %d %s", a,
	      s.watcher, nl.ext);
	ret = a > 0 ? run_wait(&nl, (uint32_t)a, &s) : a;
	check(ret == 0 && s.state == CBENCH_RUN_DONE, "and its run ends %s", state_name(s.state));
	if (a > 0)
		simple(&nl, CBENCH_CMD_RUN_DEL, CBENCH_A_RUN_ID, (uint32_t)a);
	check(simple(&nl, CBENCH_CMD_IMAGE_DEL, CBENCH_A_IMAGE_ID, (uint32_t)id) == 0,
	      "image deleted");
	close(nl.fd);
}
