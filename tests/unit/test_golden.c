// SPDX-License-Identifier: GPL-2.0
/*
 * Every report format, rendered from one fixed run and one fixed audit,
 * against the files in tests/golden/: a change to the writers or to what
 * they read that changes a byte of a report shows here.  Where the change
 * is meant, write the files anew and read their diff (golden.h):
 *
 *   CBENCH_GOLDEN_UPDATE=1 build/unit_tests golden
 *
 * The run: three benchmarks on a made-up machine, every number drawn from
 * a fixed seed, once without hardware counters and once with; the audit: one pair, two rounds.  Nothing here reads the
 * clock or the host (the LNT report's end time is masked).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "golden.h"
#include "machine/reference.h"
#include "report/figures.h"
#include "report/json.h"
#include "report/report_audit.h"
#include "report/context.h"
#include "report/report.h"
#include "results/doc.h"
#include "results/doc_write.h"
#include "stats/sequential.h"

#define TRIALS 7
#define SAMPLES 24

static const struct cbench_desc chain = { .name = "add_chain", .ops_per_rep = 1000 };
static const struct cbench_desc copy = { .name = "copy", .ops_per_rep = 1, .bytes_per_rep = 4096 };
static struct cbench_experiment exps[3];
static struct cbench_sample bench[2][TRIALS][SAMPLES], refs[2][TRIALS][SAMPLES];
static struct cbench_trial trials[3][TRIALS];
static struct cbench_result results[3];
static struct cbench_report run;

static uint64_t state;
/* The run's samples carry hardware counters: every one for the first
 * benchmark, instructions alone for the second. */
static bool counters;

static double uniform(void)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return (double)(state >> 11) * (1.0 / 9007199254740992.0);
}

/* Benchmark b's trial t: SAMPLES measurements of `ticks` give or take a
 * few, one in eight disturbed, each followed by a reference measurement
 * at 3.0 GHz on a 2.3 GHz TSC. */
static void fill_trial(int b, int t, double ticks, uint64_t reps)
{
	struct cbench_trial *tr = &trials[b][t];

	for (int i = 0; i < SAMPLES; i++) {
		bench[b][t][i] = (struct cbench_sample){
			.reps = reps, .ticks = (uint64_t)(ticks * (1 + 0.002 * uniform())),
			.disturbed = i % 8 == 7 ? CBENCH_DISTURB_CSWITCH : 0 };
		if (counters)
			bench[b][t][i].have = b == 0 ? CBENCH_HAVE_INSTRUCTIONS | CBENCH_HAVE_CYCLES |
						       CBENCH_HAVE_REF_CYCLES : CBENCH_HAVE_INSTRUCTIONS;
		bench[b][t][i].instructions = reps * 1003 + (uint64_t)i;
		bench[b][t][i].cycles = reps * 1000 + (uint64_t)t;
		bench[b][t][i].ref_cycles = reps * 770;
		refs[b][t][i] = (struct cbench_sample){
			.reps = 64, .ticks = (uint64_t)(64.0 * CBENCH_REF_ADDS_PER_REP * 2.3 / 3.0 *
							(1 + 0.001 * uniform())) };
	}
	*tr = (struct cbench_trial){ .n = reps, .samples = bench[b][t], .nsamples = SAMPLES,
				     .ref_samples = refs[b][t], .nref_samples = SAMPLES,
				     .arena_bytes = 1 << 21, .start_s = 1 + 10.0 * t + b,
				     .end_s = 1 + 10.0 * t + b + 0.5 };
}

