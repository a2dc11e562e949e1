// SPDX-License-Identifier: GPL-2.0
/*
 * The lengths of x86-64 instructions, and the few a benchmark must not run
 * in ring 0 (x86insn.h).
 *
 * An instruction is prefixes, an opcode of one of the maps, a ModRM byte
 * with its SIB and displacement where the opcode has one, and an
 * immediate.  The tables below say, for each opcode of the one-byte and
 * 0F maps, which of those follow it; the rest (0F 38, 0F 3A, VEX, EVEX,
 * XOP) follow simple rules.  The encodings are Intel's SDM, volume 2,
 * appendix A, and AMD's APM, volume 3 (XOP, 3DNow!).
 */
#include <stdio.h>
#include <string.h>

#include "object/x86insn.h"

/*
 * What follows an opcode, one letter each, sixteen to a row:
 *   .  nothing         m  ModRM           b  imm8            w  imm16
 *   z  imm16/32 (66)   d  imm32 (a rel32) v  imm16/32/64     a  moffs (8, 4 with 67)
 *   M  ModRM, imm8     Z  ModRM, imm16/32 e  imm16, imm8 (enter)
 *   g  ModRM, imm8 if ModRM.reg < 2 (F6)   G  ModRM, imm16/32 if ModRM.reg < 2 (F7)
 *   p  a prefix        x  not an instruction in 64-bit mode
 *   ?  decoded elsewhere (0F, VEX, EVEX, XOP, REX2, the 0F 38 and 0F 3A maps)
 */
static const char *const one_byte[16] = {
	"mmmmbzxxmmmmbzx?", "mmmmbzxxmmmmbzxx", "mmmmbzpxmmmmbzpx", "mmmmbzpxmmmmbzpx",
	"pppppppppppppppp", "................", "xx?mppppzZbM....", "bbbbbbbbbbbbbbbb",
	"MZxMmmmmmmmmmmmm", "..........x.....", "aaaa....bz......", "bbbbbbbbvvvvvvvv",
	"MMw.??MZe.w..b..", "mmmmxxx.mmmmmmmm", "bbbbbbbbddxb....", "p.pp..gG......mm",
};

static const char *const two_byte[16] = {
	"mmmmx.....x.xm.M", "mmmmmmmmmmmmmmmm", "mmmmxxxxmmmmmmmm", "......x.?x?xxxxx",
	"mmmmmmmmmmmmmmmm", "mmmmmmmmmmmmmmmm", "mmmmmmmmmmmmmmmm", "MMMMmmm.mmxxmmmm",
	"dddddddddddddddd", "mmmmmmmmmmmmmmmm", "...mMmxx...mMmmm", "mmmmmmmmmmMmmmmm",
	"mmMmMMMm........", "mmmmmmmmmmmmmmmm", "mmmmmmmmmmmmmmmm", "mmmmmmmmmmmmmmmm",
};

/* The prefixes the decoder has seen before the opcode. */
struct prefixes {
	bool opsize, addr32, rep, repne, rexw, has_rex;
	uint8_t rex, rex_hi;		/* REX's (REX2's) W, R, X, B; REX2's R4, X4, B4 */
};

static bool legacy_prefix(uint8_t b, struct prefixes *px)
{
	switch (b) {
	case 0x66:
		px->opsize = true;
		return true;
	case 0x67:
		px->addr32 = true;
		return true;
	case 0xf3:
		px->rep = true;
		return true;
	case 0xf2:
		px->repne = true;
		return true;
	case 0xf0: case 0x2e: case 0x36: case 0x3e: case 0x26: case 0x64: case 0x65:
		return true;
	}
	return false;
}

/* The n-byte little-endian value at p, sign-extended. */
static int64_t signed_at(const uint8_t *p, size_t n)
{
	uint64_t v = 0;

	for (size_t k = n; k-- > 0;)
		v = v << 8 | p[k];
	if (n && n < 8 && (v >> (8 * n - 1)) & 1)
		v |= ~(uint64_t)0 << (8 * n);
	return (int64_t)v;
}

