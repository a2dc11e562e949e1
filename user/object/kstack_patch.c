// SPDX-License-Identifier: GPL-2.0
/*
 * kstack: the checks put into an image (kstack.h, cbench_kstack_patch()),
 * and the proof that they are all that changed.
 *
 * A checked function's first instructions after its endbr64 (which stays:
 * it is where calls through pointers land on IBT kernels) become a jump to
 * a stub in a region appended to the image's text:
 *
 *	test $mask, %esp	the stack's bits between 2^log2 and its size
 *	jz 1f			all clear: less than 2^log2 bytes left
 *	<the instructions the jump replaced>
 *	jmp <the instruction after them>
 *   1:	ud2
 *
 * cbench.ko's stack is a power of two in size and aligned to it, so
 * %rsp's bits below the size are what is left of it.  The test changes
 * the arithmetic flags, which no function can expect to survive a call
 * into it (the psABI does not preserve them across calls, and compilers
 * keep nothing in them across one); no register changes.  A mask of 0
 * (a check asking for the whole stack) always traps.  The instructions
 * moved keep their bytes, but for their RIP-relative operands and branch
 * displacements, which reach what they reached (a short jcc becomes a
 * near one); the bytes the jump leaves at the entry are int3.  A direct
 * call (or tail jump) of a checked function, found by kstack_read.c, is
 * led to the stub itself, which saves it the jump at the entry: on the
 * development VM that took a quarter off a check's cost.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "object/kstack_parts.h"
#include "object/x86insn.h"
#include "../../kmod/lib/reloc.h"

#define PAGE_BYTES CBENCH_IMAGE_PAGE_BYTES
/* A jump's bytes (e9 rel32), which the moved instructions must cover. */
#define JUMP_BYTES 5
/* The most bytes moved: the jump's, and an instruction started in them. */
#define MOVED_MAX (JUMP_BYTES - 1 + 15)
/* A stub: the test, the jz, the moved instructions (a short jcc grows by
 * four), the jump back, ud2; each starts 16-byte aligned. */
#define STUB_BYTES 64
#define INT3 0xcc

/* How an instruction moves to a stub. */
enum move { MOVE_NOT, MOVE_BYTES, MOVE_RIP, MOVE_JMP, MOVE_JCC, MOVE_END };

/* Whether insn ends the path (nothing follows it into the next bytes). */
static bool ends(const struct cbench_x86_insn *insn)
{
	bool one = insn->map == CBENCH_X86_MAP_ONE && !insn->vex;

	return (one && (insn->opcode == 0xc3 || insn->opcode == 0xe9 || insn->opcode == 0xeb ||
			(insn->opcode == 0xff && insn->reg == 4))) ||
	       (insn->map == CBENCH_X86_MAP_0F && !insn->vex && insn->opcode == 0x0b);
}

/* How insn (at its canonical length for branches) moves. */
static enum move how(const struct cbench_x86_insn *insn)
{
	bool one = insn->map == CBENCH_X86_MAP_ONE && !insn->vex;
	uint8_t op = insn->opcode;

	if (one && ((op == 0xeb && insn->length == 2) || (op == 0xe9 && insn->length == 5)))
		return MOVE_JMP;
	if ((one && op >= 0x70 && op <= 0x7f && insn->length == 2) ||
	    (insn->map == CBENCH_X86_MAP_0F && !insn->vex && op >= 0x80 && op <= 0x8f && insn->length == 6))
		return MOVE_JCC;
	/* Calls (their return address would be the stub's), loop and jrcxz
	 * (no near form), returns that pop more, xbegin's relative operand. */
	if (one && (op == 0xe8 || (op >= 0xe0 && op <= 0xe3) || op == 0xc2 || op == 0xca || op == 0xcb ||
		    op == 0xcf || op == 0xcc || op == 0xeb || op == 0xe9 || (op == 0xff && insn->reg == 2) ||
		    (op == 0xc7 && insn->mod == 3 && insn->reg == 7)))
		return MOVE_NOT;
	if (insn->pcrel_bytes && !(insn->has_modrm && insn->mod == 0 && insn->rm == 5))
		return MOVE_NOT;
	if (ends(insn))
		return insn->pcrel_bytes ? MOVE_RIP : MOVE_END;
	return insn->pcrel_bytes ? MOVE_RIP : MOVE_BYTES;
}

