// SPDX-License-Identifier: GPL-2.0
/* `cbenchctl list`: the benchmarks a shared object registers. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "object/loader.h"
#include "cmd/run.h"
#include "cmd/subcommands.h"

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %s list <bench.so>\n"
		"\n"
		"Prints each benchmark (one line per parameter value) as\n"
		"<id> <report name> [arena=<bytes>] [ops/rep=<n>] [bytes/rep=<n>]\n",
		cbench_prog);
}

int cbench_cmd_list(int argc, char *argv[])
{
	struct cbench_library lib;
	char err[CBENCH_ERR_LEN];

	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		usage(stdout);
		return 0;
	}
	if (argc > 1 && argv[1][0] == '-' && argv[1][1])
		return cbench_usage_error("list", "unknown option '%s' (list takes none)", argv[1]);
	if (argc != 2)
		return cbench_usage_error("list", "it wants one benchmark object, not %d", argc - 1);
	if (cbench_library_open(&lib, argv[1], CBENCH_LOAD_TIME_LIMIT_S, err, sizeof(err))) {
		cbench_err("unable to load benchmarks: %s\n", err);
		return 1;
	}
	for (size_t i = 0; i < lib.nexperiments; i++) {
		const struct cbench_experiment *e = &lib.experiments[i];
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
	cbench_library_close(&lib);
	return 0;
}
