// SPDX-License-Identifier: GPL-2.0
/*
 * `cbenchctl selftest`: known answers on this machine.  Runs the kernels of
 * examples/known.c (built kernel-safe, so ring 0 runs them too) through
 * `cbenchctl run` in a child, reads its JSON report, and holds each
 * figure against what the hardware documents for this CPU
 * (machine/known.c): a latency in cycles, a throughput, and, where the
 * PMU counted, instructions per op and cycles per op against the estimate.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd/subcommands.h"
#include "machine/known.h"
#include "machine/probe.h"
#include "report/backends.h"
#include "report/json.h"
#include "report/readfile.h"
#include "report/outfile.h"
#include "report/report_selftest.h"
#include "session/options.h"
#include "session/session.h"
#include "stats/stats.h"

#ifndef CBENCH_LIBDIR
#define CBENCH_LIBDIR "/usr/local/lib/cbench"
#endif

/* Tolerances of the counter checks: instructions per op are exact but for
 * the loop around each 1000 (2 or 3 per rep); cycles agree with the
 * reference-chain estimate within the clock's move. */
#define INSTRUCTIONS_TOLERANCE 0.01
#define CYCLES_TOLERANCE 0.03
#define MAX_EXPECT 16
#define BACKENDS 2

struct selftest_options {
	const char *backends[BACKENDS];	/* "user", "kmod" */
	int nbackends;
	const char *cpu;		/* --cpu, as given; NULL: run's default */
	const char *trials;
	const char *quiet;		/* --quiet-mode for the kmod backend; NULL: the module's */
	bool json;
	const char *output;
	struct { const char *name; double value; } expect[MAX_EXPECT];
	int nexpect;
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %s selftest [options]\n"
		"\n"
		"Measures kernels whose answers the hardware documents (examples/known.c: the\n"
		"latency of add, imul, crc32 and popcnt chains, an L1 pointer chase, the\n"
		"throughput of independent adds) and holds each against this CPU's value from\n"
		"a table keyed by CPUID vendor, family and model, with its source.  A CPU the\n"
		"table lacks is measured only, never failed.  Where the PMU counts, also\n"
		"instructions per op (1) and cycles per op against the estimate.\n"
		"\n"
		"Options:\n"
		"  --backend KIND      user, kmod or both (default user): both measures in user\n"
		"                      mode and in ring 0 and shows them side by side\n"
		"  --cpu N             measure on CPU N (default: run's)\n"
		"  --quiet-mode MODE   kmod: cli (interrupts off) or lvt (the local APIC's LVT\n"
		"                      entries masked), as for run; the report says which\n"
		"  --trials K          trials per kernel (default 5)\n"
		"  --expect NAME=VAL   expect VAL for check NAME instead of the table's (a CPU\n"
		"                      the table lacks, or a check of the check)\n"
		"  --format FMT        text or json (default text)\n"
		"  -o, --output FILE   write the report to FILE (default stdout)\n"
		"  -h, --help          show this help\n"
		"\n"
		"Exit status: 0 when every check passed (or was measured only), 1 when one\n"
		"failed or the kernels could not be measured, 2 for wrong arguments.\n",
		cbench_prog);
}

static int take_expect(struct selftest_options *o, const char *arg)
{
	const char *eq = strchr(arg, '=');
	double v;

	if (!eq || o->nexpect == MAX_EXPECT || cbench_parse_number(eq + 1, &v) || !(v > 0))
		return cbench_usage_error("selftest", "--expect wants NAME=VALUE, VALUE positive, "
					  "not '%s'", arg);
	for (unsigned int i = 0; i < cbench_known_nchecks; i++) {
		if (strlen(cbench_known_checks[i].name) == (size_t)(eq - arg) &&
		    !strncmp(cbench_known_checks[i].name, arg, (size_t)(eq - arg))) {
			o->expect[o->nexpect].name = cbench_known_checks[i].name;
			o->expect[o->nexpect++].value = v;
			return 0;
		}
	}
	return cbench_usage_error("selftest", "--expect: no check named '%.*s' (add, imul, crc32, "
				  "popcnt, l1, add-throughput)", (int)(eq - arg), arg);
}

