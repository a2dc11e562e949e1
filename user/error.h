/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reporting errors: every message on stderr begins with the program's name,
 * and a message built in a buffer before it is printed fits in
 * CBENCH_ERR_LEN bytes.
 */
#ifndef _CBENCH_ERROR_H
#define _CBENCH_ERROR_H

#define CBENCH_ERR_LEN 512

extern const char *cbench_prog;

/* "cbenchctl: " and the message, on stderr; fmt ends the line itself. */
void cbench_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* _CBENCH_ERROR_H */
