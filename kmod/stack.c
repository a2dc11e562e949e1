// SPDX-License-Identifier: GPL-2.0
/*
 * The stack benchmark code runs on in ring 0.
 *
 * A kernel thread's stack is THREAD_SIZE, 16 KiB, and some of it is taken
 * before a benchmark is called; user mode gives a thread 8 MiB.  A benchmark
 * that recurses, or keeps a large array on its stack, runs fine in the
 * user-mode rehearsal and overflows the kernel's stack in ring 0: a double
 * fault, a panic, with other kernel memory written over first.  So each run
 * gets a stack of its own, of the module's call_stack_bytes, which the
 * trampoline switches to for every call (trampoline.S), and cbenchctl
 * rehearses every call on a user-mode stack of that size less a margin for
 * what interrupts and exceptions push in ring 0 (INFO's
 * CBENCH_A_LIMIT_STACK_BYTES).
 *
 * Below it lie CBENCH_STACK_GUARD_BYTES of pages whose PTEs we clear, so
 * that code overrunning the stack by less than that faults rather than
 * writes over the vmalloc area below (vmalloc keeps one unmapped page
 * between areas, which a large frame steps over).  That fault is a double
 * fault, which the kernel does not survive: the CPU cannot push the
 * exception's frame on the stack that overflowed.  The rehearsal keeps it
 * from happening; the guard only keeps memory from being overwritten
 * silently first.  As for an image's text (image.c), we save each PTE and
 * put it back verbatim before vfree().
 *
 * The stack is painted before use, so that the deepest any call went can
 * be read afterwards (RUN_GET's CBENCH_A_RUN_STACK_USED).
 */
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include <asm/pgtable.h>

#include "image.h"
#include "limits.h"
#include "stack.h"

/* What a byte of the stack holds until a call writes it. */
#define PAINT 0xcb

#define GUARD_PAGES (CBENCH_STACK_GUARD_BYTES / PAGE_SIZE)

/* Puts back the first n guard PTEs. */
static void remap_guard(struct cbench_stack *stack, unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++) {
		unsigned int level;
		pte_t *pte = lookup_address((unsigned long)stack->area + i * PAGE_SIZE, &level);

		set_pte(pte, stack->saved[i]);
	}
	cbench_flush_tlb_everywhere();
}

static int unmap_guard(struct cbench_stack *stack)
{
	unsigned long i;

	stack->saved = kcalloc(GUARD_PAGES, sizeof(*stack->saved), GFP_KERNEL);
	if (!stack->saved)
		return -ENOMEM;
	for (i = 0; i < GUARD_PAGES; i++) {
		unsigned long addr = (unsigned long)stack->area + i * PAGE_SIZE;
		unsigned int level;
		pte_t *pte = lookup_address(addr, &level);

		if (!pte || level != PG_LEVEL_4K) {
			/* vmalloc maps 4 KiB pages; anything else we do not touch. */
			remap_guard(stack, i);
			kfree(stack->saved);
			stack->saved = NULL;
			return -EFAULT;
		}
		stack->saved[i] = *pte;
		pte_clear(&init_mm, addr, pte);
	}
	cbench_flush_tlb_everywhere();
	return 0;
}

int cbench_stack_new(struct cbench_stack *stack)
{
	unsigned long bytes = cbench_limits.stack_bytes;
	int ret;

	memset(stack, 0, sizeof(*stack));
	stack->area = vmalloc(CBENCH_STACK_GUARD_BYTES + bytes);
	if (!stack->area)
		return -ENOMEM;
	ret = unmap_guard(stack);
	if (ret) {
		vfree(stack->area);
		stack->area = NULL;
		return ret;
	}
	stack->lo = (unsigned long)stack->area + CBENCH_STACK_GUARD_BYTES;
	stack->top = (stack->lo + bytes) & ~15UL;
	memset((void *)stack->lo, PAINT, stack->top - stack->lo);
	return 0;
}

void cbench_stack_free(struct cbench_stack *stack)
{
	if (!stack->area)
		return;
	if (stack->saved) {
		remap_guard(stack, GUARD_PAGES);
		kfree(stack->saved);
	}
	vfree(stack->area);
	memset(stack, 0, sizeof(*stack));
}

u64 cbench_stack_used(const struct cbench_stack *stack)
{
	const u8 *p = (const u8 *)stack->lo, *top = (const u8 *)stack->top;

	if (!stack->area)
		return 0;
	while (p < top && *p == PAINT)
		p++;
	return top - p;
}