static void build_run(void)
{
	static char *argv[] = { "cbenchctl", "run", "bench.so", NULL };

	/* Whether or not another test set it: a date of our own. */
	setenv("SOURCE_DATE_EPOCH", "1795000000", 1);
	cbench_context_init(3, argv);
	unsetenv("SOURCE_DATE_EPOCH");
	memset(&run, 0, sizeof(run));
	state = 88172645463325252ULL;
	run.backend = "user";
	run.version = "0.9.0-golden";
	run.so_path = "/lab/bench.so";
	run.build_id = "0123456789abcdef";
	strcpy(run.machine.cpu_vendor, "GenuineIntel");
	strcpy(run.machine.cpu_name, "Made-up Xeon");
	run.machine.cpu_family = 6;
	run.machine.cpu_model = 207;
	run.machine.cpus_online = 2;
	strcpy(run.machine.kernel_release, "6.1.0-golden");
	strcpy(run.machine.hostname, "lab1");
	run.machine.mem_bytes = 24ULL << 30;
	run.machine.hypervisor = true;
	run.machine.tsc_invariant = true;
	run.machine.rdtscp = true;
	run.machine.perf_paranoid = 2;
	run.machine.rdpmc_sysfs = 1;
	strcpy(run.timer.name, "tsc (lfence;rdtsc / rdtscp;lfence)");
	run.timer.tsc_hz = 2.3e9;
	run.timer.overhead_ticks = 34;
	run.timer.step_ticks = 2;
	run.timer.precision_ns = 0.87;
	run.timer.accuracy_ns = 15;
	run.timer.est_cycles_per_tick = 3.0 / 2.3;
	run.timer.ref_reps = 64;
	run.env.cpu = 1;
	strcpy(run.env.disturb_source, "perf");
	run.env.perf_hw_error = -2;
	run.env.arena_bytes = 1 << 21;
	exps[0] = (struct cbench_experiment){ .desc = &chain, .id = "add_chain",
					      .report_name = "BenchmarkAddChain" };
	exps[1] = (struct cbench_experiment){ .desc = &copy, .id = "copy/size=4096",
					      .report_name = "BenchmarkCopy/size=4096" };
	exps[2] = (struct cbench_experiment){ .desc = &chain, .id = "broken",
					      .report_name = "BenchmarkBroken" };
	for (int t = 0; t < TRIALS; t++) {
		/* 1000 adds a rep, 40 reps: 40,000 cycles, 30,667 ticks; trial 3
		 * 4 % slow throughout, placement-like. */
		fill_trial(0, t, 30667 * (t == 3 ? 1.04 : 1.0), 40);
		fill_trial(1, t, 23000, 100);
		trials[1][t].figures = (struct cbench_trial_figures){
			.have_allocs = true, .allocs_per_op = 0.5, .bytes_per_op = 48,
			.have_width = true, .core_width = 4.47 };
		trials[2][t] = (struct cbench_trial){ .error = -5 };
		strcpy(trials[2][t].reason, "tuning failed: worker killed by signal SIGSEGV");
	}
	trials[0][5].have_tp = true;
	trials[0][5].tp = (struct cbench_tp_summary){ .calls = 3, .every = 1, .iterations = 120,
		.q_ns = { 10, 11, 12, 13, 20 }, .mean_ns = 12.5, .stddev_ns = 1.5,
		.min_timing_ticks = 40, .perturb = 0.25 };
	results[0] = (struct cbench_result){ .exp = &exps[0], .tuning = "tuned", .n = 40,
					     .trials = trials[0], .ntrials = TRIALS };
	results[1] = (struct cbench_result){ .exp = &exps[1], .tuning = "cached", .n = 100,
					     .trials = trials[1], .ntrials = TRIALS };
	results[2] = (struct cbench_result){ .exp = &exps[2], .tuning = "failed",
					     .trials = trials[2], .ntrials = TRIALS };
	run.results = results;
	run.nresults = 3;
	cbench_report_summarize(&run);
}

/* Every occurrence of what in *s, as with. */
static void replace_all(char **s, const char *what, const char *with)
{
	size_t wl = strlen(what), tl = strlen(with);
	char *at;

	for (at = wl ? strstr(*s, what) : NULL; at; at = strstr(at, what)) {
		size_t off = (size_t)(at - *s), len = strlen(*s);
		char *n = malloc(len - wl + tl + 1);

		CU_ASSERT_FATAL(n != NULL);
		memcpy(n, *s, off);
		memcpy(n + off, with, tl);
		memcpy(n + off + tl, *s + off + wl, len - off - wl + 1);
		free(*s);
		*s = n;
		at = n + off + tl;
	}
}

/* What the build and the host say: cbenchctl's version and the host. */
static void mask_context(char **s)
{
	const char *host = cbench_context()->host;
	char what[128];

	replace_all(s, CBENCH_VERSION, "<version>");
	snprintf(what, sizeof(what), "\"host\":\"%s\"", host);
	replace_all(s, what, "\"host\":\"<host>\"");
	snprintf(what, sizeof(what), "\"host\": \"%s\"", host);
	replace_all(s, what, "\"host\": \"<host>\"");
	snprintf(what, sizeof(what), "# host: %s\n", host);
	replace_all(s, what, "# host: <host>\n");
	snprintf(what, sizeof(what), " on %s: ", host);
	replace_all(s, what, " on <host>: ");
}

/* The LNT report's end time is the moment it was written. */
static void mask_time(char *s)
{
	for (char *p = strstr(s, "\"end_time\""); p; p = strstr(p + 1, "\"end_time\"")) {
		char *v = strchr(p + 10, '"');

		for (v = v ? v + 1 : NULL; v && *v && *v != '"'; v++)
			*v = 'X';
	}
}

