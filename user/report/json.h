/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small JSON reader (RFC 8259) for the files cbenchctl reads back: its own
 * JSON reports, for `plot`.  The whole text becomes a tree of values.
 */
#ifndef _CBENCH_JSON_H
#define _CBENCH_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum cbench_json_type {
	CBENCH_JSON_NULL,
	CBENCH_JSON_BOOL,
	CBENCH_JSON_NUMBER,
	CBENCH_JSON_STRING,
	CBENCH_JSON_ARRAY,
	CBENCH_JSON_OBJECT,
};

struct cbench_json {
	enum cbench_json_type type;
	bool boolean;
	double number;
	char *string;			/* UTF-8, NUL-terminated (an embedded \u0000 ends it) */
	/* Array elements, or object members with their keys. */
	struct cbench_json *items;
	char **keys;
	size_t n;
};

/* Values nested deeper than this are refused, so hostile input cannot
 * exhaust the stack. */
#define CBENCH_JSON_MAX_DEPTH 64

/*
 * Parses text[0..len) into *out (free with cbench_json_free).  0, -ENOMEM,
 * or -EINVAL with what is wrong and where in err.
 */
int cbench_json_parse(const char *text, size_t len, struct cbench_json **out, char *err,
		      size_t err_bytes);
void cbench_json_free(struct cbench_json *v);

/* An object's member, NULL if v is no object or has no such key. */
const struct cbench_json *cbench_json_get(const struct cbench_json *v, const char *key);
/* A member's number, or fallback if absent or not a number. */
double cbench_json_number(const struct cbench_json *v, const char *key, double fallback);
/*
 * A member that is an unsigned 64-bit integer, exactly: a number that is a
 * whole one up to 2^53, or a string of decimal digits (how cbench writes
 * those beyond).  false if absent or neither.
 */
bool cbench_json_u64(const struct cbench_json *v, const char *key, uint64_t *out);
/* A member's string, or fallback if absent or not a string. */
const char *cbench_json_string(const struct cbench_json *v, const char *key, const char *fallback);

#endif /* _CBENCH_JSON_H */
