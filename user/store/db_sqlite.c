// SPDX-License-Identifier: GPL-2.0
/*
 * The store in one SQLite file: the embedded default, for one machine.
 * Its marks are the file header's application_id and user_version; a
 * writer takes the file at once (BEGIN IMMEDIATE) and waits for another's
 * transaction up to CBENCH_STORE_BUSY_MS.
 */
#include <errno.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/db.h"

static sqlite3 *db(struct cbench_store *s)
{
	return s->db;
}

static const char *errmsg(struct cbench_store *s)
{
	return s->msg[0] ? s->msg : sqlite3_errmsg(db(s));
}

/* Keeps SQLite's words (a rollback after would reset them) and whether the
 * error was a lock: -EIO either way. */
static int failed(struct cbench_store *s, int rc)
{
	snprintf(s->msg, sizeof(s->msg), "%s", sqlite3_errmsg(db(s)));
	s->busy = rc == SQLITE_BUSY || rc == SQLITE_LOCKED;
	return -EIO;
}

static struct cbench_store_stmt *query(struct cbench_store *s, const char *sql, const char *fmt,
				       va_list ap)
{
	struct cbench_store_stmt *q = calloc(1, sizeof(*q));
	sqlite3_stmt *st = NULL;
	int rc;

	if (!q)
		return NULL;
	rc = sqlite3_prepare_v2(db(s), sql, -1, &st, NULL);
	for (int i = 1; rc == SQLITE_OK && fmt[i - 1]; i++) {
		const char *t;
		const void *b;
		double d;

		switch (fmt[i - 1]) {
		case 't':
			t = va_arg(ap, const char *);
			rc = t ? sqlite3_bind_text(st, i, t, -1, SQLITE_TRANSIENT) : sqlite3_bind_null(st, i);
			break;
		case 'i':
			rc = sqlite3_bind_int64(st, i, va_arg(ap, long long));
			break;
		case 'b':
			b = va_arg(ap, const void *);
			rc = sqlite3_bind_blob64(st, i, b, va_arg(ap, size_t), SQLITE_STATIC);
			break;
		default:
			d = va_arg(ap, double);
			rc = isnan(d) ? sqlite3_bind_null(st, i) : sqlite3_bind_double(st, i, d);
			break;
		}
	}
	if (rc != SQLITE_OK) {
		failed(s, rc);
		sqlite3_finalize(st);
		free(q);
		return NULL;
	}
	q->s = s;
	q->st = st;
	return q;
}

static int step(struct cbench_store_stmt *q)
{
	int rc = sqlite3_step(q->st);

	if (rc == SQLITE_ROW)
		return 1;
	return rc == SQLITE_DONE ? 0 : failed(q->s, rc);
}

static const char *text(struct cbench_store_stmt *q, int i)
{
	return (const char *)sqlite3_column_text(q->st, i);
}

static long long integer(struct cbench_store_stmt *q, int i)
{
	return sqlite3_column_int64(q->st, i);
}

static double number(struct cbench_store_stmt *q, int i)
{
	return sqlite3_column_double(q->st, i);
}

static bool null(struct cbench_store_stmt *q, int i)
{
	return sqlite3_column_type(q->st, i) == SQLITE_NULL;
}

static int blob(struct cbench_store_stmt *q, int i, void **data, size_t *len)
{
	const void *b = sqlite3_column_blob(q->st, i);

	*len = (size_t)sqlite3_column_bytes(q->st, i);
	*data = malloc(*len ? *len : 1);
	if (!*data)
		return -ENOMEM;
	if (*len)
		memcpy(*data, b, *len);
	return 0;
}

static void end(struct cbench_store_stmt *q)
{
	sqlite3_finalize(q->st);
	free(q);
}

/* One integer a statement returns. */
static int one(struct cbench_store *s, const char *sql, long long *v)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db(s), sql, -1, &st, NULL);

	if (rc != SQLITE_OK)
		return failed(s, rc);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*v = sqlite3_column_int64(st, 0);
		rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_OK ? 0 : failed(s, rc);
}

static int marks(struct cbench_store *s, long long *app, long long *version, bool *tables)
{
	long long n = 0;
	int ret;

	/* One snapshot: a writer may be creating the store meanwhile. */
	if (sqlite3_get_autocommit(db(s)) && sqlite3_exec(db(s), "BEGIN", NULL, NULL, NULL) == SQLITE_OK) {
		ret = marks(s, app, version, tables);
		sqlite3_exec(db(s), "ROLLBACK", NULL, NULL, NULL);
		return ret;
	}
	ret = one(s, "PRAGMA application_id", app);
	ret = ret ? ret : one(s, "PRAGMA user_version", version);
	ret = ret ? ret : one(s, "SELECT count(*) FROM sqlite_master", &n);
	*tables = n > 0;
	return ret;
}

