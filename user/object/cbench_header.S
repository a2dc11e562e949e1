/* SPDX-License-Identifier: GPL-2.0 */
/*
 * include/cbench.h's text in cbenchctl, for the objects `cbenchctl insn`
 * builds at run time (object/asmgen.c): they include the header the tool
 * was built with, wherever (or whether) it was installed.
 */
	.section .rodata, "a"
	.globl cbench_header_text
	.type cbench_header_text, @object
cbench_header_text:
	.incbin "include/cbench.h"
	.byte 0
	.size cbench_header_text, . - cbench_header_text

	.section .note.GNU-stack, "", @progbits
