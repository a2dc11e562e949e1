// SPDX-License-Identifier: GPL-2.0
/*
 * `cbenchctl lab queue` and `cbenchctl lab worker`: a lab's queue of work
 * in the store (store/queue.h).  queue adds jobs (a run of an object at a
 * commit, or a confirmation: an audit of two objects) and shows the queue;
 * worker, one per lab machine, takes the jobs that fit the machine one by
 * one, measures each in a process of its own (run or audit called in a
 * fork, so whatever a job does to its process ends with the job, not the
 * worker), renews the job's lease meanwhile,
 * and writes the results and the job's end in one transaction.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmd/audit_parts.h"
#include "cmd/lab_parts.h"
#include "cmd/run_parts.h"
#include "cmd/subcommands.h"
#include "error.h"
#include "machine/probe.h"
#include "report/json_writer.h"
#include "report/context.h"
#include "report/readfile.h"
#include "report/report.h"
#include "session/options.h"
#include "store/add.h"
#include "store/objects.h"
#include "store/queue.h"
#include "store/report_read.h"
#include "store/history.h"
#include "store/run.h"
#include "store/store.h"

/* The longest a report of a job may be (a run of thousands of benchmarks). */
#define REPORT_MAX (512u << 20)
/* A job's scratch directory: this, the worker's pid, a dot, six letters. */
#define SCRATCH_DIR "/tmp"
#define SCRATCH_NAME "cbench-job."
#define SCRATCH_PREFIX SCRATCH_DIR "/" SCRATCH_NAME
/* What a worker waits between looks at an empty queue, by default. */
#define POLL_SECONDS 10
#define LEASE_SECONDS 60
/*
 * How many times a worker measures a run job whose every benchmark kept
 * only trials on a core another thread shared (the store takes none of
 * them): another thread comes and goes for seconds to minutes on a shared
 * host, and a run, its --shared-wait spent, can fall in one stretch whole.
 */
#define JOB_SHARED_ATTEMPTS 3

enum {
	OPT_STORE = 256, OPT_COMMIT, OPT_ORDER, OPT_CPU, OPT_HOST, OPT_FORMAT, OPT_LEASE, OPT_POLL,
	OPT_DRAIN, OPT_NAME,
};

static const struct option longopts[] = {
	{ "store", required_argument, NULL, OPT_STORE },
	{ "commit", required_argument, NULL, OPT_COMMIT },
	{ "order", required_argument, NULL, OPT_ORDER },
	{ "cpu", required_argument, NULL, OPT_CPU },
	{ "host", required_argument, NULL, OPT_HOST },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "lease", required_argument, NULL, OPT_LEASE },
	{ "poll", required_argument, NULL, OPT_POLL },
	{ "drain", no_argument, NULL, OPT_DRAIN },
	{ "name", required_argument, NULL, OPT_NAME },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

struct queue_options {
	const char *store, *commit, *cpu, *host, *format, *name;
	long long order, lease, poll;
	bool have_order, drain;
	char **extra;			/* after "--": run's or audit's options */
	int nextra;
};

void cbench_lab_queue_usage(FILE *f)
{
	fprintf(f,
		"       %s lab queue add --store STORE OBJECT --commit ID --order N [--cpu TEXT]\n"
		"                [--host NAME] [-- RUN OPTIONS]\n"
		"       %s lab queue confirm --store STORE A B [--cpu TEXT] [--host NAME]\n"
		"                [-- AUDIT OPTIONS]\n"
		"       %s lab queue keep --store STORE OBJECT --commit ID --order N\n"
		"       %s lab queue next --store STORE [--cpu TEXT] [-- RUN OPTIONS]\n"
		"       %s lab queue list --store STORE [--format text|json]\n"
		"       %s lab worker --store STORE [--lease S] [--poll S] [--drain] [--name NAME]\n",
		cbench_prog, cbench_prog, cbench_prog, cbench_prog, cbench_prog, cbench_prog);
}

static void help(FILE *f)
{
	fprintf(f, "Usage:\n");
	cbench_lab_queue_usage(f);
	fprintf(f,
		"\n"
		"A lab's queue of work, kept in the store (a SQLite file, or postgresql://...\n"
		"for a fleet).  `queue add` keeps OBJECT in the store by its build ID and adds\n"
		"a job that runs it (`run` with RUN OPTIONS) and adds the run at commit ID,\n"
		"order N.  `queue confirm` keeps A and B and adds a job that audits them\n"
		"(`audit` with AUDIT OPTIONS); its report is kept with the job.  An object\n"
		"may be one the store keeps already, as store:BUILD-ID (the object_copy of\n"
		"history --format json, for a change point's two sides).  `queue keep` keeps\n"
		"OBJECT as the build of commit ID at order N without measuring it; `queue next`\n"
		"turns what `history --next` asks into jobs: for each change point whose next\n"
		"order has a build kept, a run of it on the machine whose series it narrows\n"
		"(once), for each run set aside a second run of its build, and a line\n"
		"naming each order still to build.  A job goes to\n"
		"a machine whose CPU description holds --cpu's text and whose host name is\n"
		"--host (any machine without them).\n"
		"\n"
		"`lab worker` takes the oldest job that fits this machine, holds it under a\n"
		"lease it renews (--lease S, default %d), runs it in a process of its own,\n"
		"writes its results and the job's end in one transaction, and takes the next;\n"
		"with an empty queue it looks again every --poll S (default %d), or with\n"
		"--drain it ends.  A job whose worker died is taken again when its lease runs\n"
		"out, and the dead worker's results never count.  A run none of whose\n"
		"benchmarks kept a trial on a core of its own is measured again, %d times in\n"
		"all, before the job fails.  SIGTERM or SIGINT puts the job at hand back in\n"
		"the queue.\n"
		"\n"
		"Options:\n"
		"  --store STORE  the store: a file, or a PostgreSQL URL (credentials as libpq\n"
		"                 takes them: ~/.pgpass, PGPASSFILE, a service file)\n"
		"  --commit ID, --order N  where the run goes in its series (queue add)\n"
		"  --cpu TEXT     only a machine whose CPU description holds TEXT\n"
		"  --host NAME    only the machine of that host name\n"
		"  --format F     queue list: text (default) or json\n"
		"  --lease S      worker: how long a job's lease lasts (renewed every third of it)\n"
		"  --poll S       worker: seconds between looks at an empty queue\n"
		"  --drain        worker: end when no job fits (exit 1 if jobs wait for others)\n"
		"  --name NAME    worker: its name in the queue (default host:pid)\n"
		"  -h, --help     show this help\n"
		"\n"
		"Exit status: 0 done, 1 an error (or --drain with jobs none of which fit), 2 bad\n"
		"usage.\n", LEASE_SECONDS, POLL_SECONDS, JOB_SHARED_ATTEMPTS);
}

