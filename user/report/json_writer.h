/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one JSON writer (after bpftool's json_writer): a stream of keys and
 * values that places the commas and, when pretty, the indentation itself.
 * A key is given for members of an object and NULL for elements of an
 * array (and the top-level value).  Integers print exactly; a double prints
 * in the fewest digits that read back as the same double; a non-finite
 * double prints as null.  Errors stay in the FILE (ferror).
 */
#ifndef _CBENCH_JSON_WRITER_H
#define _CBENCH_JSON_WRITER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/*
 * The version of cbench's JSON reports (audit, profile, compare): the first
 * member of each, raised when a member changes meaning or goes away (new
 * members do not raise it).  The run report has its own
 * (docs/schema/run.schema.json): 2 since its ns_per_op is the median of
 * trials, no longer the least trial's.  The compare report's is 2 since its
 * rows name the metric that judged them (old and new, no longer
 * old_ns_per_op and new_ns_per_op) and slower means the whole interval past
 * --min-effect ("small" became "unsettled").
 */
#define CBENCH_JSON_SCHEMA_VERSION 1
#define CBENCH_RUN_JSON_SCHEMA_VERSION 2
#define CBENCH_COMPARE_JSON_SCHEMA_VERSION 2

/* Deepest nesting of objects and arrays. */
#define CBENCH_JSONW_DEPTH_MAX 16

struct cbench_jsonw {
	FILE *f;
	bool pretty;			/* newlines and two-space indents */
	unsigned int depth;
	bool first[CBENCH_JSONW_DEPTH_MAX + 1];	/* no member yet at this depth */
};

void cbench_jsonw_init(struct cbench_jsonw *j, FILE *f, bool pretty);

void cbench_jsonw_object_start(struct cbench_jsonw *j, const char *key);
void cbench_jsonw_object_end(struct cbench_jsonw *j);
void cbench_jsonw_array_start(struct cbench_jsonw *j, const char *key);
void cbench_jsonw_array_end(struct cbench_jsonw *j);

void cbench_jsonw_string(struct cbench_jsonw *j, const char *key, const char *value);
void cbench_jsonw_uint(struct cbench_jsonw *j, const char *key, uint64_t value);
void cbench_jsonw_int(struct cbench_jsonw *j, const char *key, int64_t value);
void cbench_jsonw_double(struct cbench_jsonw *j, const char *key, double value);
/* A double member, absent where it is NAN: not measured (never a 0). */
void cbench_jsonw_measured(struct cbench_jsonw *j, const char *key, double value);
void cbench_jsonw_bool(struct cbench_jsonw *j, const char *key, bool value);
void cbench_jsonw_null(struct cbench_jsonw *j, const char *key);

/*
 * A value read back (json.h), written as this writer wrote it: a member
 * of a report carried into another (run --resume) comes out as it went in.
 */
struct cbench_json;
void cbench_jsonw_value(struct cbench_jsonw *j, const char *key, const struct cbench_json *v);

/* Ends the document (a newline) and says whether the stream took it all:
 * 0 or -EIO. */
int cbench_jsonw_finish(struct cbench_jsonw *j);

#endif /* _CBENCH_JSON_WRITER_H */
