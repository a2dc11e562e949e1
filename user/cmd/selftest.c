// SPDX-License-Identifier: GPL-2.0
/*
 * `cbenchctl selftest`: known answers on this machine.  Identifies the
 * core from its CPUID leaves (machine/uarch.c), runs the kernels of
 * examples/known.c (built kernel-safe, so ring 0 runs them too) as a run
 * in this process (cmd/run_parts.h), those of caches and TLBs sized from
 * the leaves, and judges each figure of the run's report against what the
 * core's row, or its vendor line's, says (machine/known.c).  Where the PMU
 * counted, instructions per op and cycles per op against the estimate too.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd/run_parts.h"
#include "cmd/subcommands.h"
#include "machine/known.h"
#include "machine/probe.h"
#include "machine/uarch.h"
#include "report/backends.h"
#include "report/figures.h"
#include "report/outfile.h"
#include "report/report.h"
#include "report/report_selftest.h"
#include "session/options.h"
#include "session/session.h"
#include "stats/stats.h"
#include "stats/trials.h"

#ifndef CBENCH_LIBDIR
#define CBENCH_LIBDIR "/usr/local/lib/cbench"
#endif

/* Tolerances of the counter checks: instructions per op are exact but for
 * the loop around each 1000 (2 or 3 per rep); cycles agree with the
 * reference-chain estimate within the clock's move. */
#define INSTRUCTIONS_TOLERANCE 0.01
#define CYCLES_TOLERANCE 0.03
#define MAX_EXPECT 32
#define BACKENDS 2
#define ID_BYTES 64

struct selftest_options {
	const char *backends[BACKENDS];	/* "user", "kmod" */
	int nbackends;
	int cpu;			/* --cpu; -1: run's default */
	unsigned int trials;
	int quiet;			/* --quiet-mode for the kmod backend: enum cbench_quiet; -1 the module's */
	const char *core;		/* --core, as given */
	bool json;
	const char *output;
	struct { const char *name; double value; } expect[MAX_EXPECT];
	int nexpect;
};

/* What each check runs on this core, chosen once for every backend. */
struct plan {
	char id[ID_BYTES], minus[ID_BYTES];
	bool supported;
	char why[256];			/* why it has no kernel here */
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %s selftest [options]\n"
		"\n"
		"Measures kernels whose answers the hardware documents (examples/known.c: the\n"
		"latency of add, imul, crc32, popcnt, lzcnt, lea, div and vector chains, loads\n"
		"from L1, L2, L3 and memory with chases sized from the CPUID cache leaves, a\n"
		"TLB miss, a store and its load, a mispredicted branch, the throughput of adds,\n"
		"imuls and loads) and judges each against this core's value, with its source.\n"
		"The core is identified by its CPUID feature, cache and TLB leaves and hybrid\n"
		"core type, not by its model number alone; values that hold on every core of a\n"
		"vendor's line (add 1 and imul 3 cycles on every Intel Core and AMD Zen) are\n"
		"judged on a core the table lacks.  A check that cannot be judged says why.\n"
		"Where the PMU counts, also instructions per op (1) and cycles per op against\n"
		"the estimate.\n"
		"\n"
		"Options:\n"
		"  --backend KIND      user, kmod or both (default user): both measures in user\n"
		"                      mode and in ring 0 and shows them side by side\n"
		"  --cpu N             measure on CPU N (default: run's)\n"
		"  --core NAME         judge as core NAME, for a guest whose CPUID hides its\n"
		"                      silicon: skylake, skylake-sp, sunny-cove, golden-cove,\n"
		"                      golden-cove-sp, gracemont, zen, zen2, zen3, zen4, zen5, or\n"
		"                      intel-core or amd-zen for the vendor line's values only\n"
		"  --quiet-mode MODE   kmod: cli (interrupts off) or lvt (the local APIC's LVT\n"
		"                      entries masked), as for run; the report says which\n"
		"  --trials K          trials per kernel (default 5)\n"
		"  --expect NAME=VAL   expect VAL for check NAME instead of the table's (a CPU\n"
		"                      the table lacks, or a check of the check)\n"
		"  --format FMT        text or json (default text)\n"
		"  -o, --output FILE   write the report to FILE (default stdout)\n"
		"  -h, --help          show this help\n"
		"\n"
		"Exit status: 0 when no check failed (a check not judged does not fail), 1 when\n"
		"one failed or a kernel could not be measured, 2 for wrong arguments.\n",
		cbench_prog);
}

