/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Golden files for the unit tests of reports: what a renderer writes for a
 * fixed input is compared byte for byte with tests/golden/<name>.  The
 * runner starts at the top of the tree (make unit).  With
 * CBENCH_GOLDEN_UPDATE=1 in the environment the files are written instead
 * of compared: review the diff before committing them.  On a mismatch the
 * output goes to build/tests/golden/<name>, for diff(1), and the first
 * differing line is printed.
 */
#ifndef _CBENCH_TEST_GOLDEN_H
#define _CBENCH_TEST_GOLDEN_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <CUnit/CUnit.h>

#define GOLDEN_DIR "tests/golden"
#define GOLDEN_OUT_DIR "build/tests/golden"

/* What render(f, arg) writes, as a malloc'd string. */
static inline char *golden_render(void (*render)(FILE *f, const void *arg), const void *arg)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	CU_ASSERT_FATAL(f != NULL);
	render(f, arg);
	CU_ASSERT_FATAL(fclose(f) == 0);
	return text;
}

static inline char *golden_read(const char *path)
{
	FILE *f = fopen(path, "re");
	char *text = NULL;
	size_t len = 0;
	FILE *m;
	int c;

	if (!f)
		return NULL;
	m = open_memstream(&text, &len);
	while (m && (c = fgetc(f)) != EOF)
		fputc(c, m);
	fclose(f);
	if (m)
		fclose(m);
	return text;
}

static inline int golden_write(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	mkdir("build", 0777);
	mkdir("build/tests", 0777);
	mkdir(dir, 0777);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "we");
	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

/* The line where a and b first differ, 1-based. */
static inline unsigned int golden_first_diff(const char *a, const char *b)
{
	unsigned int line = 1;

	for (; *a && *a == *b; a++, b++)
		line += *a == '\n';
	return line;
}

/* Asserts that text is tests/golden/<name> (or writes it there, above). */
static inline void golden_check(const char *name, const char *text)
{
	const char *update = getenv("CBENCH_GOLDEN_UPDATE");
	char path[512], *want;

	snprintf(path, sizeof(path), GOLDEN_DIR "/%s", name);
	if (update && !strcmp(update, "1")) {
		CU_ASSERT_EQUAL(golden_write(GOLDEN_DIR, name, text), 0);
		return;
	}
	want = golden_read(path);
	CU_ASSERT_PTR_NOT_NULL_FATAL(want);
	if (strcmp(want, text)) {
		golden_write(GOLDEN_OUT_DIR, name, text);
		fprintf(stderr, "\n  golden: %s differs at line %u: diff -u %s " GOLDEN_OUT_DIR "/%s\n",
			name, golden_first_diff(want, text), path, name);
	}
	CU_ASSERT_STRING_EQUAL(want, text);
	free(want);
}

#endif /* _CBENCH_TEST_GOLDEN_H */
