/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A run's report in the Go benchmark data format, read back as the JSON
 * report's shape, so `plot` draws either: the configuration lines cbench
 * writes (cpu, kernel, backend, cbench-version, and the "# so:" note) and
 * one trial per result line, with its ns/op.  Go text keeps one figure per
 * trial, so each trial's min, median and max are that figure.
 */
#ifndef _CBENCH_RESULTS_GO_READ_H
#define _CBENCH_RESULTS_GO_READ_H

#include <stddef.h>

#include "report/json.h"

/*
 * Parses text[0..len) into *out (free with cbench_json_free).  0, -ENOMEM,
 * or -EINVAL (no result line with ns/op) with why in err.
 */
int cbench_go_read(const char *text, size_t len, struct cbench_json **out, char *err,
		   size_t err_bytes);

#endif /* _CBENCH_RESULTS_GO_READ_H */