static int take_expect(struct selftest_options *o, const char *arg)
{
	const char *eq = strchr(arg, '=');
	char name[32];
	double v;

	if (!eq || o->nexpect == MAX_EXPECT || cbench_parse_number(eq + 1, &v) || !(v > 0))
		return cbench_usage_error("selftest", "--expect wants NAME=VALUE, VALUE positive, "
					  "not '%s'", arg);
	snprintf(name, sizeof(name), "%.*s", (int)(eq - arg), arg);
	if (!cbench_known_find(name))
		return cbench_usage_error("selftest", "--expect: no check named '%s' (the report's "
					  "first column names them: add, imul, l2, ...)", name);
	o->expect[o->nexpect].name = cbench_known_find(name)->name;
	o->expect[o->nexpect++].value = v;
	return 0;
}

static int take_backend(struct selftest_options *o, const char *arg)
{
	if (!strcmp(arg, "both")) {
		o->backends[0] = "user";
		o->backends[1] = "kmod";
		o->nbackends = 2;
	} else if (!strcmp(arg, "user") || !strcmp(arg, "kmod")) {
		o->backends[0] = !strcmp(arg, "user") ? "user" : "kmod";
		o->nbackends = 1;
	} else {
		return cbench_usage_error("selftest", "--backend must be user, kmod or both, not '%s'",
					  arg);
	}
	return 0;
}

static int take_option(struct selftest_options *o, int c, const char *arg)
{
	enum cbench_line line;
	enum cbench_uarch uarch;

	switch (c) {
	case 'o':
		o->output = arg;
		return 0;
	case 'b':
		return take_backend(o, arg);
	case 'c':
		return cbench_option_cpu(arg, CPU_SETSIZE, &o->cpu, stderr) ? CBENCH_EXIT_USAGE : 0;
	case 'C':
		if (cbench_core_parse(arg, &line, &uarch))
			return cbench_usage_error("selftest", "--core: no core named '%s' (see --help)",
						  arg);
		o->core = arg;
		return 0;
	case 'q':
		if (strcmp(arg, "cli") && strcmp(arg, "lvt"))
			return cbench_usage_error("selftest", "--quiet-mode must be cli or lvt, not '%s'",
						  arg);
		return cbench_option_quiet(arg, &o->quiet, stderr) ? CBENCH_EXIT_USAGE : 0;
	case 't':
		if (strspn(arg, "0123456789") != strlen(arg) || !*arg || atoi(arg) < 1 ||
		    atoi(arg) > 1000)
			return cbench_usage_error("selftest", "--trials wants a count from 1 to 1000, "
						  "not '%s'", arg);
		o->trials = (unsigned int)atoi(arg);
		return 0;
	case 'e':
		return take_expect(o, arg);
	case 'f':
		if (strcmp(arg, "text") && strcmp(arg, "json"))
			return cbench_usage_error("selftest", "--format must be text or json, not '%s'",
						  arg);
		o->json = !strcmp(arg, "json");
		return 0;
	}
	return CBENCH_EXIT_USAGE;
}

