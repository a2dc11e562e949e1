// SPDX-License-Identifier: GPL-2.0
/* A lab's queue of work in the store; see queue.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/add.h"
#include "store/objects.h"
#include "store/queue.h"
#include "store/run.h"
#include "store/store.h"

void cbench_job_free(struct cbench_job *j)
{
	free(j->args);
	free(j->result);
	free(j->error);
	j->args = j->result = j->error = NULL;
}

int cbench_queue_add(struct cbench_store *s, struct cbench_job *j, char *err, size_t errlen)
{
	char now[32], id[32];

	cbench_store_now(now, sizeof(now));
	if (cbench_store_value(s, id, sizeof(id),
			       "INSERT INTO job (kind, object, object_b, commit_id, ord, args, cpu, host, "
			       "state, claims, added) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'queued', 0, ?) "
			       "RETURNING id", "ttttittt" "t", j->kind, j->object,
			       j->object_b[0] ? j->object_b : NULL, j->commit[0] ? j->commit : NULL,
			       j->order, j->args ? j->args : "", j->cpu[0] ? j->cpu : NULL,
			       j->host[0] ? j->host : NULL, now) || !id[0])
		return cbench_store_error(s, "cannot add the job", err, errlen);
	j->id = atoll(id);
	return 0;
}

#define JOB_COLUMNS \
	"j.id, j.kind, j.object, j.object_b, j.commit_id, j.ord, j.args, j.cpu, j.host, j.state, " \
	"j.worker, j.claims, j.run, j.result, j.error, j.added, j.started, j.finished, a.name, b.name"
#define JOB_FROM \
	" FROM job j JOIN object a ON a.build_id = j.object LEFT JOIN object b ON b.build_id = j.object_b"

static void copy(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src ? src : "");
}

static char *dup_or_null(const char *t, bool *oom)
{
	char *d = t ? strdup(t) : NULL;

	if (t && !d)
		*oom = true;
	return d;
}

/* Row q (JOB_COLUMNS) into j: 0 or -ENOMEM. */
static int job_of(struct cbench_store_stmt *q, struct cbench_job *j)
{
	bool oom = false;

	memset(j, 0, sizeof(*j));
	j->id = cbench_store_int(q, 0);
	copy(j->kind, sizeof(j->kind), cbench_store_text(q, 1));
	copy(j->object, sizeof(j->object), cbench_store_text(q, 2));
	copy(j->object_b, sizeof(j->object_b), cbench_store_text(q, 3));
	copy(j->commit, sizeof(j->commit), cbench_store_text(q, 4));
	j->order = cbench_store_int(q, 5);
	j->args = dup_or_null(cbench_store_text(q, 6), &oom);
	copy(j->cpu, sizeof(j->cpu), cbench_store_text(q, 7));
	copy(j->host, sizeof(j->host), cbench_store_text(q, 8));
	copy(j->state, sizeof(j->state), cbench_store_text(q, 9));
	copy(j->worker, sizeof(j->worker), cbench_store_text(q, 10));
	j->claims = cbench_store_int(q, 11);
	j->run = cbench_store_int(q, 12);
	j->result = dup_or_null(cbench_store_text(q, 13), &oom);
	j->error = dup_or_null(cbench_store_text(q, 14), &oom);
	copy(j->added, sizeof(j->added), cbench_store_text(q, 15));
	copy(j->started, sizeof(j->started), cbench_store_text(q, 16));
	copy(j->finished, sizeof(j->finished), cbench_store_text(q, 17));
	copy(j->name, sizeof(j->name), cbench_store_text(q, 18));
	copy(j->name_b, sizeof(j->name_b), cbench_store_text(q, 19));
	if (oom)
		cbench_job_free(j);
	return oom ? -ENOMEM : 0;
}

int cbench_queue_list(struct cbench_store *s, struct cbench_job **v, size_t *n, char *err,
		      size_t errlen)
{
	struct cbench_store_stmt *q = cbench_store_query(s, "SELECT " JOB_COLUMNS JOB_FROM
							 " ORDER BY j.id", "");
	size_t cap = 0;
	int ret = 0;

	*v = NULL;
	*n = 0;
	while (!ret && cbench_store_step(q) > 0) {
		if (*n == cap) {
			struct cbench_job *p = realloc(*v, (cap ? 2 * cap : 16) * sizeof(**v));

			if (!p) {
				ret = -ENOMEM;
				break;
			}
			*v = p;
			cap = cap ? 2 * cap : 16;
		}
		ret = job_of(q, &(*v)[*n]);
		*n += !ret;
	}
	if (cbench_store_end(q) && !ret)
		ret = cbench_store_error(s, "cannot read the queue", err, errlen);
	else if (ret)
		snprintf(err, errlen, "out of memory");
	if (ret) {
		cbench_queue_free(*v, *n);
		*v = NULL;
		*n = 0;
	}
	return ret;
}

void cbench_queue_free(struct cbench_job *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		cbench_job_free(&v[i]);
	free(v);
}