static bool targeted(const uint64_t *targets, uint32_t ntargets, uint64_t at)
{
	uint32_t lo = 0, hi = ntargets;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (targets[mid] < at)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < ntargets && targets[lo] == at;
}

/* The text left from at on, 0 outside text. */
static uint64_t text_from(const struct cbench_kimage *image, uint64_t at)
{
	for (uint32_t i = 0; i < image->ntext; i++)
		if (at >= image->text[i].start && at - image->text[i].start < image->text[i].bytes)
			return image->text[i].bytes - (at - image->text[i].start);
	return 0;
}

uint32_t cbench_kstack_movable(const struct cbench_kimage *image, uint64_t at, const uint64_t *targets,
			       uint32_t ntargets)
{
	uint32_t moved = 0;

	while (moved < JUMP_BYTES) {
		struct cbench_x86_insn insn;
		uint64_t left = text_from(image, at + moved);
		enum move m;

		if (!left || (moved && targeted(targets, ntargets, at + moved)) ||
		    !cbench_x86_decode(image->bytes + at + moved, left < 15 ? (size_t)left : 15, &insn))
			return 0;
		m = how(&insn);
		if (m == MOVE_NOT)
			return 0;
		moved += insn.length;
		if (ends(&insn) && moved < JUMP_BYTES)
			return 0;
		if (ends(&insn))
			break;
	}
	return moved <= MOVED_MAX ? moved : 0;
}

static void put32(uint8_t *p, int64_t v)
{
	int32_t w = (int32_t)v;

	memcpy(p, &w, sizeof(w));
}

static int64_t get32(const uint8_t *p)
{
	int32_t w;

	memcpy(&w, p, sizeof(w));
	return w;
}

/* The bits of %esp a check asking for 2^log2 bytes tests: 0 always traps. */
static uint32_t mask_of(const struct cbench_kstack *ks, uint32_t log2)
{
	uint64_t below = (1ULL << log2) - 1;

	return (uint32_t)((ks->limits.stack_bytes - 1) & ~below);
}

/* Whether rel32 from end reaches to. */
static bool reaches(uint64_t end, uint64_t to)
{
	int64_t d = (int64_t)(to - end);

	return d >= INT32_MIN && d <= INT32_MAX;
}

/*
 * Writes the stub for the instructions at p (n bytes of in's code) at s of
 * out: the check of mask, the instructions moved, the jump back, ud2.
 * Returns its bytes, or 0 where a displacement cannot reach.
 */
static uint32_t emit(const struct cbench_kimage *in, uint64_t p, uint32_t n, uint32_t mask,
		     struct cbench_kimage *out, uint64_t s)
{
	uint8_t *o = out->bytes;
	uint64_t at = p, w = s + 8;
	bool ended = false;

