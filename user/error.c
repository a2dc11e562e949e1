// SPDX-License-Identifier: GPL-2.0
/* Reporting errors; see error.h. */
#include <stdarg.h>
#include <stdio.h>

#include "error.h"

const char *cbench_prog = "cbenchctl";

void cbench_err(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", cbench_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}
