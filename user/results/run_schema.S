/* SPDX-License-Identifier: GPL-2.0 */
/*
 * docs/schema/run.schema.json's text in cbenchctl: what every reader of a
 * run's JSON report checks the report's members against (report_check.c),
 * the schema the writer's output is tested to meet.
 */
	.section .rodata, "a"
	.globl cbench_run_schema_text
	.type cbench_run_schema_text, @object
cbench_run_schema_text:
	.incbin "docs/schema/run.schema.json"
	.byte 0
	.size cbench_run_schema_text, . - cbench_run_schema_text

	.section .note.GNU-stack, "", @progbits
