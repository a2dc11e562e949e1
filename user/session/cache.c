// SPDX-License-Identifier: GPL-2.0
/* The tuning cache; see cache.h. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
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

int cbench_cache_lookup(const char *path, uint64_t key, uint64_t *n)
{
	FILE *f = fopen(path, "r");
	char line[512];
	int ret = -ENOENT;

	if (!f)
		return errno == ENOENT ? -ENOENT : -errno;
	while (fgets(line, sizeof(line), f)) {
		uint64_t k, v;

		if (sscanf(line, "%16" SCNx64 " %" SCNu64, &k, &v) == 2 && k == key && v > 0) {
			*n = v;
			ret = 0;	/* the last entry wins */
		}
	}
	fclose(f);
	return ret;
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

/* Rewrites the cache with the entry added or replaced; under the lock. */
static int store_locked(const char *path, uint64_t key, uint64_t n, const char *bench_id)
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

			if (sscanf(line, "%16" SCNx64, &k) == 1 && k == key)
				continue;
			fputs(line, out.file);
		}
		fclose(old);
	}
	fprintf(out.file, "%016" PRIx64 " %" PRIu64 " %s\n", key, n, bench_id);
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

int cbench_cache_store(const char *path, uint64_t key, uint64_t n, const char *bench_id)
{
	int ret, lock;

	ret = make_dirs(path);
	if (ret)
		return ret;
	lock = lock_cache(path);
	if (lock < 0)
		return lock;
	ret = store_locked(path, key, n, bench_id);
	close(lock);
	return ret;
}