	o[s] = 0xf7;			/* test $mask, %esp */
	o[s + 1] = 0xc4;
	memcpy(o + s + 2, &mask, sizeof(mask));
	o[s + 6] = 0x74;		/* jz, to the ud2 (set below) */
	while (at < p + n) {
		struct cbench_x86_insn insn;
		uint64_t to;

		if (!cbench_x86_decode(in->bytes + at, (size_t)(in->image_bytes - at < 15 ? in->image_bytes - at : 15),
				       &insn))
			return 0;
		to = at + insn.length + (uint64_t)(insn.pcrel_bytes == 1 ? (int64_t)(int8_t)in->bytes[at + insn.pcrel_at] :
						     insn.pcrel_bytes ? get32(in->bytes + at + insn.pcrel_at) : 0);
		switch (how(&insn)) {
		case MOVE_JMP:
			if (!reaches(w + 5, to))
				return 0;
			o[w] = 0xe9;
			put32(o + w + 1, (int64_t)(to - (w + 5)));
			w += 5;
			break;
		case MOVE_JCC:
			o[w] = 0x0f;
			o[w + 1] = (uint8_t)(0x80 | (insn.opcode & 15));
			put32(o + w + 2, (int64_t)(to - (w + 6)));
			if (!reaches(w + 6, to))
				return 0;
			w += 6;
			break;
		case MOVE_RIP:
			memcpy(o + w, in->bytes + at, insn.length);
			if (!reaches(w + insn.length, to))
				return 0;
			put32(o + w + insn.pcrel_at, (int64_t)(to - (w + insn.length)));
			w += insn.length;
			break;
		default:
			memcpy(o + w, in->bytes + at, insn.length);
			w += insn.length;
			break;
		}
		ended = ends(&insn);
		at += insn.length;
	}
	if (!ended) {
		o[w] = 0xe9;
		put32(o + w + 1, (int64_t)(p + n - (w + 5)));
		w += 5;
	}
	o[s + 7] = (uint8_t)(w - (s + 8));
	o[w] = 0x0f;			/* ud2 */
	o[w + 1] = 0x0b;
	return (uint32_t)(w + 2 - s);
}

/* The entry's jump to the stub at s, over n bytes at p, the rest int3. */
static void divert(struct cbench_kimage *out, uint64_t p, uint32_t n, uint64_t s)
{
	out->bytes[p] = 0xe9;
	put32(out->bytes + p + 1, (int64_t)(s - (p + JUMP_BYTES)));
	memset(out->bytes + p + JUMP_BYTES, INT3, n - JUMP_BYTES);
}

/* out: a copy of in, with region_bytes of int3 text after it. */
static int copy_image(const struct cbench_kimage *in, uint64_t region_bytes, struct cbench_kimage *out)
{
	memset(out, 0, sizeof(*out));
	out->base = in->base;
	out->image_bytes = in->image_bytes + region_bytes;
	out->bytes = malloc(out->image_bytes);
	out->relocs = malloc((in->nrelocs + 1) * sizeof(*out->relocs));
	out->entries = malloc((in->nentries + 1) * sizeof(*out->entries));
	out->funcs = calloc(in->nfuncs + 1, sizeof(*out->funcs));
	if (!out->bytes || !out->relocs || !out->entries || !out->funcs)
		return -ENOMEM;
	memcpy(out->bytes, in->bytes, in->image_bytes);
	memset(out->bytes + in->image_bytes, INT3, region_bytes);
	memcpy(out->relocs, in->relocs, in->nrelocs * sizeof(*out->relocs));
	out->nrelocs = in->nrelocs;
	memcpy(out->entries, in->entries, in->nentries * sizeof(*out->entries));
	out->nentries = in->nentries;
	out->descs_offset = in->descs_offset;
	out->descs_bytes = in->descs_bytes;
	for (uint32_t i = 0; i < in->nfuncs; i++) {
		out->funcs[i] = in->funcs[i];
		out->funcs[i].name = strdup(in->funcs[i].name);
		if (!out->funcs[i].name)
			return -ENOMEM;
		out->nfuncs++;
	}
	memcpy(out->text, in->text, sizeof(out->text));
	out->ntext = in->ntext;
	if (!region_bytes)
		return 0;
	if (out->ntext && out->text[out->ntext - 1].start + out->text[out->ntext - 1].bytes == in->image_bytes) {
		out->text[out->ntext - 1].bytes += region_bytes;
		return 0;
	}
	if (out->ntext == CBENCH_TEXT_MAX)
		return -E2BIG;
	out->text[out->ntext++] = (struct cbench_range){ .start = in->image_bytes, .bytes = region_bytes };
	return 0;
}

/* Where each check's code lies in in: as built, and (laid out) where it runs. */
static uint32_t copies(const struct cbench_kstack_check *c, cbench_kstack_where_fn where, void *arg,
		       uint64_t at[2])
{
	at[0] = c->at;
	if (!where)
		return 1;
	at[1] = where(arg, c->at);
	return at[1] != at[0] ? 2 : 1;
}

