// SPDX-License-Identifier: GPL-2.0
/* Adding a run to the store; see add.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "object/loader.h"
#include "error.h"
#include "report/report.h"
#include "results/doc_write.h"
#include "store/add.h"
#include "store/objects.h"
#include "store/report_read.h"
#include "store/run.h"
#include "store/store.h"

int cbench_store_commit_valid(const char *commit)
{
	size_t n = strlen(commit);

	if (!n || n > 255)
		return 0;
	for (const char *p = commit; *p; p++) {
		if ((unsigned char)*p <= ' ' || *p == 0x7f)
			return 0;
	}
	return 1;
}

/* Copies the regular file src to dst through a temporary beside it. */
static int copy_file(const char *src, const char *dst, char *err, size_t errlen)
{
	char tmp[PATH_MAX + 16], buf[65536];
	int in = open(src, O_RDONLY | O_CLOEXEC), out = -1, ret = 0;
	ssize_t got;

	snprintf(tmp, sizeof(tmp), "%s.XXXXXX", dst);
	if (in < 0 || (out = mkostemp(tmp, O_CLOEXEC)) < 0) {
		ret = -errno;
		snprintf(err, errlen, "cannot copy %s to %s: %s", src, dst, strerror(errno));
		goto out;
	}
	while ((got = read(in, buf, sizeof(buf))) > 0) {
		if (write(out, buf, (size_t)got) != got) {
			got = -1;
			break;
		}
	}
	if (got < 0 || fchmod(out, 0755) || fsync(out) || close(out) || rename(tmp, dst)) {
		ret = errno ? -errno : -EIO;
		snprintf(err, errlen, "cannot copy %s to %s: %s", src, dst, strerror(-ret));
		out = -1;
		unlink(tmp);
		goto out;
	}
	out = -1;
out:
	if (out >= 0) {
		close(out);
		unlink(tmp);
	}
	if (in >= 0)
		close(in);
	return ret;
}

/* The file to keep: --object's, or where the run measured it; NULL after saying why. */
static const char *object_source(const struct cbench_store_run *run,
				 const struct cbench_store_add *o, char *err, size_t errlen)
{
	const char *src = o->object_file ? o->object_file : run->object_path;

	if (src[0])
		return src;
	snprintf(err, errlen, "the report does not say where its object is: give it with --object");
	return NULL;
}

/* The file src to keep is build id, not the one run measured: -EINVAL, said in err. */
static int other_build(const struct cbench_store_run *run, const struct cbench_store_add *o,
		       const char *src, const char *id, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s is build %s, not the build the run measured (%s): rebuilt since? %s",
		 src, id, run->build_id, o->from_run ? "Measure it again, and do not rebuild it until "
		 "the run is stored" : "Give the measured object with --object");
	return -EINVAL;
}

/* The object into o->keep_dir as <build ID>.so, checked to be the build
 * the run measured; its absolute path into kept. */
static int keep_object(const struct cbench_store_run *run, const struct cbench_store_add *o,
		       char *kept, size_t kept_len, char *err, size_t errlen)
{
	const char *src = object_source(run, o, err, errlen);
	char id[80], dst[PATH_MAX], why[CBENCH_STORE_NAME_MAX];
	int ret;

	if (!src)
		return -EINVAL;
	ret = cbench_object_build_id(src, id, sizeof(id), why, sizeof(why));
	if (ret) {
		snprintf(err, errlen, "cannot keep the object: %s", why);
		return ret;
	}
	if (strcmp(id, run->build_id))
		return other_build(run, o, src, id, err, errlen);
	if (mkdir(o->keep_dir, 0777) && errno != EEXIST) {
		snprintf(err, errlen, "cannot make %s: %s", o->keep_dir, strerror(errno));
		return -errno;
	}
	snprintf(dst, sizeof(dst), "%s/%s.so", o->keep_dir, id);
	/* Content-addressed: a copy already there of this build is it. */
	if (access(dst, F_OK) || cbench_object_build_id(dst, id, sizeof(id), why, sizeof(why)) ||
	    strcmp(id, run->build_id)) {
		ret = copy_file(src, dst, err, errlen);
		if (ret)
			return ret;
	}
	if (!realpath(dst, kept) || strlen(kept) >= kept_len) {
		snprintf(err, errlen, "cannot resolve %s: %s", dst, strerror(errno));
		return -EIO;
	}
	return 0;
}

