/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `cbenchctl doctor`: the checks the command (cmd/doctor*.c) makes, for its
 * report (report_doctor.c).  Each check says ok, warn or fail, what it
 * found, the one line that fixes it, and, for the JSON, what it read or
 * measured, typed.
 */
#ifndef _CBENCH_REPORT_DOCTOR_H
#define _CBENCH_REPORT_DOCTOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * ok: nothing to do.  warn: measurements are possible but noisier, or a
 * part of cbench is unavailable.  fail: measuring here would be wrong or
 * cannot work (the CPU is offline, the module speaks another protocol).
 */
enum cbench_verdict { CBENCH_VERDICT_OK, CBENCH_VERDICT_WARN, CBENCH_VERDICT_FAIL };

/* A check's extra JSON member: what it read or measured, typed. */
struct cbench_doctor_extra {
	const char *key;
	enum { CBENCH_EXTRA_INT, CBENCH_EXTRA_DOUBLE, CBENCH_EXTRA_BOOL } kind;
	int64_t i;
	double d;
};

#define CBENCH_DOCTOR_EXTRAS_MAX 4

struct cbench_doctor_check {
	const char *key;		/* stable JSON name */
	const char *title;		/* text column */
	enum cbench_verdict verdict;
	char detail[384];
	char fix[512];			/* "" when there is nothing to fix */
	struct cbench_doctor_extra extra[CBENCH_DOCTOR_EXTRAS_MAX];
	unsigned int nextra;
};

#define CBENCH_DOCTOR_CHECKS_MAX 32

struct cbench_doctor_report {
	int cpu;			/* the CPU checked */
	struct cbench_doctor_check checks[CBENCH_DOCTOR_CHECKS_MAX];
	size_t nchecks;
};

/*
 * Appends a check (past CBENCH_DOCTOR_CHECKS_MAX, the last is overwritten):
 * fix NULL when there is nothing to fix, the detail from fmt.  Returns it,
 * for its extras.
 */
struct cbench_doctor_check *cbench_doctor_add(struct cbench_doctor_report *r, const char *key,
					      const char *title, enum cbench_verdict verdict,
					      const char *fix, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* An extra member of c's JSON (at most CBENCH_DOCTOR_EXTRAS_MAX; more are dropped). */
void cbench_doctor_extra_int(struct cbench_doctor_check *c, const char *key, int64_t v);
void cbench_doctor_extra_double(struct cbench_doctor_check *c, const char *key, double v);
void cbench_doctor_extra_bool(struct cbench_doctor_check *c, const char *key, bool v);

/* The report, as text or as JSON. */
void cbench_doctor_print(const struct cbench_doctor_report *r, FILE *f, bool json);

#endif /* _CBENCH_REPORT_DOCTOR_H */
