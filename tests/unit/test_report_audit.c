// SPDX-License-Identifier: GPL-2.0
/* The reports of `cbenchctl audit` (report_audit.c), on a made-up audit. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "report/report_audit.h"
#include "stats/sequential.h"

static struct cbench_experiment exp_a = { .id = "chain_1000", .report_name = "BenchmarkChain1000" };
static struct cbench_experiment exp_b = { .id = "chain_1010", .report_name = "BenchmarkChain1010" };

/* Two rounds: A's timings 1..4 and 5..8, B's 10..13 and 20..23. */
static struct cbench_audit_timing timings[] = {
	{ 0, 0, 1, NAN }, { 0, 1, 10, NAN }, { 0, 0, 2, NAN }, { 0, 1, 11, NAN }, { 0, 0, 3, NAN }, { 0, 1, 12, NAN },
	{ 0, 0, 4, NAN }, { 0, 1, 13, NAN }, { 1, 1, 20, NAN }, { 1, 0, 5, NAN }, { 1, 1, 21, NAN }, { 1, 0, 6, NAN },
	{ 1, 1, 22, NAN }, { 1, 0, 7, NAN }, { 1, 1, 23, NAN }, { 1, 0, 8, NAN },
};

static void make(struct cbench_audit_report *r, struct cbench_audit_pair *p, int verdict)
{
	memset(p, 0, sizeof(*p));
	p->a = &exp_a;
	p->b = &exp_b;
	p->n_a = p->n_b = 380;
	/* Rounds that vary by 1 % (sd, log scale), a quarter of their
	 * variance what the noise within rounds predicts. */
	p->end = (struct cbench_audit_end){ .rounds = 2, .verdict = verdict, .change = 0.0102,
					    .lower = 0.0085, .upper = 0.0119, .wall_s = 1.5,
					    .placements = { 12, 12 }, .per_round = 100,
					    .round_var = 1e-4, .noise_var = 2.5e-5, .step_bound = 2e-4 };
	p->timings = timings;
	p->ntimings = sizeof(timings) / sizeof(timings[0]);
	*r = (struct cbench_audit_report){ .seed = 42, .confidence = 0.99, .budget_s = 30,
					   .min_effect_pct = 0.2, .backend = "user", .pairs = p,
					   .npairs = 1 };
}

