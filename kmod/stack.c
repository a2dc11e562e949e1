// SPDX-License-Identifier: GPL-2.0
/*
 * The stack benchmark code runs on in ring 0.
 *
 * A kernel thread's stack is THREAD_SIZE, 16 KiB, and some of it is taken
 * before a benchmark is called; user mode gives a thread 8 MiB.  A benchmark
 * that recurses, or keeps a large array on its stack, runs fine in the
 * user-mode rehearsal and overflows the kernel's stack in ring 0.  So each
 * run gets a stack of its own, of the module's call_stack_bytes, which the
 * trampoline switches to for every call (trampoline.S).
 *
 * An overflow of it is a double fault, which the kernel does not survive:
 * the CPU cannot push the page fault's frame on the stack that overflowed.
 * So it must not happen, and cbenchctl sees to that (user/object/kstack.h):
 * it bounds what each function of an image may use, and where calls form
 * cycles it puts checks at function entries that end the call with ud2
 * while the stack still has room for the kernel to take it (INFO's
 * CBENCH_A_LIMIT_STACK_RESERVE_BYTES).  A check needs no memory: the stack
 * is a power of two in size and aligned to it, so the low bits of %rsp are
 * what is left of it.
 *
 * vmalloc() aligns to a page, and the kernel exports nothing that aligns
 * more, so we make the alignment ourselves: vmap() three times the stack's
 * size of one zeroed page, point the PTEs of the aligned stretch inside
 * at the pages of a vmalloc()'d stack, and clear the others, so at least
 * the stack's size below it (and what lies above it) faults rather than
 * reaching other memory.  As for an image's text (image.c), we save each
 * PTE and put it back verbatim before vunmap().
 *
 * The stack is painted before use, so that the deepest any call went can
 * be read afterwards (RUN_GET's CBENCH_A_RUN_STACK_USED).
 */
#include <linux/gfp.h>
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

/* The area holds this many stacks' sizes: one aligned stack lies inside. */
#define AREA_STACKS 3

/* Puts back the first n PTEs of the area. */
static void restore(struct cbench_stack *stack, unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++) {
		unsigned int level;
		pte_t *pte = lookup_address((unsigned long)stack->area + i * PAGE_SIZE, &level);

		set_pte(pte, stack->saved[i]);
	}
	cbench_flush_tlb_everywhere();
}

/* The aligned stretch onto the stack's pages, every other page of the area cleared. */
static int remap(struct cbench_stack *stack)
{
	unsigned long i;

	for (i = 0; i < stack->area_pages; i++) {
		unsigned long addr = (unsigned long)stack->area + i * PAGE_SIZE;
		unsigned int level;
		pte_t *pte = lookup_address(addr, &level);

		if (!pte || level != PG_LEVEL_4K) {
			/* vmap maps 4 KiB pages; anything else we do not touch. */
			restore(stack, i);
			return -EFAULT;
		}
		stack->saved[i] = *pte;
		if (addr >= stack->lo && addr < stack->top)
			set_pte(pte, mk_pte(vmalloc_to_page(stack->pages + (addr - stack->lo)), PAGE_KERNEL));
		else
			pte_clear(&init_mm, addr, pte);
	}
	cbench_flush_tlb_everywhere();
	return 0;
}

/* The area: AREA_STACKS times bytes of the zeroed page. */
static int map_area(struct cbench_stack *stack, unsigned long bytes)
{
	unsigned long i, count = AREA_STACKS * (bytes >> PAGE_SHIFT);
	struct page **map = kvmalloc_array(count, sizeof(*map), GFP_KERNEL);

	stack->saved = kvcalloc(count, sizeof(*stack->saved), GFP_KERNEL);
	if (!map || !stack->saved) {
		kvfree(map);
		return -ENOMEM;
	}
	for (i = 0; i < count; i++)
		map[i] = stack->zero;
	stack->area = vmap(map, count, VM_MAP, PAGE_KERNEL);
	kvfree(map);
	if (!stack->area)
		return -ENOMEM;
	stack->area_pages = count;
	return 0;
}

int cbench_stack_new(struct cbench_stack *stack)
{
	unsigned long bytes = cbench_limits.stack_bytes;
	int ret;

	memset(stack, 0, sizeof(*stack));
	stack->pages = vmalloc(bytes);
	stack->zero = alloc_page(GFP_KERNEL | __GFP_ZERO);
	ret = stack->pages && stack->zero ? map_area(stack, bytes) : -ENOMEM;
	if (ret)
		goto fail;
	/* bytes is a power of two (limits.c): at least bytes below lo, and room above. */
	stack->lo = ALIGN((unsigned long)stack->area + bytes, bytes);
	stack->top = stack->lo + bytes;
	ret = remap(stack);
	if (ret)
		goto fail;
	memset((void *)stack->lo, PAINT, bytes);
	return 0;
fail:
	if (stack->area)
		vunmap(stack->area);
	kvfree(stack->saved);
	if (stack->zero)
		__free_page(stack->zero);
	vfree(stack->pages);
	memset(stack, 0, sizeof(*stack));
	return ret;
}

void cbench_stack_free(struct cbench_stack *stack)
{
	if (!stack->area)
		return;
	restore(stack, stack->area_pages);
	vunmap(stack->area);
	kvfree(stack->saved);
	__free_page(stack->zero);
	vfree(stack->pages);
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
