// SPDX-License-Identifier: GPL-2.0
/* `cbenchctl selftest`'s report; see selftest.h. */
#include <math.h>
#include <stdint.h>

#include "backend/types.h"
#include "machine/known.h"
#include "report/backends.h"
#include "report/json_writer.h"
#include "report/selftest.h"

static const char *const verdict_names[] = { "pass", "FAIL", "measured only", "not measured",
					     "not supported" };

static void print_text(FILE *f, const struct cbench_machine *m, const struct cbench_selftest_backend *b, int n)
{
	fprintf(f, "cbench selftest: %s %s, family %u model %u stepping %u\n", m->cpu_vendor,
		m->cpu_name, m->cpu_family, m->cpu_model, m->cpu_stepping);
	for (int r = 0; r < n; r++) {
		const struct cbench_json *cfg = cbench_json_get(b[r].report, "config");
		double hz = cbench_json_number(cfg, "timer_hz", NAN);
		double step = cbench_json_number(cfg, "timer_step_ticks", NAN);

		const char *quiet = cbench_json_string(cfg, "quiet_mode", NULL);

		fprintf(f, "\nbackend %s%s%s%s: timer %s at %.0f MHz, step %.3g ticks (%.3g ns), overhead "
			"%.3g ticks; core clock %.3f to %.3f GHz during the checks\n", b[r].backend,
			quiet ? " (quiet mode " : "", quiet ? quiet : "", quiet ? ")" : "",
			cbench_json_string(cfg, "timer", "?"), hz * 1e-6, step, step / hz * 1e9,
			cbench_json_number(cfg, "timer_overhead_ticks", NAN),
			cbench_json_number(cfg, "core_ghz_min", NAN),
			cbench_json_number(cfg, "core_ghz_max", NAN));
		fprintf(f, "%-15s %-52s %9s %9s %5s  %-13s %s\n", "check", "measures", "expected",
			"measured", "tol", "verdict", "source");
		for (int i = 0; i < b[r].nchecks; i++) {
			const struct cbench_selftest_outcome *c = &b[r].checks[i];

			fprintf(f, "%-15s %-52s %9.4g %9.4g %4.0f%%  %-13s %s%s%s%s\n", c->name, c->what,
				c->expected, c->measured, 100 * c->tolerance,
				verdict_names[c->verdict], c->source, *c->cores ? " (" : "", c->cores,
				*c->cores ? ")" : "");
			if (*c->cause && c->verdict != CBENCH_SELFTEST_PASS && c->verdict != CBENCH_SELFTEST_MEASURED_ONLY)
				fprintf(f, "%15s   %s: %s\n", "", c->name, c->cause);
		}
		fprintf(f, "%s: %d check%s failed\n", b[r].backend, b[r].failed,
			b[r].failed == 1 ? "" : "s");
	}
}

/* Both backends side by side: what ring 0 removes, kernel by kernel. */
static void print_side_by_side(FILE *f, const struct cbench_selftest_backend *b)
{
	const char *ids[32], *labels[32];
	size_t n = 0;

	for (unsigned int i = 0; i < cbench_known_nchecks && n < sizeof(ids) / sizeof(ids[0]); i++) {
		ids[n] = cbench_known_checks[i].benchmark;
		labels[n++] = cbench_known_checks[i].name;
	}
	cbench_backends_print(f, b[0].report, b[1].report, ids, labels, n);
}

static void print_json(FILE *f, const struct cbench_machine *m, const struct cbench_selftest_backend *b, int n)
{
	struct cbench_jsonw j;
	bool passed = true;

	cbench_jsonw_init(&j, f, true);
	cbench_jsonw_object_start(&j, NULL);
	cbench_jsonw_string(&j, "cpu_vendor", m->cpu_vendor);
	cbench_jsonw_string(&j, "cpu", m->cpu_name);
	cbench_jsonw_uint(&j, "cpu_family", m->cpu_family);
	cbench_jsonw_uint(&j, "cpu_model", m->cpu_model);
	cbench_jsonw_array_start(&j, "backends");
	for (int r = 0; r < n; r++) {
		const struct cbench_json *cfg = cbench_json_get(b[r].report, "config");
		const char *quiet = cbench_json_string(cfg, "quiet_mode", NULL);
		double counts[CBENCH_DISTURB_KINDS];

		passed &= !b[r].failed;
		cbench_jsonw_object_start(&j, NULL);
		cbench_jsonw_string(&j, "backend", b[r].backend);
		if (quiet)
			cbench_jsonw_string(&j, "quiet_mode", quiet);
		cbench_discarded_by(b[r].report, counts);
		cbench_jsonw_object_start(&j, "discarded_by");
		for (unsigned int k = 0; k < CBENCH_DISTURB_KINDS; k++)
			cbench_jsonw_uint(&j, cbench_disturb_names[k], (uint64_t)counts[k]);
		cbench_jsonw_object_end(&j);
		cbench_jsonw_double(&j, "timer_hz", cbench_json_number(cfg, "timer_hz", NAN));
		cbench_jsonw_double(&j, "timer_step_ticks", cbench_json_number(cfg, "timer_step_ticks", NAN));
		cbench_jsonw_double(&j, "timer_overhead_ticks",
				    cbench_json_number(cfg, "timer_overhead_ticks", NAN));
		cbench_jsonw_double(&j, "core_ghz_min", cbench_json_number(cfg, "core_ghz_min", NAN));
		cbench_jsonw_double(&j, "core_ghz_max", cbench_json_number(cfg, "core_ghz_max", NAN));
		cbench_jsonw_array_start(&j, "checks");
		for (int i = 0; i < b[r].nchecks; i++) {
			const struct cbench_selftest_outcome *c = &b[r].checks[i];

			cbench_jsonw_object_start(&j, NULL);
			cbench_jsonw_string(&j, "name", c->name);
			cbench_jsonw_string(&j, "measures", c->what);
			cbench_jsonw_string(&j, "unit", c->unit);
			cbench_jsonw_double(&j, "expected", c->expected);
			cbench_jsonw_string(&j, "source", c->source);
			cbench_jsonw_string(&j, "cores", c->cores);
			cbench_jsonw_double(&j, "measured", c->measured);
			cbench_jsonw_double(&j, "tolerance", c->tolerance);
			cbench_jsonw_string(&j, "verdict", c->verdict == CBENCH_SELFTEST_FAIL ? "fail" :
							   verdict_names[c->verdict]);
			/* Not measured: null, not a number that reads as a result. */
			if (*c->cause)
				cbench_jsonw_string(&j, "cause", c->cause);
			cbench_jsonw_object_end(&j);
		}
		cbench_jsonw_array_end(&j);
		cbench_jsonw_uint(&j, "failed", (uint64_t)b[r].failed);
		cbench_jsonw_object_end(&j);
	}
	cbench_jsonw_array_end(&j);
	cbench_jsonw_bool(&j, "passed", passed);
	cbench_jsonw_object_end(&j);
	cbench_jsonw_finish(&j);
}

void cbench_selftest_print(FILE *f, const struct cbench_machine *m,
			   const struct cbench_selftest_backend *b, int n, bool json)
{
	if (json) {
		print_json(f, m, b, n);
		return;
	}
	print_text(f, m, b, n);
	if (n == 2)
		print_side_by_side(f, b);
}