static int seconds(const char *arg, const char *option, long long *v)
{
	char *end;

	errno = 0;
	*v = strtoll(arg, &end, 10);
	if (errno || end == arg || *end || *v < 1 || *v > 86400)
		return cbench_usage_error("lab", "%s wants whole seconds from 1 to 86400, not '%s'",
					  option, arg);
	return 0;
}

static int parse(struct queue_options *o, int argc, char *argv[])
{
	int c;

	o->lease = LEASE_SECONDS;
	o->poll = POLL_SECONDS;
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		int ret = 0;

		switch (c) {
		case OPT_STORE:
			o->store = optarg;
			break;
		case OPT_COMMIT:
			if (!cbench_store_commit_valid(optarg))
				return cbench_usage_error("lab", "--commit wants 1 to 255 printable "
							  "characters, no blank, not '%s'", optarg);
			o->commit = optarg;
			break;
		case OPT_ORDER:
			if (cbench_store_order_parse(optarg, &o->order))
				return cbench_usage_error("lab", "--order wants a whole number from 0, not "
							  "'%s'", optarg);
			o->have_order = true;
			break;
		case OPT_CPU:
			ret = cbench_option_name("lab", "--cpu", optarg, &o->cpu, stderr);
			break;
		case OPT_HOST:
			ret = cbench_option_name("lab", "--host", optarg, &o->host, stderr);
			break;
		case OPT_NAME:
			ret = cbench_option_name("lab", "--name", optarg, &o->name, stderr);
			break;
		case OPT_FORMAT:
			o->format = optarg;
			break;
		case OPT_LEASE:
			ret = seconds(optarg, "--lease", &o->lease);
			break;
		case OPT_POLL:
			ret = seconds(optarg, "--poll", &o->poll);
			break;
		case OPT_DRAIN:
			o->drain = true;
			break;
		case 'h':
			help(stdout);
			return -1;
		default:
			return cbench_usage_error("lab", "unknown or incomplete option '%s'",
						  argv[optind - 1]);
		}
		if (ret)
			return ret > 0 ? ret : cbench_usage_error("lab", NULL);
	}
	if (!o->store)
		return cbench_usage_error("lab", "it wants --store STORE (a file, or postgresql://...)");
	return 0;
}

/* Options a job may not give: where the results go is the worker's. */
static const char *const owned[] = {
	"-o", "--output", "--format", "--store", "--commit", "--order", "--keep-object", "--resume",
	"--json", "--junit",
};

/*
 * The option of owned that a names, or NULL: as getopt_long would read it,
 * so an abbreviation (--sto=x) or a joined short option (-ox) counts.
 */
static const char *owned_option(const char *a)
{
	if (!strcmp(a, "--"))
		return "--";
	if (a[0] == '-' && a[1] != '-')
		return a[1] == 'o' ? "-o" : NULL;
	if (a[0] == '-' && a[1] == '-') {
		size_t n = strcspn(a + 2, "=");

		for (size_t k = 1; n && k < sizeof(owned) / sizeof(owned[0]); k++) {
			if (!strncmp(owned[k] + 2, a + 2, n))
				return owned[k];
		}
	}
	return NULL;
}

static char **child_argv(const struct cbench_job *j, const char *cmd, const char *report,
			 const char *a, const char *b);

/*
 * The options a job of kind cmd ("run" or "audit") gives, parsed as the
 * worker will give them (child_argv(), on objects a and b), so that what
 * the command would refuse is refused when the job is queued: 0, or 2
 * after saying why.
 */
static int job_check(const char *cmd, const char *args, const char *a, const char *b)
{
	struct cbench_job j = { .args = strdup(args) };
	char **argv = j.args ? child_argv(&j, cmd, "report.json", a, b) : NULL;
	struct cbench_audit_options ao;
	struct cbench_run_options ro;
	int argc = 0, ret;

	if (!argv) {
		free(j.args);
		return cbench_usage_error("lab", "out of memory");
	}
	while (argv[argc])
		argc++;
	optind = 0;
	ret = !strcmp(cmd, "run") ? cbench_run_options_parse(&ro, argc - 1, argv + 1, stderr) :
				    cbench_audit_options_parse(&ao, argc - 1, argv + 1);
	optind = 0;
	free(argv);
	free(j.args);
	if (ret)
		return cbench_usage_error("lab", "a %s job's options are %s's, which refuses these%s "
					  "(cbenchctl %s --help lists them)", cmd, cmd,
					  ret > 0 ? " (--help asks for its usage)" : " (above)", cmd);
	return 0;
}

/* The options after "--", one per line, checked as cmd takes them (on
 * objects obj_a and obj_b): 0, or 2 after saying why. */
