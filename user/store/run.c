// SPDX-License-Identifier: GPL-2.0
/* A run as the store takes it in; see run.h. */
#include <errno.h>
#include <math.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"
#include "store/run.h"

int cbench_store_run_push(struct cbench_store_run *r, const struct cbench_store_result *res)
{
	struct cbench_store_result *v = realloc(r->results, (r->nresults + 1) * sizeof(*v));
	struct cbench_store_result *copy;

	if (!v)
		return -ENOMEM;
	r->results = v;
	copy = &v[r->nresults];
	*copy = *res;
	copy->trials = malloc((res->ntrials + 1) * sizeof(double));
	if (!copy->trials)
		return -ENOMEM;
	memcpy(copy->trials, res->trials, res->ntrials * sizeof(double));
	r->nresults++;
	return 0;
}

void cbench_store_run_free(struct cbench_store_run *r)
{
	for (size_t i = 0; i < r->nresults; i++)
		free(r->results[i].trials);
	free(r->results);
	r->results = NULL;
	r->nresults = 0;
}

void cbench_store_result_spread(struct cbench_store_result *res)
{
	double *logs = malloc((res->ntrials + 1) * sizeof(double));

	res->lower = cbench_stats_min(res->trials, res->ntrials);
	res->upper = cbench_stats_max(res->trials, res->ntrials);
	res->u = NAN;
	if (!logs || res->ntrials < 2) {
		free(logs);
		return;
	}
	for (size_t i = 0; i < res->ntrials; i++)
		logs[i] = log(res->trials[i]);
	res->u = cbench_stats_stddev(logs, res->ntrials) / sqrt((double)res->ntrials);
	free(logs);
}

static uint64_t fnv1a(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;

	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

void cbench_store_run_fingerprint(const struct cbench_store_run *r, char *out, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	if (r->run_id[0]) {
		snprintf(out, len, "id:%s", r->run_id);
		return;
	}
	/* Strings with their NULs, so that no two splits hash alike. */
	h = fnv1a(h, r->build_id, strlen(r->build_id) + 1);
	h = fnv1a(h, r->date, strlen(r->date) + 1);
	h = fnv1a(h, r->machine, strlen(r->machine) + 1);
	h = fnv1a(h, r->backend, strlen(r->backend) + 1);
	h = fnv1a(h, r->object, strlen(r->object) + 1);
	/* An LNT or Bencher report says neither build nor date: the commit
	 * it is imported as and its figures tell it apart. */
	if (r->source && strcmp(r->source, "json")) {
		h = fnv1a(h, r->commit, strlen(r->commit) + 1);
		h = fnv1a(h, &r->order, sizeof(r->order));
	}
	for (size_t i = 0; r->source && strcmp(r->source, "json") && i < r->nresults; i++) {
		const struct cbench_store_result *x = &r->results[i];
		double v[3] = { x->value, x->lower, x->upper };

		h = fnv1a(h, x->name, strlen(x->name) + 1);
		h = fnv1a(h, &x->metric, sizeof(x->metric));
		h = fnv1a(h, v, sizeof(v));
		h = fnv1a(h, x->trials, x->ntrials * sizeof(*x->trials));
	}
	snprintf(out, len, "%016" PRIx64, h);
}
