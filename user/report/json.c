// SPDX-License-Identifier: GPL-2.0
/* A small JSON reader; see json.h. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/json.h"

struct parser {
	const char *p, *start, *end;
	char *err;
	size_t err_bytes;
	int error;
};

static int fail(struct parser *ps, const char *what)
{
	size_t line = 1, column = 1;

	if (ps->error)
		return ps->error;
	for (const char *q = ps->start; q < ps->p; q++) {
		if (*q == '\n') {
			line++;
			column = 1;
		} else {
			column++;
		}
	}
	snprintf(ps->err, ps->err_bytes, "%s at line %zu, column %zu", what, line, column);
	ps->error = -EINVAL;
	return ps->error;
}

static void skip_space(struct parser *ps)
{
	while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r'))
		ps->p++;
}

static bool literal(struct parser *ps, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n))
		return false;
	ps->p += n;
	return true;
}

static int hex4(struct parser *ps, uint32_t *value)
{
	*value = 0;
	if (ps->end - ps->p < 4)
		return fail(ps, "a \\u escape cut short");
	for (int i = 0; i < 4; i++) {
		char c = *ps->p++;

		*value <<= 4;
		if (c >= '0' && c <= '9')
			*value |= (uint32_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			*value |= (uint32_t)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			*value |= (uint32_t)(c - 'A' + 10);
		else
			return fail(ps, "a bad \\u escape");
	}
	return 0;
}

static size_t put_utf8(char *out, uint32_t c)
{
	if (c < 0x80) {
		out[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		out[0] = (char)(0xc0 | c >> 6);
		out[1] = (char)(0x80 | (c & 0x3f));
		return 2;
	}
	if (c < 0x10000) {
		out[0] = (char)(0xe0 | c >> 12);
		out[1] = (char)(0x80 | (c >> 6 & 0x3f));
		out[2] = (char)(0x80 | (c & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | c >> 18);
	out[1] = (char)(0x80 | (c >> 12 & 0x3f));
	out[2] = (char)(0x80 | (c >> 6 & 0x3f));
	out[3] = (char)(0x80 | (c & 0x3f));
	return 4;
}

/* A string at ps->p (its opening quote); *out is malloc'd. */
static int parse_string(struct parser *ps, char **out)
{
	const char *q = ps->p + 1;
	size_t n = 0;
	char *s;

	/* Escapes only shrink, so the raw length bounds the decoded one. */
	while (q < ps->end && *q != '"')
		q += *q == '\\' ? 2 : 1;
	if (q >= ps->end)
		return fail(ps, "a string without its closing quote");
	s = malloc((size_t)(q - ps->p));
	if (!s)
		return ps->error = -ENOMEM;
	ps->p++;
	while (*ps->p != '"') {
		unsigned char c = (unsigned char)*ps->p++;

		if (c < 0x20) {
			free(s);
			return fail(ps, "a control character in a string");
		}
		if (c != '\\') {
			s[n++] = (char)c;
			continue;
		}
		c = (unsigned char)*ps->p++;
		switch (c) {
		case '"': case '\\': case '/':
			s[n++] = (char)c;
			break;
		case 'b': s[n++] = '\b'; break;
		case 'f': s[n++] = '\f'; break;
		case 'n': s[n++] = '\n'; break;
		case 'r': s[n++] = '\r'; break;
		case 't': s[n++] = '\t'; break;
		case 'u': {
			uint32_t cp, low;

			if (hex4(ps, &cp)) {
				free(s);
				return ps->error;
			}
			if (cp >= 0xd800 && cp < 0xdc00) {
				if (!literal(ps, "\\u") || hex4(ps, &low) || low < 0xdc00 || low > 0xdfff) {
					free(s);
					return fail(ps, "a lone surrogate in a \\u escape");
				}
				cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
			}
			n += put_utf8(s + n, cp);
			break;
		}
		default:
			free(s);
			return fail(ps, "a bad escape in a string");
		}
	}
	ps->p++;
	s[n] = '\0';
	*out = s;
	return 0;
}

static int parse_number(struct parser *ps, double *out)
{
	const char *q = ps->p;
	char buf[64], *end;

	/* The JSON grammar, stricter than strtod: no hex, no inf, no leading
	 * zeros or plus sign. */
	if (q < ps->end && *q == '-')
		q++;
	if (q < ps->end && *q == '0')
		q++;
	else if (q < ps->end && *q >= '1' && *q <= '9')
		while (q < ps->end && *q >= '0' && *q <= '9')
			q++;
	else
		return fail(ps, "a bad number");
	if (q < ps->end && *q == '.') {
		if (++q >= ps->end || *q < '0' || *q > '9')
			return fail(ps, "a bad number");
		while (q < ps->end && *q >= '0' && *q <= '9')
			q++;
	}
	if (q < ps->end && (*q == 'e' || *q == 'E')) {
		q++;
		if (q < ps->end && (*q == '+' || *q == '-'))
			q++;
		if (q >= ps->end || *q < '0' || *q > '9')
			return fail(ps, "a bad number");
		while (q < ps->end && *q >= '0' && *q <= '9')
			q++;
	}
	if ((size_t)(q - ps->p) >= sizeof(buf))
		return fail(ps, "a number too long");
	memcpy(buf, ps->p, (size_t)(q - ps->p));
	buf[q - ps->p] = '\0';
	*out = strtod(buf, &end);
	ps->p = q;
	return 0;
}

static int parse_value(struct parser *ps, struct cbench_json *v, int depth);

