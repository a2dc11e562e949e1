// SPDX-License-Identifier: GPL-2.0
/*
 * `cbenchctl history`'s reports: text for people, JSON for tools (every
 * series with its runs and its change points), and Otava's CSV, so that
 * anyone can run Apache Otava over the same series and compare.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_history.h"
#include "report/json_writer.h"

void cbench_history_count(const struct cbench_history *h, size_t *changes, size_t *confirmed,
			  size_t *slower)
{
	*changes = *confirmed = *slower = 0;
	for (size_t i = 0; i < h->nseries; i++) {
		for (size_t k = 0; k < h->series[i].nchanges; k++) {
			const struct cbench_history_change *c = &h->series[i].changes[k];

			(*changes)++;
			*confirmed += c->confirm == CBENCH_CONFIRM_YES;
			*slower += c->confirm == CBENCH_CONFIRM_YES && c->cp.change > 0;
		}
	}
}

static const char *confirm_word(const struct cbench_history_change *c)
{
	return c->confirm == CBENCH_CONFIRM_YES ? "confirmed" :
	       c->confirm == CBENCH_CONFIRM_NO ? "not confirmed" : "not asked";
}

/* One change point's lines. */
static void text_change(const struct cbench_history_series *s,
			const struct cbench_history_change *c, FILE *f)
{
	const struct cbench_history_point *before = &s->points[c->cp.last];
	const struct cbench_history_point *after = &s->points[c->cp.index];
	long long between = after->order - before->order - 1;

	fprintf(f, "  order %lld (commit %s): %+.2f %% [%+.2f %%, %+.2f %%], p %.2g\n", after->order,
		after->commit, 100 * c->cp.change, 100 * c->cp.lower, 100 * c->cp.upper, c->cp.p);
	fprintf(f, "    after order %lld (commit %s); ", before->order, before->commit);
	if (c->next_order >= 0)
		fprintf(f, "%lld commit%s between (orders %lld to %lld), %lld untested", between,
			between == 1 ? "" : "s", before->order + 1, after->order - 1, c->untested);
	if (c->unclear)
		fprintf(f, "%s%zu run%s between too noisy to tell its side", c->next_order >= 0 ? ", " : "",
			c->unclear, c->unclear == 1 ? "" : "s");
	if (c->next_order >= 0)
		fprintf(f, ": measure order %lld%s%s next\n", c->next_order,
			c->next_commit ? ", commit " : "", c->next_commit ? c->next_commit : "");
	else
		fprintf(f, "%sno commit between untested: this is the commit\n", c->unclear ? "; " : "");
	if (c->confirm == CBENCH_CONFIRM_YES)
		fprintf(f, "    confirmed: the audit of the two objects found B %s by %.2f %% [%.2f %%, "
			"%.2f %%]\n", c->verdict, fabs(c->audit_change),
			c->audit_change < 0 ? -c->audit_upper : c->audit_lower,
			c->audit_change < 0 ? -c->audit_lower : c->audit_upper);
	else if (c->confirm == CBENCH_CONFIRM_NO)
		fprintf(f, "    not confirmed: %s\n", c->reason);
}

int cbench_history_report_text(const struct cbench_history *h, FILE *f)
{
	size_t changes, confirmed, slower;

	cbench_history_count(h, &changes, &confirmed, &slower);
	fprintf(f, "history of %s: %zu series, %zu change point%s", h->store, h->nseries, changes,
		changes == 1 ? "" : "s");
	if (h->confirm)
		fprintf(f, " (%zu confirmed, %zu of them slower)", confirmed, slower);
	fprintf(f, "; max p %g, min effect %g %%, ", h->params.max_p, 100 * h->params.min_effect);
	if (h->params.window)
		fprintf(f, "windows of %zu runs\n", h->params.window);
	else
		fprintf(f, "the whole series at once\n");
	for (size_t i = 0; i < h->nseries; i++) {
		const struct cbench_history_series *s = &h->series[i];

		fprintf(f, "\n%s, %s on %s (%s), %s: %zu run%s", s->name, s->object, s->machine, s->backend,
			s->unit, s->npoints, s->npoints == 1 ? "" : "s");
		if (s->npoints)
			fprintf(f, ", orders %lld to %lld", s->points[0].order,
				s->points[s->npoints - 1].order);
		if (s->npoints < CBENCH_CP_MIN_POINTS) {
			fprintf(f, ": too few to look for a change (%d at least)\n", CBENCH_CP_MIN_POINTS);
			continue;
		}
		fprintf(f, ", runs %.3f %% apart beyond their own spread: ", 100 * s->between_sd);
		if (!s->nchanges)
			fprintf(f, "no change point\n");
		else
			fprintf(f, "%zu change point%s\n", s->nchanges, s->nchanges == 1 ? "" : "s");
		for (size_t k = 0; k < s->nchanges; k++)
			text_change(s, &s->changes[k], f);
		for (size_t k = 0; k < s->nexcursions; k++) {
			const struct cbench_history_point *x = &s->points[s->excursions[k].index];

			fprintf(f, "  order %lld (commit %s), run %lld alone: %+.2f %% from the runs around "
				"it, set aside (one run cannot tell a change from a moment of the host): "
				"measure order %lld again\n", x->order, x->commit, x->run,
				100 * s->excursions[k].change, x->order);
		}
	}
	return ferror(f) ? -EIO : 0;
}