static void verdicts(void)
{
	struct cbench_audit_report r;
	struct cbench_audit_pair p;
	char s[256];

	make(&r, &p, CBENCH_VERDICT_B_SLOWER);
	cbench_audit_verdict_text(&r, &p, s, sizeof(s));
	CU_ASSERT_STRING_EQUAL(s, "B slower by 1.02 % [0.85 %, 1.19 %]");
	/* Faster: the change and its interval turn round. */
	p.end = (struct cbench_audit_end){ .verdict = CBENCH_VERDICT_B_FASTER, .change = -0.0102,
					   .lower = -0.0119, .upper = -0.0085 };
	cbench_audit_verdict_text(&r, &p, s, sizeof(s));
	CU_ASSERT_STRING_EQUAL(s, "B faster by 1.02 % [0.85 %, 1.19 %]");
	CU_ASSERT_STRING_EQUAL(cbench_audit_verdict_name(&p), "faster");
	/* Equivalent: within the band, across 0. */
	p.end = (struct cbench_audit_end){ .verdict = CBENCH_VERDICT_EQUIVALENT, .change = 0.0002,
					   .lower = -0.0011, .upper = 0.0015 };
	cbench_audit_verdict_text(&r, &p, s, sizeof(s));
	CU_ASSERT_STRING_EQUAL(s, "equivalent within \u00b10.2 %");
	CU_ASSERT_PTR_NULL(cbench_audit_under_min_effect(&p));
	/* Equivalent only by --min-effect: a real +5.04 % under 10 %, and
	 * a real -5.04 %, said as faster. */
	r.min_effect_pct = 10;
	p.end = (struct cbench_audit_end){ .verdict = CBENCH_VERDICT_EQUIVALENT, .change = 0.0504,
					   .lower = 0.0480, .upper = 0.0530 };
	cbench_audit_verdict_text(&r, &p, s, sizeof(s));
	CU_ASSERT_STRING_EQUAL(s, "equivalent within \u00b110 % (--min-effect), though B is slower by "
			       "5.04 % [4.80 %, 5.30 %]: a real change, under the threshold");
	CU_ASSERT_STRING_EQUAL(cbench_audit_under_min_effect(&p), "slower");
	p.end.change = -0.0504;
	p.end.lower = -0.0530;
	p.end.upper = -0.0480;
	cbench_audit_verdict_text(&r, &p, s, sizeof(s));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "though B is faster by 5.04 % [4.80 %, 5.30 %]"));
	CU_ASSERT_STRING_EQUAL(cbench_audit_under_min_effect(&p), "faster");
	r.min_effect_pct = 0.2;
	p.end.verdict = CBENCH_VERDICT_UNDECIDED;
	CU_ASSERT_STRING_EQUAL(cbench_audit_verdict_name(&p), "inconclusive");
	cbench_audit_verdict_text(&r, &p, s, sizeof(s));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "inconclusive after 30 s"));
	p.end.lower = p.end.upper = NAN;
	cbench_audit_verdict_text(&r, &p, s, sizeof(s));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "too few rounds"));
	p.error = -EINTR;
	snprintf(p.reason, sizeof(p.reason), "worker killed");
	CU_ASSERT_STRING_EQUAL(cbench_audit_verdict_name(&p), "failed");
}

/* The report of r in one format, into a malloc'd string. */
static char *render(const struct cbench_audit_report *r, int (*fn)(const struct cbench_audit_report *, FILE *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	CU_ASSERT_FATAL(f != NULL);
	CU_ASSERT_EQUAL(fn(r, f), 0);
	fclose(f);
	return buf;
}

static void go_lines(void)
{
	struct cbench_audit_report r;
	struct cbench_audit_pair p;
	char *s;

	make(&r, &p, CBENCH_VERDICT_B_SLOWER);
	s = render(&r, cbench_audit_report_go);
	/* Each side's rounds, by their lower quartile (R type 7), under A's
	 * name: only the build key tells A from B.  The count is Go's b.N:
	 * 4 timings of 380 reps. */
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "build: A\n# BenchmarkChain1000: A is chain_1000, B is chain_1010\n"
				      "# BenchmarkChain1000: placements A 12, B 12, new each round; 75% of "
				      "the round variance beyond timing noise\n"
				      "# BenchmarkChain1000: code layout: where it was loaded, so what suits "
				      "one side's layout counts as its speed: not sampled\n"
				      "BenchmarkChain1000 1520 1.7500 ns/op\n"
				      "BenchmarkChain1000 1520 5.7500 ns/op\n"
				      "build: B\n"
				      "BenchmarkChain1000 1520 10.7500 ns/op\n"
				      "BenchmarkChain1000 1520 20.7500 ns/op\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "# seed: 42\n"));
	free(s);
}

static void json_fields(void)
{
	static const char *const keys[] = { "\"seed\": 42", "\"confidence\": 0.99", "\"budget\": 30",
		"\"min_effect\": 0.2", "\"backend\": \"user\"", "\"name\": \"BenchmarkChain1000\"",
		"\"id\": \"chain_1000\"", "\"verdict\": \"slower\"", "\"change\": 1.02",
		"\"lower\": 0.85", "\"upper\": 1.19", "\"rounds\": 2", "\"timings_a\": 8",
		"\"timings_b\": 8", "\"wall_s\": 1.5", "\"converge_a\"", "\"converge_b\"",
		"\"fixed_placement\": false", "\"placement\": {", "\"redrawn\": true", "\"a\": 12",
		"\"b\": 12", "\"per_round\": 100", "\"round_sd_pct\": 1", "\"noise_sd_pct\": 0.5",
		"\"share\": 0.75", "\"step_bound_pct\": 0.02" };
	struct cbench_audit_report r;
	struct cbench_audit_pair p;
	char *s;

	make(&r, &p, CBENCH_VERDICT_B_SLOWER);
	p.timings_a = p.timings_b = 8;
	s = render(&r, cbench_audit_report_json);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (!strstr(s, keys[i]))
			fprintf(stderr, "\nmissing %s in\n%s", keys[i], s);
		CU_ASSERT_PTR_NOT_NULL(strstr(s, keys[i]));
	}
	CU_ASSERT_PTR_NULL(strstr(s, "under_min_effect"));
	free(s);
	/* The same slowdown called equivalent by a --min-effect of 2 %. */
	r.min_effect_pct = 2;
	p.end.verdict = CBENCH_VERDICT_EQUIVALENT;
	s = render(&r, cbench_audit_report_json);
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "\"verdict\": \"equivalent\",\n      \"under_min_effect\": \"slower\""));
	free(s);
}

