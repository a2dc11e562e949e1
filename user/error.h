/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reporting errors: every message on stderr begins with the program's name,
 * and a message built in a buffer before it is printed fits in
 * CBENCH_ERR_LEN bytes.
 */
#ifndef _CBENCH_ERROR_H
#define _CBENCH_ERROR_H

#include <stddef.h>

#define CBENCH_ERR_LEN 512

extern const char *cbench_prog;

/* Exit statuses, the same for every subcommand (cbenchctl(1)). */
#define CBENCH_EXIT_OK 0
#define CBENCH_EXIT_FAILED 1	/* a measurement, a check or a file failed */
#define CBENCH_EXIT_USAGE 2	/* the command line is wrong */
#define CBENCH_EXIT_GATE 3	/* --fail-on found a change that counts */
#define CBENCH_EXIT_UNDECIDED 4	/* --fail-on: rows or audits it could not judge */

/* "cbenchctl: " and the message, on stderr; fmt ends the line itself. */
void cbench_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The last message cbench_err() said since the last take ("" if none),
 * without the program's name or the line's end, into buf, and forgotten:
 * for a command that runs another's code in its process and must say why
 * it failed (history --confirm's audits). */
void cbench_err_take(char *buf, size_t len);

/*
 * A wrong command line for subcommand cmd: "cbenchctl cmd: <reason>; see
 * 'cbenchctl cmd --help'" on stderr (fmt NULL when the reason was said
 * already: then only where to look).  Returns CBENCH_EXIT_USAGE.
 */
int cbench_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif /* _CBENCH_ERROR_H */
