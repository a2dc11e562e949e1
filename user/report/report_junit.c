// SPDX-License-Identifier: GPL-2.0
/*
 * JUnit XML report, for Jenkins and GitLab: the run is one <testsuite>
 * named for the object, each benchmark one <testcase> whose properties are
 * its figures.  A benchmark with a failed trial (a crash, a time-out, a
 * failed tuning) is an <error>: it could not be measured as asked, which
 * is not a verdict on its speed.  `run` has no gate of its own (audit,
 * compare and history have --fail-on), so no case of a run report is a
 * <failure>: `compare --format junit` (report_compare.c) writes the gate's
 * verdicts as failures.  The structure is the one Ant's JUnit task wrote and Jenkins'
 * and GitLab's parsers read; tests/schema/junit.xsd describes what we
 * write.
 *
 * Text goes through xml.h: escaped, and what XML 1.0 cannot hold replaced.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/context.h"
#include "report/figures.h"
#include "report/report.h"
#include "report/xml.h"

/* How deep the <property> elements being written stand: the suite's or a case's. */
static const char *property_indent = "    ";

static void property(FILE *f, const char *name, const char *value)
{
	cbench_xml_property(f, property_indent, name, value);
}

/* A figure's property; none where it is not available (never a 0). */
static void figure(FILE *f, const char *name, double v)
{
	cbench_xml_figure(f, property_indent, name, v);
}

static void count(FILE *f, const char *name, size_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%zu", v);
	property(f, name, buf);
}

/* Seconds as JUnit's time attributes take them: a decimal, never negative. */
static void put_seconds(FILE *f, const char *key, double s)
{
	fprintf(f, " %s=\"%.6f\"", key, isfinite(s) && s > 0 ? s : 0.0);
}

/* What the benchmark's trials took, on the runner's clock; 0 if unknown. */
static double wall_s(const struct cbench_result *res)
{
	double s = 0;

	for (size_t i = 0; i < res->ntrials; i++) {
		const struct cbench_trial *t = &res->trials[i];

		/* A carried-over trial's span starts at 0 (results/bench_read.c). */
		if (t->end_s > t->start_s)
			s += t->end_s - t->start_s;
	}
	return s;
}

/* The figures of one benchmark, as the JSON report names them (its rows:
 * report/result_figures.c); a figure not available has no property. */
static void result_properties(FILE *f, const struct cbench_result *res, size_t jobs)
{
	char pages[64], buf[24];

	fputs("    <properties>\n", f);
	property_indent = "      ";
	property(f, "tuning", res->tuning);
	count(f, "trials", res->ntrials);
	for (unsigned int i = 0; i < cbench_nresult_members; i++) {
		const struct cbench_result_member *m = &cbench_result_members[i];
		struct cbench_member_value v;

		if (!(m->show & CBENCH_SHOW_JUNIT) ||
		    !cbench_result_member_get(m, res, jobs, &v, pages, sizeof(pages)))
			continue;
		switch (m->kind) {
		case CBENCH_MEMBER_COUNT:
		case CBENCH_MEMBER_COUNT64:
			snprintf(buf, sizeof(buf), "%" PRIu64, v.count);
			property(f, m->name, buf);
			break;
		case CBENCH_MEMBER_FLAG:
			property(f, m->name, v.flag ? "true" : "false");
			break;
		case CBENCH_MEMBER_STOPPED:
			break;
		case CBENCH_MEMBER_TEXT:
		case CBENCH_MEMBER_WORD:
		case CBENCH_MEMBER_ARENA_PAGES:
			property(f, m->name, v.text);
			break;
		default:
			figure(f, m->name, v.number);
			break;
		}
	}
	fputs("    </properties>\n", f);
}

/* A benchmark some of whose trials failed: the first reason, then each. */
static void put_error(FILE *f, const struct cbench_result *res)
{
	const struct cbench_trial *first = NULL;
	char message[800];

	for (size_t i = 0; i < res->ntrials && !first; i++)
		first = res->trials[i].error ? &res->trials[i] : NULL;
	snprintf(message, sizeof(message), "%zu of %zu trials failed: %s", res->failed,
		 res->ntrials, first ? first->reason : "");
	fputs("    <error", f);
	cbench_xml_attr(f, "message", message);
	cbench_xml_attr(f, "type", "cbench.trial_failed");
	fputc('>', f);
	for (size_t i = 0; i < res->ntrials; i++) {
		char line[700];

		if (!res->trials[i].error)
			continue;
		snprintf(line, sizeof(line), "trial %zu: %s\n", i + 1, res->trials[i].reason);
		cbench_xml_text(f, line, false);
	}
	fputs("</error>\n", f);
}

