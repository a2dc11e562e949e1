// SPDX-License-Identifier: GPL-2.0
/* Text or JSON, one call per field; see print.h. */
#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "report/print.h"

void cbench_print_init(struct cbench_print *p, FILE *f, bool json)
{
	memset(p, 0, sizeof(*p));
	p->f = f;
	p->json = json;
	if (json)
		cbench_jsonw_init(&p->j, f, true);
}

int cbench_print_finish(struct cbench_print *p)
{
	if (p->json)
		return cbench_jsonw_finish(&p->j);
	return ferror(p->f) ? -EIO : 0;
}

void cbench_print_object_start(struct cbench_print *p, const char *key)
{
	if (p->json)
		cbench_jsonw_object_start(&p->j, key);
}

void cbench_print_object_end(struct cbench_print *p)
{
	if (p->json)
		cbench_jsonw_object_end(&p->j);
}

void cbench_print_array_start(struct cbench_print *p, const char *key)
{
	if (p->json)
		cbench_jsonw_array_start(&p->j, key);
}

void cbench_print_array_end(struct cbench_print *p)
{
	if (p->json)
		cbench_jsonw_array_end(&p->j);
}

void cbench_print_text(struct cbench_print *p, const char *fmt, ...)
{
	va_list ap;

	if (p->json)
		return;
	va_start(ap, fmt);
	vfprintf(p->f, fmt, ap);
	va_end(ap);
}

void cbench_print_member(struct cbench_print *p, enum cbench_print_type type, const char *key,
			 const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (!p->json) {
		vfprintf(p->f, fmt, ap);
	} else if (type == CBENCH_PRINT_UINT) {
		cbench_jsonw_uint(&p->j, key, va_arg(ap, uint64_t));
	} else if (type == CBENCH_PRINT_INT) {
		cbench_jsonw_int(&p->j, key, va_arg(ap, int64_t));
	} else if (type == CBENCH_PRINT_DOUBLE) {
		cbench_jsonw_double(&p->j, key, va_arg(ap, double));
	} else {
		cbench_jsonw_string(&p->j, key, va_arg(ap, const char *));
	}
	va_end(ap);
}

void cbench_print_bool(struct cbench_print *p, const char *key, bool value, const char *if_true,
		       const char *if_false)
{
	const char *text = value ? if_true : if_false;

	if (p->json)
		cbench_jsonw_bool(&p->j, key, value);
	else if (text)
		fputs(text, p->f);
}

void cbench_print_null(struct cbench_print *p, const char *key, const char *fmt, ...)
{
	va_list ap;

	if (p->json) {
		cbench_jsonw_null(&p->j, key);
	} else if (fmt) {
		va_start(ap, fmt);
		vfprintf(p->f, fmt, ap);
		va_end(ap);
	}
}

void cbench_print_json_uint(struct cbench_print *p, const char *key, uint64_t value)
{
	if (p->json)
		cbench_jsonw_uint(&p->j, key, value);
}

void cbench_print_json_int(struct cbench_print *p, const char *key, int64_t value)
{
	if (p->json)
		cbench_jsonw_int(&p->j, key, value);
}

void cbench_print_json_double(struct cbench_print *p, const char *key, double value)
{
	if (p->json)
		cbench_jsonw_double(&p->j, key, value);
}

void cbench_print_json_string(struct cbench_print *p, const char *key, const char *value)
{
	if (p->json)
		cbench_jsonw_string(&p->j, key, value);
}

void cbench_print_json_bool(struct cbench_print *p, const char *key, bool value)
{
	if (p->json)
		cbench_jsonw_bool(&p->j, key, value);
}
