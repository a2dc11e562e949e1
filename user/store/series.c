// SPDX-License-Identifier: GPL-2.0
/* Runs and series read back from the store; see series.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/series.h"
#include "store/store.h"

/* Column i as a malloc'd string; NULL for NULL (and out of memory). */
static char *text(struct cbench_store_stmt *st, int i)
{
	const char *t = cbench_store_text(st, i);

	return t ? strdup(t) : NULL;
}

/* Grows *v of *cap elements of size to hold n + 1. */
static int grow(void **v, size_t *cap, size_t n, size_t size)
{
	void *p;

	if (n < *cap)
		return 0;
	p = realloc(*v, (*cap ? 2 * *cap : 16) * size);
	if (!p)
		return -ENOMEM;
	*v = p;
	*cap = *cap ? 2 * *cap : 16;
	return 0;
}

static int finish(struct cbench_store *s, struct cbench_store_stmt *st, int ret, char *err,
		  size_t errlen)
{
	if (cbench_store_end(st) && !ret)
		return cbench_store_error(s, "cannot read the store", err, errlen);
	if (ret == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	return ret;
}

int cbench_store_runs(struct cbench_store *s, struct cbench_store_listed **out, size_t *n,
		      char *err, size_t errlen)
{
	struct cbench_store_stmt *st = cbench_store_query(s,
		"SELECT r.id, r.ord, r.commit_id, m.name, m.cpu, r.backend, r.object, r.build_id, r.date, "
		"r.source, r.object_copy, r.note, (SELECT count(DISTINCT benchmark) FROM result WHERE "
		"run = r.id), r.kernel, r.cbench_version, m.cpu_count FROM run r JOIN machine m ON "
		"m.id = r.machine "
		"ORDER BY r.object, r.backend, m.name, m.id, r.ord, r.id", "");
	struct cbench_store_listed *v = NULL;
	size_t cap = 0, k = 0;
	int ret = 0;

	while (cbench_store_step(st) > 0) {
		struct cbench_store_listed *r;

		ret = grow((void **)&v, &cap, k, sizeof(*v));
		if (ret)
			break;
		r = &v[k++];
		*r = (struct cbench_store_listed){
			.id = cbench_store_int(st, 0), .order = cbench_store_int(st, 1),
			.commit = text(st, 2), .machine = text(st, 3), .cpu = text(st, 4),
			.backend = text(st, 5), .object = text(st, 6), .build_id = text(st, 7),
			.date = text(st, 8), .source = text(st, 9), .copy = text(st, 10),
			.note = text(st, 11), .benchmarks = cbench_store_int(st, 12),
			.kernel = text(st, 13), .version = text(st, 14),
			.cpu_count = (int)cbench_store_int(st, 15),
		};
		if (!r->commit || !r->machine || !r->cpu || !r->backend || !r->object || !r->build_id ||
		    !r->date || !r->source || !r->kernel || !r->version)
			ret = -ENOMEM;
	}
	*out = v;
	*n = k;
	ret = finish(s, st, ret, err, errlen);
	if (ret) {
		cbench_store_runs_free(v, k);
		*out = NULL;
		*n = 0;
	}
	return ret;
}

void cbench_store_runs_free(struct cbench_store_listed *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++) {
		free(v[i].commit);
		free(v[i].machine);
		free(v[i].cpu);
		free(v[i].backend);
		free(v[i].object);
		free(v[i].build_id);
		free(v[i].date);
		free(v[i].source);
		free(v[i].copy);
		free(v[i].note);
		free(v[i].kernel);
		free(v[i].version);
	}
	free(v);
}

/* Whether the row continues series cur (same machine, backend, object, name, metric). */
static int same_series(struct cbench_store_stmt *st, const struct cbench_store_series *cur,
		       long long *machine_id, long long cur_machine)
{
	*machine_id = cbench_store_int(st, 0);
	return cur && *machine_id == cur_machine &&
	       !strcmp(cbench_store_text(st, 3), cur->backend) &&
	       !strcmp(cbench_store_text(st, 4), cur->object) &&
	       !strcmp(cbench_store_text(st, 5), cur->name) &&
	       cbench_metric_of(cbench_store_text(st, 6)) == (int)cur->metric;
}

static int start_series(struct cbench_store_stmt *st, struct cbench_store_series *s)
{
	int m = cbench_metric_of(cbench_store_text(st, 6));

	*s = (struct cbench_store_series){
		.machine = text(st, 1), .cpu = text(st, 2), .backend = text(st, 3),
		.object = text(st, 4), .name = text(st, 5),
		.metric = m < 0 ? CBENCH_METRIC_NS : (enum cbench_metric)m,
	};
	return s->machine && s->cpu && s->backend && s->object && s->name ? 0 : -ENOMEM;
}

