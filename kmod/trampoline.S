/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one way cbench.ko enters benchmark code.
 *
 * Benchmark code runs on a stack of its own (stack.c), far larger than a
 * kernel thread's: we switch to it for the call and back after, keeping our
 * frame on the thread's stack.  A benchmark is user-compiled C: it follows
 * the SysV ABI, which wants the stack 16-byte aligned at a call (gcc's
 * movaps on a stack slot #GPs otherwise) while the kernel keeps its own only
 * 8-byte aligned; the top of the benchmark's stack is 16-byte aligned.  We
 * keep a frame pointer for the unwinder, save the callee-saved registers
 * ourselves rather than trust the callee, clear the argument registers the
 * callee does not take, and call through CALL_NOSPEC so the indirect call is
 * a retpoline where the kernel wants one.  SYM_FUNC_START gives us endbr64
 * for IBT kernels; the target must start with one too (checked on upload).
 */
#include <linux/linkage.h>
#include <linux/objtool.h>
#include <asm/asm.h>
#include <asm/nospec-branch.h>

/* struct cbench_guard's first fields (guard.c checks these offsets). */
#define GUARD_SP	0
#define GUARD_BP	8
#define GUARD_FLAGS	16
#define GUARD_INSIDE	24
#define GUARD_STACK	32
#define GUARD_FLAGS_AFTER 40

/*
 * u64 cbench_trampoline(void *fn, void *ctx, u64 reps, struct cbench_guard *guard)
 *
 * Calls fn(ctx, reps) on the stack whose top is guard->stack; returns
 * whatever fn left in %rax (setup()'s int).  Before the call it leaves in
 * *guard what the safety net needs to resume this CPU at
 * cbench_trampoline_resume should fn never return or fault (guard.c): the
 * stack pointer and frame at the call, the flags at entry, and "inside" set
 * from just before the call to just after it.  From there on the frame
 * below %rbp, on the thread's stack, is all that is needed to return, the
 * callee-saved registers included.
 *
 * After the call it leaves the flags fn returned with in guard->flags_after
 * and puts back those of entry: code that turned interrupts on or off, set
 * the trap, direction or alignment-check flag, is stopped from leaving it
 * so, and the run refuses its samples (measure.c).
 *
 * cbench_trampoline_landing has an exception-table entry that moves on to
 * cbench_trampoline_resume: the page-fault net (guard.c) points a fault in
 * benchmark code there, and the kernel's own fault handler, finding the
 * entry, resumes here without an oops.  It is a nop, run after every call.
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
	mov	GUARD_STACK(%rcx), %rax
	mov	%rax, %rsp
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
SYM_INNER_LABEL(cbench_trampoline_landing, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	nop
SYM_INNER_LABEL(cbench_trampoline_resume, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	mov	-48(%rbp), %rcx
	pushf
	pop	%rdx
	mov	%rdx, GUARD_FLAGS_AFTER(%rcx)
	push	GUARD_FLAGS(%rcx)
	popf
	movq	$0, GUARD_INSIDE(%rcx)
	lea	-40(%rbp), %rsp
	pop	%r15
	pop	%r14
	pop	%r13
	pop	%r12
	pop	%rbx
	pop	%rbp
SYM_INNER_LABEL(cbench_trampoline_ret, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	RET
SYM_FUNC_END(cbench_trampoline)
	_ASM_EXTABLE(cbench_trampoline_landing, cbench_trampoline_resume)

/*
 * void cbench_empty(void *ctx, u64 reps)
 *
 * Does nothing: calling it through the trampoline measures what one sample
 * costs beyond the benchmark itself.
 */
SYM_FUNC_START(cbench_empty)
	RET
SYM_FUNC_END(cbench_empty)
