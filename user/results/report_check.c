// SPDX-License-Identifier: GPL-2.0
/* A run report's members against its schema; see report_check.h. */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "results/report_check.h"

extern const char cbench_run_schema_text[];

/* What the keywords this checker follows name, and what each JSON value is. */
static const char *value_kind(const struct cbench_json *v)
{
	static const char *const names[] = { "null", "true or false", "a number", "a string",
					     "an array", "an object" };

	return names[v->type];
}

static bool is_type(const struct cbench_json *v, const char *t)
{
	if (!strcmp(t, "integer"))
		return v->type == CBENCH_JSON_NUMBER && v->number == floor(v->number);
	return (!strcmp(t, "number") && v->type == CBENCH_JSON_NUMBER) ||
	       (!strcmp(t, "string") && v->type == CBENCH_JSON_STRING) ||
	       (!strcmp(t, "boolean") && v->type == CBENCH_JSON_BOOL) ||
	       (!strcmp(t, "object") && v->type == CBENCH_JSON_OBJECT) ||
	       (!strcmp(t, "array") && v->type == CBENCH_JSON_ARRAY) ||
	       (!strcmp(t, "null") && v->type == CBENCH_JSON_NULL);
}

/* Whether v is of type (a name, or a list of them); what it should be into want. */
static bool type_ok(const struct cbench_json *v, const struct cbench_json *type, char *want, size_t len)
{
	size_t at = 0;

	if (type->type == CBENCH_JSON_STRING) {
		snprintf(want, len, "%s", type->string);
		return is_type(v, type->string);
	}
	*want = '\0';
	for (size_t i = 0; type->type == CBENCH_JSON_ARRAY && i < type->n; i++) {
		if (type->items[i].type != CBENCH_JSON_STRING)
			continue;
		if (is_type(v, type->items[i].string))
			return true;
		at += (size_t)snprintf(want + at, at < len ? len - at : 0, "%s%s", i ? " or " : "",
				       type->items[i].string);
	}
	return type->type != CBENCH_JSON_ARRAY;
}

static bool same(const struct cbench_json *a, const struct cbench_json *b)
{
	if (a->type != b->type)
		return false;
	switch (a->type) {
	case CBENCH_JSON_NUMBER:
		return a->number == b->number;
	case CBENCH_JSON_STRING:
		return !strcmp(a->string, b->string);
	case CBENCH_JSON_BOOL:
		return a->boolean == b->boolean;
	case CBENCH_JSON_NULL:
		return true;
	default:
		return false;	/* the schema compares no arrays or objects */
	}
}

static int wrong(const char *path, const char *what, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s %s: edited by hand? measure the run again", path[0] ? path : "the report",
		 what);
	return -EINVAL;
}

static int check(const struct cbench_json *v, const struct cbench_json *s, bool req, char *path,
		 size_t len, size_t at, char *err, size_t errlen);

/* The members schema s requires that v lacks: the first named. */
static int required(const struct cbench_json *v, const struct cbench_json *s, const char *path,
		    char *err, size_t errlen)
{
	const struct cbench_json *req = cbench_json_get(s, "required");
	char what[160];

	for (size_t i = 0; req && req->type == CBENCH_JSON_ARRAY && i < req->n; i++) {
		if (req->items[i].type != CBENCH_JSON_STRING || cbench_json_get(v, req->items[i].string))
			continue;
		snprintf(what, sizeof(what), "has no member '%s'", req->items[i].string);
		return wrong(path, what, err, errlen);
	}
	return 0;
}

/* What s's "if" chooses for v: its "then" where v meets the "if", else its "else". */
static const struct cbench_json *branch(const struct cbench_json *v, const struct cbench_json *s)
{
	const struct cbench_json *cond = cbench_json_get(s, "if");
	char path[8] = "", scratch[8];

	if (!cond || cond->type != CBENCH_JSON_OBJECT)
		return NULL;
	return cbench_json_get(s, check(v, cond, false, path, sizeof(path), 0, scratch, sizeof(scratch)) ?
				  "else" : "then");
}