/* Notes the immediate of n bytes at code[i]. */
static void note_imm(const uint8_t *code, size_t i, size_t n, struct cbench_x86_insn *insn)
{
	insn->imm_bytes = (uint8_t)n;
	insn->imm8 = n ? code[i] : 0;
	/* enter's imm16, imm8: its frame size. */
	insn->imm = signed_at(code + i, n == 3 ? 2 : n);
}

/* ModRM at code[i] and its SIB and displacement: the index past them, or 0. */
static size_t modrm(const uint8_t *code, size_t bytes, size_t i, struct cbench_x86_insn *insn)
{
	size_t disp = 0;

	if (i >= bytes)
		return 0;
	insn->has_modrm = true;
	insn->mod = code[i] >> 6;
	insn->reg = (code[i] >> 3) & 7;
	insn->rm = code[i] & 7;
	i++;
	if (insn->mod != 3) {
		if (insn->rm == 4) {
			if (i >= bytes)
				return 0;
			insn->has_sib = true;
			insn->scale = code[i] >> 6;
			insn->index = (code[i] >> 3) & 7;
			insn->base = code[i] & 7;
			if ((code[i] & 7) == 5 && insn->mod == 0)
				disp = 4;
			i++;
		}
		if (insn->mod == 0 && insn->rm == 5) {
			/* RIP-relative (no SIB): the displacement counts from the end. */
			disp = 4;
			insn->pcrel_at = (uint8_t)i;
			insn->pcrel_bytes = 4;
		}
		else if (insn->mod == 1)
			disp = 1;
		else if (insn->mod == 2)
			disp = 4;
	}
	if (i + disp > bytes)
		return 0;
	insn->disp = (int32_t)signed_at(code + i, disp);
	return i + disp;
}

/* Bytes of the immediate a table letter names, after ModRM (read for g, G). */
static size_t immediate(char kind, const struct prefixes *px, const struct cbench_x86_insn *insn)
{
	/* REX.W makes the operand 64 bits, whatever 66 says: its immediate is 32. */
	size_t z = px->opsize && !px->rexw ? 2 : 4;

	switch (kind) {
	case 'b': case 'M':
		return 1;
	case 'w':
		return 2;
	case 'z': case 'Z':
		return z;
	case 'd':
		return 4;
	case 'v':
		return px->rexw ? 8 : z;
	case 'a':
		return px->addr32 ? 4 : 8;
	case 'e':
		return 3;
	case 'g':
		return insn->reg < 2 ? 1 : 0;
	case 'G':
		return insn->reg < 2 ? z : 0;
	}
	return 0;
}

/* Whether the immediate of map's opcode op is a branch displacement: jcc,
 * loop, jrcxz, jmp and call, short and near. */
static bool relative_branch(enum cbench_x86_map map, uint8_t op)
{
	if (map == CBENCH_X86_MAP_0F)
		return op >= 0x80 && op <= 0x8f;
	return map == CBENCH_X86_MAP_ONE &&
	       ((op >= 0x70 && op <= 0x7f) || (op >= 0xe0 && op <= 0xe3) || (op >= 0xe8 && op <= 0xeb &&
		op != 0xea));
}

/* The rest of a legacy-encoded instruction from its opcode at code[i]. */
static size_t legacy(const uint8_t *code, size_t bytes, size_t i, enum cbench_x86_map map,
		     const struct prefixes *px, struct cbench_x86_insn *insn)
{
	const char *const *table = map == CBENCH_X86_MAP_ONE ? one_byte : two_byte;
	uint8_t op = code[i];
	char kind = table[op >> 4][op & 15];
	size_t imm;

	insn->map = map;
	insn->opcode = op;
	i++;
	if (kind == 'x' || kind == 'p' || kind == '?')
		return 0;
	/* 3DNow!: 0F 0F ModRM then its opcode as an imm8. */
	if (map == CBENCH_X86_MAP_0F && op == 0x0f)
		insn->map = CBENCH_X86_MAP_OTHER;
	if (map == CBENCH_X86_MAP_0F && op >= 0x20 && op <= 0x23) {
		/* Moves to and from control and debug registers ignore ModRM.mod. */
		if (i >= bytes)
			return 0;
		insn->has_modrm = true;
		insn->mod = 3;
		insn->reg = (code[i] >> 3) & 7;
		insn->rm = code[i] & 7;
		i++;
	} else if (strchr("mMZgG", kind)) {
		i = modrm(code, bytes, i, insn);
		if (!i)
			return 0;
	}
	imm = immediate(kind, px, insn);
	/* SSE4a's extrq and insertq with immediates: 66 or F2 0F 78. */
	if (map == CBENCH_X86_MAP_0F && op == 0x78 && (px->opsize || px->repne))
		imm = 2;
	if (i + imm > bytes)
		return 0;
	note_imm(code, i, imm, insn);
	if (relative_branch(map, op)) {
		insn->pcrel_at = (uint8_t)i;
		insn->pcrel_bytes = (uint8_t)imm;
	}
	return i + imm;
}

