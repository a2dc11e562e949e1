// SPDX-License-Identifier: GPL-2.0
/*
 * Profile reports: a table for people, JSON for tools (counts as exact
 * integers), and folded stacks ("frame;frame count") for flame-graph tools.
 * A benchmark that failed has its reason in the table and the JSON, and no
 * lines in the folded stacks, which have no place for one.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "report/context.h"
#include "report/json_writer.h"
#include "object/loader.h"
#include "report/report_profile.h"

static const char *where_name(uint32_t where)
{
	switch (where) {
	case CBENCH_PROFILE_FUNCTION:
		return "function";
	case CBENCH_PROFILE_NO_SYMBOL:
		return "no-symbol";
	case CBENCH_PROFILE_KERNEL:
		return "kernel";
	case CBENCH_PROFILE_LIBRARY:
		return "library";
	default:
		return "outside";
	}
}

/* "1.2 ms", "130 ns": a duration for people. */
static const char *duration(double ns, char *buf, size_t len)
{
	if (ns >= 1e9)
		snprintf(buf, len, "%.3g s", ns * 1e-9);
	else if (ns >= 1e6)
		snprintf(buf, len, "%.3g ms", ns * 1e-6);
	else if (ns >= 1e3)
		snprintf(buf, len, "%.3g us", ns * 1e-3);
	else
		snprintf(buf, len, "%.3g ns", ns);
	return buf;
}

/* The benchmark's time per rep, from calls without sampling. */
static double ns_per_rep(const struct cbench_profile_info *i)
{
	return i->reps_per_call ? i->unsampled_call_ns / (double)i->reps_per_call : NAN;
}

static void text_event(const struct cbench_profile_report *r, const struct cbench_profile_info *i, FILE *f)
{
	char buf[32];

	fprintf(f, "event: %s", i->event);
	if (i->hw_error)
		fprintf(f, " (no cycles: %s)", i->hw_error == -ENOENT ? "no PMU exposed" : strerror(-i->hw_error));
	fprintf(f, ", every %" PRIu64 " %s on average (%s; each call draws from half to 1.5 times that)\n",
		i->period, i->period_unit, duration((double)i->period_ns, buf, sizeof(buf)));
	if (i->kernel_excluded)
		fprintf(f, "kernel: not sampled (perf_event_paranoid %d); its time is missing, not in "
			"\"[kernel]\"\n", i->paranoid);
	(void)r;
}

static void text_result(const struct cbench_profile_report *r, const struct cbench_profile_result *res, FILE *f)
{
	const struct cbench_profile_info *i = &res->info;
	char a[32], b[32], c[32], d[32];
	double rep_ns = ns_per_rep(i);

	fprintf(f, "\n%s\n", res->exp->report_name);
	if (res->error) {
		fprintf(f, "  failed: %s\n", res->reason);
		return;
	}
	fprintf(f, "  %" PRIu64 " samples in %s", i->samples, duration(i->sampling_ns, a, sizeof(a)));
	if (i->lost || i->throttled)
		fprintf(f, " (%" PRIu64 " lost, throttled %" PRIu64 " times)", i->lost, i->throttled);
	if (i->time_limited)
		fprintf(f, ", stopped by the time limit");
	fprintf(f, "\n  %s per rep (calls of %" PRIu64 " reps, %s; %s while sampled); sampling interval %s:"
		" R = rep / interval = %.3g\n", duration(rep_ns, a, sizeof(a)), i->reps_per_call,
		duration(i->unsampled_call_ns, b, sizeof(b)), duration(i->call_ns, c, sizeof(c)),
		duration((double)i->period_ns, d, sizeof(d)), rep_ns / (double)i->period_ns);
	fprintf(f, "  %-27s %-26s %9s  %s\n", "share of samples", "share of the object's", "samples",
		r->by_line ? "function  line" : "function");
	for (size_t g = 0; g < res->ngroups; g++) {
		const struct cbench_profile_share *s = &res->shares[g];

		fprintf(f, "  %6.2f%% [%6.2f, %6.2f]   ", 100 * s->share, 100 * s->lower, 100 * s->upper);
		if (isnan(s->object_share))
			fprintf(f, "%-26s", "");
		else
			fprintf(f, "%6.2f%% [%6.2f, %6.2f]  ", 100 * s->object_share, 100 * s->object_lower,
				100 * s->object_upper);
		fprintf(f, " %9" PRIu64 "  %s", s->group->count, s->group->name);
		if (s->group->where == CBENCH_PROFILE_LIBRARY)
			fprintf(f, " (%s)", s->group->object);
		if (r->by_line && s->group->where == CBENCH_PROFILE_FUNCTION)
			fprintf(f, "  %s:%u", s->group->file[0] ? s->group->file : "?", s->group->line);
		fputc('\n', f);
	}
	fprintf(f, "  widest interval (shares of %g%% or more): %.2f points", 100 * CBENCH_PROFILE_SHARE_FLOOR,
		100 * res->widest);
	if (r->width_requested)
		fprintf(f, ", %s --ci-width %g", res->widest <= r->width ? "within" : "NOT within",
			100 * r->width);
	if (res->needed == UINT64_MAX)
		fprintf(f, "\n");
	else
		fprintf(f, "; %.3g points would need %" PRIu64 " samples\n", 100 * r->width, res->needed);
}

