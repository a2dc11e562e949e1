// SPDX-License-Identifier: GPL-2.0
/*
 * Loading bench.so in this process (a worker, or the loading child of
 * load_child.c), an experiment found again in it, and a library closed
 * (loader.h).  The loader's other parts: elf_facts.c (the file), descs.c (the descriptors' checks),
 * names.c (experiments and their names), load_child.c (the child protocol).
 *
 * We find the descriptors two ways.  The linker defines
 * __start_cbench_descs/__stop_cbench_descs only when something in the object
 * references them, which a plain CBENCH() user does not (checked with GNU ld
 * 2.40: absent from .dynsym), so dlsym() finds them only in objects that
 * opted in.  Otherwise we read the section header with libelf and add the
 * load bias from the link map; the pointers in the section have been
 * relocated by the dynamic loader by then.
 */
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "object/loader_parts.h"

static int find_descs(struct cbench_library *lib, const struct cbench_elf_facts *f, char *err, size_t errlen)
{
	const struct cbench_desc *const *start, *const *stop;
	struct link_map *map = NULL;

	start = dlsym(lib->handle, "__start_" CBENCH_SECTION);
	stop = dlsym(lib->handle, "__stop_" CBENCH_SECTION);
	if (start && stop && stop >= start) {
		lib->descs = start;
		lib->ndescs = (size_t)(stop - start);
		return 0;
	}
	if (!f->has_descs || !f->descs_bytes)
		return 0;
	if (dlinfo(lib->handle, RTLD_DI_LINKMAP, &map) || !map) {
		snprintf(err, errlen, "%s: cannot find its load address: %s", lib->path, dlerror());
		return -ENOEXEC;
	}
	if (f->descs_addr % sizeof(void *) || f->descs_bytes % sizeof(void *)) {
		snprintf(err, errlen, "%s: section %s is not an array of pointers", lib->path, CBENCH_SECTION);
		return -ENOEXEC;
	}
	lib->descs = (const struct cbench_desc *const *)(map->l_addr + f->descs_addr);
	lib->ndescs = f->descs_bytes / sizeof(void *);
	return 0;
}

struct phdr_search {
	struct cbench_library *lib;
	uintptr_t base;
};

static int collect_segments(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct phdr_search *search = arg;
	struct cbench_library *lib = search->lib;

	if (info->dlpi_addr != search->base || !info->dlpi_name || strcmp(info->dlpi_name, lib->path))
		return 0;
	for (int i = 0; i < info->dlpi_phnum && lib->nsegments < sizeof(lib->segments) / sizeof(lib->segments[0]); i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type != PT_LOAD)
			continue;
		lib->segments[lib->nsegments].start = info->dlpi_addr + ph->p_vaddr;
		lib->segments[lib->nsegments].end = info->dlpi_addr + ph->p_vaddr + ph->p_memsz;
		lib->segments[lib->nsegments].exec = ph->p_flags & PF_X;
		lib->nsegments++;
	}
	return 1;
}

static int load_staged(struct cbench_library *lib, const char *path, const char *only_a,
		       const char *only_b, void (*stage)(void *arg, bool loaded), void *arg, char *err,
		       size_t errlen)
{
	struct cbench_elf_facts facts;
	char resolved[4096];
	int ret;

	memset(lib, 0, sizeof(*lib));
	lib->only[0] = only_a;
	lib->only[1] = only_a ? only_b : NULL;
	if (!realpath(path, resolved)) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return ret;
	}
	snprintf(lib->path, sizeof(lib->path), "%s", resolved);
	ret = cbench_elf_facts_read(lib->path, &facts, err, errlen);
	if (ret)
		return ret;
	snprintf(lib->build_id, sizeof(lib->build_id), "%s", facts.build_id);

	if (stage)
		stage(arg, false);
	lib->handle = dlopen(lib->path, RTLD_NOW | RTLD_LOCAL);
	if (stage)
		stage(arg, true);
	if (!lib->handle) {
		snprintf(err, errlen, "cannot load %s: %s", path, dlerror());
		return -ENOEXEC;
	}
	ret = find_descs(lib, &facts, err, errlen);
	if (ret)
		goto fail;
	{
		struct link_map *map = NULL;

		if (!dlinfo(lib->handle, RTLD_DI_LINKMAP, &map) && map) {
			struct phdr_search search = { lib, map->l_addr };

			dl_iterate_phdr(collect_segments, &search);
		}
	}
	if (lib->ndescs && !cbench_library_in_object(lib, lib->descs, lib->ndescs * sizeof(*lib->descs), false) &&
	    lib->nsegments) {
		snprintf(err, errlen, "%s: section %s lies outside the object", path, CBENCH_SECTION);
		ret = -ENOEXEC;
		goto fail;
	}
	if (!lib->ndescs) {
		snprintf(err, errlen, "%s registers no benchmarks (no CBENCH() in it?)", path);
		ret = -ENOENT;
		goto fail;
	}
	lib->section_descs = lib->descs;
	lib->section_ndescs = lib->ndescs;
	ret = cbench_library_check(lib, path, true, err, errlen);
	if (ret)
		goto fail;
	return 0;
