// SPDX-License-Identifier: GPL-2.0
/*
 * Output files (outfile.c): the old file or the whole new one, never a part;
 * nothing left behind on abort; a character device written in place, never
 * replaced; a directory refused.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "report/outfile.h"

static char dir[64];

static int setup(void)
{
	strcpy(dir, "/tmp/cbench-outfile-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* Entries in dir, for "nothing else was left there". */
static int entries(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

static void read_back(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t got = f ? fread(buf, 1, len - 1, f) : 0;

	buf[got] = '\0';
	if (f)
		fclose(f);
}

static void commit_replaces_whole(void)
{
	struct cbench_outfile o = { 0 };
	char path[128], buf[64];

	snprintf(path, sizeof(path), "%s/report.txt", dir);
	read_back(path, buf, sizeof(buf));
	CU_ASSERT_FATAL(cbench_outfile_open(&o, path) == 0);
	fputs("new", o.file);
	/* Until commit, the destination does not exist; a temporary does. */
	CU_ASSERT_EQUAL(access(path, F_OK), -1);
	CU_ASSERT_EQUAL(entries(), 1);
	CU_ASSERT_EQUAL(cbench_outfile_commit(&o), 0);
	read_back(path, buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "new");
	CU_ASSERT_EQUAL(entries(), 1);
	cbench_outfile_abort(&o);	/* after commit: harmless */
	read_back(path, buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "new");
	unlink(path);
}

static void abort_leaves_old(void)
{
	struct cbench_outfile o = { 0 };
	char path[128], buf[64];
	FILE *f;

	snprintf(path, sizeof(path), "%s/old.txt", dir);
	f = fopen(path, "w");
	CU_ASSERT_FATAL(f != NULL);
	fputs("old", f);
	fclose(f);
	CU_ASSERT_FATAL(cbench_outfile_open(&o, path) == 0);
	fputs("half of a new", o.file);
	cbench_outfile_abort(&o);
	read_back(path, buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "old");
	CU_ASSERT_EQUAL(entries(), 1);	/* no temporary left */
	unlink(path);
}

static void device_in_place(void)
{
	struct cbench_outfile o = { 0 };
	char path[128];
	struct stat st;

	/* A private null device: a regression must not replace the real one. */
	snprintf(path, sizeof(path), "%s/null", dir);
	if (mknod(path, S_IFCHR | 0666, makedev(1, 3))) {
		CU_PASS("mknod refused here (not root): nothing to check");
		return;
	}
	CU_ASSERT_FATAL(cbench_outfile_open(&o, path) == 0);
	fputs("into the void", o.file);
	CU_ASSERT_EQUAL(cbench_outfile_commit(&o), 0);
	CU_ASSERT_EQUAL(stat(path, &st), 0);
	CU_ASSERT(S_ISCHR(st.st_mode));
	CU_ASSERT_EQUAL(entries(), 1);
	/* Retracting never removes a device. */
	CU_ASSERT(cbench_outfile_retract(&o) != 0);
	CU_ASSERT_EQUAL(stat(path, &st), 0);
	unlink(path);
}

static void directory_refused(void)
{
	struct cbench_outfile o = { 0 };

	CU_ASSERT(cbench_outfile_open(&o, dir) < 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(cbench_outfile_error(&o, -EISDIR), "directory"));
	cbench_outfile_abort(&o);
	CU_ASSERT_EQUAL(entries(), 0);
}

static CU_TestInfo outfile_tests[] = {
	{ "commit puts the whole file in place", commit_replaces_whole },
	{ "abort leaves the old file and no temporary", abort_leaves_old },
	{ "a character device is written in place", device_in_place },
	{ "a directory is refused", directory_refused },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_outfile_suites[] = {
	{ "outfile", setup, teardown, NULL, NULL, outfile_tests },
	CU_SUITE_INFO_NULL,
};
