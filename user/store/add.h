/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Adding a run to the store, in one transaction, after checking that it
 * fits what the store holds:
 *
 *   refused   a commit the store has at another order, an order it has for
 *             another commit (per object), or a commit whose object this
 *             series already measured under another build ID;
 *   apart     the first run of an object on a machine (or with a backend)
 *             the store knows other runs of that object from, or of an
 *             object new to a store that holds others: a series of its own,
 *             with the reason in the run's note.
 *
 * With a directory to keep objects in, the object is copied there first,
 * as <build ID>.so (once per build), after checking that the file is the
 * build the report measured; with "store", into the store itself, in the
 * same transaction (store/objects.h).
 */
#ifndef _CBENCH_STORE_ADD_H
#define _CBENCH_STORE_ADD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct cbench_report;
struct cbench_store;
struct cbench_store_run;

/* keep_dir's word for the store itself (store/objects.h). */
#define CBENCH_STORE_KEEP_IN_STORE "store"

struct cbench_store_add {
	const char *commit;		/* what the run measured (cbench_store_add_report) */
	long long order;
	const char *keep_dir;		/* keep a copy of the object here ("store": in
					 * the store); NULL: none */
	const char *object_file;	/* the object to keep; NULL: where the run measured it */
	const char *machine;		/* the machine's name; NULL: the report's (its host) */
	bool from_run;			/* run --store: no --object to suggest */
	bool in_transaction;		/* the caller holds the store's write transaction */
	const char *kept_as;		/* the object is kept already, as this copy ("store:ID") */
};

struct cbench_store_added {
	long long run_id;
	char note[640];			/* why it stands apart; "" when it joined a series */
	char kept[4096];		/* the object's copy; "" for none */
	char read_note[640];		/* what reading the report noted (no digest,
					 * benchmarks left out); "" */
};

/* A commit as the store takes it: 1 to 255 printable characters, no blank. */
int cbench_store_commit_valid(const char *commit);

/* An order as the store takes it (--order N): a whole number from 0 into
 * *order; 0, or -EINVAL (s NULL, or not such a number). */
int cbench_store_order_parse(const char *s, long long *order);

/*
 * Adds run (with its commit and order set) to s: 0, or -errno with why in
 * err: -EINVAL refused (see above), -EBUSY, -EIO, -ENOMEM, or the error of
 * keeping the object.
 */
int cbench_store_add(struct cbench_store *s, const struct cbench_store_run *run,
		     const struct cbench_store_add *o, struct cbench_store_added *out, char *err,
		     size_t errlen);

/*
 * The whole of `store add` and `run --store`: text, a run's JSON report
 * (report_read.h), added to the store at path (made if missing) with
 * o's commit and order.  0, or -errno with why in err.
 */
int cbench_store_add_report(const char *path, const char *text, size_t len,
			    const struct cbench_store_add *o, struct cbench_store_added *out, char *err,
			    size_t errlen);

/* What an add did, on stderr: the run, where its object went, why it stands apart. */
void cbench_store_say_added(const char *store, const struct cbench_store_added *a,
			    const char *commit, long long order);

/*
 * `run --store`'s options: a store wants --commit and --order (a whole
 * number), and those and --keep-object want a store.  0, or -EINVAL after
 * saying why on err.
 */
int cbench_store_options_check(const char *store, const char *commit, const char *order,
			       const char *keep_dir, FILE *err);

/*
 * `run --store`, before it measures: the store at path opens for writing
 * (made if missing), is a cbench store, and takes commit at order for
 * object (the object's file name).  0, or -errno with why in err.
 */
int cbench_store_check_before(const char *path, const char *object, const char *commit,
			      const char *order, char *err, size_t errlen);

/*
 * `run --store`: the run's JSON report added to store as `store add` adds
 * one (machine: --machine's name, NULL for the host's); said on stderr.
 * 0, or -1 after saying why.
 */
int cbench_store_add_run(const struct cbench_report *r, const char *store, const char *commit,
			 const char *order, const char *keep_dir, const char *machine);

#endif /* _CBENCH_STORE_ADD_H */
