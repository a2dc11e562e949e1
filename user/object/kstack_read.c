// SPDX-License-Identifier: GPL-2.0
/*
 * kstack: each function's stack, read from its code (kstack.h).
 *
 * We follow every function from its entry, instruction by instruction,
 * along every branch, keeping how far %rsp is below where it was at the
 * entry (the return address): one instruction's effect is kstack_insn.c's
 * (push and pop, sub, add, lea and and on %rsp, leave and mov %rbp, %rsp
 * with %rbp followed from the mov %rsp, %rbp that set it; and the probe
 * loop of -fstack-clash-protection, as one frame); a call comes back where
 * it left if the callee returns at all.  Where paths meet, the deeper one
 * counts; a loop that leaves the
 * stack deeper each time round never settles and is refused, as are a
 * frame of run-time size (sub %rax, %rsp: alloca, a VLA), %rsp written any
 * other way (cbench_x86_writes() says which instructions write it), a
 * return with %rsp elsewhere than at the return address, and a jump
 * through a pointer inside a function (a jump table: -fno-jump-tables
 * builds have none).  Each function's calls and tail jumps (a jump out of
 * its symbol with the stack as at its entry) are its sites, with the depth
 * at each; the targets become functions of their own.
 *
 * Roots: every function symbol, every benchmark entry point, every
 * address in the code a RELATIVE slot holds, and every code address an
 * instruction takes (lea f(%rip)).  A callee that never returns has no
 * fall-through: we follow what comes after a call only once the callee
 * is known to return, so bytes after a call of a noreturn function, which
 * may be the next function's, are never read as this one's.
 *
 * Functions whose address escapes (a slot code or data may read, a lea)
 * are what a call through a pointer may reach: a GOT slot read only by
 * the calls and jumps through it (a PLT entry, -fno-plt calls) is a direct
 * call of what it holds; the descriptors' slots, which no code reads, make
 * no entry point a target.  What a function's address computed by
 * arithmetic may reach is not followed: docs/trust-model.md says so.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "object/kstack_parts.h"
#include "object/x86insn.h"

/* Times an instruction's state may deepen before its loop counts as unbounded. */
#define REVISITS_MAX 16
/* Instructions followed over all functions before we give up. */
#define STEPS_MAX (1u << 24)


struct visit {
	uint64_t key;			/* fn << 32 | offset, plus 1; 0: empty */
	struct kstack_state st;
	uint32_t revisits;
};

struct item {
	uint32_t fn;
	uint64_t at;
	struct kstack_state st;
	uint32_t callee;		/* pending: until this function returns */
};

/* A RIP-relative operand of the code: what it reaches, and how. */
struct ref {
	uint64_t target;
	bool through;			/* the operand of a call or jump through memory */
};

struct reader {
	const struct cbench_kimage *image;
	struct cbench_kstack *ks;
	struct cbench_kimage_func *syms;	/* image's, by offset */
	uint32_t nsyms;
	struct visit *visits;
	size_t visit_room, nvisits;
	struct item *work, *pending;
	size_t nwork, work_room, npending, pending_room;
	struct ref *refs;
	size_t nrefs, ref_room;
	uint64_t *targets;
	size_t ntargets, target_room;
	uint32_t fn_room;
	uint32_t steps;
};

/* Appends one element of size bytes to *array (room and count in elements); 0 or -ENOMEM. */
static int grow(void *array, size_t size, size_t *room, size_t count)
{
	void **p = array;
	size_t want = *room ? *room * 2 : 64;
	void *bigger;

	if (count < *room)
		return 0;
	bigger = realloc(*p, want * size);
	if (!bigger)
		return -ENOMEM;
	*p = bigger;
	*room = want;
	return 0;
}

