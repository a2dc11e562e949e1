// SPDX-License-Identifier: GPL-2.0
/* Reporting errors; see error.h. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "error.h"

const char *cbench_prog = "cbenchctl";

/* The last message cbench_err() said, its line end cut. */
static char last[CBENCH_ERR_LEN * 2];

void cbench_err(const char *fmt, ...)
{
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	vsnprintf(last, sizeof(last), fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s: ", cbench_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	n = strlen(last);
	while (n && last[n - 1] == '\n')
		last[--n] = '\0';
}

void cbench_err_take(char *buf, size_t len)
{
	if (len)
		snprintf(buf, len, "%s", last);
	last[0] = '\0';
}

int cbench_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	if (fmt) {
		fprintf(stderr, "%s %s: ", cbench_prog, cmd);
		va_start(ap, fmt);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
		fprintf(stderr, "; see '%s %s --help'\n", cbench_prog, cmd);
	} else {
		fprintf(stderr, "%s %s: see '%s %s --help' for what it takes\n", cbench_prog, cmd,
			cbench_prog, cmd);
	}
	return CBENCH_EXIT_USAGE;
}
