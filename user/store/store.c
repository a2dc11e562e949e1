// SPDX-License-Identifier: GPL-2.0
/* The results store: opening, checking, creating, migrating, and the
 * statements every part of store/ runs, whichever database; see store.h. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "store/store.h"

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

/*
 * Schema 2: a lab's queue of work and the objects it measures (store/queue.h).
 * An object is kept once by its build ID; a job measures one (kind "run":
 * its commit and order) or audits two against each other (kind
 * "confirm"), on a machine that fits (cpu and host, NULL for any), with
 * run's or audit's options, one per line.  A job is queued, then running
 * under a lease (until the database's clock reads lease, in seconds since
 * 1970) held by the claim numbered claims, then done or failed; a job
 * whose lease ran out is claimed again (lapses counts how often), and only
 * the claim that holds it may finish it.  A build is an object kept for a
 * commit not yet measured (by its file name and order), for the jobs that
 * narrow a change point (lab queue next).
 */
static const char schema_v2[] =
	"CREATE TABLE object ("
	" build_id TEXT PRIMARY KEY,"
	" name TEXT NOT NULL,"
	" size INTEGER NOT NULL,"
	" data BLOB NOT NULL,"
	" added TEXT NOT NULL);"
	"CREATE TABLE job ("
	" id INTEGER PRIMARY KEY,"
	" kind TEXT NOT NULL,"
	" object TEXT NOT NULL REFERENCES object (build_id),"
	" object_b TEXT REFERENCES object (build_id),"
	" commit_id TEXT,"
	" ord INTEGER,"
	" args TEXT NOT NULL,"
	" cpu TEXT,"
	" host TEXT,"
	" state TEXT NOT NULL,"
	" worker TEXT,"
	" lease INTEGER,"
	" claims INTEGER NOT NULL,"
	" lapses INTEGER NOT NULL DEFAULT 0,"
	" run INTEGER REFERENCES run (id) ON DELETE SET NULL,"
	" result TEXT,"
	" error TEXT,"
	" added TEXT NOT NULL,"
	" started TEXT,"
	" finished TEXT);"
	"CREATE INDEX job_state ON job (state, id);"
	"CREATE TABLE build ("
	" object TEXT NOT NULL,"
	" ord INTEGER NOT NULL,"
	" commit_id TEXT NOT NULL,"
	" build_id TEXT NOT NULL REFERENCES object (build_id),"
	" added TEXT NOT NULL,"
	" PRIMARY KEY (object, ord));";

/* The steps from each schema to the next: steps[v - 1] makes v. */
static const char *const steps[CBENCH_STORE_SCHEMA_VERSION] = { schema_v1, schema_v2 };

bool cbench_store_is_url(const char *path)
{
	return !strncmp(path, "postgresql://", 13) || !strncmp(path, "postgres://", 11);
}