/* The object's name without its directory and ".so": the cases' class. */
static void class_name(const char *so, char *buf, size_t len)
{
	const char *base = so ? strrchr(so, '/') : NULL;
	size_t n;

	snprintf(buf, len, "%s", base ? base + 1 : so ? so : "bench");
	n = strlen(buf);
	if (n > 3 && !strcmp(buf + n - 3, ".so"))
		buf[n - 3] = '\0';
}

static void put_case(FILE *f, const struct cbench_result *res, const char *cls, size_t jobs)
{
	fputs("  <testcase", f);
	cbench_xml_attr(f, "classname", cls);
	cbench_xml_attr(f, "name", res->exp->id);
	put_seconds(f, "time", wall_s(res));
	fputs(">\n", f);
	result_properties(f, res, jobs);
	if (res->failed)
		put_error(f, res);
	fputs("  </testcase>\n", f);
}

/* What the run says of where and how it measured: the suite's properties. */
static void suite_properties(FILE *f, const struct cbench_report *r)
{
	const struct cbench_machine *m = &r->machine;
	char text[160];

	fputs("  <properties>\n", f);
	property_indent = "    ";
	property(f, "cbench_version", r->version);
	property(f, "backend", r->backend);
	property(f, "cpu", m->cpu_name[0] ? m->cpu_name : m->cpu_vendor);
	snprintf(text, sizeof(text), "%s family %u model %u stepping %u", m->cpu_vendor,
		 m->cpu_family, m->cpu_model, m->cpu_stepping);
	property(f, "cpu_model", text);
	property(f, "machine", m->hostname);
	property(f, "kernel", m->kernel_release);
	property(f, "timer", r->timer.name);
	property(f, "command", cbench_context()->command);
	property(f, "so", r->so_path);
	property(f, "so_build_id", r->build_id);
	if (r->interrupted) {
		property(f, "interrupted", cbench_signal_name(r->interrupted, text, sizeof(text)));
		count(f, "trials_kept", r->trials_kept);
		count(f, "trials_asked", r->trials_asked);
		count(f, "benchmarks_not_run", r->not_run);
	}
	if (r->resumed.path) {
		property(f, "resumed_from", r->resumed.path);
		property(f, "resumed_from_date", r->resumed.date);
		count(f, "benchmarks_carried_over", r->resumed.carried);
		count(f, "trials_carried_over", r->resumed.carried_trials);
	}
	fputs("  </properties>\n", f);
}

int cbench_report_junit(const struct cbench_report *r, FILE *f)
{
	const char *date = cbench_context()->date;
	size_t errors = 0;
	double time_s = 0;
	char cls[256], stamp[20];

	for (size_t i = 0; i < r->nresults; i++) {
		errors += r->results[i].failed != 0;
		time_s += wall_s(&r->results[i]);
	}
	class_name(r->so_path, cls, sizeof(cls));
	/* JUnit's timestamp has no zone; the context's date is UTC. */
	snprintf(stamp, sizeof(stamp), "%.19s", date[0] ? date : "1970-01-01T00:00:00");
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fputs("<testsuite", f);
	cbench_xml_attr(f, "name", cls);
	cbench_xml_attr(f, "timestamp", stamp);
	cbench_xml_attr(f, "hostname", r->machine.hostname);
	fprintf(f, " tests=\"%zu\" failures=\"0\" errors=\"%zu\" skipped=\"0\"", r->nresults, errors);
	put_seconds(f, "time", time_s);
	fputs(">\n", f);
	suite_properties(f, r);
	for (size_t i = 0; i < r->nresults; i++)
		put_case(f, &r->results[i], cls, r->jobs);
	fputs("</testsuite>\n", f);
	return ferror(f) ? -EIO : 0;
}
