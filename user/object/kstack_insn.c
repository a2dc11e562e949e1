// SPDX-License-Identifier: GPL-2.0
/*
 * kstack: what one instruction does to the stack (kstack_parts.h,
 * cbench_kstack_effect()), for kstack_read.c, which follows calls, jumps
 * and returns itself.
 *
 * We follow %rsp through the ways compilers move it: push and pop, add
 * and sub of a constant, and of a power of two (an aligned frame, at most
 * that much deeper), lea of a constant off %rsp, and %rsp set back from
 * %rbp (mov, lea, leave) where %rbp was set from %rsp in the same function
 * (mov %rsp, %rbp; lea d(%rsp), %rbp).  Any other instruction that writes
 * %rsp (cbench_x86_writes() says which do) we cannot follow; sub of a
 * register from it is a frame of run-time size, which we name.
 */
#include <stdarg.h>
#include <stdio.h>

#include "object/kstack_parts.h"

#define RSP_BIT (1u << CBENCH_X86_RSP)
#define RBP_BIT (1u << CBENCH_X86_RBP)

__attribute__((format(printf, 3, 4)))
static void say(char *why, size_t why_bytes, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, why_bytes, fmt, ap);
	va_end(ap);
}

/* Whether ModRM.reg (rm, with mod 3) names register n (rsp, rbp). */
static bool reg_is(const struct cbench_x86_insn *insn, unsigned int n)
{
	return insn->reg == n && !(insn->rex & 4) && !(insn->rex_hi & 4);
}

static bool rm_is(const struct cbench_x86_insn *insn, unsigned int n)
{
	return insn->mod == 3 && insn->rm == n && !(insn->rex & 1) && !(insn->rex_hi & 1);
}

/* Whether insn's memory operand is disp(%rsp), with no index. */
static bool at_rsp(const struct cbench_x86_insn *insn)
{
	return insn->mod != 3 && insn->has_sib && insn->base == 4 && insn->index == 4 && !(insn->rex & 3);
}

/* Whether insn's memory operand is disp(%rbp). */
static bool at_rbp(const struct cbench_x86_insn *insn)
{
	return insn->mod != 3 && insn->mod != 0 && !insn->has_sib && insn->rm == 5 && !(insn->rex & 1);
}

static void deepen(struct kstack_state *st, int64_t bytes)
{
	st->lo += bytes;
	st->hi += bytes;
}

/* %rsp set from %rbp (at bp's depth, less disp): 0, or 1 refused. */
static int from_bp(struct kstack_state *st, char *why, size_t why_bytes, int64_t disp)
{
	if (!st->bp_known) {
		say(why, why_bytes, "sets %%rsp from %%rbp where %%rbp was not set from %%rsp in "
		    "this function");
		return 1;
	}
	st->lo = st->hi = st->bp - disp;
	return 0;
}

/* push and pop (of 8 bytes, 2 with 66): 0, 1 refused, 2 not one. */
static int push_pop(const struct cbench_x86_insn *insn, struct kstack_state *st, char *why,
		    size_t why_bytes)
{
	bool one = insn->map == CBENCH_X86_MAP_ONE, two = insn->map == CBENCH_X86_MAP_0F;
	int64_t bytes = insn->opsize && !(insn->rex & 8) ? 2 : 8;
	uint8_t op = insn->opcode;
	unsigned int into = 16;		/* the register a pop writes; 16: none */

	if ((one && ((op >= 0x50 && op <= 0x57) || op == 0x68 || op == 0x6a || op == 0x9c ||
		     (op == 0xff && insn->reg == 6))) || (two && (op == 0xa0 || op == 0xa8))) {
		deepen(st, bytes);
		return 0;
	}
	if (one && op >= 0x58 && op <= 0x5f)
		into = (op & 7) | (insn->rex & 1 ? 8 : 0) | (insn->rex_hi & 1 ? 16 : 0);
	else if (one && op == 0x8f && insn->reg == 0)
		into = insn->mod == 3 ? insn->rm | (insn->rex & 1 ? 8 : 0) : 16;
	else if (!(one && op == 0x9d) && !(two && (op == 0xa1 || op == 0xa9)))
		return 2;
	if (into == CBENCH_X86_RSP) {
		say(why, why_bytes, "pops %%rsp, which cbench cannot follow");
		return 1;
	}
	deepen(st, -bytes);
	if (into == CBENCH_X86_RBP)
		st->bp_known = false;
	if (st->lo < 0) {
		say(why, why_bytes, "pops its own return address");
		return 1;
	}
	return 0;
}

