/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The results store: one SQLite file (no server) holding runs, each with
 * its machine, the commit and order it measured, the object's build ID
 * (and, if kept, a copy of the object), and per benchmark the figures
 * history needs: the headline, its uncertainty and each trial's value.
 * A series is one benchmark of one object (by its file name) measured by
 * one backend on one machine, in order.
 *
 * The file says what it is: SQLite's application_id is
 * CBENCH_STORE_APPLICATION_ID and its user_version the schema's version,
 * so a foreign database is refused and an older one migrated.  Every write
 * is one transaction taken at its start (BEGIN IMMEDIATE), and a writer
 * that finds the file locked waits up to CBENCH_STORE_BUSY_MS: concurrent
 * writers queue, none loses its run.
 */
#ifndef _CBENCH_STORE_H
#define _CBENCH_STORE_H

#include <stdbool.h>
#include <stddef.h>

/* "cbHi" in the file's header (offset 68), as `file` would show it. */
#define CBENCH_STORE_APPLICATION_ID 0x63624869
/* The schema this cbenchctl writes; older ones are migrated on open. */
#define CBENCH_STORE_SCHEMA_VERSION 1
/* How long a writer waits for another's transaction, in milliseconds. */
#define CBENCH_STORE_BUSY_MS 60000

struct sqlite3;

struct cbench_store {
	struct sqlite3 *db;
	char path[4096];
	bool writable;
};

/*
 * Opens the store at path: to write (created if missing, an empty file
 * taken as new) or only to read (it must exist).  Refuses what is not a
 * cbench store: another SQLite database, a file that is not one at all,
 * one cut short or damaged (SQLite's quick_check), one of a newer schema.
 * Returns 0, or -errno with a sentence in err: -ENOENT, -EINVAL (not a
 * store, or damaged), -EPROTO (newer schema), -EIO.
 */
int cbench_store_open(struct cbench_store *s, const char *path, bool write, char *err,
		      size_t errlen);
void cbench_store_close(struct cbench_store *s);

/* A write transaction: BEGIN IMMEDIATE (waiting for other writers), then
 * COMMIT or ROLLBACK.  0, or -EIO / -EBUSY with SQLite's reason in err. */
int cbench_store_begin(struct cbench_store *s, char *err, size_t errlen);
int cbench_store_commit(struct cbench_store *s, char *err, size_t errlen);
void cbench_store_rollback(struct cbench_store *s);

/*
 * A statement of sql with its parameters bound from fmt, one letter each:
 * 't' a string (NULL binds NULL), 'i' a long long, 'd' a double (NAN binds
 * NULL).  NULL on error (then cbench_store_error() says it).
 */
struct sqlite3_stmt *cbench_store_prepare(struct cbench_store *s, const char *sql, const char *fmt,
					  ...);

/* SQLite's last error on s as -EIO (-EBUSY when locked), said in err. */
int cbench_store_error(struct cbench_store *s, const char *doing, char *err, size_t errlen);

#endif /* _CBENCH_STORE_H */
