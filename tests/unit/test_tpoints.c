// SPDX-License-Identifier: GPL-2.0
/*
 * Loop timing points: the macros of cbench.h (no buffer, a full buffer, the
 * stride), merged timings and their split into T/N, quantiles and moments
 * of the split equal to those of the expanded list, and the stride's tuning.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "stats/stats.h"
#include "worker/tpoints.h"

static uint64_t state = 0x9e3779b97f4a7c15ULL;

static uint64_t next(void)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return state;
}

/* A loop of `points` timing points with `per` marked iterations between
 * them, as a benchmark writes it. */
static uint64_t loop(struct cbench_ctx *ctx, int points, int per)
{
	uint64_t it = 0;

	for (int p = 0; p < points; p++) {
		for (int i = 0; i < per; i++)
			cbench_mark(it);
		cbench_tpoint(ctx, it);
	}
	return it;
}

static void no_buffer(void)
{
	struct cbench_ctx ctx;

	memset(&ctx, 0, sizeof(ctx));
	/* Ring 0 and plain measurements: the marker counts, nothing else moves. */
	CU_ASSERT_EQUAL(loop(&ctx, 100, 7), 700);
	CU_ASSERT_PTR_NULL(ctx.tp.buf);
	CU_ASSERT_EQUAL(ctx.tp.next, 0);
	CU_ASSERT_EQUAL(ctx.tp.countdown, 0);
	CU_ASSERT_EQUAL(ctx.tp.every, 0);
}

static void full_buffer_and_stride(void)
{
	struct cbench_tp_record rec[6];
	struct cbench_ctx ctx;

	memset(rec, 0xa5, sizeof(rec));
	memset(&ctx, 0, sizeof(ctx));
	ctx.tp = (struct cbench_tp_state){ .buf = rec, .capacity = 5, .every = 3, .countdown = 3 };
	loop(&ctx, 30, 2);
	/* Every third of 30 points: 10 taken, 5 written, 5 dropped. */
	CU_ASSERT_EQUAL(ctx.tp.next, 10);
	for (int i = 0; i < 5; i++)
		CU_ASSERT_EQUAL(rec[i].count, (uint64_t)(3 * (i + 1) * 2));
	for (int i = 1; i < 5; i++)
		CU_ASSERT(rec[i].tsc >= rec[i - 1].tsc);
	/* Nothing past the capacity was touched. */
	CU_ASSERT_EQUAL(rec[5].count, 0xa5a5a5a5a5a5a5a5ULL);
	CU_ASSERT_EQUAL(rec[5].tsc, 0xa5a5a5a5a5a5a5a5ULL);
}

static void merge(void)
{
	const struct cbench_tp_record rec[] = {
		{ 1000, 10 }, { 1400, 14 },	/* 400 ticks over 4 */
		{ 1500, 14 },			/* no iteration: skipped */
		{ 2500, 24 },			/* 1000 over 10 */
		{ 2600, 2 },			/* a reset counter: skipped */
		{ 2700, 3 },			/* 100 over 1 */
	};
	struct cbench_tp_split out[6];
	struct cbench_tp_calls c = { 0 };
	size_t n = cbench_tp_merge(rec, 6, 9, 50, 0.5, out, &c);

	CU_ASSERT_EQUAL_FATAL(n, 3);
	/* (T - MIN_TIMING) * scale / N, weight N. */
	CU_ASSERT_DOUBLE_EQUAL(out[0].value, 350 * 0.5 / 4, 1e-12);
	CU_ASSERT_EQUAL(out[0].weight, 4);
	CU_ASSERT_DOUBLE_EQUAL(out[1].value, 950 * 0.5 / 10, 1e-12);
	CU_ASSERT_EQUAL(out[1].weight, 10);
	CU_ASSERT_DOUBLE_EQUAL(out[2].value, 50 * 0.5 / 1, 1e-12);
	CU_ASSERT_EQUAL(c.merged, 3);
	CU_ASSERT_EQUAL(c.iterations, 15);
	CU_ASSERT_EQUAL(c.skipped, 2);
	CU_ASSERT_EQUAL(c.dropped, 3);
	/* The perturb score's sum is over the raw timings. */
	CU_ASSERT_DOUBLE_EQUAL(c.perturb_sum, 100 / 350.1 + 100 / 950.1 + 100 / 50.1, 1e-9);
}

/* The split list expanded: weight copies of each value. */
static size_t expand(const struct cbench_tp_split *s, size_t n, double *out)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		for (uint64_t w = 0; w < s[i].weight; w++)
			out[k++] = s[i].value;
	return k;
}