static size_t decode_at(const struct cbench_kimage *image, uint64_t at, struct cbench_x86_insn *insn,
			uint64_t *to);

/* Whether [at, at + 5) lies in the instructions a stub moved. */
static bool moved_away(const struct cbench_kstack *ks, const struct cbench_kstack_stubs *stubs, uint64_t at)
{
	for (uint32_t i = 0; i < stubs->nstubs; i++)
		if (at + 5 > stubs->from[i] && at < stubs->from[i] + ks->checks[stubs->check[i]].patch_bytes)
			return true;
	return false;
}

/* The stub whose jump sits at entry to (past its endbr64), or UINT32_MAX. */
static uint32_t stub_entered_at(const struct cbench_kstack *ks, const struct cbench_kstack_stubs *stubs,
				uint64_t to)
{
	for (uint32_t i = 0; i < stubs->nstubs; i++) {
		const struct cbench_kstack_check *c = &ks->checks[stubs->check[i]];

		if (stubs->from[i] - (c->patch_at - c->at) == to)
			return i;
	}
	return UINT32_MAX;
}

/*
 * Every direct call and jump (e8, e9) of ks's functions, in each copy of
 * the code, that reaches a checked function's entry: led to its stub.
 */
static int lead_calls(const struct cbench_kstack *ks, const struct cbench_kimage *in,
		      cbench_kstack_where_fn where, void *arg, struct cbench_kimage *out,
		      struct cbench_kstack_stubs *stubs)
{
	uint32_t room = 0;

	for (uint32_t f = 0; f < ks->nfns; f++) {
		for (uint32_t j = 0; j < ks->fns[f].nsites; j++) {
			const struct cbench_kstack_site *site = &ks->fns[f].sites[j];
			uint64_t at[2] = { site->at, where ? where(arg, site->at) : site->at };

			for (int k = 0; k < (at[1] != at[0] ? 2 : 1); k++) {
				struct cbench_x86_insn insn;
				uint64_t to;
				uint32_t i;

				if (moved_away(ks, stubs, at[k]) || !decode_at(in, at[k], &insn, &to) ||
				    insn.length != 5 || insn.vex ||
				    (in->bytes[at[k]] != 0xe8 && in->bytes[at[k]] != 0xe9) ||
				    (i = stub_entered_at(ks, stubs, to)) == UINT32_MAX || !reaches(at[k] + 5, stubs->stub[i]))
					continue;
				if (stubs->nled == room) {
					uint64_t *led = realloc(stubs->led, (room * 2 + 16) * sizeof(*led));
					uint32_t *led_to = led ? realloc(stubs->led_to, (room * 2 + 16) * sizeof(*led_to)) : NULL;

					if (led)
						stubs->led = led;
					if (!led || !led_to)
						return -ENOMEM;
					stubs->led_to = led_to;
					room = room * 2 + 16;
				}
				put32(out->bytes + at[k] + 1, (int64_t)(stubs->stub[i] - (at[k] + 5)));
				stubs->led[stubs->nled] = at[k];
				stubs->led_to[stubs->nled++] = i;
			}
		}
	}
	return 0;
}

int cbench_kstack_patch(const struct cbench_kstack *ks, const struct cbench_kimage *in,
			cbench_kstack_where_fn where, void *arg, struct cbench_kimage *out,
			struct cbench_kstack_stubs *stubs, char *why, size_t why_bytes)
{
	uint64_t region_bytes = ((uint64_t)ks->nchecks * 2 * STUB_BYTES + PAGE_BYTES - 1) / PAGE_BYTES * PAGE_BYTES;
	uint64_t s;
	int ret;

