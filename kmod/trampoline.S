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
#include <linux/objtool.h>
#include <asm/nospec-branch.h>

/* struct cbench_guard's first fields (guard.h checks these offsets). */
#define GUARD_SP	0
#define GUARD_BP	8
#define GUARD_FLAGS	16
#define GUARD_INSIDE	24

/*
 * u64 cbench_trampoline(void *fn, void *ctx, u64 reps, struct cbench_guard *guard)
 *
 * Calls fn(ctx, reps); returns whatever fn left in %rax (setup()'s int).
 * Before the call it leaves in *guard what the watchdog's NMI handler needs
 * to resume this CPU at cbench_trampoline_resume should fn never return
 * (guard.c): the stack pointer and frame at the call, the flags at entry,
 * and "inside" set from just before the call to just after it.  From
 * there on the frame below %rbp is all that is needed to return, the
 * callee-saved registers included.
 */
SYM_FUNC_START(cbench_trampoline)
	push	%rbp
	mov	%rsp, %rbp
	push	%rbx
	push	%r12
	push	%r13
	push	%r14
	push	%r15
	push	%rcx
	pushf
	pop	%rax
	mov	%rax, GUARD_FLAGS(%rcx)
	and	$-16, %rsp
	mov	%rsp, GUARD_SP(%rcx)
	mov	%rbp, GUARD_BP(%rcx)
	movq	$1, GUARD_INSIDE(%rcx)
	mov	%rdi, %rax
	mov	%rsi, %rdi
	mov	%rdx, %rsi
	xor	%edx, %edx
	xor	%ecx, %ecx
	xor	%r8d, %r8d
	xor	%r9d, %r9d
	CALL_NOSPEC rax
SYM_INNER_LABEL(cbench_trampoline_resume, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	mov	-48(%rbp), %rcx
	movq	$0, GUARD_INSIDE(%rcx)
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
