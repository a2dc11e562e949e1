/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the loader's files share (loader.h, which stands for them all, is
 * what the rest of cbenchctl sees): the facts read from an object's file (elf_facts.c), the checks of
 * its descriptors (descs.c), its experiments and their names (names.c), and
 * the load in this process (load.c) that the loading child runs
 * (load_child.c).
 */
#ifndef _CBENCH_OBJECT_LOADER_PARTS_H
#define _CBENCH_OBJECT_LOADER_PARTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "object/loader.h"

/* What an object's file says before anything maps it. */
struct cbench_elf_facts {
	char build_id[80];		/* GNU build id as hex, else "fnv1a64:<hex>" of the file */
	uint64_t descs_addr;		/* the section CBENCH() puts descriptors in */
	uint64_t descs_bytes;
	int has_descs;
};

/* Reads f from path (elf_facts.c); 0, or -errno with a sentence in err. */
int cbench_elf_facts_read(const char *path, struct cbench_elf_facts *f, char *err, size_t errlen);

/* Whether [p, p + bytes) lies in one of lib's loaded segments (an
 * executable one if exec) (descs.c). */
bool cbench_library_in_object(const struct cbench_library *lib, const void *p, size_t bytes, bool exec);

/*
 * What every descriptor must pass, whether we read it in the object or
 * copied it from the child that did: valid fields, distinct names, report
 * names benchstat reads; then lib's experiments made (descs.c).  `code`:
 * the descriptors are the object's own.  0, or -errno with a sentence in err.
 */
int cbench_library_check(struct cbench_library *lib, const char *path, bool code, char *err, size_t errlen);

/* Whether d is one cbench_library_load_only() asked for (every one, without). */
bool cbench_library_wanted(const struct cbench_library *lib, const struct cbench_desc *d);

/* lib's experiments, a descriptor at each of its parameter sets, named (names.c). */
int cbench_library_expand(struct cbench_library *lib, char *err, size_t errlen);

/* Every report name valid in the Go format, and no two alike (names.c). */
int cbench_library_check_names(const struct cbench_library *lib, char *err, size_t errlen);

/*
 * cbench_library_load(), calling stage(arg, false) as dlopen() starts and
 * stage(arg, true) once it returned, where stage is not NULL: the loading
 * child tells its parent so (load.c).
 */
int cbench_library_load_staged(struct cbench_library *lib, const char *path,
			       void (*stage)(void *arg, bool loaded), void *arg, char *err, size_t errlen);

#endif /* _CBENCH_OBJECT_LOADER_PARTS_H */