/* The object into the store itself (store/objects.h), checked to be the
 * build the run measured; "store:<build ID>" into kept. */
static int keep_in_store(struct cbench_store *s, const struct cbench_store_run *run,
			 const struct cbench_store_add *o, char *kept, size_t kept_len, char *err,
			 size_t errlen)
{
	const char *src = object_source(run, o, err, errlen);
	char id[80], why[CBENCH_STORE_NAME_MAX];
	int ret;

	if (!src)
		return -EINVAL;
	/* Kept inside the caller's transaction: a wrong build is rolled back. */
	ret = cbench_store_put_object(s, src, id, sizeof(id), why, sizeof(why));
	if (ret) {
		snprintf(err, errlen, "cannot keep the object: %s", why);
		return ret == -EIO ? -EINVAL : ret;
	}
	if (strcmp(id, run->build_id))
		return other_build(run, o, src, id, err, errlen);
	snprintf(kept, kept_len, CBENCH_STORE_COPY_PREFIX "%s", id);
	return 0;
}

/* A query's rows (one text each) into out, joined by commas; "" for none. */
static int query_list(struct cbench_store_stmt *q, char *out, size_t len)
{
	size_t at = 0;

	out[0] = '\0';
	while (cbench_store_step(q) > 0) {
		const char *t = cbench_store_text(q, 0);

		if (t && at < len)
			at += (size_t)snprintf(out + at, len - at, "%s%s", at ? "," : "", t);
	}
	return cbench_store_end(q);
}

/* The machine's id, made if new. */
static int machine_id(struct cbench_store *s, const struct cbench_store_run *run, long long *id)
{
	char text[32];

	if (cbench_store_exec(s, "INSERT INTO machine (name, cpu, cpu_count) VALUES (?, ?, ?) "
			      "ON CONFLICT DO NOTHING", "tti", run->machine, run->cpu,
			      (long long)run->cpu_count))
		return -EIO;
	if (cbench_store_value(s, text, sizeof(text), "SELECT id FROM machine WHERE name = ? AND "
			       "cpu = ? AND cpu_count = ?", "tti", run->machine, run->cpu,
			       (long long)run->cpu_count) || !text[0])
		return -EIO;
	*id = atoll(text);
	return 0;
}