fail:
	cbench_library_close(lib);
	return ret;
}

int cbench_library_load_staged(struct cbench_library *lib, const char *path,
			       void (*stage)(void *arg, bool loaded), void *arg, char *err, size_t errlen)
{
	return load_staged(lib, path, NULL, NULL, stage, arg, err, errlen);
}

int cbench_library_load(struct cbench_library *lib, const char *path, char *err, size_t errlen)
{
	return load_staged(lib, path, NULL, NULL, NULL, NULL, err, errlen);
}

int cbench_library_load_only(struct cbench_library *lib, const char *path, const char *a,
			     const char *b, char *err, size_t errlen)
{
	return load_staged(lib, path, a, b, NULL, NULL, err, errlen);
}

int cbench_library_load_another(struct cbench_library *lib, const struct cbench_library *have,
				const char *a, char *err, size_t errlen)
{
	int ret;

	memset(lib, 0, sizeof(*lib));
	memcpy(lib->path, have->path, sizeof(lib->path));
	memcpy(lib->build_id, have->build_id, sizeof(lib->build_id));
	memcpy(lib->segments, have->segments, sizeof(lib->segments));
	lib->nsegments = have->nsegments;
	lib->only[0] = a;
	/* Held by have: this only counts it once more. */
	lib->handle = dlopen(lib->path, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
	if (!lib->handle) {
		snprintf(err, errlen, "cannot load %s again: %s", lib->path, dlerror());
		return -ENOEXEC;
	}
	lib->descs = lib->section_descs = have->section_descs;
	lib->ndescs = lib->section_ndescs = have->section_ndescs;
	ret = cbench_library_check(lib, lib->path, true, err, errlen);
	if (ret)
		cbench_library_close(lib);
	return ret;
}

static bool same_args(const struct cbench_experiment *a, const struct cbench_experiment *b)
{
	if (a->nargs != b->nargs)
		return false;
	for (uint32_t i = 0; i < a->nargs; i++) {
		if (a->args[i].i != b->args[i].i || strcmp(a->args[i].key, b->args[i].key) ||
		    !a->args[i].str != !b->args[i].str || (a->args[i].str && strcmp(a->args[i].str, b->args[i].str)))
			return false;
	}
	return true;
}

int cbench_experiment_find(const struct cbench_library *live, const struct cbench_experiment *want,
			   const struct cbench_experiment **found, char *err, size_t errlen)
{
	const struct cbench_desc *w = want->desc;

	if (strcmp(live->build_id, want->lib->build_id)) {
		snprintf(err, errlen, "%s changed since cbenchctl loaded it (build id %s then, %s now): "
			 "rebuilt meanwhile? measure it again", live->path, want->lib->build_id, live->build_id);
		return -ESTALE;
	}
	for (size_t i = 0; i < live->nexperiments; i++) {
		const struct cbench_experiment *e = &live->experiments[i];
		const struct cbench_desc *d = e->desc;

		if (strcmp(e->id, want->id))
			continue;
		/* The same build can still register differently, from a
		 * constructor that reads the environment or the time. */
		if (strcmp(e->report_name, want->report_name) || e->param != want->param ||
		    e->has_param != want->has_param || !same_args(e, want) || d->arena_bytes != w->arena_bytes ||
		    d->ops_per_rep != w->ops_per_rep || d->bytes_per_rep != w->bytes_per_rep ||
		    d->flags != (w->flags & ~CBENCH_DESC_F_PER_REP) ||
		    cbench_desc_per_rep(d) != cbench_desc_per_rep(w)) {
			snprintf(err, errlen, "%s registers benchmark %s differently in this worker "
				 "than when cbenchctl loaded it", live->path, want->id);
			return -ESTALE;
		}
		*found = e;
		return 0;
	}
	snprintf(err, errlen, "%s does not register benchmark %s in this worker, though it did when "
		 "cbenchctl loaded it", live->path, want->id);
	return -ESTALE;
}

void cbench_library_close(struct cbench_library *lib)
{
	for (size_t i = 0; lib->params && i < lib->ndescs; i++)
		cbench_params_free(&lib->params[i]);
	free(lib->params);
	lib->params = NULL;
	free(lib->experiments);
	lib->experiments = NULL;
	free(lib->copies);
	lib->copies = NULL;
	free(lib->copy_ptrs);
	lib->copy_ptrs = NULL;
	free(lib->upgraded);
	lib->upgraded = NULL;
	free(lib->upgraded_ptrs);
	lib->upgraded_ptrs = NULL;
	free(lib->ordered_ptrs);
	lib->ordered_ptrs = NULL;
	if (lib->handle)
		dlclose(lib->handle);
	lib->handle = NULL;
}
