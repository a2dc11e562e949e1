// SPDX-License-Identifier: GPL-2.0
/* The JSON writer; see json_writer.h. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "report/json.h"
#include "report/json_writer.h"
#include "report/utf8.h"

void cbench_jsonw_init(struct cbench_jsonw *j, FILE *f, bool pretty)
{
	memset(j, 0, sizeof(*j));
	j->f = f;
	j->pretty = pretty;
	j->first[0] = true;
}

/* A string, escaped; a byte outside valid UTF-8 as the text \xNN (utf8.h). */
static void put_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		size_t n = cbench_utf8_seq(p);

		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(f, "\\u%04x", *p);
		else if (!n)
			fprintf(f, "\\\\x%02x", *p);
		else
			fwrite(p, 1, n, f);
		p += n ? n : 1;
	}
	fputc('"', f);
}

static void indent(const struct cbench_jsonw *j)
{
	if (!j->pretty)
		return;
	fputc('\n', j->f);
	for (unsigned int i = 0; i < j->depth; i++)
		fputs("  ", j->f);
}

/* What goes before a value: its comma, its line, its key. */
static void member(struct cbench_jsonw *j, const char *key)
{
	if (!j->first[j->depth])
		fputc(',', j->f);
	j->first[j->depth] = false;
	if (j->depth)
		indent(j);
	if (key) {
		put_string(j->f, key);
		fputs(j->pretty ? ": " : ":", j->f);
	}
}

static void open(struct cbench_jsonw *j, const char *key, char c)
{
	member(j, key);
	fputc(c, j->f);
	/* Past the deepest level we keep writing, at its depth: still valid
	 * JSON, only the indentation suffers. */
	if (j->depth < CBENCH_JSONW_DEPTH_MAX)
		j->depth++;
	j->first[j->depth] = true;
}

static void close_(struct cbench_jsonw *j, char c)
{
	bool empty = j->first[j->depth];

	if (j->depth)
		j->depth--;
	if (!empty)
		indent(j);
	fputc(c, j->f);
}

void cbench_jsonw_object_start(struct cbench_jsonw *j, const char *key)
{
	open(j, key, '{');
}

void cbench_jsonw_object_end(struct cbench_jsonw *j)
{
	close_(j, '}');
}

void cbench_jsonw_array_start(struct cbench_jsonw *j, const char *key)
{
	open(j, key, '[');
}

void cbench_jsonw_array_end(struct cbench_jsonw *j)
{
	close_(j, ']');
}

void cbench_jsonw_string(struct cbench_jsonw *j, const char *key, const char *value)
{
	member(j, key);
	put_string(j->f, value ? value : "");
}

/*
 * Integers beyond 2^53 are written as strings of their digits: a reader
 * that takes every JSON number for a double (JavaScript, jq, Python's
 * float) would round them, and a seed rounded replays another audit.
 * cbench_json_u64() reads both forms back exactly.
 */
#define EXACT_MAX (UINT64_C(1) << 53)

void cbench_jsonw_uint(struct cbench_jsonw *j, const char *key, uint64_t value)
{
	member(j, key);
	fprintf(j->f, value > EXACT_MAX ? "\"%" PRIu64 "\"" : "%" PRIu64, value);
}

void cbench_jsonw_int(struct cbench_jsonw *j, const char *key, int64_t value)
{
	bool big = value > (int64_t)EXACT_MAX || value < -(int64_t)EXACT_MAX;

	member(j, key);
	fprintf(j->f, big ? "\"%" PRId64 "\"" : "%" PRId64, value);
}

/*
 * The fewest digits that read back as the same double (at most 17), so
 * nothing is lost: "%.9g" printed a TSC of 2994373123 Hz as 2.99437312e+09.
 * A whole number prints as one, without an exponent.
 */
void cbench_jsonw_double(struct cbench_jsonw *j, const char *key, double v)
{
	char buf[32];

	member(j, key);
	if (!isfinite(v)) {
		fputs("null", j->f);
		return;
	}
	if (v == floor(v) && fabs(v) < 0x1p53) {
		fprintf(j->f, "%.0f", v);
		return;
	}
	for (int digits = 15; digits <= 17; digits++) {
		snprintf(buf, sizeof(buf), "%.*g", digits, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	fputs(buf, j->f);
}

void cbench_jsonw_measured(struct cbench_jsonw *j, const char *key, double value)
{
	if (!isnan(value))
		cbench_jsonw_double(j, key, value);
}

void cbench_jsonw_bool(struct cbench_jsonw *j, const char *key, bool value)
{
	member(j, key);
	fputs(value ? "true" : "false", j->f);
}

void cbench_jsonw_null(struct cbench_jsonw *j, const char *key)
{
	member(j, key);
	fputs("null", j->f);
}

void cbench_jsonw_value(struct cbench_jsonw *j, const char *key, const struct cbench_json *v)
{
	switch (v->type) {
	case CBENCH_JSON_NULL:
		cbench_jsonw_null(j, key);
		break;
	case CBENCH_JSON_BOOL:
		cbench_jsonw_bool(j, key, v->boolean);
		break;
	case CBENCH_JSON_NUMBER:
		/* Whole numbers print whole, as the integer writers print them. */
		cbench_jsonw_double(j, key, v->number);
		break;
	case CBENCH_JSON_STRING:
		cbench_jsonw_string(j, key, v->string);
		break;
	case CBENCH_JSON_ARRAY:
		cbench_jsonw_array_start(j, key);
		for (size_t i = 0; i < v->n; i++)
			cbench_jsonw_value(j, NULL, &v->items[i]);
		cbench_jsonw_array_end(j);
		break;
	case CBENCH_JSON_OBJECT:
		cbench_jsonw_object_start(j, key);
		for (size_t i = 0; i < v->n; i++)
			cbench_jsonw_value(j, v->keys[i], &v->items[i]);
		cbench_jsonw_object_end(j);
		break;
	}
}

int cbench_jsonw_finish(struct cbench_jsonw *j)
{
	fputc('\n', j->f);
	return ferror(j->f) ? -EIO : 0;
}
