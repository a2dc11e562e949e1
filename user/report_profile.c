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

#include "loader.h"
#include "profile.h"

static const char *where_name(uint32_t where)
{
	switch (where) {
	case CBENCH_PROFILE_FUNCTION:
		return "function";
	case CBENCH_PROFILE_NO_SYMBOL:
		return "no-symbol";
	case CBENCH_PROFILE_KERNEL:
		return "kernel";
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

static void put_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

static void put_number(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.9g", v);
	else
		fputs("null", f);
}

static void json_result(const struct cbench_profile_report *r, const struct cbench_profile_result *res, FILE *f)
{
	const struct cbench_profile_info *i = &res->info;

	fputs("{\"name\":", f);
	put_string(f, res->exp->report_name);
	fputs(",\"id\":", f);
	put_string(f, res->exp->id);
	if (res->error) {
		fputs(",\"status\":\"failed\",\"reason\":", f);
		put_string(f, res->reason);
		fputc('}', f);
		return;
	}
	fputs(",\"status\":\"ok\",\"event\":", f);
	put_string(f, i->event);
	fprintf(f, ",\"period\":%" PRIu64 ",\"period_unit\":", i->period);
	put_string(f, i->period_unit);
	fprintf(f, ",\"period_ns\":%" PRIu64 ",\"kernel_sampled\":%s", i->period_ns,
		i->kernel_excluded ? "false" : "true");
	fprintf(f, ",\"samples\":%" PRIu64 ",\"lost\":%" PRIu64 ",\"throttled\":%" PRIu64, i->samples,
		i->lost, i->throttled);
	fprintf(f, ",\"calls\":%" PRIu64 ",\"reps_per_call\":%" PRIu64 ",\"call_ns\":", i->calls,
		i->reps_per_call);
	put_number(f, i->call_ns);
	fputs(",\"unsampled_call_ns\":", f);
	put_number(f, i->unsampled_call_ns);
	fputs(",\"ns_per_rep\":", f);
	put_number(f, ns_per_rep(i));
	fputs(",\"r\":", f);
	put_number(f, ns_per_rep(i) / (double)i->period_ns);
	fputs(",\"sampling_s\":", f);
	put_number(f, i->sampling_ns * 1e-9);
	fprintf(f, ",\"time_limited\":%s,\"widest_interval\":", i->time_limited ? "true" : "false");
	put_number(f, res->widest);
	if (res->needed != UINT64_MAX)
		fprintf(f, ",\"needed_samples\":%" PRIu64, res->needed);
	fputs(",\"groups\":[", f);
	for (size_t g = 0; g < res->ngroups; g++) {
		const struct cbench_profile_share *s = &res->shares[g];

		fputs(g ? ",{\"name\":" : "{\"name\":", f);
		put_string(f, s->group->name);
		fprintf(f, ",\"where\":\"%s\"", where_name(s->group->where));
		if (r->by_line && s->group->where == CBENCH_PROFILE_FUNCTION && s->group->file[0]) {
			fputs(",\"file\":", f);
			put_string(f, s->group->file);
			fprintf(f, ",\"line\":%u", s->group->line);
		}
		fprintf(f, ",\"samples\":%" PRIu64 ",\"share\":", s->group->count);
		put_number(f, s->share);
		fputs(",\"lower\":", f);
		put_number(f, s->lower);
		fputs(",\"upper\":", f);
		put_number(f, s->upper);
		if (s->needed != UINT64_MAX)
			fprintf(f, ",\"needed_samples\":%" PRIu64, s->needed);
		if (!isnan(s->object_share)) {
			fputs(",\"object_share\":", f);
			put_number(f, s->object_share);
			fputs(",\"object_lower\":", f);
			put_number(f, s->object_lower);
			fputs(",\"object_upper\":", f);
			put_number(f, s->object_upper);
		}
		fputc('}', f);
	}
	fputs("]}", f);
}

int cbench_profile_report_json(const struct cbench_profile_report *r, FILE *f)
{
	fputs("{\"profile\":{\"object\":", f);
	put_string(f, r->so_path);
	fputs(",\"build_id\":", f);
	put_string(f, r->build_id);
	fputs(",\"version\":", f);
	put_string(f, r->version);
	fputs(",\"backend\":", f);
	put_string(f, r->backend);
	if (r->backend_note) {
		fputs(",\"backend_note\":", f);
		put_string(f, r->backend_note);
	}
	fprintf(f, ",\"cpu\":%d,\"interval\":\"wilson\",\"confidence\":", r->cpu);
	put_number(f, r->level);
	fprintf(f, ",\"by\":\"%s\"", r->by_line ? "line" : "function");
	if (r->width_requested) {
		fputs(",\"ci_width\":", f);
		put_number(f, r->width);
	} else {
		fprintf(f, ",\"samples_requested\":%" PRIu64 ",\"needed_for_width\":", r->samples_requested);
		put_number(f, r->width);
	}
	fputs(",\"share_floor\":", f);
	put_number(f, CBENCH_PROFILE_SHARE_FLOOR);
	fputs(",\"benchmarks\":[", f);
	for (size_t i = 0; i < r->nresults; i++) {
		if (i)
			fputc(',', f);
		json_result(r, &r->results[i], f);
	}
	fputs("]}}\n", f);
	return ferror(f) ? -EIO : 0;
}

/* A frame of a folded stack: ';' separates frames and a newline ends the
 * line, so neither may appear inside one. */
static void put_frame(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc(*s == ';' ? ':' : *s == '\n' ? ' ' : *s, f);
}

int cbench_profile_report_folded(const struct cbench_profile_report *r, FILE *f)
{
	for (size_t i = 0; i < r->nresults; i++) {
		const struct cbench_profile_result *res = &r->results[i];

		for (size_t g = 0; !res->error && g < res->ngroups; g++) {
			const struct cbench_profile_group *grp = res->shares[g].group;

			put_frame(f, res->exp->report_name);
			fputc(';', f);
			put_frame(f, grp->name);
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