static int add_point(struct cbench_store_stmt *st, struct cbench_store_series *s, size_t *cap)
{
	struct cbench_store_point *p;

	if (grow((void **)&s->points, cap, s->n, sizeof(*s->points)))
		return -ENOMEM;
	p = &s->points[s->n++];
	*p = (struct cbench_store_point){
		.run = cbench_store_int(st, 7), .order = cbench_store_int(st, 8),
		.commit = text(st, 9), .build_id = text(st, 10), .copy = text(st, 11),
		.date = text(st, 12), .value = cbench_store_double(st, 13),
		.u = cbench_store_double(st, 14), .lower = cbench_store_double(st, 15),
		.upper = cbench_store_double(st, 16),
		.trials = cbench_store_int(st, 17),
	};
	return p->commit && p->build_id && p->date ? 0 : -ENOMEM;
}

int cbench_store_series(struct cbench_store *s, struct cbench_store_series **out, size_t *n,
			char *err, size_t errlen)
{
	struct cbench_store_stmt *st = cbench_store_query(s,
		"SELECT m.id, m.name, m.cpu, r.backend, r.object, x.benchmark, x.metric, r.id, r.ord, "
		"r.commit_id, r.build_id, r.object_copy, r.date, x.value, x.u, x.lower, x.upper, x.trials "
		"FROM result x JOIN run r ON r.id = x.run JOIN machine m ON m.id = r.machine "
		"ORDER BY r.object, r.backend, m.name, m.id, x.benchmark, x.metric, r.ord, r.id", "");
	struct cbench_store_series *v = NULL, *cur = NULL;
	size_t cap = 0, k = 0, points_cap = 0;
	long long machine = -1, cur_machine = -1;
	int ret = 0;

	while (!ret && cbench_store_step(st) > 0) {
		if (!same_series(st, cur, &machine, cur_machine)) {
			ret = grow((void **)&v, &cap, k, sizeof(*v));
			if (ret)
				break;
			cur = &v[k++];
			cur_machine = machine;
			points_cap = 0;
			ret = start_series(st, cur);
		}
		ret = ret ? ret : add_point(st, cur, &points_cap);
	}
	*out = v;
	*n = k;
	ret = finish(s, st, ret, err, errlen);
	if (ret) {
		cbench_store_series_free(v, k);
		*out = NULL;
		*n = 0;
	}
	return ret;
}

void cbench_store_series_free(struct cbench_store_series *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++) {
		for (size_t j = 0; j < v[i].n; j++) {
			free(v[i].points[j].commit);
			free(v[i].points[j].build_id);
			free(v[i].points[j].copy);
			free(v[i].points[j].date);
		}
		free(v[i].points);
		free(v[i].machine);
		free(v[i].cpu);
		free(v[i].backend);
		free(v[i].object);
		free(v[i].name);
	}
	free(v);
}

int cbench_store_run_results(struct cbench_store *s, long long id, struct cbench_store_run *run)
{
	struct cbench_store_stmt *st = cbench_store_query(s,
		"SELECT x.benchmark, x.metric, x.value, x.u, x.lower, x.upper, t.value FROM result x "
		"LEFT JOIN trial t ON t.run = x.run AND t.benchmark = x.benchmark AND t.metric = x.metric "
		"WHERE x.run = ? ORDER BY x.benchmark, x.metric, t.k", "i", id);
	struct cbench_store_result *cur = NULL;
	size_t cap = 0;
	int ret = 0;

	while (cbench_store_step(st) > 0) {
		const char *name = cbench_store_text(st, 0);
		int m = cbench_metric_of(cbench_store_text(st, 1));

		if (m < 0)
			continue;
		if (!cur || strcmp(cur->name, name) || (int)cur->metric != m) {
			struct cbench_store_result r = {
				.metric = (enum cbench_metric)m, .value = cbench_store_double(st, 2),
				.u = cbench_store_double(st, 3), .lower = cbench_store_double(st, 4),
				.upper = cbench_store_double(st, 5),
			};

			snprintf(r.name, sizeof(r.name), "%s", name);
			if (cbench_store_run_push(run, &r)) {
				ret = -ENOMEM;
				break;
			}
			cur = &run->results[run->nresults - 1];
			cap = 0;
		}
		if (!cbench_store_null(st, 6)) {
			if (grow((void **)&cur->trials, &cap, cur->ntrials, sizeof(double))) {
				ret = -ENOMEM;
				break;
			}
			cur->trials[cur->ntrials++] = cbench_store_double(st, 6);
		}
	}
	if (cbench_store_end(st))
		return -EIO;
	return ret;
}
