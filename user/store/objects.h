/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Objects kept in the store (schema 2), once each by build ID, where every
 * machine of a fleet reaches them: the lab queue's jobs take theirs from
 * here, and a run kept with --keep-object store names its copy
 * "store:<build ID>" (history --confirm takes it from here too).
 */
#ifndef _CBENCH_STORE_OBJECTS_H
#define _CBENCH_STORE_OBJECTS_H

#include <stddef.h>

struct cbench_store;

/* How a run names a copy of its object kept in the store. */
#define CBENCH_STORE_COPY_PREFIX "store:"

/*
 * Keeps the object at path in s by its build ID (once; a copy there of
 * another size is refused), its build ID into id.  0, or -errno with why
 * in err.  Inside the caller's transaction.
 */
int cbench_store_put_object(struct cbench_store *s, const char *path, char *id, size_t idlen,
			    char *err, size_t errlen);

/*
 * Writes the object of build ID id into dir under its file name, checks
 * it is that build, its path into out.  0, or -errno (-ENOENT: the store
 * has no such object) with why in err.
 */
int cbench_store_get_object(struct cbench_store *s, const char *id, const char *dir, char *out,
			    size_t outlen, char *err, size_t errlen);

/* Removes dir, a scratch directory objects were written into, and all in it. */
void cbench_store_scratch_remove(const char *dir);

#endif /* _CBENCH_STORE_OBJECTS_H */