/* 0, 1 for --help, or CBENCH_EXIT_USAGE after saying why. */
static int parse(struct selftest_options *o, int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "backend", required_argument, NULL, 'b' },
		{ "cpu", required_argument, NULL, 'c' },
		{ "core", required_argument, NULL, 'C' },
		{ "trials", required_argument, NULL, 't' },
		{ "expect", required_argument, NULL, 'e' },
		{ "format", required_argument, NULL, 'f' },
		{ "quiet-mode", required_argument, NULL, 'q' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	*o = (struct selftest_options){ .backends = { "user" }, .nbackends = 1, .trials = 5, .cpu = -1,
					.quiet = -1 };
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":ho:", longopts, NULL)) != -1) {
		if (c == 'h')
			return 1;
		if (c == ':')
			return cbench_usage_error("selftest", "%s wants a value", argv[optind - 1]);
		if (c == '?')
			return cbench_usage_error("selftest", "unknown option '%s'", argv[optind - 1]);
		if (take_option(o, c, optarg))
			return CBENCH_EXIT_USAGE;
	}
	if (o->quiet >= 0 && !strcmp(o->backends[0], "user") && o->nbackends == 1)
		return cbench_usage_error("selftest", "--quiet-mode is how cbench.ko keeps its "
					  "samples quiet: use it with --backend kmod or both");
	if (optind != argc)
		return cbench_usage_error("selftest", "it takes no object: its kernels are cbench's "
					  "own (examples/known.c), not '%s'", argv[optind]);
	return 0;
}

/*
 * The known-answer object: beside this cbenchctl in a build tree
 * (build/examples/known.kernel.so), else where make install put it.
 */
static int find_kernels(char *path, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	const char *env = getenv("CBENCH_KNOWN_SO");

	if (env && *env) {
		snprintf(path, len, "%s", env);
		return access(path, R_OK) ? -errno : 0;
	}
	if (n > 0) {
		char *slash;

		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			if (snprintf(path, len, "%.*s/examples/known.kernel.so", (int)(len - 32), exe) <
				    (int)len && !access(path, R_OK))
				return 0;
		}
	}
	snprintf(path, len, "%s/known.so", CBENCH_LIBDIR);
	return access(path, R_OK) ? -ENOENT : 0;
}

/* Each check's kernels on this core, and whether it can run them. */
static void make_plans(const struct cbench_core *core, uint64_t mem_bytes, struct plan *plans)
{
	for (unsigned int i = 0; i < cbench_known_nchecks; i++) {
		const struct cbench_known_check *k = &cbench_known_checks[i];
		struct plan *p = &plans[i];

		p->supported = cbench_known_supported(k, core);
		if (cbench_known_kernels(k, core, mem_bytes, p->id, sizeof(p->id), p->minus,
					 sizeof(p->minus), p->why, sizeof(p->why)))
			p->id[0] = p->minus[0] = '\0';
	}
}

/* "^(latency_add|...)$": the kernels the plans run. */
static void kernels_filter(const struct plan *plans, char *buf, size_t len)
{
	size_t at = (size_t)snprintf(buf, len, "^(");

	for (unsigned int i = 0; i < cbench_known_nchecks && at < len; i++) {
		if (!plans[i].supported || !plans[i].id[0])
			continue;
		at += (size_t)snprintf(buf + at, len - at, "%s%s%s%s", at > 2 ? "|" : "", plans[i].id,
				       plans[i].minus[0] ? "|" : "", plans[i].minus);
	}
	if (at < len)
		snprintf(buf + at, len - at, ")$");
}

/* Over a result's ok trials: the least, or the median, of one metric; NAN if none has it. */
static double over_trials(const struct cbench_result *res, enum cbench_metric m, bool least)
{
	double v[1024];
	size_t n = cbench_figure_kept(cbench_metric_figure(m), res, v, sizeof(v) / sizeof(v[0]));

	if (!n)
		return NAN;
	return least ? cbench_stats_min(v, n) : cbench_stats_median(v, n);
}

/*
 * Why a benchmark has no figure (what in metric: "est-cycles/op"): its
 * first failed trial's reason; else what its trials that ran lacked
 * (est-cycles/op, where the core clock never held still beside enough of
 * a trial's measurements; or every trial set aside as disturbed; or, at
 * the least, that none gave that figure).
 */
