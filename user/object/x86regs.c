// SPDX-License-Identifier: GPL-2.0
/*
 * Which general-purpose registers an instruction writes (x86insn.h,
 * cbench_x86_writes()): what the stack analysis (kstack.c) needs to know
 * that nothing but the instructions it follows moves %rsp, and which
 * instructions change %rbp.
 *
 * By opcode map and opcode, the destination is ModRM.reg, ModRM.rm (a
 * register only with mod 3), the register in the opcode's low bits, VEX's
 * vvvv, or registers the instruction names implicitly.  The encodings are
 * Intel's SDM, volume 2, appendix A; unit tests hold the result against
 * objdump's operands over glibc, libm and libcrypto.  An opcode we do not
 * list writes no general-purpose register (the SSE, AVX and x87 ones
 * write vector or x87 registers); where one we list might, we count it.
 */
#include <stdbool.h>

#include "object/x86insn.h"

#define GPR(n) (1u << (n))
#define RAX GPR(CBENCH_X86_RAX)
#define RCX GPR(CBENCH_X86_RCX)
#define RDX GPR(CBENCH_X86_RDX)
#define RBX GPR(CBENCH_X86_RBX)
#define RSP GPR(CBENCH_X86_RSP)
#define RBP GPR(CBENCH_X86_RBP)
#define RSI GPR(CBENCH_X86_RSI)
#define RDI GPR(CBENCH_X86_RDI)
#define R11 GPR(11)

/* Whether the legacy instruction's register operands are bytes. */
static bool byte_operands(const struct cbench_x86_insn *insn)
{
	uint8_t op = insn->opcode;

	if (insn->vex)
		return false;
	if (insn->map == CBENCH_X86_MAP_0F)
		return (op >= 0x90 && op <= 0x9f) || op == 0xb0 || op == 0xc0;
	if (insn->map != CBENCH_X86_MAP_ONE)
		return false;
	if (op < 0x40)
		return !(op & 1) && (op & 7) < 6;
	switch (op) {
	case 0x80: case 0x82: case 0x84: case 0x86: case 0x88: case 0x8a: case 0xa8:
	case 0xc0: case 0xc6: case 0xd0: case 0xd2: case 0xf6: case 0xfe:
		return true;
	}
	return op >= 0xb0 && op <= 0xb7;
}

/*
 * Register n of insn's encoding, extended by ext: without a REX prefix, a
 * byte register's encodings 4 to 7 are %ah, %ch, %dh and %bh (parts of
 * registers 0 to 3), not %spl, %bpl, %sil and %dil.
 */
static uint32_t gpr(const struct cbench_x86_insn *insn, unsigned int n, unsigned int ext)
{
	if (n >= 4 && n < 8 && !ext && !insn->has_rex && byte_operands(insn))
		n -= 4;
	return GPR(n | ext);
}

/* ModRM.reg as a register, with REX.R (and REX2's R4, EVEX's R'). */
static uint32_t reg(const struct cbench_x86_insn *insn)
{
	return gpr(insn, insn->reg, (insn->rex & 4 ? 8 : 0) | (insn->rex_hi & 4 ? 16 : 0));
}

/* ModRM.rm, if it names a register (mod 3), with REX.B (and REX2's B4). */
static uint32_t rm(const struct cbench_x86_insn *insn)
{
	if (!insn->has_modrm || insn->mod != 3)
		return 0;
	return gpr(insn, insn->rm, (insn->rex & 1 ? 8 : 0) | (!insn->evex && insn->rex_hi & 1 ? 16 : 0));
}

/* The register in the opcode's low three bits, with REX.B. */
static uint32_t low(const struct cbench_x86_insn *insn)
{
	return gpr(insn, insn->opcode & 7, (insn->rex & 1 ? 8 : 0) | (insn->rex_hi & 1 ? 16 : 0));
}

static uint32_t vvvv(const struct cbench_x86_insn *insn)
{
	return GPR(insn->vvvv & 31);
}

