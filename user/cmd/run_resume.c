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
#include "report/report.h"
#include "results/doc.h"
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

/* Reads rs->path into rs->doc; 0, or -1 after saying why. */
static int read_report(struct cbench_resume *rs)
{
	char why[CBENCH_ERR_LEN];
	int ret = cbench_doc_load(&rs->doc, rs->path, RESUME_REPORT_MAX, 0, why, sizeof(why));

	if (ret == -EINVAL && !strncmp(why, CBENCH_DOC_NOT_JSON, strlen(CBENCH_DOC_NOT_JSON))) {
		cbench_err("unable to resume %s: it is not JSON (%s); give the JSON report of the run to "
			   "resume (run -o NAME.json)\n", rs->path, why + strlen(CBENCH_DOC_NOT_JSON));
		return -1;
	}
	if (ret) {
		cbench_err("unable to resume %s: %s\n", rs->path, why);
		return -1;
	}
	if (!rs->doc.head.options.known) {
		cbench_err("unable to resume %s: a run report that does not say the options it was "
			   "measured with (a cbenchctl older than --resume wrote it): measure it again\n",
			   rs->path);
		return -1;
	}
	return 0;
}

/* The measuring options the report names and o does not match; 0 if none. */
static int options_differ(const struct cbench_resume *rs, const struct cbench_run_options *o)
{
	const struct cbench_doc_options *ro = &rs->doc.head.options;
	const char *filter = ro->filter, *command = rs->doc.head.command;
	const struct { const char *option; double then, now; bool was_auto; } nums[] = {
		{ "--trials", ro->trials, o->trials, false },
		{ "--trial-time", ro->trial_time_s, o->trial_time_s, ro->trial_time_auto },
		{ "--warmup", ro->warmup_s, o->warmup_s, ro->warmup_auto },
		{ "--time-limit", ro->time_limit_s, o->time_limit_s, false },
	};

	/* A run stopped by precision took trials as its benchmarks needed:
	 * no count of trials says what is left to measure. */
	if (ro->precision > 0) {
		cbench_err("unable to resume %s: it stopped each benchmark's trials at --precision "
			   "%g%%%s, and --resume goes on only with a run of a number of trials: measure it "
			   "again (with --trials K, a run stopped can be resumed)\n", rs->path,
			   100 * ro->precision, ro->precision_auto ? " (the default without --trials)" : "");
		return -1;
	}
	for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
		double then = nums[i].then;

		/* auto gives the same again for the same benchmarks. */
		if (nums[i].was_auto && nums[i].now == 0)
			continue;
		if (then != nums[i].now) {
			cbench_err("unable to resume %s: it was measured with %s %g, this run asks for %s "
				   "%g: give the options it was run with (%s)\n", rs->path, nums[i].option,
				   then, nums[i].option, nums[i].now, command[0] ? command : "?");
			return -1;
		}
	}
	if (ro->keep_shared != o->keep_shared) {
		cbench_err("unable to resume %s: it was measured %s --keep-shared, this run %s: give the "
			   "options it was run with (%s)\n", rs->path, ro->keep_shared ? "with" : "without",
			   o->keep_shared ? "asks for it" : "does not", command[0] ? command : "?");
		return -1;
	}
	if ((filter || o->filter) && (!filter || !o->filter || strcmp(filter, o->filter))) {
		cbench_err("unable to resume %s: it measured %s%s%s, this run %s%s%s: give the options it "
			   "was run with (%s)\n", rs->path, filter ? "with --filter '" : "every benchmark",
			   filter ? filter : "", filter ? "'" : " (no --filter)",
			   o->filter ? "asks for --filter '" : "every benchmark (no --filter)",
			   o->filter ? o->filter : "", o->filter ? "'" : "", command[0] ? command : "?");
		return -1;
	}
	return 0;
}

int cbench_resume_open(struct cbench_resume *rs, const char *path, const struct cbench_run_options *o)
{
	memset(rs, 0, sizeof(*rs));
	rs->path = path;
	if (read_report(rs) || options_differ(rs, o))
		return -1;
	if (!rs->doc.head.interrupted) {
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
	*seed = rs->doc.head.seed;
	return rs->doc.head.have_seed;
}

int cbench_resume_check(const struct cbench_resume *rs, const struct cbench_session *s)
{
	const struct cbench_machine *m = &s->machine;
	const struct cbench_doc_head *c = &rs->doc.head;
	char model[160], cpu[16], then_cpu[16];

	snprintf(model, sizeof(model), "%s family %u model %u stepping %u", m->cpu_vendor,
		 m->cpu_family, m->cpu_model, m->cpu_stepping);
	snprintf(cpu, sizeof(cpu), "%d", s->lane[0].env.cpu);
	snprintf(then_cpu, sizeof(then_cpu), "%.0f", c->worker_cpu);
	if (same(rs, "on an object of build ID", c->so_build_id,
		 s->lib[0].build_id, "the object changed since; measure it anew") ||
	    same(rs, "on machine", c->machine, m->hostname,
		 "resume it where it ran") ||
	    same(rs, "on a CPU", c->cpu_model, model, NULL) ||
	    same(rs, "under kernel", c->kernel, m->kernel_release, NULL) ||
	    same(rs, "by cbenchctl", c->version, CBENCH_VERSION,
		 "resume it with the cbenchctl that began it") ||
	    same(rs, "with backend", c->backend, s->ops->name,
		 "give --backend as it was") ||
	    same(rs, "on CPU", then_cpu, cpu, "give --cpu as it was") ||
	    same(rs, "in quiet mode", c->quiet_mode, s->lane[0].env.quiet,
		 "give --quiet-mode as it was"))
		return -1;
	return 0;
}

int cbench_resume_carry(struct cbench_resume *rs, struct cbench_result *res)
{
	const struct cbench_doc_bench *b = cbench_doc_find(&rs->doc, res->exp->id, true);
	int ret;

	if (!b)
		return 0;
	/* Begun: its trials so far, the rest measured now. */
	if (cbench_doc_trials_done(b) < rs->trials) {
		cbench_doc_trials_carry(b, res, rs->trials);
		rs->carried_trials += res->carried_trials;
		return 0;
	}
	free(res->trials);
	res->trials = NULL;
	ret = cbench_doc_result(b, res);
	if (ret)
		return ret;
	rs->carried++;
	return 1;
}

void cbench_resume_mark(const struct cbench_resume *rs, struct cbench_report *r)
{
	r->resumed = (struct cbench_report_resumed){
		.path = rs->path, .date = rs->doc.head.date[0] ? rs->doc.head.date : "?",
		.carried = rs->carried, .carried_trials = rs->carried_trials,
	};
	fprintf(stderr, "resumed %s: %zu benchmark%s carried over whole, %zu trial%s of those it "
		"had begun; the rest measured now\n", rs->path, rs->carried, rs->carried == 1 ? "" : "s",
		rs->carried_trials, rs->carried_trials == 1 ? "" : "s");
}

void cbench_resume_close(struct cbench_resume *rs)
{
	cbench_doc_free(&rs->doc);
}
