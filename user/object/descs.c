// SPDX-License-Identifier: GPL-2.0
/*
 * The checks of a benchmark object's descriptors: each one's fields, the
 * pointers it holds (into the object, code into executable segments),
 * ABI 1 and 2 descriptors upgraded, the descriptors put in registration
 * order, and their parameters read and checked.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "object/loader_parts.h"

/*
 * Most operations or bytes one rep may claim (ops_per_rep, bytes_per_rep, and
 * bytes_per_rep times the parameter under CBENCH_F_BYTES_PER_PARAM): 2^40.
 * A rep doing that much work runs for minutes at any rate a CPU reaches, so
 * a larger count is a mistake, and it would turn any measured time into
 * per-op figures below what a report prints (UINT64_MAX gave
 * 0.000000000000 ns/op).
 */
#define CBENCH_DESC_COUNT_MAX (1ULL << 40)

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

/* Whether [p, p + bytes) lies in one loaded segment (an executable one if asked). */
bool cbench_library_in_object(const struct cbench_library *lib, const void *p, size_t bytes, bool exec)
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
		if (!cbench_library_in_object(lib, s + i, 1, false))
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
	if (!cbench_library_in_object(lib, d, 2 * sizeof(uint32_t), false)) {
		snprintf(why, len, "a descriptor pointer points outside the object");
		return -EINVAL;
	}
	if (!d->abi_version || d->abi_version > CBENCH_ABI_VERSION ||
	    d->desc_bytes != cbench_desc_bytes(d->abi_version))
		return 0;	/* cbench_desc_check() explains */
	if (!cbench_library_in_object(lib, d, d->desc_bytes, false) || !string_in_object(lib, d->name, CBENCH_NAME_MAX)) {
		snprintf(why, len, "a descriptor or its name lies outside the object");
		return -EINVAL;
	}
	if ((d->run && !cbench_library_in_object(lib, (const void *)d->run, 1, true)) ||
	    (d->setup && !cbench_library_in_object(lib, (const void *)d->setup, 1, true))) {
		snprintf(why, len, "a descriptor's run or setup function is not code in the object");
		return -EINVAL;
	}
	/* Only ABI 2 descriptors are long enough to hold hooks. */
	if (d->abi_version >= 2 &&
	    ((d->before_rep && !cbench_library_in_object(lib, (const void *)d->before_rep, 1, true)) ||
	     (d->after_rep && !cbench_library_in_object(lib, (const void *)d->after_rep, 1, true)))) {
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

	return !lib->nsegments || cbench_library_in_object(lib, p, bytes, false);
}

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
		int ret = cbench_library_wanted(lib, lib->descs[i]) ?
			  cbench_params_read(lib->descs[i], readable, lib, &lib->params[i], why, sizeof(why)) : 0;

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
int cbench_library_check(struct cbench_library *lib, const char *path, bool code, char *err, size_t errlen)
{
	int ret;

	for (size_t i = 0; i < lib->ndescs; i++) {
		char why[CBENCH_ERR_LEN];

		if (!cbench_library_wanted(lib, lib->descs[i]))
			continue;
		ret = code ? check_pointers(lib, lib->descs[i], why, sizeof(why)) : 0;
		if (!ret)
			ret = desc_check(lib->descs[i], code, why, sizeof(why));
		if (ret) {
			snprintf(err, errlen, "%s: %s", path, why);
			return ret;
		}
		for (size_t j = 0; j < i && !lib->only[0]; j++) {
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

		if (!cbench_library_wanted(lib, lib->descs[i]))
			continue;
		ret = cbench_params_check(lib->descs[i], &lib->params[i], why, sizeof(why));
		if (ret)
			snprintf(err, errlen, "%s: %s", path, why);
	}
	if (!ret)
		ret = cbench_library_expand(lib, err, errlen);
	if (ret || lib->only[0])
		return ret;
	{
		char why[CBENCH_ERR_LEN];

		ret = cbench_library_check_names(lib, why, sizeof(why));
		if (ret) {
			snprintf(err, errlen, "%s: %s", path, why);
			return ret;
		}
	}
	return 0;
}
