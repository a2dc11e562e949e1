/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _CBENCH_LIMITS_H
#define _CBENCH_LIMITS_H

#include <linux/atomic.h>
#include <linux/init.h>
#include <linux/types.h>

/* The module's limits, set as module parameters at load time only. */
struct cbench_limits {
	unsigned long image_bytes;	/* largest benchmark image, bytes */
	unsigned long arena_bytes;	/* largest scratch arena, bytes */
	unsigned int samples;		/* most samples in one run */
	unsigned long irqoff_ns;	/* longest interrupts-off window, ns */
	unsigned int runs;		/* most runs at the same time */
	unsigned long tp_records;	/* most timing-point records of one run,
					 * all samples together (16 bytes each) */
	unsigned int call_ms;		/* longest call of benchmark code before
					 * the watchdog ends it (guard.c) */
	bool unwatched;			/* take runs where no CPU can watch */
	unsigned int quiet;		/* a run's enum cbench_quiet by default */
	unsigned long stack_bytes;	/* the stack benchmark code runs on (stack.c),
					 * bytes, a power of two */
	unsigned int fault_net;		/* enum cbench_fault_net to try (guard.c) */
};

/* Images and runs allocated and not yet freed: image.c and measure.c count them. */
struct cbench_live {
	atomic_t images;
	atomic_t runs;
};

extern struct cbench_limits cbench_limits;
extern struct cbench_live cbench_live;

int __init cbench_limits_check(void);

#endif /* _CBENCH_LIMITS_H */
