/* SPDX-License-Identifier: GPL-2.0 */
/* `cbenchctl plot` of an audit's JSON (`audit --format json`). */
#ifndef _CBENCH_PLOT_AUDIT_H
#define _CBENCH_PLOT_AUDIT_H

#include <stdio.h>

#include "report/json.h"

/* Whether root is an audit's JSON (an "audits" array). */
bool cbench_plot_is_audit(const struct cbench_json *root);

/*
 * Checks every audit has what the plot draws; 0, or -EINVAL with the
 * reason in err.
 */
int cbench_plot_audit_check(const struct cbench_json *root, char *err, size_t errlen);

/*
 * The page of one audit's JSON or several: every audit's change of B
 * against A, in percent, with its confidence interval, in one forest
 * sorted by change over the first file's +-min_effect band, and the
 * verdicts; labels name the files.
 */
int cbench_plot_audit_page(FILE *f, const char *const labels[], const struct cbench_json *const roots[], size_t n);

#endif /* _CBENCH_PLOT_AUDIT_H */
