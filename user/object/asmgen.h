/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The benchmark object `cbenchctl insn` measures: kernels that run an
 * assembly instance (asmseq.h) unrolled in a loop, written as C with
 * top-level asm (cbench_asm_write()) and built kernel-safe by the C
 * compiler and the GNU assembler at run time (cbench_asm_build()), so the
 * same object runs in user mode and in ring 0.
 *
 * What a kernel's instance finds when it starts (and --help says): every
 * general register but %rsp and the loop counter holds the address M of
 * the middle of a 64 KiB scratch area whose every 8 bytes hold M (so a
 * load through any register, at any offset within 32 KiB, reads M: `mov
 * (%rax), %rax` chases itself); every vector register holds 1.0 in each
 * 64-bit lane (set with EVEX, VEX or legacy SSE, as the kernel uses them and
 * the CPU allows); k1-k7 are all ones where AVX-512 is usable.  --init runs
 * after that, once a call, before the loop.
 */
#ifndef _CBENCH_ASMGEN_H
#define _CBENCH_ASMGEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Bytes of the scratch area; its middle is M. */
#define CBENCH_ASM_SCRATCH_BYTES 65536

/* One kernel: a loop whose body is instances copies of instance. */
struct cbench_asm_kernel {
	char name[40];			/* the benchmark's name, an identifier */
	const char *instance;		/* instructions, one a line */
	int instances;			/* per loop iteration */
	const char *init;		/* run once before the loop, or NULL */
	int counter;			/* the loop counter's GPR, or -1: a word on the stack */
	bool vex;			/* it uses VEX or EVEX: the vectors set with them */
	bool ring0_only;		/* privileged: the user-mode rehearsal skips its loop */
};

/*
 * The C source of an object holding kernels k[0..n-1], into f; 0 or -EIO.
 * The same on every machine: what the vector registers may be is asked
 * when it runs, so an object built here runs on a machine without a
 * compiler (insn --build-only, then --keep there).
 */
int cbench_asm_write(FILE *f, const struct cbench_asm_kernel *k, int n);

/*
 * Builds dir/<name>.c (and cbench.h, written beside it) into so_path with
 * the C compiler ($CC, else cc) and cbench's kernel-safe flags.  0, or
 * -ENOENT when no compiler runs (with what to install), -EINVAL with the
 * assembler's first complaints in why.
 */
int cbench_asm_build(const char *c_path, const char *so_path, char *why, size_t why_bytes);

/* cbench.h's text, built into cbenchctl (object/cbench_header.S). */
extern const char cbench_header_text[];

#endif /* _CBENCH_ASMGEN_H */
