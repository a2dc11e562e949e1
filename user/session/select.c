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

int cbench_filter_select(const struct cbench_filter *f, const struct cbench_library *lib,
			 const char *action, const char *path, size_t *total)
{
	size_t i = 0;

	*total = 0;
	while (cbench_filter_next(f, lib, &i))
		(*total)++;
	if (*total)
		return 0;
	if (f->pattern)
		cbench_err("unable to %s: no benchmark in %s matches '%s'\n", action, path, f->pattern);
	else
		cbench_err("unable to %s: %s registers no benchmark\n", action, path);
	return -ENOENT;
}

const struct cbench_experiment *cbench_filter_next(const struct cbench_filter *f,
						   const struct cbench_library *lib, size_t *i)
{
	while (*i < lib->nexperiments) {
		const struct cbench_experiment *e = &lib->experiments[(*i)++];

		if (cbench_filter_match(f, e))
			return e;
	}
	return NULL;
}

void cbench_filter_free(struct cbench_filter *f)
{
	if (f->pattern)
		regfree(&f->re);
	f->pattern = NULL;
}