/* 0F 38 and 0F 3A: ModRM always, an imm8 in 0F 3A. */
static size_t three_byte(const uint8_t *code, size_t bytes, size_t i,
			 struct cbench_x86_insn *insn)
{
	bool map3 = code[i] == 0x3a;

	if (i + 1 >= bytes)
		return 0;
	insn->map = map3 ? CBENCH_X86_MAP_0F3A : CBENCH_X86_MAP_0F38;
	insn->opcode = code[i + 1];
	i = modrm(code, bytes, i + 2, insn);
	if (!i || (map3 && i + 1 > bytes))
		return 0;
	note_imm(code, i, map3 ? 1 : 0, insn);
	return map3 ? i + 1 : i;
}

/* Whether a VEX/EVEX map-1 opcode takes an imm8 (as its legacy 0F twin does). */
static bool vex_map1_imm8(uint8_t op)
{
	return (op >= 0x70 && op <= 0x73) || op == 0xc2 || (op >= 0xc4 && op <= 0xc6);
}

/*
 * The register fields of the VEX (C4, C5), EVEX (62) or XOP (8F) prefix at
 * p, whose payload is there to read: R, X, B and W uninverted into rex (and
 * EVEX's R' into rex_hi), vvvv (with EVEX's V'), pp.
 */
static void vex_fields(const uint8_t *p, struct cbench_x86_insn *insn)
{
	uint8_t b1 = p[1], b2 = p[0] == 0xc5 ? p[1] : p[2];

	insn->vex = true;
	insn->evex = p[0] == 0x62;
	insn->rex = (uint8_t)(!(b1 & 0x80) << 2);
	if (p[0] != 0xc5)
		insn->rex |= (uint8_t)((!(b1 & 0x40) << 1) | !(b1 & 0x20) | (b2 & 0x80) >> 4);
	insn->vvvv = (uint8_t)((~b2 >> 3) & 15);
	insn->pp = b2 & 3;
	if (insn->evex) {
		insn->rex_hi = (uint8_t)(!(b1 & 0x10) << 2);
		insn->vvvv |= (uint8_t)(!(p[3] & 8) << 4);
	}
}

/*
 * VEX (C4, C5), EVEX (62) and XOP (8F) at code[i]: the payload, the
 * opcode, ModRM (but for vzeroupper and vzeroall) and the immediate its map
 * takes.
 */
static size_t vex(const uint8_t *code, size_t bytes, size_t i, const struct prefixes *px,
		  struct cbench_x86_insn *insn)
{
	uint8_t lead = code[i];
	size_t payload = lead == 0xc5 ? 1 : lead == 0x62 ? 3 : 2, imm = 0;
	unsigned int map;
	uint8_t op;

