/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the store holds, read back: its runs (for `store list` and the
 * exports), and its series (for `history`): one benchmark of one object
 * measured by one backend on one machine, one metric, its runs in order
 * (and, for one order, in the order they were added).
 */
#ifndef _CBENCH_STORE_SERIES_H
#define _CBENCH_STORE_SERIES_H

#include <stddef.h>

#include "store/run.h"

struct cbench_store;

/* One run as listed. */
struct cbench_store_listed {
	long long id, order;
	char *commit, *machine, *cpu, *backend, *object, *build_id, *date, *source, *copy, *note;
	char *kernel, *version;
	int cpu_count;
	long long benchmarks;		/* with at least one figure */
};

/* Every run, by object, backend, machine and order; 0 or -EIO/-ENOMEM (err). */
int cbench_store_runs(struct cbench_store *s, struct cbench_store_listed **out, size_t *n,
		      char *err, size_t errlen);
void cbench_store_runs_free(struct cbench_store_listed *v, size_t n);

/* One run of a series. */
struct cbench_store_point {
	long long run, order;
	char *commit, *build_id, *copy, *date;	/* copy NULL: no object kept */
	double value, u, lower, upper;		/* u NAN: unknown */
	long long trials;
};

struct cbench_store_series {
	char *machine, *cpu, *backend, *object, *name;
	enum cbench_metric metric;
	struct cbench_store_point *points;
	size_t n;
};

/*
 * Every series of s, grouped by machine, backend, object, benchmark and
 * metric, each in order.  0, or -EIO / -ENOMEM with why in err.
 */
int cbench_store_series(struct cbench_store *s, struct cbench_store_series **out, size_t *n,
			char *err, size_t errlen);
void cbench_store_series_free(struct cbench_store_series *v, size_t n);

/* One run's results, every benchmark and metric with its trials (for
 * the exports): into run's results.  0 or -EIO/-ENOMEM. */
int cbench_store_run_results(struct cbench_store *s, long long id, struct cbench_store_run *run);

#endif /* _CBENCH_STORE_SERIES_H */
