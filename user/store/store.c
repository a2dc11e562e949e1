// SPDX-License-Identifier: GPL-2.0
/* The results store's file: opening, checking, creating, migrating; see store.h. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/store.h"

/*
 * Schema 1.  A run is one report added; its machine is shared with the
 * other runs of that machine; its fingerprint (store/run.h) tells the same
 * run added twice; result holds per benchmark and metric the
 * run's headline (value), its relative standard uncertainty u (NULL when
 * unknown), the least and greatest trial and how many trials had it, and
 * trial each trial's value.  Figures are per op in the metric's unit: ns
 * for "ns", cycles for "est-cycles", and so on (store/report_read.c).
 */
static const char schema_v1[] =
	"CREATE TABLE machine ("
	" id INTEGER PRIMARY KEY,"
	" name TEXT NOT NULL,"
	" cpu TEXT NOT NULL,"
	" cpu_count INTEGER NOT NULL,"
	" UNIQUE (name, cpu, cpu_count));"
	"CREATE TABLE run ("
	" id INTEGER PRIMARY KEY,"
	" machine INTEGER NOT NULL REFERENCES machine (id),"
	" object TEXT NOT NULL,"
	" backend TEXT NOT NULL,"
	" commit_id TEXT NOT NULL,"
	" ord INTEGER NOT NULL,"
	" build_id TEXT NOT NULL,"
	" date TEXT NOT NULL,"
	" kernel TEXT NOT NULL,"
	" cbench_version TEXT NOT NULL,"
	" source TEXT NOT NULL,"
	" fingerprint TEXT NOT NULL,"
	" object_copy TEXT,"
	" note TEXT,"
	" added TEXT NOT NULL);"
	"CREATE INDEX run_series ON run (object, backend, machine, ord);"
	"CREATE INDEX run_commit ON run (commit_id);"
	"CREATE INDEX run_fingerprint ON run (fingerprint);"
	"CREATE TABLE result ("
	" run INTEGER NOT NULL REFERENCES run (id) ON DELETE CASCADE,"
	" benchmark TEXT NOT NULL,"
	" metric TEXT NOT NULL,"
	" value REAL NOT NULL,"
	" u REAL,"
	" lower REAL NOT NULL,"
	" upper REAL NOT NULL,"
	" trials INTEGER NOT NULL,"
	" PRIMARY KEY (run, benchmark, metric)) WITHOUT ROWID;"
	"CREATE TABLE trial ("
	" run INTEGER NOT NULL,"
	" benchmark TEXT NOT NULL,"
	" metric TEXT NOT NULL,"
	" k INTEGER NOT NULL,"
	" value REAL NOT NULL,"
	" PRIMARY KEY (run, benchmark, metric, k),"
	" FOREIGN KEY (run, benchmark, metric) REFERENCES result ON DELETE CASCADE) WITHOUT ROWID;";

int cbench_store_error(struct cbench_store *s, const char *doing, char *err, size_t errlen)
{
	int code = s->db ? sqlite3_errcode(s->db) : SQLITE_ERROR;

	snprintf(err, errlen, "%s: %s", doing, s->db ? sqlite3_errmsg(s->db) : "no database");
	return code == SQLITE_BUSY || code == SQLITE_LOCKED ? -EBUSY : -EIO;
}

sqlite3_stmt *cbench_store_prepare(struct cbench_store *s, const char *sql, const char *fmt, ...)
{
	sqlite3_stmt *st;
	va_list ap;
	int rc = SQLITE_OK;

	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return NULL;
	va_start(ap, fmt);
	for (int i = 1; rc == SQLITE_OK && fmt[i - 1]; i++) {
		const char *t;
		double d;

		switch (fmt[i - 1]) {
		case 't':
			t = va_arg(ap, const char *);
			rc = t ? sqlite3_bind_text(st, i, t, -1, SQLITE_TRANSIENT) : sqlite3_bind_null(st, i);
			break;
		case 'i':
			rc = sqlite3_bind_int64(st, i, va_arg(ap, long long));
			break;
		default:
			d = va_arg(ap, double);
			rc = isnan(d) ? sqlite3_bind_null(st, i) : sqlite3_bind_double(st, i, d);
			break;
		}
	}
	va_end(ap);
	if (rc != SQLITE_OK) {
		sqlite3_finalize(st);
		return NULL;
	}
	return st;
}

/* One integer a PRAGMA returns. */
static int pragma_int(struct cbench_store *s, const char *sql, long long *v)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);

	if (rc != SQLITE_OK)
		return rc;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*v = sqlite3_column_int64(st, 0);
		rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	return rc;
}

/* SQLite's quick_check: "ok", or what it found. */
static int quick_check(struct cbench_store *s, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(s->db, "PRAGMA quick_check(1)", -1, &st, NULL);

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
			 sqlite3_errmsg(s->db));
		return -EINVAL;
	}
	return 0;
}