/* The refusals of add.h; 0, -EINVAL with why, or -EIO. */
static int refuse(struct cbench_store *s, const struct cbench_store_run *run, long long machine,
		  const char *fingerprint, char *err, size_t errlen)
{
	char other[CBENCH_STORE_NAME_MAX];
	int ret;

	/* The same run twice would count as two measurements of one commit:
	 * a run is known by its report's run_id; a report without one (an
	 * older cbenchctl's) by its build measured on the same machine at the
	 * same second, whatever its figures say now (an edit would change
	 * them, and stores of before the digest hold other fingerprints). */
	ret = cbench_store_value(s, other, sizeof(other),
		"SELECT id FROM run WHERE machine = ? AND object = ? AND backend = ? AND (fingerprint = ? "
		"OR (? = '' AND ? = 'json' AND source = 'json' AND fingerprint NOT LIKE 'id:%' AND "
		"build_id = ? AND date = ?)) LIMIT 1", "ittttttt", machine, run->object, run->backend,
		fingerprint, run->run_id, run->source, run->build_id, run->date);
	if (!ret && other[0]) {
		snprintf(err, errlen, "this run is in the store already (run %s, measured %s)", other,
			 run->date);
		return -EINVAL;
	}
	ret = ret ? ret : cbench_store_value(s, other, sizeof(other),
		"SELECT ord FROM run WHERE object = ? AND commit_id = ? AND ord != ? LIMIT 1", "tti",
		run->object, run->commit, run->order);
	if (!ret && other[0]) {
		snprintf(err, errlen, "commit %s is order %s in this store, not %lld", run->commit, other,
			 run->order);
		return -EINVAL;
	}
	ret = ret ? ret : cbench_store_value(s, other, sizeof(other),
		"SELECT commit_id FROM run WHERE object = ? AND ord = ? AND commit_id != ? LIMIT 1", "tit",
		run->object, run->order, run->commit);
	if (!ret && other[0]) {
		snprintf(err, errlen, "order %lld of %s is commit %s in this store, not %s", run->order,
			 run->object, other, run->commit);
		return -EINVAL;
	}
	ret = ret ? ret : cbench_store_value(s, other, sizeof(other),
		"SELECT build_id FROM run WHERE object = ? AND backend = ? AND machine = ? AND "
		"commit_id = ? AND build_id != ? LIMIT 1", "ttitt", run->object, run->backend, machine,
		run->commit, run->build_id);
	if (!ret && other[0]) {
		snprintf(err, errlen, "commit %s of %s was measured here as build %s; this run's object is "
			 "build %s: another object under the same name?", run->commit, run->object, other,
			 run->build_id);
		return -EINVAL;
	}
	return ret;
}

/* Why the run stands apart, into note ("" when it joins a series). */
static int apart(struct cbench_store *s, const struct cbench_store_run *run, long long machine,
		 char *note, size_t len)
{
	char same[32], others[CBENCH_STORE_NAME_MAX], objects[CBENCH_STORE_NAME_MAX];
	int ret;

	note[0] = '\0';
	ret = cbench_store_value(s, same, sizeof(same), "SELECT count(*) FROM run WHERE object = ? AND "
				 "backend = ? AND machine = ?", "tti", run->object, run->backend, machine);
	if (ret || atoll(same))
		return ret;
	ret = query_list(cbench_store_query(s,
		"SELECT DISTINCT m.name || ' (' || m.cpu || ', ' || r.backend || ')' FROM run r JOIN "
		"machine m ON m.id = r.machine WHERE r.object = ? ORDER BY 1", "t", run->object),
		others, sizeof(others));
	ret = ret ? ret : query_list(cbench_store_query(s, "SELECT DISTINCT object FROM run ORDER BY 1",
							""), objects, sizeof(objects));
	if (ret)
		return ret;
	if (others[0])
		snprintf(note, len, "the first run of %.100s on %.100s (%.100s, %.8s backend): a series "
			 "of its own, apart from its runs on %.200s", run->object, run->machine, run->cpu,
			 run->backend, others);
	else if (objects[0])
		snprintf(note, len, "the first run of %.100s in this store: a series of its own, apart "
			 "from those of %.300s", run->object, objects);
	return 0;
}

static int insert_results(struct cbench_store *s, const struct cbench_store_run *run, long long id)
{
	for (size_t i = 0; i < run->nresults; i++) {
		const struct cbench_store_result *r = &run->results[i];
		const char *metric = cbench_metric_names[r->metric];

		if (cbench_store_exec(s, "INSERT INTO result VALUES (?, ?, ?, ?, ?, ?, ?, ?)", "ittddddi",
				      id, r->name, metric, r->value, r->u, r->lower, r->upper,
				      (long long)r->ntrials))
			return -EIO;
		for (size_t k = 0; k < r->ntrials; k++) {
			if (cbench_store_exec(s, "INSERT INTO trial VALUES (?, ?, ?, ?, ?)", "ittid", id,
					      r->name, metric, (long long)k, r->trials[k]))
				return -EIO;
		}
	}
	return 0;
}

