// SPDX-License-Identifier: GPL-2.0
/*
 * Code layout (layout.h): what of an object's code can move, drawn
 * layouts, and the code laid out at them.
 *
 * We trust neither the decoder nor the relocations alone.  A displacement
 * is found by decoding (its field and the instruction's end, which the
 * relocation does not give: an addend of a section symbol mixes the
 * target's offset with the distance to the end), and the linker's kept
 * relocations must fall exactly on decoded fields: where they do not, the
 * code is not what we decoded (data in the code, an encoding we misread)
 * and nothing moves.  The target comes from the bytes as linked, not from
 * the relocation's symbol: a call to an exported function goes through
 * its PLT entry, and the linker may have relaxed a GOT load to a lea.
 */
#include <errno.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "object/elffile.h"
#include "object/layout_parts.h"
#include "object/x86insn.h"

#define PAGE_BYTES 4096u
/* A stub's alignment (a PLT entry's). */
#define STUB_ALIGN 16u
/* The alignment compilers give functions on x86-64 (-falign-functions). */
#define FUNC_ALIGN 16u


/* The largest power of two dividing addr, at most max. */
static uint32_t low_bit(uint64_t addr, uint64_t max)
{
	uint64_t a = addr ? addr & -addr : max;

	return (uint32_t)(a < max ? a : max);
}

/* A stub's bytes: the entry copied, padded to 8, then its 8-byte slot. */
static uint64_t stub_slot(const struct cbench_layout_stub *st)
{
	return ((uint64_t)st->bytes + 7) / 8 * 8;
}

static uint64_t stub_bytes(const struct cbench_layout_stub *st)
{
	return stub_slot(st) + 8;
}

/* The section holding addr (allocated), or NULL. */
static const struct cbench_scan_sec *section_of(const struct cbench_scan *s, uint64_t addr)
{
	for (size_t i = 0; i < s->nsecs; i++) {
		const struct cbench_scan_sec *x = &s->secs[i];

		if (x->alloc && addr >= x->addr && addr - x->addr < x->bytes)
			return x;
	}
	return NULL;
}

/* The PLT entry at addr, up to its indirect jump through the GOT, into
 * *stub; false if it is not one. */
static bool plt_entry(const struct cbench_scan *s, uint64_t addr, struct cbench_layout_stub *stub)
{
	const struct cbench_scan_sec *x = section_of(s, addr);
	uint64_t off = 0, room;

	if (!x || !x->data || strncmp(x->name, ".plt", 4))
		return false;
	room = x->bytes - (addr - x->addr);
	while (off < 32 && off < room) {
		struct cbench_x86_insn insn;
		size_t len = cbench_x86_decode(x->data + (addr - x->addr) + off, room - off, &insn);

		if (!len)
			return false;
		off += len;
		if (insn.map == CBENCH_X86_MAP_ONE && !insn.vex && insn.opcode == 0xff && insn.reg == 4 &&
		    insn.pcrel_bytes == 4) {
			*stub = (struct cbench_layout_stub){ .plt = addr, .bytes = (uint32_t)off,
				.field = (uint32_t)(off - len + insn.pcrel_at), .field_end = (uint32_t)off };
			return true;
		}
	}
	return false;
}

/*
 * The stub a fixup through relocation r must reach instead of its target:
 * r names a function that moves and the code reaches it through the PLT
 * or the GOT (where the loader left the function's old address).  Returns
 * the stub's index, CBENCH_LAYOUT_STAYS for none, or -ENOMEM.
 */
