/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A run's report read back: the one reader of the JSON report that
 * doc_write.c writes (and of a run's Go text, in the same shape),
 * for every command that takes one: compare and plot (through
 * results/runs_read.h), run --resume, store add and plot's trial view.
 *
 * Reading is strict and happens once, here: the file must be a run's report
 * (an audit's, a profile's, LNT's or Bencher's is refused, saying what it
 * is), of a schema this cbenchctl reads, every member of the type the
 * schema gives (results/report_check.h: a member edited into a string is
 * refused, named by its path), each benchmark named.  What is read comes
 * out typed: the head (where and how the run was measured) as fields, each
 * benchmark as a struct cbench_result with its trials, every per-trial
 * figure through its row's way in (report/figures.h), so that no reader
 * elsewhere names a member of the report.
 */
#ifndef _CBENCH_RESULTS_DOC_H
#define _CBENCH_RESULTS_DOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "report/report.h"

struct cbench_json;

/* How a refusal of text that does not parse as JSON begins. */
#define CBENCH_DOC_NOT_JSON "not JSON, or cut short: "

/* How a report is read: as the store must (flags of cbench_doc_parse). */
enum {
	/* The report's digest (report/digest.h) must prove it as written:
	 * one edited or rewritten is refused; one without a digest (an
	 * older cbenchctl's) is read with a note. */
	CBENCH_DOC_DIGEST = 1u << 0,
	/* A run's Go text is read too (a file not starting with '{'), each
	 * result line a trial with its ns/op, as the JSON report's shape. */
	CBENCH_DOC_GO = 1u << 1,
	/* An interrupted run is refused (the store keeps whole runs only). */
	CBENCH_DOC_WHOLE = 1u << 2,
	/* A refusal of LNT's or Bencher's report says how the store imports it. */
	CBENCH_DOC_IMPORT_HINT = 1u << 3,
};

/* The options a run was measured with ("config"."run_options"). */
struct cbench_doc_options {
	bool known;			/* the report says them (cbenchctl since --resume) */
	double trials, trial_time_s, warmup_s, time_limit_s;
	bool trial_time_auto, warmup_auto;
	bool keep_shared;		/* run --keep-shared */
	double precision;		/* run --precision (0: by trials) */
	bool precision_auto;		/* the default, without --trials */
	const char *filter;		/* NULL: every benchmark */
};

/*
 * Where and how the run was measured ("config").  Strings are "" where the
 * report lacks them, numbers -1; each points into the document.
 */
struct cbench_doc_head {
	int schema;			/* schema_version; 0 for Go text */
	const char *format;		/* "json" or "go" */
	const char *machine, *cpu, *cpu_model, *kernel, *backend, *version, *date, *run_id;
	const char *so, *so_build_id, *command, *quiet_mode;
	double cpu_count, worker_cpu;
	/* The signal that stopped the run ("SIGINT"; "a signal" where the
	 * report does not name it), or NULL for a whole run. */
	const char *interrupted;
	struct cbench_doc_options options;
	bool have_seed;			/* its code layout's seed */
	uint64_t seed;
};

/* One benchmark of the document: its names, and where the rest is read from. */
struct cbench_doc_bench {
	const char *name;		/* as written: "BenchmarkAdd/len=8" */
	const char *id;			/* its stable id; "" in Go text */
	/* ns/op as the run quotes it: the headline (schema 1's quote, the
	 * median of kept trials since); NAN where not written (Go text). */
	double quote_ns;
	const struct cbench_json *json;
};

struct cbench_doc {
	const char *path;		/* for messages; may be NULL */
	struct cbench_doc_head head;
	struct cbench_doc_bench *bench;
	size_t nbench;
	/* bench in order of name, and of id (report order among equals):
	 * cbench_doc_find()'s index. */
	const struct cbench_doc_bench **by_name, **by_id;
	/* A note on how far it is proved as written ("" if it is, or not
	 * asked): CBENCH_DOC_DIGEST's word on a report without a digest. */
	char note[160];
	struct cbench_json *root;
};

/*
 * Reads text[0..len) as a run's report into d: 0, or -EINVAL (why in err:
 * what the file is instead, or the member that is wrong and where),
 * -ENOMEM.  Free d with
 * cbench_doc_free() either way.
 */
int cbench_doc_parse(struct cbench_doc *d, const char *text, size_t len, unsigned int flags, char *err,
		     size_t errlen);

/* Whether text[0..len) holds JSON (its first non-blank is '{'), not Go text. */
bool cbench_doc_looks_json(const char *text, size_t len);

/* text[0..len) parsed as JSON into *root: 0, or -EINVAL with why in err
 * (CBENCH_DOC_NOT_JSON first, then where), -ENOMEM. */
int cbench_doc_json(const char *text, size_t len, struct cbench_json **root, char *err, size_t errlen);

/*
 * root, text[0..len) already parsed as JSON (to tell a run's report from
 * another kind of document first), into d, which takes it either way; as
 * cbench_doc_parse() otherwise.
 */
int cbench_doc_adopt(struct cbench_doc *d, struct cbench_json *root, const char *text, size_t len,
		     unsigned int flags, char *err, size_t errlen);

/* The file at path (a regular file of at most max bytes) into d, as cbench_doc_parse(). */
int cbench_doc_load(struct cbench_doc *d, const char *path, size_t max, unsigned int flags, char *err,
		    size_t errlen);

void cbench_doc_free(struct cbench_doc *d);

/* The benchmark of that name or (by_id) id, the first in the report where
 * several have it, NULL for none; O(log n). */
const struct cbench_doc_bench *cbench_doc_find(const struct cbench_doc *d, const char *key, bool by_id);

/*
 * Benchmark b of d as a result: every figure and trial as the report wrote
 * it (res->exp is the caller's; res->carried = b->json, written again as it
 * is by the JSON writer).  0 or -ENOMEM; free res->trials.
 */
int cbench_doc_result(const struct cbench_doc_bench *b, struct cbench_result *res);

/*
 * The trials b finished, but not those measured in place of others, into
 * res->trials (room for most), each marked carried; their number into
 * res->carried_trials.
 */
void cbench_doc_trials_carry(const struct cbench_doc_bench *b, struct cbench_result *res, size_t most);

/* The trials b finished, not counting those measured in place of others. */
size_t cbench_doc_trials_done(const struct cbench_doc_bench *b);

/*
 * Metric m's value of trial t (enum cbench_metric), read by
 * cbench_doc_result(): true where the trial was kept (neither failed nor
 * set aside) and measured it, finite and positive.
 */
bool cbench_doc_trial_value(const struct cbench_trial *t, int m, double *v);

#endif /* _CBENCH_RESULTS_DOC_H */
