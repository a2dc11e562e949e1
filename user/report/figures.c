// SPDX-License-Identifier: GPL-2.0
/*
 * The figures a trial carries, each named once (figures.h).  Their order is
 * the order of the Go format's result line and of a JSON trial's members:
 * a new figure goes where it should print.
 */
#include <math.h>
#include <string.h>

#include "report/figures.h"
#include "report/report.h"

static bool ns_per_op(const struct cbench_trial *t, double *v)
{
	*v = t->ns_per_op;
	return true;
}

static bool mb_per_s(const struct cbench_trial *t, double *v)
{
	*v = t->mb_per_s;
	return !isnan(*v);
}

static bool instructions_per_op(const struct cbench_trial *t, double *v)
{
	*v = t->instructions_per_op;
	return t->have & CBENCH_HAVE_INSTRUCTIONS;
}

static bool cycles_per_op(const struct cbench_trial *t, double *v)
{
	*v = t->cycles_per_op;
	return t->have & CBENCH_HAVE_CYCLES;
}

static bool ref_cycles_per_op(const struct cbench_trial *t, double *v)
{
	*v = t->ref_cycles_per_op;
	return t->have & CBENCH_HAVE_REF_CYCLES;
}

static bool est_cycles_per_op(const struct cbench_trial *t, double *v)
{
	*v = t->est_cycles_per_op;
	return !isnan(*v);
}

static bool step_share(const struct cbench_trial *t, double *v)
{
	*v = t->step_share;
	return !isnan(*v);
}

static bool core_ghz(const struct cbench_trial *t, double *v)
{
	*v = t->core_ghz;
	return !isnan(*v);
}

static bool clock_moved(const struct cbench_trial *t, double *v)
{
	*v = t->clock_moved;
	return !isnan(*v);
}

static bool bytes_per_op(const struct cbench_trial *t, double *v)
{
	*v = t->figures.bytes_per_op;
	return t->figures.have_allocs;
}

static bool core_width(const struct cbench_trial *t, double *v)
{
	*v = t->figures.core_width;
	return t->figures.have_width;
}

static bool allocs_per_op(const struct cbench_trial *t, double *v)
{
	*v = t->figures.allocs_per_op;
	return t->figures.have_allocs;
}

/* The median per-iteration time of the loop timing points. */
static bool ns_per_iteration(const struct cbench_trial *t, double *v)
{
	*v = t->tp.q_ns[2];
	return t->have_tp && t->tp.every && !isnan(*v);
}

/* The way in: a figure read back from a report (results/bench_read.c), NAN
 * where the report has it as null. */
static void set_ns_per_op(struct cbench_trial *t, double v)
{
	t->ns_per_op = v;
}

static void set_mb_per_s(struct cbench_trial *t, double v)
{
	t->mb_per_s = v;
}

/* A counter's figure: measured only where the report has a number. */
static void set_counted(struct cbench_trial *t, double *dst, uint32_t have, double v)
{
	*dst = v;
	if (!isnan(v))
		t->have |= have;
}

static void set_instructions_per_op(struct cbench_trial *t, double v)
{
	set_counted(t, &t->instructions_per_op, CBENCH_HAVE_INSTRUCTIONS, v);
}

static void set_cycles_per_op(struct cbench_trial *t, double v)
{
	set_counted(t, &t->cycles_per_op, CBENCH_HAVE_CYCLES, v);
}

static void set_ref_cycles_per_op(struct cbench_trial *t, double v)
{
	set_counted(t, &t->ref_cycles_per_op, CBENCH_HAVE_REF_CYCLES, v);
}

static void set_est_cycles_per_op(struct cbench_trial *t, double v)
{
	t->est_cycles_per_op = v;
}

static void set_step_share(struct cbench_trial *t, double v)
{
	t->step_share = v;
}

static void set_core_ghz(struct cbench_trial *t, double v)
{
	t->core_ghz = v;
}

static void set_clock_moved(struct cbench_trial *t, double v)
{
	t->clock_moved = v;
}

/* Allocations are counted together: either member says they were. */
static void set_bytes_per_op(struct cbench_trial *t, double v)
{
	t->figures.bytes_per_op = v;
	t->figures.have_allocs = true;
}

