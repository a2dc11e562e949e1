// SPDX-License-Identifier: GPL-2.0
/*
 * Code layouts in ring 0 (kimage_layout.h): a kernel image laid out anew
 * at a drawn layout, and the check that it is the image as built, moved.
 *
 * Why we check the laid-out image instead of rehearsing it.  The user-mode
 * rehearsal (backend/rehearse.c) runs the object as the worker loaded it,
 * never the image's bytes at the image's address: ring 0 has always run
 * the code at an address the rehearsal never had.  What the rehearsal
 * vouches for is the code, its calls, arena and reps.  A laid-out image
 * holds that code instruction for instruction, only at other offsets, with
 * every displacement and pointer reaching what it reached before, where
 * that went; cbench_kimage_layout_check() proves so byte by byte before
 * every upload, in microseconds.  So a laid-out image is rehearsed exactly
 * as much as the image as uploaded is, and rehearsing each of them again
 * would double an audit's cost (a rehearsal makes every call a run makes)
 * for nothing a rehearsal could see.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "object/kimage_layout.h"
#include "object/x86insn.h"
#include "../../kmod/lib/reloc.h"

#define PAGE_BYTES CBENCH_IMAGE_PAGE_BYTES
/* What the region's gaps hold: int3, as in user mode's regions. */
#define GAP_BYTE 0xcc

static uint64_t round_up(uint64_t v)
{
	return (v + PAGE_BYTES - 1) / PAGE_BYTES * PAGE_BYTES;
}

/* Whether [offset, offset + bytes) lies in one text range of image. */
static bool in_text(const struct cbench_kimage *image, uint64_t offset, uint64_t bytes)
{
	for (uint32_t i = 0; i < image->ntext; i++) {
		const struct cbench_range *t = &image->text[i];

		if (offset >= t->start && offset - t->start <= t->bytes && bytes <= t->bytes - (offset - t->start))
			return true;
	}
	return false;
}

/* Whether every unit (and every PLT entry a stub copies) lies in image's
 * text; why in kl's layout if not. */
static bool units_in_text(struct cbench_kimage_layout *kl, const struct cbench_kimage *image)
{
	const struct cbench_layout *lay = &kl->lay;

	for (uint32_t i = 0; i < lay->nunits; i++) {
		const struct cbench_layout_unit *u = &lay->units[i];

		if (u->addr < image->base || !in_text(image, u->addr - image->base, u->bytes)) {
			snprintf(kl->lay.why, sizeof(kl->lay.why), "its code %s is not in the image's text",
				 u->name);
			return false;
		}
	}
	for (uint32_t i = 0; i < lay->nstubs; i++) {
		const struct cbench_layout_stub *st = &lay->stubs[i];

		if (st->plt && (st->plt < image->base || !in_text(image, st->plt - image->base, st->bytes))) {
			snprintf(kl->lay.why, sizeof(kl->lay.why), "its PLT is not in the image's text");
			return false;
		}
	}
	return true;
}

/*
 * In ring 0 no stub is needed: a call through the PLT jumps through the
 * GOT, and a GOT load reads it, and the GOT's slots are RELATIVE slots we
 * lead to the moved functions ourselves.  So what reached a stub reaches
 * the PLT entry or the GOT slot it reached as built.  Stubs take no draws
 * (layout.c), so the units' offsets are those user mode would draw.
 */
static void drop_stubs(struct cbench_layout *lay)
{
	for (uint32_t i = 0; i < lay->nfixups; i++)
		lay->fixups[i].stub = CBENCH_LAYOUT_STAYS;
	free(lay->stubs);
	lay->stubs = NULL;
	lay->nstubs = 0;
}

int cbench_kimage_layout_init(struct cbench_kimage_layout *kl, const char *path,
			      const struct cbench_kimage *image, char *why, size_t why_bytes)
{
	uint64_t low;
	int ret;

	memset(kl, 0, sizeof(*kl));
	kl->base = image->base;
	kl->region = image->image_bytes;
	ret = cbench_layout_scan(path, &kl->lay, why, why_bytes);
	if (ret || kl->lay.mode == CBENCH_LAYOUT_NONE)
		return ret;
	if (!units_in_text(kl, image)) {
		snprintf(why, why_bytes, "%s: %s", path, kl->lay.why);
		cbench_layout_free(&kl->lay);
		return -ENOEXEC;
	}
	low = cbench_layout_lowest(&kl->lay);
	if (cbench_layout_hash(&kl->lay, image->bytes + (low - image->base), low) != kl->lay.code_hash) {
		snprintf(why, why_bytes, "the code of %s changed on disk since its image was built", path);
		cbench_layout_free(&kl->lay);
		return -ESTALE;
	}
	drop_stubs(&kl->lay);
	kl->offsets = calloc(kl->lay.nunits + 1, sizeof(*kl->offsets));
	if (!kl->offsets) {
		cbench_layout_free(&kl->lay);
		return -ENOMEM;
	}
	return 0;
}

