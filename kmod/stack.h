/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _CBENCH_STACK_H
#define _CBENCH_STACK_H

#include <linux/types.h>
#include <asm/pgtable_types.h>

struct page;

/*
 * The stack benchmark code runs on in ring 0, one per run (stack.c):
 * call_stack_bytes, a power of two, at an address aligned to it, with at
 * least as many unmapped bytes below it.
 */
struct cbench_stack {
	void *area;			/* vmap'd: the stack, and unmapped pages around it */
	unsigned long area_pages;
	unsigned long lo;		/* the stack's lowest byte, aligned to its size */
	unsigned long top;		/* one past its highest */
	void *pages;			/* vmalloc'd: the memory the stack's PTEs map */
	struct page *zero;		/* what vmap mapped the area with */
	pte_t *saved;			/* the area's PTEs as vmap made them */
};

/* Allocates a stack of the module's call_stack_bytes; 0 or -errno. */
int cbench_stack_new(struct cbench_stack *stack);
/* Frees it (a zeroed one too); no call may be on it. */
void cbench_stack_free(struct cbench_stack *stack);
/* The deepest the calls made on it went so far, in bytes. */
u64 cbench_stack_used(const struct cbench_stack *stack);

#endif /* _CBENCH_STACK_H */
