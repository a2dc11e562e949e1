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

/* The context's date, host and command as members of j's open object (the
 * head's last: cbench_report_head_put()). */
void cbench_context_put(struct cbench_jsonw *j);

struct cbench_machine;

/*
 * The session a report's figures come from, as the head ("config") of
 * every JSON report says it, run, audit, layout and profile alike: one
 * writer, so the same fact has the same name and form in each.
 */
struct cbench_report_head {
	const struct cbench_machine *machine;	/* NULL: not said */
	const char *version;			/* cbench's */
	const char *backend;			/* "user" or "kmod" */
	const char *quiet;			/* ring 0's quiet mode; NULL or "": none */
	const char *timer;			/* the timer's name; NULL: none (a profile) */
};

/* h into j's open object: the machine (cpu, cpu_model, cpu_count, machine,
 * virtual_machine, kernel), cbench_version, backend, quiet_mode, timer,
 * then the context (date, host, command). */
void cbench_report_head_put(struct cbench_jsonw *j, const struct cbench_report_head *h);

#endif /* _CBENCH_CONTEXT_H */