enum run_format { GO, JSON, LNT, BMF, CSV, TABLE, JUNIT };

static void render_run(enum run_format which, const char *name)
{
	const struct cbench_lnt_run lnt = { .machine = "lab1", .order = "42" };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int ret = 0;

	CU_ASSERT_FATAL(f != NULL);
	switch (which) {
	case GO:
		ret = cbench_report_go(&run, f);
		break;
	case JSON:
		ret = cbench_report_json(&run, f);
		break;
	case LNT:
		ret = cbench_report_lnt(&run, &lnt, f);
		break;
	case BMF:
		ret = cbench_report_bmf(&run, f);
		break;
	case CSV:
		ret = cbench_report_csv(&run, f);
		break;
	case TABLE:
		cbench_report_table(&run, f, false);
		break;
	case JUNIT:
		ret = cbench_report_junit(&run, f);
		break;
	}
	fclose(f);
	CU_ASSERT_EQUAL(ret, 0);
	mask_time(buf);
	mask_context(&buf);
	golden_check(name, buf);
	free(buf);
}

static void run_reports(void)
{
	build_run();
	render_run(GO, "run.go.txt");
	render_run(JSON, "run.json");
	render_run(LNT, "run.lnt.json");
	render_run(BMF, "run.bmf.json");
	render_run(CSV, "run.csv");
	render_run(TABLE, "run.table.txt");
	render_run(JUNIT, "run.junit.xml");
}

/* What one writer makes of a report, as a string. */
static char *rendered(const struct cbench_report *r, enum run_format which)
{
	const struct cbench_lnt_run lnt = { .machine = "lab1", .order = "42" };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	CU_ASSERT_FATAL(f != NULL);
	switch (which) {
	case GO:
		CU_ASSERT_EQUAL(cbench_report_go(r, f), 0);
		break;
	case JSON:
		CU_ASSERT_EQUAL(cbench_report_json(r, f), 0);
		break;
	case LNT:
		CU_ASSERT_EQUAL(cbench_report_lnt(r, &lnt, f), 0);
		break;
	case BMF:
		CU_ASSERT_EQUAL(cbench_report_bmf(r, f), 0);
		break;
	case JUNIT:
		CU_ASSERT_EQUAL(cbench_report_junit(r, f), 0);
		break;
	default:
		cbench_report_table(r, f, false);
		break;
	}
	fclose(f);
	mask_time(buf);
	return buf;
}

/*
 * run --resume carries benchmarks over from a JSON report (results/bench_read.c):
 * the fixed run read back from its JSON must render in every format as the
 * run itself did, byte for byte (the raw measurements excepted: the JSON
 * report has none).
 */
static void carried_reports(void)
{
	static const enum run_format formats[] = { GO, JSON, LNT, BMF, TABLE, JUNIT };
	struct cbench_result carried[3];
	struct cbench_report again;
	struct cbench_doc doc = { 0 };
	char *json, err[200];

	build_run();
	/* What a run decides beyond its trials' figures: where --precision
	 * stopped a benchmark, and the code layouts its trials ran at. */
	run.results[1].stop = CBENCH_STOP_PRECISE;
	run.results[1].stop_est = true;
	run.results[1].stop_half = 0.00075;
	run.results[2].layouts = 3;
	run.results[2].layout_share = 0.625;
	run.results[2].layout_sensitive = true;
	run.results[2].placement_sensitive = true;
	for (size_t i = 0; i < run.results[2].ntrials; i++) {
		run.results[2].trials[i].layout = 1 + (uint32_t)i / 2;
		run.results[2].trials[i].run_offset = 64 * (i / 2);
	}
	json = rendered(&run, JSON);
	CU_ASSERT_FATAL(cbench_doc_parse(&doc, json, strlen(json), 0, err, sizeof(err)) == 0);
	CU_ASSERT_FATAL(doc.nbench == 3);
	for (int i = 0; i < 3; i++) {
		carried[i] = (struct cbench_result){ .exp = &exps[i] };
		CU_ASSERT_EQUAL_FATAL(cbench_doc_result(&doc.bench[i], &carried[i]), 0);
	}
	again = run;
	again.results = carried;
	cbench_report_summarize(&again);
	for (size_t k = 0; k < sizeof(formats) / sizeof(formats[0]); k++) {
		char *want = rendered(&run, formats[k]), *got = rendered(&again, formats[k]);

		if (strcmp(want, got))
			fprintf(stderr, "\n  carried: format %d differs at line %u\n", (int)formats[k],
				golden_first_diff(want, got));
		CU_ASSERT_STRING_EQUAL(want, got);
		free(want);
		free(got);
	}
	for (int i = 0; i < 3; i++)
		free(carried[i].trials);
	cbench_doc_free(&doc);
	free(json);
}

