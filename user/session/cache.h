/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tuning cache (Chen and Revels: n need only be found once per benchmark and
 * machine).  One text file, $XDG_CACHE_HOME/cbench/tuning (default
 * ~/.cache/cbench/tuning), one line per entry:
 *
 *	<key, 16 hex digits> <n> <benchmark id, for people>
 *
 * run.c keeps a second kind of entry in it, under keys of its own: the
 * widest core each CPU was seen to have (thousandths of an add a cycle,
 * "core width on CPU N" for people).
 *
 * The key hashes everything n depends on: the .so's build id, the benchmark
 * and parameter, the CPU model, the backend, and CBENCH_TUNE_METHOD (so a
 * cbenchctl whose tuning rules changed never trusts an n chosen by others).  Updates rewrite the file
 * atomically, under a lock beside it (`tuning.lock`), so runs on other CPUs
 * storing at the same time lose nothing.
 */
#ifndef _CBENCH_CACHE_H
#define _CBENCH_CACHE_H

#include <stddef.h>
#include <stdint.h>

/* Writes the cache file's path; -ENOENT if neither XDG_CACHE_HOME nor HOME is set. */
int cbench_cache_path(char *buf, size_t len);

/* Key of one tuning; each part is a NUL-terminated string. */
uint64_t cbench_cache_key(const char *build_id, const char *bench_id, const char *cpu_model,
			  const char *backend);

/*
 * The whole cache read once, for a run that looks up each of its
 * benchmarks (a lookup each would read the file each time: quadratic in
 * the suite), sorted by key; the last line of a key wins.  A file that does
 * not exist is an empty cache.  0 or -errno.
 */
struct cbench_cache_entry {
	uint64_t key, n;
	const char *bench_id;		/* what store writes beside it */
	size_t order;			/* of a key's entries, the last wins */
};

struct cbench_cache {
	struct cbench_cache_entry *e;
	size_t len;
};

int cbench_cache_load(const char *path, struct cbench_cache *c);
/* 0 with *n set, or -ENOENT. */
int cbench_cache_find(const struct cbench_cache *c, uint64_t key, uint64_t *n);
void cbench_cache_free(struct cbench_cache *c);

/*
 * Adds or replaces count entries (of a key given twice, the later),
 * creating directories as needed, in one rewrite of the file: a run's
 * tunings together (one each would rewrite it each time).
 */
int cbench_cache_store_many(const char *path, const struct cbench_cache_entry *e, size_t count);

#endif /* _CBENCH_CACHE_H */