static int job_args(const struct queue_options *o, const char *cmd, const char *obj_a, const char *obj_b,
		    char **out)
{
	size_t len = 1;

	for (int i = 0; i < o->nextra; i++) {
		const char *a = o->extra[i];

		const char *name = owned_option(a);

		if (name)
			return cbench_usage_error("lab", "a job's options may not name %s ('%s'): where "
						  "its results go is the worker's", name, a);
		if (!*a || strchr(a, '\n'))
			return cbench_usage_error("lab", "a job's option is empty or spans lines");
		len += strlen(a) + 1;
	}
	*out = calloc(1, len);
	if (!*out)
		return cbench_usage_error("lab", "out of memory");
	for (int i = 0; i < o->nextra; i++) {
		strcat(*out, o->extra[i]);
		strcat(*out, "\n");
	}
	if (job_check(cmd, *out, obj_a, obj_b)) {
		free(*out);
		*out = NULL;
		return 2;
	}
	return 0;
}

/* An operand: a file kept now, or "store:ID", an object the store keeps. */
static int object_operand(struct cbench_store *s, const char *op, char *id, size_t idlen, char *err,
			  size_t errlen)
{
	size_t n = strlen(CBENCH_STORE_COPY_PREFIX);
	char have[16];

	if (strncmp(op, CBENCH_STORE_COPY_PREFIX, n))
		return cbench_store_put_object(s, op, id, idlen, err, errlen);
	if (cbench_store_value(s, have, sizeof(have), "SELECT count(*) FROM object WHERE build_id = ?",
			       "t", op + n))
		return cbench_store_error(s, "cannot read the store's objects", err, errlen);
	if (atoll(have) != 1) {
		snprintf(err, errlen, "the store keeps no object %s (history --format json names the "
			 "copies kept, as object_copy)", op);
		return -ENOENT;
	}
	snprintf(id, idlen, "%s", op + n);
	return 0;
}

static int queue_add(const struct queue_options *o, char **ops, int nops, bool confirm)
{
	struct cbench_job j = { 0 };
	struct cbench_store s;
	char err[1024];
	int ret;

	if (nops != (confirm ? 2 : 1))
		return cbench_usage_error("lab", confirm ? "queue confirm takes two objects, A and B" :
					  "queue add takes one object");
	if (!confirm && (!o->commit || !o->have_order))
		return cbench_usage_error("lab", "queue add takes --commit ID and --order N");
	if (confirm && (o->commit || o->have_order))
		return cbench_usage_error("lab", "--commit and --order go with queue add");
	if (!confirm) {
		j.order = o->order;
		snprintf(j.commit, sizeof(j.commit), "%s", o->commit);
	}
	ret = job_args(o, confirm ? "audit" : "run", ops[0], confirm ? ops[1] : NULL, &j.args);
	if (ret)
		return ret;
	snprintf(j.kind, sizeof(j.kind), "%s", confirm ? "confirm" : "run");
	snprintf(j.cpu, sizeof(j.cpu), "%s", o->cpu ? o->cpu : "");
	snprintf(j.host, sizeof(j.host), "%s", o->host ? o->host : "");
	ret = cbench_store_open(&s, o->store, true, err, sizeof(err));
	if (ret)
		goto out;
	ret = cbench_store_begin(&s, err, sizeof(err));
	ret = ret ? ret : object_operand(&s, ops[0], j.object, sizeof(j.object), err, sizeof(err));
	if (!ret && confirm)
		ret = object_operand(&s, ops[1], j.object_b, sizeof(j.object_b), err, sizeof(err));
	ret = ret ? ret : cbench_queue_add(&s, &j, err, sizeof(err));
	if (ret)
		cbench_store_rollback(&s);
	else
		ret = cbench_store_commit(&s, err, sizeof(err));
	cbench_store_close(&s);
out:
	if (ret)
		cbench_err("unable to queue the job in %s: %s\n", o->store, err);
	else
		fprintf(stderr, "%s: job %lld queued in %s: %s %s%s%s\n", cbench_prog, j.id, o->store,
			j.kind, ops[0], confirm ? " against " : "", confirm ? ops[1] : "");
	cbench_job_free(&j);
	return ret ? 1 : 0;
}

/* lab queue keep: an object kept as a commit's build, measured when asked. */
static int queue_keep(const struct queue_options *o, char **ops, int nops)
{
	const char *slash = nops == 1 ? strrchr(ops[0], '/') : NULL;
	char err[1024], id[80];
	struct cbench_store s;
	int ret;

	if (nops != 1 || !o->commit || !o->have_order)
		return cbench_usage_error("lab", "queue keep takes one object, --commit ID and --order N");
	ret = cbench_store_open(&s, o->store, true, err, sizeof(err));
	if (!ret) {
		ret = cbench_store_begin(&s, err, sizeof(err));
		ret = ret ? ret : cbench_store_put_object(&s, ops[0], id, sizeof(id), err, sizeof(err));
		ret = ret ? ret : cbench_queue_keep_build(&s, slash ? slash + 1 : ops[0], o->order,
							  o->commit, id, err, sizeof(err));
		if (ret)
			cbench_store_rollback(&s);
		else
			ret = cbench_store_commit(&s, err, sizeof(err));
		cbench_store_close(&s);
	}
	if (ret) {
		cbench_err("unable to keep %s in %s: %s\n", ops[0], o->store, err);
		return 1;
	}
	fprintf(stderr, "%s: %s kept in %s as commit %s, order %lld (build %.12s)\n", cbench_prog,
		ops[0], o->store, o->commit, o->order, id);
	return 0;
}

/* A copy of a job's options (one a line) measuring on backend, unless
 * they name one: a series' run again where it was measured.  NULL after
 * saying so when out of memory. */