/*
 * Every figure a trial's JSON carries is read back (results/doc.h, as
 * resume, store, compare and plot read it): each row of report/figures.c that the JSON writes has
 * its way in, and a value set on a trial comes back as it was, counters and
 * allocations included.  A new figure without one fails here.
 */
static void figures_read_back(void)
{
	struct cbench_result carried = { .exp = &exps[0] };
	struct cbench_doc doc = { 0 };
	struct cbench_trial *t;
	char *json, err[200];
	unsigned int checked = 0;

	build_run();
	t = &run.results[0].trials[0];
	for (unsigned int i = 0; i < cbench_nfigures; i++) {
		const struct cbench_figure *f = &cbench_figures[i];

		if (!(f->show & CBENCH_SHOW_JSON) && !f->headline)
			continue;
		if (!f->set)
			fprintf(stderr, "\n  figure %s: JSON writes it, nothing reads it back\n", f->name);
		CU_ASSERT_PTR_NOT_NULL_FATAL(f->set);
		f->set(t, 1.25 + i);
	}
	json = rendered(&run, JSON);
	CU_ASSERT_FATAL(cbench_doc_parse(&doc, json, strlen(json), 0, err, sizeof(err)) == 0);
	CU_ASSERT_FATAL(doc.nbench == 3);
	CU_ASSERT_EQUAL_FATAL(cbench_doc_result(&doc.bench[0], &carried), 0);
	for (unsigned int i = 0; i < cbench_nfigures; i++) {
		const struct cbench_figure *f = &cbench_figures[i];
		double got = cbench_figure_value(f, &carried.trials[0]);

		if (!(f->show & CBENCH_SHOW_JSON) && !f->headline)
			continue;
		if (fabs(got - (1.25 + i)) > 1e-9)
			fprintf(stderr, "\n  figure %s: wrote %g, read back %g\n", f->name, 1.25 + i, got);
		CU_ASSERT_DOUBLE_EQUAL(got, 1.25 + i, 1e-9);
		checked++;
	}
	CU_ASSERT(checked >= 11);
	free(carried.trials);
	cbench_doc_free(&doc);
	free(json);
}

/*
 * Every member of a benchmark's JSON is read back: the run written, read
 * (results/bench_read.c) and written again from what was read, not from
 * the JSON it carries, is the same text byte for byte, every result-level
 * figure set (where --precision stopped, layouts, an unstable headline, a
 * parallel gap, notes, counters, timing points).  A member that the writer
 * writes and the reader drops fails here, with the first line that differs.
 */
static void members_read_back(void)
{
	struct cbench_result again_results[3];
	struct cbench_report again;
	struct cbench_doc doc = { 0 };
	char *json, *json2, err[200];
	struct cbench_result *r;

	counters = true;
	build_run();
	counters = false;
	run.jobs = 2;
	r = &run.results[0];
	r->stop = CBENCH_STOP_BUDGET;
	r->stop_half = 0.0125;
	r->unstable = true;
	snprintf(r->unstable_reason, sizeof(r->unstable_reason), "trials disagree: a made-up reason");
	snprintf(r->set_aside_note, sizeof(r->set_aside_note), "1 trial set aside: a made-up note");
	snprintf(r->cycles_note, sizeof(r->cycles_note), "est-cycles/op parts: a made-up note");
	r->cycles_gap = 0.0075;
	r->parallel_gap = -0.003;
	r->parallel_differs = true;
	r->layouts = 2;
	r->layout_share = 0.5;
	r->layout_sensitive = true;
	r->placement_sensitive = true;
	r->have_tp = true;
	r->tp = run.results[0].trials[5].tp;
	json = rendered(&run, JSON);
	CU_ASSERT_FATAL(cbench_doc_parse(&doc, json, strlen(json), 0, err, sizeof(err)) == 0);
	CU_ASSERT_FATAL(doc.nbench == 3);
	/* Each found by its name and its id (the reader's index), nothing else. */
	for (int i = 0; i < 3; i++) {
		CU_ASSERT_PTR_EQUAL(cbench_doc_find(&doc, exps[i].report_name, false), &doc.bench[i]);
		CU_ASSERT_PTR_EQUAL(cbench_doc_find(&doc, exps[i].id, true), &doc.bench[i]);
	}
	CU_ASSERT_PTR_NULL(cbench_doc_find(&doc, "BenchmarkNone", false));
	CU_ASSERT_PTR_NULL(cbench_doc_find(&doc, "add_chain", false));
	CU_ASSERT_PTR_NULL(cbench_doc_find(&doc, "", true));
	for (int i = 0; i < 3; i++) {
		again_results[i] = (struct cbench_result){ .exp = &exps[i] };
		CU_ASSERT_EQUAL_FATAL(cbench_doc_result(&doc.bench[i], &again_results[i]), 0);
		again_results[i].carried = NULL;
		for (size_t t = 0; t < again_results[i].ntrials; t++)
			again_results[i].trials[t].start_s = 0;
	}
	again = run;
	again.results = again_results;
	json2 = rendered(&again, JSON);
	if (strcmp(json, json2)) {
		size_t at = 0;

		while (json[at] && json[at] == json2[at])
			at++;
		fprintf(stderr, "\n  read back: written again, the JSON differs at byte %zu: ...%.60s\n"
			"  where it was: ...%.60s\n", at, json2 + (at > 20 ? at - 20 : 0),
			json + (at > 20 ? at - 20 : 0));
	}
	CU_ASSERT_STRING_EQUAL(json, json2);
	for (int i = 0; i < 3; i++)
		free(again_results[i].trials);
	cbench_doc_free(&doc);
	free(json);
	free(json2);
}