static int set_marks(struct cbench_store *s, long long app, long long version)
{
	char sql[128];
	int rc;

	snprintf(sql, sizeof(sql), "PRAGMA application_id = %lld; PRAGMA user_version = %lld;", app,
		 version);
	rc = sqlite3_exec(db(s), sql, NULL, NULL, NULL);
	return rc == SQLITE_OK ? 0 : failed(s, rc);
}

static int ddl(struct cbench_store *s, const char *sql)
{
	int rc = sqlite3_exec(db(s), sql, NULL, NULL, NULL);

	return rc == SQLITE_OK ? 0 : failed(s, rc);
}

/* SQLite's quick_check: "ok", or what it found. */
static int integrity(struct cbench_store *s, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db(s), "PRAGMA quick_check(1)", -1, &st, NULL);

	if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *r = (const char *)sqlite3_column_text(st, 0);

		if (r && strcmp(r, "ok")) {
			snprintf(err, errlen, "%s is damaged (SQLite: %s)", s->path, r);
			sqlite3_finalize(st);
			return -EINVAL;
		}
		rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_OK && rc != SQLITE_DONE) {
		snprintf(err, errlen, "%s is not a cbench store, or is damaged (SQLite: %s)", s->path,
			 sqlite3_errmsg(db(s)));
		return -EINVAL;
	}
	return 0;
}

/*
 * To write, the store's directory must exist and take files (SQLite
 * writes its journal beside the store); -errno said in err.
 */
static int check_dir(const char *path, char *err, size_t errlen)
{
	char dir[4096];
	const char *slash = strrchr(path, '/');
	struct stat st;

	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) + (slash == path) : 1,
		 slash ? path : ".");
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "cannot make the store %s: its directory %s does not exist", path, dir);
		return -ENOENT;
	}
	if (access(dir, W_OK | X_OK)) {
		snprintf(err, errlen, "cannot write the store %s: its directory %s is not writable (%s), "
			 "and SQLite writes its journal beside the store", path, dir, strerror(errno));
		return -EACCES;
	}
	return 0;
}

/* A file that exists must be a regular one (writable, to write); -errno said in err. */
static int check_file(const char *path, bool write, char *err, size_t errlen)
{
	struct stat st;

	if (stat(path, &st)) {
		if (errno == ENOENT && write)
			return check_dir(path, err, errlen);
		snprintf(err, errlen, errno == ENOENT ? "there is no store %s (the first add makes it)" :
			 "cannot read the store %s: %s", path, strerror(errno));
		return -errno;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s is not a regular file", path);
		return -EINVAL;
	}
	if (write && access(path, W_OK)) {
		snprintf(err, errlen, "cannot write the store %s: %s", path, strerror(errno));
		return -EACCES;
	}
	return write ? check_dir(path, err, errlen) : 0;
}

static void close_db(struct cbench_store *s)
{
	sqlite3_close(db(s));
}

static int open_db(struct cbench_store *s, const char *path, bool write, char *err, size_t errlen)
{
	int flags = write ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY;
	sqlite3 *d = NULL;
	int ret = check_file(path, write, err, errlen);

	if (ret)
		return ret;
	if (sqlite3_open_v2(path, &d, flags, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "cannot open the store %s: %s", path,
			 d ? sqlite3_errmsg(d) : "out of memory");
		sqlite3_close(d);
		return -EIO;
	}
	sqlite3_busy_timeout(d, CBENCH_STORE_BUSY_MS);
	sqlite3_extended_result_codes(d, 0);
	if (sqlite3_exec(d, "PRAGMA foreign_keys = ON", NULL, NULL, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "%s: %s", path, sqlite3_errmsg(d));
		sqlite3_close(d);
		return -EIO;
	}
	s->db = d;
	return 0;
}

const struct cbench_store_driver cbench_store_sqlite = {
	.name = "SQLite",
	.open = open_db,
	.close = close_db,
	.query = query,
	.step = step,
	.text = text,
	.integer = integer,
	.number = number,
	.null = null,
	.blob = blob,
	.end = end,
	.errmsg = errmsg,
	.marks = marks,
	.set_marks = set_marks,
	.ddl = ddl,
	.integrity = integrity,
	.begin = "BEGIN IMMEDIATE",
	.begin_rows = "BEGIN IMMEDIATE",
};
