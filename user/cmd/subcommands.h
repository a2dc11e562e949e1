/* SPDX-License-Identifier: GPL-2.0 */
/* One function per cbenchctl subcommand, cbench_<name>_main, one file each
 * (user/cmd/<name>.c). */
#ifndef _CBENCH_SUBCOMMANDS_H
#define _CBENCH_SUBCOMMANDS_H

#include "error.h"

/* Each takes the arguments after the subcommand name, argv[0] being it. */
struct cbench_subcommand {
	const char *name;
	int (*fn)(int argc, char *argv[]);
	const char *summary;
};

int cbench_run_main(int argc, char *argv[]);
int cbench_audit_main(int argc, char *argv[]);
int cbench_layout_main(int argc, char *argv[]);
int cbench_list_main(int argc, char *argv[]);
int cbench_compare_main(int argc, char *argv[]);
int cbench_profile_main(int argc, char *argv[]);
int cbench_selftest_main(int argc, char *argv[]);
int cbench_insn_main(int argc, char *argv[]);
int cbench_info_main(int argc, char *argv[]);
int cbench_doctor_main(int argc, char *argv[]);
int cbench_lab_main(int argc, char *argv[]);
int cbench_plot_main(int argc, char *argv[]);
int cbench_store_main(int argc, char *argv[]);
int cbench_history_main(int argc, char *argv[]);

#endif /* _CBENCH_SUBCOMMANDS_H */
