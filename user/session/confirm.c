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
#include "session/confirm.h"
#include "store/objects.h"
#include "store/store.h"

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

/* The audit's verdict on c. */
static int judge(const struct cbench_confirm_audit *v, struct cbench_history_change *c)
{
	snprintf(c->verdict, sizeof(c->verdict), "%s", v->verdict);
	c->audit_change = v->change;
	c->audit_lower = v->lower;
	c->audit_upper = v->upper;
	if ((!strcmp(c->verdict, "slower") && c->cp.change > 0) ||
	    (!strcmp(c->verdict, "faster") && c->cp.change < 0)) {
		c->confirm = CBENCH_CONFIRM_YES;
		return 0;
	}
	if (!strcmp(c->verdict, "failed"))
		return not_confirmed(c, 1, "the audit failed: %s", v->error);
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
	char fa[PATH_MAX], fb[PATH_MAX], filter[2 * 512 + 16];
	struct cbench_confirm_audit v = { .verdict = "failed", .change = NAN, .lower = NAN,
					  .upper = NAN };

	if (!a->copy || !b->copy)
		return not_confirmed(c, 0, "no object kept for commit %s (add runs with --keep-object "
				     "DIR)", !a->copy ? a->commit : b->commit);
	if (!strcmp(a->build_id, b->build_id))
		return not_confirmed(c, 0, "both sides are build %.12s: the change is not in the "
				     "object", a->build_id);
	if (copy_file(o, a->copy, 'a', serial, fa, sizeof(fa), c) ||
	    copy_file(o, b->copy, 'b', serial, fb, sizeof(fb), c))
		return 1;
	filter_of(s->name, filter, sizeof(filter));
	fprintf(stderr, "%s: history: auditing %s, order %lld (commit %s) against order %lld (commit "
		"%s)\n", cbench_prog, s->name, a->order, a->commit, b->order, b->commit);
	if (o->audit(o, s->backend, filter, fa, fb, &v))
		return not_confirmed(c, 1, "the audit failed: %s", v.error);
	return judge(&v, c);
}