/* add, sub and and of an immediate to %rsp: 0, 1 refused, 2 not one. */
static int arithmetic(const struct cbench_x86_insn *insn, struct kstack_state *st)
{
	int64_t imm = insn->imm;

	if (insn->map != CBENCH_X86_MAP_ONE || (insn->opcode != 0x81 && insn->opcode != 0x83) ||
	    !rm_is(insn, CBENCH_X86_RSP) || !(insn->rex & 8))
		return 2;
	if (insn->reg == 5 && imm >= -(int64_t)KSTACK_INFINITE && imm <= (int64_t)KSTACK_INFINITE) {
		deepen(st, imm);
		return 0;
	}
	if (insn->reg == 0 && imm >= -(int64_t)KSTACK_INFINITE && imm <= (int64_t)KSTACK_INFINITE) {
		deepen(st, -imm);
		return 0;
	}
	/* and $-2^k, %rsp: at most 2^k - 1 deeper. */
	if (insn->reg == 4 && imm < 0 && imm >= -4096 && !(-imm & (-imm - 1))) {
		st->hi += -imm - 1;
		return 0;
	}
	return 2;
}

/* Moves of %rbp to %rsp and back, lea into either: 0, 1 refused, 2 not one. */
static int frame_moves(const struct cbench_x86_insn *insn, struct kstack_state *st, char *why,
		       size_t why_bytes)
{
	uint8_t op = insn->opcode;
	bool wide = insn->rex & 8;

	if (insn->map != CBENCH_X86_MAP_ONE || !wide)
		return 2;
	if ((op == 0x89 && rm_is(insn, CBENCH_X86_RSP) && reg_is(insn, CBENCH_X86_RBP)) ||
	    (op == 0x8b && reg_is(insn, CBENCH_X86_RSP) && rm_is(insn, CBENCH_X86_RBP)))
		return from_bp(st, why, why_bytes, 0);
	if ((op == 0x89 && rm_is(insn, CBENCH_X86_RBP) && reg_is(insn, CBENCH_X86_RSP)) ||
	    (op == 0x8b && reg_is(insn, CBENCH_X86_RBP) && rm_is(insn, CBENCH_X86_RSP))) {
		st->bp = st->hi;
		st->bp_known = st->lo == st->hi;
		return 0;
	}
	if (op != 0x8d)
		return 2;
	if (reg_is(insn, CBENCH_X86_RSP) && at_rsp(insn)) {
		deepen(st, -(int64_t)insn->disp);
		return 0;
	}
	if (reg_is(insn, CBENCH_X86_RSP) && at_rbp(insn))
		return from_bp(st, why, why_bytes, insn->disp);
	if (reg_is(insn, CBENCH_X86_RBP) && at_rsp(insn)) {
		st->bp = st->hi - insn->disp;
		st->bp_known = st->lo == st->hi;
		return 0;
	}
	return 2;
}