/* 0, 1 for --help, or CBENCH_EXIT_USAGE after saying why. */
static int parse(struct selftest_options *o, int argc, char *argv[])
{
	enum { OPT_BACKEND = 256, OPT_CPU, OPT_TRIALS, OPT_EXPECT, OPT_FORMAT, OPT_QUIET };
	static const struct option longopts[] = {
		{ "backend", required_argument, NULL, OPT_BACKEND },
		{ "cpu", required_argument, NULL, OPT_CPU },
		{ "trials", required_argument, NULL, OPT_TRIALS },
		{ "expect", required_argument, NULL, OPT_EXPECT },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "quiet-mode", required_argument, NULL, OPT_QUIET },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	*o = (struct selftest_options){ .backends = { "user" }, .nbackends = 1, .trials = "5" };
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":ho:", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			return 1;
		case 'o':
			o->output = optarg;
			break;
		case OPT_BACKEND:
			if (!strcmp(optarg, "both")) {
				o->backends[0] = "user";
				o->backends[1] = "kmod";
				o->nbackends = 2;
			} else if (!strcmp(optarg, "user") || !strcmp(optarg, "kmod")) {
				o->backends[0] = !strcmp(optarg, "user") ? "user" : "kmod";
				o->nbackends = 1;
			} else {
				return cbench_usage_error("selftest", "--backend must be user, kmod or "
							  "both, not '%s'", optarg);
			}
			break;
		case OPT_CPU:
			o->cpu = optarg;
			break;
		case OPT_QUIET:
			if (strcmp(optarg, "cli") && strcmp(optarg, "lvt"))
				return cbench_usage_error("selftest", "--quiet-mode must be cli or lvt, "
							  "not '%s'", optarg);
			o->quiet = optarg;
			break;
		case OPT_TRIALS:
			if (strspn(optarg, "0123456789") != strlen(optarg) || !*optarg ||
			    atoi(optarg) < 1 || atoi(optarg) > 1000)
				return cbench_usage_error("selftest", "--trials wants a count from 1 to "
							  "1000, not '%s'", optarg);
			o->trials = optarg;
			break;
		case OPT_EXPECT:
			if (take_expect(o, optarg))
				return CBENCH_EXIT_USAGE;
			break;
		case OPT_FORMAT:
			if (strcmp(optarg, "text") && strcmp(optarg, "json"))
				return cbench_usage_error("selftest", "--format must be text or json, not "
							  "'%s'", optarg);
			o->json = !strcmp(optarg, "json");
			break;
		case ':':
			return cbench_usage_error("selftest", "%s wants a value", argv[optind - 1]);
		default:
			return cbench_usage_error("selftest", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (o->quiet && !strcmp(o->backends[0], "user") && o->nbackends == 1)
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

/* Runs `cbenchctl run` on the kernels into json_path; its stderr into err_path. */
/* "^(latency_add|...)$": the kernels this CPU can execute. */
static void supported_filter(char *buf, size_t len)
{
	size_t at = (size_t)snprintf(buf, len, "^(");

	for (unsigned int i = 0; i < cbench_known_nchecks && at < len; i++) {
		if (cbench_known_supported(&cbench_known_checks[i]))
			at += (size_t)snprintf(buf + at, len - at, "%s%s", at > 2 ? "|" : "",
					       cbench_known_checks[i].benchmark);
	}
	if (at < len)
		snprintf(buf + at, len - at, ")$");
}

static int run_kernels(const struct selftest_options *o, const char *backend, const char *so,
		       const char *json_path, const char *err_path)
{
	const char *argv[24];
	char filter[512];
	int argc = 0;

	supported_filter(filter, sizeof(filter));
	argv[argc++] = "cbenchctl";
	argv[argc++] = "run";
	argv[argc++] = "--backend";
	argv[argc++] = backend;
	argv[argc++] = "--trials";
	argv[argc++] = o->trials;
	if (o->cpu) {
		argv[argc++] = "--cpu";
		argv[argc++] = o->cpu;
	}
	if (o->quiet && !strcmp(backend, "kmod")) {
		argv[argc++] = "--quiet-mode";
		argv[argc++] = o->quiet;
	}
	argv[argc++] = "--filter";
	argv[argc++] = filter;
	argv[argc++] = "--format";
	argv[argc++] = "json";
	argv[argc++] = "-o";
	argv[argc++] = json_path;
	argv[argc++] = so;
	argv[argc] = NULL;
	return cbench_session_run_self(argv, err_path) == 0 ? 0 : -EIO;
}

/* The least over a result's ok trials of one figure; NAN if none has it. */
static double trials_least(const struct cbench_json *res, const char *key)
{
	const struct cbench_json *t = cbench_json_get(res, "trials");
	double least = NAN;

	for (size_t i = 0; t && i < t->n; i++) {
		double x = cbench_json_number(&t->items[i], key, NAN);

		if (isfinite(x) && !(x >= least))
			least = x;
	}
	return least;
}

/* The median over a result's ok trials of one figure; NAN if none has it. */
static double trials_median(const struct cbench_json *res, const char *key)
{
	const struct cbench_json *t = cbench_json_get(res, "trials");
	double v[1024];
	size_t n = 0;

	for (size_t i = 0; t && i < t->n && n < sizeof(v) / sizeof(v[0]); i++) {
		double x = cbench_json_number(&t->items[i], key, NAN);

		if (isfinite(x))
			v[n++] = x;
	}
	return n ? cbench_stats_median(v, n) : NAN;
}

static void judge(struct cbench_selftest_outcome *c, const char *why)
{
	double off;

	if (!isfinite(c->measured)) {
		c->verdict = CBENCH_SELFTEST_NOT_MEASURED;
		snprintf(c->cause, sizeof(c->cause), "%s", why && *why ? why : "no trial measured it");
		return;
	}
	if (!(c->expected > 0)) {
		c->verdict = CBENCH_SELFTEST_MEASURED_ONLY;
		return;
	}
	off = c->measured / c->expected - 1;
	c->verdict = fabs(off) <= c->tolerance ? CBENCH_SELFTEST_PASS : CBENCH_SELFTEST_FAIL;
	if (c->verdict == CBENCH_SELFTEST_FAIL)
		snprintf(c->cause, sizeof(c->cause), "%.4g %s is %+.1f%% off %g (tolerance %.0f%%)%s%s",
			 c->measured, c->unit, 100 * off, c->expected, 100 * c->tolerance,
			 why && *why ? "; the run said: " : "", why ? why : "");
}

static double expected_of(const struct selftest_options *o, const char *name,
			  const struct cbench_machine *m, struct cbench_selftest_outcome *c)
{
	struct cbench_known_value k;

	for (int i = 0; i < o->nexpect; i++) {
		if (!strcmp(o->expect[i].name, name)) {
			c->source = "--expect";
			c->cores = "as given";
			return o->expect[i].value;
		}
	}
	if (cbench_known_lookup(name, m->cpu_vendor, m->cpu_family, m->cpu_model, &k)) {
		c->source = k.source;
		c->cores = k.cores;
		return k.value;
	}
	c->source = "no table row for this CPU";
	c->cores = "";
	return NAN;
}

/* The checks of one backend's report. */
static void check_all(const struct selftest_options *o, const struct cbench_machine *m,
		      struct cbench_selftest_backend *b)
{
	const struct cbench_json *counters = cbench_json_get(cbench_json_get(b->report, "config"),
							     "counters");
	bool counted = counters && counters->n > 0;

	for (unsigned int i = 0; i < cbench_known_nchecks; i++) {
		const struct cbench_known_check *k = &cbench_known_checks[i];
		const struct cbench_json *res = cbench_report_result(b->report, k->benchmark);
		struct cbench_selftest_outcome *c = &b->checks[b->nchecks++];

		*c = (struct cbench_selftest_outcome){ .name = k->name, .what = k->what, .unit = k->unit,
				       .tolerance = k->tolerance };
		c->expected = expected_of(o, k->name, m, c);
		if (!cbench_known_supported(k)) {
			c->measured = NAN;
			c->verdict = CBENCH_SELFTEST_UNSUPPORTED;
			snprintf(c->cause, sizeof(c->cause), "this CPU has no %s (CPUID)", k->needs);
			continue;
		}
		c->measured = !res ? NAN : k->least ? trials_least(res, "est_cycles_per_op") :
			      cbench_json_number(res, "est_cycles_per_op", NAN);
		judge(c, res ? cbench_json_string(res, "unstable_reason", "") : "not in the report");
		b->failed += c->verdict == CBENCH_SELFTEST_FAIL || c->verdict == CBENCH_SELFTEST_NOT_MEASURED;
		if (!counted || !res)
			continue;
		/* Where the PMU counted: one instruction per op, and its cycles
		 * agree with the reference chain's estimate. */
		c = &b->checks[b->nchecks++];
		*c = (struct cbench_selftest_outcome){ .name = k->name, .what = "instructions per op (counted)",
				       .unit = "instructions", .expected = 1, .source = "the kernel's code",
				       .cores = "any", .tolerance = INSTRUCTIONS_TOLERANCE,
				       .measured = trials_median(res, "instructions_per_op") };
		judge(c, NULL);
		b->failed += c->verdict == CBENCH_SELFTEST_FAIL;
		c = &b->checks[b->nchecks++];
		*c = (struct cbench_selftest_outcome){ .name = k->name, .what = "cycles per op (counted) vs estimate",
				       .unit = "cycles", .source = "the estimate", .cores = "any",
				       .tolerance = CYCLES_TOLERANCE,
				       .expected = cbench_json_number(res, "est_cycles_per_op", NAN),
				       .measured = trials_median(res, "cycles_per_op") };
		judge(c, NULL);
		b->failed += c->verdict == CBENCH_SELFTEST_FAIL;
	}
}

/* Reads a report file whole and parses it; NULL after saying why. */
static struct cbench_json *read_report(const char *path)
{
	struct cbench_json *root = NULL;
	char why[CBENCH_ERR_LEN], *text = NULL;
	size_t n = 0;

	if (cbench_read_file(path, 64 << 20, &text, &n) || !n ||
	    cbench_json_parse(text, n, &root, why, sizeof(why))) {
		cbench_err("selftest: unable to read the run's report %s\n", path);
		root = NULL;
	}
	free(text);
	return root;
}

/* One backend: the run and its checks; 0, or -1 after saying why. */
static int measure_backend(const struct selftest_options *o, const struct cbench_machine *m,
			   const char *so, const char *dir, struct cbench_selftest_backend *b)
{
	char json[PATH_MAX], err[PATH_MAX];

	snprintf(json, sizeof(json), "%s/%s.json", dir, b->backend);
	snprintf(err, sizeof(err), "%s/%s.err", dir, b->backend);
	if (run_kernels(o, b->backend, so, json, err)) {
		char line[512];
		FILE *f = fopen(err, "re");

		cbench_err("selftest: the known-answer kernels did not run on the %s backend:\n",
			   b->backend);
		while (f && fgets(line, sizeof(line), f))
			fprintf(stderr, "  %s", line);
		if (f)
			fclose(f);
		unlink(err);
		return -1;
	}
	unlink(err);
	b->report = read_report(json);
	unlink(json);
	if (!b->report)
		return -1;
	check_all(o, m, b);
	return 0;
}

int cbench_selftest_main(int argc, char *argv[])
{
	struct selftest_options o;
	struct cbench_selftest_backend b[BACKENDS] = { { 0 } };
	struct cbench_machine m;
	char so[PATH_MAX], dir[] = "/tmp/cbench-selftest.XXXXXX";
	int ret = parse(&o, argc, argv), status = 1, n = 0;
	struct cbench_outfile out = { 0 };

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
	if (!mkdtemp(dir)) {
		cbench_err("selftest: unable to make a scratch directory: %s\n", strerror(errno));
		return 1;
	}
	cbench_machine_probe(&m);
	for (n = 0; n < o.nbackends; n++) {
		b[n].backend = o.backends[n];
		if (measure_backend(&o, &m, so, dir, &b[n]))
			goto out;
	}
	ret = cbench_outfile_open(&out, o.output);
	if (ret) {
		cbench_err("selftest: unable to write %s: %s\n", o.output,
			   cbench_outfile_error(&out, ret));
		goto out;
	}
	cbench_selftest_print(out.file, &m, b, n, o.json);
	ret = cbench_outfile_commit(&out);
	if (ret) {
		cbench_err("selftest: unable to write %s: %s\n", o.output ? o.output : "the report",
			   cbench_outfile_error(&out, ret));
		goto out;
	}
	status = 0;
	for (int r = 0; r < n; r++)
		status |= b[r].failed != 0;
out:
	cbench_outfile_abort(&out);
	for (int r = 0; r < BACKENDS; r++)
		cbench_json_free(b[r].report);
	rmdir(dir);
	return status;
}