static long stub_of(const struct cbench_scan *s, struct cbench_layout *lay, const struct cbench_scan_site *site,
		    const struct cbench_scan_reloc *r)
{
	struct cbench_layout_stub stub = { 0 }, *n;

	if (!r || !r->fn || cbench_layout_unit_of(lay, r->fn) == CBENCH_LAYOUT_STAYS ||
	    cbench_layout_unit_of(lay, site->target) != CBENCH_LAYOUT_STAYS)
		return CBENCH_LAYOUT_STAYS;
	if (r->type == R_X86_64_PLT32 || r->type == R_X86_64_PC32) {
		if (!plt_entry(s, site->target, &stub))
			return CBENCH_LAYOUT_STAYS;
	} else if (r->type != R_X86_64_GOTPCREL && r->type != R_X86_64_GOTPCRELX &&
		   r->type != R_X86_64_REX_GOTPCRELX) {
		return CBENCH_LAYOUT_STAYS;
	}
	stub.fn = r->fn;
	for (uint32_t i = 0; i < lay->nstubs; i++) {
		if (lay->stubs[i].fn == stub.fn && lay->stubs[i].plt == stub.plt)
			return i;
	}
	n = realloc(lay->stubs, (lay->nstubs + 1) * sizeof(*n));
	if (!n || lay->nstubs >= CBENCH_LAYOUT_UNITS_MAX)
		return n ? (lay->stubs = n, -E2BIG) : -ENOMEM;
	lay->stubs = n;
	lay->stubs[lay->nstubs] = stub;
	return lay->nstubs++;
}

