// SPDX-License-Identifier: GPL-2.0
/*
 * kimage: the benchmarks' descriptors read from the relocated image, as
 * cbench.ko will see them: every pointer into the image, every function an
 * entry point in its text, the per-rep hooks and parameter values.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cbench.h>

#include "object/kimage_parts.h"
#include "object/loader.h"
#include "../../kmod/lib/abi.h"
#include "../../kmod/lib/reloc.h"

static bool relocated(const struct cbench_kimage *image, uint64_t slot)
{
	return bsearch(&slot, image->relocs, image->nrelocs, sizeof(slot), cbench_kimage_compare_u64);
}

static uint64_t load64(const struct cbench_kimage *image, uint64_t offset)
{
	uint64_t v;

	memcpy(&v, image->bytes + offset, sizeof(v));
	return v;
}

/*
 * A pointer field of a descriptor: a RELATIVE slot (so it follows the image)
 * or NULL.  Returns 0 and the target's image offset, 1 for NULL, or an error.
 */
static int pointer(struct cbench_kimage_loader *ld, uint64_t slot, const char *bench, const char *field,
		   uint64_t *target)
{
	const struct cbench_kimage *image = ld->image;

	if (slot > image->image_bytes - 8)
		return cbench_kimage_refuse(ld, "benchmark %s: descriptor is outside the image", bench);
	if (!relocated(image, slot)) {
		if (!load64(image, slot))
			return 1;
		return cbench_kimage_refuse(ld, "benchmark %s: %s is an absolute address: compile with -fPIC",
			      bench, field);
	}
	*target = load64(image, slot);
	return 0;
}

static int entry(struct cbench_kimage_loader *ld, uint64_t slot, const char *bench, const char *field,
		 uint64_t *offset)
{
	const struct cbench_kimage *image = ld->image;
	enum cbench_check check;
	int ret = pointer(ld, slot, bench, field, offset);

	if (ret)
		return ret;
	check = cbench_entry_check(image->bytes, image->image_bytes, image->text, image->ntext,
				   *offset);
	if (check == CBENCH_CHECK_ENTRY_ENDBR)
		return cbench_kimage_refuse(ld, "benchmark %s: %s() at 0x%llx does not start with endbr64, which "
			      "IBT kernels demand of every indirect-call target: compile with "
			      "-fcf-protection=branch (%s)", bench, field,
			      (unsigned long long)(*offset + ld->base), CBENCH_KIMAGE_FIX);
	if (check != CBENCH_CHECK_OK)
		return cbench_kimage_refuse(ld, "benchmark %s: %s() at 0x%llx: %s", bench, field,
			      (unsigned long long)(*offset + ld->base), cbench_check_str(check));
	return 0;
}

/* The per-rep hooks of the ABI 2 descriptor at `at`, each optional. */
static int hooks(struct cbench_kimage_loader *ld, uint64_t at, struct cbench_kimage_entry *e)
{
	int ret;

	ret = entry(ld, at + offsetof(struct cbench_desc, before_rep), e->name, "before_rep",
		    &e->before_rep);
	if (ret < 0)
		return ret;
	e->has_before_rep = ret == 0;
	ret = entry(ld, at + offsetof(struct cbench_desc, after_rep), e->name, "after_rep",
		    &e->after_rep);
	if (ret < 0)
		return ret;
	e->has_after_rep = ret == 0;
	return 0;
}

/* The parameter values of the descriptor at `at`, as many as we keep. */
static int params_of(struct cbench_kimage_loader *ld, uint64_t at, const struct cbench_desc *desc,
		     struct cbench_kimage_entry *e)
{
	const struct cbench_kimage *image = ld->image;
	uint32_t kept = desc->nparams < CBENCH_KIMAGE_PARAMS ? desc->nparams : CBENCH_KIMAGE_PARAMS;
	uint64_t params;
	int ret;

	e->nparams = desc->nparams;
	if (!desc->nparams)
		return 0;
	ret = pointer(ld, at + offsetof(struct cbench_desc, params), e->name, "params", &params);
	if (ret)
		return ret < 0 ? ret : cbench_kimage_refuse(ld, "benchmark %s: nparams without params", e->name);
	if (params > image->image_bytes || kept * sizeof(int64_t) > image->image_bytes - params)
		return cbench_kimage_refuse(ld, "benchmark %s: params outside the image", e->name);
	memcpy(e->params, image->bytes + params, kept * sizeof(int64_t));
	return 0;
}