static char *with_backend(const char *args, const char *backend)
{
	bool named = false;
	char *out = NULL;

	for (const char *p = args; *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p))
		named |= !strncmp(p, "--backend", 9);
	if (named)
		out = strdup(args);
	else if (asprintf(&out, "--backend\n%s\n%s", backend, args) < 0)
		out = NULL;
	if (!out)
		cbench_err("unable to queue: out of memory\n");
	return out;
}

/*
 * One step of lab queue next: a run of series sr's object at order on its
 * machine, with the options args (one a line, checked), for why
 * ("narrowing Hash/len=64's change of +5.00 %"), if the order's build is
 * kept and no such job is queued or running (again: done ones count too);
 * 1 queued, 0 not (said why), -1 an error.
 */
static int next_job(const struct queue_options *o, struct cbench_store *s,
		    const struct cbench_history_series *sr, const char *args, long long order, bool again,
		    const char *why)
{
	struct cbench_job j = { .order = order };
	char err[1024];
	int ret = cbench_queue_build_of(s, sr->object, order, j.commit, sizeof(j.commit), j.object,
					sizeof(j.object));

	if (ret <= 0) {
		if (!ret)
			printf("order %lld of %s: no build kept (%s on %s): build it, then lab queue keep "
			       "--commit ID --order %lld\n", order, sr->object, why, sr->machine, order);
		return ret;
	}
	ret = cbench_queue_has_run(s, j.object, j.order, again, sr->machine);
	if (ret)
		return ret < 0 ? ret : 0;
	snprintf(j.kind, sizeof(j.kind), "run");
	snprintf(j.host, sizeof(j.host), "%s", sr->machine);
	snprintf(j.cpu, sizeof(j.cpu), "%s", o->cpu ? o->cpu : "");
	j.args = with_backend(args, sr->backend);
	ret = j.args ? cbench_queue_add(s, &j, err, sizeof(err)) : -1;
	if (ret) {
		if (ret != -1)
			cbench_err("unable to queue order %lld: %s\n", j.order, err);
		cbench_job_free(&j);
		return -1;
	}
	printf("job %lld queued: order %lld (commit %s) of %s on %s, %s\n", j.id, j.order, j.commit,
	       sr->object, sr->machine, why);
	cbench_job_free(&j);
	return 1;
}

/*
 * What history --next asks of series sr, as jobs: each change point's
 * narrowing order, and each run set aside measured once more (unless its
 * order has a second run already); how many queued into *queued, or -1.
 */
static int next_jobs(const struct queue_options *o, struct cbench_store *s,
		     const struct cbench_history_series *sr, const char *args, int *queued)
{
	char why[160];
	int r = 0;

	for (size_t k = 0; r >= 0 && k < sr->nchanges; k++) {
		const struct cbench_history_change *c = &sr->changes[k];

		if (c->next_order < 0)
			continue;
		snprintf(why, sizeof(why), "narrowing %s's change of %+.2f %%", sr->name, 100 * c->cp.change);
		r = next_job(o, s, sr, args, c->next_order, false, why);
		*queued += r > 0;
	}
	for (size_t k = 0; r >= 0 && k < sr->nexcursions; k++) {
		long long order = sr->points[sr->excursions[k].index].order;
		long long runs = cbench_queue_runs_at(s, sr->object, order, sr->machine, sr->cpu, sr->backend);

		/* Its second run, whichever benchmarks it measured, settles it. */
		if (runs < 0)
			return -1;
		if (runs > 1)
			continue;
		snprintf(why, sizeof(why), "measuring again %s's run set aside (%+.2f %% apart)", sr->name,
			 100 * sr->excursions[k].change);
		r = next_job(o, s, sr, args, order, true, why);
		*queued += r > 0;
	}
	return r < 0 ? -1 : 0;
}

/* lab queue next: history --next as jobs, for the builds kept. */
static int queue_next(const struct queue_options *o, int nops)
{
	struct cbench_cp_params params = CBENCH_HISTORY_PARAMS_DEFAULT;
	struct cbench_history_select sel = { .metric = -1 };
	struct cbench_store_history sh;
	struct cbench_store s = { 0 };
	char err[1024] = "", *args = NULL;
	int ret, queued = 0;

	if (nops || o->commit || o->have_order || o->host)
		return cbench_usage_error("lab", "queue next takes --store, --cpu and run's options only");
	/* The jobs' options, checked once, before anything is read. */
	ret = job_args(o, "run", "object.so", NULL, &args);
	if (ret)
		return ret;
	ret = cbench_store_history(o->store, &sel, &params, &sh, err, sizeof(err));
	if (ret) {
		cbench_err("unable to read the history of %s: %s\n", o->store, err);
		free(args);
		return 1;
	}
	ret = cbench_store_open(&s, o->store, true, err, sizeof(err));
	for (size_t i = 0; !ret && i < sh.h.nseries; i++)
		ret = next_jobs(o, &s, &sh.h.series[i], args, &queued);
	if (s.db)
		cbench_store_close(&s);
	cbench_store_history_free(&sh);
	free(args);
	if (ret) {
		cbench_err("unable to queue what history asks next in %s%s%s\n", o->store,
			   err[0] ? ": " : "", err);
		return 1;
	}
	fprintf(stderr, "%s: %d job%s queued to narrow change points and measure again runs set aside\n",
		cbench_prog, queued, queued == 1 ? "" : "s");
	return 0;
}

