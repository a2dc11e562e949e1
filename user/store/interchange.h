/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The store and the results servers' formats (docs/lnt.md): LNT's JSON
 * report (format version 2, cbench's test suite docs/lnt/cbench.yaml) and
 * Bencher Metric Format, read into the store as runs and written from it,
 * one report per run, so that a lab's LNT or Bencher server and a store
 * can feed each other.
 *
 * LNT: the machine's name, CPU and core count are the machine; the order
 * field (llvm_project_revision) "N.COMMIT" (what export writes) gives the
 * order and the commit, or "N" both; each test's per-trial samples are the
 * trials (ps and per-1000-op figures scaled back to per op) and its
 * *_estimate the headline.  A test of an audit's report is refused: its
 * samples are rounds, not a run.
 *
 * Bencher: no machine, commit, order or date: the command line gives them
 * (the date is the import's).  A measure's value is the headline; there
 * are no trials, and the uncertainty is a quarter of the log of
 * upper_value over lower_value (the range of some ten trials spans about
 * four standard deviations), unknown without both.
 */
#ifndef _CBENCH_STORE_INTERCHANGE_H
#define _CBENCH_STORE_INTERCHANGE_H

#include <stddef.h>

#include "store/run.h"

struct cbench_store_added;

struct cbench_store_import {
	const char *format;		/* "lnt" or "bmf" */
	const char *commit;		/* NULL: the LNT report's; set on return */
	long long order;		/* -1: the LNT report's; set on return */
	const char *machine;		/* Bencher: required; LNT: NULL for the report's */
	const char *name;		/* the object's name where the report has none */
	const char *backend;		/* where the report does not say: "user" or "kmod" */
	char commit_buf[CBENCH_STORE_NAME_MAX];
};

/*
 * Reads path in im's format and adds it to the store at store (made if
 * missing).  0, or -errno with why in err (-EINVAL: not that format, or a
 * commit or order missing).
 */
int cbench_store_import(const char *store, const char *path, struct cbench_store_import *im,
			struct cbench_store_added *out, char *err, size_t errlen);

/*
 * Every run of the store at store as a report of format ("lnt" or "bmf")
 * in dir (made if missing): run-<id>.lnt.json or run-<id>.bmf.json, each
 * written atomically.  *written counts them.  0, or -errno with why in err.
 */
int cbench_store_export(const char *store, const char *format, const char *dir, size_t *written,
			char *err, size_t errlen);

#endif /* _CBENCH_STORE_INTERCHANGE_H */