static void split_equals_expansion(void)
{
	struct cbench_tp_split s[40];
	double *v = malloc(40 * 64 * sizeof(*v));

	CU_ASSERT_PTR_NOT_NULL_FATAL(v);
	for (int trial = 0; trial < 200; trial++) {
		size_t n = 1 + next() % 40, k;
		uint64_t w;
		double mean, m2;

		for (size_t i = 0; i < n; i++) {
			/* Some weights 0 (no iteration), values with ties. */
			s[i].weight = next() % 64;
			s[i].value = (double)(next() % 50) / 4;
		}
		s[0].weight = s[0].weight ? s[0].weight : 1;
		cbench_tp_sort(s, n);
		k = expand(s, n, v);
		for (double q = 0; q <= 1.0001; q += 0.05) {
			double qq = q > 1 ? 1 : q;

			CU_ASSERT_DOUBLE_EQUAL(cbench_tp_quantile(s, n, qq), cbench_stats_quantile(v, k, qq),
					       1e-9);
		}
		cbench_tp_moments(s, n, &w, &mean, &m2);
		CU_ASSERT_EQUAL(w, k);
		CU_ASSERT_DOUBLE_EQUAL(mean, cbench_stats_mean(v, k), 1e-9);
		if (k > 1)
			CU_ASSERT_DOUBLE_EQUAL(sqrt(m2 / (double)(k - 1)), cbench_stats_stddev(v, k), 1e-9);
	}
	free(v);
	/* No weight, no quantile. */
	s[0] = (struct cbench_tp_split){ 3, 0 };
	CU_ASSERT(isnan(cbench_tp_quantile(s, 1, 0.5)));
	CU_ASSERT(isnan(cbench_tp_quantile(s, 0, 0.5)));
}

static void stride(void)
{
	double min = 80;
	uint64_t k;

	/* Points far apart: record every one. */
	CU_ASSERT_EQUAL(cbench_tp_stride(min, 100000, 1000, CBENCH_TP_CAPACITY), 1);
	/* 20 ticks of work per point: a timing must hold 9 MIN_TIMINGs of
	 * work (720 ticks), so k = 36. */
	k = cbench_tp_stride(min, min + 20, 1000, CBENCH_TP_CAPACITY);
	CU_ASSERT_EQUAL(k, 36);
	/* With that k, the timings stay far above MIN_TIMING and the perturb
	 * score under its target. */
	CU_ASSERT((double)k * 20 + min >= CBENCH_TP_MIN_FACTOR * min);
	CU_ASSERT(100 / ((double)k * 20 + 0.1) <= CBENCH_TP_PERTURB_TARGET);
	/* A cheap timer: the perturb target decides (400 ticks of work). */
	CU_ASSERT_EQUAL(cbench_tp_stride(2, 2 + 10, 1000, CBENCH_TP_CAPACITY), 40);
	/* More points per call than the buffer holds at k: k grows to fit. */
	CU_ASSERT_EQUAL(cbench_tp_stride(min, 100000, 10 * CBENCH_TP_CAPACITY, CBENCH_TP_CAPACITY), 11);
	/* Points no work apart (or a pilot that says nothing): bounded. */
	k = cbench_tp_stride(min, min, 1000, CBENCH_TP_CAPACITY);
	CU_ASSERT(k >= 720 && k <= CBENCH_TP_EVERY_MAX);
	CU_ASSERT(cbench_tp_stride(min, NAN, 1000, CBENCH_TP_CAPACITY) <= CBENCH_TP_EVERY_MAX);
}

static void min_timing(void)
{
	double m = cbench_tp_min_timing(1);

	/* Whatever the host's speed: a serialized read costs something. */
	CU_ASSERT(m > 0 && isfinite(m));
}

static CU_TestInfo tpoints_tests[] = {
	{ "no buffer: only the marker counts", no_buffer },
	{ "a full buffer drops, the stride skips", full_buffer_and_stride },
	{ "merged timings: T - MIN_TIMING over N, skips, drops", merge },
	{ "split quantiles and moments equal the expansion's", split_equals_expansion },
	{ "the stride keeps timings above MIN_TIMING", stride },
	{ "MIN_TIMING is measured", min_timing },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_tpoints_suites[] = {
	{ "tpoints", NULL, NULL, NULL, NULL, tpoints_tests },
	CU_SUITE_INFO_NULL,
};
