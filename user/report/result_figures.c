// SPDX-License-Identifier: GPL-2.0
/*
 * A benchmark's result as the JSON run report has it, member by member
 * (figures.h): the order here is the order written, and the order of the
 * JUnit report's properties.
 */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "report/figures.h"
#include "report/report.h"

#define FIELD(f) .offset = offsetof(struct cbench_result, f)
#define TEXT_FIELD(f) FIELD(f), .size = sizeof(((struct cbench_result *)0)->f)

static bool core_clock_known(const struct cbench_result *res, size_t jobs)
{
	(void)jobs;
	return !isnan(res->core_ghz_min);
}

static bool unstable(const struct cbench_result *res, size_t jobs)
{
	(void)jobs;
	return res->unstable;
}

static bool layouts_sampled(const struct cbench_result *res, size_t jobs)
{
	(void)jobs;
	return res->layouts;
}

static bool parallel(const struct cbench_result *res, size_t jobs)
{
	(void)res;
	return jobs > 1;
}

/* What the headline is: the median of the kept trials (every per-op
 * figure of a result is). */
static const char *quote(const struct cbench_result *res)
{
	(void)res;
	return "median_of_trials";
}

/* What a result's median of trials is typical of: "layouts" for a
 * layout-sensitive one, "placements" (of memory), "placements_or_layouts"
 * where the run could not tell them apart, "trials" otherwise. */
static const char *quote_over(const struct cbench_result *res)
{
	if (!res->placement_sensitive)
		return "trials";
	if (res->layout_sensitive)
		return "layouts";
	return res->layouts && isnan(res->layout_share) ? "placements_or_layouts" : "placements";
}

#define NUMBER(n, f, ...) { .name = n, .kind = CBENCH_MEMBER_NUMBER, FIELD(f), __VA_ARGS__ }
#define MAYBE(n, f, ...) { .name = n, .kind = CBENCH_MEMBER_MAYBE, FIELD(f), __VA_ARGS__ }
#define JUNIT .show = CBENCH_SHOW_JUNIT

/*
 * The headline and its interval, then the same statistic of every other
 * per-op figure; then placement (docs/placement.md): the spread between
 * trials and what the noise within them predicts, the share beyond it, the
 * code layouts where the run sampled them, and the figure to quote and what
 * it is typical of; then what was set aside, stopped, or parts from what.
 * ns_per_op is written three times over, under the names older readers
 * know (in schema 1, ns_per_op was the least trial's): read back, the last
 * present wins.
 */
