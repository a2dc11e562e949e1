/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A lab's queue of work, in the store (schema 2): jobs that measure one
 * object at a commit ("run") or audit two against each other ("confirm"),
 * each on a machine that fits it, and the objects they take, kept once by
 * build ID where every machine of the fleet reaches them.
 *
 * A worker claims the oldest job that fits it (its CPU's description
 * holds the job's cpu, its host name is the job's host; either NULL for
 * any), in one statement that skips rows other workers hold (FOR UPDATE
 * SKIP LOCKED on PostgreSQL; SQLite has one writer at a time anyway), and
 * holds it under a lease that it renews.  The claim is numbered (claims):
 * only the claim that holds a job may finish it, and it writes its results
 * and the job's end in one transaction.  A job whose lease ran out (its
 * worker died, or lost the store) is claimed again; its first worker's
 * results, if it comes back, are refused, so a job is done exactly once.
 * A job whose lease ran out CBENCH_QUEUE_MAX_LAPSES times fails (a job put
 * back by its worker, told to stop, does not count).
 */
#ifndef _CBENCH_STORE_QUEUE_H
#define _CBENCH_STORE_QUEUE_H

#include <stdbool.h>
#include <stddef.h>

struct cbench_store;
struct cbench_store_run;

#define CBENCH_QUEUE_MAX_LAPSES 3

struct cbench_job {
	long long id;
	char kind[16];			/* "run" or "confirm" */
	char object[80];		/* the object's build ID (confirm: A's) */
	char object_b[80];		/* confirm: B's; "" for a run */
	char commit[512];		/* run: the commit and order it measures */
	long long order;
	char *args;			/* run's or audit's options, one per line (malloc'd) */
	char cpu[256], host[256];	/* which machines fit; "" for any */
	char state[16];			/* queued, running, done, failed */
	char worker[256];
	long long claims;		/* the claim that holds it, or held it last */
	long long run;			/* done run job: the run it added; 0 none */
	char *result;			/* done confirm job: the audit's JSON report (malloc'd) */
	char *error;			/* failed job: why (malloc'd) */
	char added[32], started[32], finished[32];
	char name[256], name_b[256];	/* the objects' file names */
};

void cbench_job_free(struct cbench_job *j);

/* Adds j (its objects already kept), queued; its number into j->id. */
int cbench_queue_add(struct cbench_store *s, struct cbench_job *j, char *err, size_t errlen);

/* Every job, oldest first; *v malloc'd (cbench_queue_free). */
int cbench_queue_list(struct cbench_store *s, struct cbench_job **v, size_t *n, char *err,
		      size_t errlen);
void cbench_queue_free(struct cbench_job *v, size_t n);

/*
 * Claims the oldest job that fits a worker on host with the CPU cpu,
 * leased for lease seconds: 1 with the job in j, 0 when none is free for
 * it (then why says so, and *others is true when queued jobs wait only
 * for other machines), or -errno with why in err.
 */
int cbench_queue_claim(struct cbench_store *s, const char *worker, const char *cpu,
		       const char *host, long long lease, struct cbench_job *j, char *why,
		       size_t whylen, bool *others, char *err, size_t errlen);

/* Renews j's lease: 0, -ESTALE when another claim took it, or -EIO. */
int cbench_queue_renew(struct cbench_store *s, const struct cbench_job *j, long long lease,
		       char *err, size_t errlen);

/*
 * Ends j in one transaction: with run (its commit and order are j's) added
 * to the store and j done; with result (a confirmation's report) j done;
 * with error j failed; with neither j queued again (its worker stopped).
 * -ESTALE (nothing written) when j's claim no longer holds it, else 0 or
 * -errno with why in err (a run the store refuses fails the job).
 */
int cbench_queue_finish(struct cbench_store *s, const struct cbench_job *j,
			const struct cbench_store_run *run, const char *result, const char *error,
			long long *run_id, char *err, size_t errlen);

/*
 * Keeps object build_id (kept already) as the build of commit at order of
 * the object named name, for the jobs that narrow a change point.  0, or
 * -EINVAL when that order has another build or commit (said in err).
 */
int cbench_queue_keep_build(struct cbench_store *s, const char *name, long long order,
			    const char *commit, const char *build_id, char *err, size_t errlen);

/*
 * The build kept for order of the object named name: its commit and build
 * ID, 1; 0 when none is kept; or -EIO.
 */
int cbench_queue_build_of(struct cbench_store *s, const char *name, long long order, char *commit,
			  size_t commitlen, char *build_id, size_t idlen);

/* How many runs of object name at order on machine host (of CPU cpu) with
 * backend the store has, or -EIO: a series' runs at that order. */
long long cbench_queue_runs_at(struct cbench_store *s, const char *name, long long order, const char *host,
			       const char *cpu, const char *backend);

/* Whether a run job of build_id at order for host (NULL any) is queued,
 * running or (unless pending) done: 1, 0, or -EIO. */
int cbench_queue_has_run(struct cbench_store *s, const char *build_id, long long order, bool pending,
			 const char *host);

#endif /* _CBENCH_STORE_QUEUE_H */
