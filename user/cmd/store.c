// SPDX-License-Identifier: GPL-2.0
/*
 * `cbenchctl store`: a results store in one SQLite file or a PostgreSQL
 * database (store/store.h).
 * `store add` adds a run's JSON report with the commit and order it
 * measured, `store list` shows what the store holds, `store remove` takes
 * a wrong run (or a commit's runs) out, `store import` and
 * `store export` read and write LNT's and Bencher's report formats so that
 * a lab's results server and the store can feed each other.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/subcommands.h"
#include "report/json_writer.h"
#include "report/outfile.h"
#include "report/readfile.h"
#include "session/options.h"
#include "store/add.h"
#include "store/interchange.h"
#include "store/remove.h"
#include "store/series.h"
#include "store/store.h"

/* The largest report we read. */
#define STORE_REPORT_MAX_BYTES (256u << 20)

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %s store add <store> <report.json> --commit ID --order N [options]\n"
		"       %s store list <store> [--format text|json]\n"
		"       %s store remove <store> RUN | --commit ID\n"
		"       %s store import <store> <report> --format lnt|bmf [options]\n"
		"       %s store export <store> --format lnt|bmf -o DIR\n"
		"\n"
		"Keeps runs in one SQLite file (made by the first add), or in a PostgreSQL\n"
		"database named by its URL (postgresql://host/db, credentials as libpq takes\n"
		"them: ~/.pgpass, PGPASSFILE, a service file), for a fleet: each with its machine,\n"
		"the commit and order it measured, the object's build ID and, with\n"
		"--keep-object, a copy of the object so that history --confirm can measure it\n"
		"again.  A series is one benchmark of one object (by its file name) on one\n"
		"machine and backend; `cbenchctl history <store>` finds where one changed.\n"
		"\n"
		"Options:\n"
		"  --commit ID         the commit the run measured (1 to 255 characters);\n"
		"                      remove: every run of this commit\n"
		"  --order N           a whole number that sorts the commits (a build number,\n"
		"                      or the commit's place in `git rev-list --reverse`)\n"
		"  --keep-object DIR   keep a copy of the measured object in DIR, once per build\n"
		"                      (\"store\": in the store itself, where every machine of\n"
		"                      a fleet reaches it)\n"
		"  --object FILE       the object to keep, where the report's path is stale\n"
		"  --format FMT        list: text or json; import and export: lnt or bmf\n"
		"  --machine NAME      the machine's name (default: the report's host; for\n"
		"                      --format bmf, which names none, required)\n"
		"  --backend KIND      import --format bmf: user or kmod (default user)\n"
		"  --name FILE         import --format bmf: the object's file name (default bmf)\n"
		"  -o, --output DIR    export: one report per run into DIR\n"
		"  -h, --help          show this help\n"
		"\n"
		"An LNT report gives its commit and order in its order field (llvm_project_revision,\n"
		"as N.COMMIT, which export writes) unless --commit and --order say otherwise.\n",
		cbench_prog, cbench_prog, cbench_prog, cbench_prog, cbench_prog);
}

enum { OPT_COMMIT = CBENCH_OPT_OWN, OPT_ORDER, OPT_KEEP, OPT_OBJECT, OPT_MACHINE, OPT_NAME };

struct store_options {
	const char *commit, *keep_dir, *object_file, *format, *machine, *name, *output;
	long long order;
	bool have_order;
	enum cbench_backend_kind backend;
	bool backend_given;
};

static int take_option(void *opts, int c, const char *arg, FILE *err)
{
	struct store_options *o = opts;

	switch (c) {
	case OPT_COMMIT:
		if (!cbench_store_commit_valid(arg))
			return cbench_option_refuse(err, "--commit", "1 to 255 characters, no blank", arg);
		o->commit = arg;
		return 0;
	case OPT_ORDER:
		if (cbench_store_order_parse(arg, &o->order))
			return cbench_option_refuse(err, "--order", "a whole number from 0", arg);
		o->have_order = true;
		return 0;
	case OPT_KEEP:
		o->keep_dir = arg;
		return 0;
	case OPT_OBJECT:
		o->object_file = arg;
		return 0;
	case OPT_MACHINE:
		return cbench_option_name("store", "--machine", arg, &o->machine, err);
	case OPT_NAME:
		return cbench_option_name("store", "--name", arg, &o->name, err);
	case CBENCH_OPT_BACKEND:
		o->backend_given = true;
		return cbench_option_backend(arg, &o->backend, err);
	default:
		o->format = arg;
		return 0;
	}
}

