// SPDX-License-Identifier: GPL-2.0
/*
 * The summary table for people, on stderr; colour only on a terminal.
 * Times are scaled to ns, µs, ms or s, throughput to MB/s or GB/s, each
 * with five significant digits: the reports keep every digit.  A run on a
 * terminal prints the head, then each row as its benchmark finishes, then
 * the foot; elsewhere the whole table at the end.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/figures.h"
#include "report/report.h"
#include "stats/trials.h"

#define RED "\033[31m"
#define DIM "\033[2m"
#define BOLD "\033[1m"
#define RESET "\033[0m"

/* Column widths: a scaled time is at most "99999 ms", 8 characters. */
#define TIME_W 10
#define FIGURE_W 10

bool cbench_colour(int fd)
{
	const char *no = getenv("NO_COLOR");

	return isatty(fd) && !(no && *no);
}

const char *cbench_scale_ns(double ns, char *buf, size_t len)
{
	static const char *const units[] = { "ns", "µs", "ms", "s" };
	int u = 0;

	if (isnan(ns)) {
		snprintf(buf, len, "-");
		return buf;
	}
	while (u < 3 && fabs(ns) >= 1000) {
		ns /= 1000;
		u++;
	}
	snprintf(buf, len, "%.5g %s", ns, units[u]);
	return buf;
}

/* text right-aligned in width columns: "µ" is two bytes and one column. */
static void put_cell(FILE *f, const char *text, int width)
{
	int cols = 0;

	for (const unsigned char *p = (const unsigned char *)text; *p; p++)
		cols += (*p & 0xc0) != 0x80;
	fprintf(f, "%*s%s", width > cols ? width - cols : 0, "", text);
}

/* MB/s (10^6 bytes a second) as MB/s or GB/s. */
static const char *scale_rate(double mb_per_s, char *buf, size_t len)
{
	if (isnan(mb_per_s))
		snprintf(buf, len, "-");
	else if (mb_per_s >= 1000)
		snprintf(buf, len, "%.4g GB/s", mb_per_s / 1000);
	else
		snprintf(buf, len, "%.4g MB/s", mb_per_s);
	return buf;
}

/* Digits of the interval's percentage: two significant ones, at most four decimals. */
static int interval_digits(const struct cbench_result *res)
{
	double pct = 100 * fmax(res->ns_hi / res->ns_per_op - 1, 1 - res->ns_lo / res->ns_per_op);

	return pct >= 10 ? 0 : pct >= 1 ? 1 : pct >= 0.1 ? 2 : pct >= 0.01 ? 3 : 4;
}

/* Whether the table has a column for the figure: some benchmark can have it. */
static bool has_column(const struct cbench_report *r, const struct cbench_figure *fig)
{
	if (!fig->applies)
		return true;
	for (size_t i = 0; i < r->nresults; i++) {
		if (fig->applies(r->results[i].exp))
			return true;
	}
	return false;
}

/* A result's figure in its column: five significant digits, "-" for NAN. */
static void put_figure(FILE *f, const struct cbench_figure *fig, double v)
{
	char rate[32];

	if (fig->style == CBENCH_FIGURE_RATE)
		fprintf(f, " %*s", FIGURE_W, scale_rate(v, rate, sizeof(rate)));
	else if (isnan(v))
		fprintf(f, " %*s", FIGURE_W, "-");
	else
		fprintf(f, v < 1e5 ? " %*.5g" : " %*.0f", FIGURE_W, v);
}

static int name_width(const struct cbench_report *r)
{
	size_t width = 9;

	for (size_t i = 0; i < r->nresults; i++) {
		size_t len = strlen(r->results[i].exp->report_name) - 9;

		width = len > width ? len : width;
	}
	return (int)width;
}

/* The per-iteration distribution of a result with timing points. */
static void put_tp(const struct cbench_report *r, const struct cbench_result *res, FILE *f, bool colour)
{
	const struct cbench_tp_summary *s = &res->tp;

	if (!s->every) {
		fprintf(f, "  timing points: too few or too close together to time\n");
		return;
	}
	fprintf(f, "  per iteration: p1 %.4g  p25 %.4g  median %.4g  p75 %.4g  p99 %.4g ns"
		"  %s(%llu iterations, stride %llu, MIN_TIMING %.1f ns, perturb %.3g)%s\n",
		s->q_ns[0], s->q_ns[1], s->q_ns[2], s->q_ns[3], s->q_ns[4], colour ? DIM : "",
		(unsigned long long)s->iterations, (unsigned long long)s->every,
		cbench_tp_min_timing_ns(s, r->timer.tsc_hz), s->perturb, colour ? RESET : "");
	if (s->perturb > CBENCH_TP_PERTURB_MAX)
		fprintf(f, "  %sperturb score %.3g is above 1: the timings come close to the timing point's own cost; place the points further apart%s\n",
			colour ? RED : "", s->perturb, colour ? RESET : "");
}