static int add_fixup(const struct cbench_scan *s, struct cbench_layout *lay, const struct cbench_scan_site *site,
		     uint32_t unit, uint32_t target_unit, size_t *cap)
{
	long stub = stub_of(s, lay, site, cbench_scan_reloc_at(s, site->at));

	if (stub < 0)
		return (int)stub;
	if (lay->nfixups == *cap) {
		size_t ncap = *cap ? 2 * *cap : 256;
		struct cbench_layout_fixup *n = realloc(lay->fixups, ncap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		lay->fixups = n;
		*cap = ncap;
	}
	lay->fixups[lay->nfixups++] = (struct cbench_layout_fixup){
		.at = site->at, .end = site->end, .target = site->target, .unit = unit,
		.target_unit = target_unit, .stub = (uint32_t)stub };
	return 0;
}

/*
 * A function's own alignment, which the linked object no longer states
 * (its input section's is gone): FUNC_ALIGN, what compilers give functions
 * on x86-64, or less where its address says less.  We keep no more even
 * where the function asked for more (.p2align 6 before a hot loop): in the
 * linked object that cannot be told from a function that happens to sit
 * on a line, and where code happens to lie is what layouts sample.
 */
static uint32_t func_align(const struct cbench_scan *s, size_t f)
{
	const struct cbench_scan_func *fn = &s->funcs[f];
	uint64_t cap = low_bit(fn->addr, s->secs[fn->sec].align);

	return (uint32_t)(cap < FUNC_ALIGN ? cap : FUNC_ALIGN);
}

/*
 * Functions that move apart, each by its own alignment (func_align()).
 * Returns 0, 1 with why in lay where some function cannot move on its own,
 * or -errno.
 */
static int functions_units(const struct cbench_scan *s, struct cbench_layout *lay)
{
	size_t cap = 0;
	int ret = 0;

	lay->units = calloc(s->nfuncs ? s->nfuncs : 1, sizeof(*lay->units));
	if (!lay->units)
		return -ENOMEM;
	for (size_t f = 0; f < s->nfuncs; f++) {
		const struct cbench_scan_func *fn = &s->funcs[f];
		struct cbench_layout_unit *u = &lay->units[f];

		u->addr = fn->addr;
		u->bytes = fn->bytes;
		u->align = func_align(s, f);
		snprintf(u->name, sizeof(u->name), "%s", fn->name);
		if (fn->runs_on) {
			cbench_layout_set_why(lay, CBENCH_LAYOUT_SECTIONS, "its function %s runs on into what follows it",
				fn->name);
			return 1;
		}
	}
	lay->nunits = (uint32_t)s->nfuncs;
	for (size_t i = 0; !ret && i < s->nsites; i++) {
		const struct cbench_scan_site *site = &s->sites[i];
		const struct cbench_scan_func *fn = &s->funcs[site->func];
		long t = cbench_scan_func_of(s, site->target);

		if (site->target - fn->addr < fn->bytes)
			continue;
		if (site->bytes != 4 || !cbench_scan_reloc_at(s, site->at)) {
			cbench_layout_set_why(lay, CBENCH_LAYOUT_SECTIONS, "its function %s reaches %s at 0x%" PRIx64
				" without a relocation (functions of one section)", fn->name,
				t >= 0 ? s->funcs[t].name : "code", site->target);
			return 1;
		}
		ret = add_fixup(s, lay, site, site->func, t >= 0 ? (uint32_t)t : CBENCH_LAYOUT_STAYS,
				&cap);
	}
	return ret;
}

static int by_addr_unit(const void *a, const void *b)
{
	const struct cbench_layout_unit *x = a, *y = b;

	return (x->addr > y->addr) - (x->addr < y->addr);
}

/* The section unit holding addr, or CBENCH_LAYOUT_STAYS; units[] by address. */
static uint32_t section_unit(const struct cbench_layout *lay, uint64_t addr)
{
	return cbench_layout_unit_of(lay, addr);
}

/* Units for the sections that hold moving functions, at most a page aligned. */
static int sections_make(const struct cbench_scan *s, struct cbench_layout *lay)
{
	lay->units = calloc(s->nsecs ? s->nsecs : 1, sizeof(*lay->units));
	if (!lay->units)
		return -ENOMEM;
	for (size_t i = 0; i < s->nsecs; i++) {
		const struct cbench_scan_sec *x = &s->secs[i];
		struct cbench_layout_unit *u = &lay->units[lay->nunits];
		bool used = false;

		for (size_t f = 0; f < s->nfuncs && !used; f++)
			used = s->funcs[f].sec == i;
		if (!used || x->align > CBENCH_LAYOUT_ALIGN_MAX)
			continue;
		*u = (struct cbench_layout_unit){ .addr = x->addr, .bytes = x->bytes,
						  .align = (uint32_t)x->align };
		snprintf(u->name, sizeof(u->name), "%s", x->name);
		lay->nunits++;
	}
	qsort(lay->units, lay->nunits, sizeof(*lay->units), by_addr_unit);
	return 0;
}

/*
 * A site for a kept relocation in code no function symbol covers (crt's,
 * hand-written labels), which we did not decode: the field's value as if
 * it counted from the field's end.  The true end lies up to 4 bytes further
 * (an immediate after the field), which shifts the target we compute and
 * the place we patch alike, so the patched value is right wherever the
 * target lies, provided its unit is the one we find: not within 4 bytes of
 * a unit's edge.  Returns false if it is.
 */
static bool undecoded_site(const struct cbench_scan *s, const struct cbench_layout *lay, uint64_t at,
			   struct cbench_scan_site *site)
{
	const struct cbench_scan_sec *x = section_of(s, at);
	uint32_t t;

	if (!x || !x->data || x->bytes < 4 || at - x->addr > x->bytes - 4)
		return false;
	*site = (struct cbench_scan_site){ .at = at, .end = at + 4, .bytes = 4 };
	site->target = site->end + (uint64_t)cbench_scan_field_value(x->data + (at - x->addr), 4);
	t = section_unit(lay, site->target);
	return t == section_unit(lay, site->target + 4) &&
	       (t == CBENCH_LAYOUT_STAYS || site->target - lay->units[t].addr >= 4);
}

/*
 * Code sections that move as wholes: what their functions reach outside
 * them must carry relocations.  Returns 0, 1 with why in lay where the code
 * cannot move, or -errno.
 */
static int sections_units(const struct cbench_scan *s, struct cbench_layout *lay)
{
	size_t cap = 0;
	int ret = sections_make(s, lay);

	for (size_t i = 0; !ret && i < s->nrelocs; i++) {
		struct cbench_scan_site site;
		uint32_t u = section_unit(lay, s->relocs[i].at), t;

		if (cbench_scan_func_of(s, s->relocs[i].at) >= 0 || u == CBENCH_LAYOUT_STAYS)
			continue;
		if (!undecoded_site(s, lay, s->relocs[i].at, &site)) {
			cbench_layout_set_why(lay, CBENCH_LAYOUT_NONE, "code at 0x%" PRIx64 " that is in no function "
				"reaches the edge of a section (give hand-written code .type and .size)",
				s->relocs[i].at);
			return 1;
		}
		t = section_unit(lay, site.target);
		if (t != u)
			ret = add_fixup(s, lay, &site, u, t, &cap);
	}
	for (size_t i = 0; !ret && i < s->nsites; i++) {
		const struct cbench_scan_site *site = &s->sites[i];
		uint32_t u = section_unit(lay, site->at), t = section_unit(lay, site->target);

		if (u == CBENCH_LAYOUT_STAYS || u == t)
			continue;
		if (site->bytes != 4 || !cbench_scan_reloc_at(s, site->at)) {
			cbench_layout_set_why(lay, CBENCH_LAYOUT_NONE, "its function %s reaches 0x%" PRIx64 " outside its "
				"section without a relocation", s->funcs[site->func].name, site->target);
			return 1;
		}
		ret = add_fixup(s, lay, site, u, t, &cap);
	}
	return ret;
}

static uint64_t fnv1a(uint64_t h, const uint8_t *p, uint64_t bytes)
{
	for (uint64_t i = 0; i < bytes; i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	return h;
}

/* code_hash: each unit's bytes, then each stub's entry, in the file. */
static uint64_t file_hash(const struct cbench_scan *s, const struct cbench_layout *lay)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (uint32_t i = 0; i < lay->nunits; i++) {
		const struct cbench_scan_sec *x = section_of(s, lay->units[i].addr);

		if (x && x->data)
			h = fnv1a(h, x->data + (lay->units[i].addr - x->addr), lay->units[i].bytes);
	}
	for (uint32_t i = 0; i < lay->nstubs; i++) {
		const struct cbench_scan_sec *x = section_of(s, lay->stubs[i].plt);

		if (x && x->data)
			h = fnv1a(h, x->data + (lay->stubs[i].plt - x->addr), lay->stubs[i].bytes);
	}
	return h;
}

uint64_t cbench_layout_hash(const struct cbench_layout *lay, const uint8_t *src, uint64_t src_addr)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (uint32_t i = 0; i < lay->nunits; i++)
		h = fnv1a(h, src + (lay->units[i].addr - src_addr), lay->units[i].bytes);
	for (uint32_t i = 0; i < lay->nstubs; i++) {
		if (lay->stubs[i].plt)
			h = fnv1a(h, src + (lay->stubs[i].plt - src_addr), lay->stubs[i].bytes);
	}
	return h;
}

