/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --filter: which benchmarks of an object a subcommand measures, matched
 * against "add_chain", "copy/size=64" and "BenchmarkCopy/size=64" forms
 * (POSIX extended).
 */
#ifndef _CBENCH_SELECT_H
#define _CBENCH_SELECT_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>

#include "object/loader.h"

struct cbench_filter {
	const char *pattern;		/* NULL: every benchmark */
	regex_t re;
};

/* Compiles pattern (NULL for none).  0, or -EINVAL after saying why. */
int cbench_filter_init(struct cbench_filter *f, const char *pattern);
bool cbench_filter_match(const struct cbench_filter *f, const struct cbench_experiment *e);
/*
 * How many of lib's experiments match, into *total: 0, or -ENOENT after
 * saying "unable to <action>: no benchmark in <path> matches '<pattern>'"
 * (path as the user gave it).
 */
int cbench_filter_select(const struct cbench_filter *f, const struct cbench_library *lib,
			 const char *action, const char *path, size_t *total);
/*
 * The selection, in the object's order: the first experiment from *i on
 * that f matches, with *i past it; NULL after the last.  run, profile and
 * list all walk it so: list prints what run would run.
 */
const struct cbench_experiment *cbench_filter_next(const struct cbench_filter *f,
						   const struct cbench_library *lib, size_t *i);
void cbench_filter_free(struct cbench_filter *f);

#endif /* _CBENCH_SELECT_H */