static int append(struct parser *ps, struct cbench_json *v, size_t *cap, char *key, int depth)
{
	if (v->n == *cap) {
		size_t ncap = *cap ? 2 * *cap : 8;
		struct cbench_json *items = realloc(v->items, ncap * sizeof(*items));

		if (!items) {
			free(key);
			return ps->error = -ENOMEM;
		}
		v->items = items;
		if (v->type == CBENCH_JSON_OBJECT) {
			char **keys = realloc(v->keys, ncap * sizeof(*keys));

			if (!keys) {
				free(key);
				return ps->error = -ENOMEM;
			}
			v->keys = keys;
		}
		*cap = ncap;
	}
	memset(&v->items[v->n], 0, sizeof(v->items[v->n]));
	if (v->type == CBENCH_JSON_OBJECT)
		v->keys[v->n] = key;
	v->n++;
	return parse_value(ps, &v->items[v->n - 1], depth + 1);
}

static int parse_container(struct parser *ps, struct cbench_json *v, int depth)
{
	bool object = *ps->p == '{';
	char close = object ? '}' : ']';
	size_t cap = 0;

	v->type = object ? CBENCH_JSON_OBJECT : CBENCH_JSON_ARRAY;
	ps->p++;
	skip_space(ps);
	if (ps->p < ps->end && *ps->p == close) {
		ps->p++;
		return 0;
	}
	for (;;) {
		char *key = NULL;

		skip_space(ps);
		if (object) {
			if (ps->p >= ps->end || *ps->p != '"')
				return fail(ps, "an object key that is not a string");
			if (parse_string(ps, &key))
				return ps->error;
			skip_space(ps);
			if (ps->p >= ps->end || *ps->p != ':') {
				free(key);
				return fail(ps, "no ':' after an object key");
			}
			ps->p++;
		}
		if (append(ps, v, &cap, key, depth))
			return ps->error;
		skip_space(ps);
		if (ps->p < ps->end && *ps->p == ',') {
			ps->p++;
			continue;
		}
		if (ps->p < ps->end && *ps->p == close) {
			ps->p++;
			return 0;
		}
		return fail(ps, object ? "no ',' or '}' after an object member" :
				"no ',' or ']' after an array element");
	}
}

static int parse_value(struct parser *ps, struct cbench_json *v, int depth)
{
	if (depth > CBENCH_JSON_MAX_DEPTH)
		return fail(ps, "values nested too deep");
	skip_space(ps);
	if (ps->p >= ps->end)
		return fail(ps, "no value");
	switch (*ps->p) {
	case '{':
	case '[':
		return parse_container(ps, v, depth);
	case '"':
		v->type = CBENCH_JSON_STRING;
		return parse_string(ps, &v->string);
	case 't':
	case 'f':
		v->type = CBENCH_JSON_BOOL;
		v->boolean = *ps->p == 't';
		if (literal(ps, v->boolean ? "true" : "false"))
			return 0;
		break;
	case 'n':
		v->type = CBENCH_JSON_NULL;
		if (literal(ps, "null"))
			return 0;
		break;
	default:
		if (*ps->p != '-' && (*ps->p < '0' || *ps->p > '9'))
			break;
		v->type = CBENCH_JSON_NUMBER;
		return parse_number(ps, &v->number);
	}
	return fail(ps, "not a JSON value");
}

static void free_value(struct cbench_json *v)
{
	for (size_t i = 0; i < v->n; i++) {
		free_value(&v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->string);
}

void cbench_json_free(struct cbench_json *v)
{
	if (!v)
		return;
	free_value(v);
	free(v);
}

int cbench_json_parse(const char *text, size_t len, struct cbench_json **out, char *err,
		      size_t err_bytes)
{
	struct parser ps = { .p = text, .start = text, .end = text + len, .err = err,
			     .err_bytes = err_bytes };
	struct cbench_json *v = calloc(1, sizeof(*v));

	if (err_bytes)
		err[0] = '\0';
	if (!v)
		return -ENOMEM;
	if (!parse_value(&ps, v, 0)) {
		skip_space(&ps);
		if (ps.p != ps.end)
			fail(&ps, "text after the value");
	}
	if (ps.error) {
		if (ps.error == -ENOMEM && err_bytes)
			snprintf(err, err_bytes, "%s", strerror(ENOMEM));
		cbench_json_free(v);
		return ps.error;
	}
	*out = v;
	return 0;
}

const struct cbench_json *cbench_json_get(const struct cbench_json *v, const char *key)
{
	if (!v || v->type != CBENCH_JSON_OBJECT)
		return NULL;
	for (size_t i = 0; i < v->n; i++) {
		if (!strcmp(v->keys[i], key))
			return &v->items[i];
	}
	return NULL;
}

double cbench_json_number(const struct cbench_json *v, const char *key, double fallback)
{
	const struct cbench_json *m = cbench_json_get(v, key);

	return m && m->type == CBENCH_JSON_NUMBER ? m->number : fallback;
}

bool cbench_json_u64(const struct cbench_json *v, const char *key, uint64_t *out)
{
	const struct cbench_json *m = cbench_json_get(v, key);
	char *end;

	if (m && m->type == CBENCH_JSON_NUMBER && m->number >= 0 && m->number <= 0x1p53 &&
	    m->number == floor(m->number)) {
		*out = (uint64_t)m->number;
		return true;
	}
	if (!m || m->type != CBENCH_JSON_STRING || m->string[0] < '0' || m->string[0] > '9')
		return false;
	errno = 0;
	*out = strtoull(m->string, &end, 10);
	return !errno && !*end;
}

const char *cbench_json_string(const struct cbench_json *v, const char *key, const char *fallback)
{
	const struct cbench_json *m = cbench_json_get(v, key);

	return m && m->type == CBENCH_JSON_STRING ? m->string : fallback;
}
