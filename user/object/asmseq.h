/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An instruction or a short sequence given as assembly (AT&T syntax, GNU
 * as), for `cbenchctl insn`: read far enough to know its registers, which
 * it writes and reads, what it needs of the CPU and of the privilege it
 * runs at; then the chain that measures its latency (through its output)
 * and the independent copies that measure its throughput (its written
 * registers renamed per copy); then the benchmark object's source that
 * runs both (asmgen.c).  Pure: no assembler here, nothing run.
 */
#ifndef _CBENCH_ASMSEQ_H
#define _CBENCH_ASMSEQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CBENCH_ASM_MAX_INSNS 32
#define CBENCH_ASM_MAX_OPERANDS 4
#define CBENCH_ASM_TEXT 160

enum cbench_asm_class {
	CBENCH_ASM_NONE,	/* not a register */
	CBENCH_ASM_GPR,		/* rax ... r15, every width */
	CBENCH_ASM_VEC,		/* xmm, ymm, zmm 0-31 */
	CBENCH_ASM_OTHER,	/* k, mm, st, tmm, segment, control, debug: never renamed */
};

/* A register: its class, number (0-15 or 0-31) and the width its name says. */
struct cbench_asm_reg {
	enum cbench_asm_class cls;
	uint8_t num;
	uint16_t bits;		/* 8, 16, 32, 64; 128, 256, 512 */
	bool high_byte;		/* ah, bh, ch, dh: no other register has one */
};

struct cbench_asm_operand {
	enum { CBENCH_OP_REG, CBENCH_OP_IMM, CBENCH_OP_MEM, CBENCH_OP_OTHER } kind;
	struct cbench_asm_reg reg;		/* OP_REG */
	struct cbench_asm_reg base, index;	/* OP_MEM; cls NONE where absent */
};

struct cbench_asm_insn {
	char text[CBENCH_ASM_TEXT];	/* as given, trimmed */
	char mnemonic[24];		/* lower case, prefixes (lock, rep) dropped */
	bool label;			/* "1:" and the like: no instruction */
	struct cbench_asm_operand op[CBENCH_ASM_MAX_OPERANDS];
	int nops;
	bool dest_read;			/* its destination is a source too (add), not only written (mov) */
	bool vex;			/* VEX or EVEX (a v-mnemonic) */
};

struct cbench_asm_seq {
	struct cbench_asm_insn insn[CBENCH_ASM_MAX_INSNS];
	int n;				/* instructions and labels */
	uint32_t gpr_named, vec_named;	/* every register mentioned, by number */
	uint32_t gpr_written, vec_written;	/* destinations */
	bool implicit;			/* an instruction with implicit register operands */
	bool reads_flags;		/* adc, cmov, setcc, ...: copies stay chained through them */
	bool any_vex, any_zmm, any_ymm;
};

/*
 * Reads text (instructions separated by ';' or newlines) into seq.  0, or
 * -EINVAL with a one-line reason in why: an operand it cannot read, too
 * many instructions, nothing at all.
 */
int cbench_asm_parse(const char *text, struct cbench_asm_seq *seq, char *why, size_t why_bytes);

/* Where the sequence is to run: refusals depend on it. */
struct cbench_asm_target {
	bool ring0;		/* in cbench.ko, at CPL 0 */
	uint32_t features;	/* CBENCH_FEAT_* of this CPU (machine/uarch.h) */
	bool avx_usable;	/* the OS saves YMM state (XCR0) */
	bool avx512_usable;	/* and ZMM and opmask state */
};

/*
 * Whether seq can run on target: 0, or -EPERM (a privileged instruction in
 * user mode, an instruction that would stop or unsettle the CPU, the
 * harness's stack or control flow), or -ENOTSUP (an instruction this CPU
 * lacks, by CPUID), each with a reason naming the instruction.  A
 * privileged instruction that only reads in ring 0 sets *ring0_only.
 */
int cbench_asm_check(const struct cbench_asm_seq *seq, const struct cbench_asm_target *target,
		     bool *ring0_only, char *why, size_t why_bytes);

/*
 * The instance a latency chain repeats: the sequence as given, where its
 * output already feeds its input (add %rbx, %rax), or, for one instruction
 * whose destination it only writes (popcnt %rbx, %rax), with its first
 * source of the destination's class renamed to it (popcnt %rax, %rax).
 * 0 with the instance in out (one instruction per line), and in how what
 * was done; -EINVAL with why where no chain can be made (no register
 * output, no source of its class).
 */
int cbench_asm_chain(const struct cbench_asm_seq *seq, char *out, size_t out_bytes, char *how,
		     size_t how_bytes, char *why, size_t why_bytes);

/*
 * Copies of the sequence for its throughput, each with the registers it
 * writes renamed to registers no copy reads, so that no copy waits on
 * another; as many as the free registers allow, up to max.  avoid is a
 * register (GPR number) no copy may use (the loop counter), or -1; nvec is
 * 16 or 32.  0 with the copies in out (one instruction per line) and their
 * number in *copies, and in held_how what was done where one instruction
 * that only writes its destination also named it as a source (those
 * sources read a register no copy writes; "" otherwise); -EINVAL with why where it cannot rename (a high-byte
 * register, an implicit operand, fewer than two copies' registers).
 */
int cbench_asm_copies(const struct cbench_asm_seq *seq, int max, int avoid, int nvec, char *out,
		      size_t out_bytes, int *copies, char *held_how, size_t held_bytes, char *why,
		      size_t why_bytes);

/* The sequence as given, one instruction per line (for --copies N). */
void cbench_asm_render(const struct cbench_asm_seq *seq, char *out, size_t out_bytes);

/* A GPR the sequence never names, for the loop counter (r15 first), or -1. */
int cbench_asm_free_gpr(const struct cbench_asm_seq *seq);

#endif /* _CBENCH_ASMSEQ_H */
