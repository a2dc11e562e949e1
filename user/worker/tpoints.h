/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Loop timing points (Lau et al., sections 3, 5.4 and 6.1): what the harness
 * makes of the records cbench_tpoint() leaves in a call's buffer.
 *
 * Two consecutive records of one call give a merged timing: T ticks over
 * the N iterations the marker counted in between.  We split it into N
 * timings of T/N (section 5.4) without writing N values out: a split is a
 * value with a weight, and the quantiles and moments below are exactly
 * those of the expanded list.  Before splitting we take MIN_TIMING, the
 * timing point's own back-to-back cost, off T, as the timer's overhead is
 * taken off a whole measurement.
 *
 * A timing point costs MIN_TIMING; timings close to it measure mostly the
 * timer (section 6.1's perturb score).  We record only every k-th point,
 * with k chosen from a pilot call so that the timings stay well above
 * MIN_TIMING (cbench_tp_stride()).
 */
#ifndef _CBENCH_TPOINTS_H
#define _CBENCH_TPOINTS_H

#include <stddef.h>
#include <stdint.h>
#include <uapi/linux/cbench.h>

#include <cbench.h>

#include "worker/results.h"

/* Records one call may leave; later ones are dropped and counted. */
#define CBENCH_TP_CAPACITY 65536
/* A recorded timing should span at least this many MIN_TIMINGs. */
#define CBENCH_TP_MIN_FACTOR 10
/* ...and keep the perturb score at most this (1 is Lau et al.'s limit of the
 * acceptable, which we want to stay comfortably under). */
#define CBENCH_TP_PERTURB_TARGET 0.25
/* Largest stride we tune to: CBENCH_TP_EVERY_MAX, the most cbench.ko takes. */
/* Back-to-back timing points measured for MIN_TIMING. */
#define CBENCH_TP_MIN_PAIRS 10000

/* One split: `weight` per-iteration timings of `value` each. */
struct cbench_tp_split {
	double value;
	uint64_t weight;
};

/* What a call's records came to. */
struct cbench_tp_calls {
	uint64_t merged;	/* merged timings kept */
	uint64_t iterations;	/* the splits' total weight */
	uint64_t skipped;	/* between records whose count did not grow */
	uint64_t dropped;	/* records the full buffer could not take */
	double perturb_sum;	/* of 100 / (raw - (MIN_TIMING - 0.1)) */
};

/*
 * The merged timings of one call's records (n of them, `taken` timing
 * points recorded in all, so taken - n were dropped): each becomes a split
 * of value (raw - min_timing) * scale / N, floored at 0, and weight N,
 * appended to out (room for n - 1).  scale converts ticks to the unit
 * wanted (1e9 / tsc_hz for ns).  Pairs whose count did not grow (the marker
 * did not run, or was reset) are skipped.  Accumulates into *c; returns the
 * splits written.
 */
size_t cbench_tp_merge(const struct cbench_tp_record *rec, size_t n, uint64_t taken,
		       double min_timing, double scale, struct cbench_tp_split *out,
		       struct cbench_tp_calls *c);

/* Sorts splits by value (the quantile below wants them so). */
void cbench_tp_sort(struct cbench_tp_split *s, size_t n);

/*
 * Quantile q in [0, 1] of the expanded timings of sorted splits, R type 7
 * as cbench_stats_quantile(); NAN without weight.
 */
double cbench_tp_quantile(const struct cbench_tp_split *s, size_t n, double q);

/* Total weight, weighted mean and sum of squared deviations of the
 * expanded timings (their variance is m2 / (weight - 1)). */
void cbench_tp_moments(const struct cbench_tp_split *s, size_t n, uint64_t *weight, double *mean,
		       double *m2);

/*
 * The stride k for a benchmark whose timing points, all recorded (k = 1),
 * came low_ticks apart (a low quantile of the raw merged timings) with
 * `points` timing points per call: the least k that puts a recorded timing
 * at CBENCH_TP_MIN_FACTOR MIN_TIMINGs and a perturb score at most
 * CBENCH_TP_PERTURB_TARGET, and fits a call into `capacity` records.
 * Skipping a point costs little, so a timing of k points is about
 * k * (low_ticks - min_timing) + min_timing.
 */
uint64_t cbench_tp_stride(double min_timing, double low_ticks, uint64_t points, uint64_t capacity);

/* MIN_TIMING: the timing point's back-to-back cost in ticks, measured
 * with cbench_tpoint() itself (the floor mean over CBENCH_TP_MIN_PAIRS
 * pairs, on a timer of the given step). */
double cbench_tp_min_timing(double step_ticks);

#endif /* _CBENCH_TPOINTS_H */