uint64_t cbench_kimage_layout_moved(const struct cbench_kimage_layout *kl, uint64_t offset)
{
	uint64_t to = cbench_layout_where(&kl->lay, kl->offsets, kl->region, offset + kl->base);

	return to ? to : offset;
}

uint64_t cbench_kimage_layout_origin(const struct cbench_kimage_layout *kl, uint64_t offset)
{
	for (uint32_t i = 0; offset >= kl->region && i < kl->lay.nunits; i++) {
		const struct cbench_layout_unit *u = &kl->lay.units[i];
		uint64_t in = offset - kl->region - kl->offsets[i];

		if (offset - kl->region >= kl->offsets[i] && in < u->bytes)
			return u->addr - kl->base + in;
	}
	return offset;
}

/* The image's text, and the region's pages after it. */
static int lay_text(const struct cbench_kimage *image, uint64_t region, uint64_t region_bytes,
		    struct cbench_kimage *out)
{
	memcpy(out->text, image->text, sizeof(out->text));
	out->ntext = image->ntext;
	if (out->ntext && out->text[out->ntext - 1].start + out->text[out->ntext - 1].bytes == region) {
		out->text[out->ntext - 1].bytes += region_bytes;
		return 0;
	}
	if (out->ntext == CBENCH_TEXT_MAX)
		return -E2BIG;
	out->text[out->ntext++] = (struct cbench_range){ .start = region, .bytes = region_bytes };
	return 0;
}

static uint64_t load64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* The slots, each led to where its target went; the entry points too. */
static int lay_pointers(const struct cbench_kimage_layout *kl, const struct cbench_kimage *image,
			struct cbench_kimage *out)
{
	out->relocs = malloc((image->nrelocs + 1) * sizeof(*out->relocs));
	out->entries = malloc((image->nentries + 1) * sizeof(*out->entries));
	if (!out->relocs || !out->entries)
		return -ENOMEM;
	memcpy(out->relocs, image->relocs, image->nrelocs * sizeof(*out->relocs));
	out->nrelocs = image->nrelocs;
	for (uint32_t i = 0; i < out->nrelocs; i++) {
		uint64_t to = cbench_kimage_layout_moved(kl, load64(image->bytes + out->relocs[i]));

		memcpy(out->bytes + out->relocs[i], &to, sizeof(to));
	}
	memcpy(out->entries, image->entries, image->nentries * sizeof(*out->entries));
	out->nentries = image->nentries;
	for (uint32_t i = 0; i < out->nentries; i++) {
		struct cbench_kimage_entry *e = &out->entries[i];

		e->run = cbench_kimage_layout_moved(kl, e->run);
		e->setup = e->has_setup ? cbench_kimage_layout_moved(kl, e->setup) : e->setup;
		e->before_rep = e->has_before_rep ? cbench_kimage_layout_moved(kl, e->before_rep) : e->before_rep;
		e->after_rep = e->has_after_rep ? cbench_kimage_layout_moved(kl, e->after_rep) : e->after_rep;
	}
	return 0;
}

/* The functions, where they run now (cbench_kimage_check_code() walks them). */
static int lay_funcs(const struct cbench_kimage_layout *kl, const struct cbench_kimage *image,
		     struct cbench_kimage *out)
{
	out->funcs = calloc(image->nfuncs + 1, sizeof(*out->funcs));
	if (!out->funcs)
		return -ENOMEM;
	for (uint32_t i = 0; i < image->nfuncs; i++) {
		out->funcs[i] = image->funcs[i];
		out->funcs[i].offset = cbench_kimage_layout_moved(kl, image->funcs[i].offset);
		out->funcs[i].name = strdup(image->funcs[i].name);
		if (!out->funcs[i].name)
			return -ENOMEM;
		out->nfuncs++;
	}
	return 0;
}