static void list_json(const struct cbench_job *v, size_t n, FILE *f)
{
	struct cbench_jsonw w;

	cbench_jsonw_init(&w, f, true);
	cbench_jsonw_object_start(&w, NULL);
	cbench_jsonw_uint(&w, "schema_version", CBENCH_JSON_SCHEMA_VERSION);
	cbench_jsonw_array_start(&w, "jobs");
	for (size_t i = 0; i < n; i++) {
		const struct cbench_job *j = &v[i];

		cbench_jsonw_object_start(&w, NULL);
		cbench_jsonw_int(&w, "job", j->id);
		cbench_jsonw_string(&w, "kind", j->kind);
		cbench_jsonw_string(&w, "state", j->state);
		cbench_jsonw_string(&w, "object", j->name);
		cbench_jsonw_string(&w, "build_id", j->object);
		if (j->object_b[0]) {
			cbench_jsonw_string(&w, "object_b", j->name_b);
			cbench_jsonw_string(&w, "build_id_b", j->object_b);
		}
		if (!strcmp(j->kind, "run")) {
			cbench_jsonw_string(&w, "commit", j->commit);
			cbench_jsonw_int(&w, "order", j->order);
		}
		cbench_jsonw_string(&w, "options", j->args ? j->args : "");
		if (j->cpu[0])
			cbench_jsonw_string(&w, "cpu", j->cpu);
		if (j->host[0])
			cbench_jsonw_string(&w, "host", j->host);
		if (j->worker[0])
			cbench_jsonw_string(&w, "worker", j->worker);
		cbench_jsonw_int(&w, "claims", j->claims);
		if (j->run)
			cbench_jsonw_int(&w, "run", j->run);
		if (j->error)
			cbench_jsonw_string(&w, "error", j->error);
		if (j->result)
			cbench_jsonw_string(&w, "report", j->result);
		cbench_jsonw_string(&w, "added", j->added);
		if (j->started[0])
			cbench_jsonw_string(&w, "started", j->started);
		if (j->finished[0])
			cbench_jsonw_string(&w, "finished", j->finished);
		cbench_jsonw_object_end(&w);
	}
	cbench_jsonw_array_end(&w);
	cbench_jsonw_object_end(&w);
	cbench_jsonw_finish(&w);
}

static void list_text(const struct cbench_job *v, size_t n, const char *store, FILE *f)
{
	size_t by[4] = { 0 };
	static const char *const states[] = { "queued", "running", "done", "failed" };

	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < 4; k++)
			by[k] += !strcmp(v[i].state, states[k]);
	fprintf(f, "%s: %zu job%s: %zu queued, %zu running, %zu done, %zu failed\n", store, n,
		n == 1 ? "" : "s", by[0], by[1], by[2], by[3]);
	if (n)
		fprintf(f, "\n  job  kind     state    claims  what\n");
	for (size_t i = 0; i < n; i++) {
		const struct cbench_job *j = &v[i];

		fprintf(f, "%5lld  %-7s  %-7s  %6lld  ", j->id, j->kind, j->state, j->claims);
		if (!strcmp(j->kind, "run"))
			fprintf(f, "%s at commit %s (order %lld)", j->name, j->commit, j->order);
		else
			fprintf(f, "%s (%.12s) against %s (%.12s)", j->name, j->object, j->name_b,
				j->object_b);
		if (j->cpu[0] || j->host[0])
			fprintf(f, "; on cpu %s, host %s", j->cpu[0] ? j->cpu : "any",
				j->host[0] ? j->host : "any");
		if (j->worker[0])
			fprintf(f, "; worker %s", j->worker);
		if (j->run)
			fprintf(f, "; run %lld", j->run);
		if (j->error)
			fprintf(f, "; %s", j->error);
		fputc('\n', f);
	}
}

static int queue_list(const struct queue_options *o, int nops)
{
	struct cbench_job *v;
	struct cbench_store s;
	char err[1024];
	size_t n;
	int ret;

	if (nops)
		return cbench_usage_error("lab", "queue list takes no operand");
	if (o->format && strcmp(o->format, "text") && strcmp(o->format, "json"))
		return cbench_usage_error("lab", "--format wants text or json, not '%s'", o->format);
	ret = cbench_store_open(&s, o->store, false, err, sizeof(err));
	ret = ret ? ret : cbench_queue_list(&s, &v, &n, err, sizeof(err));
	if (!ret || s.db)
		cbench_store_close(&s);
	if (ret) {
		cbench_err("unable to read the queue of %s: %s\n", o->store, err);
		return 1;
	}
	if (o->format && !strcmp(o->format, "json"))
		list_json(v, n, stdout);
	else
		list_text(v, n, o->store, stdout);
	cbench_queue_free(v, n);
	return 0;
}

/* ---- the worker ------------------------------------------------------- */

static volatile sig_atomic_t stopping;

static void on_signal(int sig)
{
	(void)sig;
	stopping = 1;
}

struct worker {
	const struct queue_options *o;
	struct cbench_store s;
	char name[320], cpu[512], host[128];
	char dir[64];			/* the job at hand's scratch directory */
};

/* The machine as the store's runs name it: host, and "model (name)". */
static void machine_of(struct worker *w)
{
	struct cbench_machine m;

	cbench_machine_probe(&m);
	snprintf(w->host, sizeof(w->host), "%s", m.hostname);
	snprintf(w->cpu, sizeof(w->cpu), "%s family %u model %u stepping %u (%s)", m.cpu_vendor,
		 m.cpu_family, m.cpu_model, m.cpu_stepping, m.cpu_name[0] ? m.cpu_name : m.cpu_vendor);
	if (w->o->name)
		snprintf(w->name, sizeof(w->name), "%s", w->o->name);
	else
		snprintf(w->name, sizeof(w->name), "%s:%d", m.hostname, (int)getpid());
}

/* The job's command, run or audit, in this (forked) process: its exit status. */
static int job_main(char **argv)
{
	int argc = 0, status;

	while (argv[argc])
		argc++;
	/* The report's command line is the job's. */
	cbench_context_init(argc, argv);
	status = !strcmp(argv[1], "run") ? cbench_run_main(argc - 1, argv + 1) :
					    cbench_audit_main(argc - 1, argv + 1);
	fflush(NULL);
	return status;
}

