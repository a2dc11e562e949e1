/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Memory for a run's measurements that workers do not inherit.  Every
 * trial's worker is a fork of the runner, and fork copies the runner's page
 * tables and the worker's mlockall() then locks every page it inherited:
 * the samples of every trial so far, so that a trial's start grew with the
 * suite (a 512-benchmark run's trials took 1.9 ms more than a 64's).  The
 * samples live in mappings marked MADV_DONTFORK instead: a worker starts
 * with none of them.  Only the runner's collector (collect.c) writes them.
 */
#ifndef _CBENCH_BULK_H
#define _CBENCH_BULK_H

#include <stddef.h>

/*
 * p (NULL, or from here) with room for at least bytes, its contents kept;
 * NULL (p untouched) when no memory is left.
 */
void *cbench_bulk_grow(void *p, size_t bytes);

/* Frees p (NULL, or from cbench_bulk_grow()). */
void cbench_bulk_free(void *p);

#endif /* _CBENCH_BULK_H */