static void json_point(struct cbench_jsonw *j, const char *key,
		       const struct cbench_history_point *p)
{
	cbench_jsonw_object_start(j, key);
	cbench_jsonw_int(j, "order", p->order);
	cbench_jsonw_string(j, "commit", p->commit);
	cbench_jsonw_int(j, "run", p->run);
	cbench_jsonw_string(j, "build_id", p->build_id);
	cbench_jsonw_string(j, "date", p->date);
	cbench_jsonw_double(j, "value", p->value);
	if (isfinite(p->u))
		cbench_jsonw_double(j, "u", p->u);
	if (p->copy)
		cbench_jsonw_string(j, "object_copy", p->copy);
	cbench_jsonw_object_end(j);
}

static void json_change(struct cbench_jsonw *j, const struct cbench_history_series *s,
			const struct cbench_history_change *c)
{
	const struct cbench_history_point *after = &s->points[c->cp.index];

	cbench_jsonw_object_start(j, NULL);
	cbench_jsonw_int(j, "order", after->order);
	cbench_jsonw_string(j, "commit", after->commit);
	cbench_jsonw_double(j, "change_pct", 100 * c->cp.change);
	cbench_jsonw_double(j, "lower", 100 * c->cp.lower);
	cbench_jsonw_double(j, "upper", 100 * c->cp.upper);
	cbench_jsonw_double(j, "p", c->cp.p);
	cbench_jsonw_bool(j, "confirmed", c->confirm == CBENCH_CONFIRM_YES);
	cbench_jsonw_string(j, "confirmation", confirm_word(c));
	if (c->confirm == CBENCH_CONFIRM_NO)
		cbench_jsonw_string(j, "reason", c->reason);
	if (c->verdict[0]) {
		cbench_jsonw_object_start(j, "audit");
		cbench_jsonw_string(j, "verdict", c->verdict);
		cbench_jsonw_double(j, "change_pct", c->audit_change);
		cbench_jsonw_double(j, "lower", c->audit_lower);
		cbench_jsonw_double(j, "upper", c->audit_upper);
		cbench_jsonw_object_end(j);
	}
	json_point(j, "last_before", &s->points[c->cp.last]);
	json_point(j, "first_after", after);
	cbench_jsonw_int(j, "untested", c->untested);
	cbench_jsonw_uint(j, "unclear", c->unclear);
	if (c->next_order >= 0) {
		cbench_jsonw_int(j, "next_order", c->next_order);
		if (c->next_commit)
			cbench_jsonw_string(j, "next_commit", c->next_commit);
	}
	cbench_jsonw_object_end(j);
}

static void json_series(struct cbench_jsonw *j, const struct cbench_history_series *s)
{
	cbench_jsonw_object_start(j, NULL);
	cbench_jsonw_string(j, "name", s->name);
	cbench_jsonw_string(j, "object", s->object);
	cbench_jsonw_string(j, "machine", s->machine);
	cbench_jsonw_string(j, "cpu", s->cpu);
	cbench_jsonw_string(j, "backend", s->backend);
	cbench_jsonw_string(j, "metric", s->metric);
	cbench_jsonw_string(j, "unit", s->unit);
	cbench_jsonw_uint(j, "runs", s->npoints);
	if (s->npoints >= CBENCH_CP_MIN_POINTS)
		cbench_jsonw_double(j, "between_runs_sd_pct", 100 * s->between_sd);
	cbench_jsonw_array_start(j, "change_points");
	for (size_t k = 0; k < s->nchanges; k++)
		json_change(j, s, &s->changes[k]);
	cbench_jsonw_array_end(j);
	cbench_jsonw_array_start(j, "excursions");
	for (size_t k = 0; k < s->nexcursions; k++) {
		const struct cbench_history_point *x = &s->points[s->excursions[k].index];

		cbench_jsonw_object_start(j, NULL);
		cbench_jsonw_int(j, "order", x->order);
		cbench_jsonw_string(j, "commit", x->commit);
		cbench_jsonw_int(j, "run", x->run);
		cbench_jsonw_double(j, "change_pct", 100 * s->excursions[k].change);
		cbench_jsonw_object_end(j);
	}
	cbench_jsonw_array_end(j);
	cbench_jsonw_array_start(j, "points");
	for (size_t i = 0; i < s->npoints; i++)
		json_point(j, NULL, &s->points[i]);
	cbench_jsonw_array_end(j);
	cbench_jsonw_object_end(j);
}