int cbench_store_begin(struct cbench_store *s, char *err, size_t errlen)
{
	if (sqlite3_exec(s->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
		return cbench_store_error(s, "cannot start a transaction", err, errlen);
	return 0;
}

int cbench_store_commit(struct cbench_store *s, char *err, size_t errlen)
{
	int ret;

	if (sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK)
		return 0;
	ret = cbench_store_error(s, "cannot commit", err, errlen);
	cbench_store_rollback(s);
	return ret;
}

void cbench_store_rollback(struct cbench_store *s)
{
	if (!sqlite3_get_autocommit(s->db))
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
}

/*
 * A new store: the schema and the file's marks, in one transaction, taken
 * before looking again (another writer may have just created it).
 */
static int create(struct cbench_store *s, char *err, size_t errlen)
{
	char sql[128];
	long long app = 0, version = 0;
	int ret = cbench_store_begin(s, err, errlen);

	if (ret)
		return ret;
	if (pragma_int(s, "PRAGMA application_id", &app) != SQLITE_OK ||
	    pragma_int(s, "PRAGMA user_version", &version) != SQLITE_OK) {
		ret = cbench_store_error(s, "cannot read the store's header", err, errlen);
		goto out;
	}
	if (app || version) {
		/* Made meanwhile by another writer: checked by our caller. */
		cbench_store_rollback(s);
		return 0;
	}
	snprintf(sql, sizeof(sql), "PRAGMA application_id = %d; PRAGMA user_version = %d;",
		 CBENCH_STORE_APPLICATION_ID, CBENCH_STORE_SCHEMA_VERSION);
	if (sqlite3_exec(s->db, schema_v1, NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_exec(s->db, sql, NULL, NULL, NULL) != SQLITE_OK) {
		ret = cbench_store_error(s, "cannot create the store", err, errlen);
		goto out;
	}
	return cbench_store_commit(s, err, errlen);
out:
	cbench_store_rollback(s);
	return ret;
}

/* Whether the database holds any table: an empty one may become a store. */
static int has_tables(struct cbench_store *s, bool *any)
{
	long long n = 0;
	int rc = pragma_int(s, "SELECT count(*) FROM sqlite_master", &n);

	*any = n > 0;
	return rc;
}

/* The header's marks: a store of a schema we know (migrated if older). */
static int check(struct cbench_store *s, char *err, size_t errlen)
{
	long long app = 0, version = 0;
	bool any;
	int ret;

	/* One snapshot: a writer may be creating the store meanwhile. */
	if (sqlite3_exec(s->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK ||
	    pragma_int(s, "PRAGMA application_id", &app) != SQLITE_OK ||
	    pragma_int(s, "PRAGMA user_version", &version) != SQLITE_OK ||
	    has_tables(s, &any) != SQLITE_OK) {
		int code = sqlite3_errcode(s->db);

		snprintf(err, errlen, code == SQLITE_BUSY || code == SQLITE_LOCKED ?
			 "%s is locked by another writer (SQLite: %s)" :
			 "%s is not a cbench store (SQLite: %s)", s->path, sqlite3_errmsg(s->db));
		cbench_store_rollback(s);
		return code == SQLITE_BUSY || code == SQLITE_LOCKED ? -EBUSY : -EINVAL;
	}
	cbench_store_rollback(s);
	if (!app && !version && !any && s->writable) {
		ret = create(s, err, errlen);
		return ret ? ret : check(s, err, errlen);
	}
	if (app != CBENCH_STORE_APPLICATION_ID) {
		snprintf(err, errlen, "%s is %s, not a cbench store", s->path,
			 any ? "another application's SQLite database" : "an empty SQLite database");
		return -EINVAL;
	}
	if (version > CBENCH_STORE_SCHEMA_VERSION || version < 1) {
		snprintf(err, errlen, "%s is a store of schema %lld; this cbenchctl knows schema %d%s",
			 s->path, version, CBENCH_STORE_SCHEMA_VERSION,
			 version > CBENCH_STORE_SCHEMA_VERSION ? " (a newer cbenchctl wrote it)" : "");
		return -EPROTO;
	}
	/* Schema 1 is the first: nothing to migrate yet.  A later schema
	 * migrates here, in one transaction, step by step. */
	return quick_check(s, err, errlen);
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

int cbench_store_open(struct cbench_store *s, const char *path, bool write, char *err,
		      size_t errlen)
{
	int flags = write ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY;
	int ret;

	memset(s, 0, sizeof(*s));
	snprintf(s->path, sizeof(s->path), "%s", path);
	s->writable = write;
	ret = check_file(path, write, err, errlen);
	if (ret)
		return ret;
	if (sqlite3_open_v2(path, &s->db, flags, NULL) != SQLITE_OK) {
		ret = cbench_store_error(s, "cannot open the store", err, errlen);
		cbench_store_close(s);
		return ret;
	}
	sqlite3_busy_timeout(s->db, CBENCH_STORE_BUSY_MS);
	sqlite3_extended_result_codes(s->db, 0);
	if (sqlite3_exec(s->db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL) != SQLITE_OK) {
		ret = cbench_store_error(s, path, err, errlen);
		cbench_store_close(s);
		return ret;
	}
	ret = check(s, err, errlen);
	if (ret)
		cbench_store_close(s);
	return ret;
}

void cbench_store_close(struct cbench_store *s)
{
	if (s->db)
		sqlite3_close(s->db);
	s->db = NULL;
}
