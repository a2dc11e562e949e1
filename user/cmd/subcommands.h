/* SPDX-License-Identifier: GPL-2.0 */
/* One function per cbenchctl subcommand, one file each (user/<name>.c). */
#ifndef _CBENCH_SUBCOMMANDS_H
#define _CBENCH_SUBCOMMANDS_H

#include "error.h"

/* Each takes the arguments after the subcommand name, argv[0] being it. */
struct cbench_subcommand {
	const char *name;
	int (*fn)(int argc, char *argv[]);
	const char *summary;
};


int cbench_cmd_run(int argc, char *argv[]);
int cbench_cmd_audit(int argc, char *argv[]);
int cbench_cmd_layout(int argc, char *argv[]);
int cbench_cmd_list(int argc, char *argv[]);
int cbench_cmd_compare(int argc, char *argv[]);
int cbench_cmd_profile(int argc, char *argv[]);
int cbench_cmd_selftest(int argc, char *argv[]);
int cbench_info_main(int argc, char *argv[]);
int cbench_doctor_main(int argc, char *argv[]);
int cbench_lab_main(int argc, char *argv[]);
int cbench_plot_main(int argc, char *argv[]);
int cbench_store_main(int argc, char *argv[]);
int cbench_history_main(int argc, char *argv[]);

#endif /* _CBENCH_SUBCOMMANDS_H */