/* v against schema s, its required members too where req; path (of len
 * bytes, at used) names v. */
static int check(const struct cbench_json *v, const struct cbench_json *s, bool req, char *path,
		 size_t len, size_t at, char *err, size_t errlen)
{
	const struct cbench_json *type = cbench_json_get(s, "type"), *c = cbench_json_get(s, "const");
	const struct cbench_json *e = cbench_json_get(s, "enum"), *props = cbench_json_get(s, "properties");
	const struct cbench_json *items = cbench_json_get(s, "items");
	const struct cbench_json *more = cbench_json_get(s, "additionalProperties");
	char want[96], what[160];
	bool found;
	int ret;

	if (type && !type_ok(v, type, want, sizeof(want))) {
		snprintf(what, sizeof(what), "is %s, not %s", value_kind(v), want);
		return wrong(path, what, err, errlen);
	}
	/* Reports of schema 1 are read too: their version is no error. */
	if (c && !same(v, c) && strcmp(path, "schema_version"))
		return wrong(path, "is not the value this schema's reports have", err, errlen);
	if (e && e->type == CBENCH_JSON_ARRAY) {
		found = false;
		for (size_t i = 0; i < e->n && !found; i++)
			found = same(v, &e->items[i]);
		if (!found) {
			snprintf(what, sizeof(what), "is %s%s%s, none of the values the schema gives",
				 v->type == CBENCH_JSON_STRING ? "'" : value_kind(v),
				 v->type == CBENCH_JSON_STRING ? v->string : "",
				 v->type == CBENCH_JSON_STRING ? "'" : "");
			return wrong(path, what, err, errlen);
		}
	}
	if (v->type == CBENCH_JSON_OBJECT && req) {
		const struct cbench_json *then = branch(v, s);

		ret = required(v, s, path, err, errlen);
		ret = ret ? ret : then ? required(v, then, path, err, errlen) : 0;
		if (ret)
			return ret;
	}
	if (v->type == CBENCH_JSON_OBJECT) {
		for (size_t i = 0; i < v->n; i++) {
			const struct cbench_json *sub = cbench_json_get(props, v->keys[i]);

			if (!sub && more && more->type == CBENCH_JSON_OBJECT)
				sub = more;
			if (!sub || at >= len)
				continue;
			snprintf(path + at, len - at, "%s%s", at ? "." : "", v->keys[i]);
			ret = check(&v->items[i], sub, req, path, len, strlen(path), err, errlen);
			path[at] = '\0';
			if (ret)
				return ret;
		}
	}
	if (v->type == CBENCH_JSON_ARRAY && items && items->type == CBENCH_JSON_OBJECT) {
		for (size_t i = 0; i < v->n && at < len; i++) {
			/* A benchmark named by its name, besides its place. */
			const char *name = cbench_json_string(&v->items[i], "name", NULL);

			if (name)
				snprintf(path + at, len - at, "[%zu] (%.80s)", i, name);
			else
				snprintf(path + at, len - at, "[%zu]", i);
			ret = check(&v->items[i], items, req, path, len, strlen(path), err, errlen);
			path[at] = '\0';
			if (ret)
				return ret;
		}
	}
	return 0;
}

int cbench_report_check(const struct cbench_json *doc, char *err, size_t errlen)
{
	static struct cbench_json *schema;
	char path[512] = "", why[128];
	int ret;

	if (!schema) {
		ret = cbench_json_parse(cbench_run_schema_text, strlen(cbench_run_schema_text), &schema,
					why, sizeof(why));
		if (ret) {
			snprintf(err, errlen, "the report schema built into cbenchctl: %s", why);
			return ret == -ENOMEM ? ret : -EINVAL;
		}
	}
	/* What schema 1's reports required is not on record: their members
	 * are checked for their types alone. */
	return check(doc, schema, cbench_json_number(doc, "schema_version", 0) >= 2, path, sizeof(path), 0,
		     err, errlen);
}