int cbench_kstack_effect(const struct cbench_x86_insn *insn, struct kstack_state *st, char *why,
			 size_t why_bytes)
{
	uint32_t w = cbench_x86_writes(insn);
	int ret = 2;

	if (!(w & (RSP_BIT | RBP_BIT)))
		return 0;
	if (!insn->vex) {
		ret = push_pop(insn, st, why, why_bytes);
		ret = ret == 2 ? arithmetic(insn, st) : ret;
		ret = ret == 2 ? frame_moves(insn, st, why, why_bytes) : ret;
	}
	if (ret != 2)
		return ret;
	if (insn->map == CBENCH_X86_MAP_ONE && !insn->vex && insn->opcode == 0xc9) {
		if (from_bp(st, why, why_bytes, 0))
			return 1;
		deepen(st, -8);
		st->bp_known = false;
		return 0;
	}
	if (!(w & RSP_BIT)) {
		st->bp_known = false;
		return 0;
	}
	if (insn->map == CBENCH_X86_MAP_ONE && !insn->vex && (insn->rex & 8) &&
	    ((insn->opcode == 0x29 && rm_is(insn, CBENCH_X86_RSP)) ||
	     (insn->opcode == 0x2b && reg_is(insn, CBENCH_X86_RSP)))) {
		say(why, why_bytes, "has a stack frame of run-time size (a register subtracted from "
		    "%%rsp: alloca() or a variable-length array, which the kernel flags' -Werror=vla "
		    "-Werror=alloca refuse)");
		return 1;
	}
	say(why, why_bytes, "writes %%rsp in a way cbench does not follow (push, pop, call, ret, "
	    "leave, and add, sub, and or lea of a constant are followed)");
	return 1;
}


/* Whether insn is op's form with register operand n (ModRM.reg) and %rsp (ModRM.rm), 64-bit. */
static bool rsp_with(const struct cbench_x86_insn *insn, uint8_t op, unsigned int n)
{
	return insn->map == CBENCH_X86_MAP_ONE && !insn->vex && insn->opcode == op && (insn->rex & 8) &&
	       insn->mod == 3 && (insn->reg | (insn->rex & 4 ? 8 : 0)) == n && rm_is(insn, CBENCH_X86_RSP);
}

size_t cbench_kstack_probe_loop(const uint8_t *code, size_t bytes, int64_t *frame)
{
	struct cbench_x86_insn lea, sub, or, cmp, jne;
	size_t at = 0, loop, n;
	unsigned int scratch;

	/* lea -N(%rsp), %reg, N a multiple of the 4 KiB the loop probes by. */
	n = cbench_x86_decode(code, bytes, &lea);
	scratch = lea.reg | (lea.rex & 4 ? 8 : 0);
	if (!n || lea.vex || lea.map != CBENCH_X86_MAP_ONE || lea.opcode != 0x8d || !(lea.rex & 8) ||
	    !at_rsp(&lea) || lea.disp >= 0 || -(int64_t)lea.disp % 4096 || lea.rex_hi ||
	    scratch == CBENCH_X86_RSP || scratch == CBENCH_X86_RBP)
		return 0;
	loop = at = n;
	/* sub $4096, %rsp; or $0, (%rsp); cmp %reg, %rsp; jne to the sub. */
	n = cbench_x86_decode(code + at, bytes - at, &sub);
	if (!n || sub.vex || sub.map != CBENCH_X86_MAP_ONE || (sub.opcode != 0x81 && sub.opcode != 0x83) ||
	    sub.reg != 5 || !rm_is(&sub, CBENCH_X86_RSP) || !(sub.rex & 8) || sub.imm != 4096)
		return 0;
	at += n;
	n = cbench_x86_decode(code + at, bytes - at, &or);
	if (!n || or.vex || or.map != CBENCH_X86_MAP_ONE || or.opcode != 0x83 || or.reg != 1 || or.imm ||
	    !at_rsp(&or))
		return 0;
	at += n;
	n = cbench_x86_decode(code + at, bytes - at, &cmp);
	if (!n || !(rsp_with(&cmp, 0x39, scratch) || (cmp.opcode == 0x3b && cmp.map == CBENCH_X86_MAP_ONE &&
	    !cmp.vex && (cmp.rex & 8) && reg_is(&cmp, CBENCH_X86_RSP) && cmp.mod == 3 &&
	    (cmp.rm | (cmp.rex & 1 ? 8 : 0)) == scratch)))
		return 0;
	at += n;
	n = cbench_x86_decode(code + at, bytes - at, &jne);
	if (!n || jne.vex || !((jne.map == CBENCH_X86_MAP_ONE && jne.opcode == 0x75) ||
			       (jne.map == CBENCH_X86_MAP_0F && jne.opcode == 0x85)) ||
	    (int64_t)(at + n) + jne.imm != (int64_t)loop)
		return 0;
	*frame = -(int64_t)lea.disp;
	return at + n;
}
