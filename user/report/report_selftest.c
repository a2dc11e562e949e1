// SPDX-License-Identifier: GPL-2.0
/*
 * `cbenchctl selftest`'s report, one call per field for the text and the
 * JSON (print.h): the CPU and the core it was judged as, then per backend
 * its timer and core clock, a row per check and how many were judged.  The
 * text's table puts a check's source last and shouts FAIL; the JSON keeps
 * raw figures (Hz, a tolerance of 0.02, bytes) where the text shows MHz,
 * 2% and KiB.
 */
#include <math.h>
#include <string.h>

#include "backend/types.h"
#include "machine/known.h"
#include "report/backends.h"
#include "report/print.h"
#include "report/report_selftest.h"

/* As JSON names them; the text shouts FAIL. */
static const char *const verdict_names[] = {
	[CBENCH_KNOWN_PASS] = "pass",
	[CBENCH_KNOWN_FAIL] = "fail",
	[CBENCH_KNOWN_NOT_JUDGED] = "not judged",
	[CBENCH_KNOWN_NOT_MEASURED] = "not measured",
	[CBENCH_KNOWN_UNSUPPORTED] = "not supported",
	[CBENCH_KNOWN_NOT_RUN] = "not run",
};

/* What disturbed the backend's measurements, by cause (JSON only: the
 * text shows them for two backends side by side). */
static void print_discarded(struct cbench_print *p, const struct cbench_backend_run *run)
{
	cbench_print_object_start(p, "discarded_by");
	for (unsigned int k = 0; k < CBENCH_DISTURB_KINDS; k++)
		cbench_print_json_uint(p, cbench_disturb_names[k], (uint64_t)run->discarded_by[k]);
	cbench_print_object_end(p);
}

/* The run's timer and the core clock during the checks. */
static void print_timer(struct cbench_print *p, const struct cbench_backend_run *run)
{
	const struct cbench_timer *t = &run->timer;

	cbench_print_text(p, ": timer %s", t->name);
	cbench_print_json_double(p, "timer_hz", t->tsc_hz);
	cbench_print_text(p, " at %.0f MHz", t->tsc_hz * 1e-6);
	cbench_print_double(p, "timer_step_ticks", ", step %.3g ticks", t->step_ticks);
	cbench_print_text(p, " (%.3g ns)", t->step_ticks / t->tsc_hz * 1e9);
	cbench_print_double(p, "timer_overhead_ticks", ", overhead %.3g ticks", t->overhead_ticks);
	cbench_print_double(p, "core_ghz_min", "; core clock %.3f", run->core_ghz_min);
	cbench_print_double(p, "core_ghz_max", " to %.3f GHz during the checks\n", run->core_ghz_max);
}

/* The expected value, or range, as the text's column shows it. */
static void print_expected(struct cbench_print *p, const struct cbench_selftest_outcome *c)
{
	char range[32];

	cbench_print_json_double(p, "expected", c->expected);
	if (isfinite(c->expected) && c->expected_hi != c->expected)
		cbench_print_json_double(p, "expected_max", c->expected_hi);
	if (!isfinite(c->expected))
		snprintf(range, sizeof(range), "-");
	else if (c->expected_hi != c->expected)
		snprintf(range, sizeof(range), "%.4g-%.4g", c->expected, c->expected_hi);
	else
		snprintf(range, sizeof(range), "%.4g", c->expected);
	cbench_print_text(p, " %9s", range);
}

/* One check, a row of the table; its cause below it wherever it has one
 * but a pass (JSON: wherever it has one). */
static void print_outcome(struct cbench_print *p, const struct cbench_selftest_outcome *c)
{
	cbench_print_object_start(p, NULL);
	cbench_print_string(p, "name", "%-17s", c->name);
	cbench_print_string(p, "measures", " %-58s", c->what);
	cbench_print_json_string(p, "unit", c->unit);
	print_expected(p, c);
	cbench_print_json_string(p, "source", c->source);
	cbench_print_json_string(p, "cores", c->cores);
	if (*c->kernel)
		cbench_print_json_string(p, "kernel", c->kernel);
	/* Not measured: null, not a number that reads as a result. */
	cbench_print_double(p, "measured", " %9.4g", c->measured);
	cbench_print_json_double(p, "tolerance", c->tolerance);
	cbench_print_text(p, " %4.0f%%", 100 * c->tolerance);
	cbench_print_json_string(p, "verdict", verdict_names[c->verdict]);
	cbench_print_text(p, "  %-13s %s", c->verdict == CBENCH_KNOWN_FAIL ? "FAIL" :
			  verdict_names[c->verdict], c->source);
	if (*c->cores)
		cbench_print_text(p, " (%s)", c->cores);
	cbench_print_text(p, "\n");
	if (*c->cause && c->verdict != CBENCH_KNOWN_PASS) {
		cbench_print_text(p, "%17s   %s: ", "", c->name);
		cbench_print_string(p, "cause", "%s\n", c->cause);
	} else if (*c->cause) {
		cbench_print_json_string(p, "cause", c->cause);
	}
	cbench_print_object_end(p);
}

