// SPDX-License-Identifier: GPL-2.0
/*
 * A benchmark object's experiments and their names: each descriptor at
 * each of its parameter sets, its id ("copy/size=64") and its name in the
 * Go benchmark format ("BenchmarkCopy/size=64"), which must be valid and
 * distinct.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "object/loader_parts.h"

void cbench_camel_name(const char *snake, char *out, size_t len)
{
	size_t o = 0;
	int upper = 1;

	if (!len)
		return;
	for (const char *p = snake; *p && o + 1 < len; p++) {
		if (*p == '_') {
			upper = 1;
			continue;
		}
		out[o++] = upper ? (char)toupper((unsigned char)*p) : *p;
		upper = 0;
	}
	out[o] = '\0';
}


/* Most experiments one object may make: far above any real suite, it
 * bounds what a descriptor's declaration can make us allocate. */
#define LOAD_EXPERIMENTS_MAX 65536

/* Experiment e: descriptor d at parameter set s of p. */
static int name_experiment(struct cbench_experiment *e, const struct cbench_desc *d,
			   const struct cbench_params *p, uint32_t s)
{
	char camel[CBENCH_NAME_MAX], suffix[CBENCH_PARAMS_NAME_MAX];
	size_t id_len, name_len;

	if (p->nkeys && cbench_params_name(p, s, suffix, sizeof(suffix)) < 0)
		return -ENAMETOOLONG;
	if (!p->nkeys)
		suffix[0] = '\0';
	e->nargs = p->nkeys ? cbench_params_args(p, s, e->args) : 0;
	e->has_param = e->nargs > 0;
	e->param = e->nargs ? e->args[0].i : 0;
	e->size_arg = d->flags & CBENCH_F_BYTES_PER_PARAM ? (uint32_t)(cbench_params_size_key(p) + 1) : 0;
	cbench_camel_name(d->name, camel, sizeof(camel));
	id_len = (size_t)snprintf(e->id, sizeof(e->id), "%s%s", d->name, suffix);
	name_len = (size_t)snprintf(e->report_name, sizeof(e->report_name), "Benchmark%s%s", camel, suffix);
	/* Never reached within cbench_params_check()'s limits: a cut name
	 * would merge parameter sets in the tuning cache. */
	return id_len >= sizeof(e->id) || name_len >= sizeof(e->report_name) ? -ENAMETOOLONG : 0;
}

bool cbench_library_wanted(const struct cbench_library *lib, const struct cbench_desc *d)
{
	return !lib->only[0] || !strcmp(d->name, lib->only[0]) ||
	       (lib->only[1] && !strcmp(d->name, lib->only[1]));
}

int cbench_library_expand(struct cbench_library *lib, char *err, size_t errlen)
{
	size_t total = 0, k = 0;

	for (size_t i = 0; i < lib->ndescs; i++)
		total += cbench_library_wanted(lib, lib->descs[i]) ? cbench_params_nsets(&lib->params[i]) : 0;
	if (total > LOAD_EXPERIMENTS_MAX) {
		snprintf(err, errlen, "%s makes %zu benchmarks with their parameter sets, more than %d: "
			 "split it into several objects", lib->path, total, LOAD_EXPERIMENTS_MAX);
		return -E2BIG;
	}
	lib->experiments = calloc(total, sizeof(*lib->experiments));
	if (!lib->experiments)
		goto nomem;
	for (size_t i = 0; i < lib->ndescs; i++) {
		uint32_t n = cbench_library_wanted(lib, lib->descs[i]) ?
			     cbench_params_nsets(&lib->params[i]) : 0;

		for (uint32_t s = 0; s < n; s++, k++) {
			lib->experiments[k].lib = lib;
			lib->experiments[k].desc = lib->descs[i];
			if (name_experiment(&lib->experiments[k], lib->descs[i], &lib->params[i], s)) {
				snprintf(err, errlen, "%s: benchmark %s: a name is too long", lib->path,
					 lib->descs[i]->name);
				return -ENAMETOOLONG;
			}
		}
	}
	lib->nexperiments = k;
	return 0;
nomem:
	snprintf(err, errlen, "%s", strerror(ENOMEM));
	return -ENOMEM;
}

/*
 * Report names must be valid in the Go format (benchstat drops the rest
 * silently) and distinct (or two benchmarks' results would merge), though
 * CamelCase can make "a_b" and "aB" one name and "_1x" an invalid one.
 */
static int by_report_name(const void *a, const void *b)
{
	const struct cbench_experiment *const *x = a, *const *y = b;

	return strcmp((*x)->report_name, (*y)->report_name);
}

int cbench_library_check_names(const struct cbench_library *lib, char *err, size_t errlen)
{
	const struct cbench_experiment **sorted;
	int ret = 0;

	for (size_t i = 0; i < lib->nexperiments; i++) {
		const struct cbench_experiment *e = &lib->experiments[i];

		if (!cbench_go_valid_name(e->report_name)) {
			snprintf(err, errlen, "benchmark %s would be reported as %.200s, which benchstat does "
				 "not read (after \"Benchmark\" comes an upper-case letter): start the name "
				 "with a letter", e->desc->name, e->report_name);
			return -EINVAL;
		}
	}
	/* Sorted, equal names are neighbours: a suite of many parameter sets
	 * is checked in n log n. */
	sorted = calloc(lib->nexperiments ? lib->nexperiments : 1, sizeof(*sorted));
	if (!sorted) {
		snprintf(err, errlen, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	for (size_t i = 0; i < lib->nexperiments; i++)
		sorted[i] = &lib->experiments[i];
	qsort(sorted, lib->nexperiments, sizeof(*sorted), by_report_name);
	for (size_t i = 1; i < lib->nexperiments && !ret; i++) {
		if (!strcmp(sorted[i - 1]->report_name, sorted[i]->report_name)) {
			const struct cbench_experiment *a = sorted[i - 1], *b = sorted[i];

			if (a > b) {
				a = sorted[i];
				b = sorted[i - 1];
			}
			snprintf(err, errlen, "benchmarks %.150s and %.150s would both be reported as %.150s: "
				 "rename one", a->id, b->id, a->report_name);
			ret = -EINVAL;
		}
	}
	free(sorted);
	return ret;
}

_Static_assert(offsetof(struct cbench_desc, before_rep) == CBENCH_DESC_V1_BYTES,
	       "ABI 2 appends the hooks to the ABI 1 descriptor");
_Static_assert(offsetof(struct cbench_desc, keys) == CBENCH_DESC_V2_BYTES,
	       "ABI 3 appends the keys to the ABI 2 descriptor");

bool cbench_go_valid_name(const char *name)
{
	if (strncmp(name, "Benchmark", 9))
		return false;
	if (name[9] && !isupper((unsigned char)name[9]))
		return false;
	for (const char *p = name; *p; p++) {
		if (isspace((unsigned char)*p))
			return false;
	}
	return true;
}