	if (i + payload + 1 >= bytes)
		return 0;
	map = lead == 0xc5 ? 1 : lead == 0x62 ? code[i + 1] & 7 : code[i + 1] & 0x1f;
	op = code[i + payload + 1];
	vex_fields(code + i, insn);
	insn->vex_map = (uint8_t)map;
	insn->opcode = op;
	insn->map = map == 1 ? CBENCH_X86_MAP_0F : map == 2 ? CBENCH_X86_MAP_0F38 :
		    map == 3 ? CBENCH_X86_MAP_0F3A : CBENCH_X86_MAP_OTHER;
	i += payload + 2;
	if (lead == 0x8f) {
		if (map < 8 || map > 10)
			return 0;
		imm = map == 8 ? 1 : map == 10 ? 4 : 0;
	} else if (lead != 0x62 && (map < 1 || map > 3)) {
		return 0;
	} else if (map == 3) {
		imm = 1;
	} else if (map == 1 && vex_map1_imm8(op)) {
		imm = 1;
	} else if (map == 4) {
		/* APX's promoted legacy instructions keep their immediates. */
		char kind = one_byte[op >> 4][op & 15];

		i = modrm(code, bytes, i, insn);
		if (!i || i + immediate(kind, px, insn) > bytes)
			return 0;
		note_imm(code, i, immediate(kind, px, insn), insn);
		return i + immediate(kind, px, insn);
	}
	if (!(lead != 0x62 && lead != 0x8f && map == 1 && op == 0x77)) {
		i = modrm(code, bytes, i, insn);
		if (!i)
			return 0;
	}
	if (i + imm > bytes)
		return 0;
	note_imm(code, i, imm, insn);
	return i + imm;
}

/* APX's REX2 at code[i]: D5, a payload byte (its top bit picks the 0F map), the opcode. */
static size_t rex2(const uint8_t *code, size_t bytes, size_t i, struct prefixes *px,
		   struct cbench_x86_insn *insn)
{
	px->rexw = code[i + 1] & 8;
	px->has_rex = true;
	px->rex = code[i + 1] & 15;
	px->rex_hi = (code[i + 1] >> 4) & 7;
	return legacy(code, bytes, i + 2, code[i + 1] & 0x80 ? CBENCH_X86_MAP_0F :
		      CBENCH_X86_MAP_ONE, px, insn);
}

size_t cbench_x86_decode(const uint8_t *code, size_t bytes, struct cbench_x86_insn *insn)
{
	struct prefixes px = { 0 };
	size_t i = 0, end;

	memset(insn, 0, sizeof(*insn));
	for (; i < bytes && i < 15; i++) {
		if (legacy_prefix(code[i], &px)) {
			/* A REX counts only just before the opcode. */
			px.rexw = false;
			px.has_rex = false;
			px.rex = 0;
		} else if ((code[i] & 0xf0) == 0x40) {
			px.rexw = code[i] & 8;
			px.has_rex = true;
			px.rex = code[i] & 15;
		} else {
			break;
		}
	}
	if (i >= bytes || i >= 15)
		return 0;
	insn->rep = px.rep;
	insn->repne = px.repne;
	insn->opsize = px.opsize;
	if (code[i] == 0xc4 || code[i] == 0xc5 || code[i] == 0x62 ||
	    (code[i] == 0x8f && i + 1 < bytes && (code[i + 1] & 0x1f) >= 8))
		end = vex(code, bytes, i, &px, insn);
	else if (code[i] == 0xd5 && i + 2 < bytes)
		end = rex2(code, bytes, i, &px, insn);
	else if (code[i] == 0x0f && i + 1 < bytes && (code[i + 1] == 0x38 || code[i + 1] == 0x3a))
		end = three_byte(code, bytes, i + 1, insn);
	else if (code[i] == 0x0f && i + 1 < bytes)
		end = legacy(code, bytes, i + 1, CBENCH_X86_MAP_0F, &px, insn);
	else
		end = legacy(code, bytes, i, CBENCH_X86_MAP_ONE, &px, insn);
	if (!end || end > 15)
		return 0;
	if (!insn->vex) {
		insn->has_rex = px.has_rex;
		insn->rex = px.rex;
		insn->rex_hi = px.rex_hi;
	}
	insn->length = (uint8_t)end;
	return end;
}

