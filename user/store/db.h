/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The store's connection and its drivers: a database, and what SQLite
 * (db_sqlite.c) or PostgreSQL (db_pg.c) does for store.c.  Only store.h
 * and the drivers include this; the rest of cbenchctl goes by store.h.
 */
#ifndef _CBENCH_STORE_DB_H
#define _CBENCH_STORE_DB_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

/* How long a writer waits for another's transaction, in milliseconds. */
#define CBENCH_STORE_BUSY_MS 60000

struct cbench_store_driver;

struct cbench_store {
	const struct cbench_store_driver *drv;
	void *db;			/* sqlite3 *, or PGconn * */
	char path[4096];		/* the file, or the URL as given */
	bool writable;
	bool busy;			/* the last error was a lock held too long */
	char msg[512];			/* the database's words on the last error */
};

/* A statement run with its parameters; its rows are read by step. */
struct cbench_store_stmt {
	struct cbench_store *s;
	void *st;			/* SQLite's statement */
	void *res;			/* PostgreSQL's result */
	int row, nrows;			/* PostgreSQL: the row read, and how many */
	bool failed;
};

struct cbench_store_driver {
	const char *name;
	/* Connects (or opens the file); -errno said in err. */
	int (*open)(struct cbench_store *s, const char *path, bool write, char *err, size_t errlen);
	void (*close)(struct cbench_store *s);
	/* Runs sql (SQLite's dialect) with fmt's parameters: NULL on error. */
	struct cbench_store_stmt *(*query)(struct cbench_store *s, const char *sql, const char *fmt,
					   va_list ap);
	int (*step)(struct cbench_store_stmt *q);
	const char *(*text)(struct cbench_store_stmt *q, int i);
	long long (*integer)(struct cbench_store_stmt *q, int i);
	double (*number)(struct cbench_store_stmt *q, int i);
	bool (*null)(struct cbench_store_stmt *q, int i);
	int (*blob)(struct cbench_store_stmt *q, int i, void **data, size_t *len);
	void (*end)(struct cbench_store_stmt *q);
	/* The last error's words; whether it was a lock waited on too long. */
	const char *(*errmsg)(struct cbench_store *s);
	/* The store's marks (0 when absent) and whether the database holds
	 * any table at all; 0 or -EIO. */
	int (*marks)(struct cbench_store *s, long long *app, long long *version, bool *tables);
	int (*set_marks)(struct cbench_store *s, long long app, long long version);
	/* Runs schema statements (SQLite's types, translated): 0 or -EIO. */
	int (*ddl)(struct cbench_store *s, const char *sql);
	/* A check of the database's own integrity (NULL: none). */
	int (*integrity)(struct cbench_store *s, char *err, size_t errlen);
	const char *begin;		/* one writer at a time */
	const char *begin_rows;		/* row locks only */
};

/*
 * sql (SQLite's dialect) in PostgreSQL's words, malloc'd (NULL out of
 * memory): '?' and '?N' parameters, group_concat, instr and unixepoch, and
 * with ddl the schema's types; text in quotes as it is.
 */
char *cbench_store_pg_translate(const char *sql, bool ddl);

extern const struct cbench_store_driver cbench_store_sqlite;
extern const struct cbench_store_driver cbench_store_pg;

#endif /* _CBENCH_STORE_DB_H */