static int parse(struct store_options *o, int argc, char *argv[])
{
	static const struct option own[] = {
		{ "commit", required_argument, NULL, OPT_COMMIT },
		{ "order", required_argument, NULL, OPT_ORDER },
		{ "keep-object", required_argument, NULL, OPT_KEEP },
		{ "object", required_argument, NULL, OPT_OBJECT },
		{ "machine", required_argument, NULL, OPT_MACHINE },
		{ "name", required_argument, NULL, OPT_NAME },
		{ NULL, 0, NULL, 0 },
	};
	const struct cbench_option_fields fields = { .output = &o->output };

	memset(o, 0, sizeof(*o));
	o->backend = CBENCH_BACKEND_USER;
	return cbench_options_parse(argc, argv, &fields, own, take_option, o, stderr);
}

static int add(const struct store_options *o, const char *store, const char *report)
{
	struct cbench_store_add a = { .commit = o->commit, .order = o->order, .keep_dir = o->keep_dir,
				      .object_file = o->object_file, .machine = o->machine };
	struct cbench_store_added out;
	char err[CBENCH_ERR_LEN * 2], *text;
	size_t len;
	int ret;

	if (!o->commit || !o->have_order || o->format || o->output)
		return cbench_usage_error("store", "store add takes --commit ID and --order N (and "
					  "--keep-object DIR, --object FILE)");
	ret = cbench_read_file(report, STORE_REPORT_MAX_BYTES, &text, &len);
	if (ret) {
		cbench_err("unable to read %s: %s\n", report,
			   ret == -EFBIG ? "not a regular file, or too large" : strerror(-ret));
		return CBENCH_EXIT_FAILED;
	}
	ret = cbench_store_add_report(store, text, len, &a, &out, err, sizeof(err));
	free(text);
	if (ret) {
		cbench_err("unable to add %s to %s: %s\n", report, store, err);
		return CBENCH_EXIT_FAILED;
	}
	cbench_store_say_added(store, &out, o->commit, o->order);
	return 0;
}

static void list_json(const struct cbench_store_listed *v, size_t n, const char *store, FILE *f)
{
	struct cbench_jsonw j;

	cbench_jsonw_init(&j, f, true);
	cbench_jsonw_object_start(&j, NULL);
	cbench_jsonw_uint(&j, "schema_version", CBENCH_JSON_SCHEMA_VERSION);
	cbench_jsonw_string(&j, "store", store);
	cbench_jsonw_array_start(&j, "runs");
	for (size_t i = 0; i < n; i++) {
		cbench_jsonw_object_start(&j, NULL);
		cbench_jsonw_int(&j, "run", v[i].id);
		cbench_jsonw_int(&j, "order", v[i].order);
		cbench_jsonw_string(&j, "commit", v[i].commit);
		cbench_jsonw_string(&j, "machine", v[i].machine);
		cbench_jsonw_string(&j, "cpu", v[i].cpu);
		cbench_jsonw_string(&j, "backend", v[i].backend);
		cbench_jsonw_string(&j, "object", v[i].object);
		cbench_jsonw_string(&j, "build_id", v[i].build_id);
		cbench_jsonw_string(&j, "date", v[i].date);
		cbench_jsonw_string(&j, "source", v[i].source);
		cbench_jsonw_int(&j, "benchmarks", v[i].benchmarks);
		if (v[i].copy)
			cbench_jsonw_string(&j, "object_copy", v[i].copy);
		if (v[i].note)
			cbench_jsonw_string(&j, "note", v[i].note);
		cbench_jsonw_object_end(&j);
	}
	cbench_jsonw_array_end(&j);
	cbench_jsonw_object_end(&j);
	cbench_jsonw_finish(&j);
}

static void list_text(const struct cbench_store_listed *v, size_t n, const char *store, FILE *f)
{
	size_t series = 0;

	fprintf(f, "%s: %zu run%s\n", store, n, n == 1 ? "" : "s");
	for (size_t i = 0; i < n; i++) {
		const struct cbench_store_listed *r = &v[i];

		if (!i || strcmp(r->object, v[i - 1].object) || strcmp(r->backend, v[i - 1].backend) ||
		    strcmp(r->machine, v[i - 1].machine) || strcmp(r->cpu, v[i - 1].cpu)) {
			fprintf(f, "\n%s on %s (%s), %s backend\n", r->object, r->machine, r->cpu,
				r->backend);
			fprintf(f, "  %5s %8s  %-14s %-14s %-20s %-6s %s\n", "run", "order", "commit",
				"build", "date", "from", "benchmarks");
			series++;
		}
		fprintf(f, "  %5lld %8lld  %-14.*s %-14.12s %-20s %-6s %lld%s\n", r->id, r->order,
			strlen(r->commit) > 14 ? 13 : 14, r->commit, r->build_id, r->date, r->source,
			r->benchmarks, r->copy ? ", object kept" : "");
		if (r->note)
			fprintf(f, "        kept apart: %s\n", r->note);
	}
	if (n)
		fprintf(f, "\n%zu object, machine and backend group%s\n", series, series == 1 ? "" : "s");
}