static void set_core_width(struct cbench_trial *t, double v)
{
	t->figures.core_width = v;
	t->figures.have_width = true;
}

static void set_allocs_per_op(struct cbench_trial *t, double v)
{
	t->figures.allocs_per_op = v;
	t->figures.have_allocs = true;
}

static double result_ns(const struct cbench_result *res)
{
	return res->ns_per_op;
}

static double result_mb(const struct cbench_result *res)
{
	return res->mb_per_s;
}

static double result_instructions(const struct cbench_result *res)
{
	return res->instructions_per_op;
}

static double result_cycles(const struct cbench_result *res)
{
	return res->cycles_per_op;
}

static double result_ref_cycles(const struct cbench_result *res)
{
	return res->ref_cycles_per_op;
}

static double result_est_cycles(const struct cbench_result *res)
{
	return res->est_cycles_per_op;
}

static bool declares_bytes(const struct cbench_experiment *e)
{
	return e->desc->bytes_per_rep;
}

/*
 * ns/op is the headline: JSON writes it with its spread (min, median, max,
 * cv) by hand, the table with its interval.  Allocation counts and the time
 * per iteration take Go's units, so benchstat reads them: B/op and
 * allocs/op as `go test -benchmem` prints them, ns/iter in a table of its
 * own.
 */
const struct cbench_figure cbench_figures[] = {
	{ .name = "ns_per_op", .unit = "ns/op", .lnt = "ps_per_op", .bmf = "latency", .headline = true,
	  .show = CBENCH_SHOW_GO | CBENCH_SHOW_LNT | CBENCH_SHOW_LNT_ESTIMATE | CBENCH_SHOW_BMF,
	  .get = ns_per_op, .set = set_ns_per_op, .result = result_ns },
	{ .name = "mb_per_s", .unit = "MB/s", .column = "rate", .style = CBENCH_FIGURE_RATE,
	  .show = CBENCH_SHOW_GO | CBENCH_SHOW_JSON | CBENCH_SHOW_TABLE,
	  .get = mb_per_s, .set = set_mb_per_s, .result = result_mb, .applies = declares_bytes },
	{ .name = "instructions_per_op", .unit = "instructions/op", .lnt = "instructions_per_kop",
	  .bmf = "instructions", .csv = "instructions", .counter = CBENCH_HAVE_INSTRUCTIONS,
	  .show = CBENCH_SHOW_GO | CBENCH_SHOW_JSON | CBENCH_SHOW_LNT | CBENCH_SHOW_BMF | CBENCH_SHOW_CSV,
	  .get = instructions_per_op, .set = set_instructions_per_op, .result = result_instructions },
	{ .name = "cycles_per_op", .unit = "cycles/op", .lnt = "cycles_per_kop", .bmf = "cycles",
	  .csv = "cycles", .counter = CBENCH_HAVE_CYCLES,
	  .show = CBENCH_SHOW_GO | CBENCH_SHOW_JSON | CBENCH_SHOW_LNT | CBENCH_SHOW_BMF | CBENCH_SHOW_CSV,
	  .get = cycles_per_op, .set = set_cycles_per_op, .result = result_cycles },
	{ .name = "ref_cycles_per_op", .unit = "ref-cycles/op", .lnt = "ref_cycles_per_kop",
	  .bmf = "ref-cycles", .csv = "ref_cycles", .counter = CBENCH_HAVE_REF_CYCLES,
	  .show = CBENCH_SHOW_GO | CBENCH_SHOW_JSON | CBENCH_SHOW_LNT | CBENCH_SHOW_BMF | CBENCH_SHOW_CSV,
	  .get = ref_cycles_per_op, .set = set_ref_cycles_per_op, .result = result_ref_cycles },
	{ .name = "est_cycles_per_op", .unit = "est-cycles/op", .lnt = "est_cycles_per_kop",
	  .bmf = "est-cycles", .column = "cycles/op",
	  .show = CBENCH_SHOW_GO | CBENCH_SHOW_JSON | CBENCH_SHOW_LNT | CBENCH_SHOW_LNT_ESTIMATE |
		  CBENCH_SHOW_BMF | CBENCH_SHOW_TABLE,
	  .get = est_cycles_per_op, .set = set_est_cycles_per_op, .result = result_est_cycles },
	{ .name = "step_share", .unit = "", .show = CBENCH_SHOW_JSON, .get = step_share,
	  .set = set_step_share },
	{ .name = "core_ghz", .unit = "GHz", .show = CBENCH_SHOW_JSON, .get = core_ghz, .set = set_core_ghz },
	{ .name = "clock_moved", .unit = "", .show = CBENCH_SHOW_JSON, .get = clock_moved,
	  .set = set_clock_moved },
	{ .name = "core_width", .unit = "adds/cycle", .show = CBENCH_SHOW_JSON, .get = core_width,
	  .set = set_core_width },
	{ .name = "bytes_per_op", .unit = "B/op", .style = CBENCH_FIGURE_COUNT,
	  .show = CBENCH_SHOW_GO | CBENCH_SHOW_JSON, .get = bytes_per_op, .set = set_bytes_per_op },
	{ .name = "allocs_per_op", .unit = "allocs/op", .style = CBENCH_FIGURE_COUNT,
	  .show = CBENCH_SHOW_GO | CBENCH_SHOW_JSON, .get = allocs_per_op, .set = set_allocs_per_op },
	{ .name = "ns_per_iteration", .unit = "ns/iter", .show = CBENCH_SHOW_GO, .get = ns_per_iteration },
};

