/* SPDX-License-Identifier: GPL-2.0 */
/*
 * When, where and how cbenchctl was started: every report says it, so a
 * result file found later tells its date, its host and the command that
 * made it (and can be made again).
 */
#ifndef _CBENCH_CONTEXT_H
#define _CBENCH_CONTEXT_H

struct cbench_context {
	char date[32];		/* UTC, ISO 8601: "2026-11-24T19:58:03Z" */
	char host[65];		/* the node name, as uname -n */
	char command[2048];	/* argv, shell-quoted where a word needs it */
	/* What tells this run's reports from any other run's, whatever their
	 * date (two runs of a build within a second share it): 128 random
	 * bits in hex; under SOURCE_DATE_EPOCH, a hash of the date and the
	 * command, so that a report made again is the same run. */
	char run_id[33];
};

/* Fills the context from the clock (or SOURCE_DATE_EPOCH, seconds since
 * 1970, where set), the host and argv; main() calls it. */
void cbench_context_init(int argc, char *argv[]);

/* The context; zeroed (empty strings) before cbench_context_init(). */
const struct cbench_context *cbench_context(void);

struct cbench_jsonw;

/* The context's date, host and command as members of j's open object: how
 * every JSON report (run, audit, layout, profile) says them. */
void cbench_context_put(struct cbench_jsonw *j);

#endif /* _CBENCH_CONTEXT_H */
