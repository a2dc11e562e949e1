// SPDX-License-Identifier: GPL-2.0
/* `cbenchctl list`: the benchmarks a shared object registers. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "object/loader.h"
#include "session/options.h"
#include "session/select.h"
#include "cmd/subcommands.h"

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %s list [--filter REGEX] <bench.so>\n"
		"\n"
		"Prints each benchmark (one line per parameter value) as\n"
		"<id> <report name> [arena=<bytes>] [ops/rep=<n>] [bytes/rep=<n>]\n"
		"in the order run measures them.\n"
		"\n"
		"Options:\n"
		"  --filter REGEX      only the benchmarks run --filter REGEX would run (POSIX\n"
		"                      extended; matched against \"add_chain\", \"copy/size=64\"\n"
		"                      and \"BenchmarkCopy/size=64\" forms)\n"
		"  -h, --help          show this help\n",
		cbench_prog);
}

/* The options run, profile and audit share but list does not take. */
static int refuse(void *opts, int id, const char *arg, FILE *err)
{
	const char *name = id == CBENCH_OPT_BACKEND ? "--backend" : id == CBENCH_OPT_CPU ? "--cpu" :
			   id == CBENCH_OPT_FORMAT ? "--format" : "-o/--output";

	(void)opts;
	(void)arg;
	fprintf(err, "%s list: %s is run's, not list's (list takes --filter only)\n", cbench_prog, name);
	return -EINVAL;
}

static void print(const struct cbench_experiment *e)
{
	const struct cbench_desc *d = e->desc;

	printf("%s %s", e->id, e->report_name);
	if (d->arena_bytes)
		printf(" arena=%" PRIu64, d->arena_bytes);
	if (d->ops_per_rep > 1)
		printf(" ops/rep=%" PRIu64, d->ops_per_rep);
	if (d->bytes_per_rep)
		printf(" bytes/rep=%" PRIu64 "%s%s", d->bytes_per_rep,
		       e->size_arg ? "*" : "", e->size_arg ? e->args[e->size_arg - 1].key : "");
	/* Caliper's instruments: a benchmark is timed by reps (said
	 * only beside another instrument), or one call at a time
	 * between its per-rep hooks; one that may allocate also has
	 * its allocations counted. */
	if (cbench_desc_per_rep(d) || (d->flags & CBENCH_F_USER_ONLY))
		printf(" instruments=%s%s", cbench_desc_per_rep(d) ? "per-rep" : "reps",
		       d->flags & CBENCH_F_USER_ONLY ? ",allocations" : "");
	putchar('\n');
}

int cbench_list_main(int argc, char *argv[])
{
	static const struct option none[] = { { NULL, 0, NULL, 0 } };
	const char *pattern = NULL;
	const struct cbench_option_fields fields = { .filter = &pattern };
	const struct cbench_experiment *e;
	struct cbench_filter filter;
	struct cbench_library lib;
	char err[CBENCH_ERR_LEN];
	size_t i = 0, total;
	int ret;

	/* --filter as run reads it, through the same parser. */
	ret = cbench_options_parse(argc, argv, &fields, none, refuse, NULL, stderr);
	if (ret > 0) {
		usage(stdout);
		return 0;
	}
	if (ret)
		return cbench_usage_error("list", NULL);
	if (optind != argc - 1)
		return cbench_usage_error("list", "it wants one benchmark object, not %d", argc - optind);
	if (cbench_filter_init(&filter, pattern))
		return 1;
	if (cbench_library_open(&lib, argv[optind], CBENCH_LOAD_TIME_LIMIT_S, err, sizeof(err))) {
		cbench_err("unable to load benchmarks: %s\n", err);
		cbench_filter_free(&filter);
		return 1;
	}
	ret = cbench_filter_select(&filter, &lib, "list", argv[optind], &total);
	while (!ret && (e = cbench_filter_next(&filter, &lib, &i)))
		print(e);
	cbench_library_close(&lib);
	cbench_filter_free(&filter);
	return ret ? 1 : 0;
}
