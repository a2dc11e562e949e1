// SPDX-License-Identifier: GPL-2.0
/*
 * `cbenchctl run`'s entry: its options read (run_options.c), then one
 * backend's run (run.c) or, for --backend both, one of each (run_both.c).
 */
#include <stdio.h>

#include "cmd/run_parts.h"
#include "cmd/subcommands.h"
#include "error.h"

int cbench_run_main(int argc, char *argv[])
{
	struct cbench_run_options opt;
	int ret = cbench_run_options_parse(&opt, argc, argv, stderr);

	if (ret) {
		if (ret < 0)
			return cbench_usage_error("run", NULL);
		cbench_run_usage(stdout);
		return 0;
	}
	if (opt.both)
		return cbench_run_both(&opt);
	return cbench_run(&opt, NULL);
}
