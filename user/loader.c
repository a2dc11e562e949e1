// SPDX-License-Identifier: GPL-2.0
/*
 * Loading bench.so.
 *
 * We find the descriptors two ways.  The linker defines
 * __start_cbench_descs/__stop_cbench_descs only when something in the object
 * references them, which a plain CBENCH() user does not (checked with GNU ld
 * 2.40: absent from .dynsym), so dlsym() finds them only in objects that
 * opted in.  Otherwise we read the section header with libelf and add the
 * load bias from the link map; the pointers in the section have been
 * relocated by the dynamic loader by then.
 */
#include <ctype.h>
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "loader.h"
#include "report.h"

struct elf_facts {
	char build_id[80];
	uint64_t descs_addr;
	uint64_t descs_bytes;
	int has_descs;
};

static uint64_t fnv1a64(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;

	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

static int hash_file(int fd, char *out, size_t len)
{
	unsigned char buf[65536];
	uint64_t h = 0xcbf29ce484222325ULL;
	ssize_t got;

	if (lseek(fd, 0, SEEK_SET) < 0)
		return -errno;
	while ((got = read(fd, buf, sizeof(buf))) > 0)
		h = fnv1a64(h, buf, (size_t)got);
	if (got < 0)
		return -errno;
	snprintf(out, len, "fnv1a64:%016" PRIx64, h);
	return 0;
}

static int read_elf(const char *path, struct elf_facts *f, char *err, size_t errlen)
{
	Elf *elf = NULL;
	Elf_Scn *scn = NULL;
	GElf_Ehdr ehdr;
	size_t shstrndx;
	int fd, ret;

	memset(f, 0, sizeof(*f));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return ret;
	}
	ret = -ENOEXEC;
	if (elf_version(EV_CURRENT) == EV_NONE)
		goto out;
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &ehdr)) {
		snprintf(err, errlen, "%s is not an ELF file", path);
		goto out;
	}
	if (ehdr.e_type != ET_DYN || ehdr.e_machine != EM_X86_64) {
		snprintf(err, errlen, "%s is not an x86-64 shared object (build it with -fPIC -shared)", path);
		goto out;
	}
	if (elf_getshdrstrndx(elf, &shstrndx) < 0) {
		snprintf(err, errlen, "%s has no section names: %s", path, elf_errmsg(-1));
		goto out;
	}
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr shdr;
		const char *name;

		if (!gelf_getshdr(scn, &shdr))
			continue;
		name = elf_strptr(elf, shstrndx, shdr.sh_name);
		if (name && !strcmp(name, CBENCH_SECTION)) {
			f->has_descs = 1;
			f->descs_addr = shdr.sh_addr;
			f->descs_bytes = shdr.sh_size;
		}
		if (shdr.sh_type == SHT_NOTE && !f->build_id[0]) {
			Elf_Data *data = elf_getdata(scn, NULL);
			GElf_Nhdr nhdr;
			size_t off = 0, name_off, desc_off;

			while (data && (off = gelf_getnote(data, off, &nhdr, &name_off, &desc_off)) > 0) {
				const unsigned char *d = (const unsigned char *)data->d_buf + desc_off;

				if (nhdr.n_type != NT_GNU_BUILD_ID || nhdr.n_namesz != 4 ||
				    memcmp((const char *)data->d_buf + name_off, "GNU", 4))
					continue;
				for (size_t i = 0; i < nhdr.n_descsz && 2 * i + 3 < sizeof(f->build_id); i++)
					snprintf(f->build_id + 2 * i, 3, "%02x", d[i]);
				break;
			}
		}
	}
	ret = 0;
	if (!f->build_id[0])
		ret = hash_file(fd, f->build_id, sizeof(f->build_id));
out:
	if (elf)
		elf_end(elf);
	close(fd);
	return ret;
}

void cbench_camel_name(const char *snake, char *out, size_t len)
{
	size_t o = 0;
	int upper = 1;

	if (!len)
		return;
	for (const char *p = snake; *p && o + 1 < len; p++) {
		if (*p == '_') {
			upper = 1;
			continue;
		}
		out[o++] = upper ? (char)toupper((unsigned char)*p) : *p;
		upper = 0;
	}
	out[o] = '\0';
}

