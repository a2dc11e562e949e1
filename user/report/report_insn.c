// SPDX-License-Identifier: GPL-2.0
/*
 * `cbenchctl insn`'s report, one call per field for the text and the JSON
 * (print.h).  The table is uops.info's: an instruction, its latency and
 * its reciprocal throughput, in cycles (est-cycles without a PMU); below
 * it, for each row, the code that ran, the unrolls and the loop's cost
 * that was subtracted, or why a row was refused.
 */
#include <math.h>
#include <string.h>

#include "report/print.h"
#include "report/report_insn.h"

static void print_measure(struct cbench_print *p, const char *key, const struct cbench_insn_measure *m)
{
	cbench_print_object_start(p, key);
	cbench_print_json_double(p, "cycles", m->per_instance);
	cbench_print_json_double(p, "counted_cycles", m->counted);
	cbench_print_json_double(p, "counted_instructions", m->insns);
	cbench_print_json_double(p, "loop_overhead", m->overhead);
	cbench_print_json_uint(p, "unroll_short", (uint64_t)m->unroll[0]);
	cbench_print_json_uint(p, "unroll_long", (uint64_t)m->unroll[1]);
	cbench_print_json_string(p, "code", m->code ? m->code : "");
	cbench_print_json_string(p, "how", m->how ? m->how : "");
	if (m->why && *m->why)
		cbench_print_json_string(p, "not_measured", m->why);
	cbench_print_object_end(p);
}

/* A figure of the table; "-" where there is none (the notes say why). */
static void print_cycles(struct cbench_print *p, const char *key, double x)
{
	if (key)
		cbench_print_json_double(p, key, x);
	if (isfinite(x))
		cbench_print_text(p, " %8.3f", x);
	else
		cbench_print_text(p, " %8s", "-");
}

/* The row of the table: the sequence, its latency and its throughput. */
static void print_row(struct cbench_print *p, const struct cbench_insn_report *r,
		      const struct cbench_insn_row *row)
{
	cbench_print_object_start(p, NULL);
	cbench_print_string(p, "asm", "%-40s", row->asm_text);
	cbench_print_json_string(p, "init", row->init);
	if (*row->refused) {
		cbench_print_string(p, "refused", " refused: %s\n", row->refused);
		cbench_print_object_end(p);
		return;
	}
	print_cycles(p, "latency", row->latency.per_instance);
	print_cycles(p, "throughput", row->throughput.per_instance);
	if (r->counted) {
		print_cycles(p, NULL, row->latency.counted);
		print_cycles(p, NULL, row->throughput.counted);
	}
	cbench_print_text(p, "\n");
	cbench_print_json_uint(p, "copies", (uint64_t)row->copies);
	cbench_print_json_bool(p, "ring0_only", row->ring0_only);
	cbench_print_json_bool(p, "copies_share_flags", row->reads_flags);
	print_measure(p, "latency_run", &row->latency);
	print_measure(p, "throughput_run", &row->throughput);
	cbench_print_object_end(p);
}

/* "  imul %rbx, %rax; imul %rbx, %rcx; ..." on one line, cut where it is long. */
static void print_code(FILE *f, const char *code)
{
	size_t at = 0;

	fputs("      ", f);
	for (const char *c = code; *c && at < 200; c++, at++) {
		if (*c == '\n' && c[1])
			fputs("; ", f);
		else if (*c != '\n')
			fputc(*c, f);
	}
	fputs(at >= 200 ? " ..." : "", f);
	fputs("\n", f);
}

static void print_how(FILE *f, const char *what, const struct cbench_insn_measure *m)
{
	if (m->why && *m->why) {
		fprintf(f, "    %s: not measured: %s\n", what, m->why);
		return;
	}
	fprintf(f, "    %s: %s; %d and %d a loop iteration, the loop's %.3g cycles an iteration "
		"subtracted\n", what, m->how, m->unroll[0], m->unroll[1], m->overhead);
	if (m->code)
		print_code(f, m->code);
}

/* Below the table: how each row was measured. */
static void print_notes(FILE *f, const struct cbench_insn_report *r)
{
	for (int i = 0; i < r->n; i++) {
		const struct cbench_insn_row *row = &r->rows[i];

		if (*row->refused)
			continue;
		fprintf(f, "\n  %s%s%s%s\n", row->asm_text, *row->init ? "   (init: " : "",
			row->init, *row->init ? ")" : "");
		print_how(f, "latency", &row->latency);
		print_how(f, "throughput", &row->throughput);
		if (row->reads_flags)
			fputs("    note: it reads the flags, which copies do not rename: a copy still waits "
			      "on the flags the one before it wrote\n", f);
		if (row->ring0_only)
			fputs("    note: privileged: the user-mode rehearsal skips its loop; only ring 0 ran "
			      "it\n", f);
	}
}

void cbench_insn_print(FILE *f, const struct cbench_insn_report *r, bool json)
{
	struct cbench_print p;

	cbench_print_init(&p, f, json);
	cbench_print_object_start(&p, NULL);
	cbench_print_string(&p, "cpu_vendor", "cbench insn: %s", r->machine->cpu_vendor);
	cbench_print_string(&p, "cpu", " %s", r->machine->cpu_name);
	cbench_print_uint(&p, "cpu_family", ", family %" PRIu64, r->machine->cpu_family);
	cbench_print_uint(&p, "cpu_model", " model %" PRIu64, r->machine->cpu_model);
	cbench_print_string(&p, "core", ": %s\n", r->core->uarch ? cbench_uarch_name(r->core->uarch) :
			    "a core selftest's table lacks");
	cbench_print_string(&p, "backend", "backend %s; ", r->backend);
	cbench_print_string(&p, "unit", "%s\n", r->counted ? "cycles counted by the PMU, and est-cycles" :
			    "est-cycles: time in core cycles against the reference add chain (no PMU here)");
	cbench_print_text(&p, "\n%-40s %8s %8s%s\n", "instruction", "lat", "TP",
			  r->counted ? "  lat (PMU) TP (PMU)" : "");
	cbench_print_array_start(&p, "sequences");
	for (int i = 0; i < r->n; i++)
		print_row(&p, r, &r->rows[i]);
	cbench_print_array_end(&p);
	cbench_print_object_end(&p);
	cbench_print_finish(&p);
	if (!json)
		print_notes(f, r);
}
