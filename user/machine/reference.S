/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reference code with known cost, measured next to benchmarks (see
 * reference.h).  The same bytes run in user mode, called directly, and in
 * ring 0, copied into a kernel image by the kmod backend: every function is
 * position-independent, touches no memory but the context's timing-point
 * state and buffer (cbench_ref_tpoints), has no relocation, and starts
 * with endbr64 (IBT kernels demand it at every indirect-call target).  The
 * calling convention is a benchmark's: run(ctx in %rdi, reps in %rsi).
 */
#define ADDS_PER_REP 1000	/* CBENCH_REF_ADDS_PER_REP in reference.h */
#define WIDE_ADDS_PER_REP 980	/* CBENCH_REF_WIDE_ADDS_PER_REP */

	.text
	.p2align 6
	.globl	cbench_ref_begin
	.hidden	cbench_ref_begin
cbench_ref_begin:

/* Nothing: the cost of timing a call. */
	.globl	cbench_ref_empty
	.type	cbench_ref_empty, @function
cbench_ref_empty:
	endbr64
	ret
	.size	cbench_ref_empty, .-cbench_ref_empty

/*
 * reps times ADDS_PER_REP dependent adds to %rax: one core cycle each on
 * every x86-64 core we know, the loop's own dec/jne running alongside.
 * Register to register: Intel's cores since Golden Cove fold a chain of
 * add r64, imm at rename, several a cycle (measured: 0.18 cycles an add
 * on Emerald Rapids), so only an addend in a register costs a cycle.
 */
	.p2align 6
	.globl	cbench_ref_add_chain
	.type	cbench_ref_add_chain, @function
cbench_ref_add_chain:
	endbr64
	test	%rsi, %rsi
	je	2f
	mov	$1, %edx
	.p2align 4
1:
	.rept	ADDS_PER_REP
	add	%rdx, %rax
	.endr
	dec	%rsi
	jne	1b
2:
	ret
	.size	cbench_ref_add_chain, .-cbench_ref_add_chain

/*
 * reps times WIDE_ADDS_PER_REP adds in seven independent chains, through
 * the caller-saved registers but %rsi (the count) and %rdx (the addend):
 * as many adds a cycle as the core has ALUs free (four to six on the cores
 * we know), where the chain above needs one.  A thread on the core's other
 * hyperthread (another tenant's vCPU on a shared host) takes ALUs from this
 * and barely slows the chain above: their ratio says whether the core was
 * shared (worker.c, stats/trials.h).
 */
	.p2align 6
	.globl	cbench_ref_wide
	.type	cbench_ref_wide, @function
cbench_ref_wide:
	endbr64
	test	%rsi, %rsi
	je	2f
	mov	$1, %edx
	.p2align 4
1:
	.rept	WIDE_ADDS_PER_REP / 7
	add	%rdx, %rax
	add	%rdx, %rcx
	add	%rdx, %rdi
	add	%rdx, %r8
	add	%rdx, %r9
	add	%rdx, %r10
	add	%rdx, %r11
	.endr
	dec	%rsi
	jne	1b
2:
	ret
	.size	cbench_ref_wide, .-cbench_ref_wide

/*
 * reps iterations of one dependent add: a delay of reps cycles or so, for
 * spreading the lengths of timed regions when we learn the timer's step.
 */
	.p2align 6
	.globl	cbench_ref_spin
	.type	cbench_ref_spin, @function
cbench_ref_spin:
	endbr64
	test	%rsi, %rsi
	je	2f
	mov	$1, %edx
1:
	add	%rdx, %rax
	dec	%rsi
	jne	1b
2:
	ret
	.size	cbench_ref_spin, .-cbench_ref_spin

/*
 * reps loop timing points back to back, each after one marked iteration:
 * cbench.h's cbench_mark(it); cbench_tpoint(ctx, it), as gcc -O2 builds
 * them, so that consecutive records are apart by MIN_TIMING, the timing
 * point's own cost (Lau et al.), where this runs (ring 0 for the kmod
 * backend).  The offsets are struct cbench_ctx's: tp.buf at 24, capacity
 * 32, next 40, every 48, countdown 56; a record is 16 bytes.
 */
	.p2align 6
	.globl	cbench_ref_tpoints
	.type	cbench_ref_tpoints, @function
cbench_ref_tpoints:
	endbr64
	test	%rsi, %rsi
	je	2f
	xor	%r8d, %r8d		/* it */
1:
	inc	%r8			/* cbench_mark(it) */
	cmpq	$0, 24(%rdi)		/* tp.buf */
	je	3f
	decq	56(%rdi)		/* --tp.countdown */
	jne	3f
	mov	40(%rdi), %r9		/* i = tp.next++ */
	lea	1(%r9), %r10
	mov	%r10, 40(%rdi)
	mov	48(%rdi), %r10		/* tp.countdown = tp.every */
	mov	%r10, 56(%rdi)
	rdtscp
	lfence
	cmp	32(%rdi), %r9		/* i < tp.capacity */
	jae	3f
	mov	24(%rdi), %r10
	shl	$4, %r9
	shl	$32, %rdx
	or	%rdx, %rax
	mov	%rax, (%r10,%r9)	/* .tsc */
	mov	%r8, 8(%r10,%r9)	/* .count */
3:
	dec	%rsi
	jne	1b
2:
	ret
	.size	cbench_ref_tpoints, .-cbench_ref_tpoints

	.globl	cbench_ref_end
	.hidden	cbench_ref_end
cbench_ref_end:

	.section .note.GNU-stack, "", @progbits
