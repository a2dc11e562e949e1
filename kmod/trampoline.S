/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one way cbench.ko enters benchmark code.
 *
 * A benchmark is user-compiled C: it follows the SysV ABI, which wants the
 * stack 16-byte aligned at a call (gcc's movaps on a stack slot #GPs
 * otherwise) while the kernel keeps it only 8-byte aligned.  So we align it,
 * keep a frame pointer for the unwinder, save the callee-saved registers
 * ourselves rather than trust the callee, clear the argument registers the
 * callee does not take, and call through CALL_NOSPEC so the indirect call is
 * a retpoline where the kernel wants one.  SYM_FUNC_START gives us endbr64
 * for IBT kernels; the target must start with one too (checked on upload).
 */
#include <linux/linkage.h>
#include <asm/nospec-branch.h>

/*
 * u64 cbench_trampoline(void *fn, void *ctx, u64 reps)
 *
 * Calls fn(ctx, reps); returns whatever fn left in %rax (setup()'s int).
 */
SYM_FUNC_START(cbench_trampoline)
	push	%rbp
	mov	%rsp, %rbp
	push	%rbx
	push	%r12
	push	%r13
	push	%r14
	push	%r15
	and	$-16, %rsp
	mov	%rdi, %rax
	mov	%rsi, %rdi
	mov	%rdx, %rsi
	xor	%edx, %edx
	xor	%ecx, %ecx
	xor	%r8d, %r8d
	xor	%r9d, %r9d
	CALL_NOSPEC rax
	lea	-40(%rbp), %rsp
	pop	%r15
	pop	%r14
	pop	%r13
	pop	%r12
	pop	%rbx
	pop	%rbp
	RET
SYM_FUNC_END(cbench_trampoline)

/*
 * void cbench_empty(void *ctx, u64 reps)
 *
 * Does nothing: calling it through the trampoline measures what one sample
 * costs beyond the benchmark itself.
 */
SYM_FUNC_START(cbench_empty)
	RET
SYM_FUNC_END(cbench_empty)