/* image laid out at kl's offsets, which span bytes of the region, into out. */
static int lay_out(const struct cbench_kimage_layout *kl, const struct cbench_kimage *image, uint64_t bytes,
		   struct cbench_kimage *out, char *why, size_t why_bytes)
{
	uint64_t region_bytes = round_up(bytes ? bytes : 1), low = cbench_layout_lowest(&kl->lay);
	int ret;

	if (region_bytes > CBENCH_KIMAGE_MAX_BYTES - image->image_bytes) {
		snprintf(why, why_bytes, "its image laid out (%" PRIu64 " bytes) is larger than cbench "
			 "builds (%u): measure it with --fixed-layout", image->image_bytes + region_bytes,
			 CBENCH_KIMAGE_MAX_BYTES);
		return -E2BIG;
	}
	out->base = image->base;
	out->image_bytes = image->image_bytes + region_bytes;
	out->bytes = malloc(out->image_bytes);
	if (!out->bytes)
		return -ENOMEM;
	memcpy(out->bytes, image->bytes, image->image_bytes);
	/* Addresses in the image's offsets: an object address is offset +
	 * base, so what stays is reached at its address less base. */
	ret = cbench_layout_apply(&kl->lay, kl->offsets, image->bytes + (low - image->base), low,
				  0 - image->base, out->bytes + kl->region, region_bytes, kl->region, why,
				  why_bytes);
	if (!ret && lay_text(image, kl->region, region_bytes, out)) {
		snprintf(why, why_bytes, "its image has %d text ranges already: measure it with "
			 "--fixed-layout", CBENCH_TEXT_MAX);
		ret = -E2BIG;
	}
	ret = ret ? ret : lay_pointers(kl, image, out);
	return ret ? ret : lay_funcs(kl, image, out);
}

int cbench_kimage_layout_next(struct cbench_kimage_layout *kl, const struct cbench_kimage *image,
			      cbench_layout_draw_fn draw, void *arg, struct cbench_kimage *out, char *why,
			      size_t why_bytes)
{
	uint64_t bytes;
	int ret;

	memset(out, 0, sizeof(*out));
	if (why_bytes)
		why[0] = '\0';
	if (kl->lay.mode == CBENCH_LAYOUT_NONE || image->base != kl->base || image->image_bytes != kl->region)
		return -EINVAL;
	ret = cbench_layout_draw(&kl->lay, draw, arg, kl->offsets, &bytes);
	ret = ret ? ret : lay_out(kl, image, bytes, out, why, why_bytes);
	ret = ret ? ret : cbench_kimage_layout_check(kl, image, out, why, why_bytes);
	if (ret) {
		if (why_bytes && !why[0])
			snprintf(why, why_bytes, "unable to lay its image out: %s", strerror(-ret));
		cbench_kimage_free(out);
		return ret;
	}
	kl->count++;
	return 0;
}

/* ---- the check ------------------------------------------------------------ */

