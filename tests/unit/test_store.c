// SPDX-License-Identifier: GPL-2.0
/*
 * The results store: a run's report read into it (known headlines and
 * uncertainties), round trips through the file, the refusals, files that
 * are not stores, a series' history with its untested commits, and the LNT
 * and Bencher round trips.
 */
#include <errno.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "report/json.h"
#include "store/add.h"
#include "store/history.h"
#include "store/interchange.h"
#include "store/report_read.h"
#include "store/run.h"
#include "store/series.h"
#include "store/store.h"

static char dir[] = "/tmp/cbench-test-store.XXXXXX";
static char path[256];

/* A run report of two benchmarks, as results/doc_write.c writes one (cut down). */
static const char report_fmt[] =
	"{\"schema_version\": 1, \"config\": {\"cpu\": \"Test CPU\", \"cpu_model\": \"GenuineIntel "
	"family 6 model 1 stepping 1\", \"cpu_count\": 4, \"machine\": \"%s\", \"kernel\": \"6.1\", "
	"\"cbench_version\": \"1.0\", \"backend\": \"user\", \"date\": \"%s\", \"so\": "
	"\"/build/bench.so\", \"so_build_id\": \"%s\"%s}, \"benchmarks\": ["
	"{\"name\": \"BenchmarkChain\", \"id\": \"chain\", \"ns_per_op\": %g, \"quote_ns_per_op\": %g, "
	"\"est_cycles_per_op\": 1.5, \"trials\": ["
	"{\"status\": \"ok\", \"ns_per_op\": %g, \"est_cycles_per_op\": 1.5},"
	"{\"status\": \"ok\", \"ns_per_op\": %g, \"est_cycles_per_op\": 1.6},"
	"{\"status\": \"failed\", \"reason\": \"crashed\"},"
	"{\"status\": \"ok\", \"ns_per_op\": %g, \"est_cycles_per_op\": 1.4}]},"
	"{\"name\": \"BenchmarkCopy/size=64\", \"ns_per_op\": 2, \"trials\": ["
	"{\"status\": \"ok\", \"ns_per_op\": 2, \"instructions_per_op\": 10},"
	"{\"status\": \"ok\", \"ns_per_op\": 2.2, \"instructions_per_op\": 12}]}]}";

/* The report with its machine, date, build ID, extra config and Chain's three trials. */
static char *report(const char *machine, const char *date, const char *build, const char *extra,
		    double t1, double t2, double t3)
{
	static char buf[4096];

	snprintf(buf, sizeof(buf), report_fmt, machine, date, build, extra, t1, t1, t1, t2, t3);
	return buf;
}

/* The note a report without a digest gets (the tests' reports have none). */
static char note[256];

static int read_text(const char *text, struct cbench_store_run *run, char *err, size_t len)
{
	memset(run, 0, sizeof(*run));
	return cbench_store_read_report(text, strlen(text), run, note, sizeof(note), err, len);
}

static const struct cbench_store_result *find(const struct cbench_store_run *r, const char *name,
					      enum cbench_metric m)
{
	for (size_t i = 0; i < r->nresults; i++) {
		if (!strcmp(r->results[i].name, name) && r->results[i].metric == m)
			return &r->results[i];
	}
	return NULL;
}