/* The placements line of the text report, redrawn and fixed. */
static void placements(void)
{
	struct cbench_audit_report r;
	struct cbench_audit_pair p;
	char *s;

	make(&r, &p, CBENCH_VERDICT_B_SLOWER);
	s = render(&r, cbench_audit_report_text);
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "\n    placements 12 A / 12 B, new for each side every round "
				      "(100 measurements a side); rounds vary by 1 %, 75 % of their "
				      "variance beyond timing noise\n"));
	free(s);
	/* Rounds that vary less than their noise predicts: none of it is
	 * placement; no variance at all: nothing to share out. */
	p.end.noise_var = 2e-4;
	s = render(&r, cbench_audit_report_text);
	CU_ASSERT_PTR_NOT_NULL(strstr(s, ", 0 % of their variance"));
	free(s);
	p.end.round_var = 0;
	s = render(&r, cbench_audit_report_text);
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "(100 measurements a side)\n"));
	free(s);
	p.end.placements[0] = p.end.placements[1] = 0;
	r.fixed_placement = true;
	s = render(&r, cbench_audit_report_text);
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "\n    placement: fixed (--fixed-placement)"));
	CU_ASSERT_PTR_NULL(strstr(s, "placements 0"));
	free(s);
	s = render(&r, cbench_audit_report_json);
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "\"redrawn\": false"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "\"fixed_placement\": true"));
	CU_ASSERT_PTR_NULL(strstr(s, "\"share\""));
	free(s);
}

/* The code layout's line: sampled on both sides, on one, or on neither
 * with the reason and the build that allows it, in text, JSON and Go. */
