// SPDX-License-Identifier: GPL-2.0
/*
 * `run --resume REPORT.json`: a run that a signal stopped (or that ran out
 * of its time slot) goes on where it stopped.  The report says what it
 * finished; what it measured is carried over as it was written, and only
 * what it did not finish is measured: a benchmark it finished is carried
 * whole, and one it began keeps the trials it finished (trials go round
 * the benchmarks, so a run stopped at 80 % finished none), its figures
 * summarized anew over those and the trials measured now.
 *
 * A resumed report is one run only if both halves measured alike: the same
 * object (its build ID), the same options that shape a measurement, the
 * same machine, kernel, CPU, backend and cbenchctl.  Anything else is
 * refused, naming what differs, before anything is measured.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/run_parts.h"
#include "error.h"
#include "report/carry.h"
#include "report/json.h"
#include "report/readfile.h"
#include "report/report_check.h"
#include "report/report.h"
#include "session/session.h"

/* A run report larger than this is no report of ours. */
#define RESUME_REPORT_MAX (256u << 20)

int cbench_resume_options_check(const struct cbench_run_options *o, FILE *err)
{
	const char *why = o->both ? "--backend both (it writes no JSON report to resume from)" :
			  o->samples ? "the raw measurements (--samples or -o *.csv): the report keeps "
				       "only the figures of the trials it carries over" : NULL;

	if (!o->resume || !why)
		return 0;
	fprintf(err, "%s: run --resume cannot write %s\n", cbench_prog, why);
	return -EINVAL;
}

/* What the file is when it is not a run's JSON report, for the refusal; NULL if it is one. */
static const char *not_a_run(const struct cbench_json *doc)
{
	if (doc->type != CBENCH_JSON_OBJECT)
		return "not a cbench run report (not a JSON object)";
	if (cbench_json_get(doc, "audits"))
		return "an audit's report, not a run's";
	if (!cbench_json_get(doc, "schema_version") || !cbench_json_get(doc, "config") ||
	    !cbench_json_get(doc, "benchmarks"))
		return "not a cbench run report (no schema_version, config and benchmarks)";
	if (!cbench_json_get(cbench_json_get(doc, "config"), "run_options"))
		return "a run report that does not say the options it was measured with (a cbenchctl "
		       "older than --resume wrote it): measure it again";
	return NULL;
}

/* Reads rs->path whole into rs->doc; 0, or -1 after saying why. */
static int read_report(struct cbench_resume *rs)
{
	char *text = NULL, why[300];
	const char *what;
	size_t len;
	int ret = cbench_read_file(rs->path, RESUME_REPORT_MAX, &text, &len);

	if (ret) {
		cbench_err("unable to resume %s: %s\n", rs->path, strerror(-ret));
		return -1;
	}
	ret = cbench_json_parse(text, len, &rs->doc, why, sizeof(why));
	free(text);
	if (ret) {
		cbench_err("unable to resume %s: it is not JSON (%s); give the JSON report of the run to "
			   "resume (run -o NAME.json)\n", rs->path, why);
		return -1;
	}
	what = not_a_run(rs->doc);
	if (what) {
		cbench_err("unable to resume %s: %s\n", rs->path, what);
		return -1;
	}
	if (cbench_report_check(rs->doc, why, sizeof(why))) {
		cbench_err("unable to resume %s: %s\n", rs->path, why);
		return -1;
	}
	rs->config = cbench_json_get(rs->doc, "config");
	rs->benchmarks = cbench_json_get(rs->doc, "benchmarks");
	return 0;
}

/* The measuring options the report names and o does not match; 0 if none. */
static int options_differ(const struct cbench_resume *rs, const struct cbench_run_options *o)
{
	const struct cbench_json *ro = cbench_json_get(rs->config, "run_options");
	const char *filter = cbench_json_string(ro, "filter", NULL);
	const struct { const char *key, *option; double now; } nums[] = {
		{ "trials", "--trials", o->trials }, { "trial_time_s", "--trial-time", o->trial_time_s },
		{ "warmup_s", "--warmup", o->warmup_s }, { "time_limit_s", "--time-limit", o->time_limit_s },
	};

	for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
		double then = cbench_json_number(ro, nums[i].key, -1);
		const struct cbench_json *a = cbench_json_get(ro, i == 1 ? "trial_time_auto" :
								   i == 2 ? "warmup_auto" : "");
		bool was_auto = a && a->type == CBENCH_JSON_BOOL && a->boolean;

		/* auto gives the same again for the same benchmarks. */
		if (was_auto && nums[i].now == 0)
			continue;
		if (then != nums[i].now) {
			cbench_err("unable to resume %s: it was measured with %s %g, this run asks for %s "
				   "%g: give the options it was run with (%s)\n", rs->path, nums[i].option,
				   then, nums[i].option, nums[i].now,
				   cbench_json_string(rs->config, "command", "?"));
			return -1;
		}
	}
	if ((filter || o->filter) && (!filter || !o->filter || strcmp(filter, o->filter))) {
		cbench_err("unable to resume %s: it measured %s%s%s, this run %s%s%s: give the options it "
			   "was run with (%s)\n", rs->path, filter ? "with --filter '" : "every benchmark",
			   filter ? filter : "", filter ? "'" : " (no --filter)",
			   o->filter ? "asks for --filter '" : "every benchmark (no --filter)",
			   o->filter ? o->filter : "", o->filter ? "'" : "",
			   cbench_json_string(rs->config, "command", "?"));
		return -1;
	}
	return 0;
}