int cbench_history_report_json(const struct cbench_history *h, FILE *f)
{
	size_t changes, confirmed, slower;
	struct cbench_jsonw j;

	cbench_history_count(h, &changes, &confirmed, &slower);
	cbench_jsonw_init(&j, f, true);
	cbench_jsonw_object_start(&j, NULL);
	cbench_jsonw_uint(&j, "schema_version", CBENCH_JSON_SCHEMA_VERSION);
	cbench_jsonw_string(&j, "store", h->store);
	cbench_jsonw_object_start(&j, "config");
	cbench_jsonw_string(&j, "method", h->params.window ?
			    "e-divisive means in windows, weighted t test (Otava's split and merge)" :
			    "pelt, weighted t test of adjacent segments (merge as Otava's)");
	cbench_jsonw_double(&j, "max_p", h->params.max_p);
	cbench_jsonw_uint(&j, "window", h->params.window);
	cbench_jsonw_double(&j, "min_effect_pct", 100 * h->params.min_effect);
	cbench_jsonw_double(&j, "confidence", h->params.confidence);
	cbench_jsonw_bool(&j, "confirm", h->confirm);
	cbench_jsonw_object_end(&j);
	cbench_jsonw_uint(&j, "change_points", changes);
	if (h->confirm) {
		cbench_jsonw_uint(&j, "confirmed", confirmed);
		cbench_jsonw_uint(&j, "confirmed_slower", slower);
	}
	cbench_jsonw_array_start(&j, "benchmarks");
	for (size_t i = 0; i < h->nseries; i++)
		json_series(&j, &h->series[i]);
	cbench_jsonw_array_end(&j);
	cbench_jsonw_object_end(&j);
	return cbench_jsonw_finish(&j);
}

/* A CSV field: quoted (Otava's quote character is ', as its example's) where it has one. */
static void csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",'\"\n")) {
		fputs(s, f);
		return;
	}
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc(*s, f);
	}
	fputc('\'', f);
}

/* The value of series s at run, or NAN. */
static double value_at(const struct cbench_history_series *s, long long run)
{
	for (size_t i = 0; i < s->npoints; i++) {
		if (s->points[i].run == run)
			return s->points[i].value;
	}
	return NAN;
}

static bool one_group(const struct cbench_history *h)
{
	for (size_t i = 1; i < h->nseries; i++) {
		const struct cbench_history_series *a = &h->series[0], *b = &h->series[i];

		if (strcmp(a->machine, b->machine) || strcmp(a->cpu, b->cpu) ||
		    strcmp(a->backend, b->backend) || strcmp(a->object, b->object))
			return false;
	}
	return true;
}

/* Every run of the group once, in order: the first series' and any other's. */
static int csv_rows(const struct cbench_history *h, const struct cbench_history_point ***rows,
		    size_t *n)
{
	size_t cap = 0;

	*rows = NULL;
	*n = 0;
	for (size_t i = 0; i < h->nseries; i++)
		cap += h->series[i].npoints;
	*rows = calloc(cap + 1, sizeof(**rows));
	if (!*rows)
		return -ENOMEM;
	for (size_t i = 0; i < h->nseries; i++) {
		for (size_t k = 0; k < h->series[i].npoints; k++) {
			const struct cbench_history_point *p = &h->series[i].points[k];
			size_t at = *n;

			for (size_t r = 0; r < *n && at == *n; r++)
				at = (*rows)[r]->run == p->run ? r : at;
			if (at < *n)
				continue;
			/* Insert in order (then run): the series are each in order. */
			while (at > 0 && ((*rows)[at - 1]->order > p->order ||
					  ((*rows)[at - 1]->order == p->order && (*rows)[at - 1]->run > p->run))) {
				(*rows)[at] = (*rows)[at - 1];
				at--;
			}
			(*rows)[at] = p;
			(*n)++;
		}
	}
	return 0;
}

int cbench_history_report_csv(const struct cbench_history *h, FILE *f)
{
	const struct cbench_history_point **rows;
	size_t n;

	if (!one_group(h))
		return -EINVAL;
	if (csv_rows(h, &rows, &n))
		return -ENOMEM;
	fputs("time,commit,order", f);
	for (size_t i = 0; i < h->nseries; i++) {
		char column[600];

		/* The metric in the name: series of one object may differ in it. */
		snprintf(column, sizeof(column), "%s:%s", h->series[i].name, h->series[i].metric);
		fputc(',', f);
		csv_field(f, column);
	}
	fputc('\n', f);
	for (size_t r = 0; r < n; r++) {
		/* Otava parses the time; "2026-11-27T04:20:28Z" reads as UTC. */
		fprintf(f, "%s,", rows[r]->date);
		csv_field(f, rows[r]->commit);
		fprintf(f, ",%lld", rows[r]->order);
		for (size_t i = 0; i < h->nseries; i++)
			fprintf(f, ",%.17g", value_at(&h->series[i], rows[r]->run));
		fputc('\n', f);
	}
	free(rows);
	return ferror(f) ? -EIO : 0;
}