/* The job's process: its output into out, the signal mask old restored. */
static void __attribute__((noreturn)) job_process(char **argv, const char *out,
						  const sigset_t *old)
{
	/* The worker's death ends the job's measurement too; a signal to
	 * the worker's process group (a terminal's ^C) is the worker's to
	 * pass on, not the job's. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	setpgid(0, 0);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	sigprocmask(SIG_SETMASK, old, NULL);
	if (!freopen(out, "w", stdout) || dup2(fileno(stdout), 2) < 0)
		_exit(126);
	_exit(job_main(argv));
}

/*
 * Runs the job's command (argv: "cbenchctl", run or audit, its options) in
 * a process of its own and waits,
 * renewing j's lease every lease/3 s; its output into dir/out.  The exit
 * status, -ESTALE when the lease was lost (the child killed), -EINTR when
 * the worker was told to stop (the child killed), or -errno.
 */
static int run_child(struct worker *w, const struct cbench_job *j, char **argv, char *err,
		     size_t errlen)
{
	char out[PATH_MAX], why[512];
	time_t renewed = time(NULL);
	int status, ret = 0, pidfd;
	sigset_t stops, old;
	pid_t pid;

	snprintf(out, sizeof(out), "%s/out", w->dir);
	/* SIGINT and SIGTERM wait while we are not asleep: none is lost
	 * between looking at `stopping` and going to sleep (ppoll). */
	sigemptyset(&stops);
	sigaddset(&stops, SIGINT);
	sigaddset(&stops, SIGTERM);
	sigprocmask(SIG_BLOCK, &stops, &old);
	pid = fork();
	if (pid < 0) {
		ret = -errno;
		sigprocmask(SIG_SETMASK, &old, NULL);
		snprintf(err, errlen, "cannot fork the job's process: %s", strerror(-ret));
		return ret;
	}
	if (!pid)
		job_process(argv, out, &old);
	/* Woken when the child ends (its pidfd), for a renewal, or by a signal. */
	pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);
		long long left = w->o->lease / 3 - (long long)(time(NULL) - renewed);
		struct pollfd p = { .fd = pidfd, .events = POLLIN };
		struct timespec ts = { .tv_sec = left > 0 ? left : 1 };

		if (r == pid)
			break;
		if (r < 0 && errno != EINTR) {
			ret = -errno;
			break;
		}
		if (stopping && !ret) {
			ret = -EINTR;
			kill(pid, SIGKILL);
		}
		if (!ret && left <= 0) {
			int r2 = cbench_queue_renew(&w->s, j, w->o->lease, why, sizeof(why));

			if (r2 == -ESTALE) {
				snprintf(err, errlen, "%s", why);
				ret = -ESTALE;
				kill(pid, SIGKILL);
			} else if (r2) {
				fprintf(stderr, "%s: worker %s: job %lld: %s (trying again)\n", cbench_prog,
					w->name, j->id, why);
			} else {
				renewed = time(NULL);
			}
			ts.tv_sec = w->o->lease / 3;
		}
		if (ret || pidfd < 0)
			ts = (struct timespec){ .tv_nsec = 100 * 1000 * 1000 };
		ppoll(pidfd >= 0 ? &p : NULL, pidfd >= 0, &ts, &old);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (pidfd >= 0)
		close(pidfd);
	/* Told to stop while the job ended on its own (it had the signal
	 * too): the job goes back all the same. */
	if (!ret && stopping)
		ret = -EINTR;
	if (ret)
		return ret;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* The last lines of the child's output, as the job's error. */
static void tail_of(const struct worker *w, int status, char *out, size_t len)
{
	char path[PATH_MAX], *text = NULL;
	size_t n = 0;

	snprintf(path, sizeof(path), "%s/out", w->dir);
	snprintf(out, len, "cbenchctl exited with status %d", status);
	if (!cbench_read_file(path, 1 << 20, &text, &n) && n) {
		const char *p = text + n;
		int lines = 0;

		while (p > text && lines < 4)
			lines += *--p == '\n';
		snprintf(out, len, "cbenchctl exited with status %d: %s", status, p + (*p == '\n'));
		for (char *c = out; *c; c++)
			if (*c == '\n')
				*c = c[1] ? ' ' : '\0';
	}
	free(text);
}

/* argv: cbenchctl CMD, the job's options, the worker's, then the objects. */
static char **child_argv(const struct cbench_job *j, const char *cmd, const char *report,
			 const char *a, const char *b)
{
	size_t n = 10;			/* the fixed words, the objects, a last option
					 * without its newline, the NULL */
	char **argv, *p;
	int k = 0;

	for (const char *c = j->args; c && *c; c++)
		n += *c == '\n';
	argv = calloc(n, sizeof(*argv));
	if (!argv)
		return NULL;
	argv[k++] = (char *)"cbenchctl";
	argv[k++] = (char *)cmd;
	for (p = j->args; p && *p;) {
		char *nl = strchr(p, '\n');

		if (nl)
			*nl = '\0';
		argv[k++] = p;
		p = nl ? nl + 1 : p + strlen(p);
	}
	argv[k++] = (char *)"--format";
	argv[k++] = (char *)"json";
	argv[k++] = (char *)"-o";
	argv[k++] = (char *)report;
	argv[k++] = (char *)a;
	if (b)
		argv[k++] = (char *)b;
	return argv;
}

/*
 * The object of build ID id into the scratch directory's side ('a' or
 * 'b'), its path into out: 0; 1 when the job cannot be done (the store
 * lacks the object, or holds a damaged one: error says why); -errno when
 * this machine failed (a full disk): the job goes back to the queue.
 */
static int fetch(struct worker *w, const char *id, char side, char *out, size_t outlen,
		 char *error, size_t errlen)
{
	char sub[PATH_MAX];
	int ret;

	snprintf(sub, sizeof(sub), "%s/%c", w->dir, side);
	if (mkdir(sub, 0700)) {
		ret = -errno;
		snprintf(error, errlen, "cannot make %.400s: %s", sub, strerror(-ret));
		return ret;
	}
	ret = cbench_store_get_object(&w->s, id, sub, out, outlen, error, errlen);
	return ret == -ENOENT || ret == -EINVAL ? 1 : ret;
}

/* Runs argv once into report and reads what it wrote: into *result (a
 * confirmation) or *run (a run job), or why not into error.  0,
 * -EAGAIN where a run's every benchmark ran shared (error says so), or
 * -ESTALE / -EINTR / -errno. */
static int measure_once(struct worker *w, struct cbench_job *j, char **argv, const char *report,
			struct cbench_store_run *run, char **result, char *error, size_t errlen)
{
	bool confirm = !strcmp(j->kind, "confirm");
	char note[640];
	size_t len;
	int status;

	error[0] = '\0';
	unlink(report);
	status = run_child(w, j, argv, error, errlen);
	if (status < 0)
		return status;
	/* audit: 3 and 4 are its gate's verdicts, results all the same. */
	if (status && !(confirm && (status == 3 || status == 4))) {
		tail_of(w, status, error, errlen);
		return 0;
	}
	if (cbench_read_file(report, REPORT_MAX, result, &len)) {
		snprintf(error, errlen, "cbenchctl %s wrote no report", confirm ? "audit" : "run");
		return 0;
	}
	if (confirm)
		return 0;
	status = cbench_store_read_report(*result, len, run, note, sizeof(note), error, errlen);
	free(*result);
	*result = NULL;
	if (status == -EAGAIN)
		return status;
	if (!status) {
		snprintf(run->commit, sizeof(run->commit), "%s", j->commit);
		run->order = j->order;
		error[0] = '\0';
		/* Benchmarks left out (every trial shared), or no digest. */
		if (note[0])
			fprintf(stderr, "%s: job %lld: note: %s\n", cbench_prog, j->id, note);
	}
	return 0;
}

/* Measures j; its results into *run (a run job) or *result (a confirmation),
 * or why it failed into error.  A run whose every benchmark ran on a shared
 * core is measured again, JOB_SHARED_ATTEMPTS times in all.  0, or -ESTALE /
 * -EINTR / -errno. */
static int measure(struct worker *w, struct cbench_job *j, struct cbench_store_run *run,
		   char **result, char *error, size_t errlen)
{
	char a[PATH_MAX], b[PATH_MAX], report[PATH_MAX];
	bool confirm = !strcmp(j->kind, "confirm");
	char **argv;
	int ret;

	ret = fetch(w, j->object, 'a', a, sizeof(a), error, errlen);
	if (!ret && confirm)
		ret = fetch(w, j->object_b, 'b', b, sizeof(b), error, errlen);
	if (ret)
		return ret > 0 ? 0 : ret;
	snprintf(report, sizeof(report), "%s/report.json", w->dir);
	argv = child_argv(j, confirm ? "audit" : "run", report, a, confirm ? b : NULL);
	if (!argv) {
		snprintf(error, errlen, "out of memory");
		return -ENOMEM;
	}
	for (int attempt = 1;; attempt++) {
		/* The lease from here, whatever fetching the objects or the
		 * attempt before took. */
		ret = cbench_queue_renew(&w->s, j, w->o->lease, error, errlen);
		if (ret == -ESTALE)
			break;
		ret = measure_once(w, j, argv, report, run, result, error, errlen);
		if (ret != -EAGAIN)
			break;
		if (attempt == JOB_SHARED_ATTEMPTS) {
			size_t at = strlen(error);

			snprintf(error + at, errlen - at, "; measured %d times", attempt);
			ret = 0;
			break;
		}
		fprintf(stderr, "%s: worker %s: job %lld (%s %s): every benchmark ran on a core another "
			"thread shared; measuring it again (%d of %d)\n", cbench_prog, w->name, j->id,
			j->kind, j->name, attempt + 1, JOB_SHARED_ATTEMPTS);
	}
	free(argv);
	return ret;
}

/* One job claimed: measured, ended.  0, or -EINTR to stop, or -errno. */
static int do_job(struct worker *w, struct cbench_job *j)
{
	struct cbench_store_run run = { 0 };
	char error[2048] = "", err[1024];
	char *result = NULL;
	long long run_id = 0;
	int ret;

	snprintf(w->dir, sizeof(w->dir), SCRATCH_PREFIX "%d.XXXXXX", (int)getpid());
	if (!mkdtemp(w->dir)) {
		ret = -errno;
		snprintf(error, sizeof(error), "cannot make a scratch directory: %s", strerror(-ret));
	} else {
		ret = measure(w, j, &run, &result, error, sizeof(error));
	}
	/* The lease, renewed before the results wait for the store's lock. */
	if (!ret && cbench_queue_renew(&w->s, j, w->o->lease, err, sizeof(err)) == -ESTALE) {
		snprintf(error, sizeof(error), "%s", err);
		ret = -ESTALE;
	}
	fprintf(stderr, "%s: worker %s: job %lld (%s %s) ", cbench_prog, w->name, j->id, j->kind,
		j->name);
	if (ret == -ESTALE) {
		fprintf(stderr, "lost: %s\n", error);
		ret = 0;
	} else {
		bool done = !ret && !error[0];
		int r2 = cbench_queue_finish(&w->s, j, done && run.nresults ? &run : NULL,
					     done ? result : NULL, ret ? NULL : error[0] ? error : NULL,
					     &run_id, err, sizeof(err));

		if (r2 == -ESTALE)
			fprintf(stderr, "lost: %s\n", err);
		else if (r2)
			fprintf(stderr, "not ended: %s\n", err);
		else if (ret)
			fprintf(stderr, "put back in the queue%s%s\n", error[0] ? ": " : "", error);
		else if (error[0])
			fprintf(stderr, "failed: %s\n", error);
		else if (run_id)
			fprintf(stderr, "done: run %lld, commit %s\n", run_id, j->commit);
		else
			fprintf(stderr, "done\n");
		if (r2 && r2 != -ESTALE && !ret)
			ret = r2;
	}
	cbench_store_scratch_remove(w->dir);
	cbench_store_run_free(&run);
	free(result);
	return ret;
}

/* The scratch directories of workers that died (killed mid-job, the
 * machine reset): each holds a copy of its job's objects. */
static void remove_stale_scratch(void)
{
	DIR *d = opendir(SCRATCH_DIR);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		char path[PATH_MAX], *end;
		long pid;

		if (strncmp(e->d_name, SCRATCH_NAME, strlen(SCRATCH_NAME)))
			continue;
		pid = strtol(e->d_name + strlen(SCRATCH_NAME), &end, 10);
		if (end == e->d_name + strlen(SCRATCH_NAME) || *end != '.' || pid <= 0 ||
		    !kill((pid_t)pid, 0) || errno != ESRCH)
			continue;
		snprintf(path, sizeof(path), "%s/%s", SCRATCH_DIR, e->d_name);
		cbench_store_scratch_remove(path);
	}
	if (d)
		closedir(d);
}

