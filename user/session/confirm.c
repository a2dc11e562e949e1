// SPDX-License-Identifier: GPL-2.0
/* Confirming a history's change point with an audit; see confirm.h. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"
#include "report/report_history.h"
#include "report/json.h"
#include "report/readfile.h"
#include "session/confirm.h"
#include "session/session.h"
#include "store/objects.h"
#include "store/store.h"

/* The largest audit report we read back. */
#define CONFIRM_REPORT_MAX_BYTES (64u << 20)

/* "^BenchmarkNAME$" with NAME's regex characters escaped: audit's --filter. */
static void filter_of(const char *name, char *out, size_t len)
{
	size_t o = (size_t)snprintf(out, len, "^Benchmark");

	for (const char *p = name; *p && o + 4 < len; p++) {
		if (strchr(".[]()*+?{}|^$\\", *p))
			out[o++] = '\\';
		out[o++] = *p;
	}
	snprintf(out + o, len - o, "$");
}

/* c not confirmed, for the reason fmt says; returns ret. */
static int not_confirmed(struct cbench_history_change *c, int ret, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int not_confirmed(struct cbench_history_change *c, int ret, const char *fmt, ...)
{
	va_list ap;

	c->confirm = CBENCH_CONFIRM_NO;
	va_start(ap, fmt);
	vsnprintf(c->reason, sizeof(c->reason), fmt, ap);
	va_end(ap);
	return ret;
}

/* Runs the audit of a against b into json, its stderr into log. */
static int audit(const struct cbench_confirm_options *o, const struct cbench_history_series *s,
		 const char *a, const char *b, const char *json, const char *log)
{
	char filter[2 * 512 + 16], min_effect[32], confidence[32], budget[32], cpu[16];
	const char *argv[32];
	int argc = 0;

	filter_of(s->name, filter, sizeof(filter));
	snprintf(min_effect, sizeof(min_effect), "%.17g", o->min_effect_pct);
	snprintf(confidence, sizeof(confidence), "%.17g", o->confidence);
	snprintf(budget, sizeof(budget), "%.17g", o->budget_s);
	argv[argc++] = "cbenchctl";
	argv[argc++] = "audit";
	argv[argc++] = "--backend";
	argv[argc++] = s->backend;
	argv[argc++] = "--filter";
	argv[argc++] = filter;
	argv[argc++] = "--min-effect";
	argv[argc++] = min_effect;
	argv[argc++] = "--confidence";
	argv[argc++] = confidence;
	argv[argc++] = "--budget";
	argv[argc++] = budget;
	if (o->cpu >= 0) {
		snprintf(cpu, sizeof(cpu), "%d", o->cpu);
		argv[argc++] = "--cpu";
		argv[argc++] = cpu;
	}
	argv[argc++] = "--format";
	argv[argc++] = "json";
	argv[argc++] = "-o";
	argv[argc++] = json;
	argv[argc++] = a;
	argv[argc++] = b;
	argv[argc] = NULL;
	return cbench_session_run_self(argv, log);
}

/* The last line of the audit's log, for a reason. */
static void last_line(const char *log, char *out, size_t len)
{
	char *text, *end, *line;
	size_t n;

	snprintf(out, len, "no message");
	if (cbench_read_file(log, 1 << 20, &text, &n) || !n) {
		if (n)
			free(text);
		return;
	}
	for (end = text + n; end > text && end[-1] == '\n'; end--)
		;
	*end = '\0';
	line = strrchr(text, '\n');
	snprintf(out, len, "%s", line ? line + 1 : text);
	free(text);
}

/* The audit's verdict on c, read from its report. */
static int judge(const char *json, const char *log, struct cbench_history_change *c)
{
	const struct cbench_json *audits, *a;
	struct cbench_json *doc = NULL;
	char why[300], *text;
	size_t n;
	int ret;

	if (cbench_read_file(json, CONFIRM_REPORT_MAX_BYTES, &text, &n)) {
		last_line(log, why, sizeof(why));
		return not_confirmed(c, 1, "the audit failed: %s", why);
	}
	ret = cbench_json_parse(text, n, &doc, why, sizeof(why));
	free(text);
	audits = ret ? NULL : cbench_json_get(doc, "audits");
	a = audits && audits->type == CBENCH_JSON_ARRAY && audits->n ? &audits->items[0] : NULL;
	if (!a) {
		cbench_json_free(doc);
		return not_confirmed(c, 1, "the audit's report has no audit of this benchmark");
	}
	snprintf(c->verdict, sizeof(c->verdict), "%s", cbench_json_string(a, "verdict", "failed"));
	c->audit_change = cbench_json_number(a, "change", NAN);
	c->audit_lower = cbench_json_number(a, "lower", NAN);
	c->audit_upper = cbench_json_number(a, "upper", NAN);
	if ((!strcmp(c->verdict, "slower") && c->cp.change > 0) ||
	    (!strcmp(c->verdict, "faster") && c->cp.change < 0)) {
		c->confirm = CBENCH_CONFIRM_YES;
		cbench_json_free(doc);
		return 0;
	}
	snprintf(why, sizeof(why), "%s", cbench_json_string(a, "error", ""));
	cbench_json_free(doc);
	if (!strcmp(c->verdict, "failed"))
		return not_confirmed(c, 1, "the audit failed: %s", why);
	if (!strcmp(c->verdict, "slower") || !strcmp(c->verdict, "faster"))
		return not_confirmed(c, 0, "the audit found B %s: the other way", c->verdict);
	return not_confirmed(c, 0, "the audit found B %s%s", c->verdict,
			     !strcmp(c->verdict, "equivalent") ? " (within --min-effect)" :
			     " (no verdict within its budget)");
}

/*
 * A kept copy as a file: itself, or one kept in the store ("store:ID")
 * written into the audits' directory as side ('a' or 'b') of audit serial.
 * 0, or 1 after saying why in c.
 */
static int copy_file(const struct cbench_confirm_options *o, const char *copy, char side,
		     size_t serial, char *path, size_t len, struct cbench_history_change *c)
{
	size_t n = strlen(CBENCH_STORE_COPY_PREFIX);
	char dir[PATH_MAX], err[1024];
	struct cbench_store st;
	int ret;

	if (strncmp(copy, CBENCH_STORE_COPY_PREFIX, n)) {
		if (access(copy, R_OK))
			return not_confirmed(c, 1, "the kept object %s is gone", copy);
		snprintf(path, len, "%s", copy);
		return 0;
	}
	snprintf(dir, sizeof(dir), "%s/%zu%c", o->dir, serial, side);
	if (mkdir(dir, 0700))
		return not_confirmed(c, 1, "cannot make %s: %s", dir, strerror(errno));
	ret = cbench_store_open(&st, o->store, false, err, sizeof(err));
	if (!ret) {
		ret = cbench_store_get_object(&st, copy + n, dir, path, len, err, sizeof(err));
		cbench_store_close(&st);
	}
	return ret ? not_confirmed(c, 1, "cannot take the kept object from the store: %s", err) : 0;
}

int cbench_session_confirm(const struct cbench_confirm_options *o,
			   const struct cbench_history_series *s, struct cbench_history_change *c,
			   size_t serial)
{
	const struct cbench_history_point *a = &s->points[c->cp.last];
	const struct cbench_history_point *b = &s->points[c->cp.index];
	char json[PATH_MAX], log[PATH_MAX], fa[PATH_MAX], fb[PATH_MAX];
	int status;

	if (!a->copy || !b->copy)
		return not_confirmed(c, 0, "no object kept for commit %s (add runs with --keep-object "
				     "DIR)", !a->copy ? a->commit : b->commit);
	if (!strcmp(a->build_id, b->build_id))
		return not_confirmed(c, 0, "both sides are build %.12s: the change is not in the "
				     "object", a->build_id);
	if (copy_file(o, a->copy, 'a', serial, fa, sizeof(fa), c) ||
	    copy_file(o, b->copy, 'b', serial, fb, sizeof(fb), c))
		return 1;
	snprintf(json, sizeof(json), "%s/audit-%zu.json", o->dir, serial);
	snprintf(log, sizeof(log), "%s/audit-%zu.log", o->dir, serial);
	fprintf(stderr, "%s: history: auditing %s, order %lld (commit %s) against order %lld (commit "
		"%s)\n", cbench_prog, s->name, a->order, a->commit, b->order, b->commit);
	status = audit(o, s, fa, fb, json, log);
	if (status < 0)
		return not_confirmed(c, 1, "cannot run the audit: %s", strerror(-status));
	return judge(json, log, c);
}