static int is_identifier(const char *s, size_t max)
{
	size_t i;

	if (!s || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
		return 0;
	for (i = 0; i < max && s[i]; i++) {
		if (!isalnum((unsigned char)s[i]) && s[i] != '_')
			return 0;
	}
	return i < max;
}

int cbench_desc_check(const struct cbench_desc *d, char *err, size_t errlen)
{
	if (!d) {
		snprintf(err, errlen, "a descriptor pointer is NULL");
		return -EINVAL;
	}
	if (d->abi_version > CBENCH_ABI_VERSION) {
		snprintf(err, errlen,
			 "a benchmark was built for cbench ABI version %" PRIu32
			 ", newer than this cbenchctl knows (versions 1 to %d); update cbenchctl",
			 d->abi_version, CBENCH_ABI_VERSION);
		return -EPROTO;
	}
	if (d->abi_version == 0) {
		snprintf(err, errlen, "a descriptor has ABI version 0 (not made by CBENCH())");
		return -EINVAL;
	}
	if (d->desc_bytes != sizeof(*d)) {
		snprintf(err, errlen, "a descriptor is %" PRIu32 " bytes, ABI version %" PRIu32 " says %zu",
			 d->desc_bytes, d->abi_version, sizeof(*d));
		return -EINVAL;
	}
	if (!is_identifier(d->name, CBENCH_NAME_MAX)) {
		snprintf(err, errlen, "a descriptor's name is not an identifier of at most %d bytes",
			 CBENCH_NAME_MAX - 1);
		return -EINVAL;
	}
	if (!d->run) {
		snprintf(err, errlen, "benchmark %s has no run function", d->name);
		return -EINVAL;
	}
	if (d->flags & ~__CBENCH_F_ALL) {
		snprintf(err, errlen, "benchmark %s has unknown flags %#" PRIx32, d->name, d->flags);
		return -EINVAL;
	}
	if (d->nparams > CBENCH_PARAMS_MAX || (d->nparams && !d->params)) {
		snprintf(err, errlen, "benchmark %s has a bad parameter list (%" PRIu32 " values, at most %d)",
			 d->name, d->nparams, CBENCH_PARAMS_MAX);
		return -EINVAL;
	}
	if (d->nparams && !is_identifier(d->param_name, CBENCH_NAME_MAX)) {
		snprintf(err, errlen, "benchmark %s sweeps a parameter without an identifier name", d->name);
		return -EINVAL;
	}
	if ((d->flags & CBENCH_F_BYTES_PER_PARAM) && d->params) {
		for (uint32_t i = 0; i < d->nparams; i++) {
			if (d->params[i] <= 0) {
				snprintf(err, errlen, "benchmark %s counts bytes per %s, but sweeps %s=%" PRId64
					 ": a byte count must be positive", d->name, d->param_name,
					 d->param_name, d->params[i]);
				return -EINVAL;
			}
		}
	}
	/* cbench.h's limit counts "name/param_name" together. */
	if (d->nparams && strlen(d->name) + 1 + strlen(d->param_name) >= CBENCH_NAME_MAX) {
		snprintf(err, errlen, "benchmark %s/%s: name and parameter name together are longer than %d bytes; "
			 "shorten one", d->name, d->param_name, CBENCH_NAME_MAX - 1);
		return -EINVAL;
	}
	return 0;
}

static int find_descs(struct cbench_library *lib, const struct elf_facts *f, char *err, size_t errlen)
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

/* Whether [p, p + bytes) lies in one loaded segment (an executable one if asked). */
static bool in_object(const struct cbench_library *lib, const void *p, size_t bytes, bool exec)
{
	uintptr_t a = (uintptr_t)p;

	for (size_t i = 0; i < lib->nsegments; i++) {
		if (a >= lib->segments[i].start && a + bytes <= lib->segments[i].end && a + bytes >= a &&
		    (!exec || lib->segments[i].exec))
			return true;
	}
	return false;
}

/* A string in the object, NUL-terminated within max bytes. */
static bool string_in_object(const struct cbench_library *lib, const char *s, size_t max)
{
	for (size_t i = 0; i < max; i++) {
		if (!in_object(lib, s + i, 1, false))
			return false;
		if (!s[i])
			return true;
	}
	return true;	/* too long: cbench_desc_check() says so */
}

/*
 * Every pointer a descriptor holds must point into the object itself, or
 * reading it would crash cbenchctl rather than report a bad descriptor.
 * The version fields are checked first, so a newer ABI is named as such.
 */
static int check_pointers(const struct cbench_library *lib, const struct cbench_desc *d, char *why, size_t len)
{
	if (!lib->nsegments)
		return 0;	/* no segment table: we cannot check, cbench_desc_check() still runs */
	if (!in_object(lib, d, 2 * sizeof(uint32_t), false)) {
		snprintf(why, len, "a descriptor pointer points outside the object");
		return -EINVAL;
	}
	if (d->abi_version > CBENCH_ABI_VERSION || d->desc_bytes != sizeof(*d))
		return 0;	/* cbench_desc_check() explains */
	if (!in_object(lib, d, sizeof(*d), false) || !string_in_object(lib, d->name, CBENCH_NAME_MAX)) {
		snprintf(why, len, "a descriptor or its name lies outside the object");
		return -EINVAL;
	}
	if ((d->run && !in_object(lib, (const void *)d->run, 1, true)) ||
	    (d->setup && !in_object(lib, (const void *)d->setup, 1, true))) {
		snprintf(why, len, "a descriptor's run or setup function is not code in the object");
		return -EINVAL;
	}
	if ((d->param_name && !string_in_object(lib, d->param_name, CBENCH_NAME_MAX)) ||
	    (d->nparams && d->nparams <= CBENCH_PARAMS_MAX &&
	     !in_object(lib, d->params, d->nparams * sizeof(*d->params), false))) {
		snprintf(why, len, "a descriptor's parameters lie outside the object");
		return -EINVAL;
	}
	return 0;
}

static int expand(struct cbench_library *lib)
{
	size_t total = 0, k = 0;

	for (size_t i = 0; i < lib->ndescs; i++)
		total += lib->descs[i]->nparams ? lib->descs[i]->nparams : 1;
	lib->experiments = calloc(total, sizeof(*lib->experiments));
	if (!lib->experiments)
		return -ENOMEM;
	for (size_t i = 0; i < lib->ndescs; i++) {
		const struct cbench_desc *d = lib->descs[i];
		uint32_t n = d->nparams ? d->nparams : 1;

		for (uint32_t p = 0; p < n; p++, k++) {
			struct cbench_experiment *e = &lib->experiments[k];
			char camel[CBENCH_NAME_MAX];

			e->lib = lib;
			e->desc = d;
			e->has_param = d->nparams > 0;
			e->param = e->has_param ? d->params[p] : 0;
			size_t id_len, name_len;

			cbench_camel_name(d->name, camel, sizeof(camel));
			if (e->has_param) {
				id_len = (size_t)snprintf(e->id, sizeof(e->id), "%s/%s=%" PRId64, d->name,
							  d->param_name, e->param);
				name_len = (size_t)snprintf(e->report_name, sizeof(e->report_name),
							    "Benchmark%s/%s=%" PRId64, camel, d->param_name,
							    e->param);
			} else {
				id_len = (size_t)snprintf(e->id, sizeof(e->id), "%s", d->name);
				name_len = (size_t)snprintf(e->report_name, sizeof(e->report_name),
							    "Benchmark%s", camel);
			}
			/* Never reached within cbench_desc_check()'s limits: a cut
			 * name would merge parameters in the tuning cache. */
			if (id_len >= sizeof(e->id) || name_len >= sizeof(e->report_name))
				return -ENAMETOOLONG;
		}
	}
	lib->nexperiments = k;
	return 0;
}

/*
 * Report names must be valid in the Go format (benchstat drops the rest
 * silently) and distinct (or two benchmarks' results would merge), though
 * CamelCase can make "a_b" and "aB" one name and "_1x" an invalid one.
 */
static int check_report_names(const struct cbench_library *lib, char *err, size_t errlen)
{
	for (size_t i = 0; i < lib->nexperiments; i++) {
		const struct cbench_experiment *e = &lib->experiments[i];

		if (!cbench_go_valid_name(e->report_name)) {
			snprintf(err, errlen, "benchmark %s would be reported as %s, which benchstat does not "
				 "read (after \"Benchmark\" comes an upper-case letter): start the name "
				 "with a letter", e->desc->name, e->report_name);
			return -EINVAL;
		}
		for (size_t j = 0; j < i; j++) {
			if (!strcmp(e->report_name, lib->experiments[j].report_name)) {
				snprintf(err, errlen, "benchmarks %s and %s would both be reported as %s: "
					 "rename one", lib->experiments[j].id, e->id, e->report_name);
				return -EINVAL;
			}
		}
	}
	return 0;
}

int cbench_library_open(struct cbench_library *lib, const char *path, char *err, size_t errlen)
{
	struct elf_facts facts;
	char resolved[4096];
	int ret;

	memset(lib, 0, sizeof(*lib));
	if (!realpath(path, resolved)) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return ret;
	}
	snprintf(lib->path, sizeof(lib->path), "%s", resolved);
	ret = read_elf(lib->path, &facts, err, errlen);
	if (ret)
		return ret;
	snprintf(lib->build_id, sizeof(lib->build_id), "%s", facts.build_id);

	lib->handle = dlopen(lib->path, RTLD_NOW | RTLD_LOCAL);
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
	if (lib->ndescs && !in_object(lib, lib->descs, lib->ndescs * sizeof(*lib->descs), false) &&
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
	for (size_t i = 0; i < lib->ndescs; i++) {
		char why[256];

		ret = check_pointers(lib, lib->descs[i], why, sizeof(why));
		if (!ret)
			ret = cbench_desc_check(lib->descs[i], why, sizeof(why));
		if (ret) {
			snprintf(err, errlen, "%s: %s", path, why);
			goto fail;
		}
		for (size_t j = 0; j < i; j++) {
			if (!strcmp(lib->descs[i]->name, lib->descs[j]->name)) {
				snprintf(err, errlen, "%s: benchmark %s is registered twice", path,
					 lib->descs[i]->name);
				ret = -EINVAL;
				goto fail;
			}
		}
	}
	ret = expand(lib);
	if (ret) {
		snprintf(err, errlen, "%s", strerror(-ret));
		goto fail;
	}
	{
		char why[512];

		ret = check_report_names(lib, why, sizeof(why));
		if (ret) {
			snprintf(err, errlen, "%s: %s", path, why);
			goto fail;
		}
	}
	return 0;
fail:
	cbench_library_close(lib);
	return ret;
}

void cbench_library_close(struct cbench_library *lib)
{
	free(lib->experiments);
	lib->experiments = NULL;
	if (lib->handle)
		dlclose(lib->handle);
	lib->handle = NULL;
}
