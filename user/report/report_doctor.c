// SPDX-License-Identifier: GPL-2.0
/* `cbenchctl doctor`'s checks and their report, text and JSON; see doctor.h. */
#include <stdarg.h>
#include <string.h>

#include "report/report_doctor.h"
#include "report/print.h"

static const char *const verdict_names[] = { "ok", "warn", "fail" };

static void extra(struct cbench_doctor_check *c, const char *key, int kind, int64_t i, double v)
{
	if (c->nextra < CBENCH_DOCTOR_EXTRAS_MAX)
		c->extra[c->nextra++] = (struct cbench_doctor_extra){ .key = key, .kind = kind,
								      .i = i, .d = v };
}

void cbench_doctor_extra_int(struct cbench_doctor_check *c, const char *key, int64_t v)
{
	extra(c, key, CBENCH_EXTRA_INT, v, 0);
}

void cbench_doctor_extra_double(struct cbench_doctor_check *c, const char *key, double v)
{
	extra(c, key, CBENCH_EXTRA_DOUBLE, 0, v);
}

void cbench_doctor_extra_bool(struct cbench_doctor_check *c, const char *key, bool v)
{
	extra(c, key, CBENCH_EXTRA_BOOL, v, 0);
}

struct cbench_doctor_check *cbench_doctor_add(struct cbench_doctor_report *r, const char *key,
					      const char *title, enum cbench_verdict verdict,
					      const char *fix, const char *fmt, ...)
{
	size_t i = r->nchecks < CBENCH_DOCTOR_CHECKS_MAX ? r->nchecks++ : CBENCH_DOCTOR_CHECKS_MAX - 1;
	struct cbench_doctor_check *c = &r->checks[i];
	va_list ap;

	memset(c, 0, sizeof(*c));
	c->key = key;
	c->title = title;
	c->verdict = verdict;
	snprintf(c->fix, sizeof(c->fix), "%s", fix ? fix : "");
	va_start(ap, fmt);
	vsnprintf(c->detail, sizeof(c->detail), fmt, ap);
	va_end(ap);
	return c;
}

/* One check: in text, its verdict, title and detail, and the fix where
 * there is something to fix; in JSON, its name, the fix or null, and what
 * it read or measured, typed. */
static void print_check(struct cbench_print *p, const struct cbench_doctor_check *c)
{
	cbench_print_object_start(p, NULL);
	cbench_print_json_string(p, "name", c->key);
	cbench_print_string(p, "status", "  %-5s", verdict_names[c->verdict]);
	cbench_print_text(p, " %-20s", c->title);
	cbench_print_string(p, "detail", " %s\n", c->detail);
	if (!c->fix[0]) {
		cbench_print_null(p, "fix", NULL);
	} else if (c->verdict == CBENCH_VERDICT_OK) {
		/* Nothing to do, though the check knows how. */
		cbench_print_json_string(p, "fix", c->fix);
	} else {
		cbench_print_text(p, "  %-5s %-20s ", "", "");
		cbench_print_string(p, "fix", "fix: %s\n", c->fix);
	}
	for (unsigned int k = 0; k < c->nextra; k++) {
		const struct cbench_doctor_extra *x = &c->extra[k];

		if (x->kind == CBENCH_EXTRA_INT)
			cbench_print_json_int(p, x->key, x->i);
		else if (x->kind == CBENCH_EXTRA_BOOL)
			cbench_print_json_bool(p, x->key, x->i);
		else
			cbench_print_json_double(p, x->key, x->d);
	}
	cbench_print_object_end(p);
}

void cbench_doctor_print(const struct cbench_doctor_report *r, FILE *f, bool json)
{
	unsigned int count[3] = { 0 };
	struct cbench_print p;

	cbench_print_init(&p, f, json);
	cbench_print_object_start(&p, NULL);
	cbench_print_int(&p, "cpu", "cbenchctl doctor: is CPU %" PRId64 " of this machine fit for "
			 "low-noise measurement?\n\n", r->cpu);
	cbench_print_array_start(&p, "checks");
	for (size_t i = 0; i < r->nchecks; i++) {
		count[r->checks[i].verdict]++;
		print_check(&p, &r->checks[i]);
	}
	cbench_print_array_end(&p);
	cbench_print_text(&p, "\n%zu checks: ", r->nchecks);
	cbench_print_uint(&p, "ok", "%" PRIu64 " ok", count[CBENCH_VERDICT_OK]);
	cbench_print_uint(&p, "warn", ", %" PRIu64 " warn", count[CBENCH_VERDICT_WARN]);
	cbench_print_uint(&p, "fail", ", %" PRIu64 " fail\n", count[CBENCH_VERDICT_FAIL]);
	cbench_print_object_end(&p);
	cbench_print_finish(&p);
}