	memset(stubs, 0, sizeof(*stubs));
	ret = copy_image(in, region_bytes, out);
	stubs->stub = calloc((size_t)ks->nchecks * 2 + 1, sizeof(*stubs->stub));
	stubs->from = calloc((size_t)ks->nchecks * 2 + 1, sizeof(*stubs->from));
	stubs->check = calloc((size_t)ks->nchecks * 2 + 1, sizeof(*stubs->check));
	if (!ret && (!stubs->stub || !stubs->from || !stubs->check))
		ret = -ENOMEM;
	stubs->region = in->image_bytes;
	stubs->region_bytes = region_bytes;
	s = stubs->region;
	for (uint32_t i = 0; !ret && i < ks->nchecks; i++) {
		const struct cbench_kstack_check *c = &ks->checks[i];
		uint64_t at[2];
		uint32_t n = copies(c, where, arg, at);

		for (uint32_t k = 0; k < n; k++) {
			uint64_t p = at[k] + (c->patch_at - c->at);
			uint32_t bytes = emit(in, p, c->patch_bytes, mask_of(ks, c->log2), out, s);

			if (!bytes || !reaches(p + JUMP_BYTES, s)) {
				snprintf(why, why_bytes, "the stack check of %s cannot reach its stub", c->name);
				ret = -ERANGE;
				break;
			}
			divert(out, p, c->patch_bytes, s);
			stubs->stub[stubs->nstubs] = s;
			stubs->from[stubs->nstubs] = p;
			stubs->check[stubs->nstubs++] = i;
			s += STUB_BYTES;
		}
	}
	ret = ret ? ret : lead_calls(ks, in, where, arg, out, stubs);
	ret = ret ? ret : cbench_kstack_patch_check(ks, in, out, stubs, why, why_bytes);
	if (ret) {
		if (ret == -ENOMEM)
			snprintf(why, why_bytes, "out of memory");
		cbench_kimage_free(out);
		cbench_kstack_stubs_free(stubs);
	}
	return ret;
}

const struct cbench_kstack_check *cbench_kstack_stub_at(const struct cbench_kstack *ks,
							 const struct cbench_kstack_stubs *stubs,
							 uint64_t offset)
{
	for (uint32_t i = 0; i < stubs->nstubs; i++)
		if (offset >= stubs->stub[i] && offset - stubs->stub[i] < STUB_BYTES)
			return &ks->checks[stubs->check[i]];
	return NULL;
}

void cbench_kstack_stubs_free(struct cbench_kstack_stubs *stubs)
{
	free(stubs->stub);
	free(stubs->from);
	free(stubs->check);
	free(stubs->led);
	free(stubs->led_to);
	memset(stubs, 0, sizeof(*stubs));
}

/* ---- the check ------------------------------------------------------------ */