static void print_backend(struct cbench_print *p, const struct cbench_selftest_backend *b)
{
	cbench_print_object_start(p, NULL);
	cbench_print_string(p, "backend", "\nbackend %s", b->backend);
	if (*b->run.quiet)
		cbench_print_string(p, "quiet_mode", " (quiet mode %s)", b->run.quiet);
	print_discarded(p, &b->run);
	print_timer(p, &b->run);
	cbench_print_text(p, "%-17s %-58s %9s %9s %5s  %-13s %s\n", "check", "measures", "expected",
			  "measured", "tol", "verdict", "source");
	cbench_print_array_start(p, "checks");
	for (int i = 0; i < b->nchecks; i++)
		print_outcome(p, &b->checks[i]);
	cbench_print_array_end(p);
	cbench_print_text(p, "%s: ", b->backend);
	cbench_print_uint(p, "total", "%" PRIu64 " check", b->nchecks);
	cbench_print_text(p, "%s, ", b->nchecks == 1 ? "" : "s");
	cbench_print_uint(p, "judged", "%" PRIu64 " judged", b->judged);
	cbench_print_uint(p, "passed", " (%" PRIu64 " passed, ", b->passed);
	cbench_print_uint(p, "failed", "%" PRIu64 " failed)", b->failed);
	cbench_print_uint(p, "not_judged", ", %" PRIu64 " not judged: each says why\n", b->not_judged);
	cbench_print_object_end(p);
}

/* Both backends side by side: what ring 0 removes, kernel by kernel. */
static void print_side_by_side(FILE *f, const struct cbench_selftest_backend *b)
{
	const char *ids[CBENCH_SELFTEST_OUTCOMES], *labels[CBENCH_SELFTEST_OUTCOMES];
	size_t n = 0;

	for (int i = 0; i < b[0].nchecks; i++) {
		if (*b[0].checks[i].kernel) {
			ids[n] = b[0].checks[i].kernel;
			labels[n++] = b[0].checks[i].name;
		}
	}
	cbench_backends_print(f, &b[0].run, &b[1].run, ids, labels, n);
}

/* A cache's size: bytes in JSON, KiB in the text (none where CPUID gives none). */
static void print_kib(struct cbench_print *p, const char *key, const char *label, bool first,
		      uint64_t bytes)
{
	cbench_print_json_uint(p, key, bytes);
	if (bytes)
		cbench_print_text(p, "%s %s %" PRIu64 " KiB", first ? "" : ",", label, bytes / 1024);
}

/* The core the checks were judged as, and what sized the chases. */
static void print_core(struct cbench_print *p, const struct cbench_core *core)
{
	const char *from;
	uint32_t stlb = cbench_known_stlb_entries(core, &from);

	cbench_print_object_start(p, "core");
	cbench_print_json_string(p, "uarch", cbench_uarch_key(core->uarch));
	cbench_print_json_string(p, "line", cbench_line_key(core->line));
	cbench_print_string(p, "name", "core: %s",
			    core->uarch ? cbench_uarch_name(core->uarch) :
			    core->line ? "unknown, of its vendor's line" : "not one the table covers");
	cbench_print_string(p, "how", " (%s)\n", core->how);
	cbench_print_text(p, "caches:");
	print_kib(p, "l1d_bytes", "L1d", true, core->l1d_bytes);
	print_kib(p, "l2_bytes", "L2", !core->l1d_bytes, core->l2_bytes);
	print_kib(p, "l3_bytes", "L3", !core->l1d_bytes && !core->l2_bytes, core->l3_bytes);
	if (!core->l1d_bytes && !core->l2_bytes && !core->l3_bytes)
		cbench_print_text(p, " none in CPUID");
	cbench_print_uint(p, "stlb_entries", "; second-level TLB %" PRIu64 " entries", stlb);
	cbench_print_string(p, "stlb_from", " (%s)", from);
	if (*core->hypervisor)
		cbench_print_string(p, "hypervisor", "; a guest of %s", core->hypervisor);
	cbench_print_text(p, "\n");
	cbench_print_object_end(p);
}

void cbench_selftest_print(FILE *f, const struct cbench_machine *m, const struct cbench_core *core,
			   const struct cbench_selftest_backend *b, int n, bool json)
{
	struct cbench_print p;
	bool passed = true;

	cbench_print_init(&p, f, json);
	cbench_print_object_start(&p, NULL);
	cbench_print_string(&p, "cpu_vendor", "cbench selftest: %s", m->cpu_vendor);
	cbench_print_string(&p, "cpu", " %s", m->cpu_name);
	cbench_print_uint(&p, "cpu_family", ", family %" PRIu64, m->cpu_family);
	cbench_print_uint(&p, "cpu_model", " model %" PRIu64, m->cpu_model);
	cbench_print_text(&p, " stepping %u\n", m->cpu_stepping);
	print_core(&p, core);
	cbench_print_array_start(&p, "backends");
	for (int r = 0; r < n; r++) {
		passed &= !b[r].failed;
		print_backend(&p, &b[r]);
	}
	cbench_print_array_end(&p);
	cbench_print_json_bool(&p, "passed", passed);
	cbench_print_object_end(&p);
	cbench_print_finish(&p);
	if (!json && n == 2)
		print_side_by_side(f, b);
}
