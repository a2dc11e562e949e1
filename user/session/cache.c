// SPDX-License-Identifier: GPL-2.0
/* The tuning cache; see cache.h. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "session/cache.h"
#include "report/outfile.h"
#include "stats/tune.h"

int cbench_cache_path(char *buf, size_t len)
{
	const char *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	int n;

	/* The XDG spec says a relative XDG_CACHE_HOME is invalid: ignore it. */
	if (xdg && xdg[0] == '/')
		n = snprintf(buf, len, "%s/cbench/tuning", xdg);
	else if (home && home[0])
		n = snprintf(buf, len, "%s/.cache/cbench/tuning", home);
	else
		return -ENOENT;
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static uint64_t fnv1a(uint64_t h, const char *s)
{
	/* The NUL goes in too, so ("ab", "c") and ("a", "bc") differ. */
	do {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	} while (*s++);
	return h;
}

uint64_t cbench_cache_key(const char *build_id, const char *bench_id, const char *cpu_model,
			  const char *backend)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	h = fnv1a(h, build_id);
	h = fnv1a(h, bench_id);
	h = fnv1a(h, cpu_model);
	h = fnv1a(h, backend);
	return fnv1a(h, CBENCH_TUNE_METHOD);
}

/* A line's key and n; false for anything else. */
static bool parse(const char *line, uint64_t *k, uint64_t *v)
{
	return sscanf(line, "%16" SCNx64 " %" SCNu64, k, v) == 2 && *v > 0;
}

static int by_key(const void *a, const void *b)
{
	const struct cbench_cache_entry *x = a, *y = b;

	return (x->key > y->key) - (x->key < y->key);
}

static int by_key_then_order(const void *a, const void *b)
{
	const struct cbench_cache_entry *x = a, *y = b;

	return by_key(a, b) ? by_key(a, b) : (x->order > y->order) - (x->order < y->order);
}

/* key's entry among e's count (sorted by key), or NULL. */
static const struct cbench_cache_entry *entry_of(const struct cbench_cache_entry *e, size_t count,
						 uint64_t key)
{
	struct cbench_cache_entry want = { .key = key };

	return count ? bsearch(&want, e, count, sizeof(*e), by_key) : NULL;
}

/* e's count entries sorted by key, the last of each key (by order) kept;
 * returns how many are kept. */
static size_t keep_last(struct cbench_cache_entry *e, size_t count)
{
	size_t kept = 0;

	qsort(e, count, sizeof(*e), by_key_then_order);
	for (size_t i = 0; i < count; i++)
		if (i + 1 == count || e[i + 1].key != e[i].key)
			e[kept++] = e[i];
	return kept;
}

int cbench_cache_load(const char *path, struct cbench_cache *c)
{
	FILE *f = fopen(path, "r");
	size_t cap = 0;
	char line[512];

	memset(c, 0, sizeof(*c));
	if (!f)
		return errno == ENOENT ? 0 : -errno;
	while (fgets(line, sizeof(line), f)) {
		uint64_t k, v;

		if (!parse(line, &k, &v))
			continue;
		if (c->len == cap) {
			struct cbench_cache_entry *e = realloc(c->e, (cap ? cap * 2 : 256) * sizeof(*e));

			if (!e) {
				fclose(f);
				cbench_cache_free(c);
				return -ENOMEM;
			}
			c->e = e;
			cap = cap ? cap * 2 : 256;
		}
		c->e[c->len] = (struct cbench_cache_entry){ .key = k, .n = v, .order = c->len };
		c->len++;
	}
	fclose(f);
	c->len = keep_last(c->e, c->len);
	return 0;
}

int cbench_cache_find(const struct cbench_cache *c, uint64_t key, uint64_t *n)
{
	const struct cbench_cache_entry *e = entry_of(c->e, c->len, key);

	if (!e)
		return -ENOENT;
	*n = e->n;
	return 0;
}

void cbench_cache_free(struct cbench_cache *c)
{
	free(c->e);
	memset(c, 0, sizeof(*c));
}

static int make_dirs(const char *path)
{
	char dir[4096];

	if (strlen(path) >= sizeof(dir))
		return -ENAMETOOLONG;
	strcpy(dir, path);
	for (char *p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	return 0;
}

/* Rewrites the cache with the entries (sorted by key) added or replaced;
 * under the lock. */
static int store_locked(const char *path, const struct cbench_cache_entry *e, size_t count)
{
	struct cbench_outfile out;
	char line[512];
	FILE *old;
	int ret;

	ret = cbench_outfile_open(&out, path);
	if (ret)
		return ret;
	old = fopen(path, "r");
	if (old) {
		while (fgets(line, sizeof(line), old)) {
			uint64_t k;

			if (sscanf(line, "%16" SCNx64, &k) == 1 && entry_of(e, count, k))
				continue;
			fputs(line, out.file);
		}
		fclose(old);
	}
	for (size_t i = 0; i < count; i++)
		fprintf(out.file, "%016" PRIx64 " %" PRIu64 " %s\n", e[i].key, e[i].n, e[i].bench_id);
	return cbench_outfile_commit(&out);
}

/*
 * Runs on other CPUs update the cache at the same time: each reads the file,
 * adds its entry and renames a new file over it, so without a lock the
 * later rename drops the earlier entry.  The lock is a file beside the cache
 * (the cache itself is replaced on every update, so it cannot hold a lock).
 */
static int lock_cache(const char *path)
{
	char lock_path[4096];
	int fd;

	if ((size_t)snprintf(lock_path, sizeof(lock_path), "%s.lock", path) >= sizeof(lock_path))
		return -ENAMETOOLONG;
	fd = open(lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	while (flock(fd, LOCK_EX)) {
		if (errno != EINTR) {
			int ret = -errno;

			close(fd);
			return ret;
		}
	}
	return fd;
}

int cbench_cache_store_many(const char *path, const struct cbench_cache_entry *e, size_t count)
{
	struct cbench_cache_entry *sorted;
	size_t kept;
	int ret, lock;

	if (!count)
		return 0;
	/* Sorted for entry_of(); of a key given twice, the later stays. */
	sorted = malloc(count * sizeof(*sorted));
	if (!sorted)
		return -ENOMEM;
	for (size_t i = 0; i < count; i++) {
		sorted[i] = e[i];
		sorted[i].order = i;
	}
	kept = keep_last(sorted, count);
	ret = make_dirs(path);
	lock = ret ? ret : lock_cache(path);
	if (lock < 0) {
		free(sorted);
		return lock;
	}
	ret = store_locked(path, sorted, kept);
	close(lock);
	free(sorted);
	return ret;
}