static void layouts(void)
{
	static const char moves[] = "3 functions, each moved on its own by its alignment";
	static const char stays[] = "not moved: it keeps no relocations for its code; build it with "
				    "-ffunction-sections and link it with -Wl,-q (--emit-relocs)";
	struct cbench_audit_report r;
	struct cbench_audit_pair p;
	char *s;

	make(&r, &p, CBENCH_VERDICT_B_SLOWER);
	r.layout[0] = (struct cbench_audit_layout){ .mode = 2 };
	snprintf(r.layout[0].text, sizeof(r.layout[0].text), "%s", moves);
	r.layout[1] = r.layout[0];
	p.end.layouts[0] = p.end.layouts[1] = 12;
	s = render(&r, cbench_audit_report_text);
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "\n    code layout: 12 A / 12 B, new for each side every round "
				      "(3 functions, each moved on its own by its alignment)\n"));
	free(s);
	s = render(&r, cbench_audit_report_json);
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "\"code_layout\": {\n        \"sampled\": true,\n        "
				      "\"a\": 12,\n        \"b\": 12,\n        \"a_moves\": \"functions\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "\"fixed_layout\": false"));
	free(s);
	/* B's object keeps no relocations: A's code moves, B's says why not. */
	r.layout[1] = (struct cbench_audit_layout){ .mode = 0 };
	snprintf(r.layout[1].text, sizeof(r.layout[1].text), "%s", stays);
	p.end.layouts[1] = 0;
	s = render(&r, cbench_audit_report_text);
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "code layout: A's new every round (12); B's stays where it was "
				      "loaded, so what suits its layout counts as its speed: not moved: it "
				      "keeps no relocations"));
	free(s);
	/* Neither: the reason for each, and the flags. */
	r.layout[0] = r.layout[1];
	p.end.layouts[0] = 0;
	s = render(&r, cbench_audit_report_go);
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "# BenchmarkChain1000: code layout: where it was loaded, so what "
				      "suits one side's layout counts as its speed: not moved: it keeps no "
				      "relocations for its code; build it with -ffunction-sections and link "
				      "it with -Wl,-q (--emit-relocs)\n"));
	free(s);
	s = render(&r, cbench_audit_report_json);
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "\"sampled\": false"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "\"b_moves\": \"none\""));
	free(s);
	/* --fixed-layout says so, whatever the objects allow, in ring 0 too. */
	r.fixed_layout = true;
	r.backend = "kmod";
	s = render(&r, cbench_audit_report_text);
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "counts as its speed: fixed (--fixed-layout)\n"));
	free(s);
	r.fixed_layout = false;
	/* In ring 0 code that cannot move says why, as in user mode... */
	s = render(&r, cbench_audit_report_text);
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "counts as its speed: not moved: it keeps no relocations"));
	CU_ASSERT_PTR_NULL(strstr(s, "not sampled in ring 0"));
	free(s);
	/* ...and code that moves was laid out in the images cbench.ko ran. */
	r.layout[0] = r.layout[1] = (struct cbench_audit_layout){ .mode = 1 };
	snprintf(r.layout[0].text, sizeof(r.layout[0].text), "1 code section moved whole");
	r.layout[1] = r.layout[0];
	p.end.layouts[0] = p.end.layouts[1] = 7;
	s = render(&r, cbench_audit_report_text);
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "\n    code layout: 7 A / 7 B, new for each side every round, in "
				      "ring 0: each side's image laid out anew before its upload (1 code "
				      "section moved whole)\n"));
	free(s);
	s = render(&r, cbench_audit_report_json);
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "\"a_moves\": \"sections\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "in ring 0"));
	free(s);
}

/* The interval's half-width, the rounds' spread and the timer's step. */
static void interval_parts(void)
{
	struct cbench_audit_report r;
	struct cbench_audit_pair p;
	char *s;

	make(&r, &p, CBENCH_VERDICT_B_SLOWER);
	/* [0.85 %, 1.19 %]: a half-width of 0.168 % on the log scale. */
	s = render(&r, cbench_audit_report_text);
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "\n    interval \u00b10.168 %: \u00b10.148 % from the rounds' "
				      "spread, \u00b10.02 % for the timer's step (one step of each "
				      "side's quartile)\n"));
	free(s);
	/* Before two rounds there is no interval to say anything of. */
	p.end.lower = p.end.upper = NAN;
	s = render(&r, cbench_audit_report_text);
	CU_ASSERT_PTR_NULL(strstr(s, "interval"));
	free(s);
}

static CU_TestInfo report_audit_tests[] = {
	{ "the interval: the rounds' spread and the timer's step", interval_parts },
	{ "verdict texts", verdicts },
	{ "placements: counts and the share beyond noise", placements },
	{ "Go format: a line per round and side", go_lines },
	{ "JSON: every field", json_fields },
	{ "code layout: sampled, one side, neither, fixed, ring 0", layouts },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_report_audit_suites[] = {
	{ "report_audit", NULL, NULL, NULL, NULL, report_audit_tests },
	CU_SUITE_INFO_NULL,
};