static int worker(const struct queue_options *o, int nops)
{
	struct worker w = { .o = o };
	struct sigaction sa = { .sa_handler = on_signal };
	char err[1024], why[1024];
	size_t jobs = 0;
	bool others;
	int ret;

	if (nops)
		return cbench_usage_error("lab", "lab worker takes no operand");
	if (o->commit || o->have_order || o->cpu || o->host || o->format || o->nextra)
		return cbench_usage_error("lab", "lab worker takes --store, --lease, --poll, --drain "
					  "and --name only");
	if (o->lease < 3)
		return cbench_usage_error("lab", "--lease wants 3 seconds or more (it is renewed "
					  "every third of it)");
	machine_of(&w);
	remove_stale_scratch();
	ret = cbench_store_open(&w.s, o->store, true, err, sizeof(err));
	if (ret) {
		cbench_err("unable to work for %s: %s\n", o->store, err);
		return 1;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	fprintf(stderr, "%s: worker %s on %s (%s) takes jobs from %s\n", cbench_prog, w.name, w.host,
		w.cpu, o->store);
	while (!stopping) {
		struct cbench_job j;

		ret = cbench_queue_claim(&w.s, w.name, w.cpu, w.host, o->lease, &j, why, sizeof(why),
					 &others, err, sizeof(err));
		if (ret < 0) {
			cbench_err("unable to take a job from %s: %s\n", o->store, err);
			break;
		}
		if (ret > 0) {
			jobs++;
			ret = do_job(&w, &j);
			cbench_job_free(&j);
			if (ret && ret != -EINTR) {
				cbench_err("worker %s ends: this machine cannot do jobs now (%s; the "
					   "job is back in the queue)\n", w.name, strerror(-ret));
				break;
			}
			ret = 0;
			continue;
		}
		if (o->drain) {
			/* Jobs wait that this machine never takes: say so. */
			if (others) {
				cbench_err("worker %s (cpu %s, host %s) ends: %s\n", w.name, w.cpu, w.host,
					   why);
				ret = -ENOENT;
			}
			break;
		}
		for (long long t = 0; t < o->poll * 10 && !stopping; t++)
			usleep(100 * 1000);
	}
	cbench_store_close(&w.s);
	fprintf(stderr, "%s: worker %s ends after %zu job%s\n", cbench_prog, w.name, jobs,
		jobs == 1 ? "" : "s");
	return ret ? 1 : 0;
}

int cbench_lab_queue_main(int argc, char *argv[], bool work)
{
	struct queue_options o = { 0 };
	const char *action = work ? "worker" : argc > 1 ? argv[1] : "";
	char **ops;
	int nops, ret, dash;

	/* What follows "--" is the job's, not ours. */
	for (dash = 1; dash < argc && strcmp(argv[dash], "--"); dash++)
		;
	if (dash < argc) {
		o.extra = argv + dash + 1;
		o.nextra = argc - dash - 1;
	}
	if (!work) {
		if (argc < 2 || argv[1][0] == '-') {
			if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
				help(stdout);
				return 0;
			}
			return cbench_usage_error("lab", "queue wants an action: add, confirm, keep, next "
						  "or list");
		}
		argc--;
		argv++;
		dash--;
	}
	ret = parse(&o, dash, argv);
	if (ret)
		return ret < 0 ? 0 : ret;
	ops = argv + optind;
	nops = dash - optind;
	if (o.nextra && strcmp(action, "add") && strcmp(action, "confirm") && strcmp(action, "next"))
		return cbench_usage_error("lab", "options after -- go with queue add, confirm and next");
	if (work)
		return worker(&o, nops);
	if (!strcmp(action, "add") || !strcmp(action, "confirm"))
		return queue_add(&o, ops, nops, !strcmp(action, "confirm"));
	if (!strcmp(action, "list"))
		return queue_list(&o, nops);
	if (!strcmp(action, "keep"))
		return queue_keep(&o, ops, nops);
	if (!strcmp(action, "next"))
		return queue_next(&o, nops);
	return cbench_usage_error("lab", "no queue action '%s': add, confirm, keep, next or list",
				  action);
}
