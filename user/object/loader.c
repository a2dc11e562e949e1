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
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "error.h"
#include "machine/clock.h"
#include "object/elffile.h"
#include "object/loader.h"
#include "machine/proc.h"

/*
 * Most operations or bytes one rep may claim (ops_per_rep, bytes_per_rep, and
 * bytes_per_rep times the parameter under CBENCH_F_BYTES_PER_PARAM): 2^40.
 * A rep doing that much work runs for minutes at any rate a CPU reaches, so
 * a larger count is a mistake, and it would turn any measured time into
 * per-op figures below what a report prints (UINT64_MAX gave
 * 0.000000000000 ns/op).
 */
#define CBENCH_DESC_COUNT_MAX (1ULL << 40)

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

/* The section CBENCH() puts descriptors in, and the GNU build id, from the
 * section headers. */
static void read_sections(Elf *elf, size_t shstrndx, struct elf_facts *f)
{
	Elf_Scn *scn = NULL;

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
}

static int read_elf(const char *path, struct elf_facts *f, char *err, size_t errlen)
{
	struct cbench_elf e;
	size_t shstrndx;
	int ret;

	memset(f, 0, sizeof(*f));
	ret = cbench_elf_open(&e, path, err, errlen);
	if (ret)
		return ret;
	ret = -ENOEXEC;
	if (elf_getshdrstrndx(e.elf, &shstrndx) < 0) {
		snprintf(err, errlen, "%s has no section names: %s", path, elf_errmsg(-1));
		goto out;
	}
	read_sections(e.elf, shstrndx, f);
	ret = 0;
	if (!f->build_id[0])
		ret = hash_file(e.fd, f->build_id, sizeof(f->build_id));
out:
	cbench_elf_close(&e);
	return ret;
}