const struct cbench_result_member cbench_result_members[] = {
	{ .name = "n", .kind = CBENCH_MEMBER_COUNT64, FIELD(n), JUNIT },
	NUMBER("ns_per_op", ns_per_op, JUNIT),
	NUMBER("ns_per_op_lower", ns_lo, JUNIT),
	NUMBER("ns_per_op_upper", ns_hi, JUNIT),
	NUMBER("interval_coverage", ns_coverage, JUNIT),
	NUMBER("median_of_trials_ns_per_op", ns_per_op),
	NUMBER("least_trial_ns_per_op", least_ns_per_op, JUNIT),
	NUMBER("cv_of_trials", cv, JUNIT),
	MAYBE("est_cycles_per_op", est_cycles_per_op, JUNIT),
	MAYBE("mb_per_s", mb_per_s, JUNIT),
	NUMBER("instructions_per_op", instructions_per_op, .counter = CBENCH_HAVE_INSTRUCTIONS, JUNIT),
	NUMBER("cycles_per_op", cycles_per_op, .counter = CBENCH_HAVE_CYCLES, JUNIT),
	NUMBER("ref_cycles_per_op", ref_cycles_per_op, .counter = CBENCH_HAVE_REF_CYCLES, JUNIT),
	MAYBE("step_share", step_share, JUNIT),
	NUMBER("core_ghz_min", core_ghz_min, .when = core_clock_known, JUNIT),
	NUMBER("core_ghz_max", core_ghz_max, .when = core_clock_known, JUNIT),
	{ .name = "unstable", .kind = CBENCH_MEMBER_FLAG, FIELD(unstable), JUNIT },
	{ .name = "unstable_reason", .kind = CBENCH_MEMBER_TEXT, TEXT_FIELD(unstable_reason),
	  .when = unstable, JUNIT },
	{ .name = "between_trials_sd_pct", .kind = CBENCH_MEMBER_SD_PERCENT, FIELD(between_var) },
	{ .name = "within_trials_sd_pct", .kind = CBENCH_MEMBER_SD_PERCENT, FIELD(within_var) },
	MAYBE("placement_share", placement_share, JUNIT),
	{ .name = "placement_sensitive", .kind = CBENCH_MEMBER_FLAG, FIELD(placement_sensitive), JUNIT },
	{ .name = "layouts", .kind = CBENCH_MEMBER_COUNT, FIELD(layouts), .when = layouts_sampled },
	MAYBE("layout_share", layout_share, .when = layouts_sampled),
	{ .name = "layout_sensitive", .kind = CBENCH_MEMBER_FLAG, FIELD(layout_sensitive),
	  .when = layouts_sampled },
	{ .name = "quote", .kind = CBENCH_MEMBER_WORD, .word = quote },
	MAYBE("quote_ns_per_op", ns_per_op),
	{ .name = "quote_over", .kind = CBENCH_MEMBER_WORD, .word = quote_over },
	{ .name = "failed_trials", .kind = CBENCH_MEMBER_COUNT, FIELD(failed), JUNIT },
	{ .name = "set_aside_trials", .kind = CBENCH_MEMBER_COUNT, FIELD(set_aside), JUNIT },
	{ .name = "set_aside_note", .kind = CBENCH_MEMBER_TEXT, TEXT_FIELD(set_aside_note), JUNIT },
	{ .name = "stopped", .kind = CBENCH_MEMBER_STOPPED },
	/* est-cycles/op against ns/op at the median core clock */
	{ .name = "est_cycles_gap_pct", .kind = CBENCH_MEMBER_PERCENT, FIELD(cycles_gap) },
	{ .name = "est_cycles_note", .kind = CBENCH_MEMBER_TEXT, TEXT_FIELD(cycles_note), JUNIT },
	/* the trial measured alone against the least measured beside others */
	{ .name = "parallel_gap_pct", .kind = CBENCH_MEMBER_PERCENT, FIELD(parallel_gap), .when = parallel },
	{ .name = "parallel_differs", .kind = CBENCH_MEMBER_FLAG, FIELD(parallel_differs), .when = parallel },
	{ .name = "arena_pages", .kind = CBENCH_MEMBER_ARENA_PAGES, TEXT_FIELD(carried_arena_pages), JUNIT },
};

const unsigned int cbench_nresult_members = sizeof(cbench_result_members) / sizeof(cbench_result_members[0]);

static double number(const struct cbench_result *res, const struct cbench_result_member *m)
{
	double v;

	memcpy(&v, (const char *)res + m->offset, sizeof(v));
	return v;
}

bool cbench_result_member_get(const struct cbench_result_member *m, const struct cbench_result *res,
			      size_t jobs, struct cbench_member_value *v, char *buf, size_t len)
{
	const char *at = (const char *)res + m->offset;
	size_t count;

	*v = (struct cbench_member_value){ .number = NAN, .text = "" };
	if ((m->counter && !(res->have & m->counter)) || (m->when && !m->when(res, jobs)))
		return false;
	switch (m->kind) {
	case CBENCH_MEMBER_NUMBER:
		v->number = number(res, m);
		return true;
	case CBENCH_MEMBER_MAYBE:
		v->number = number(res, m);
		return !isnan(v->number);
	case CBENCH_MEMBER_PERCENT:
		v->number = 100 * number(res, m);
		return !isnan(v->number);
	case CBENCH_MEMBER_SD_PERCENT:
		v->number = 100 * sqrt(number(res, m));
		return !isnan(v->number);
	case CBENCH_MEMBER_COUNT:
		memcpy(&count, at, sizeof(count));
		v->count = count;
		return true;
	case CBENCH_MEMBER_COUNT64:
		memcpy(&v->count, at, sizeof(v->count));
		return true;
	case CBENCH_MEMBER_FLAG:
		memcpy(&v->flag, at, sizeof(v->flag));
		return true;
	case CBENCH_MEMBER_TEXT:
		v->text = at;
		return m->when || *at;
	case CBENCH_MEMBER_WORD:
		v->text = m->word(res);
		return true;
	case CBENCH_MEMBER_ARENA_PAGES:
		v->text = cbench_arena_pages_text(res, buf, len);
		return *v->text;
	case CBENCH_MEMBER_STOPPED:
		return res->stop != CBENCH_STOP_NONE;
	}
	return false;
}