void cbench_report_table_head(const struct cbench_report *r, FILE *f, bool colour)
{
	fprintf(f, "%s%-*s %*s %9s %8s", colour ? BOLD : "", name_width(r), "benchmark", TIME_W,
		"time/op", "interval", "cv");
	for (const struct cbench_figure *fig = NULL; (fig = cbench_figure_next(fig, CBENCH_SHOW_TABLE));) {
		if (has_column(r, fig))
			fprintf(f, " %*s", FIGURE_W, fig->column);
	}
	fprintf(f, " %9s %7s %s%s\n", "discarded", "trials", "tuning", colour ? RESET : "");
}

/* What a row leaves to say: instability, short calls, timing points, failures. */
static void put_notes(const struct cbench_report *r, const struct cbench_result *res, FILE *f,
		      bool colour)
{
	if (res->unstable)
		fprintf(f, "  %s%s: %s%s\n", colour ? RED : "",
			res->layout_sensitive ? "layout-sensitive" :
			res->placement_sensitive ? "placement-sensitive" : "unstable",
			res->unstable_reason, colour ? RESET : "");
	if (res->set_aside_note[0])
		fprintf(f, "  %s%s%s\n", colour ? DIM : "", res->set_aside_note, colour ? RESET : "");
	if (res->cycles_note[0])
		fprintf(f, "  %s\n", res->cycles_note);
	if (res->parallel_differs)
		fprintf(f, "  %smeasures differently beside other CPUs' work: every trial measured beside "
			"others was at least %.2f%% slower than its trial alone (memory bandwidth, a "
			"shared cache or core?): measure it with --jobs 1%s\n", colour ? RED : "",
			100 * res->parallel_gap, colour ? RESET : "");
	if (cbench_desc_per_rep(res->exp->desc) && res->step_share > CBENCH_STEP_SHARE_MAX)
		fprintf(f, "  short calls: one timer step is %.3f%% of a call (timed one at a "
			"time); give each call more work\n", 100 * res->step_share);
	if (res->have_tp)
		put_tp(r, res, f, colour);
	for (size_t j = 0; j < res->ntrials; j++) {
		if (res->trials[j].error)
			fprintf(f, "  %strial %zu failed: %s%s\n", colour ? RED : "", j + 1,
				res->trials[j].reason, colour ? RESET : "");
	}
}

void cbench_report_table_row(const struct cbench_report *r, const struct cbench_result *res, FILE *f,
			     bool colour)
{
	char t[32], m[32];
	size_t discarded = 0, total = 0;

	for (size_t j = 0; j < res->ntrials; j++) {
		discarded += res->trials[j].discarded;
		total += res->trials[j].nsamples;
	}
	fprintf(f, "%-*s ", name_width(r), cbench_bench_title(res->exp->report_name));
	put_cell(f, cbench_scale_ns(res->ns_per_op, t, sizeof(t)), TIME_W);
	fputc(' ', f);
	/* The interval's wider side, relative: ±0.012% */
	if (isnan(res->ns_lo) || !(res->ns_per_op > 0)) {
		fprintf(f, "%9s ", "-");
	} else {
		snprintf(m, sizeof(m), "\u00b1%.*f%%", interval_digits(res), 100 * fmax(
			 res->ns_hi / res->ns_per_op - 1, 1 - res->ns_lo / res->ns_per_op));
		put_cell(f, m, 9);
		fputc(' ', f);
	}
	if (isnan(res->cv))
		fprintf(f, "%8s", "-");
	else
		fprintf(f, "%7.3f%%", 100 * res->cv);
	for (const struct cbench_figure *fig = NULL; (fig = cbench_figure_next(fig, CBENCH_SHOW_TABLE));) {
		if (has_column(r, fig))
			put_figure(f, fig, fig->result(res));
	}
	if (total)
		fprintf(f, " %8.2f%%", 100.0 * (double)discarded / (double)total);
	else
		fprintf(f, " %9s", "-");
	/* Kept of measured: failed ones in red, set-aside ones count as measured. */
	if (res->failed)
		fprintf(f, " %s%3zu/%-3zu%s ", colour ? RED : "",
			cbench_result_kept(res), res->ntrials, colour ? RESET : "");
	else
		fprintf(f, " %3zu/%-3zu ", res->ntrials - res->set_aside, res->ntrials);
	fprintf(f, "%s%s%s\n", colour ? DIM : "", res->tuning, colour ? RESET : "");
	put_notes(r, res, f, colour);
}

/* Under --precision: how many benchmarks stopped each way, after how many
 * trials kept (the least and the most). */