/* add, or, adc, sbb, and, sub, xor, cmp (00-3D): op & 7 says which operand. */
static uint32_t arithmetic(const struct cbench_x86_insn *insn)
{
	if (insn->opcode >= 0x38)
		return 0;
	switch (insn->opcode & 7) {
	case 0: case 1: return rm(insn);
	case 2: case 3: return reg(insn);
	case 4: case 5: return RAX;
	}
	return 0;
}

/* Groups 3 (F6, F7), 4 (FE) and 5 (FF): ModRM.reg picks the instruction. */
static uint32_t groups_3_to_5(const struct cbench_x86_insn *insn)
{
	if (insn->opcode == 0xf6 || insn->opcode == 0xf7) {
		if (insn->reg < 2)
			return 0;		/* test */
		return insn->reg < 4 ? rm(insn) : RAX | RDX;	/* not, neg; mul, div */
	}
	if (insn->opcode == 0xff) {
		switch (insn->reg) {
		case 2: case 3: case 6: return RSP;	/* call, far call, push */
		case 4: case 5: return 0;		/* jmp */
		}
	}
	return rm(insn);				/* inc, dec */
}

static uint32_t one_byte_high(const struct cbench_x86_insn *insn)
{
	uint8_t op = insn->opcode;

	if (op >= 0xb0 && op <= 0xbf)
		return low(insn);			/* mov $imm, r */
	if (op >= 0xd8 && op <= 0xdf)			/* x87: fnstsw %ax alone */
		return op == 0xdf && insn->mod == 3 && insn->reg == 4 ? RAX : 0;
	switch (op) {
	case 0xa0: case 0xa1: case 0x9f: case 0x98: case 0xd7:
	case 0xe4: case 0xe5: case 0xec: case 0xed:
		return RAX;				/* mov moffs, lahf, cbw, xlat, in */
	case 0x99: return RDX;				/* cwd, cdq, cqo */
	case 0xa4: case 0xa5: case 0xa6: case 0xa7:
		return RSI | RDI | RCX;			/* movs, cmps */
	case 0xaa: case 0xab: case 0xae: case 0xaf:
		return RDI | RCX;			/* stos, scas */
	case 0xac: case 0xad: return RAX | RSI | RCX;	/* lods */
	case 0xc0: case 0xc1: case 0xd0: case 0xd1: case 0xd2: case 0xd3:
	case 0xc6: case 0xc7:
		return rm(insn) | (op == 0xc7 ? RAX : 0);	/* shifts, mov $imm; xbegin */
	case 0xc2: case 0xc3: case 0xca: case 0xcb: case 0xcf: case 0xe8:
	case 0x9c: case 0x9d: case 0x68: case 0x6a:
		return RSP;				/* ret, iret, call, pushf, popf, push */
	case 0xc8: case 0xc9: return RSP | RBP;		/* enter, leave */
	case 0xe0: case 0xe1: case 0xe2: return RCX;	/* loop */
	case 0xf6: case 0xf7: case 0xfe: case 0xff:
		return groups_3_to_5(insn);
	case 0x6c: case 0x6d: case 0x6e: case 0x6f:
		return RSI | RDI | RCX;			/* ins, outs */
	}
	return 0;
}

static uint32_t one_byte(const struct cbench_x86_insn *insn)
{
	uint8_t op = insn->opcode;

	if (op < 0x40)
		return arithmetic(insn);
	if (op >= 0x50 && op <= 0x57)
		return RSP;				/* push r */
	if (op >= 0x58 && op <= 0x5f)
		return RSP | low(insn);			/* pop r */
	if (op >= 0x91 && op <= 0x97)
		return RAX | low(insn);			/* xchg r, %rax */
	switch (op) {
	case 0x63: case 0x69: case 0x6b: case 0x8a: case 0x8b: case 0x8d:
		return reg(insn);			/* movsxd, imul, mov, lea */
	case 0x80: case 0x81: case 0x83:
		return insn->reg == 7 ? 0 : rm(insn);	/* cmp writes nothing */
	case 0x86: case 0x87: return reg(insn) | rm(insn);	/* xchg */
	case 0x88: case 0x89: case 0x8c: return rm(insn);	/* mov */
	case 0x8f: return RSP | rm(insn);		/* pop r/m */
	case 0x90: return insn->rex & 1 ? RAX | low(insn) : 0;	/* xchg %r8, %rax; nop */
	}
	return one_byte_high(insn);
}