static void read_known(void)
{
	struct cbench_store_run run;
	const struct cbench_store_result *x;
	char err[256];

	CU_ASSERT_EQUAL_FATAL(read_text(report("lab-1", "2026-01-01T00:00:00Z", "abc", "", 1.0, 1.1,
					       1.2), &run, err, sizeof(err)), 0);
	CU_ASSERT_STRING_EQUAL(run.machine, "lab-1");
	CU_ASSERT_STRING_EQUAL(run.cpu, "GenuineIntel family 6 model 1 stepping 1 (Test CPU)");
	CU_ASSERT_EQUAL(run.cpu_count, 4);
	CU_ASSERT_STRING_EQUAL(run.object, "bench.so");
	CU_ASSERT_STRING_EQUAL(run.build_id, "abc");
	/* ns: the quoted figure, the failed trial left out; u = sd(log) / sqrt(3). */
	x = find(&run, "Chain", CBENCH_METRIC_NS);
	CU_ASSERT_PTR_NOT_NULL_FATAL(x);
	CU_ASSERT_EQUAL(x->ntrials, 3);
	CU_ASSERT_DOUBLE_EQUAL(x->value, 1.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(x->lower, 1.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(x->upper, 1.2, 1e-12);
	{
		double l[3] = { log(1.0), log(1.1), log(1.2) }, m = (l[0] + l[1] + l[2]) / 3, ss = 0;

		for (int i = 0; i < 3; i++)
			ss += (l[i] - m) * (l[i] - m);
		CU_ASSERT_DOUBLE_EQUAL(x->u, sqrt(ss / 2) / sqrt(3), 1e-12);
	}
	/* est-cycles: the benchmark's own figure. */
	x = find(&run, "Chain", CBENCH_METRIC_EST_CYCLES);
	CU_ASSERT_PTR_NOT_NULL_FATAL(x);
	CU_ASSERT_DOUBLE_EQUAL(x->value, 1.5, 1e-12);
	/* A name with a parameter; counters: the median of trials; no est-cycles. */
	x = find(&run, "Copy/size=64", CBENCH_METRIC_INSTRUCTIONS);
	CU_ASSERT_PTR_NOT_NULL_FATAL(x);
	CU_ASSERT_DOUBLE_EQUAL(x->value, 11, 1e-12);
	CU_ASSERT_PTR_NULL(find(&run, "Copy/size=64", CBENCH_METRIC_EST_CYCLES));
	CU_ASSERT_EQUAL(run.nresults, 4);
	cbench_store_run_free(&run);
}

static void read_refused(void)
{
	static const struct { const char *text, *why; } bad[] = {
		{ "{\"schema_version\": 1, \"config\": {}, \"audits\": []}", "an audit's report" },
		{ "{\"format_version\": \"2\", \"machine\": {}}", "an LNT report" },
		{ "{\"Chain\": {\"latency\": {\"value\": 1}}}", "no schema_version" },
		{ "[1, 2]", "not a JSON object" },
		{ "{\"schema_version\": 9, \"config\": {}, \"benchmarks\": []}", "schema 9" },
	};
	struct cbench_store_run run;
	char err[256];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CU_ASSERT_EQUAL(read_text(bad[i].text, &run, err, sizeof(err)), -EINVAL);
		CU_ASSERT_PTR_NOT_NULL(strstr(err, bad[i].why));
		cbench_store_run_free(&run);
	}
	CU_ASSERT_EQUAL(read_text(report("m", "d", "abc", ", \"interrupted\": {\"signal\": \"SIGTERM\"}",
					 1, 1, 1), &run, err, sizeof(err)), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "an interrupted run (SIGTERM)"));
	cbench_store_run_free(&run);
	CU_ASSERT_EQUAL(read_text(report("m", "d", "", "", 1, 1, 1), &run, err, sizeof(err)), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "build ID"));
	cbench_store_run_free(&run);
}

/* The report with the first `shared` of its kept trials marked as run on a
 * core another thread shared (Chain's three, then Copy's two). */
static char *shared_report(int shared)
{
	static const char ok[] = "{\"status\": \"ok\", ";
	static char buf[8192];
	const char *from = report("m", "d", "abc", "", 1, 1.1, 1.2), *at;
	size_t len = 0;

	/* Each kept trial with its measurements, which make it one. */
	while ((at = strstr(from, ok))) {
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%.*s%s\"measurements\": 10, ",
					(int)(at - from + strlen(ok)), from,
					shared-- > 0 ? "\"cause\": \"shared\", " : "");
		from = at + strlen(ok);
	}
	snprintf(buf + len, sizeof(buf) - len, "%s", from);
	return buf;
}

/* A benchmark whose every kept trial ran shared is left out, with a note;
 * a run with nothing left is refused as one to measure again (-EAGAIN). */