const unsigned int cbench_nfigures = sizeof(cbench_figures) / sizeof(cbench_figures[0]);

/* LNT and BMF take the figures without a counter first, then the counters'. */
static bool in_pass(const struct cbench_figure *f, unsigned int show, int pass)
{
	if (!(f->show & show))
		return false;
	if (!(show & (CBENCH_SHOW_LNT | CBENCH_SHOW_BMF)))
		return pass == 0;
	return (f->counter != 0) == (pass == 1);
}

const struct cbench_figure *cbench_figure_next(const struct cbench_figure *prev, unsigned int show)
{
	const struct cbench_figure *end = cbench_figures + cbench_nfigures;
	int pass = 0;
	const struct cbench_figure *f = cbench_figures;

	if (prev) {
		pass = in_pass(prev, show, 1);
		f = prev + 1;
	}
	for (; pass < 2; pass++, f = cbench_figures) {
		for (; f < end; f++) {
			if (in_pass(f, show, pass))
				return f;
		}
	}
	return NULL;
}

double cbench_figure_value(const struct cbench_figure *f, const struct cbench_trial *t)
{
	double v;

	if (t->error || !f->get(t, &v))
		return NAN;
	return v;
}

size_t cbench_figure_kept(const struct cbench_figure *f, const struct cbench_result *res, double *v,
			  size_t max)
{
	size_t n = 0;

	for (size_t i = 0; res && i < res->ntrials && n < max; i++) {
		double x = cbench_figure_value(f, &res->trials[i]);

		if (isfinite(x) && !res->trials[i].set_aside)
			v[n++] = x;
	}
	return n;
}

const char *const cbench_metric_names[CBENCH_METRICS + 1] = {
	"ns", "est-cycles", "instructions", "cycles", "ref-cycles", NULL,
};

const char *const cbench_metric_units[CBENCH_METRICS] = {
	"ns/op", "est-cycles/op", "instructions/op", "cycles/op", "ref-cycles/op",
};

const char *const cbench_metric_members[CBENCH_METRICS] = {
	"ns_per_op", "est_cycles_per_op", "instructions_per_op", "cycles_per_op", "ref_cycles_per_op",
};

int cbench_metric_of(const char *name)
{
	for (int m = 0; m < CBENCH_METRICS; m++) {
		if (!strcmp(name, cbench_metric_names[m]) || !strcmp(name, cbench_metric_units[m]))
			return m;
	}
	return -1;
}

const struct cbench_figure *cbench_metric_figure(enum cbench_metric m)
{
	for (unsigned int i = 0; m < CBENCH_METRICS && i < cbench_nfigures; i++) {
		if (!strcmp(cbench_figures[i].name, cbench_metric_members[m]))
			return &cbench_figures[i];
	}
	return NULL;
}