/* The same run with hardware counters: the figures read from them in every
 * format that shows them (report/figures.c). */
static void run_reports_counters(void)
{
	counters = true;
	build_run();
	counters = false;
	render_run(GO, "run-counters.go.txt");
	render_run(JSON, "run-counters.json");
	render_run(LNT, "run-counters.lnt.json");
	render_run(BMF, "run-counters.bmf.json");
	render_run(CSV, "run-counters.csv");
	render_run(TABLE, "run-counters.table.txt");
}

static struct cbench_audit_timing timings[] = {
	{ 0, 0, 1.00, NAN }, { 0, 1, 1.02, NAN }, { 0, 0, 1.01, NAN }, { 0, 1, 1.03, NAN }, { 1, 1, 1.02, NAN },
	{ 1, 0, 1.00, NAN }, { 1, 1, 1.04, NAN }, { 1, 0, 1.02, NAN },
};

static void audit_reports(void)
{
	const struct cbench_lnt_run lnt = { .machine = "lab1", .order = "42" };
	struct cbench_audit_pair p = {
		.a = &exps[0], .b = &exps[1], .n_a = 40, .n_b = 40, .timings = timings,
		.ntimings = sizeof(timings) / sizeof(timings[0]), .timings_a = 4, .timings_b = 4,
		.converge_a = 1e4, .converge_b = 2e4,
		.end = { .rounds = 2, .verdict = CBENCH_VERDICT_B_SLOWER, .change = 0.0199,
			 .lower = 0.011, .upper = 0.028, .wall_s = 1.25, .placements = { 2, 2 },
			 .per_round = 2, .round_var = 1e-4, .noise_var = 2e-5, .step_bound = 1e-5 },
	};
	struct cbench_audit_report r = { .seed = 42, .confidence = 0.99, .budget_s = 30,
					 .min_effect_pct = 0.2, .backend = "user", .pairs = &p,
					 .npairs = 1, .timer = run.timer, .machine = run.machine };
	static const char *const names[] = { "audit.txt", "audit.json", "audit.go.txt",
					     "audit.lnt.json" };

	build_run();
	r.timer = run.timer;
	for (int i = 0; i < 4; i++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		int ret;

		CU_ASSERT_FATAL(f != NULL);
		ret = i == 0 ? cbench_audit_report_text(&r, f) :
		      i == 1 ? cbench_audit_report_json(&r, f) :
		      i == 2 ? cbench_audit_report_go(&r, f) : cbench_audit_report_lnt(&r, &lnt, f);
		fclose(f);
		CU_ASSERT_EQUAL(ret, 0);
		mask_time(buf);
		mask_context(&buf);
		golden_check(names[i], buf);
		free(buf);
	}
}

static CU_TestInfo golden_tests[] = {
	{ "a fixed run in every format, byte for byte", run_reports },
	{ "the run with hardware counters, byte for byte", run_reports_counters },
	{ "a fixed audit in every format, byte for byte", audit_reports },
	{ "the fixed run read back from its JSON (run --resume) renders as the run", carried_reports },
	{ "every figure a trial's JSON carries is read back", figures_read_back },
	{ "every member of a benchmark's JSON is read back, byte for byte", members_read_back },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_golden_suites[] = {
	{ "golden reports", NULL, NULL, NULL, NULL, golden_tests },
	CU_SUITE_INFO_NULL,
};
