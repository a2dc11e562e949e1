/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The results store: runs, each with its machine, the commit and order it
 * measured, the object's build ID (and, if kept, a copy of the object),
 * and per benchmark the figures history needs: the headline, its
 * uncertainty and each trial's value.  A series is one benchmark of one
 * object (by its file name) measured by one backend on one machine, in
 * order.  Since schema 2 it also holds a lab's queue of work (store/queue.h)
 * and objects by build ID.
 *
 * Two databases hold it, by the same schema and the same code: one SQLite
 * file (no server, for one machine), or a PostgreSQL database named by a
 * libpq URL ("postgresql://host/db", for a fleet).  The SQL the store
 * speaks is SQLite's, with '?' parameters; the PostgreSQL driver
 * (store/db_pg.c) translates what differs.
 *
 * The store says what it is: SQLite's application_id and user_version,
 * or PostgreSQL's table cbench_store, hold CBENCH_STORE_APPLICATION_ID and
 * the schema's version, so a foreign database is refused and an older one
 * migrated.  Every write is one transaction taken at its start, one writer
 * at a time (SQLite's BEGIN IMMEDIATE; an advisory lock on PostgreSQL), and
 * a writer that finds the store locked waits up to CBENCH_STORE_BUSY_MS:
 * concurrent writers queue, none loses its run.
 */
#ifndef _CBENCH_STORE_H
#define _CBENCH_STORE_H

#include <stdbool.h>
#include <stddef.h>

#include "store/db.h"

/* "cbHi" in the file's header (offset 68), as `file` would show it. */
#define CBENCH_STORE_APPLICATION_ID 0x63624869
/* The schema this cbenchctl writes; older ones are migrated on open. */
#define CBENCH_STORE_SCHEMA_VERSION 2

/* Whether path names a PostgreSQL database (postgres:// or postgresql://). */
bool cbench_store_is_url(const char *path);

/*
 * Opens the store at path: to write (created if missing, an empty file or
 * database taken as new, an older schema migrated) or only to read (it
 * must exist).  Refuses what is not a cbench store: another database, a
 * file that is not one at all, one cut short or damaged (SQLite's
 * quick_check), one of a newer schema, a URL with a password in it (libpq
 * takes it from ~/.pgpass, PGPASSFILE or PGPASSWORD).  Returns 0, or
 * -errno with a sentence in err: -ENOENT, -EINVAL (not a store, or
 * damaged), -EPROTO (newer schema), -ECONNREFUSED (no server), -EIO.
 */
int cbench_store_open(struct cbench_store *s, const char *path, bool write, char *err,
		      size_t errlen);
void cbench_store_close(struct cbench_store *s);

/* A write transaction, one writer at a time (waiting for the others),
 * then COMMIT or ROLLBACK.  0, or -EIO / -EBUSY with the reason in err. */
int cbench_store_begin(struct cbench_store *s, char *err, size_t errlen);
/* A transaction that does not wait for other writers on PostgreSQL (its
 * rows are locked one by one): the queue's claims and leases. */
int cbench_store_begin_rows(struct cbench_store *s, char *err, size_t errlen);
int cbench_store_commit(struct cbench_store *s, char *err, size_t errlen);
void cbench_store_rollback(struct cbench_store *s);

/*
 * Runs sql with its parameters bound from fmt, one letter each: 't' a
 * string (NULL binds NULL), 'i' a long long, 'd' a double (NAN binds
 * NULL), 'b' a blob (a const void * and a size_t).  NULL on error (then
 * cbench_store_error() says it).  Its rows are read with
 * cbench_store_step() and the column readers; cbench_store_end() frees it.
 */
struct cbench_store_stmt *cbench_store_query(struct cbench_store *s, const char *sql,
					     const char *fmt, ...);
/* 1: a row is there to read; 0: no more; -EIO: an error. */
int cbench_store_step(struct cbench_store_stmt *q);
/* Column i of the row: its text (NULL for NULL), integer, number (NAN
 * for NULL), or blob (malloc'd into *data, its size in *len; -ENOMEM). */
const char *cbench_store_text(struct cbench_store_stmt *q, int i);
long long cbench_store_int(struct cbench_store_stmt *q, int i);
double cbench_store_double(struct cbench_store_stmt *q, int i);
bool cbench_store_null(struct cbench_store_stmt *q, int i);
int cbench_store_blob(struct cbench_store_stmt *q, int i, void **data, size_t *len);
/* Frees q (NULL is fine); 0 if every step succeeded, else -EIO. */
int cbench_store_end(struct cbench_store_stmt *q);

/* A statement that returns no rows (or whose rows do not matter): 0, or -EIO. */
int cbench_store_exec(struct cbench_store *s, const char *sql, const char *fmt, ...);
/* The first column of the first row as text into out ("" for none or
 * NULL): 0, or -EIO. */
int cbench_store_value(struct cbench_store *s, char *out, size_t len, const char *sql,
		       const char *fmt, ...);

/* The database's last error on s as -EIO (-EBUSY when locked), said in err. */
int cbench_store_error(struct cbench_store *s, const char *doing, char *err, size_t errlen);

/* Now, in UTC, as the store writes its dates: "2026-11-28T08:00:00Z". */
void cbench_store_now(char *out, size_t len);

/* Whether s is on PostgreSQL (for the few statements the dialects spell apart). */
bool cbench_store_on_server(const struct cbench_store *s);

#endif /* _CBENCH_STORE_H */
