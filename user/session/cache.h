/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tuning cache (Chen and Revels: n need only be found once per benchmark and
 * machine).  One text file, $XDG_CACHE_HOME/cbench/tuning (default
 * ~/.cache/cbench/tuning), one line per entry:
 *
 *	<key, 16 hex digits> <n> <benchmark id, for people>
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

/* 0 with *n set, -ENOENT if absent, other -errno on failure. */
int cbench_cache_lookup(const char *path, uint64_t key, uint64_t *n);

/* Adds or replaces the entry, creating directories as needed. */
int cbench_cache_store(const char *path, uint64_t key, uint64_t n, const char *bench_id);

#endif /* _CBENCH_CACHE_H */
