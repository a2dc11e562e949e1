/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One call per field for a report printed as text or as JSON (after
 * iproute2's print_*(PRINT_ANY, key, fmt, value)): in JSON mode a call
 * writes the member key with the typed value (json_writer.h); in text mode
 * it writes fmt with the value, and the key is not used.  Objects and
 * arrays nest in JSON and print nothing in text; an array's elements have
 * a NULL key.  Where the two genuinely differ, cbench_print_text() writes
 * text only and cbench_print_json_*() a JSON member only.
 *
 * The value macros hand fmt exactly one argument, converted to the type
 * the JSON is written from (uint64_t, int64_t, double, const char *), so
 * the compiler checks fmt against that type: "%" PRIu64 for a uint, "%s"
 * for a string, "%.3f" for a double.  A text with no room for the value
 * is a text-only call beside a JSON-only one.
 */
#ifndef _CBENCH_PRINT_H
#define _CBENCH_PRINT_H

#include <inttypes.h>		/* the PRIu64 and PRId64 the formats take */
#include <stdbool.h>
#include <stdio.h>

#include "report/json_writer.h"

struct cbench_print {
	FILE *f;
	bool json;
	struct cbench_jsonw j;		/* in JSON mode */
};

/* JSON is pretty-printed, as every JSON report of cbenchctl is. */
void cbench_print_init(struct cbench_print *p, FILE *f, bool json);
/* Ends the output (JSON: its closing newline); 0, or -EIO if f failed. */
int cbench_print_finish(struct cbench_print *p);

void cbench_print_object_start(struct cbench_print *p, const char *key);
void cbench_print_object_end(struct cbench_print *p);
void cbench_print_array_start(struct cbench_print *p, const char *key);
void cbench_print_array_end(struct cbench_print *p);

/* Text only (iproute2's PRINT_FP). */
void cbench_print_text(struct cbench_print *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

enum cbench_print_type { CBENCH_PRINT_UINT, CBENCH_PRINT_INT, CBENCH_PRINT_DOUBLE, CBENCH_PRINT_STRING };

/* What the macros below call: one argument of type's C type after fmt. */
void cbench_print_member(struct cbench_print *p, enum cbench_print_type type, const char *key,
			 const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#define cbench_print_uint(p, key, fmt, value) \
	cbench_print_member(p, CBENCH_PRINT_UINT, key, fmt, (uint64_t)(value))
#define cbench_print_int(p, key, fmt, value) \
	cbench_print_member(p, CBENCH_PRINT_INT, key, fmt, (int64_t)(value))
/* A non-finite double is null in JSON (json_writer.h), "nan" or "inf" in text. */
#define cbench_print_double(p, key, fmt, value) \
	cbench_print_member(p, CBENCH_PRINT_DOUBLE, key, fmt, (double)(value))
#define cbench_print_string(p, key, fmt, value) \
	cbench_print_member(p, CBENCH_PRINT_STRING, key, fmt, (const char *)(value))

/* JSON true or false; in text, the words for the value (NULL: nothing). */
void cbench_print_bool(struct cbench_print *p, const char *key, bool value, const char *if_true,
		       const char *if_false);

/* JSON null; in text, fmt (NULL: nothing), which says why there is no value. */
void cbench_print_null(struct cbench_print *p, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* JSON only (iproute2's PRINT_JSON): what the text leaves out or says otherwise. */
void cbench_print_json_uint(struct cbench_print *p, const char *key, uint64_t value);
void cbench_print_json_int(struct cbench_print *p, const char *key, int64_t value);
void cbench_print_json_double(struct cbench_print *p, const char *key, double value);
void cbench_print_json_string(struct cbench_print *p, const char *key, const char *value);
void cbench_print_json_bool(struct cbench_print *p, const char *key, bool value);

#endif /* _CBENCH_PRINT_H */