uint64_t cbench_layout_lowest(const struct cbench_layout *lay)
{
	uint64_t low = lay->nunits ? lay->units[0].addr : 0;

	for (uint32_t i = 0; i < lay->nstubs; i++) {
		if (lay->stubs[i].plt && lay->stubs[i].plt < low)
			low = lay->stubs[i].plt;
	}
	return low;
}

static void units_reset(struct cbench_layout *lay)
{
	free(lay->units);
	free(lay->fixups);
	free(lay->stubs);
	lay->units = NULL;
	lay->fixups = NULL;
	lay->stubs = NULL;
	lay->nunits = lay->nfixups = lay->nstubs = 0;
}

/* What moves: functions apart if they can, else sections, else nothing.
 * Returns 0 (the mode and why in lay) or -errno. */
static int analyse(struct cbench_scan *s, struct cbench_layout *lay)
{
	int ret;

	if (!s->kept_relocs) {
		cbench_layout_set_why(lay, CBENCH_LAYOUT_NONE, "it keeps no relocations for its code");
		return 0;
	}
	if (!s->symtab) {
		cbench_layout_set_why(lay, CBENCH_LAYOUT_NONE, "it has no symbol table (stripped)");
		return 0;
	}
	ret = cbench_scan_functions(s);
	if (!ret && !s->nfuncs)
		cbench_layout_set_why(lay, CBENCH_LAYOUT_NONE, "no function of its symbol table lies in its code");
	if (ret || !s->nfuncs)
		return ret;
	ret = cbench_scan_relocs(s, lay);
	ret = ret ? ret : cbench_scan_decode(s, lay);
	ret = ret ? ret : cbench_scan_check_relocs(s, lay);
	if (ret)
		return ret < 0 ? ret : 0;
	lay->mode = CBENCH_LAYOUT_FUNCTIONS;
	ret = functions_units(s, lay);
	if (ret == 1) {
		units_reset(lay);
		ret = sections_units(s, lay);
		if (!ret && !lay->nunits)
			cbench_layout_set_why(lay, CBENCH_LAYOUT_NONE, "its code sections are aligned to more than a page");
	}
	if (ret == 1 || lay->mode == CBENCH_LAYOUT_NONE)
		units_reset(lay);
	return ret < 0 ? ret : 0;
}