/* The descriptor at image offset `at` (`label` names it) into e. */
static int read_descriptor(struct cbench_kimage_loader *ld, uint64_t at, const char *label,
			   struct cbench_kimage_entry *e)
{
	const struct cbench_kimage *image = ld->image;
	struct cbench_desc desc;
	uint64_t name;
	int ret;

	if (at > image->image_bytes || CBENCH_DESC_V1_BYTES > image->image_bytes - at)
		return cbench_kimage_refuse(ld, "benchmark %s: descriptor is outside the image", label);
	/* An ABI 1 descriptor ends before the hooks: read only its own bytes. */
	memset(&desc, 0, sizeof(desc));
	memcpy(&desc, image->bytes + at, CBENCH_DESC_V1_BYTES);
	if (!cbench_desc_bytes(desc.abi_version) ||
	    desc.desc_bytes != cbench_desc_bytes(desc.abi_version))
		return cbench_kimage_refuse(ld, "benchmark %s: built for cbench ABI %u (%u-byte descriptor); "
			      "this cbenchctl knows ABI 1 to %u", label, desc.abi_version,
			      desc.desc_bytes, CBENCH_ABI_VERSION);
	if (desc.desc_bytes > image->image_bytes - at)
		return cbench_kimage_refuse(ld, "benchmark %s: descriptor is outside the image", label);
	ret = pointer(ld, at + offsetof(struct cbench_desc, name), label, "name", &name);
	if (ret)
		return ret < 0 ? ret : cbench_kimage_refuse(ld, "benchmark %s has no name", label);
	if (name >= image->image_bytes ||
	    !memchr(image->bytes + name, 0, image->image_bytes - name) ||
	    strlen((const char *)image->bytes + name) >= sizeof(e->name))
		return cbench_kimage_refuse(ld, "benchmark %s: name is not a string inside the image", label);
	strcpy(e->name, (const char *)image->bytes + name);
	e->flags = desc.flags;
	e->desc_at = at;
	e->desc_bytes = desc.desc_bytes;

	ret = entry(ld, at + offsetof(struct cbench_desc, run), e->name, "run", &e->run);
	if (ret)
		return ret < 0 ? ret : cbench_kimage_refuse(ld, "benchmark %s has no run()", e->name);
	ret = entry(ld, at + offsetof(struct cbench_desc, setup), e->name, "setup", &e->setup);
	if (ret < 0)
		return ret;
	e->has_setup = ret == 0;
	if (desc.abi_version >= 2) {
		ret = hooks(ld, at, e);
		if (ret)
			return ret;
	}
	e->arena_bytes = desc.arena_bytes;
	return params_of(ld, at, &desc, e);
}

int cbench_kimage_read_descriptors(struct cbench_kimage_loader *ld)
{
	struct cbench_kimage *image = ld->image;
	uint64_t first, n;

	if (!ld->have_descs || !ld->descs_bytes)
		return cbench_kimage_refuse(ld, "registers no benchmarks (no %s section): use CBENCH()",
			      CBENCH_SECTION);
	first = ld->descs_vaddr - ld->base;
	n = ld->descs_bytes / sizeof(uint64_t);
	if (ld->descs_vaddr < ld->base || ld->descs_bytes % sizeof(uint64_t) ||
	    first % sizeof(uint64_t) || first > image->image_bytes ||
	    ld->descs_bytes > image->image_bytes - first)
		return cbench_kimage_refuse(ld, "malformed %s section", CBENCH_SECTION);
	image->entries = calloc(n, sizeof(*image->entries));
	if (!image->entries)
		return -ENOMEM;
	image->descs_offset = first;
	image->descs_bytes = ld->descs_bytes;

	for (uint64_t i = 0; i < n; i++) {
		uint64_t at;
		char label[32];
		int ret;

		snprintf(label, sizeof(label), "#%llu", (unsigned long long)i);
		ret = pointer(ld, first + i * sizeof(uint64_t), label, "descriptor", &at);
		if (ret == 1)
			continue;
		if (!ret)
			ret = read_descriptor(ld, at, label, &image->entries[image->nentries]);
		if (ret)
			return ret;
		image->nentries++;
	}
	if (!image->nentries)
		return cbench_kimage_refuse(ld, "registers no benchmarks: use CBENCH()");
	return 0;
}

