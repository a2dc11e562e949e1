// SPDX-License-Identifier: GPL-2.0
/* `cbenchctl doctor`'s report; see doctor.h. */
#include <stdarg.h>
#include <string.h>

#include "report/doctor.h"
#include "report/json_writer.h"

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

static void print_text(const struct cbench_doctor_report *d, FILE *f)
{
	unsigned int count[3] = { 0 };

	fprintf(f, "cbenchctl doctor: is CPU %d of this machine fit for low-noise measurement?\n\n",
		d->cpu);
	for (size_t i = 0; i < d->nchecks; i++) {
		const struct cbench_doctor_check *c = &d->checks[i];

		count[c->verdict]++;
		fprintf(f, "  %-5s %-20s %s\n", verdict_names[c->verdict], c->title, c->detail);
		if (c->verdict != CBENCH_VERDICT_OK && c->fix[0])
			fprintf(f, "  %-5s %-20s fix: %s\n", "", "", c->fix);
	}
	fprintf(f, "\n%zu checks: %u ok, %u warn, %u fail\n", d->nchecks, count[CBENCH_VERDICT_OK],
		count[CBENCH_VERDICT_WARN], count[CBENCH_VERDICT_FAIL]);
}

static void print_json(const struct cbench_doctor_report *d, FILE *f)
{
	unsigned int count[3] = { 0 };
	struct cbench_jsonw j;

	cbench_jsonw_init(&j, f, true);
	cbench_jsonw_object_start(&j, NULL);
	cbench_jsonw_int(&j, "cpu", d->cpu);
	cbench_jsonw_array_start(&j, "checks");
	for (size_t i = 0; i < d->nchecks; i++) {
		const struct cbench_doctor_check *c = &d->checks[i];

		count[c->verdict]++;
		cbench_jsonw_object_start(&j, NULL);
		cbench_jsonw_string(&j, "name", c->key);
		cbench_jsonw_string(&j, "status", verdict_names[c->verdict]);
		cbench_jsonw_string(&j, "detail", c->detail);
		if (c->fix[0])
			cbench_jsonw_string(&j, "fix", c->fix);
		else
			cbench_jsonw_null(&j, "fix");
		for (unsigned int k = 0; k < c->nextra; k++) {
			const struct cbench_doctor_extra *x = &c->extra[k];

			if (x->kind == CBENCH_EXTRA_INT)
				cbench_jsonw_int(&j, x->key, x->i);
			else if (x->kind == CBENCH_EXTRA_BOOL)
				cbench_jsonw_bool(&j, x->key, x->i);
			else
				cbench_jsonw_double(&j, x->key, x->d);
		}
		cbench_jsonw_object_end(&j);
	}
	cbench_jsonw_array_end(&j);
	cbench_jsonw_uint(&j, "ok", count[CBENCH_VERDICT_OK]);
	cbench_jsonw_uint(&j, "warn", count[CBENCH_VERDICT_WARN]);
	cbench_jsonw_uint(&j, "fail", count[CBENCH_VERDICT_FAIL]);
	cbench_jsonw_object_end(&j);
	cbench_jsonw_finish(&j);
}

void cbench_doctor_print(const struct cbench_doctor_report *r, FILE *f, bool json)
{
	if (json)
		print_json(r, f);
	else
		print_text(r, f);
}
