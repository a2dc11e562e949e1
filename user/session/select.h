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
/* How many of lib's experiments match. */
size_t cbench_filter_count(const struct cbench_filter *f, const struct cbench_library *lib);
void cbench_filter_free(struct cbench_filter *f);

#endif /* _CBENCH_SELECT_H */