static int compare_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int compare_sym(const void *a, const void *b)
{
	const struct cbench_kimage_func *x = a, *y = b;

	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

bool cbench_kstack_endbr(const struct cbench_kimage *image, uint64_t at)
{
	static const uint8_t endbr64[4] = { 0xf3, 0x0f, 0x1e, 0xfa };

	return at + 4 <= image->image_bytes && !memcmp(image->bytes + at, endbr64, 4);
}

/* The bytes of text from at to the end of its range, 0 outside text. */
static uint64_t text_left(const struct cbench_kimage *image, uint64_t at)
{
	for (uint32_t i = 0; i < image->ntext; i++) {
		const struct cbench_range *t = &image->text[i];

		if (at >= t->start && at - t->start < t->bytes)
			return t->bytes - (at - t->start);
	}
	return 0;
}

/* The symbol starting at at, or NULL. */
static const struct cbench_kimage_func *sym_at(const struct reader *r, uint64_t at)
{
	struct cbench_kimage_func key = { .offset = at };

	return bsearch(&key, r->syms, r->nsyms, sizeof(key), compare_sym);
}

/* Marks fn refused, with the sentence at the instruction at (the first reason stays). */
__attribute__((format(printf, 4, 5)))
static void refuse(struct reader *r, uint32_t fn, uint64_t at, const char *fmt, ...)
{
	struct cbench_kstack_fn *f = &r->ks->fns[fn];
	va_list ap;
	int n;

	if (f->failed)
		return;
	f->failed = true;
	va_start(ap, fmt);
	n = vsnprintf(f->why, sizeof(f->why), fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n < sizeof(f->why))
		snprintf(f->why + n, sizeof(f->why) - (size_t)n, " at 0x%" PRIx64 " of the object",
			 r->ks->base + at);
}

static int push_item(struct reader *r, uint32_t fn, uint64_t at, const struct kstack_state *st)
{
	if (grow(&r->work, sizeof(*r->work), &r->work_room, r->nwork))
		return -ENOMEM;
	r->work[r->nwork++] = (struct item){ .fn = fn, .at = at, .st = *st };
	return 0;
}

static struct visit *visit_slot(struct reader *r, uint64_t key);
static int visits_grow(struct reader *r);

/* The function entered at at, made (and its entry queued) if new; its index in *fn. */
static int fn_at(struct reader *r, uint64_t at, uint32_t *fn)
{
	struct cbench_kstack *ks = r->ks;
	const struct cbench_kimage_func *sym;
	struct cbench_kstack_fn *f;
	size_t room = r->fn_room;
	/* Functions are found by entry in the visits' table, as function UINT32_MAX. */
	uint64_t key = ((uint64_t)UINT32_MAX << 32 | at) + 1;
	struct visit *v;

	if (visits_grow(r))
		return -ENOMEM;
	v = visit_slot(r, key);
	if (v->key) {
		*fn = v->revisits;
		return 0;
	}
	if (grow(&ks->fns, sizeof(*ks->fns), &room, ks->nfns))
		return -ENOMEM;
	*v = (struct visit){ .key = key, .revisits = ks->nfns };
	r->nvisits++;
	r->fn_room = (uint32_t)room;
	f = &ks->fns[ks->nfns];
	memset(f, 0, sizeof(*f));
	f->at = at;
	sym = sym_at(r, at);
	if (sym) {
		snprintf(f->name, sizeof(f->name), "%s", sym->name);
		f->sym_lo = sym->offset;
		f->sym_hi = sym->offset + sym->bytes;
	}
	*fn = ks->nfns++;
	return push_item(r, *fn, at, &(struct kstack_state){ 0 });
}

/* Notes a branch target (kstack_graph.c keeps checks' jumps off them). */
static int target(struct reader *r, uint64_t at)
{
	if (grow(&r->targets, sizeof(*r->targets), &r->target_room, r->ntargets))
		return -ENOMEM;
	r->targets[r->ntargets++] = at;
	return 0;
}

static struct visit *visit_slot(struct reader *r, uint64_t key)
{
	size_t i = (key * 0x9e3779b97f4a7c15ULL) >> 20;

	for (i &= r->visit_room - 1; r->visits[i].key && r->visits[i].key != key; i = (i + 1) & (r->visit_room - 1))
		;
	return &r->visits[i];
}

static int visits_grow(struct reader *r)
{
	struct visit *old = r->visits;
	size_t old_room = r->visit_room;

	if (r->nvisits * 2 < r->visit_room)
		return 0;
	r->visit_room = old_room ? old_room * 2 : 4096;
	r->visits = calloc(r->visit_room, sizeof(*r->visits));
	if (!r->visits)
		return -ENOMEM;
	for (size_t i = 0; i < old_room; i++)
		if (old[i].key)
			*visit_slot(r, old[i].key) = old[i];
	free(old);
	return 0;
}

static bool same(const struct kstack_state *a, const struct kstack_state *b)
{
	return a->lo == b->lo && a->hi == b->hi && a->bp_known == b->bp_known &&
	       (!a->bp_known || a->bp == b->bp);
}

/*
 * Enters item's instruction with its state: 1 to follow it (*st the state
 * to follow it with, the deeper where paths meet), 0 if nothing changed,
 * -1 if its loop deepens the stack each time, -ENOMEM.
 */
static int enter(struct reader *r, const struct item *it, struct kstack_state *st)
{
	uint64_t key = ((uint64_t)it->fn << 32 | it->at) + 1;
	struct visit *v;
	struct kstack_state merged;

	if (visits_grow(r))
		return -ENOMEM;
	v = visit_slot(r, key);
	*st = it->st;
	if (!v->key) {
		*v = (struct visit){ .key = key, .st = *st };
		r->nvisits++;
		return 1;
	}
	merged = v->st;
	merged.lo = st->lo < merged.lo ? st->lo : merged.lo;
	merged.hi = st->hi > merged.hi ? st->hi : merged.hi;
	merged.bp_known = st->bp_known && merged.bp_known && st->bp == merged.bp;
	if (same(&merged, &v->st))
		return 0;
	if (++v->revisits > REVISITS_MAX)
		return -1;
	v->st = merged;
	*st = merged;
	return 1;
}

static int add_site(struct reader *r, uint32_t fn, const struct cbench_kstack_site *site)
{
	struct cbench_kstack_fn *f = &r->ks->fns[fn];
	size_t room = f->site_room;

	if (grow(&f->sites, sizeof(*f->sites), &room, f->nsites))
		return -ENOMEM;
	f->site_room = (uint32_t)room;
	f->sites[f->nsites++] = *site;
	return 0;
}

/* A call or tail jump of fn to to (a new function if need be). */
static int direct_site(struct reader *r, uint32_t fn, uint64_t at, uint64_t to, const struct kstack_state *st,
		       bool call, uint32_t *callee)
{
	int ret;

	if (!text_left(r->image, to)) {
		refuse(r, fn, at, "a %s outside the image's code", call ? "call" : "jump");
		return 1;
	}
	ret = target(r, to);
	ret = ret ? ret : fn_at(r, to, callee);
	if (ret)
		return ret;
	return add_site(r, fn, &(struct cbench_kstack_site){ .at = at, .depth = (uint64_t)st->hi,
							   .target = *callee, .call = call });
}

/* The GOT slot a call or jump through memory reads, if RIP-relative; else 0. */
static uint64_t slot_of(const struct cbench_x86_insn *insn, uint64_t at)
{
	if (!insn->pcrel_bytes || insn->mod != 0 || insn->rm != 5)
		return 0;
	return at + insn->length + (uint64_t)(int64_t)insn->disp;
}

static int note_ref(struct reader *r, uint64_t to, bool through)
{
	if (grow(&r->refs, sizeof(*r->refs), &r->ref_room, r->nrefs))
		return -ENOMEM;
	r->refs[r->nrefs++] = (struct ref){ .target = to, .through = through };
	return 0;
}

/* Whether a jump from fn to to, with the stack at st, leaves it: a tail call. */
static bool tail(const struct reader *r, uint32_t fn, uint64_t to, const struct kstack_state *st)
{
	const struct cbench_kstack_fn *f = &r->ks->fns[fn];

	if (st->lo != 0 || st->hi != 0 || to == f->at)
		return false;
	if (f->sym_hi)
		return to < f->sym_lo || to >= f->sym_hi;
	return sym_at(r, to) != NULL;
}

/* Where a call or jump through memory or a register goes: the site, 1 if none can follow. */
static int indirect_site(struct reader *r, const struct item *it, const struct cbench_x86_insn *insn,
			 const struct kstack_state *st, bool call)
{
	uint64_t slot = slot_of(insn, it->at);

	if (slot && note_ref(r, slot, true))
		return -ENOMEM;
	return add_site(r, it->fn, &(struct cbench_kstack_site){ .at = it->at, .depth = (uint64_t)st->hi,
							       .slot = slot, .target = KSTACK_INDIRECT,
							       .call = call });
}

/* fn returns: what waited for that goes on. */
static int returned(struct reader *r, uint32_t fn)
{
	size_t kept = 0;

	if (r->ks->fns[fn].returns)
		return 0;
	r->ks->fns[fn].returns = true;
	for (size_t i = 0; i < r->npending; i++) {
		if (r->pending[i].callee != fn) {
			r->pending[kept++] = r->pending[i];
			continue;
		}
		if (push_item(r, r->pending[i].fn, r->pending[i].at, &r->pending[i].st))
			return -ENOMEM;
	}
	r->npending = kept;
	return 0;
}

/* Goes on at to (a branch's target, noted) with st, or calls to in a tail jump. */
static int branch(struct reader *r, const struct item *it, uint64_t to, const struct kstack_state *st)
{
	uint32_t callee;
	int ret;

	if (tail(r, it->fn, to, st)) {
		ret = direct_site(r, it->fn, it->at, to, st, false, &callee);
		return ret > 0 ? 0 : ret;
	}
	ret = target(r, to);
	return ret ? ret : push_item(r, it->fn, to, st);
}

/* A direct call: its site, and what follows it once the callee is known to return. */
static int call(struct reader *r, const struct item *it, uint64_t to, uint64_t next, struct kstack_state *st)
{
	uint32_t callee;
	int ret;

	if (to == next) {
		/* call 1f; 1: pop: a push of the address of the next instruction. */
		st->lo += 8;
		st->hi += 8;
		return push_item(r, it->fn, next, st);
	}
	ret = direct_site(r, it->fn, it->at, to, st, true, &callee);
	if (ret)
		return ret > 0 ? 0 : ret;
	if (r->ks->fns[callee].returns)
		return push_item(r, it->fn, next, st);
	if (grow(&r->pending, sizeof(*r->pending), &r->pending_room, r->npending))
		return -ENOMEM;
	r->pending[r->npending++] = (struct item){ .fn = it->fn, .at = next, .st = *st, .callee = callee };
	return 0;
}

/*
 * Control flow of the one-byte map's instruction at it: 0 if it ends the
 * path or was followed here, 1 if it falls through (as any other), or -errno.
 */
static int control(struct reader *r, const struct item *it, const struct cbench_x86_insn *insn,
		   struct kstack_state *st, uint64_t next)
{
	uint8_t op = insn->opcode;
	uint64_t to = next + (uint64_t)insn->imm;
	int ret;

	if (op == 0xc3) {
		if (st->lo || st->hi) {
			refuse(r, it->fn, it->at, "returns with %%rsp %" PRId64 " bytes below its return "
			       "address", st->hi);
			return 0;
		}
		return returned(r, it->fn);
	}
	if (op == 0xc2 || op == 0xca || op == 0xcb || op == 0xcf) {
		refuse(r, it->fn, it->at, "returns with ret $n, a far return or iret, which cbench does "
		       "not follow");
		return 0;
	}
	if (op == 0xcc)
		return 0;
	if (op == 0xe9 || op == 0xeb)
		return branch(r, it, to, st);
	if ((op >= 0x70 && op <= 0x7f) || (op >= 0xe0 && op <= 0xe3)) {
		ret = branch(r, it, to, st);
		return ret ? ret : 1;
	}
	if (op == 0xe8)
		return call(r, it, to, next, st);
	if (op != 0xff || insn->reg < 2 || insn->reg > 5)
		return 1;
	if (insn->reg == 2) {
		ret = indirect_site(r, it, insn, st, true);
		return ret ? ret : 1;
	}
	if (insn->reg == 4 && !st->lo && !st->hi)
		return indirect_site(r, it, insn, st, false);
	if (insn->reg == 4)
		refuse(r, it->fn, it->at, "jumps through a pointer inside a function (a jump table?), "
		       "where cbench cannot follow its stack: build it with -fno-jump-tables");
	else
		refuse(r, it->fn, it->at, "makes a far call or jump, which cbench does not follow");
	return 0;
}

/* Notes a RIP-relative operand's target (a call or jump through memory notes its own). */
static int rip_operand(struct reader *r, const struct item *it, const struct cbench_x86_insn *insn)
{
	bool through = insn->map == CBENCH_X86_MAP_ONE && !insn->vex && insn->opcode == 0xff &&
		       (insn->reg == 2 || insn->reg == 4);

	if (!insn->pcrel_bytes || insn->mod != 0 || insn->rm != 5 || through || !insn->has_modrm)
		return 0;
	return note_ref(r, it->at + insn->length + (uint64_t)(int64_t)insn->disp, false);
}

/*
 * A stack-clash probe loop at it, followed as the one frame it makes (the
 * loop's own code, taken instruction by instruction, deepens the stack
 * each time round): 1 if it was one, 0 if not, -ENOMEM.
 */
static int probe_loop(struct reader *r, const struct item *it, struct kstack_state *st, uint64_t left)
{
	struct cbench_kstack_fn *f = &r->ks->fns[it->fn];
	int64_t frame;
	size_t n = cbench_kstack_probe_loop(r->image->bytes + it->at, (size_t)left, &frame);

	if (!n)
		return 0;
	st->lo += frame;
	st->hi += frame;
	if (st->hi > 0 && (uint64_t)st->hi > f->frame)
		f->frame = (uint64_t)st->hi;
	return push_item(r, it->fn, it->at + n, st) ? -ENOMEM : 1;
}

/* Follows one instruction of a function with the state it is reached with. */
static int step(struct reader *r, const struct item *it)
{
	const struct cbench_kimage *image = r->image;
	struct cbench_kstack_fn *f;
	struct cbench_x86_insn insn;
	struct kstack_state st;
	char why[256];
	uint64_t left = text_left(image, it->at), next;
	bool one, two;
	int ret = enter(r, it, &st);

	if (ret <= 0) {
		if (ret == -1)
			refuse(r, it->fn, it->at, "leaves the stack deeper each time round a loop");
		return ret == -ENOMEM ? ret : 0;
	}
	if (r->ks->fns[it->fn].failed)
		return 0;
	if (++r->steps > STEPS_MAX)
		return -E2BIG;
	if (!left || !cbench_x86_decode(image->bytes + it->at, left < 15 ? (size_t)left : 15, &insn)) {
		refuse(r, it->fn, it->at, "runs into bytes that are not code cbench can decode");
		return 0;
	}
	next = it->at + insn.length;
	ret = probe_loop(r, it, &st, left);
	if (ret)
		return ret < 0 ? ret : 0;
	ret = rip_operand(r, it, &insn);
	if (ret)
		return ret;
	one = insn.map == CBENCH_X86_MAP_ONE && !insn.vex;
	two = insn.map == CBENCH_X86_MAP_0F && !insn.vex;
	if (one) {
		ret = control(r, it, &insn, &st, next);
		if (ret <= 0)
			return ret;
	}
	/* ud2, ud1, ud0 end the path; jcc rel32 branches. */
	if (two && (insn.opcode == 0x0b || insn.opcode == 0xb9 || insn.opcode == 0xff))
		return 0;
	if (two && insn.opcode >= 0x80 && insn.opcode <= 0x8f) {
		ret = branch(r, it, next + (uint64_t)insn.imm, &st);
		if (ret)
			return ret;
	} else if (!(one && insn.opcode == 0xff && (insn.reg == 2 || insn.reg == 3)) &&
		   cbench_kstack_effect(&insn, &st, why, sizeof(why))) {
		refuse(r, it->fn, it->at, "%s", why);
		return 0;
	}
	f = &r->ks->fns[it->fn];
	if (st.hi > 0 && (uint64_t)st.hi > f->frame)
		f->frame = (uint64_t)st.hi;
	return push_item(r, it->fn, next, &st);
}

/* Follows every queued instruction. */
static int drain(struct reader *r)
{
	while (r->nwork) {
		struct item it = r->work[--r->nwork];
		int ret = step(r, &it);

		if (ret)
			return ret;
	}
	return 0;
}

static uint64_t load64(const struct cbench_kimage *image, uint64_t at)
{
	uint64_t v;

	memcpy(&v, image->bytes + at, sizeof(v));
	return v;
}

static int compare_ref(const void *a, const void *b)
{
	const struct ref *x = a, *y = b;

	return x->target < y->target ? -1 : x->target > y->target;
}

/* Whether code reads slot other than to call or jump through it (or reads into range at, bytes). */
static bool read_by_code(const struct reader *r, uint64_t at, uint64_t bytes)
{
	for (size_t i = 0; i < r->nrefs && r->refs[i].target < at + bytes; i++)
		if (r->refs[i].target >= at && !r->refs[i].through)
			return true;
	return false;
}

/* The RELATIVE slot at at, if one. */
static bool is_slot(const struct cbench_kimage *image, uint64_t at)
{
	return bsearch(&at, image->relocs, image->nrelocs, sizeof(at), compare_u64) != NULL;
}

static int take(struct reader *r, uint64_t at)
{
	uint32_t fn;
	int ret = fn_at(r, at, &fn);

	if (ret)
		return ret;
	r->ks->fns[fn].taken = true;
	return 0;
}

/*
 * Whether slot is a field of a benchmark's descriptor that no code can
 * read: code reads neither the descriptor nor the cbench_descs section
 * that points at it.  Only cbenchctl and cbench.ko read descriptors.
 */
static bool unread_descriptor(const struct reader *r, uint64_t slot)
{
	const struct cbench_kimage *image = r->image;

	for (uint32_t i = 0; i < image->nentries; i++) {
		const struct cbench_kimage_entry *e = &image->entries[i];

		if (slot >= e->desc_at && slot - e->desc_at < e->desc_bytes)
			return !read_by_code(r, e->desc_at, e->desc_bytes) &&
			       !(image->descs_bytes && read_by_code(r, image->descs_offset, image->descs_bytes));
	}
	return false;
}

/*
 * The functions a call through a pointer may reach: code addresses a slot
 * holds (but a GOT slot code only calls or jumps through, and the
 * descriptors' if no code reads them) or an instruction takes.
 */
static int taken(struct reader *r)
{
	const struct cbench_kimage *image = r->image;
	int ret;

	qsort(r->refs, r->nrefs, sizeof(*r->refs), compare_ref);
	for (uint32_t i = 0; i < image->nrelocs; i++) {
		uint64_t slot = image->relocs[i], to = load64(image, slot);
		bool desc = unread_descriptor(r, slot);
		struct ref key = { .target = slot };
		bool called = bsearch(&key, r->refs, r->nrefs, sizeof(key), compare_ref) != NULL;

		if (!text_left(image, to) || desc || (called && !read_by_code(r, slot, 8)))
			continue;
		ret = take(r, to);
		if (ret)
			return ret;
	}
	for (size_t i = 0; i < r->nrefs; i++) {
		if (r->refs[i].through || !text_left(image, r->refs[i].target))
			continue;
		ret = take(r, r->refs[i].target);
		if (ret)
			return ret;
	}
	return 0;
}

/* Sites through a GOT slot no code reads otherwise: calls of what it holds. */
static int through_slots(struct reader *r)
{
	struct cbench_kstack *ks = r->ks;

	for (uint32_t i = 0; i < ks->nfns; i++) {
		for (uint32_t j = 0; j < ks->fns[i].nsites; j++) {
			struct cbench_kstack_site *site = &ks->fns[i].sites[j];
			uint64_t to;
			uint32_t fn;
			int ret;

			if (!site->slot || site->target != KSTACK_INDIRECT || !is_slot(r->image, site->slot) ||
			    read_by_code(r, site->slot, 8))
				continue;
			to = load64(r->image, site->slot);
			if (!text_left(r->image, to))
				continue;
			ret = target(r, to);
			ret = ret ? ret : fn_at(r, to, &fn);
			if (ret)
				return ret;
			/* fns may have moved. */
			ks->fns[i].sites[j].target = fn;
		}
	}
	return 0;
}

/* The benchmarks' entry points and every function symbol, followed. */
static int roots(struct reader *r)
{
	const struct cbench_kimage *image = r->image;
	uint32_t fn;
	int ret = 0;

	for (uint32_t i = 0; i < image->nentries && !ret; i++) {
		const struct cbench_kimage_entry *e = &image->entries[i];
		uint64_t at[] = { e->run, e->setup, e->before_rep, e->after_rep };
		bool has[] = { true, e->has_setup, e->has_before_rep, e->has_after_rep };

		for (size_t j = 0; j < 4 && !ret; j++) {
			if (!has[j])
				continue;
			ret = fn_at(r, at[j], &fn);
			if (!ret)
				r->ks->fns[fn].entry = true;
		}
	}
	for (uint32_t i = 0; i < r->nsyms && !ret; i++)
		ret = fn_at(r, r->syms[i].offset, &fn);
	return ret;
}

/* ks->taken: the taken functions' entries, by offset. */
static int list_taken(struct cbench_kstack *ks)
{
	ks->taken = calloc(ks->nfns + 1, sizeof(*ks->taken));
	if (!ks->taken)
		return -ENOMEM;
	for (uint32_t i = 0; i < ks->nfns; i++)
		if (ks->fns[i].taken)
			ks->taken[ks->ntaken++] = ks->fns[i].at;
	qsort(ks->taken, ks->ntaken, sizeof(*ks->taken), compare_u64);
	return 0;
}

int cbench_kstack_read(const struct cbench_kimage *image, struct cbench_kstack *ks, uint64_t **targets,
		       uint32_t *ntargets)
{
	struct reader r = { .image = image, .ks = ks };
	uint32_t before;
	int ret = -ENOMEM;

	r.syms = malloc((image->nfuncs + 1) * sizeof(*r.syms));
	if (!r.syms)
		goto out;
	memcpy(r.syms, image->funcs, image->nfuncs * sizeof(*r.syms));
	r.nsyms = image->nfuncs;
	qsort(r.syms, r.nsyms, sizeof(*r.syms), compare_sym);
	ret = roots(&r);
	/* Until nothing new: what the code takes and calls through slots is code to follow too. */
	do {
		before = ks->nfns;
		ret = ret ? ret : drain(&r);
		ret = ret ? ret : taken(&r);
		ret = ret ? ret : through_slots(&r);
		ret = ret ? ret : drain(&r);
	} while (!ret && ks->nfns != before);
	if (!ret)
		ret = list_taken(ks);
out:
	free(r.syms);
	free(r.visits);
	free(r.work);
	free(r.pending);
	free(r.refs);
	if (ret) {
		free(r.targets);
		return ret;
	}
	qsort(r.targets, r.ntargets, sizeof(*r.targets), compare_u64);
	*targets = r.targets;
	*ntargets = (uint32_t)r.ntargets;
	return 0;
}