/* Refuses out: the sentence into why; -EINVAL. */
__attribute__((format(printf, 3, 4)))
static int differs(char *why, size_t why_bytes, const char *fmt, ...)
{
	int n = snprintf(why, why_bytes, "the laid-out image is not the image as built, moved: ");
	va_list ap;

	if (n >= 0 && (size_t)n < why_bytes) {
		va_start(ap, fmt);
		vsnprintf(why + n, why_bytes - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* Whether an entry point (if it has one) is one cbench.ko will call. */
static bool entry_ok(const struct cbench_kimage *out, uint64_t offset, bool has)
{
	return !has || cbench_entry_check(out->bytes, out->image_bytes, out->text, out->ntext, offset) ==
		       CBENCH_CHECK_OK;
}

/* Its shape: base, size, text ranges, slots and entries as image's, moved. */
static int check_shape(const struct cbench_kimage_layout *kl, const struct cbench_kimage *image,
		       const struct cbench_kimage *out, char *why, size_t why_bytes)
{
	struct cbench_kimage want = { .ntext = 0 };

	if (out->base != image->base || out->image_bytes <= kl->region || kl->region != image->image_bytes ||
	    out->image_bytes % PAGE_BYTES)
		return differs(why, why_bytes, "its size or base differs");
	if (lay_text(image, kl->region, out->image_bytes - kl->region, &want) || want.ntext != out->ntext ||
	    memcmp(want.text, out->text, out->ntext * sizeof(out->text[0])))
		return differs(why, why_bytes, "its text is not the image's and the region's");
	if (out->nrelocs != image->nrelocs ||
	    memcmp(out->relocs, image->relocs, image->nrelocs * sizeof(*out->relocs)))
		return differs(why, why_bytes, "its relocation slots are not the image's");
	if (out->nentries != image->nentries)
		return differs(why, why_bytes, "its benchmarks are not the image's");
	for (uint32_t i = 0; i < out->nentries; i++) {
		const struct cbench_kimage_entry *a = &image->entries[i], *b = &out->entries[i];

		if (b->run != cbench_kimage_layout_moved(kl, a->run) ||
		    (a->has_setup && b->setup != cbench_kimage_layout_moved(kl, a->setup)) ||
		    (a->has_before_rep && b->before_rep != cbench_kimage_layout_moved(kl, a->before_rep)) ||
		    (a->has_after_rep && b->after_rep != cbench_kimage_layout_moved(kl, a->after_rep)))
			return differs(why, why_bytes, "an entry point of %s is not where its code went", a->name);
		if (!entry_ok(out, b->run, true) || !entry_ok(out, b->setup, b->has_setup) ||
		    !entry_ok(out, b->before_rep, b->has_before_rep) || !entry_ok(out, b->after_rep, b->has_after_rep))
			return differs(why, why_bytes, "%s's moved entry point is no endbr64 in text", b->name);
	}
	return 0;
}

/* The image's own bytes: unchanged, but for slots led to the moved code. */
static int check_image_bytes(const struct cbench_kimage_layout *kl, const struct cbench_kimage *image,
			     const struct cbench_kimage *out, char *why, size_t why_bytes)
{
	uint64_t at = 0;

	for (uint32_t i = 0; i <= image->nrelocs; i++) {
		uint64_t slot = i < image->nrelocs ? image->relocs[i] : image->image_bytes;

		if (slot < at || slot > image->image_bytes || memcmp(out->bytes + at, image->bytes + at, slot - at))
			return differs(why, why_bytes, "a byte of the image as built changed before 0x%" PRIx64,
				       slot + image->base);
		if (i == image->nrelocs)
			break;
		if (load64(out->bytes + slot) != cbench_kimage_layout_moved(kl, load64(image->bytes + slot)))
			return differs(why, why_bytes, "the pointer at 0x%" PRIx64 " does not reach where its "
				       "target went", slot + image->base);
		at = slot + 8;
	}
	return 0;
}

/* The target of the field of bytes bytes at image offset at of code,
 * counted from the instruction's end at end. */
static uint64_t field_target(const uint8_t *code, uint64_t at, uint64_t end, uint8_t bytes)
{
	const uint8_t *p = code + at;
	int64_t v = bytes == 1 ? (int8_t)p[0] : bytes == 2 ? (int16_t)(p[0] | p[1] << 8) :
		    (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
			      (uint32_t)p[3] << 24);

	return end + (uint64_t)v;
}

/* Where image offset off went with its unit u (for an instruction's end,
 * which may be its unit's end). */
static uint64_t shifted(const struct cbench_kimage_layout *kl, uint32_t u, uint64_t off)
{
	return kl->region + kl->offsets[u] + (off + kl->base - kl->lay.units[u].addr);
}

/*
 * The region: every field the layout patched reaches where its target
 * went; with those fields put back as built, every unit is its code as
 * built, byte for byte, and every other byte an int3.
 */
static int check_units(const struct cbench_kimage_layout *kl, const struct cbench_kimage *image,
		       const struct cbench_kimage *out, char *why, size_t why_bytes)
{
	const struct cbench_layout *lay = &kl->lay;
	uint64_t region_bytes = out->image_bytes - kl->region;
	uint8_t *tmp = malloc(region_bytes);
	int ret = 0;

	if (!tmp)
		return -ENOMEM;
	memcpy(tmp, out->bytes + kl->region, region_bytes);
	for (uint32_t i = 0; i < lay->nunits && !ret; i++) {
		if (kl->offsets[i] > region_bytes || lay->units[i].bytes > region_bytes - kl->offsets[i])
			ret = differs(why, why_bytes, "%s lies past its region", lay->units[i].name);
	}
	for (uint32_t i = 0; i < lay->nfixups && !ret; i++) {
		const struct cbench_layout_fixup *f = &lay->fixups[i];
		uint64_t at = f->at - kl->base, end = f->end - kl->base, to = shifted(kl, f->unit, at);
		uint64_t was = field_target(image->bytes, at, end, 4);

		if (field_target(out->bytes, to, shifted(kl, f->unit, end), 4) != cbench_kimage_layout_moved(kl, was))
			ret = differs(why, why_bytes, "the displacement at 0x%" PRIx64 " of %s does not reach "
				      "where its target went", f->at, lay->units[f->unit].name);
		memcpy(tmp + (to - kl->region), image->bytes + at, 4);
	}
	for (uint32_t i = 0; i < lay->nunits && !ret; i++) {
		const struct cbench_layout_unit *u = &lay->units[i];

		if (memcmp(tmp + kl->offsets[i], image->bytes + (u->addr - kl->base), u->bytes))
			ret = differs(why, why_bytes, "the code of %s is not its code as built", u->name);
		memset(tmp + kl->offsets[i], GAP_BYTE, u->bytes);
	}
	for (uint64_t i = 0; i < region_bytes && !ret; i++) {
		if (tmp[i] != GAP_BYTE)
			ret = differs(why, why_bytes, "its region holds a byte of no unit at 0x%" PRIx64, i);
	}
	free(tmp);
	return ret;
}

/*
 * Every PC-relative field of every unit that moves, as the decoder finds
 * it from the unit's first byte to its last (layout.c's scan found them so
 * too, but this checks what was laid out, not what was planned): it
 * reaches where its target went.  A field the layout should have patched
 * and did not fails here; so does a byte the decoder cannot read, which
 * cbench.ko's own check of the text would refuse too.
 */
static int check_decoded(const struct cbench_kimage_layout *kl, const struct cbench_kimage *image,
			 const struct cbench_kimage *out, char *why, size_t why_bytes)
{
	for (uint32_t u = 0; u < kl->lay.nunits; u++) {
		const struct cbench_layout_unit *unit = &kl->lay.units[u];
		uint64_t start = unit->addr - kl->base, at = 0;

		while (at < unit->bytes) {
			struct cbench_x86_insn insn;
			size_t n = cbench_x86_decode(image->bytes + start + at, (size_t)(unit->bytes - at),
						     &insn);
			uint64_t field, end, was;

			if (!n)
				return differs(why, why_bytes, "%s holds a byte the decoder cannot read "
					       "at 0x%" PRIx64, unit->name, unit->addr + at);
			field = start + at + insn.pcrel_at;
			end = start + at + n;
			at += n;
			if (!insn.pcrel_bytes)
				continue;
			was = field_target(image->bytes, field, end, insn.pcrel_bytes);
			if (field_target(out->bytes, shifted(kl, u, field), shifted(kl, u, end), insn.pcrel_bytes) !=
			    cbench_kimage_layout_moved(kl, was))
				return differs(why, why_bytes, "%s reaches 0x%" PRIx64 " from 0x%" PRIx64 ", not "
					       "where that went", unit->name, was + kl->base, field + kl->base);
		}
	}
	return 0;
}

int cbench_kimage_layout_check(const struct cbench_kimage_layout *kl, const struct cbench_kimage *image,
			       const struct cbench_kimage *out, char *why, size_t why_bytes)
{
	enum cbench_check check = CBENCH_CHECK_OK;
	uint32_t bad = 0;
	int ret = check_shape(kl, image, out, why, why_bytes);

	ret = ret ? ret : check_image_bytes(kl, image, out, why, why_bytes);
	ret = ret ? ret : check_units(kl, image, out, why, why_bytes);
	ret = ret ? ret : check_decoded(kl, image, out, why, why_bytes);
	if (ret)
		return ret;
	/* What cbench.ko checks, as kimage_load.c checks an image as built. */
	check = cbench_text_check(out->image_bytes, out->text, out->ntext, &bad);
	if (check == CBENCH_CHECK_OK)
		check = cbench_reloc_check(out->bytes, out->image_bytes, out->text, out->ntext, out->relocs,
					   out->nrelocs, &bad);
	return check == CBENCH_CHECK_OK ? 0 : differs(why, why_bytes, "cbench.ko would refuse it: %s",
						     cbench_check_str(check));
}

void cbench_kimage_layout_free(struct cbench_kimage_layout *kl)
{
	cbench_layout_free(&kl->lay);
	free(kl->offsets);
	memset(kl, 0, sizeof(*kl));
}
