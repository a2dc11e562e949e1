// SPDX-License-Identifier: GPL-2.0
/* --filter; see select.h. */
#include <errno.h>
#include <stdio.h>

#include "session/select.h"
#include "error.h"

int cbench_filter_init(struct cbench_filter *f, const char *pattern)
{
	char why[CBENCH_ERR_LEN];
	int ret;

	f->pattern = pattern;
	if (!pattern)
		return 0;
	ret = regcomp(&f->re, pattern, REG_EXTENDED | REG_NOSUB);
	if (!ret)
		return 0;
	regerror(ret, &f->re, why, sizeof(why));
	cbench_err("unable to use --filter '%s': %s\n", pattern, why);
	f->pattern = NULL;
	return -EINVAL;
}

bool cbench_filter_match(const struct cbench_filter *f, const struct cbench_experiment *e)
{
	if (!f->pattern)
		return true;
	return !regexec(&f->re, e->id, 0, NULL, 0) || !regexec(&f->re, e->report_name, 0, NULL, 0);
}

size_t cbench_filter_count(const struct cbench_filter *f, const struct cbench_library *lib)
{
	size_t n = 0;

	for (size_t i = 0; i < lib->nexperiments; i++)
		n += cbench_filter_match(f, &lib->experiments[i]);
	return n;
}

void cbench_filter_free(struct cbench_filter *f)
{
	if (f->pattern)
		regfree(&f->re);
	f->pattern = NULL;
}
