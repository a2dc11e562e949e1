// SPDX-License-Identifier: GPL-2.0
/* The tuning cache: path rules, keys, store/lookup/replace. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "session/cache.h"

static char dir[] = "/tmp/cbench-test-cache-XXXXXX";

/* One key, as a run that reads the cache for it alone would. */
static int lookup(const char *path, uint64_t key, uint64_t *n)
{
	struct cbench_cache c;
	int ret = cbench_cache_load(path, &c);

	ret = ret ? ret : cbench_cache_find(&c, key, n);
	cbench_cache_free(&c);
	return ret;
}

static int store(const char *path, uint64_t key, uint64_t n, const char *bench_id)
{
	struct cbench_cache_entry e = { .key = key, .n = n, .bench_id = bench_id };

	return cbench_cache_store_many(path, &e, 1);
}

static int suite_init(void)
{
	return mkdtemp(dir) ? 0 : -1;
}

static int suite_clean(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void path_rules(void)
{
	char *old_xdg = getenv("XDG_CACHE_HOME") ? strdup(getenv("XDG_CACHE_HOME")) : NULL;
	char *old_home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
	char buf[256];

	setenv("XDG_CACHE_HOME", "/x/cache", 1);
	setenv("HOME", "/home/u", 1);
	CU_ASSERT_EQUAL(cbench_cache_path(buf, sizeof(buf)), 0);
	CU_ASSERT_STRING_EQUAL(buf, "/x/cache/cbench/tuning");
	/* A relative XDG_CACHE_HOME is invalid per the spec: fall back. */
	setenv("XDG_CACHE_HOME", "rel", 1);
	CU_ASSERT_EQUAL(cbench_cache_path(buf, sizeof(buf)), 0);
	CU_ASSERT_STRING_EQUAL(buf, "/home/u/.cache/cbench/tuning");
	unsetenv("XDG_CACHE_HOME");
	unsetenv("HOME");
	CU_ASSERT_EQUAL(cbench_cache_path(buf, sizeof(buf)), -ENOENT);
	setenv("HOME", "/home/u", 1);
	CU_ASSERT_EQUAL(cbench_cache_path(buf, 8), -ENAMETOOLONG);

	if (old_xdg)
		setenv("XDG_CACHE_HOME", old_xdg, 1);
	if (old_home)
		setenv("HOME", old_home, 1);
	else
		unsetenv("HOME");
	free(old_xdg);
	free(old_home);
}

static void keys_differ(void)
{
	uint64_t k = cbench_cache_key("id", "add", "cpu", "user");

	CU_ASSERT_EQUAL(k, cbench_cache_key("id", "add", "cpu", "user"));
	CU_ASSERT_NOT_EQUAL(k, cbench_cache_key("id2", "add", "cpu", "user"));
	CU_ASSERT_NOT_EQUAL(k, cbench_cache_key("id", "add/size=1", "cpu", "user"));
	CU_ASSERT_NOT_EQUAL(k, cbench_cache_key("id", "add", "cpu2", "user"));
	CU_ASSERT_NOT_EQUAL(k, cbench_cache_key("id", "add", "cpu", "kmod"));
	/* Parts do not run into each other. */
	CU_ASSERT_NOT_EQUAL(cbench_cache_key("ab", "c", "", ""), cbench_cache_key("a", "bc", "", ""));
}

static void store_and_lookup(void)
{
	char path[256];
	uint64_t n = 0;

	snprintf(path, sizeof(path), "%s/deep/er/tuning", dir);
	CU_ASSERT_EQUAL(lookup(path, 1, &n), -ENOENT);
	CU_ASSERT_EQUAL(store(path, 1, 100, "add"), 0);
	CU_ASSERT_EQUAL(store(path, 2, 200, "mul"), 0);
	CU_ASSERT_EQUAL(lookup(path, 1, &n), 0);
	CU_ASSERT_EQUAL(n, 100);
	CU_ASSERT_EQUAL(lookup(path, 2, &n), 0);
	CU_ASSERT_EQUAL(n, 200);
	CU_ASSERT_EQUAL(lookup(path, 3, &n), -ENOENT);
	/* Replacing keeps one entry per key and the others intact. */
	CU_ASSERT_EQUAL(store(path, 1, 150, "add"), 0);
	CU_ASSERT_EQUAL(lookup(path, 1, &n), 0);
	CU_ASSERT_EQUAL(n, 150);
	CU_ASSERT_EQUAL(lookup(path, 2, &n), 0);
	CU_ASSERT_EQUAL(n, 200);
	{
		FILE *f = fopen(path, "r");
		char line[256];
		int lines = 0;

		CU_ASSERT_FATAL(f != NULL);
		while (fgets(line, sizeof(line), f))
			lines++;
		fclose(f);
		CU_ASSERT_EQUAL(lines, 2);
	}
}

static void garbage_is_ignored(void)
{
	char path[256];
	uint64_t n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/garbage", dir);
	f = fopen(path, "w");
	CU_ASSERT_FATAL(f != NULL);
	fputs("not a line\n0000000000000007 0 zero is never valid\n0000000000000008 42 ok\n", f);
	fclose(f);
	CU_ASSERT_EQUAL(lookup(path, 7, &n), -ENOENT);
	CU_ASSERT_EQUAL(lookup(path, 8, &n), 0);
	CU_ASSERT_EQUAL(n, 42);
}

/* A run reads the cache once and finds each of its benchmarks in it: of a
 * key stored twice the later wins, in the file and among those a run
 * stores together; the others stay as they were. */
static void load_once_find_many(void)
{
	struct cbench_cache_entry e[300];
	struct cbench_cache c;
	char path[256];
	uint64_t n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/many", dir);
	f = fopen(path, "w");
	CU_ASSERT_FATAL(f != NULL);
	fputs("00000000000003e8 5 first\n0000000000000002 9 two\n00000000000003e8 6 again\n", f);
	fclose(f);
	for (size_t i = 0; i < 300; i++)
		e[i] = (struct cbench_cache_entry){ .key = 300 - i % 150, .n = 10 + i, .bench_id = "b" };
	CU_ASSERT_EQUAL(cbench_cache_store_many(path, e, 300), 0);
	CU_ASSERT_EQUAL_FATAL(cbench_cache_load(path, &c), 0);
	/* 1000, 2, and 151 to 300. */
	CU_ASSERT_EQUAL(c.len, 152);
	CU_ASSERT(cbench_cache_find(&c, 1000, &n) == 0 && n == 6);
	CU_ASSERT(cbench_cache_find(&c, 2, &n) == 0 && n == 9);
	/* Key 300 came at 0 (n 10) and 150 (n 160): the later. */
	CU_ASSERT(cbench_cache_find(&c, 300, &n) == 0 && n == 160);
	CU_ASSERT(cbench_cache_find(&c, 151, &n) == 0 && n == 309);
	CU_ASSERT_EQUAL(cbench_cache_find(&c, 150, &n), -ENOENT);
	cbench_cache_free(&c);
	/* Nothing there is an empty cache. */
	snprintf(path, sizeof(path), "%s/none", dir);
	CU_ASSERT_EQUAL_FATAL(cbench_cache_load(path, &c), 0);
	CU_ASSERT_EQUAL(cbench_cache_find(&c, 1, &n), -ENOENT);
	cbench_cache_free(&c);
}

/* Runs on other CPUs store at the same time: no entry may be lost. */
static void concurrent_stores_keep_every_entry(void)
{
	enum { WRITERS = 8, EACH = 25 };
	char path[256];
	pid_t pids[WRITERS];
	int status, lost = 0;

	snprintf(path, sizeof(path), "%s/concurrent/tuning", dir);
	for (int w = 0; w < WRITERS; w++) {
		pids[w] = fork();
		CU_ASSERT_FATAL(pids[w] >= 0);
		if (pids[w] == 0) {
			for (int i = 0; i < EACH; i++) {
				if (store(path, (uint64_t)(w * 1000 + i + 1), 7, "x"))
					_exit(1);
			}
			_exit(0);
		}
	}
	for (int w = 0; w < WRITERS; w++) {
		CU_ASSERT(waitpid(pids[w], &status, 0) == pids[w] && WIFEXITED(status) &&
			  WEXITSTATUS(status) == 0);
	}
	for (int w = 0; w < WRITERS; w++) {
		for (int i = 0; i < EACH; i++) {
			uint64_t n = 0;

			lost += lookup(path, (uint64_t)(w * 1000 + i + 1), &n) != 0 || n != 7;
		}
	}
	CU_ASSERT_EQUAL(lost, 0);
}

static CU_TestInfo cache_tests[] = {
	{ "concurrent stores keep every entry", concurrent_stores_keep_every_entry },
	{ "path follows XDG", path_rules },
	{ "keys cover every part", keys_differ },
	{ "store, lookup, replace", store_and_lookup },
	{ "garbage lines are ignored", garbage_is_ignored },
	{ "a run's cache read once, its tunings stored together", load_once_find_many },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo test_cache_suites[] = {
	{ "cache", suite_init, suite_clean, NULL, NULL, cache_tests },
	CU_SUITE_INFO_NULL,
};