int cbench_resume_open(struct cbench_resume *rs, const char *path, const struct cbench_run_options *o)
{
	const struct cbench_json *stop;

	memset(rs, 0, sizeof(*rs));
	rs->path = path;
	if (read_report(rs) || options_differ(rs, o))
		return -1;
	stop = cbench_json_get(rs->config, "interrupted");
	if (!stop) {
		cbench_err("nothing to resume: %s is a complete run (every benchmark has its %u trials); "
			   "its reports stand as they are\n", rs->path, o->trials);
		return 1;
	}
	rs->trials = o->trials;
	return 0;
}

/* One fact of where the report was measured against this run's; 0 or -1 after saying why. */
static int same(const struct cbench_resume *rs, const char *what, const char *then, const char *now,
		const char *fix)
{
	if (!strcmp(then, now))
		return 0;
	cbench_err("unable to resume %s: it was measured %s %s, this run %s %s%s%s\n", rs->path, what,
		   then[0] ? then : "(none)", what, now[0] ? now : "(none)", fix ? ": " : "",
		   fix ? fix : "");
	return -1;
}

bool cbench_resume_seed(const struct cbench_resume *rs, uint64_t *seed)
{
	const struct cbench_json *layout = cbench_json_get(rs->config, "code_layout");

	return layout && !cbench_json_u64(layout, "seed", seed);
}

int cbench_resume_check(const struct cbench_resume *rs, const struct cbench_session *s)
{
	const struct cbench_machine *m = &s->machine;
	const struct cbench_json *c = rs->config;
	char model[160], cpu[16], then_cpu[16];

	snprintf(model, sizeof(model), "%s family %u model %u stepping %u", m->cpu_vendor,
		 m->cpu_family, m->cpu_model, m->cpu_stepping);
	snprintf(cpu, sizeof(cpu), "%d", s->lane[0].env.cpu);
	snprintf(then_cpu, sizeof(then_cpu), "%.0f", cbench_json_number(c, "worker_cpu", -1));
	if (same(rs, "on an object of build ID", cbench_json_string(c, "so_build_id", ""),
		 s->lib[0].build_id, "the object changed since; measure it anew") ||
	    same(rs, "on machine", cbench_json_string(c, "machine", ""), m->hostname,
		 "resume it where it ran") ||
	    same(rs, "on a CPU", cbench_json_string(c, "cpu_model", ""), model, NULL) ||
	    same(rs, "under kernel", cbench_json_string(c, "kernel", ""), m->kernel_release, NULL) ||
	    same(rs, "by cbenchctl", cbench_json_string(c, "cbench_version", ""), CBENCH_VERSION,
		 "resume it with the cbenchctl that began it") ||
	    same(rs, "with backend", cbench_json_string(c, "backend", ""), s->ops->name,
		 "give --backend as it was") ||
	    same(rs, "on CPU", then_cpu, cpu, "give --cpu as it was") ||
	    same(rs, "in quiet mode", cbench_json_string(c, "quiet_mode", ""), s->lane[0].env.quiet,
		 "give --quiet-mode as it was"))
		return -1;
	return 0;
}

int cbench_resume_carry(struct cbench_resume *rs, struct cbench_result *res)
{
	for (size_t i = 0; rs->benchmarks->type == CBENCH_JSON_ARRAY && i < rs->benchmarks->n; i++) {
		const struct cbench_json *b = &rs->benchmarks->items[i];
		int ret;

		if (strcmp(cbench_json_string(b, "id", ""), res->exp->id))
			continue;
		/* Begun: its trials so far, the rest measured now. */
		if (cbench_carry_trials_done(b) < rs->trials) {
			ret = cbench_trials_carry(b, res, rs->trials);
			rs->carried_trials += res->carried_trials;
			return ret;
		}
		free(res->trials);
		res->trials = NULL;
		ret = cbench_result_carry(b, res);
		if (ret)
			return ret;
		rs->carried++;
		return 1;
	}
	return 0;
}

void cbench_resume_mark(const struct cbench_resume *rs, struct cbench_report *r)
{
	r->resumed = (struct cbench_report_resumed){
		.path = rs->path, .date = cbench_json_string(rs->config, "date", "?"),
		.carried = rs->carried, .carried_trials = rs->carried_trials,
	};
	fprintf(stderr, "resumed %s: %zu benchmark%s carried over whole, %zu trial%s of those it "
		"had begun; the rest measured now\n", rs->path, rs->carried, rs->carried == 1 ? "" : "s",
		rs->carried_trials, rs->carried_trials == 1 ? "" : "s");
}

void cbench_resume_close(struct cbench_resume *rs)
{
	if (rs->doc)
		cbench_json_free(rs->doc);
	rs->doc = NULL;
}
