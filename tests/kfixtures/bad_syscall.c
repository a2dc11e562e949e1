// SPDX-License-Identifier: GPL-2.0
/*
 * Makes a system call, only at CPL 0, where it would enter the kernel's
 * syscall entry as if from user mode: the user-mode rehearsal never meets
 * it, and cbenchctl's code check must refuse the object before upload
 * (object/kcode.c).
 */
#include <cbench.h>

static void in_ring0(struct cbench_ctx *ctx, uint64_t reps)
{
	uint16_t cs;

	cbench_launder(reps);
	__asm__ volatile("mov %%cs, %0" : "=r"(cs));
	if (!(cs & 3))
		__asm__ volatile("syscall" ::: "memory", "rcx", "r11");
}
CBENCH(in_ring0);