int cbench_layout_scan(const char *path, struct cbench_layout *lay, char *err, size_t errlen)
{
	struct cbench_scan s = { .path = path };
	struct cbench_elf e;
	int ret;

	memset(lay, 0, sizeof(*lay));
	ret = cbench_elf_open(&e, path, err, errlen);
	if (ret)
		return ret;
	s.elf = e.elf;
	ret = cbench_scan_sections(&s, err, errlen);
	ret = ret ? ret : analyse(&s, lay);
	for (uint32_t i = 0; !ret && i < lay->nunits; i++)
		lay->region_bytes += lay->units[i].bytes + lay->units[i].align + CBENCH_LAYOUT_PAD_BYTES;
	for (uint32_t i = 0; !ret && i < lay->nstubs; i++)
		lay->region_bytes += stub_bytes(&lay->stubs[i]) + STUB_ALIGN;
	if (!ret && lay->nunits) {
		lay->region_bytes += PAGE_BYTES;
		lay->code_hash = file_hash(&s, lay);
	}
	if (ret == -ENOMEM || ret == -E2BIG)
		snprintf(err, errlen, "%s: %s", path, ret == -E2BIG ? "too many functions or references to "
			 "lay out" : strerror(ENOMEM));
	if (ret)
		cbench_layout_free(lay);
	free(s.secs);
	free(s.funcs);
	free(s.relocs);
	free(s.sites);
	cbench_elf_close(&e);
	return ret;
}

void cbench_layout_free(struct cbench_layout *lay)
{
	units_reset(lay);
}

void cbench_layout_describe(const struct cbench_layout *lay, char *buf, size_t len)
{
	switch (lay->mode) {
	case CBENCH_LAYOUT_FUNCTIONS:
		snprintf(buf, len, "%" PRIu32 " function%s, each moved on its own by its alignment",
			 lay->nunits, lay->nunits == 1 ? "" : "s");
		break;
	case CBENCH_LAYOUT_SECTIONS:
		snprintf(buf, len, "%" PRIu32 " code section%s moved whole, not function by function: "
			 "%s; " CBENCH_LAYOUT_FIX, lay->nunits, lay->nunits == 1 ? "" : "s", lay->why);
		break;
	default:
		snprintf(buf, len, "not moved: %s; " CBENCH_LAYOUT_FIX, lay->why);
		break;
	}
}

uint32_t cbench_layout_unit_of(const struct cbench_layout *lay, uint64_t addr)
{
	uint32_t lo = 0, hi = lay->nunits;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		const struct cbench_layout_unit *u = &lay->units[mid];

		if (addr < u->addr)
			hi = mid;
		else if (addr - u->addr >= u->bytes)
			lo = mid + 1;
		else
			return mid;
	}
	return CBENCH_LAYOUT_STAYS;
}

int cbench_layout_draw(const struct cbench_layout *lay, cbench_layout_draw_fn draw, void *arg,
		       uint64_t *offsets, uint64_t *bytes)
{
	uint32_t *order = malloc((lay->nunits ? lay->nunits : 1) * sizeof(*order));
	uint64_t at = draw(arg, PAGE_BYTES);

	if (!order)
		return -ENOMEM;
	for (uint32_t i = 0; i < lay->nunits; i++)
		order[i] = i;
	/* Fisher-Yates: which functions are neighbours is drawn too. */
	for (uint32_t i = lay->nunits; i > 1; i--) {
		uint32_t j = (uint32_t)draw(arg, i), t = order[i - 1];

		order[i - 1] = order[j];
		order[j] = t;
	}
	for (uint32_t i = 0; i < lay->nunits; i++) {
		const struct cbench_layout_unit *u = &lay->units[order[i]];
		uint64_t a = u->align ? u->align : 1;
		uint64_t slots = a < CBENCH_LAYOUT_PAD_BYTES ? CBENCH_LAYOUT_PAD_BYTES / a : 1;

		at = (at + a - 1) / a * a + a * draw(arg, slots);
		offsets[order[i]] = at;
		at += u->bytes;
	}
	for (uint32_t k = 0; k < lay->nstubs; k++) {
		at = (at + STUB_ALIGN - 1) / STUB_ALIGN * STUB_ALIGN;
		offsets[lay->nunits + k] = at;
		at += stub_bytes(&lay->stubs[k]);
	}
	*bytes = at;
	free(order);
	return 0;
}