/* 0F 01 with a register ModRM: those that write general-purpose registers. */
static uint32_t group7(const struct cbench_x86_insn *insn)
{
	if (insn->mod != 3)
		return 0;
	switch (0xc0 | insn->reg << 3 | insn->rm) {
	case 0xd0: case 0xee: return RAX | RDX;		/* xgetbv, rdpkru */
	case 0xf9: return RAX | RDX | RCX;		/* rdtscp */
	case 0xfd: return RAX | RDX;			/* rdpru */
	case 0xf8: return 0;				/* swapgs */
	}
	return insn->reg == 4 ? rm(insn) : 0;		/* smsw */
}

static uint32_t two_byte_high(const struct cbench_x86_insn *insn)
{
	uint8_t op = insn->opcode;

	if (op >= 0x90 && op <= 0x9f)
		return rm(insn);			/* setcc */
	if (op >= 0xc8 && op <= 0xcf)
		return low(insn);			/* bswap */
	switch (op) {
	case 0xa0: case 0xa1: case 0xa8: case 0xa9: return RSP;	/* push, pop fs, gs */
	case 0xa2: return RAX | RBX | RCX | RDX;	/* cpuid */
	case 0xa4: case 0xa5: case 0xab: case 0xac: case 0xad: case 0xb3: case 0xbb:
		return rm(insn);			/* shld, shrd, bts, btr, btc */
	case 0xba: return insn->reg == 4 ? 0 : rm(insn);	/* bt writes nothing */
	case 0xae:					/* rdfsbase, rdgsbase */
		return insn->rep && insn->mod == 3 && insn->reg < 2 ? rm(insn) : 0;
	case 0xaf: case 0xb2: case 0xb4: case 0xb5: case 0xb6: case 0xb7: case 0xb8:
	case 0xbc: case 0xbd: case 0xbe: case 0xbf: case 0xc5: case 0xd7:
		return reg(insn);			/* imul, lss, movzx, popcnt, bsf, ... */
	case 0xb0: case 0xb1: return RAX | rm(insn);	/* cmpxchg */
	case 0xc0: case 0xc1: return reg(insn) | rm(insn);	/* xadd */
	case 0xc7:					/* cmpxchg16b; rdrand, rdseed, rdpid */
		return insn->reg == 1 ? RAX | RDX : insn->reg >= 6 ? rm(insn) : 0;
	}
	return 0;
}

static uint32_t two_byte(const struct cbench_x86_insn *insn)
{
	uint8_t op = insn->opcode;

	if (op >= 0x40 && op <= 0x4f)
		return reg(insn);			/* cmov */
	switch (op) {
	case 0x00: return insn->reg < 2 ? rm(insn) : 0;	/* sldt, str */
	case 0x01: return group7(insn);
	case 0x02: case 0x03: case 0x50: return reg(insn);	/* lar, lsl, movmsk */
	case 0x05: return RCX | R11;			/* syscall */
	case 0x07: case 0x34: case 0x35: return RSP;	/* sysret, sysenter, sysexit */
	case 0x1e: return insn->rep && insn->mod == 3 && insn->reg == 1 ? rm(insn) : 0;	/* rdssp */
	case 0x20: case 0x21: return rm(insn);		/* mov from cr, dr */
	case 0x2c: case 0x2d:				/* cvt(t)ss2si, cvt(t)sd2si */
		return insn->rep || insn->repne ? reg(insn) : 0;
	case 0x31: case 0x32: case 0x33: return RAX | RDX;	/* rdtsc, rdmsr, rdpmc */
	case 0x37: return RAX | RBX | RCX;		/* getsec */
	case 0x78: return insn->opsize || insn->repne ? 0 : rm(insn);	/* vmread; extrq */
	case 0x7e: return insn->rep ? 0 : rm(insn);	/* movd, movq to r/m; movq xmm */
	}
	return two_byte_high(insn);
}

