// SPDX-License-Identifier: GPL-2.0
/* Taking runs out of the store; see remove.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "store/remove.h"
#include "store/store.h"

/* Says each run that id or commit selects on f; their count into *n. */
static int say(struct cbench_store *s, long long id, const char *commit, FILE *f, size_t *n)
{
	struct cbench_store_stmt *q = cbench_store_query(s,
		"SELECT r.id, r.ord, r.commit_id, r.object, m.name, r.backend, r.date FROM run r "
		"JOIN machine m ON m.id = r.machine WHERE (CAST(?1 AS TEXT) IS NULL AND r.id = ?2) OR "
		"r.commit_id = ?1 ORDER BY r.id", "ti", commit, id);

	*n = 0;
	while (cbench_store_step(q) > 0) {
		fprintf(f, "run %lld removed: order %lld, commit %s, %s on %s (%s backend), measured %s\n",
			cbench_store_int(q, 0), cbench_store_int(q, 1), cbench_store_text(q, 2),
			cbench_store_text(q, 3), cbench_store_text(q, 4), cbench_store_text(q, 5),
			cbench_store_text(q, 6));
		(*n)++;
	}
	return cbench_store_end(q);
}

int cbench_store_remove(const char *path, long long id, const char *commit, FILE *f, char *err,
			size_t errlen)
{
	struct cbench_store s;
	size_t n;
	int ret = cbench_store_open(&s, path, true, err, errlen);

	if (ret)
		return ret;
	ret = cbench_store_begin(&s, err, errlen);
	ret = ret ? ret : say(&s, id, commit, f, &n);
	if (!ret && !n) {
		if (commit)
			snprintf(err, errlen, "no run of commit %s is in %s", commit, path);
		else
			snprintf(err, errlen, "no run %lld is in %s (store list shows its runs)", id, path);
		ret = -ENOENT;
	}
	if (!ret) {
		ret = cbench_store_exec(&s, "DELETE FROM run WHERE (CAST(?1 AS TEXT) IS NULL AND id = ?2) OR "
					"commit_id = ?1", "ti", commit, id);
	}
	if (ret == -EIO)
		ret = cbench_store_error(&s, "cannot remove", err, errlen);
	if (ret)
		cbench_store_rollback(&s);
	else
		ret = cbench_store_commit(&s, err, errlen);
	cbench_store_close(&s);
	return ret;
}