int cbench_profile_report_text(const struct cbench_profile_report *r, FILE *f)
{
	const struct cbench_profile_info *info = NULL;

	fprintf(f, "profile: %s\n", r->so_path);
	fprintf(f, "build-id: %s\n", r->build_id);
	fprintf(f, "run: %s on %s: %s\n", cbench_context()->date, cbench_context()->host,
		cbench_context()->command);
	fprintf(f, "backend: %s, CPU %d\n", r->backend, r->cpu);
	if (r->backend_note)
		fprintf(f, "note: %s\n", r->backend_note);
	for (size_t i = 0; i < r->nresults && !info; i++)
		info = r->results[i].error ? NULL : &r->results[i].info;
	if (info)
		text_event(r, info, f);
	fprintf(f, "intervals: %g %% Wilson score, by %s; ", 100 * r->level, r->by_line ? "source line" : "function");
	if (r->width_requested)
		fprintf(f, "sampling until the widest is %g points wide\n", 100 * r->width);
	else
		fprintf(f, "at least %" PRIu64 " samples per benchmark\n", r->samples_requested);
	for (size_t i = 0; i < r->nresults; i++)
		text_result(r, &r->results[i], f);
	return ferror(f) ? -EIO : 0;
}

static void json_share(struct cbench_jsonw *j, const struct cbench_profile_report *r,
		       const struct cbench_profile_share *s)
{
	cbench_jsonw_object_start(j, NULL);
	cbench_jsonw_string(j, "name", s->group->name);
	cbench_jsonw_string(j, "where", where_name(s->group->where));
	if (s->group->where == CBENCH_PROFILE_LIBRARY)
		cbench_jsonw_string(j, "object", s->group->object);
	if (r->by_line && s->group->where == CBENCH_PROFILE_FUNCTION && s->group->file[0]) {
		cbench_jsonw_string(j, "file", s->group->file);
		cbench_jsonw_uint(j, "line", s->group->line);
	}
	cbench_jsonw_uint(j, "samples", s->group->count);
	cbench_jsonw_double(j, "share", s->share);
	cbench_jsonw_double(j, "lower", s->lower);
	cbench_jsonw_double(j, "upper", s->upper);
	if (s->needed != UINT64_MAX)
		cbench_jsonw_uint(j, "needed_samples", s->needed);
	if (!isnan(s->object_share)) {
		cbench_jsonw_double(j, "object_share", s->object_share);
		cbench_jsonw_double(j, "object_lower", s->object_lower);
		cbench_jsonw_double(j, "object_upper", s->object_upper);
	}
	cbench_jsonw_object_end(j);
}

/* The sampling of one benchmark: event, period, counts, timing. */
static void json_sampling(struct cbench_jsonw *j, const struct cbench_profile_info *i)
{
	cbench_jsonw_string(j, "event", i->event);
	cbench_jsonw_uint(j, "period", i->period);
	cbench_jsonw_string(j, "period_unit", i->period_unit);
	cbench_jsonw_uint(j, "period_ns", i->period_ns);
	cbench_jsonw_bool(j, "kernel_sampled", !i->kernel_excluded);
	cbench_jsonw_uint(j, "samples", i->samples);
	cbench_jsonw_uint(j, "lost", i->lost);
	cbench_jsonw_uint(j, "throttled", i->throttled);
	cbench_jsonw_uint(j, "calls", i->calls);
	cbench_jsonw_uint(j, "reps_per_call", i->reps_per_call);
	cbench_jsonw_double(j, "call_ns", i->call_ns);
	cbench_jsonw_double(j, "unsampled_call_ns", i->unsampled_call_ns);
	cbench_jsonw_double(j, "ns_per_rep", ns_per_rep(i));
	cbench_jsonw_double(j, "r", ns_per_rep(i) / (double)i->period_ns);
	cbench_jsonw_double(j, "sampling_s", i->sampling_ns * 1e-9);
	cbench_jsonw_bool(j, "time_limited", i->time_limited);
}

/* The folded stacks, most samples first: frames outermost first. */
static void json_stacks(struct cbench_jsonw *j, const struct cbench_profile_result *res)
{
	cbench_jsonw_array_start(j, "stacks");
	for (size_t i = 0; i < res->nstacks; i++) {
		const struct cbench_profile_stack *st = &res->stacks[i];
		char frame[CBENCH_PROFILE_STACK_CHARS];

		cbench_jsonw_object_start(j, NULL);
		cbench_jsonw_array_start(j, "frames");
		for (const char *c = st->frames; *c; ) {
			size_t len = strcspn(c, ";");

			snprintf(frame, sizeof(frame), "%.*s", (int)len, c);
			cbench_jsonw_string(j, NULL, frame);
			c += len + (c[len] == ';');
		}
		cbench_jsonw_array_end(j);
		cbench_jsonw_uint(j, "samples", st->count);
		cbench_jsonw_object_end(j);
	}
	cbench_jsonw_array_end(j);
}