/* What fits a worker: a free job, or one whose lease ran out. */
#define CLAIMABLE \
	"(state = 'queued' OR (state = 'running' AND lease < unixepoch())) AND " \
	"(cpu IS NULL OR instr(?, cpu) > 0) AND (host IS NULL OR host = ?)"

/* Why nothing fits: how many jobs wait, and for what; *others when every
 * queued job waits for another machine (none of them this one's, taken
 * meanwhile by another worker's claim). */
static int nothing_fits(struct cbench_store *s, const char *cpu, const char *host, char *why,
			size_t whylen, bool *others)
{
	char waiting[32], mine[32], want[600];
	int ret = cbench_store_value(s, waiting, sizeof(waiting), "SELECT count(*) FROM job WHERE "
				     "state = 'queued'", "");

	ret = ret ? ret : cbench_store_value(s, mine, sizeof(mine), "SELECT count(*) FROM job WHERE "
					     "state = 'queued' AND (cpu IS NULL OR instr(?, cpu) > 0) "
					     "AND (host IS NULL OR host = ?)", "tt", cpu, host);
	ret = ret ? ret : cbench_store_value(s, want, sizeof(want), "SELECT 'cpu ' || "
					     "coalesce(cpu, 'any') || ', host ' || coalesce(host, 'any') "
					     "FROM job WHERE state = 'queued' AND NOT ((cpu IS NULL OR "
					     "instr(?, cpu) > 0) AND (host IS NULL OR host = ?)) ORDER BY "
					     "id LIMIT 1", "tt", cpu, host);
	if (ret)
		return ret;
	*others = atoll(waiting) && !atoll(mine);
	if (*others)
		snprintf(why, whylen, "%s queued job%s, none for this machine (the first wants %s)",
			 waiting, atoll(waiting) == 1 ? "" : "s", want);
	else
		snprintf(why, whylen, "no job free for this machine");
	return 0;
}

int cbench_queue_claim(struct cbench_store *s, const char *worker, const char *cpu,
		       const char *host, long long lease, struct cbench_job *j, char *why,
		       size_t whylen, bool *others, char *err, size_t errlen)
{
	char sql[1024], now[32], claimed[32];
	struct cbench_store_stmt *q;
	int ret = cbench_store_begin_rows(s, err, errlen);

	if (ret)
		return ret;
	cbench_store_now(now, sizeof(now));
	/* Jobs whose workers kept dying end here, failed. */
	ret = cbench_store_exec(s, "UPDATE job SET state = 'failed', finished = ?, error = 'its lease "
				"ran out ' || (lapses + 1) || ' times: its workers (the last ' || "
				"coalesce(worker, '?') || ') stopped answering, or the job takes its "
				"machine down' WHERE state = 'running' AND lease < unixepoch() AND "
				"lapses >= ?", "ti", now, (long long)CBENCH_QUEUE_MAX_LAPSES - 1);
	snprintf(sql, sizeof(sql), "UPDATE job SET lapses = lapses + CASE WHEN state = 'running' "
		 "THEN 1 ELSE 0 END, state = 'running', worker = ?, claims = claims + 1, "
		 "lease = unixepoch() + ?, started = ? WHERE id = (SELECT id FROM job WHERE "
		 CLAIMABLE " ORDER BY id LIMIT 1%s) RETURNING id",
		 cbench_store_on_server(s) ? " FOR UPDATE SKIP LOCKED" : "");
	ret = ret ? ret : cbench_store_value(s, claimed, sizeof(claimed), sql, "tittt", worker, lease,
					     now, cpu, host);
	if (ret) {
		ret = cbench_store_error(s, "cannot claim a job", err, errlen);
		cbench_store_rollback(s);
		return ret;
	}
	ret = cbench_store_commit(s, err, errlen);
	if (ret)
		return ret;
	*others = false;
	if (!claimed[0])
		return nothing_fits(s, cpu, host, why, whylen, others) ?
		       cbench_store_error(s, "cannot read the queue", err, errlen) : 0;
	q = cbench_store_query(s, "SELECT " JOB_COLUMNS JOB_FROM " WHERE j.id = ?", "i", atoll(claimed));
	ret = cbench_store_step(q) > 0 ? job_of(q, j) : -EIO;
	if (cbench_store_end(q) || ret == -EIO)
		return cbench_store_error(s, "cannot read the job claimed", err, errlen);
	if (ret)
		snprintf(err, errlen, "out of memory");
	return ret ? ret : 1;
}

int cbench_queue_renew(struct cbench_store *s, const struct cbench_job *j, long long lease,
		       char *err, size_t errlen)
{
	char held[32];

	if (cbench_store_value(s, held, sizeof(held), "UPDATE job SET lease = unixepoch() + ? WHERE "
			       "id = ? AND claims = ? AND state = 'running' RETURNING id", "iii", lease,
			       j->id, j->claims))
		return cbench_store_error(s, "cannot renew the job's lease", err, errlen);
	if (!held[0]) {
		snprintf(err, errlen, "job %lld was claimed again after its lease ran out", j->id);
		return -ESTALE;
	}
	return 0;
}

