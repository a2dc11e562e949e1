// SPDX-License-Identifier: GPL-2.0
/*
 * The worker side of `cbenchctl layout`: the benchmark measured at layout
 * after layout of its code (object/codeplace.h, through the backend's
 * place op), nothing else moved.  Each layout is drawn from a seed of its
 * own (cbench_placement_seed()), so any one of them can be replayed alone.
 * Each starts with a warm-up: a fresh copy of the code starts cold in the
 * caches and predictors, which is a cost of loading, not of its layout.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "machine/clock.h"
#include "machine/arena.h"
#include "worker/layout_worker.h"

/* A layout's warm-up: at least this many measurements, and this long. */
#define WARM_MEASUREMENTS 10
#define WARM_NS 2e6

/* Warms the current layout up, then sends its timings. */
static int measure_layout(struct cbench_backend *b, const struct cbench_worker_job *job,
			  uint32_t index, struct cbench_outbox *out, int fd)
{
	struct cbench_msg m = { .type = CBENCH_MSG_AUDIT_TIMING };
	double start = (double)cbench_now_ns(), ops;
	uint64_t n = job->n ? job->n : 1;
	struct cbench_sample s;
	int ret = 0;

	ops = job->exp->desc->ops_per_rep ? (double)job->exp->desc->ops_per_rep : 1;
	for (int k = 0; !ret && (k < WARM_MEASUREMENTS || (double)cbench_now_ns() - start < WARM_NS); k++)
		ret = b->ops->measure(b, n, &s);
	for (int k = 0; !ret && k < CBENCH_LAYOUT_PER_LAYOUT; k++) {
		ret = b->ops->measure(b, n, &s);
		if (ret || s.disturbed)
			continue;
		m.u.timing = (struct cbench_audit_timing){ index, 0,
			(double)s.ticks * 1e9 / b->timer.tsc_hz / ((double)n * ops), NAN };
		ret = cbench_outbox_put(out, fd, &m);
	}
	return ret;
}

int cbench_worker_layout(struct cbench_backend *b, const struct cbench_worker_job *job, int fd)
{
	static struct cbench_outbox out;
	struct cbench_msg m = { .type = CBENCH_MSG_LAYOUT_PLACED };
	int ret = 0;

	if (!b->ops->place) {
		snprintf(b->error, sizeof(b->error), "the %s backend cannot place code", b->ops->name);
		return -EOPNOTSUPP;
	}
	cbench_outbox_init(&out);
	for (uint32_t k = 0; !ret && k <= job->layouts; k++) {
		struct cbench_placement pl;

		if (k) {
			cbench_placement_init(&pl, cbench_placement_seed(job->seed, k));
			pl.code = pl.code_only = true;
			ret = b->ops->place(b, &pl);
			if (!ret && b->code_layouts != k) {
				snprintf(b->error, sizeof(b->error), "its code cannot be laid out anew here");
				ret = -EOPNOTSUPP;
			}
			cbench_placement_free(&pl);
		}
		m.u.placed = (struct cbench_layout_placed){ .index = k, .run_offset = b->code_offset };
		ret = ret ? ret : cbench_outbox_put(&out, fd, &m);
		ret = ret ? ret : measure_layout(b, job, k, &out, fd);
	}
	ret = ret ? ret : cbench_outbox_flush(&out, fd);
	m.type = CBENCH_MSG_DONE;
	return ret ? ret : cbench_worker_send(fd, &m);
}