int cbench_object_build_id(const char *path, char *out, size_t len, char *err, size_t errlen)
{
	struct elf_facts f;
	int ret = read_elf(path, &f, err, errlen);

	if (!ret)
		snprintf(out, len, "%s", f.build_id);
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

/* The checks of cbench_desc_check(); `code`: also that it has a run
 * function (a copy in cbenchctl's memory has none). */
static int desc_check(const struct cbench_desc *d, bool code, char *err, size_t errlen)
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
	if (d->desc_bytes != cbench_desc_bytes(d->abi_version)) {
		snprintf(err, errlen, "a descriptor is %" PRIu32 " bytes, ABI version %" PRIu32 " says %zu",
			 d->desc_bytes, d->abi_version, cbench_desc_bytes(d->abi_version));
		return -EINVAL;
	}
	if (!is_identifier(d->name, CBENCH_NAME_MAX)) {
		snprintf(err, errlen, "a descriptor's name is not an identifier of at most %d bytes",
			 CBENCH_NAME_MAX - 1);
		return -EINVAL;
	}
	if (code && !d->run) {
		snprintf(err, errlen, "benchmark %s has no run function", d->name);
		return -EINVAL;
	}
	if (d->flags & ~__CBENCH_F_ALL & ~(code ? 0 : CBENCH_DESC_F_PER_REP)) {
		snprintf(err, errlen, "benchmark %s has unknown flags %#" PRIx32, d->name, d->flags);
		return -EINVAL;
	}
	if ((d->flags & CBENCH_F_ARENA_HUGE) && (d->flags & CBENCH_F_ARENA_BASE)) {
		snprintf(err, errlen, "benchmark %s asks for huge and base pages at once: "
			 "CBENCH_F_ARENA_HUGE or CBENCH_F_ARENA_BASE, not both", d->name);
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
	if (d->ops_per_rep > CBENCH_DESC_COUNT_MAX || d->bytes_per_rep > CBENCH_DESC_COUNT_MAX) {
		bool ops = d->ops_per_rep > CBENCH_DESC_COUNT_MAX;

		snprintf(err, errlen, "benchmark %s has %s = %" PRIu64 ", more than 2^40: no rep does that "
			 "much, and its per-op figures would be meaningless", d->name,
			 ops ? "ops_per_rep" : "bytes_per_rep", ops ? d->ops_per_rep : d->bytes_per_rep);
		return -ERANGE;
	}
	/* cbench.h's limit counts "name/param_name" together. */
	if (d->nparams && strlen(d->name) + 1 + strlen(d->param_name) >= CBENCH_NAME_MAX) {
		snprintf(err, errlen, "benchmark %s/%s: name and parameter name together are longer than %d bytes; "
			 "shorten one", d->name, d->param_name, CBENCH_NAME_MAX - 1);
		return -EINVAL;
	}
	return 0;
}

int cbench_desc_check(const struct cbench_desc *d, char *err, size_t errlen)
{
	struct cbench_params p;
	int ret = desc_check(d, true, err, errlen);

	if (ret)
		return ret;
	ret = cbench_params_read(d, NULL, NULL, &p, err, errlen);
	if (!ret)
		ret = cbench_params_check(d, &p, err, errlen);
	cbench_params_free(&p);
	return ret;
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
	if (!d->abi_version || d->abi_version > CBENCH_ABI_VERSION ||
	    d->desc_bytes != cbench_desc_bytes(d->abi_version))
		return 0;	/* cbench_desc_check() explains */
	if (!in_object(lib, d, d->desc_bytes, false) || !string_in_object(lib, d->name, CBENCH_NAME_MAX)) {
		snprintf(why, len, "a descriptor or its name lies outside the object");
		return -EINVAL;
	}
	if ((d->run && !in_object(lib, (const void *)d->run, 1, true)) ||
	    (d->setup && !in_object(lib, (const void *)d->setup, 1, true))) {
		snprintf(why, len, "a descriptor's run or setup function is not code in the object");
		return -EINVAL;
	}
	/* Only ABI 2 descriptors are long enough to hold hooks. */
	if (d->abi_version >= 2 &&
	    ((d->before_rep && !in_object(lib, (const void *)d->before_rep, 1, true)) ||
	     (d->after_rep && !in_object(lib, (const void *)d->after_rep, 1, true)))) {
		snprintf(why, len, "a descriptor's before_rep or after_rep hook is not code in the object");
		return -EINVAL;
	}
	/* The parameters' pointers: cbench_params_read() checks them with readable(). */
	return 0;
}

/* cbench_params_read()'s check that a declaration lies in the object. */
static bool readable(const void *arg, const void *p, size_t bytes)
{
	const struct cbench_library *lib = arg;

	return !lib->nsegments || in_object(lib, p, bytes, false);
}

/* Most experiments one object may make: far above any real suite, it
 * bounds what a descriptor's declaration can make us allocate. */
#define LOAD_EXPERIMENTS_MAX 65536

/* Experiment e: descriptor d at parameter set s of p. */
static int name_experiment(struct cbench_experiment *e, const struct cbench_desc *d,
			   const struct cbench_params *p, uint32_t s)
{
	char camel[CBENCH_NAME_MAX], suffix[CBENCH_PARAMS_NAME_MAX];
	size_t id_len, name_len;

	if (p->nkeys && cbench_params_name(p, s, suffix, sizeof(suffix)) < 0)
		return -ENAMETOOLONG;
	if (!p->nkeys)
		suffix[0] = '\0';
	e->nargs = p->nkeys ? cbench_params_args(p, s, e->args) : 0;
	e->has_param = e->nargs > 0;
	e->param = e->nargs ? e->args[0].i : 0;
	e->size_arg = d->flags & CBENCH_F_BYTES_PER_PARAM ? (uint32_t)(cbench_params_size_key(p) + 1) : 0;
	cbench_camel_name(d->name, camel, sizeof(camel));
	id_len = (size_t)snprintf(e->id, sizeof(e->id), "%s%s", d->name, suffix);
	name_len = (size_t)snprintf(e->report_name, sizeof(e->report_name), "Benchmark%s%s", camel, suffix);
	/* Never reached within cbench_params_check()'s limits: a cut name
	 * would merge parameter sets in the tuning cache. */
	return id_len >= sizeof(e->id) || name_len >= sizeof(e->report_name) ? -ENAMETOOLONG : 0;
}

static int expand(struct cbench_library *lib, char *err, size_t errlen)
{
	size_t total = 0, k = 0;

	for (size_t i = 0; i < lib->ndescs; i++)
		total += cbench_params_nsets(&lib->params[i]);
	if (total > LOAD_EXPERIMENTS_MAX) {
		snprintf(err, errlen, "%s makes %zu benchmarks with their parameter sets, more than %d: "
			 "split it into several objects", lib->path, total, LOAD_EXPERIMENTS_MAX);
		return -E2BIG;
	}
	lib->experiments = calloc(total, sizeof(*lib->experiments));
	if (!lib->experiments)
		goto nomem;
	for (size_t i = 0; i < lib->ndescs; i++) {
		uint32_t n = cbench_params_nsets(&lib->params[i]);

		for (uint32_t s = 0; s < n; s++, k++) {
			lib->experiments[k].lib = lib;
			lib->experiments[k].desc = lib->descs[i];
			if (name_experiment(&lib->experiments[k], lib->descs[i], &lib->params[i], s)) {
				snprintf(err, errlen, "%s: benchmark %s: a name is too long", lib->path,
					 lib->descs[i]->name);
				return -ENAMETOOLONG;
			}
		}
	}
	lib->nexperiments = k;
	return 0;
nomem:
	snprintf(err, errlen, "%s", strerror(ENOMEM));
	return -ENOMEM;
}

/*
 * Report names must be valid in the Go format (benchstat drops the rest
 * silently) and distinct (or two benchmarks' results would merge), though
 * CamelCase can make "a_b" and "aB" one name and "_1x" an invalid one.
 */
static int by_report_name(const void *a, const void *b)
{
	const struct cbench_experiment *const *x = a, *const *y = b;

	return strcmp((*x)->report_name, (*y)->report_name);
}

static int check_report_names(const struct cbench_library *lib, char *err, size_t errlen)
{
	const struct cbench_experiment **sorted;
	int ret = 0;

	for (size_t i = 0; i < lib->nexperiments; i++) {
		const struct cbench_experiment *e = &lib->experiments[i];

		if (!cbench_go_valid_name(e->report_name)) {
			snprintf(err, errlen, "benchmark %s would be reported as %.200s, which benchstat does "
				 "not read (after \"Benchmark\" comes an upper-case letter): start the name "
				 "with a letter", e->desc->name, e->report_name);
			return -EINVAL;
		}
	}
	/* Sorted, equal names are neighbours: a suite of many parameter sets
	 * is checked in n log n. */
	sorted = calloc(lib->nexperiments ? lib->nexperiments : 1, sizeof(*sorted));
	if (!sorted) {
		snprintf(err, errlen, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	for (size_t i = 0; i < lib->nexperiments; i++)
		sorted[i] = &lib->experiments[i];
	qsort(sorted, lib->nexperiments, sizeof(*sorted), by_report_name);
	for (size_t i = 1; i < lib->nexperiments && !ret; i++) {
		if (!strcmp(sorted[i - 1]->report_name, sorted[i]->report_name)) {
			const struct cbench_experiment *a = sorted[i - 1], *b = sorted[i];

			if (a > b) {
				a = sorted[i];
				b = sorted[i - 1];
			}
			snprintf(err, errlen, "benchmarks %.150s and %.150s would both be reported as %.150s: "
				 "rename one", a->id, b->id, a->report_name);
			ret = -EINVAL;
		}
	}
	free(sorted);
	return ret;
}

_Static_assert(offsetof(struct cbench_desc, before_rep) == CBENCH_DESC_V1_BYTES,
	       "ABI 2 appends the hooks to the ABI 1 descriptor");
_Static_assert(offsetof(struct cbench_desc, keys) == CBENCH_DESC_V2_BYTES,
	       "ABI 3 appends the keys to the ABI 2 descriptor");

/*
 * Descriptors of ABI versions 1 and 2 end before the hooks or the keys: we
 * give each a full copy, the rest NULL, so no one reads past the object's.
 * The copies keep their version.
 */
static int upgrade_old(struct cbench_library *lib)
{
	size_t old = 0;
	const struct cbench_desc **ptrs;

	for (size_t i = 0; i < lib->ndescs; i++)
		old += lib->descs[i]->abi_version < CBENCH_ABI_VERSION;
	if (!old)
		return 0;
	ptrs = calloc(lib->ndescs, sizeof(*ptrs));
	lib->upgraded = calloc(old, sizeof(*lib->upgraded));
	if (!ptrs || !lib->upgraded) {
		free(ptrs);
		return -ENOMEM;
	}
	old = 0;
	for (size_t i = 0; i < lib->ndescs; i++) {
		ptrs[i] = lib->descs[i];
		if (lib->descs[i]->abi_version >= CBENCH_ABI_VERSION)
			continue;
		memcpy(&lib->upgraded[old], lib->descs[i], lib->descs[i]->desc_bytes);
		ptrs[i] = &lib->upgraded[old++];
	}
	lib->upgraded_ptrs = ptrs;
	lib->descs = ptrs;
	return 0;
}

/* A descriptor's place: where its file first appears in the section, its
 * line, its index (for a stable sort). */
struct place {
	size_t file, line, index;
	const struct cbench_desc *desc;
};

static int by_place(const void *a, const void *b)
{
	const struct place *p = a, *q = b;

	if (p->file != q->file)
		return p->file < q->file ? -1 : 1;
	if (p->line != q->line)
		return p->line < q->line ? -1 : 1;
	return (p->index > q->index) - (p->index < q->index);
}

/*
 * The descriptors in registration order: by file, in the order the files
 * first appear in the section (link order), then by line.  Only when every
 * descriptor says where it stands (ABI 3, a file string in the object);
 * otherwise the section's order is kept.
 */
static int order_descs(struct cbench_library *lib)
{
	struct place *places;

	for (size_t i = 0; i < lib->ndescs; i++) {
		const struct cbench_desc *d = lib->descs[i];

		if (d->abi_version < 3 || !d->file || !d->line ||
		    (lib->nsegments && !string_in_object(lib, d->file, 4096)))
			return 0;
	}
	places = calloc(lib->ndescs, sizeof(*places));
	lib->ordered_ptrs = calloc(lib->ndescs, sizeof(*lib->ordered_ptrs));
	if (!places || !lib->ordered_ptrs) {
		free(places);
		return -ENOMEM;
	}
	for (size_t i = 0; i < lib->ndescs; i++) {
		const char *file = lib->descs[i]->file;
		size_t f = 0;

		/* The first descriptor of the same file (one literal, mostly). */
		while (f < i && lib->descs[f]->file != file && strncmp(lib->descs[f]->file, file, 4096))
			f++;
		places[i] = (struct place){ .file = f, .line = lib->descs[i]->line, .index = i,
					    .desc = lib->descs[i] };
	}
	qsort(places, lib->ndescs, sizeof(*places), by_place);
	for (size_t i = 0; i < lib->ndescs; i++)
		lib->ordered_ptrs[i] = places[i].desc;
	lib->descs = lib->ordered_ptrs;
	free(places);
	return 0;
}

/* Each descriptor's parameters, from the object's own declarations. */
static int read_params(struct cbench_library *lib, const char *path, char *err, size_t errlen)
{
	lib->params = calloc(lib->ndescs, sizeof(*lib->params));
	if (!lib->params) {
		snprintf(err, errlen, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	for (size_t i = 0; i < lib->ndescs; i++) {
		char why[CBENCH_ERR_LEN];
		int ret = cbench_params_read(lib->descs[i], readable, lib, &lib->params[i], why, sizeof(why));

		if (ret) {
			snprintf(err, errlen, "%s: %s", path, why);
			return ret;
		}
	}
	return 0;
}

/*
 * What every descriptor must pass, whether we read it in the object or
 * copied it from the child that did: valid fields, distinct names, report
 * names benchstat reads.  `code`: the descriptors are the object's own.
 */
static int check_all(struct cbench_library *lib, const char *path, bool code, char *err, size_t errlen)
{
	int ret;

	for (size_t i = 0; i < lib->ndescs; i++) {
		char why[CBENCH_ERR_LEN];

		ret = code ? check_pointers(lib, lib->descs[i], why, sizeof(why)) : 0;
		if (!ret)
			ret = desc_check(lib->descs[i], code, why, sizeof(why));
		if (ret) {
			snprintf(err, errlen, "%s: %s", path, why);
			return ret;
		}
		for (size_t j = 0; j < i; j++) {
			if (!strcmp(lib->descs[i]->name, lib->descs[j]->name)) {
				snprintf(err, errlen, "%s: benchmark %s is registered twice", path,
					 lib->descs[i]->name);
				return -EINVAL;
			}
		}
	}
	ret = code ? upgrade_old(lib) : 0;
	if (!ret && code)
		ret = order_descs(lib);
	if (ret) {
		snprintf(err, errlen, "%s", strerror(-ret));
		return ret;
	}
	ret = code ? read_params(lib, path, err, errlen) : 0;
	for (size_t i = 0; !ret && i < lib->ndescs; i++) {
		char why[CBENCH_ERR_LEN];

		ret = cbench_params_check(lib->descs[i], &lib->params[i], why, sizeof(why));
		if (ret)
			snprintf(err, errlen, "%s: %s", path, why);
	}
	if (!ret)
		ret = expand(lib, err, errlen);
	if (ret)
		return ret;
	{
		char why[CBENCH_ERR_LEN];

		ret = check_report_names(lib, why, sizeof(why));
		if (ret) {
			snprintf(err, errlen, "%s: %s", path, why);
			return ret;
		}
	}
	return 0;
}

/* Parameter sets one message carries. */
#define LOAD_SETS_PER_MSG 256

/* Messages from the loading child, each written whole. */
enum load_msg_type {
	LOAD_MSG_LOADING = 1,	/* the file checked, dlopen() next */
	LOAD_MSG_LOADED,	/* dlopen() returned: constructors have run */
	LOAD_MSG_HEAD,		/* u.head, then ndescs DESC, then DONE */
	LOAD_MSG_DESC,		/* u.desc, then its nkeys KEY, then SETS for its nsets */
	LOAD_MSG_KEY,
	LOAD_MSG_SETS,
	LOAD_MSG_DONE,
	LOAD_MSG_ERROR,		/* error, u.text */
};

struct load_msg {
	uint32_t type;
	int32_t error;
	union {
		struct {
			uint64_t ndescs;
		} head;
		struct {
			uint32_t abi_version, desc_bytes, nparams, flags;
			uint32_t has_param_name;
			uint32_t per_rep;	/* before_rep or after_rep */
			uint64_t arena_bytes, ops_per_rep, bytes_per_rep;
			char name[CBENCH_NAME_MAX];
			char param_name[CBENCH_NAME_MAX];
			int64_t params[CBENCH_PARAMS_MAX];
			uint32_t nkeys, nsets, listed;
		} desc;
		struct {
			char name[CBENCH_NAME_MAX];
			uint32_t strings, count;
			int64_t ints[CBENCH_PARAMS_MAX];
			char strs[CBENCH_PARAMS_MAX][CBENCH_STR_MAX];
		} key;
		struct {
			uint32_t count;
			uint8_t sets[LOAD_SETS_PER_MSG][CBENCH_KEYS_MAX];
		} sets;
		char text[512];
	} u;
};

/* A descriptor as cbenchctl keeps it: its own memory, no code. */
struct cbench_desc_copy {
	struct cbench_desc desc;
	char name[CBENCH_NAME_MAX];
	char param_name[CBENCH_NAME_MAX];
	int64_t params[CBENCH_PARAMS_MAX];
};

/* Most benchmarks one object may register; far above any real suite, it
 * bounds what a loading child can make us allocate. */
#define LOAD_DESCS_MAX 16384

static int send_load_msg(int fd, const struct load_msg *m)
{
	return cbench_proc_write_all(fd, m, sizeof(*m));
}

static void send_stage(int fd, enum load_msg_type type)
{
	struct load_msg m = { .type = type };

	if (fd >= 0)
		send_load_msg(fd, &m);
}

/* cbench_library_load(), telling stage_fd (if >= 0) when dlopen() starts and ends. */
static int load(struct cbench_library *lib, const char *path, int stage_fd, char *err, size_t errlen)
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

	send_stage(stage_fd, LOAD_MSG_LOADING);
	lib->handle = dlopen(lib->path, RTLD_NOW | RTLD_LOCAL);
	send_stage(stage_fd, LOAD_MSG_LOADED);
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
	ret = check_all(lib, path, true, err, errlen);
	if (ret)
		goto fail;
	return 0;
fail:
	cbench_library_close(lib);
	return ret;
}

int cbench_library_load(struct cbench_library *lib, const char *path, char *err, size_t errlen)
{
	return load(lib, path, -1, err, errlen);
}

/* One descriptor's parameters, after its DESC: a KEY per key, then its sets. */
static int send_params(int fd, const struct cbench_params *p)
{
	struct load_msg m;

	for (uint32_t k = 0; k < p->nkeys; k++) {
		const struct cbench_param_key *key = &p->keys[k];

		memset(&m, 0, sizeof(m));
		m.type = LOAD_MSG_KEY;
		memcpy(m.u.key.name, key->name, sizeof(m.u.key.name));
		m.u.key.strings = key->strings;
		m.u.key.count = key->count;
		memcpy(m.u.key.ints, key->ints, sizeof(m.u.key.ints));
		if (key->strings)
			memcpy(m.u.key.strs, key->strs, key->count * sizeof(*key->strs));
		if (send_load_msg(fd, &m))
			return -EPIPE;
	}
	for (uint32_t s = 0; p->nkeys && s < p->nsets; s += LOAD_SETS_PER_MSG) {
		uint32_t n = p->nsets - s < LOAD_SETS_PER_MSG ? p->nsets - s : LOAD_SETS_PER_MSG;

		memset(&m, 0, sizeof(m));
		m.type = LOAD_MSG_SETS;
		m.u.sets.count = n;
		memcpy(m.u.sets.sets, p->sets[s], n * sizeof(*p->sets));
		if (send_load_msg(fd, &m))
			return -EPIPE;
	}
	return 0;
}

/* The loading child: loads path here and sends what it found up fd. */
static void __attribute__((noreturn)) load_child(void *arg, int fd)
{
	const char *path = arg;
	struct cbench_library lib;
	struct load_msg m;
	char err[sizeof(m.u.text)];
	int ret;

	ret = load(&lib, path, fd, err, sizeof(err));
	if (ret) {
		memset(&m, 0, sizeof(m));
		m.type = LOAD_MSG_ERROR;
		m.error = ret;
		snprintf(m.u.text, sizeof(m.u.text), "%s", err);
		send_load_msg(fd, &m);
		_exit(1);
	}
	memset(&m, 0, sizeof(m));
	m.type = LOAD_MSG_HEAD;
	m.u.head.ndescs = lib.ndescs;
	if (send_load_msg(fd, &m))
		_exit(1);
	for (size_t i = 0; i < lib.ndescs; i++) {
		const struct cbench_desc *d = lib.descs[i];

		/* Checked by load(): names fit, nparams is at most CBENCH_PARAMS_MAX. */
		memset(&m, 0, sizeof(m));
		m.type = LOAD_MSG_DESC;
		m.u.desc.abi_version = d->abi_version;
		m.u.desc.desc_bytes = d->desc_bytes;
		m.u.desc.nparams = d->nparams;
		m.u.desc.flags = d->flags;
		m.u.desc.arena_bytes = d->arena_bytes;
		m.u.desc.ops_per_rep = d->ops_per_rep;
		m.u.desc.bytes_per_rep = d->bytes_per_rep;
		m.u.desc.per_rep = cbench_desc_per_rep(d);
		snprintf(m.u.desc.name, sizeof(m.u.desc.name), "%s", d->name);
		if (d->param_name) {
			m.u.desc.has_param_name = 1;
			snprintf(m.u.desc.param_name, sizeof(m.u.desc.param_name), "%s", d->param_name);
		}
		for (uint32_t p = 0; p < d->nparams; p++)
			m.u.desc.params[p] = d->params[p];
		m.u.desc.nkeys = lib.params[i].nkeys;
		m.u.desc.nsets = lib.params[i].nsets;
		m.u.desc.listed = lib.params[i].listed;
		if (send_load_msg(fd, &m) || send_params(fd, &lib.params[i]))
			_exit(1);
	}
	memset(&m, 0, sizeof(m));
	m.type = LOAD_MSG_DONE;
	send_load_msg(fd, &m);
	/* No destructor of the object's runs: _exit(). */
	_exit(0);
}

/* Takes one descriptor from the child into lib's copies, as plain values. */
static int take_desc(struct cbench_library *lib, const struct load_msg *m)
{
	struct cbench_desc_copy *c = &lib->copies[lib->ndescs];
	struct cbench_params *p = &lib->params[lib->ndescs];

	/* Whatever wrote to our pipe may be the object's own code: bound
	 * every string and count before use; desc_check() does the rest. */
	if (memchr(m->u.desc.name, '\0', sizeof(m->u.desc.name)) == NULL ||
	    memchr(m->u.desc.param_name, '\0', sizeof(m->u.desc.param_name)) == NULL ||
	    m->u.desc.nparams > CBENCH_PARAMS_MAX)
		return -EPROTO;
	memcpy(c->name, m->u.desc.name, sizeof(c->name));
	memcpy(c->param_name, m->u.desc.param_name, sizeof(c->param_name));
	memcpy(c->params, m->u.desc.params, sizeof(c->params));
	c->desc = (struct cbench_desc){
		.abi_version = m->u.desc.abi_version,
		.desc_bytes = m->u.desc.desc_bytes,
		.name = c->name,
		.arena_bytes = m->u.desc.arena_bytes,
		.param_name = m->u.desc.has_param_name ? c->param_name : NULL,
		.params = c->params,
		.nparams = m->u.desc.nparams,
		.flags = m->u.desc.flags | (m->u.desc.per_rep ? CBENCH_DESC_F_PER_REP : 0),
		.ops_per_rep = m->u.desc.ops_per_rep,
		.bytes_per_rep = m->u.desc.bytes_per_rep,
	};
	lib->copy_ptrs[lib->ndescs] = &c->desc;
	if (m->u.desc.nkeys > CBENCH_KEYS_MAX || m->u.desc.nsets > CBENCH_SETS_MAX ||
	    (m->u.desc.nkeys && !m->u.desc.nsets))
		return -EPROTO;
	p->nkeys = m->u.desc.nkeys;
	p->nsets = m->u.desc.nsets;
	p->listed = m->u.desc.listed;
	if (p->nkeys) {
		p->sets = calloc(p->nsets, sizeof(*p->sets));
		if (!p->sets)
			return -ENOMEM;
	}
	lib->ndescs++;
	return 0;
}

/* The child's description of a key of the last descriptor taken. */
static int take_key(struct cbench_library *lib, uint32_t k, const struct load_msg *m)
{
	struct cbench_param_key *key = &lib->params[lib->ndescs - 1].keys[k];

	if (m->u.key.count > CBENCH_PARAMS_MAX)
		return -EPROTO;
	memcpy(key->name, m->u.key.name, sizeof(key->name));
	key->name[sizeof(key->name) - 1] = '\0';
	key->strings = m->u.key.strings;
	key->count = m->u.key.count;
	memcpy(key->ints, m->u.key.ints, sizeof(key->ints));
	if (key->strings) {
		key->strs = calloc(CBENCH_PARAMS_MAX, sizeof(*key->strs));
		if (!key->strs)
			return -ENOMEM;
		memcpy(key->strs, m->u.key.strs, sizeof(m->u.key.strs));
		/* cbench_params_check() refuses a value that fills its buffer. */
	}
	return 0;
}

/* Sets from `done` on of the last descriptor taken; returns how many. */
static int take_sets(struct cbench_library *lib, uint32_t done, const struct load_msg *m)
{
	struct cbench_params *p = &lib->params[lib->ndescs - 1];

	if (!m->u.sets.count || m->u.sets.count > LOAD_SETS_PER_MSG || m->u.sets.count > p->nsets - done)
		return -EPROTO;
	memcpy(p->sets[done], m->u.sets.sets, m->u.sets.count * sizeof(*p->sets));
	return (int)m->u.sets.count;
}

/*
 * Reads one whole message by the deadline: 1, 0 at end of file or once the
 * child has exited with nothing left in the pipe, or -errno.  We watch the
 * child through child_fd (a pidfd; -1 where the kernel has none) because
 * the end of file never comes while something it forked holds the pipe.
 */
static int read_load_msg(int fd, int child_fd, struct load_msg *m, double deadline)
{
	size_t have = 0;

	while (have < sizeof(*m)) {
		struct pollfd pfd[2] = { { .fd = fd, .events = POLLIN }, { .fd = child_fd, .events = POLLIN } };
		double left = deadline - cbench_now_s();
		ssize_t got;
		int ready;

		if (left <= 0)
			return -ETIMEDOUT;
		ready = poll(pfd, child_fd >= 0 ? 2 : 1, (int)ceil(left * 1000));
		if (ready < 0 && errno != EINTR)
			return -errno;
		if (ready <= 0)
			continue;
		/* What it wrote before exiting is readable first. */
		if (!(pfd[0].revents & (POLLIN | POLLHUP)))
			return have ? -EPROTO : 0;
		got = read(fd, (char *)m + have, sizeof(*m) - have);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return -errno;
		if (got == 0)
			return have ? -EPROTO : 0;
		have += (size_t)got;
	}
	return 1;
}

/*
 * Reads the child's messages into lib until DONE.  Returns 0, -errno with a
 * sentence in err, or -ECHILD if the child ended early (*stage: the last
 * stage it reported).
 */
static int receive(struct cbench_library *lib, int fd, int child_fd, const char *path, double time_limit_s,
		   double deadline, enum load_msg_type *stage, char *err, size_t errlen)
{
	struct load_msg m;
	size_t want = 0;
	uint32_t keys = 0, sets = 0;	/* of the last descriptor, still to come */
	int ret;

	for (;;) {
		ret = read_load_msg(fd, child_fd, &m, deadline);
		if (ret == -ETIMEDOUT) {
			snprintf(err, errlen, "%s did not finish loading within %g s "
				 "(does a constructor never return?)", path, time_limit_s);
			return ret;
		}
		if (ret == 0)
			return -ECHILD;
		if (ret < 0)
			goto bad;
		switch (m.type) {
		case LOAD_MSG_LOADING:
		case LOAD_MSG_LOADED:
			*stage = m.type;
			break;
		case LOAD_MSG_ERROR:
			m.u.text[sizeof(m.u.text) - 1] = '\0';
			snprintf(err, errlen, "%s", m.u.text);
			return m.error < 0 ? m.error : -ENOEXEC;
		case LOAD_MSG_HEAD:
			if (lib->copies || !m.u.head.ndescs || m.u.head.ndescs > LOAD_DESCS_MAX)
				goto bad;
			want = m.u.head.ndescs;
			lib->copies = calloc(want, sizeof(*lib->copies));
			lib->copy_ptrs = calloc(want, sizeof(*lib->copy_ptrs));
			lib->params = calloc(want, sizeof(*lib->params));
			if (!lib->copies || !lib->copy_ptrs || !lib->params) {
				snprintf(err, errlen, "%s", strerror(ENOMEM));
				return -ENOMEM;
			}
			lib->descs = lib->copy_ptrs;
			break;
		case LOAD_MSG_DESC:
			if (keys || sets || lib->ndescs >= want || take_desc(lib, &m))
				goto bad;
			keys = lib->params[lib->ndescs - 1].nkeys;
			sets = keys ? lib->params[lib->ndescs - 1].nsets : 0;
			break;
		case LOAD_MSG_KEY:
			if (!keys || take_key(lib, lib->params[lib->ndescs - 1].nkeys - keys, &m))
				goto bad;
			keys--;
			break;
		case LOAD_MSG_SETS:
			if (keys || !sets)
				goto bad;
			ret = take_sets(lib, lib->params[lib->ndescs - 1].nsets - sets, &m);
			if (ret < 0)
				goto bad;
			sets -= (uint32_t)ret;
			break;
		case LOAD_MSG_DONE:
			if (!want || lib->ndescs != want || keys || sets)
				goto bad;
			return 0;
		default:
			goto bad;
		}
	}
bad:
	snprintf(err, errlen, "%s: the child loading it sent a malformed message "
		 "(does the object write to file descriptor %d?)", path, CBENCH_PROC_PIPE_FD);
	return -EPROTO;
}

/* Why the loading child ended before it was done. */
static void describe_end(int status, enum load_msg_type stage, const char *path, char *err, size_t errlen)
{
	char sig[16];

	if (WIFSIGNALED(status) && stage == LOAD_MSG_LOADING)
		snprintf(err, errlen, "%s: the object's constructor crashed (%s)", path,
			 cbench_proc_signame(WTERMSIG(status), sig, sizeof(sig)));
	else if (WIFSIGNALED(status))
		snprintf(err, errlen, "%s: loading it crashed (%s)", path,
			 cbench_proc_signame(WTERMSIG(status), sig, sizeof(sig)));
	else if (stage == LOAD_MSG_LOADING)
		snprintf(err, errlen, "%s exited with status %d while loading (does a constructor call exit()?)",
			 path, WEXITSTATUS(status));
	else
		snprintf(err, errlen, "%s: the child loading it exited with status %d", path,
			 WEXITSTATUS(status));
}

/* The object's real path, and its structure checked before anything maps it. */
static int identify(struct cbench_library *lib, const char *path, char *err, size_t errlen)
{
	char resolved[4096];
	struct elf_facts facts;
	int ret;

	if (!realpath(path, resolved)) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return ret;
	}
	snprintf(lib->path, sizeof(lib->path), "%s", resolved);
	ret = read_elf(lib->path, &facts, err, errlen);
	if (!ret)
		snprintf(lib->build_id, sizeof(lib->build_id), "%s", facts.build_id);
	return ret;
}

/* Forks the child that loads path; its pid, the pipe's read end in *fd. */
static pid_t start_child(const char *path, int *fd, char *err, size_t errlen)
{
	pid_t pid = cbench_proc_start(load_child, (void *)path, fd);

	if (pid < 0)
		snprintf(err, errlen, "cannot start a child to load %s: %s", path, strerror((int)-pid));
	return pid;
}

/*
 * Our child _exit()s right after DONE, but a constructor that wrote DONE
 * itself (the pipe is fd 3 in the child) may still be running: the time
 * limit holds until the child has exited.
 */
static int wait_exit(int child_fd, const char *path, double time_limit_s, double deadline, char *err,
		     size_t errlen)
{
	struct pollfd pfd = { .fd = child_fd, .events = POLLIN };
	double left_s;
	int ready = 0;

	while ((left_s = deadline - cbench_now_s()) > 0 &&
	       (ready = poll(&pfd, 1, (int)ceil(left_s * 1000))) < 0 && errno == EINTR)
		;
	if (ready > 0)
		return 0;
	snprintf(err, errlen, "%s did not finish loading within %g s (does a constructor never return?)",
		 path, time_limit_s);
	return -ETIMEDOUT;
}

int cbench_library_open(struct cbench_library *lib, const char *path, double time_limit_s,
			char *err, size_t errlen)
{
	enum load_msg_type stage = 0;
	double deadline = cbench_now_s() + time_limit_s;
	struct cbench_proc_end end;
	int fd = -1, ret, child_fd;
	pid_t pid;

	memset(lib, 0, sizeof(*lib));
	ret = identify(lib, path, err, errlen);
	if (ret)
		return ret;
	pid = start_child(path, &fd, err, errlen);
	if (pid < 0)
		return pid;
	child_fd = pidfd_open(pid, 0);
	ret = receive(lib, fd, child_fd, path, time_limit_s, deadline, &stage, err, errlen);
	close(fd);
	if (!ret && child_fd >= 0)
		ret = wait_exit(child_fd, path, time_limit_s, deadline, err, errlen);
	if (child_fd >= 0)
		close(child_fd);
	if (ret)
		cbench_proc_kill_group(pid);
	cbench_proc_end_group(pid, &end);
	if (ret == -ECHILD && end.keeper_lost)
		snprintf(err, errlen, "%s killed the process that supervises its load while loading "
			 "(does a constructor signal its parent?)", path);
	else if (ret == -ECHILD)
		describe_end(end.status, stage, path, err, errlen);
	if (!ret && end.left) {
		snprintf(err, errlen, "%s left processes behind while loading (%d, killed): "
			 "does a constructor fork?", path, end.left);
		ret = -ECHILD;
	}
	if (!ret)
		ret = check_all(lib, path, false, err, errlen);
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
		snprintf(err, errlen, "%s changed since cbenchctl loaded it (build id %s, then %s)",
			 live->path, live->build_id, want->lib->build_id);
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

bool cbench_go_valid_name(const char *name)
{
	if (strncmp(name, "Benchmark", 9))
		return false;
	if (name[9] && !isupper((unsigned char)name[9]))
		return false;
	for (const char *p = name; *p; p++) {
		if (isspace((unsigned char)*p))
			return false;
	}
	return true;
}
