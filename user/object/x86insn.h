/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Just enough of an x86-64 instruction decoder to walk a benchmark's code
 * and name what it must not run in ring 0 (x86insn.c): the length of every
 * instruction of the 64-bit mode's encodings (legacy, REX, REX2, VEX, EVEX,
 * XOP, 3DNow!), its opcode map, opcode and ModRM.
 */
#ifndef _CBENCH_X86INSN_H
#define _CBENCH_X86INSN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Opcode maps: the one-byte map, 0F, 0F 38, 0F 3A, and the others. */
enum cbench_x86_map {
	CBENCH_X86_MAP_ONE,
	CBENCH_X86_MAP_0F,
	CBENCH_X86_MAP_0F38,
	CBENCH_X86_MAP_0F3A,
	CBENCH_X86_MAP_OTHER,		/* 3DNow!, XOP, EVEX maps 4 to 7 */
};

struct cbench_x86_insn {
	uint8_t length;
	enum cbench_x86_map map;
	uint8_t opcode;
	bool has_modrm;
	uint8_t mod, reg, rm;		/* of the ModRM byte, if has_modrm */
	bool vex;			/* VEX, EVEX or XOP: no legacy system opcodes */
	bool rep;			/* an F3 prefix */
	bool repne;			/* an F2 prefix */
	bool opsize;			/* a 66 prefix */
	uint8_t imm8;			/* the first immediate byte, if any */
	uint8_t imm_bytes;		/* the (first) immediate's width, 0 if none */
	int64_t imm;			/* its value, sign-extended */
	/* REX's W, R, X, B (8, 4, 2, 1), or REX2's and VEX's, EVEX's, XOP's
	 * (uninverted); rex_hi: APX's R4, X4, B4 (4, 2, 1), or EVEX's R' (4). */
	uint8_t rex, rex_hi;
	bool has_rex;			/* a REX or REX2 prefix, even one of no bits */
	/* VEX, EVEX and XOP: the extra register operand (uninverted, 0-31)
	 * and the implied prefix (0 none, 1 66, 2 F3, 3 F2). */
	uint8_t vvvv, pp;
	uint8_t vex_map;		/* VEX's, EVEX's or XOP's map number */
	bool evex;
	/* ModRM's SIB byte, if has_sib, and displacement (0 without). */
	bool has_sib;
	uint8_t scale, index, base;
	int32_t disp;
	/*
	 * A field relative to the instruction's end, if pcrel_bytes: a
	 * branch's rel8 or rel32, or a RIP-relative disp32, pcrel_at bytes
	 * into the instruction (what object/layout.c moves code by).
	 */
	uint8_t pcrel_at, pcrel_bytes;
};

/*
 * Decodes the instruction at code (at most bytes long) into *insn.
 * Returns its length, or 0 if the bytes are not a valid 64-bit-mode
 * instruction or run past bytes.
 */
size_t cbench_x86_decode(const uint8_t *code, size_t bytes, struct cbench_x86_insn *insn);

/* General-purpose registers, numbered as their encodings (bit n of a
 * cbench_x86_writes() mask). */
enum cbench_x86_gpr {
	CBENCH_X86_RAX, CBENCH_X86_RCX, CBENCH_X86_RDX, CBENCH_X86_RBX,
	CBENCH_X86_RSP, CBENCH_X86_RBP, CBENCH_X86_RSI, CBENCH_X86_RDI,
};

/*
 * The general-purpose registers insn may write (bit n: register n, r16 to
 * r31 included), explicit operands and implicit ones: %rsp for push, pop,
 * call, ret, enter and leave, %rax and %rdx for mul, and so on
 * (object/x86regs.c).  Where an encoding is not known to leave a register
 * operand alone, it counts as written: the stack analysis (object/kstack.c)
 * refuses code that may write %rsp in a way it does not follow, so a
 * register too many costs a refusal, never a miss.
 */
uint32_t cbench_x86_writes(const struct cbench_x86_insn *insn);

/*
 * Why insn must not run in ring 0 although it may pass the user-mode
 * rehearsal, in a phrase ("int $0x80: ..."), written to why; NULL if it
 * may.  Returns why or NULL.
 */
const char *cbench_x86_ring0_hazard(const struct cbench_x86_insn *insn, char *why,
				    size_t why_bytes);

#endif /* _CBENCH_X86INSN_H */