static void json_result(struct cbench_jsonw *j, const struct cbench_profile_report *r,
			const struct cbench_profile_result *res)
{
	cbench_jsonw_object_start(j, NULL);
	cbench_jsonw_string(j, "name", res->exp->report_name);
	cbench_jsonw_string(j, "id", res->exp->id);
	if (res->error) {
		cbench_jsonw_string(j, "status", "failed");
		cbench_jsonw_string(j, "reason", res->reason);
		cbench_jsonw_object_end(j);
		return;
	}
	cbench_jsonw_string(j, "status", "ok");
	json_sampling(j, &res->info);
	cbench_jsonw_double(j, "widest_interval", res->widest);
	if (res->needed != UINT64_MAX)
		cbench_jsonw_uint(j, "needed_samples", res->needed);
	cbench_jsonw_array_start(j, "groups");
	for (size_t g = 0; g < res->ngroups; g++)
		json_share(j, r, &res->shares[g]);
	cbench_jsonw_array_end(j);
	if (r->stacks)
		json_stacks(j, res);
	cbench_jsonw_object_end(j);
}

int cbench_profile_report_json(const struct cbench_profile_report *r, FILE *f)
{
	const struct cbench_report_head head = { .machine = r->machine, .version = r->version,
						 .backend = r->backend };
	struct cbench_jsonw j;

	cbench_jsonw_init(&j, f, false);
	cbench_jsonw_object_start(&j, NULL);
	cbench_jsonw_uint(&j, "schema_version", CBENCH_JSON_SCHEMA_VERSION);
	cbench_jsonw_object_start(&j, "profile");
	cbench_report_head_put(&j, &head);
	cbench_jsonw_string(&j, "object", r->so_path);
	cbench_jsonw_string(&j, "build_id", r->build_id);
	if (r->backend_note)
		cbench_jsonw_string(&j, "backend_note", r->backend_note);
	cbench_jsonw_int(&j, "worker_cpu", r->cpu);
	cbench_jsonw_string(&j, "interval", "wilson");
	cbench_jsonw_double(&j, "confidence", r->level);
	cbench_jsonw_string(&j, "by", r->by_line ? "line" : "function");
	if (r->width_requested) {
		cbench_jsonw_double(&j, "ci_width", r->width);
	} else {
		cbench_jsonw_uint(&j, "samples_requested", r->samples_requested);
		cbench_jsonw_double(&j, "needed_for_width", r->width);
	}
	cbench_jsonw_double(&j, "share_floor", CBENCH_PROFILE_SHARE_FLOOR);
	cbench_jsonw_array_start(&j, "benchmarks");
	for (size_t i = 0; i < r->nresults; i++)
		json_result(&j, r, &r->results[i]);
	cbench_jsonw_array_end(&j);
	cbench_jsonw_object_end(&j);
	cbench_jsonw_object_end(&j);
	return cbench_jsonw_finish(&j);
}

static void put_frame(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc(*s == ';' ? ':' : *s == '\n' ? ' ' : *s, f);
}

/* A leaf group as a folded frame: a library's function is "lib`name". */
static void put_group_frame(FILE *f, const struct cbench_profile_group *grp)
{
	if (grp->where == CBENCH_PROFILE_LIBRARY) {
		put_frame(f, grp->object);
		fputc('`', f);
	}
	put_frame(f, grp->name);
}

int cbench_profile_report_folded(const struct cbench_profile_report *r, FILE *f)
{
	for (size_t i = 0; i < r->nresults; i++) {
		const struct cbench_profile_result *res = &r->results[i];

		/* Whole stacks where the worker unwound them (the stack's
		 * frames are folded already). */
		for (size_t k = 0; !res->error && k < res->nstacks; k++) {
			put_frame(f, res->exp->report_name);
			fprintf(f, ";%s %" PRIu64 "\n", res->stacks[k].frames, res->stacks[k].count);
		}
		for (size_t g = 0; !res->error && !res->nstacks && g < res->ngroups; g++) {
			const struct cbench_profile_group *grp = res->shares[g].group;

			put_frame(f, res->exp->report_name);
			fputc(';', f);
			put_group_frame(f, grp);
			if (r->by_line && grp->where == CBENCH_PROFILE_FUNCTION) {
				fputc(';', f);
				put_frame(f, grp->file[0] ? grp->file : "?");
				fprintf(f, ":%u", grp->line);
			}
			fprintf(f, " %" PRIu64 "\n", grp->count);
		}
	}
	return ferror(f) ? -EIO : 0;
}