static int list(const struct store_options *o, const char *store)
{
	struct cbench_store_listed *v;
	struct cbench_store s;
	char err[CBENCH_ERR_LEN];
	size_t n;
	int ret;

	if (o->format && strcmp(o->format, "text") && strcmp(o->format, "json"))
		return cbench_usage_error("store", "store list --format wants text or json, not '%s'",
					  o->format);
	ret = cbench_store_open(&s, store, false, err, sizeof(err));
	if (!ret) {
		ret = cbench_store_runs(&s, &v, &n, err, sizeof(err));
		cbench_store_close(&s);
	}
	if (ret) {
		cbench_err("unable to read %s: %s\n", store, err);
		return CBENCH_EXIT_FAILED;
	}
	if (o->format && !strcmp(o->format, "json"))
		list_json(v, n, store, stdout);
	else
		list_text(v, n, store, stdout);
	cbench_store_runs_free(v, n);
	return ferror(stdout) ? CBENCH_EXIT_FAILED : 0;
}

/* store remove STORE RUN, or STORE --commit ID. */
static int remove_runs(const struct store_options *o, const char *store, const char *run)
{
	char err[CBENCH_ERR_LEN * 2], *end = NULL;
	long long id = -1;
	int ret;

	if (run) {
		errno = 0;
		id = strtoll(run, &end, 10);
	}
	if (o->have_order || o->format || o->output || o->keep_dir || (run && o->commit) ||
	    (!run && !o->commit) || (run && (errno || end == run || *end || id < 1)))
		return cbench_usage_error("store", "store remove takes a run's number (store list shows "
					  "them) or --commit ID");
	ret = cbench_store_remove(store, id, run ? NULL : o->commit, stderr, err, sizeof(err));
	if (ret) {
		cbench_err("unable to remove from %s: %s\n", store, err);
		return CBENCH_EXIT_FAILED;
	}
	return 0;
}

static int import(const struct store_options *o, const char *store, const char *report)
{
	struct cbench_store_import im = {
		.format = o->format, .commit = o->commit, .order = o->have_order ? o->order : -1,
		.machine = o->machine, .name = o->name,
		.backend = o->backend == CBENCH_BACKEND_KMOD ? "kmod" : "user",
	};
	struct cbench_store_added out;
	char err[CBENCH_ERR_LEN * 2];
	int ret;

	if (!o->format || (strcmp(o->format, "lnt") && strcmp(o->format, "bmf")))
		return cbench_usage_error("store", "store import wants --format lnt or bmf");
	ret = cbench_store_import(store, report, &im, &out, err, sizeof(err));
	if (ret) {
		cbench_err("unable to import %s into %s: %s\n", report, store, err);
		return ret == -EINVAL && strstr(err, "--") ? CBENCH_EXIT_USAGE : CBENCH_EXIT_FAILED;
	}
	cbench_store_say_added(store, &out, im.commit, im.order);
	return 0;
}

static int export(const struct store_options *o, const char *store)
{
	char err[CBENCH_ERR_LEN * 2];
	size_t written = 0;
	int ret;

	if (!o->format || (strcmp(o->format, "lnt") && strcmp(o->format, "bmf")) || !o->output)
		return cbench_usage_error("store", "store export wants --format lnt or bmf, and -o DIR");
	ret = cbench_store_export(store, o->format, o->output, &written, err, sizeof(err));
	if (ret) {
		cbench_err("unable to export %s: %s\n", store, err);
		return CBENCH_EXIT_FAILED;
	}
	fprintf(stderr, "%s: %zu report%s written into %s\n", cbench_prog, written,
		written == 1 ? "" : "s", o->output);
	return 0;
}

int cbench_store_main(int argc, char *argv[])
{
	struct store_options o;
	const char *verb = argc > 1 ? argv[1] : "";
	int ret, operands;

	if (!strcmp(verb, "-h") || !strcmp(verb, "--help")) {
		usage(stdout);
		return 0;
	}
	ret = parse(&o, argc - 1, argv + 1);
	if (ret) {
		if (ret > 0)
			usage(stdout);
		return ret > 0 ? 0 : cbench_usage_error("store", NULL);
	}
	operands = argc - 1 - optind;
	if (!strcmp(verb, "add") && operands == 2)
		return add(&o, argv[1 + optind], argv[2 + optind]);
	if (!strcmp(verb, "list") && operands == 1)
		return list(&o, argv[1 + optind]);
	if (!strcmp(verb, "remove") && (operands == 1 || operands == 2))
		return remove_runs(&o, argv[1 + optind], operands == 2 ? argv[2 + optind] : NULL);
	if (!strcmp(verb, "import") && operands == 2)
		return import(&o, argv[1 + optind], argv[2 + optind]);
	if (!strcmp(verb, "export") && operands == 1)
		return export(&o, argv[1 + optind]);
	return cbench_usage_error("store", "store wants add, list, remove, import or export, with a store "
				  "file (and a report to add or import)");
}