static void no_figure(const struct cbench_result *res, const char *id, const char *what, char *why,
		      size_t len)
{
	size_t ran = 0, unsteady = 0, aside = 0;

	if (!res) {
		snprintf(why, len, "%s: not in the run's report", id);
		return;
	}
	snprintf(why, len, "%.60s: its %zu trial%s gave no %s (no valid measurement, or no clock to "
		 "count cycles by)", id, res->ntrials, res->ntrials == 1 ? "" : "s", what);
	for (size_t i = 0; i < res->ntrials; i++) {
		const struct cbench_trial *t = &res->trials[i];

		if (t->error) {
			snprintf(why, len, "%.60s: %.440s", id, t->reason);
			return;
		}
		ran++;
		unsteady += t->clock_how == CBENCH_CLOCK_UNSTEADY;
		aside += t->set_aside;
	}
	if (unsteady && !strcmp(what, "est-cycles/op"))
		snprintf(why, len, "%.60s: %zu of its %zu trial%s formed no est-cycles/op: the core clock "
			 "moved beside too many of its measurements (a host that moves it, or an emulator); "
			 "more --trials, or a quieter CPU", id, unsteady, ran, ran == 1 ? "" : "s");
	else if (ran && aside == ran)
		snprintf(why, len, "%.60s: each of its %zu trial%s was set aside as disturbed (%s)", id, ran,
			 ran == 1 ? "" : "s", cbench_trial_cause_name(res->trials[0].cause));
}

/* A result's headline in metric m; NAN where it has none. */
static double headline(const struct cbench_result *res, enum cbench_metric m)
{
	const struct cbench_figure *f = cbench_metric_figure(m);

	return res && f && f->result ? f->result(res) : NAN;
}

/* A check's figure of one benchmark of the report; NAN, with why, if none. */
static double figure_of(const struct cbench_report *report, const struct cbench_known_check *k,
			const char *id, char *why, size_t len)
{
	const struct cbench_result *res = cbench_report_find(report, id);
	double x = NAN;

	if (res && k->figure == CBENCH_KNOWN_LEAST)
		x = over_trials(res, CBENCH_METRIC_EST_CYCLES, true);
	else if (res)
		x = headline(res, k->figure == CBENCH_KNOWN_NS ? CBENCH_METRIC_NS : CBENCH_METRIC_EST_CYCLES);
	if (!isfinite(x))
		no_figure(res, id, k->figure == CBENCH_KNOWN_NS ? "ns/op" : "est-cycles/op", why, len);
	return x;
}

static void expected_of(const struct selftest_options *o, const struct cbench_known_check *k,
			const struct cbench_core *core, struct cbench_selftest_outcome *c)
{
	struct cbench_known_expect e;

	for (int i = 0; i < o->nexpect; i++) {
		if (!strcmp(o->expect[i].name, k->name)) {
			c->source = "--expect";
			c->cores = "as given";
			c->expected = c->expected_hi = o->expect[i].value;
			return;
		}
	}
	cbench_known_expect(k, core, &e);
	c->expected = e.lo;
	c->expected_hi = e.hi;
	c->source = *e.source ? e.source : "no expectation";
	c->cores = e.cores;
	snprintf(c->cause, sizeof(c->cause), "%s", e.why);
}

static void count(struct cbench_selftest_backend *b, const struct cbench_selftest_outcome *c)
{
	b->judged += c->verdict == CBENCH_KNOWN_PASS || c->verdict == CBENCH_KNOWN_FAIL;
	b->passed += c->verdict == CBENCH_KNOWN_PASS;
	b->failed += c->verdict == CBENCH_KNOWN_FAIL || c->verdict == CBENCH_KNOWN_NOT_MEASURED;
	b->not_judged += c->verdict == CBENCH_KNOWN_NOT_JUDGED || c->verdict == CBENCH_KNOWN_UNSUPPORTED ||
			 c->verdict == CBENCH_KNOWN_NOT_RUN;
}