static void put_stops(const struct cbench_report *r, FILE *f, bool colour)
{
	/* By enum cbench_stop; said in this order. */
	static const char *const how[] = { "", "precise", "not precise at the most trials",
					   "not precise within the run's time" };
	static const enum cbench_stop order[] = { CBENCH_STOP_PRECISE, CBENCH_STOP_BUDGET,
						  CBENCH_STOP_MOST };
	size_t n[4] = { 0 }, lo[4] = { SIZE_MAX, SIZE_MAX, SIZE_MAX, SIZE_MAX }, hi[4] = { 0 };
	const char *sep = "";

	for (size_t i = 0; i < r->nresults; i++) {
		const struct cbench_result *res = &r->results[i];
		size_t kept = cbench_result_kept(res);
		enum cbench_stop k = res->stop;

		n[k]++;
		lo[k] = kept < lo[k] ? kept : lo[k];
		hi[k] = kept > hi[k] ? kept : hi[k];
	}
	if (n[CBENCH_STOP_NONE] == r->nresults)
		return;
	fprintf(f, "%strials: ", colour ? DIM : "");
	for (size_t o = 0; o < sizeof(order) / sizeof(order[0]); o++) {
		enum cbench_stop k = order[o];

		if (!n[k])
			continue;
		fprintf(f, "%s%zu%s %s", sep, n[k], *sep ? "" : n[k] == 1 ? " benchmark" : " benchmarks",
			how[k]);
		if (lo[k] == hi[k])
			fprintf(f, " (%zu kept)", lo[k]);
		else
			fprintf(f, " (%zu to %zu kept)", lo[k], hi[k]);
		sep = ", ";
	}
	fprintf(f, ": each stops once its headline's interval is within %.3g%% %s%s\n",
		100 * r->settings.precision, r->settings.precision_auto ?
		"(the default; --trials K takes K of each)" : "(--precision)", colour ? RESET : "");
}

void cbench_report_table_foot(const struct cbench_report *r, FILE *f, bool colour)
{
	put_stops(r, f, colour);
	if (!isnan(r->core_ghz_min))
		fprintf(f, "%score clock %.3f to %.3f GHz over the run (%.2f%%)%s%s\n", colour ? DIM : "",
			r->core_ghz_min, r->core_ghz_max,
			100 * (r->core_ghz_max - r->core_ghz_min) / r->core_ghz_min,
			r->clock_moved_trials ? "; it moved within some trials, and est-cycles/op was "
			"taken at one level in each" : "", colour ? RESET : "");
	if (r->shared_trials) {
		char waited[96] = "";

		if (r->shared_waited_s > 0)
			snprintf(waited, sizeof(waited), " (%.1f s of it past --trials replacements, "
				 "waiting for the core: --shared-wait %.1f)", r->shared_waited_s,
				 r->settings.shared_wait_s);
		fprintf(f, "%score shared: %zu trial%s ran on a core another thread shared (at least "
			"%.0f%% fewer adds a cycle than the widest seen on their CPU, at most %.2f: a "
			"hyperthread's sibling, or another tenant's vCPU); %s%s%s\n", colour ? DIM : "",
			r->shared_trials, r->shared_trials == 1 ? "" : "s", 100 * CBENCH_TRIAL_SHARED_MIN,
			r->core_width_max, r->settings.keep_shared ? "kept, as --keep-shared asked" :
			r->shared_kept ? "set aside and measured again, but some kept for want of others "
			"(their benchmarks say which)" : "set aside and measured again", waited,
			colour ? RESET : "");
	}
	if (r->beside.shares_core) {
		const struct cbench_beside *b = &r->beside;

		fprintf(f, "%swarning: %.0f%% of the %zu trials measured beside others ran on a shared "
			"core, against %.0f%% of the %zu measured alone: CPUs ", colour ? RED : "",
			100.0 * (double)b->shared / (double)b->trials, b->trials,
			100.0 * (double)b->alone_shared / (double)b->alone, b->alone);
		for (size_t i = 0; i < r->jobs; i++)
			fprintf(f, "%s%d", !i ? "" : i + 1 < r->jobs ? ", " : " and ", r->cpus[i]);
		fprintf(f, " share %s at times (hyperthreads of one core, as a VM's vCPUs can be), and "
			"measuring on them at once costs trials set aside and measured again; on this "
			"machine, measure on one CPU (--jobs 1)%s\n", r->jobs == 2 ? "a core" : "cores",
			colour ? RESET : "");
	}
	if (r->env.fifo_error && r->env.fifo_error != -EBUSY)
		fprintf(f, "%swarning: the worker ran without real-time priority (SCHED_FIFO: %s): "
			"other tasks could take its CPU mid-measurement; run as root, or give "
			"cbenchctl CAP_SYS_NICE%s\n", colour ? RED : "", strerror(-r->env.fifo_error),
			colour ? RESET : "");
	if (r->env.mlock_error)
		fprintf(f, "%swarning: the worker's memory was not locked (mlock: %s): a page fault "
			"could land in a measurement; run as root, or raise RLIMIT_MEMLOCK (ulimit -l)%s\n",
			colour ? RED : "", strerror(-r->env.mlock_error), colour ? RESET : "");
	if (r->layout_note[0])
		fprintf(f, "%scode layout: %s%s\n", colour ? DIM : "", r->layout_note, colour ? RESET : "");
	if (r->interrupted)
		fprintf(f, "%sinterrupted: %zu of %zu trials a benchmark kept at most; the report says "
			"so%s\n", colour ? RED : "", r->trials_kept, r->trials_asked, colour ? RESET : "");
}

void cbench_report_table(const struct cbench_report *r, FILE *f, bool colour)
{
	cbench_report_table_head(r, f, colour);
	for (size_t i = 0; i < r->nresults; i++)
		cbench_report_table_row(r, &r->results[i], f, colour);
	cbench_report_table_foot(r, f, colour);
}
