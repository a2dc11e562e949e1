/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _CBENCH_STACK_H
#define _CBENCH_STACK_H

#include <linux/types.h>
#include <asm/pgtable_types.h>

/*
 * Unmapped bytes below a benchmark's stack (stack.c): code that overruns
 * the stack by less than this faults instead of writing over what lies
 * below it.
 */
#define CBENCH_STACK_GUARD_BYTES (64UL * 1024)

/* The stack benchmark code runs on in ring 0, one per run (stack.c). */
struct cbench_stack {
	void *area;			/* vmalloc'd: the guard, then the stack */
	unsigned long lo;		/* the stack's lowest byte, above the guard */
	unsigned long top;		/* one past its highest, 16-byte aligned */
	pte_t *saved;			/* the guard pages' PTEs before we cleared them */
};

/* Allocates a stack of the module's call_stack_bytes; 0 or -ENOMEM. */
int cbench_stack_new(struct cbench_stack *stack);
/* Frees it (a zeroed one too); no call may be on it. */
void cbench_stack_free(struct cbench_stack *stack);
/* The deepest the calls made on it went so far, in bytes. */
u64 cbench_stack_used(const struct cbench_stack *stack);

#endif /* _CBENCH_STACK_H */