/* Measured against expected; a cause the run gave is kept where judging leaves none. */
static void judge(struct cbench_selftest_outcome *c, const char *run_said)
{
	char cause[sizeof(c->cause)];

	c->verdict = cbench_known_judge(c->expected, c->expected_hi, c->tolerance, c->measured,
					c->unit, cause, sizeof(cause));
	if (c->verdict == CBENCH_KNOWN_FAIL || c->verdict == CBENCH_KNOWN_NOT_MEASURED)
		snprintf(c->cause, sizeof(c->cause), "%.100s%s%.150s", cause,
			 *cause && *run_said ? "; " : "", run_said);
	/*
	 * A kernel cbench.ko has no room for (its arena, its setup with
	 * preemption off, its reps within the interrupts-off budget) is a
	 * limit of this backend on this machine, not a fault.
	 */
	if (c->verdict == CBENCH_KNOWN_NOT_MEASURED &&
	    (strstr(run_said, "arena_max_bytes") || strstr(run_said, "in ring 0 it runs with preemption off") ||
	     strstr(run_said, "outlast cbench.ko's interrupts-off budget")))
		c->verdict = CBENCH_KNOWN_NOT_RUN;
}

/* Where the PMU counted: one instruction per op, and cycles as the estimate. */
static void check_counted(struct cbench_selftest_backend *b, const struct cbench_known_check *k,
			  const struct cbench_result *res)
{
	struct cbench_selftest_outcome *c = &b->checks[b->nchecks++];

	*c = (struct cbench_selftest_outcome){ .name = k->name, .what = "instructions per op (counted)",
			       .unit = "instructions", .expected = 1, .expected_hi = 1,
			       .source = "the kernel's code", .cores = "any",
			       .tolerance = INSTRUCTIONS_TOLERANCE,
			       .measured = over_trials(res, CBENCH_METRIC_INSTRUCTIONS, false) };
	judge(c, "");
	count(b, c);
	c = &b->checks[b->nchecks++];
	*c = (struct cbench_selftest_outcome){ .name = k->name, .what = "cycles per op (counted) vs estimate",
			       .unit = "cycles", .source = "the estimate", .cores = "any",
			       .tolerance = CYCLES_TOLERANCE,
			       .expected = headline(res, CBENCH_METRIC_EST_CYCLES),
			       .measured = over_trials(res, CBENCH_METRIC_CYCLES, false) };
	c->expected_hi = c->expected;
	judge(c, "");
	count(b, c);
}

/* One check on one backend's report. */
static void check_one(const struct selftest_options *o, const struct cbench_core *core,
		      const struct cbench_known_check *k, const struct plan *p,
		      const struct cbench_report *report, struct cbench_selftest_backend *b)
{
	struct cbench_selftest_outcome *c = &b->checks[b->nchecks++];
	char why[512] = "";
	double x;

	*c = (struct cbench_selftest_outcome){ .name = k->name, .what = k->what, .unit = k->unit,
					       .tolerance = k->tolerance, .measured = NAN };
	snprintf(c->kernel, sizeof(c->kernel), "%.63s", p->id);
	expected_of(o, k, core, c);
	if (!p->supported) {
		c->verdict = CBENCH_KNOWN_UNSUPPORTED;
		snprintf(c->cause, sizeof(c->cause), "this CPU lacks an instruction of its kernel (CPUID)");
		count(b, c);
		return;
	}
	if (!p->id[0]) {
		c->verdict = CBENCH_KNOWN_NOT_RUN;
		snprintf(c->cause, sizeof(c->cause), "%s", p->why);
		count(b, c);
		return;
	}
	x = figure_of(report, k, p->id, why, sizeof(why));
	if (p->minus[0] && isfinite(x))
		x -= figure_of(report, k, p->minus, why, sizeof(why));
	c->measured = x * k->scale;
	judge(c, why);
	count(b, c);
	if (report->timer.counters && k->one_insn && cbench_report_find(report, p->id))
		check_counted(b, k, cbench_report_find(report, p->id));
}

/* One backend's run, in hand: its checks, and what it says of its quiet. */
struct taking {
	const struct selftest_options *o;
	const struct cbench_core *core;
	const struct plan *plans;
	struct cbench_selftest_backend *b;
};