__attribute__((format(printf, 3, 4)))
static int differs(char *why, size_t why_bytes, const char *fmt, ...)
{
	int n = snprintf(why, why_bytes, "the image with stack checks is not the image as built with them: ");
	va_list ap;

	if (n >= 0 && (size_t)n < why_bytes) {
		va_start(ap, fmt);
		vsnprintf(why + n, why_bytes - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* The instruction at at of image (0 if it does not decode there) and where its field reaches. */
static size_t decode_at(const struct cbench_kimage *image, uint64_t at, struct cbench_x86_insn *insn,
			uint64_t *to)
{
	size_t n;

	if (at >= image->image_bytes)
		return 0;
	n = cbench_x86_decode(image->bytes + at, (size_t)(image->image_bytes - at < 15 ? image->image_bytes - at : 15),
			      insn);
	if (!n)
		return 0;
	*to = at + n;
	if (insn->pcrel_bytes == 1)
		*to += (uint64_t)(int64_t)(int8_t)image->bytes[at + insn->pcrel_at];
	else if (insn->pcrel_bytes == 4)
		*to += (uint64_t)get32(image->bytes + at + insn->pcrel_at);
	return n;
}

/* Whether the moved copy at w of out is the instruction at q of in, moved: its end in *end. */
static bool moved_ok(const struct cbench_kimage *in, uint64_t q, const struct cbench_kimage *out, uint64_t w,
		     uint64_t *end, bool *ended)
{
	struct cbench_x86_insn a, b;
	uint64_t ta, tb;
	size_t na = decode_at(in, q, &a, &ta), nb = decode_at(out, w, &b, &tb);

	if (!na || !nb)
		return false;
	*end = w + nb;
	*ended = ends(&a);
	switch (how(&a)) {
	case MOVE_JMP:
		return out->bytes[w] == 0xe9 && nb == 5 && ta == tb;
	case MOVE_JCC:
		return nb == 6 && out->bytes[w] == 0x0f && out->bytes[w + 1] == (0x80 | (a.opcode & 15)) && ta == tb;
	case MOVE_RIP:
		return na == nb && a.pcrel_at == b.pcrel_at && ta == tb &&
		       !memcmp(in->bytes + q, out->bytes + w, a.pcrel_at) &&
		       !memcmp(in->bytes + q + a.pcrel_at + 4, out->bytes + w + a.pcrel_at + 4, na - a.pcrel_at - 4);
	case MOVE_BYTES:
	case MOVE_END:
		return na == nb && !memcmp(in->bytes + q, out->bytes + w, na);
	case MOVE_NOT:
		break;
	}
	return false;
}

/* Stub i: the check asked for, the moved instructions, the jump back, ud2, int3 after. */
static int check_stub(const struct cbench_kstack *ks, const struct cbench_kimage *in,
		      const struct cbench_kimage *out, const struct cbench_kstack_stubs *stubs, uint32_t i,
		      char *why, size_t why_bytes)
{
	const struct cbench_kstack_check *c = &ks->checks[stubs->check[i]];
	uint64_t s = stubs->stub[i], p = stubs->from[i], w = s + 8, q = p, end, to;
	uint32_t mask = mask_of(ks, c->log2);
	struct cbench_x86_insn insn;
	bool ended = false;

	if (out->bytes[s] != 0xf7 || out->bytes[s + 1] != 0xc4 || memcmp(out->bytes + s + 2, &mask, 4) ||
	    out->bytes[s + 6] != 0x74)
		return differs(why, why_bytes, "the stub of %s does not check for 2^%u bytes", c->name, c->log2);
	while (q < p + c->patch_bytes) {
		if (!moved_ok(in, q, out, w, &end, &ended))
			return differs(why, why_bytes, "the stub of %s moved 0x%" PRIx64 " wrong", c->name, q);
		q += decode_at(in, q, &insn, &to);
		w = end;
	}
	if (q != p + c->patch_bytes)
		return differs(why, why_bytes, "the stub of %s moved part of an instruction", c->name);
	if (!ended) {
		if (decode_at(out, w, &insn, &to) != 5 || out->bytes[w] != 0xe9 || to != q)
			return differs(why, why_bytes, "the stub of %s does not jump back", c->name);
		w += 5;
	}
	if (out->bytes[w] != 0x0f || out->bytes[w + 1] != 0x0b || s + 8 + (int8_t)out->bytes[s + 7] != w)
		return differs(why, why_bytes, "the stub of %s does not trap on ud2", c->name);
	for (w += 2; w < s + STUB_BYTES; w++)
		if (out->bytes[w] != INT3)
			return differs(why, why_bytes, "the stub of %s has bytes after its ud2", c->name);
	/* The entry: the endbr64 kept before it, the jump, int3 for the rest. */
	if (decode_at(out, p, &insn, &to) != JUMP_BYTES || out->bytes[p] != 0xe9 || to != s ||
	    (c->patch_at != c->at && !cbench_kstack_endbr(out, p - 4)))
		return differs(why, why_bytes, "the entry of %s does not jump to its stub", c->name);
	for (w = p + JUMP_BYTES; w < p + c->patch_bytes; w++)
		if (out->bytes[w] != INT3)
			return differs(why, why_bytes, "the entry of %s is not int3 after its jump", c->name);
	return 0;
}

/* Its shape: in's, with the region appended to its text; slots, entries and functions in's. */
static int check_shape(const struct cbench_kimage *in, const struct cbench_kimage *out,
		       const struct cbench_kstack_stubs *stubs, char *why, size_t why_bytes)
{
	struct cbench_kimage want = { .ntext = in->ntext };

	memcpy(want.text, in->text, sizeof(want.text));
	if (want.ntext && want.text[want.ntext - 1].start + want.text[want.ntext - 1].bytes == in->image_bytes)
		want.text[want.ntext - 1].bytes += stubs->region_bytes;
	else if (want.ntext < CBENCH_TEXT_MAX && stubs->region_bytes)
		want.text[want.ntext++] = (struct cbench_range){ .start = in->image_bytes,
								  .bytes = stubs->region_bytes };
	if (out->base != in->base || stubs->region != in->image_bytes || stubs->region_bytes % PAGE_BYTES ||
	    out->image_bytes != in->image_bytes + stubs->region_bytes)
		return differs(why, why_bytes, "its size or base differs");
	if (want.ntext != out->ntext || memcmp(want.text, out->text, out->ntext * sizeof(out->text[0])))
		return differs(why, why_bytes, "its text is not the image's and the stubs'");
	if (out->nrelocs != in->nrelocs || memcmp(out->relocs, in->relocs, in->nrelocs * sizeof(*in->relocs)) ||
	    out->nentries != in->nentries ||
	    memcmp(out->entries, in->entries, in->nentries * sizeof(*in->entries)) || out->nfuncs != in->nfuncs)
		return differs(why, why_bytes, "its slots, entry points or functions are not the image's");
	return 0;
}

int cbench_kstack_patch_check(const struct cbench_kstack *ks, const struct cbench_kimage *in,
			      const struct cbench_kimage *out, const struct cbench_kstack_stubs *stubs,
			      char *why, size_t why_bytes)
{
	uint8_t *touched;
	int ret = check_shape(in, out, stubs, why, why_bytes);

	if (ret)
		return ret;
	touched = calloc(out->image_bytes, 1);
	if (!touched)
		return -ENOMEM;
	for (uint32_t i = 0; !ret && i < stubs->nstubs; i++) {
		const struct cbench_kstack_check *c = &ks->checks[stubs->check[i]];

		if (stubs->check[i] >= ks->nchecks || stubs->stub[i] < stubs->region ||
		    stubs->stub[i] + STUB_BYTES > out->image_bytes || stubs->from[i] + c->patch_bytes > in->image_bytes ||
		    memchr(touched + stubs->stub[i], 1, STUB_BYTES) ||
		    memchr(touched + stubs->from[i], 1, c->patch_bytes)) {
			ret = differs(why, why_bytes, "its stubs overlap or lie outside it");
			break;
		}
		memset(touched + stubs->stub[i], 1, STUB_BYTES);
		memset(touched + stubs->from[i], 1, c->patch_bytes);
		ret = check_stub(ks, in, out, stubs, i, why, why_bytes);
	}
	for (uint32_t i = 0; !ret && i < stubs->nled; i++) {
		uint64_t at = stubs->led[i], to_in, to_out;
		struct cbench_x86_insn a, b;
		uint32_t k = stubs->led_to[i];

		/* The same call or jump, now to the stub of the entry it reached. */
		if (at + 5 > in->image_bytes || memchr(touched + at, 1, 5) || k >= stubs->nstubs ||
		    decode_at(in, at, &a, &to_in) != 5 || decode_at(out, at, &b, &to_out) != 5 ||
		    in->bytes[at] != out->bytes[at] || (in->bytes[at] != 0xe8 && in->bytes[at] != 0xe9) ||
		    to_out != stubs->stub[k] || stub_entered_at(ks, stubs, to_in) != k)
			ret = differs(why, why_bytes, "the call at 0x%" PRIx64 " is not led to its callee's stub", at);
		memset(touched + at + 1, 1, 4);
	}
	for (uint64_t at = 0; !ret && at < out->image_bytes; at++) {
		uint8_t want = at < in->image_bytes ? in->bytes[at] : INT3;

		if (!touched[at] && out->bytes[at] != want)
			ret = differs(why, why_bytes, "its byte at 0x%" PRIx64 " changed", at);
	}
	free(touched);
	return ret;
}