/* Writes the low bytes of v to p, little-endian. */
static void put_le(uint8_t *p, uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* The stubs of a layout laid out at dst (apply()'s arguments); 0 or -ERANGE. */
static int apply_stubs(const struct cbench_layout *lay, const uint64_t *offsets, const uint8_t *src,
		       uint64_t src_addr, uint8_t *dst, uint64_t dst_bytes, uint64_t dst_addr)
{
	for (uint32_t k = 0; k < lay->nstubs; k++) {
		const struct cbench_layout_stub *st = &lay->stubs[k];
		uint64_t off = offsets[lay->nunits + k];

		if (off > dst_bytes || stub_bytes(st) > dst_bytes - off || (st->plt && st->plt < src_addr))
			return -ERANGE;
		if (st->plt) {
			memcpy(dst + off, src + (st->plt - src_addr), st->bytes);
			put_le(dst + off + st->field, stub_slot(st) - st->field_end, 4);
		}
		put_le(dst + off + stub_slot(st), cbench_layout_where(lay, offsets, dst_addr, st->fn), 8);
	}
	return 0;
}

int cbench_layout_apply(const struct cbench_layout *lay, const uint64_t *offsets, const uint8_t *src,
			uint64_t src_addr, uint64_t bias, uint8_t *dst, uint64_t dst_bytes,
			uint64_t dst_addr, char *why, size_t why_bytes)
{
	memset(dst, 0xcc, dst_bytes);
	for (uint32_t i = 0; i < lay->nunits; i++) {
		const struct cbench_layout_unit *u = &lay->units[i];

		if (offsets[i] > dst_bytes || u->bytes > dst_bytes - offsets[i] || u->addr < src_addr) {
			snprintf(why, why_bytes, "the layout of %s does not fit its region", u->name);
			return -ERANGE;
		}
		memcpy(dst + offsets[i], src + (u->addr - src_addr), u->bytes);
	}
	if (apply_stubs(lay, offsets, src, src_addr, dst, dst_bytes, dst_addr)) {
		snprintf(why, why_bytes, "the layout's stubs do not fit its region");
		return -ERANGE;
	}
	for (uint32_t i = 0; i < lay->nfixups; i++) {
		const struct cbench_layout_fixup *f = &lay->fixups[i];
		const struct cbench_layout_unit *u = &lay->units[f->unit];
		uint64_t end = dst_addr + offsets[f->unit] + (f->end - u->addr), target;
		int64_t d;

		if (f->stub != CBENCH_LAYOUT_STAYS)
			target = dst_addr + offsets[lay->nunits + f->stub];
		else if (f->target_unit == CBENCH_LAYOUT_STAYS)
			target = f->target + bias;
		else
			target = dst_addr + offsets[f->target_unit] +
				 (f->target - lay->units[f->target_unit].addr);
		d = (int64_t)(target - end);
		if (d < INT32_MIN || d > INT32_MAX) {
			snprintf(why, why_bytes, "%s, laid out at 0x%" PRIx64 ", cannot reach 0x%" PRIx64
				 " (more than 2 GiB away)", u->name, end, target);
			return -ERANGE;
		}
		put_le(dst + offsets[f->unit] + (f->at - u->addr), (uint64_t)d, 4);
	}
	return 0;
}

uint64_t cbench_layout_where(const struct cbench_layout *lay, const uint64_t *offsets,
			     uint64_t dst_addr, uint64_t addr)
{
	uint32_t u = cbench_layout_unit_of(lay, addr);

	return u == CBENCH_LAYOUT_STAYS ? 0 : dst_addr + offsets[u] + (addr - lay->units[u].addr);
}