static int take(const struct cbench_report *report, void *arg)
{
	struct taking *tk = arg;

	if (cbench_backend_run_of(report, &tk->b->run)) {
		cbench_err("selftest: out of memory\n");
		return -1;
	}
	for (unsigned int i = 0; i < cbench_known_nchecks; i++)
		check_one(tk->o, tk->core, &cbench_known_checks[i], &tk->plans[i], report, tk->b);
	return 0;
}

/* One backend: the run of the kernels and their checks; 0, or -1 after
 * saying why (128 + n: a signal stopped it). */
static int measure_backend(const struct selftest_options *o, const struct cbench_core *core,
			   const struct plan *plans, const char *so, struct cbench_selftest_backend *b)
{
	char filter[2048];
	struct cbench_run_options ro;
	struct taking tk = { .o = o, .core = core, .plans = plans, .b = b };
	const struct cbench_run_taker taker = { .take = take, .arg = &tk, .quiet = true };

	kernels_filter(plans, filter, sizeof(filter));
	cbench_run_options_init(&ro);
	ro.so_path = so;
	cbench_backend_parse(b->backend, &ro.backend);
	ro.trials = o->trials;
	ro.cpu = o->cpu;
	ro.quiet = ro.backend == CBENCH_BACKEND_KMOD ? o->quiet : -1;
	ro.filter = filter;
	return cbench_run_composite("selftest", "the known-answer kernels", &ro, &taker);
}

/* The core the checks are judged as: this CPU's, or --core's. */
static void identify(const struct selftest_options *o, struct cbench_core *core)
{
	enum cbench_line line;
	enum cbench_uarch uarch;

	cbench_core_probe(o->cpu >= 0 ? o->cpu : cbench_last_allowed_cpu(), core);
	if (o->core && !cbench_core_parse(o->core, &line, &uarch))
		cbench_core_force(core, line, uarch);
}

static int report(const struct selftest_options *o, const struct cbench_machine *m,
		  const struct cbench_core *core, const struct cbench_selftest_backend *b, int n)
{
	struct cbench_outfile out = { 0 };
	int ret = cbench_outfile_open(&out, o->output);

	if (ret) {
		cbench_err("selftest: unable to write %s: %s\n", o->output,
			   cbench_outfile_error(&out, ret));
		return -1;
	}
	cbench_selftest_print(out.file, m, core, b, n, o->json);
	ret = cbench_outfile_commit(&out);
	cbench_outfile_abort(&out);
	if (ret) {
		cbench_err("selftest: unable to write %s: %s\n", o->output ? o->output : "the report",
			   cbench_outfile_error(&out, ret));
		return -1;
	}
	return 0;
}

int cbench_selftest_main(int argc, char *argv[])
{
	struct selftest_options o;
	static struct cbench_selftest_backend b[BACKENDS];
	struct plan plans[CBENCH_KNOWN_MAX_CHECKS];
	struct cbench_machine m;
	struct cbench_core core;
	char so[PATH_MAX];
	int ret = parse(&o, argc, argv), status = 1, n = 0;

	if (ret == 1) {
		usage(stdout);
		return 0;
	}
	if (ret)
		return ret;
	if (find_kernels(so, sizeof(so))) {
		cbench_err("selftest: the known-answer kernels are missing (%s): in a build tree run "
			   "'make examples', else 'make install'\n", so);
		return 1;
	}
	memset(b, 0, sizeof(b));
	cbench_machine_probe(&m);
	identify(&o, &core);
	make_plans(&core, m.mem_bytes, plans);
	for (n = 0; n < o.nbackends; n++) {
		b[n].backend = o.backends[n];
		ret = measure_backend(&o, &core, plans, so, &b[n]);
		if (ret) {
			status = ret > 0 ? ret : 1;
			goto out;
		}
	}
	if (report(&o, &m, &core, b, n))
		goto out;
	status = 0;
	for (int r = 0; r < n; r++)
		status |= b[r].failed != 0;
out:
	for (int r = 0; r < BACKENDS; r++)
		cbench_backend_run_free(&b[r].run);
	return status;
}
