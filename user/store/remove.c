// SPDX-License-Identifier: GPL-2.0
/* Taking runs out of the store; see remove.h. */
#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

#include "store/remove.h"
#include "store/store.h"

/* Says each run that id or commit selects on f; their count into *n. */
static int say(struct cbench_store *s, long long id, const char *commit, FILE *f, size_t *n)
{
	sqlite3_stmt *st = cbench_store_prepare(s,
		"SELECT r.id, r.ord, r.commit_id, r.object, m.name, r.backend, r.date FROM run r "
		"JOIN machine m ON m.id = r.machine WHERE (?1 IS NULL AND r.id = ?2) OR r.commit_id = ?1 "
		"ORDER BY r.id", "ti", commit, id);
	int rc = SQLITE_ERROR;

	*n = 0;
	while (st && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		fprintf(f, "run %lld removed: order %lld, commit %s, %s on %s (%s backend), measured %s\n",
			(long long)sqlite3_column_int64(st, 0), (long long)sqlite3_column_int64(st, 1),
			sqlite3_column_text(st, 2), sqlite3_column_text(st, 3), sqlite3_column_text(st, 4),
			sqlite3_column_text(st, 5), sqlite3_column_text(st, 6));
		(*n)++;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -EIO;
}

int cbench_store_remove(const char *path, long long id, const char *commit, FILE *f, char *err,
			size_t errlen)
{
	struct cbench_store s;
	sqlite3_stmt *st;
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
		st = cbench_store_prepare(&s, "DELETE FROM run WHERE (?1 IS NULL AND id = ?2) OR commit_id = ?1",
					  "ti", commit, id);
		if (!st || sqlite3_step(st) != SQLITE_DONE)
			ret = -EIO;
		sqlite3_finalize(st);
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