void cbench_store_now(char *out, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(out, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

bool cbench_store_on_server(const struct cbench_store *s)
{
	return s->drv == &cbench_store_pg;
}

int cbench_store_error(struct cbench_store *s, const char *doing, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: %s", doing, s->db ? s->drv->errmsg(s) : "no database");
	return s->busy ? -EBUSY : -EIO;
}

struct cbench_store_stmt *cbench_store_query(struct cbench_store *s, const char *sql,
					     const char *fmt, ...)
{
	struct cbench_store_stmt *q;
	va_list ap;

	va_start(ap, fmt);
	q = s->drv->query(s, sql, fmt, ap);
	va_end(ap);
	return q;
}

int cbench_store_step(struct cbench_store_stmt *q)
{
	int r;

	if (!q)
		return -EIO;
	r = q->s->drv->step(q);
	if (r < 0)
		q->failed = true;
	return r;
}

const char *cbench_store_text(struct cbench_store_stmt *q, int i)
{
	return q->s->drv->text(q, i);
}

long long cbench_store_int(struct cbench_store_stmt *q, int i)
{
	return q->s->drv->integer(q, i);
}

double cbench_store_double(struct cbench_store_stmt *q, int i)
{
	return q->s->drv->null(q, i) ? NAN : q->s->drv->number(q, i);
}

bool cbench_store_null(struct cbench_store_stmt *q, int i)
{
	return q->s->drv->null(q, i);
}

int cbench_store_blob(struct cbench_store_stmt *q, int i, void **data, size_t *len)
{
	return q->s->drv->blob(q, i, data, len);
}

int cbench_store_end(struct cbench_store_stmt *q)
{
	bool failed;

	if (!q)
		return -EIO;
	failed = q->failed;
	q->s->drv->end(q);
	return failed ? -EIO : 0;
}

int cbench_store_exec(struct cbench_store *s, const char *sql, const char *fmt, ...)
{
	struct cbench_store_stmt *q;
	va_list ap;
	int r;

	va_start(ap, fmt);
	q = s->drv->query(s, sql, fmt, ap);
	va_end(ap);
	while ((r = cbench_store_step(q)) > 0)
		;
	return cbench_store_end(q) ? -EIO : r;
}

int cbench_store_value(struct cbench_store *s, char *out, size_t len, const char *sql,
		       const char *fmt, ...)
{
	struct cbench_store_stmt *q;
	va_list ap;

	out[0] = '\0';
	va_start(ap, fmt);
	q = s->drv->query(s, sql, fmt, ap);
	va_end(ap);
	if (cbench_store_step(q) > 0 && cbench_store_text(q, 0))
		snprintf(out, len, "%s", cbench_store_text(q, 0));
	return cbench_store_end(q);
}

static int begin(struct cbench_store *s, const char *sql, char *err, size_t errlen)
{
	int ret;

	if (!cbench_store_exec(s, sql, ""))
		return 0;
	/* PostgreSQL's BEGIN may have begun before its lock timed out. */
	ret = cbench_store_error(s, "cannot start a transaction", err, errlen);
	cbench_store_rollback(s);
	return ret;
}

int cbench_store_begin(struct cbench_store *s, char *err, size_t errlen)
{
	return begin(s, s->drv->begin, err, errlen);
}

int cbench_store_begin_rows(struct cbench_store *s, char *err, size_t errlen)
{
	return begin(s, s->drv->begin_rows, err, errlen);
}

int cbench_store_commit(struct cbench_store *s, char *err, size_t errlen)
{
	int ret;

	if (!cbench_store_exec(s, "COMMIT", ""))
		return 0;
	ret = cbench_store_error(s, "cannot commit", err, errlen);
	cbench_store_rollback(s);
	return ret;
}

void cbench_store_rollback(struct cbench_store *s)
{
	bool busy = s->busy;

	/* Outside a transaction, ROLLBACK fails harmlessly; keep the error
	 * that led here. */
	s->drv->ddl(s, "ROLLBACK");
	s->busy = busy;
}

/*
 * The schema from version `from` to the newest, and the marks, in one
 * transaction whose writer waits for any other (which may have just
 * created or migrated the store: the marks are read again inside).
 */
static int migrate(struct cbench_store *s, long long from, char *err, size_t errlen)
{
	long long app = 0, version = 0;
	bool tables;
	int ret = cbench_store_begin(s, err, errlen);

	if (ret)
		return ret;
	if (s->drv->marks(s, &app, &version, &tables)) {
		ret = cbench_store_error(s, "cannot read the store's marks", err, errlen);
		goto out;
	}
	if (version != from || (from && app != CBENCH_STORE_APPLICATION_ID) || (!from && tables)) {
		/* Made or migrated meanwhile by another writer: checked by our caller. */
		cbench_store_rollback(s);
		return 0;
	}
	for (long long v = from; v < CBENCH_STORE_SCHEMA_VERSION; v++) {
		if (s->drv->ddl(s, steps[v])) {
			ret = cbench_store_error(s, from ? "cannot migrate the store" :
						 "cannot create the store", err, errlen);
			goto out;
		}
	}
	if (s->drv->set_marks(s, CBENCH_STORE_APPLICATION_ID, CBENCH_STORE_SCHEMA_VERSION)) {
		ret = cbench_store_error(s, "cannot mark the store", err, errlen);
		goto out;
	}
	return cbench_store_commit(s, err, errlen);
out:
	cbench_store_rollback(s);
	return ret;
}

/* The marks: a store of a schema we know (made if new, migrated if older). */
static int check(struct cbench_store *s, bool again, char *err, size_t errlen)
{
	long long app = 0, version = 0;
	bool tables = false;
	int ret;

	if (s->drv->marks(s, &app, &version, &tables)) {
		snprintf(err, errlen, s->busy ? "%s is locked by another writer (%s)" :
			 "%s is not a cbench store (%s)", s->path, s->drv->errmsg(s));
		return s->busy ? -EBUSY : -EINVAL;
	}
	if (!app && !version && !tables && s->writable && !again) {
		ret = migrate(s, 0, err, errlen);
		return ret ? ret : check(s, true, err, errlen);
	}
	if (app != CBENCH_STORE_APPLICATION_ID) {
		snprintf(err, errlen, "%s is %s %s database, not a cbench store", s->path, tables ?
			 "another application's" : "an empty", s->drv->name);
		return -EINVAL;
	}
	if (version > CBENCH_STORE_SCHEMA_VERSION || version < 1) {
		snprintf(err, errlen, "%s is a store of schema %lld; this cbenchctl knows schema %d%s",
			 s->path, version, CBENCH_STORE_SCHEMA_VERSION,
			 version > CBENCH_STORE_SCHEMA_VERSION ? " (a newer cbenchctl wrote it)" : "");
		return -EPROTO;
	}
	if (version < CBENCH_STORE_SCHEMA_VERSION && s->writable && !again) {
		ret = migrate(s, version, err, errlen);
		return ret ? ret : check(s, true, err, errlen);
	}
	return s->drv->integrity ? s->drv->integrity(s, err, errlen) : 0;
}

int cbench_store_open(struct cbench_store *s, const char *path, bool write, char *err,
		      size_t errlen)
{
	int ret;

	memset(s, 0, sizeof(*s));
	snprintf(s->path, sizeof(s->path), "%s", path);
	s->writable = write;
	s->drv = cbench_store_is_url(path) ? &cbench_store_pg : &cbench_store_sqlite;
	ret = s->drv->open(s, path, write, err, errlen);
	if (ret)
		return ret;
	ret = check(s, false, err, errlen);
	if (ret)
		cbench_store_close(s);
	return ret;
}

void cbench_store_close(struct cbench_store *s)
{
	if (s->db)
		s->drv->close(s);
	s->db = NULL;
}