/* 0F 01 with a register ModRM: the system instructions a benchmark has no use for. */
static const char *group7_register(uint8_t modrm)
{
	switch (modrm) {
	case 0xf8: return "swapgs";
	case 0xd1: return "xsetbv";
	case 0xc1: return "vmcall";
	case 0xc2: return "vmlaunch";
	case 0xc3: return "vmresume";
	case 0xc4: return "vmxoff";
	case 0xd8: return "vmrun";
	case 0xd9: return "vmmcall";
	case 0xda: return "vmload";
	case 0xdb: return "vmsave";
	case 0xdc: return "stgi";
	case 0xdd: return "clgi";
	case 0xde: return "skinit";
	case 0xdf: return "invlpga";
	}
	return NULL;
}

/* The 0F-map instruction that would change the machine's state in ring 0, or NULL. */
static const char *system_0f(const struct cbench_x86_insn *insn)
{
	static const char *const ldt_tr[8] = { [2] = "lldt", [3] = "ltr" };
	static const char *const table_loads[8] = { [2] = "lgdt", [3] = "lidt", [6] = "lmsw",
						    [7] = "invlpg" };

	switch (insn->opcode) {
	case 0x05: return "syscall";
	case 0x07: return "sysret";
	case 0x34: return "sysenter";
	case 0x35: return "sysexit";
	case 0x06: return "clts";
	case 0x08: return "invd";
	case 0x09: return "wbinvd";
	case 0x30: return "wrmsr";
	case 0x22: return "a move to a control register";
	case 0x23: return "a move to a debug register";
	case 0x00: return ldt_tr[insn->reg];
	case 0x01:
		if (insn->mod == 3)
			return insn->reg == 6 ? "lmsw" : group7_register((uint8_t)(0xc0 |
					insn->reg << 3 | insn->rm));
		return table_loads[insn->reg];
	case 0xae:
		if (insn->rep && insn->mod == 3 && (insn->reg == 2 || insn->reg == 3))
			return insn->reg == 2 ? "wrfsbase" : "wrgsbase";
		return NULL;
	}
	return NULL;
}

/* The one-byte-map instruction that would change the machine's state in ring 0, or NULL. */
static const char *system_one_byte(const struct cbench_x86_insn *insn)
{
	switch (insn->opcode) {
	case 0xcf: return "iret";
	case 0xe4: case 0xe5: case 0xec: case 0xed: return "in";
	case 0xe6: case 0xe7: case 0xee: case 0xef: return "out";
	case 0x6c: case 0x6d: return "ins";
	case 0x6e: case 0x6f: return "outs";
	}
	return NULL;
}

const char *cbench_x86_ring0_hazard(const struct cbench_x86_insn *insn, char *why,
				    size_t why_bytes)
{
	const char *what = NULL;

	if (insn->vex)
		return NULL;
	if (insn->map == CBENCH_X86_MAP_ONE && insn->opcode == 0xcd && insn->imm8 == 3) {
		snprintf(why, why_bytes, "int $3 (cd 03), the two-byte breakpoint, which the kernel "
			 "does not stop in ring 0 (6.1's kprobes run it on from its second byte): "
			 "use int3 (cc) or __builtin_trap()");
		return why;
	}
	if (insn->map == CBENCH_X86_MAP_ONE && insn->opcode == 0xcd) {
		snprintf(why, why_bytes, "int $0x%02x, which in ring 0 enters the kernel's handler "
			 "of vector 0x%02x as if the kernel had raised it", insn->imm8, insn->imm8);
		return why;
	}
	if (insn->map == CBENCH_X86_MAP_ONE && insn->opcode == 0xf1) {
		snprintf(why, why_bytes, "int1 (f1), which traps in user mode but which the kernel "
			 "ignores in ring 0");
		return why;
	}
	if (insn->map == CBENCH_X86_MAP_ONE)
		what = system_one_byte(insn);
	else if (insn->map == CBENCH_X86_MAP_0F)
		what = system_0f(insn);
	else if (insn->map == CBENCH_X86_MAP_0F38 && insn->opcode == 0x82 && insn->opsize)
		what = "invpcid";
	if (!what)
		return NULL;
	snprintf(why, why_bytes, "%s, a system instruction: user mode refuses it, ring 0 runs it "
		 "with the kernel's privileges", what);
	return why;
}
