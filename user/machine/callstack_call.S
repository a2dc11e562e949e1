/* SPDX-License-Identifier: GPL-2.0 */
/*
 * long cbench_callstack_call_on(uintptr_t top, const void *fn, void *a, uint64_t b)
 *
 * Calls fn(a, b) with the stack pointer at top (16-byte aligned, as the
 * SysV ABI wants it at a call) and returns what fn left in %rax.  Our own
 * frame stays on the caller's stack, reached through %rbp, which fn must
 * preserve as the ABI says.
 */
	.text
	.globl	cbench_callstack_call_on
	.hidden	cbench_callstack_call_on
	.type	cbench_callstack_call_on, @function
cbench_callstack_call_on:
	.cfi_startproc
	endbr64
	push	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	mov	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	mov	%rdi, %rsp
	mov	%rsi, %rax
	mov	%rdx, %rdi
	mov	%rcx, %rsi
	call	*%rax
	mov	%rbp, %rsp
	pop	%rbp
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
	.size	cbench_callstack_call_on, .-cbench_callstack_call_on

	.section .note.GNU-stack, "", @progbits