static void read_shared(void)
{
	struct cbench_store_run run;
	char err[512];

	CU_ASSERT_EQUAL(read_text(shared_report(3), &run, err, sizeof(err)), 0);
	CU_ASSERT_PTR_NULL(find(&run, "Chain", CBENCH_METRIC_NS));
	CU_ASSERT_PTR_NOT_NULL(find(&run, "Copy/size=64", CBENCH_METRIC_NS));
	CU_ASSERT_PTR_NOT_NULL(strstr(note, "1 benchmark left out (Chain): every trial kept ran on a core "
				      "another thread shared"));
	cbench_store_run_free(&run);
	/* One of Chain's trials its own: Chain stays. */
	CU_ASSERT_EQUAL(read_text(shared_report(2), &run, err, sizeof(err)), 0);
	CU_ASSERT_PTR_NOT_NULL(find(&run, "Chain", CBENCH_METRIC_NS));
	CU_ASSERT_PTR_NULL(strstr(note, "left out"));
	cbench_store_run_free(&run);
	CU_ASSERT_EQUAL(read_text(shared_report(5), &run, err, sizeof(err)), -EAGAIN);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "no benchmark of this run has a figure to add"));
	CU_ASSERT_EQUAL(run.nresults, 0);
	cbench_store_run_free(&run);
}

/* A run whose every trial failed is refused as such, not as one to
 * measure again. */
static void read_failed(void)
{
	const char *from = report("m", "d", "abc", "", 1, 1.1, 1.2), *at;
	struct cbench_store_run run;
	char buf[8192], err[512];
	size_t len = 0;

	while ((at = strstr(from, "\"status\": \"ok\""))) {
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%.*s\"status\": \"failed\"",
					(int)(at - from), from);
		from = at + strlen("\"status\": \"ok\"");
	}
	snprintf(buf + len, sizeof(buf) - len, "%s", from);
	CU_ASSERT_EQUAL(read_text(buf, &run, err, sizeof(err)), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "no benchmark of this run measured anything"));
	cbench_store_run_free(&run);
}

static int setup(void)
{
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/store.db", dir);
	return 0;
}

static int teardown(void)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) ? -1 : 0;
}

/* Adds a report with Chain's trials around value, at order n (commit "cN"). */
static int add(const char *file, const char *machine, long long n, double value, const char *build,
	       struct cbench_store_added *out, char *err, size_t len)
{
	char date[32], commit[16];
	struct cbench_store_add a = { .commit = commit, .order = n };
	const char *text;

	snprintf(date, sizeof(date), "2026-01-01T00:%02lld:00Z", n % 60);
	snprintf(commit, sizeof(commit), "c%lld", n);
	text = report(machine, date, build, "", value, value * 1.0001, value * 1.0002);
	return cbench_store_add_report(file, text, strlen(text), &a, out, err, len);
}