static uint32_t map_0f38(const struct cbench_x86_insn *insn)
{
	switch (insn->opcode) {
	case 0xf0: return reg(insn);			/* movbe to a register, crc32 */
	case 0xf1: return insn->repne ? reg(insn) : 0;	/* crc32; movbe to memory */
	case 0xf6: return insn->opsize || insn->rep ? reg(insn) : 0;	/* adcx, adox */
	}
	return 0;
}

/* pextrb, pextrw, pextrd, pextrq, extractps: to r/m (0F 3A 14 to 17). */
static uint32_t extract(const struct cbench_x86_insn *insn)
{
	return insn->opcode >= 0x14 && insn->opcode <= 0x17 ? rm(insn) : 0;
}

/* VEX and EVEX, maps 0F, 0F 38, 0F 3A (and EVEX's map 5, FP16). */
static uint32_t vex_map(const struct cbench_x86_insn *insn, unsigned int map)
{
	uint8_t op = insn->opcode;

	if (map == 1 || map == 5) {
		switch (op) {
		case 0x7e: return insn->pp == 1 ? rm(insn) : 0;	/* vmovd, vmovq, vmovw */
		case 0x2c: case 0x2d: case 0x78: case 0x79:	/* vcvt(t)s?2(u)si */
			return insn->pp >= 2 || map == 5 ? reg(insn) : 0;
		case 0x50: case 0xc5: case 0xd7: case 0x93:	/* vmovmsk, vpextrw, kmov */
			return reg(insn);
		}
		return 0;
	}
	if (map == 3)
		return op == 0xf0 ? reg(insn) : extract(insn);	/* rorx */
	if (map != 2)
		return 0;
	switch (op) {
	case 0xf2: case 0xf5: case 0xf7: return reg(insn);	/* andn, bzhi, pdep, pext, bextr, shlx */
	case 0xf3: return vvvv(insn);				/* blsr, blsmsk, blsi */
	case 0xf6: return insn->pp == 3 ? reg(insn) | vvvv(insn) : 0;	/* mulx */
	}
	return 0;
}

/* XOP's TBM and LWP instructions (map 9, 10), the only ones with integer results. */
static uint32_t xop(const struct cbench_x86_insn *insn, unsigned int map)
{
	if (map == 9 && (insn->opcode == 0x01 || insn->opcode == 0x02))
		return vvvv(insn);			/* blcfill, blsfill, ... */
	if (map == 9 && insn->opcode == 0x12)
		return rm(insn);			/* slwpcb */
	if (map == 10 && insn->opcode == 0x10)
		return reg(insn);			/* bextr $imm */
	return 0;
}

uint32_t cbench_x86_writes(const struct cbench_x86_insn *insn)
{
	if (insn->vex) {
		/* XOP's maps are 8 to 10; EVEX's 4 is APX's promoted legacy
		 * instructions, with a new destination in vvvv, and 7 is APX's
		 * too: counted whole (no compiler that builds for us emits them). */
		if (insn->vex_map >= 8)
			return xop(insn, insn->vex_map);
		if (insn->vex_map == 4 || insn->vex_map == 7)
			return reg(insn) | rm(insn) | vvvv(insn);
		return vex_map(insn, insn->vex_map);
	}
	switch (insn->map) {
	case CBENCH_X86_MAP_ONE: return one_byte(insn);
	case CBENCH_X86_MAP_0F: return two_byte(insn);
	case CBENCH_X86_MAP_0F38: return map_0f38(insn);
	case CBENCH_X86_MAP_0F3A: return extract(insn);
	case CBENCH_X86_MAP_OTHER: return 0;	/* 3DNow!: MMX registers */
	}
	return 0;
}