static int insert_run(struct cbench_store *s, const struct cbench_store_run *run, long long machine,
		      const char *fingerprint, struct cbench_store_added *out)
{
	char now[32], id[32];

	cbench_store_now(now, sizeof(now));
	if (cbench_store_value(s, id, sizeof(id),
		"INSERT INTO run (machine, object, backend, commit_id, ord, build_id, date, kernel, "
		"cbench_version, source, fingerprint, object_copy, note, added) "
		"VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id", "itttittttttttt",
		machine, run->object, run->backend, run->commit, run->order, run->build_id, run->date,
		run->kernel, run->version, run->source, fingerprint, out->kept[0] ? out->kept : NULL,
		out->note[0] ? out->note : NULL, now) || !id[0])
		return -EIO;
	out->run_id = atoll(id);
	return insert_results(s, run, out->run_id);
}

int cbench_store_add(struct cbench_store *s, const struct cbench_store_run *run,
		     const struct cbench_store_add *o, struct cbench_store_added *out, char *err,
		     size_t errlen)
{
	char fingerprint[48];
	long long machine;
	int ret;

	memset(out, 0, sizeof(*out));
	cbench_store_run_fingerprint(run, fingerprint, sizeof(fingerprint));
	if (!cbench_store_commit_valid(run->commit) || run->order < 0) {
		snprintf(err, errlen, "a run needs a commit (1 to 255 characters, no blank) and an order "
			 "(a whole number from 0)");
		return -EINVAL;
	}
	if (o->kept_as)
		snprintf(out->kept, sizeof(out->kept), "%s", o->kept_as);
	else if (o->keep_dir && strcmp(o->keep_dir, CBENCH_STORE_KEEP_IN_STORE)) {
		ret = keep_object(run, o, out->kept, sizeof(out->kept), err, errlen);
		if (ret)
			return ret;
	}
	ret = o->in_transaction ? 0 : cbench_store_begin(s, err, errlen);
	if (ret)
		return ret;
	if (o->keep_dir && !strcmp(o->keep_dir, CBENCH_STORE_KEEP_IN_STORE) && !o->kept_as)
		ret = keep_in_store(s, run, o, out->kept, sizeof(out->kept), err, errlen);
	ret = ret ? ret : machine_id(s, run, &machine);
	ret = ret ? ret : refuse(s, run, machine, fingerprint, err, errlen);
	ret = ret ? ret : apart(s, run, machine, out->note, sizeof(out->note));
	ret = ret ? ret : insert_run(s, run, machine, fingerprint, out);
	if (ret == -EIO)
		ret = cbench_store_error(s, "cannot add the run", err, errlen);
	if (ret) {
		if (!o->in_transaction)
			cbench_store_rollback(s);
		return ret;
	}
	return o->in_transaction ? 0 : cbench_store_commit(s, err, errlen);
}

int cbench_store_add_report(const char *path, const char *text, size_t len,
			    const struct cbench_store_add *o, struct cbench_store_added *out, char *err,
			    size_t errlen)
{
	struct cbench_store_run run;
	struct cbench_store s;
	char note[sizeof(out->read_note)];
	int ret;

	memset(out, 0, sizeof(*out));
	ret = cbench_store_read_report(text, len, &run, note, sizeof(note), err, errlen);
	if (ret)
		return ret;
	snprintf(run.commit, sizeof(run.commit), "%s", o->commit ? o->commit : "");
	run.order = o->order;
	if (o->machine)
		snprintf(run.machine, sizeof(run.machine), "%s", o->machine);
	ret = cbench_store_open(&s, path, true, err, errlen);
	if (ret)
		goto out;
	ret = cbench_store_add(&s, &run, o, out, err, errlen);
	cbench_store_close(&s);
	snprintf(out->read_note, sizeof(out->read_note), "%s", note);
out:
	cbench_store_run_free(&run);
	return ret;
}

