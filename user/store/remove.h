/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Taking runs out of the store (`store remove`): one run by its id, or
 * every run of a commit, in one transaction, each with its results and
 * trials.  What does not exist is refused, the store left as it was.
 */
#ifndef _CBENCH_STORE_REMOVE_H
#define _CBENCH_STORE_REMOVE_H

#include <stdio.h>

/*
 * Removes run id (commit NULL) or every run of commit from the store at
 * path, saying on f what went, a line a run.  0, or -errno with why in
 * err: -ENOENT when no such run or commit is there.
 */
int cbench_store_remove(const char *path, long long id, const char *commit, FILE *f, char *err,
			size_t errlen);

#endif /* _CBENCH_STORE_REMOVE_H */