static void round_trip(void)
{
	struct cbench_store_series *v;
	struct cbench_store_listed *runs;
	struct cbench_store_added out;
	struct cbench_store s;
	char err[512];
	size_t n;

	unlink(path);
	for (long long i = 1; i <= 3; i++) {
		CU_ASSERT_EQUAL(add(path, "lab-1", i, 1.0 + 0.1 * (double)i, "abc", &out, err, sizeof(err)), 0);
		CU_ASSERT_EQUAL(out.run_id, i);
		CU_ASSERT_STRING_EQUAL(out.note, "");
	}
	CU_ASSERT_EQUAL_FATAL(cbench_store_open(&s, path, false, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(cbench_store_series(&s, &v, &n, err, sizeof(err)), 0);
	/* Chain: est-cycles and ns; Copy/size=64: instructions and ns. */
	CU_ASSERT_EQUAL(n, 4);
	for (size_t i = 0; i < n; i++) {
		CU_ASSERT_EQUAL(v[i].n, 3);
		CU_ASSERT_STRING_EQUAL(v[i].machine, "lab-1");
		CU_ASSERT_STRING_EQUAL(v[i].object, "bench.so");
		if (!strcmp(v[i].name, "Chain") && v[i].metric == CBENCH_METRIC_NS) {
			CU_ASSERT_DOUBLE_EQUAL(v[i].points[2].value, 1.3, 1e-12);
			CU_ASSERT_EQUAL(v[i].points[2].order, 3);
			CU_ASSERT_STRING_EQUAL(v[i].points[2].commit, "c3");
			CU_ASSERT(v[i].points[2].u > 0 && v[i].points[2].u < 1e-3);
			CU_ASSERT_PTR_NULL(v[i].points[2].copy);
		}
	}
	cbench_store_series_free(v, n);
	CU_ASSERT_EQUAL(cbench_store_runs(&s, &runs, &n, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(n, 3);
	if (n == 3) {
		struct cbench_store_run run = { 0 };

		CU_ASSERT_EQUAL(runs[1].benchmarks, 2);
		CU_ASSERT_EQUAL(cbench_store_run_results(&s, runs[1].id, &run), 0);
		CU_ASSERT_EQUAL(run.nresults, 4);
		CU_ASSERT_EQUAL(run.results[0].ntrials, 3);
		cbench_store_run_free(&run);
	}
	cbench_store_runs_free(runs, n);
	cbench_store_close(&s);
}

static void refusals(void)
{
	struct cbench_store_added out;
	char err[512];

	unlink(path);
	CU_ASSERT_EQUAL_FATAL(add(path, "lab-1", 1, 1.0, "abc", &out, err, sizeof(err)), 0);
	/* The same report again. */
	CU_ASSERT_EQUAL(add(path, "lab-1", 1, 1.0, "abc", &out, err, sizeof(err)), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "in the store already"));
	/* Another build measured as commit c1. */
	{
		struct cbench_store_add a = { .commit = "c1", .order = 1 };
		const char *text = report("lab-1", "2026-02-02T00:00:00Z", "def", "", 1, 1, 1);

		CU_ASSERT_EQUAL(cbench_store_add_report(path, text, strlen(text), &a, &out, err,
							sizeof(err)), -EINVAL);
		CU_ASSERT_PTR_NOT_NULL(strstr(err, "was measured here as build abc"));
		/* c1 at another order, and order 1 for another commit. */
		a.order = 2;
		CU_ASSERT_EQUAL(cbench_store_add_report(path, text, strlen(text), &a, &out, err,
							sizeof(err)), -EINVAL);
		CU_ASSERT_PTR_NOT_NULL(strstr(err, "commit c1 is order 1 in this store, not 2"));
		a.commit = "c9";
		a.order = 1;
		CU_ASSERT_EQUAL(cbench_store_add_report(path, text, strlen(text), &a, &out, err,
							sizeof(err)), -EINVAL);
		CU_ASSERT_PTR_NOT_NULL(strstr(err, "order 1 of bench.so is commit c1"));
		a.commit = "has blank";
		CU_ASSERT_EQUAL(cbench_store_add_report(path, text, strlen(text), &a, &out, err,
							sizeof(err)), -EINVAL);
	}
	/* Another run of the build in the same second: without a run_id (an
	 * older cbenchctl's report), the same run; with one, its run_id tells
	 * it apart, and the same run_id again is refused. */
	CU_ASSERT_EQUAL(add(path, "lab-1", 61, 1.01, "abc", &out, err, sizeof(err)), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "in the store already"));
	{
		struct cbench_store_add a = { .commit = "c61", .order = 61 };
		const char *text = report("lab-1", "2026-01-01T00:01:00Z", "abc",
					  ", \"run_id\": \"0123456789abcdef0123456789abcdef\"", 1, 1, 1);

		CU_ASSERT_EQUAL(cbench_store_add_report(path, text, strlen(text), &a, &out, err,
							sizeof(err)), 0);
		a.commit = "c62";
		a.order = 62;
		CU_ASSERT_EQUAL(cbench_store_add_report(path, text, strlen(text), &a, &out, err,
							sizeof(err)), -EINVAL);
		CU_ASSERT_PTR_NOT_NULL(strstr(err, "in the store already"));
	}
	/* Another machine: added, apart, and the note says why. */
	CU_ASSERT_EQUAL(add(path, "lab-2", 2, 1.0, "abc", &out, err, sizeof(err)), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out.note, "the first run of bench.so on lab-2"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.note, "apart from its runs on lab-1"));
	CU_ASSERT_EQUAL(add(path, "lab-2", 3, 1.0, "abc", &out, err, sizeof(err)), 0);
	CU_ASSERT_STRING_EQUAL(out.note, "");
	CU_ASSERT(cbench_store_commit_valid("3f2a1c"));
	CU_ASSERT(!cbench_store_commit_valid(""));
	CU_ASSERT(!cbench_store_commit_valid("a\nb"));
}

/* Writes len bytes of text to file. */
static void write_file(const char *file, const char *text, size_t len)
{
	FILE *f = fopen(file, "w");

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fwrite(text, 1, len, f);
	fclose(f);
}

static void not_stores(void)
{
	struct cbench_store_added out;
	struct cbench_store s;
	char file[300], err[512];
	sqlite3 *db;

	snprintf(file, sizeof(file), "%s/none.db", dir);
	CU_ASSERT_EQUAL(cbench_store_open(&s, file, false, err, sizeof(err)), -ENOENT);
	CU_ASSERT_NOT_EQUAL(access(file, F_OK), 0);
	/* Another application's database. */
	snprintf(file, sizeof(file), "%s/foreign.db", dir);
	CU_ASSERT_EQUAL_FATAL(sqlite3_open(file, &db), SQLITE_OK);
	CU_ASSERT_EQUAL(sqlite3_exec(db, "CREATE TABLE t (x)", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	CU_ASSERT_EQUAL(cbench_store_open(&s, file, true, err, sizeof(err)), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "another application's SQLite database"));
	/* Not SQLite at all. */
	snprintf(file, sizeof(file), "%s/text.db", dir);
	write_file(file, "not a database, but long enough to have a header of a hundred bytes or so "
		   "so that SQLite reads it and finds no magic string at its start", 140);
	CU_ASSERT_EQUAL(cbench_store_open(&s, file, true, err, sizeof(err)), -EINVAL);
	/* A store of a newer schema. */
	unlink(path);
	CU_ASSERT_EQUAL_FATAL(add(path, "lab-1", 1, 1.0, "abc", &out, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(sqlite3_open(path, &db), SQLITE_OK);
	CU_ASSERT_EQUAL(sqlite3_exec(db, "PRAGMA user_version = 99", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	CU_ASSERT_EQUAL(cbench_store_open(&s, path, false, err, sizeof(err)), -EPROTO);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "schema 99"));
	/* An empty file becomes a store. */
	snprintf(file, sizeof(file), "%s/empty.db", dir);
	write_file(file, "", 0);
	CU_ASSERT_EQUAL(cbench_store_open(&s, file, true, err, sizeof(err)), 0);
	cbench_store_close(&s);
	CU_ASSERT_EQUAL(cbench_store_open(&s, file, false, err, sizeof(err)), 0);
	cbench_store_close(&s);
}

static void truncated(void)
{
	struct cbench_store_added out;
	struct cbench_store s;
	char err[512], *text;
	FILE *f;
	long size;

	unlink(path);
	for (long long i = 1; i <= 40; i++)
		CU_ASSERT_EQUAL(add(path, "lab-1", i, 1.0, "abc", &out, err, sizeof(err)), 0);
	f = fopen(path, "r+");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	text = malloc((size_t)size);
	fseek(f, 0, SEEK_SET);
	CU_ASSERT_EQUAL(fread(text, 1, (size_t)size, f), (size_t)size);
	fclose(f);
	write_file(path, text, (size_t)size / 2);
	free(text);
	CU_ASSERT_EQUAL(cbench_store_open(&s, path, false, err, sizeof(err)), -EINVAL);
	CU_ASSERT_EQUAL(cbench_store_open(&s, path, true, err, sizeof(err)), -EINVAL);
}

static void damaged(void)
{
	struct cbench_store_added out;
	struct cbench_store s;
	char err[512], junk[512];
	FILE *f;

	unlink(path);
	for (long long i = 1; i <= 40; i++)
		CU_ASSERT_EQUAL(add(path, "lab-1", i, 1.0, "abc", &out, err, sizeof(err)), 0);
	/* Garbage over the last page but one: the header and the schema hold, a
	 * table's page does not; quick_check sees it at open. */
	memset(junk, 0xa5, sizeof(junk));
	f = fopen(path, "r+");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fseek(f, 0, SEEK_END);
	fseek(f, ftell(f) - 4096 - 2048, SEEK_SET);
	fwrite(junk, 1, sizeof(junk), f);
	fclose(f);
	CU_ASSERT_EQUAL(cbench_store_open(&s, path, false, err, sizeof(err)), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "damaged"));
}

static void history_untested(void)
{
	const long long orders[] = { 1, 2, 3, 4, 5, 9, 10, 11, 12, 13 };
	struct cbench_cp_params p = { .window = 50, .max_p = 0.001, .min_effect = 0.002,
				      .confidence = 0.99 };
	struct cbench_history_select sel = { .metric = CBENCH_METRIC_NS };
	struct cbench_store_history sh;
	struct cbench_store_added out;
	char err[512];

	unlink(path);
	/* +5 % from order 9 on: the change lies in 6..9, three commits untested. */
	for (size_t i = 0; i < 10; i++)
		CU_ASSERT_EQUAL(add(path, "lab-1", orders[i], orders[i] >= 9 ? 1.05 : 1.0, "abc", &out, err,
				    sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(cbench_store_history(path, &sel, &p, &sh, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(sh.h.nseries, 2);
	for (size_t i = 0; i < sh.h.nseries; i++) {
		const struct cbench_history_series *s = &sh.h.series[i];

		CU_ASSERT_STRING_EQUAL(s->metric, "ns");
		if (strcmp(s->name, "Chain")) {
			CU_ASSERT_EQUAL(s->nchanges, 0);
			continue;
		}
		CU_ASSERT_EQUAL_FATAL(s->nchanges, 1);
		CU_ASSERT_EQUAL(s->points[s->changes[0].cp.index].order, 9);
		CU_ASSERT_EQUAL(s->changes[0].untested, 3);
		CU_ASSERT_EQUAL(s->changes[0].next_order, 7);
		CU_ASSERT_DOUBLE_EQUAL(s->changes[0].cp.change, 0.05, 1e-9);
	}
	cbench_store_history_free(&sh);
	/* The default metric: est-cycles where every run has it (Chain). */
	sel.metric = -1;
	CU_ASSERT_EQUAL_FATAL(cbench_store_history(path, &sel, &p, &sh, err, sizeof(err)), 0);
	for (size_t i = 0; i < sh.h.nseries; i++)
		CU_ASSERT_STRING_EQUAL(sh.h.series[i].metric,
				       strcmp(sh.h.series[i].name, "Chain") ? "ns" : "est-cycles");
	cbench_store_history_free(&sh);
}

static void interchange(void)
{
	struct cbench_store_import im = { .format = "lnt", .order = -1, .backend = "user" };
	struct cbench_store_series *a, *b;
	struct cbench_store_added out;
	struct cbench_store s;
	char exported[300], file[400], copy[300], err[512];
	size_t written, na, nb;

	unlink(path);
	for (long long i = 1; i <= 3; i++)
		CU_ASSERT_EQUAL(add(path, "lab-1", i, 1.0 + 0.1 * (double)i, "abc", &out, err, sizeof(err)), 0);
	snprintf(exported, sizeof(exported), "%s/lnt", dir);
	CU_ASSERT_EQUAL_FATAL(cbench_store_export(path, "lnt", exported, &written, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(written, 3);
	/* LNT's units: ps per op, cycles per 1000 ops (run 1's Chain: 1.1 ns, 1.5 cycles). */
	{
		struct cbench_json *doc;
		const struct cbench_json *tests;
		char *text;
		size_t len;
		FILE *f;

		snprintf(file, sizeof(file), "%s/run-1.lnt.json", exported);
		f = fopen(file, "r");
		CU_ASSERT_PTR_NOT_NULL_FATAL(f);
		text = calloc(1, 65536);
		len = fread(text, 1, 65535, f);
		fclose(f);
		CU_ASSERT_EQUAL_FATAL(cbench_json_parse(text, len, &doc, err, sizeof(err)), 0);
		tests = cbench_json_get(doc, "tests");
		CU_ASSERT_PTR_NOT_NULL_FATAL(tests);
		CU_ASSERT_STRING_EQUAL(cbench_json_string(&tests->items[0], "name", ""), "Chain");
		CU_ASSERT_DOUBLE_EQUAL(cbench_json_number(&tests->items[0], "ps_per_op_estimate", 0), 1100,
				       1e-9);
		CU_ASSERT_DOUBLE_EQUAL(cbench_json_number(&tests->items[0], "est_cycles_per_kop_estimate", 0),
				       1500, 1e-9);
		CU_ASSERT_STRING_EQUAL(cbench_json_string(cbench_json_get(doc, "run"),
							  "llvm_project_revision", ""), "1.c1");
		cbench_json_free(doc);
		free(text);
	}
	snprintf(copy, sizeof(copy), "%s/copy.db", dir);
	unlink(copy);
	for (int i = 1; i <= 3; i++) {
		snprintf(file, sizeof(file), "%s/run-%d.lnt.json", exported, i);
		im.commit = NULL;
		im.order = -1;
		CU_ASSERT_EQUAL(cbench_store_import(copy, file, &im, &out, err, sizeof(err)), 0);
		CU_ASSERT_EQUAL(im.order, i);
	}
	CU_ASSERT_EQUAL_FATAL(cbench_store_open(&s, path, false, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(cbench_store_series(&s, &a, &na, err, sizeof(err)), 0);
	cbench_store_close(&s);
	CU_ASSERT_EQUAL_FATAL(cbench_store_open(&s, copy, false, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(cbench_store_series(&s, &b, &nb, err, sizeof(err)), 0);
	cbench_store_close(&s);
	/* The same machine (name and CPU), commits, orders and values. */
	CU_ASSERT_EQUAL_FATAL(na, nb);
	for (size_t i = 0; i < na; i++) {
		CU_ASSERT_STRING_EQUAL(a[i].cpu, b[i].cpu);
		CU_ASSERT_STRING_EQUAL(a[i].name, b[i].name);
		for (size_t k = 0; k < a[i].n && k < b[i].n; k++) {
			CU_ASSERT_STRING_EQUAL(a[i].points[k].commit, b[i].points[k].commit);
			CU_ASSERT_DOUBLE_EQUAL(a[i].points[k].value, b[i].points[k].value,
					       1e-12 * a[i].points[k].value);
			CU_ASSERT_DOUBLE_EQUAL(a[i].points[k].u, b[i].points[k].u, 1e-9);
		}
	}
	cbench_store_series_free(a, na);
	cbench_store_series_free(b, nb);
	/* Bencher: no machine of its own. */
	snprintf(exported, sizeof(exported), "%s/bmf", dir);
	CU_ASSERT_EQUAL_FATAL(cbench_store_export(path, "bmf", exported, &written, err, sizeof(err)), 0);
	snprintf(file, sizeof(file), "%s/run-1.bmf.json", exported);
	im = (struct cbench_store_import){ .format = "bmf", .commit = "x", .order = 5, .backend = "user" };
	CU_ASSERT_EQUAL(cbench_store_import(copy, file, &im, &out, err, sizeof(err)), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "--machine"));
	im.machine = "ci-1";
	CU_ASSERT_EQUAL(cbench_store_import(copy, file, &im, &out, err, sizeof(err)), 0);
}

static CU_TestInfo store_tests[] = {
	{ "a run report's headlines and uncertainties", read_known },
	{ "what is not a run report is refused", read_refused },
	{ "benchmarks whose every trial ran shared are left out", read_shared },
	{ "a run whose every trial failed is refused", read_failed },
	{ "runs round trip through the file", round_trip },
	{ "conflicting runs refused, another machine kept apart", refusals },
	{ "files that are not stores", not_stores },
	{ "a truncated store is refused", truncated },
	{ "a damaged store is refused", damaged },
	{ "a history: its step and the untested commits", history_untested },
	{ "LNT and Bencher round trips", interchange },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_store_suites[] = {
	{ "store", setup, teardown, NULL, NULL, store_tests },
	CU_SUITE_INFO_NULL,
};