int cbench_queue_finish(struct cbench_store *s, const struct cbench_job *j,
			const struct cbench_store_run *run, const char *result, const char *error,
			long long *run_id, char *err, size_t errlen)
{
	struct cbench_store_add o = { .commit = j->commit, .order = j->order, .in_transaction = true };
	struct cbench_store_added out = { 0 };
	char now[32], held[32], copy_id[96], run_text[32], why[1024] = "";
	const char *state = run || result ? "done" : error ? "failed" : "queued";
	int ret = cbench_store_begin(s, err, errlen);

	if (ret)
		return ret;
	cbench_store_now(now, sizeof(now));
	snprintf(copy_id, sizeof(copy_id), "store:%s", j->object);
	o.kept_as = copy_id;
	if (run) {
		ret = cbench_store_add(s, run, &o, &out, why, sizeof(why));
		if (ret == -EINVAL) {
			/* The store refuses the run: the job fails, saying why. */
			state = "failed";
			error = why;
			run = NULL;
			ret = 0;
		} else if (ret) {
			snprintf(err, errlen, "%s", why);
			cbench_store_rollback(s);
			return ret;
		}
	}
	snprintf(run_text, sizeof(run_text), "%lld", out.run_id);
	if (cbench_store_value(s, held, sizeof(held), "UPDATE job SET state = ?, run = ?, result = ?, "
			       "error = ?, finished = ?, lease = NULL, worker = CASE WHEN ? = 'queued' "
			       "THEN NULL ELSE worker END WHERE id = ? AND claims = ? AND state = "
			       "'running' RETURNING id", "ttttttii", state, run ? run_text : NULL,
			       result, error, !strcmp(state, "queued") ? NULL : now, state, j->id,
			       j->claims)) {
		ret = cbench_store_error(s, "cannot end the job", err, errlen);
		cbench_store_rollback(s);
		return ret;
	}
	if (!held[0]) {
		cbench_store_rollback(s);
		snprintf(err, errlen, "job %lld was claimed again after its lease ran out: its results "
			 "here are dropped", j->id);
		return -ESTALE;
	}
	if (run_id)
		*run_id = run ? out.run_id : 0;
	return cbench_store_commit(s, err, errlen);
}

int cbench_queue_keep_build(struct cbench_store *s, const char *name, long long order,
			    const char *commit, const char *build_id, char *err, size_t errlen)
{
	char have[600], now[32];

	if (cbench_store_value(s, have, sizeof(have), "SELECT commit_id || ' ' || build_id FROM build "
			       "WHERE object = ? AND ord = ?", "ti", name, order))
		return cbench_store_error(s, "cannot read the store's builds", err, errlen);
	if (have[0]) {
		char want[600];

		snprintf(want, sizeof(want), "%s %s", commit, build_id);
		if (!strcmp(have, want))
			return 0;
		snprintf(err, errlen, "order %lld of %s is kept as commit and build %s, not %s", order,
			 name, have, want);
		return -EINVAL;
	}
	cbench_store_now(now, sizeof(now));
	if (cbench_store_exec(s, "INSERT INTO build VALUES (?, ?, ?, ?, ?)", "titt" "t", name, order,
			      commit, build_id, now))
		return cbench_store_error(s, "cannot keep the build", err, errlen);
	return 0;
}

int cbench_queue_build_of(struct cbench_store *s, const char *name, long long order, char *commit,
			  size_t commitlen, char *build_id, size_t idlen)
{
	struct cbench_store_stmt *q = cbench_store_query(s, "SELECT commit_id, build_id FROM build "
							 "WHERE object = ? AND ord = ?", "ti", name,
							 order);
	int found = cbench_store_step(q) > 0;

	if (found) {
		snprintf(commit, commitlen, "%s", cbench_store_text(q, 0));
		snprintf(build_id, idlen, "%s", cbench_store_text(q, 1));
	}
	return cbench_store_end(q) ? -EIO : found;
}

long long cbench_queue_runs_at(struct cbench_store *s, const char *name, long long order, const char *host,
			       const char *cpu, const char *backend)
{
	char n[32];

	if (cbench_store_value(s, n, sizeof(n), "SELECT count(*) FROM run JOIN machine ON machine.id = "
			       "run.machine WHERE run.object = ? AND run.ord = ? AND machine.name = ? AND "
			       "machine.cpu = ? AND run.backend = ?", "tittt", name, order, host, cpu, backend))
		return -EIO;
	return atoll(n);
}

int cbench_queue_has_run(struct cbench_store *s, const char *build_id, long long order, bool pending,
			 const char *host)
{
	char n[32];

	if (cbench_store_value(s, n, sizeof(n), "SELECT count(*) FROM job WHERE kind = 'run' AND "
			       "object = ? AND ord = ? AND coalesce(host, '') = ? AND state <> "
			       "'failed' AND (? = 0 OR state <> 'done')", "titi", build_id, order,
			       host ? host : "", (long long)pending))
		return -EIO;
	return atoll(n) > 0;
}