int cbench_store_order_parse(const char *s, long long *order)
{
	char *end;

	errno = 0;
	*order = s ? strtoll(s, &end, 10) : -1;
	return s && !errno && end != s && !*end && *order >= 0 ? 0 : -EINVAL;
}

int cbench_store_options_check(const char *store, const char *commit, const char *order,
			       const char *keep_dir, FILE *err)
{
	long long n;

	if (!store && (commit || keep_dir)) {
		fprintf(err, "%s: --commit and --keep-object go with --store\n", cbench_prog);
		return -EINVAL;
	}
	if (store && (!commit || !cbench_store_commit_valid(commit) ||
		      cbench_store_order_parse(order, &n))) {
		fprintf(err, "%s: --store wants --commit ID (1 to 255 characters, no blank) and --order N "
			"(a whole number from 0 that sorts the commits)\n", cbench_prog);
		return -EINVAL;
	}
	return 0;
}

int cbench_store_check_before(const char *path, const char *object, const char *commit,
			      const char *order, char *err, size_t errlen)
{
	struct cbench_store s;
	char other[CBENCH_STORE_NAME_MAX];
	long long n = -1;
	int ret;

	cbench_store_order_parse(order, &n);
	ret = cbench_store_open(&s, path, true, err, errlen);
	if (ret)
		return ret;
	ret = cbench_store_value(&s, other, sizeof(other), "SELECT ord FROM run WHERE object = ? AND "
				 "commit_id = ? AND ord != ? LIMIT 1", "tti", object, commit, n);
	if (!ret && other[0]) {
		snprintf(err, errlen, "commit %s is order %s in this store, not %lld", commit, other, n);
		ret = -EINVAL;
	}
	ret = ret ? ret : cbench_store_value(&s, other, sizeof(other),
		"SELECT commit_id FROM run WHERE object = ? AND ord = ? AND commit_id != ? LIMIT 1", "tit",
		object, n, commit);
	if (!ret && other[0]) {
		snprintf(err, errlen, "order %lld of %s is commit %s in this store, not %s", n, object, other,
			 commit);
		ret = -EINVAL;
	}
	if (ret == -EIO)
		ret = cbench_store_error(&s, "cannot read the store", err, errlen);
	cbench_store_close(&s);
	return ret;
}

int cbench_store_add_run(const struct cbench_report *r, const char *store, const char *commit,
			 const char *order, const char *keep_dir, const char *machine)
{
	struct cbench_store_add a = { .commit = commit, .keep_dir = keep_dir, .machine = machine,
				      .from_run = true };
	struct cbench_store_added out;
	char err[CBENCH_ERR_LEN * 2], *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int ret = f ? 0 : -ENOMEM;

	cbench_store_order_parse(order, &a.order);
	if (!ret) {
		ret = cbench_report_json(r, f);
		if (fclose(f))
			ret = ret ? ret : -ENOMEM;
	}
	if (ret) {
		free(text);
		cbench_err("unable to add the run to %s: %s\n", store, strerror(-ret));
		return -1;
	}
	ret = cbench_store_add_report(store, text, len, &a, &out, err, sizeof(err));
	free(text);
	if (ret) {
		cbench_err("unable to add the run to %s: %s\n", store, err);
		return -1;
	}
	cbench_store_say_added(store, &out, commit, a.order);
	return 0;
}

void cbench_store_say_added(const char *store, const struct cbench_store_added *a,
			    const char *commit, long long order)
{
	fprintf(stderr, "%s: run %lld added to %s: order %lld, commit %s%s%s\n", cbench_prog,
		a->run_id, store, order, commit, a->kept[0] ? "; object kept as " : "", a->kept);
	if (a->note[0])
		fprintf(stderr, "%s: run %lld kept apart: %s\n", cbench_prog, a->run_id, a->note);
	if (a->read_note[0])
		fprintf(stderr, "%s: run %lld: note: %s\n", cbench_prog, a->run_id, a->read_note);
}
